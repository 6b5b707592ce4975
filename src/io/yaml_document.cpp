#include "yaml_document.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

#include "stasis/error.hpp"

namespace stasis::io::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string join_path(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ".") + p;
  return s;
}

bool matches(const std::vector<std::string>& path, const std::vector<std::string>& pattern) {
  if (path.size() != pattern.size()) return false;
  for (std::size_t i = 0; i < path.size(); ++i)
    if (pattern[i] != "*" && pattern[i] != path[i]) return false;
  return true;
}

bool is_section(const std::vector<std::string>& path, const std::vector<std::vector<std::string>>& sections) {
  for (const auto& s : sections)
    if (matches(path, s)) return true;
  return false;
}

std::string list(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

SourceLocation override_location(const std::string& arg) { return {"command line (-o " + arg + ")", 0, 0}; }

YamlDocument YamlDocument::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read problem file '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return from_string(ss.str(), path);
}

YamlDocument YamlDocument::from_string(std::string text, std::string display_name) {
  YamlDocument doc;
  doc.text_ = std::move(text);
  doc.name_ = std::move(display_name);
  try {
    doc.root_ = YAML::Load(doc.text_);
  } catch (const YAML::Exception& e) {
    throw Error(error_message({doc.name_, e.mark.line + 1, e.mark.column + 1}, "invalid YAML: " + e.msg));
  }
  return doc;
}

void YamlDocument::fail(const SourceLocation& where, const std::string& message) const {
  throw Error(error_message(where, message));
}

const std::string* YamlDocument::override_of(const YAML::Node& node) const {
  for (const auto& o : override_nodes_)
    if (node.is(o.node)) return &o.arg;
  return nullptr;
}

SourceLocation YamlDocument::where(const YAML::Node& node) const {
  if (const std::string* arg = override_of(node)) return override_location(*arg);
  const YAML::Mark m = node.Mark();
  if (m.is_null()) return {name_, 0, 0};
  return {name_, m.line + 1, m.column + 1};
}

Locator YamlDocument::locator(const YAML::Node& node) const {
  const SourceLocation start = where(node);
  const YAML::Mark m = node.Mark();
  if (override_of(node) || m.is_null() || m.pos < 0 || static_cast<std::size_t>(m.pos) >= text_.size() ||
      !node.IsScalar())
    return [start](std::size_t) { return start; };

  // Find where the value's characters begin in the file.
  std::size_t pos = static_cast<std::size_t>(m.pos);
  int line = start.line, column = start.column;
  char quote = '\0';
  const char first = text_[pos];
  if (first == '"' || first == '\'') {
    quote = first;
    ++pos;
    ++column;
  } else if (first == '|' || first == '>') {
    while (pos < text_.size() && text_[pos] != '\n') ++pos;
    if (pos < text_.size()) {
      ++pos;
      ++line;
      column = 1;
    }
  }
  const std::string* text = &text_;
  const std::string value = node.Scalar();
  const std::string file = name_;

  // Walk the value and the source together: equal characters advance both; escapes, doubled
  // quotes and folded line breaks advance the source only or both by different amounts.
  return [=](std::size_t offset) {
    std::size_t i = 0, j = pos;
    int l = line, c = column;
    const auto step = [&] {
      if ((*text)[j] == '\n') {
        ++l;
        c = 1;
      } else {
        ++c;
      }
      ++j;
    };
    while (i < offset && i < value.size() && j < text->size()) {
      const char vc = value[i], sc = (*text)[j];
      if (quote == '"' && sc == '\\') {
        step();
        if (j < text->size() && (*text)[j] == '\n') {  // escaped line break: no value character
          step();
          continue;
        }
        if (j < text->size()) step();
        ++i;
      } else if (quote == '\'' && sc == '\'') {
        step();
        if (j < text->size()) step();
        ++i;
      } else if (vc == sc) {
        step();
        ++i;
      } else if (is_space(sc)) {
        step();
      } else if (is_space(vc)) {
        ++i;
      } else {
        break;  // lost track; the position reached so far is the best guess
      }
    }
    if (i < value.size() && !is_space(value[i]))
      while (j < text->size() && is_space((*text)[j]) && (*text)[j] != value[i]) step();
    return SourceLocation{file, l, c};
  };
}

std::vector<MapEntry> YamlDocument::entries(const YAML::Node& map, const std::string& what) const {
  std::vector<MapEntry> result;
  if (!map || map.IsNull()) return result;
  if (!map.IsMap())
    fail(where(map), what + " must be a map (key: value pairs), not a " +
                         (map.IsSequence() ? std::string("list") : std::string("single value")));
  for (const auto& kv : map) {
    MapEntry e;
    e.key_where = where(kv.first);
    if (!kv.first.IsScalar()) fail(e.key_where, "the keys of " + what + " must be names");
    e.key = kv.first.Scalar();
    for (const auto& o : override_keys_)
      if (o.key == e.key && map.is(o.map)) e.key_where = override_location(o.arg);
    for (const auto& prior : result)
      if (prior.key == e.key)
        fail(e.key_where, "duplicate key '" + e.key + "' in " + what + " (first at line " +
                              std::to_string(prior.key_where.line) + ")");
    e.value = kv.second;
    e.value_where = (!e.value || e.value.IsNull()) ? e.key_where : where(e.value);
    result.push_back(std::move(e));
  }
  return result;
}

void YamlDocument::check_keys(const std::vector<MapEntry>& entries, const std::vector<std::string>& allowed,
                              const std::string& what) const {
  for (const auto& e : entries) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == e.key;
    if (ok) continue;
    std::string message = "unknown key '" + e.key + "' in " + what;
    const std::string suggestion = did_you_mean(e.key, allowed);
    message += suggestion.empty() ? ";" : suggestion;
    message += " valid keys: " + list(allowed);
    fail(e.key_where, message);
  }
}

std::string YamlDocument::scalar(const YAML::Node& node, const SourceLocation& at,
                                 const std::string& what) const {
  if (!node || node.IsNull()) fail(at, "missing value for " + what);
  if (!node.IsScalar())
    fail(where(node), what + " must be a single value, not a " +
                          (node.IsSequence() ? std::string("list") : std::string("map")));
  return node.Scalar();
}

sym::Expr YamlDocument::expression(const YAML::Node& node, const SourceLocation& at, const Scope& scope,
                                   const std::string& what) const {
  const std::string text = scalar(node, at, what);
  return parse_expression(text, scope, locator(node));
}

double YamlDocument::constant(const YAML::Node& node, const SourceLocation& at, const Scope& scope,
                              const std::string& what) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::string text = scalar(node, at, what);
  // YAML's own spellings of infinity, so that JSON-minded or YAML-minded writers both work.
  static const std::set<std::string> pos_inf = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"};
  static const std::set<std::string> neg_inf = {"-.inf", "-.Inf", "-.INF"};
  if (pos_inf.count(text)) return inf;
  if (neg_inf.count(text)) return -inf;
  const sym::Expr e = parse_expression(text, scope, locator(node));
  if (!e.is_constant()) {
    std::string names;
    for (const auto& s : sym::free_symbols({e})) names += (names.empty() ? "" : ", ") + s.name();
    fail(where(node), what + " must be a constant, but '" + text + "' depends on " + names);
  }
  const double v = e.constant_value();
  if (std::isnan(v)) fail(where(node), what + " is not a number (nan): '" + text + "'");
  return v;
}

// ---- overrides ----

void YamlDocument::remember_override_nodes(const YAML::Node& node, const std::string& arg) {
  override_nodes_.push_back({node, arg});
  if (node.IsSequence() || node.IsMap()) {
    for (const auto& child : node) {
      if (node.IsMap()) {
        remember_override_nodes(child.first, arg);
        remember_override_nodes(child.second, arg);
      } else {
        remember_override_nodes(child, arg);
      }
    }
  }
}

void YamlDocument::apply_overrides(const std::vector<std::string>& overrides,
                                   const std::vector<std::string>& sections) {
  std::vector<std::vector<std::string>> patterns;
  for (const auto& s : sections) patterns.push_back(s.empty() ? std::vector<std::string>{} : split_path(s));
  for (const auto& arg : overrides) apply_override(arg, patterns);
}

void YamlDocument::apply_override(const std::string& arg,
                                  const std::vector<std::vector<std::string>>& sections) {
  const SourceLocation at = override_location(arg);
  const std::size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    fail(at, "expected key=value (a dotted path into the file, e.g. -o options.sigma0=0.5)");
  const std::vector<std::string> path = split_path(arg.substr(0, eq));
  for (const auto& p : path)
    if (p.empty())
      fail(at, "empty name in the path '" + arg.substr(0, eq) + "', expected names separated by '.'");
  YAML::Node value;
  try {
    value = YAML::Load(arg.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    fail(at, "the value is not valid YAML: " + e.msg);
  }

  if (!root_ || root_.IsNull()) root_ = YAML::Node(YAML::NodeType::Map);
  YAML::Node cur = root_;  // rebound with reset(): operator= would overwrite the node itself
  std::vector<std::string> done;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const std::string& name = path[i];
    const bool last = i + 1 == path.size();
    const std::string here = done.empty() ? std::string("the top level") : "'" + join_path(done) + "'";

    if (cur.IsSequence()) {
      const bool digits = name.find_first_not_of("0123456789") == std::string::npos && name.size() < 9;
      const std::size_t index = digits ? std::stoul(name) : 0;
      if (!digits || index >= cur.size())
        fail(at, here + " is a list of " + std::to_string(cur.size()) + ", expected an index 0 to " +
                     std::to_string(cur.size()) + " - 1 instead of '" + name + "'");
      if (last) {
        cur[index] = value;
        remember_override_nodes(value, arg);
        return;
      }
      YAML::Node child = cur[index];
      cur.reset(child);
      done.push_back(name);
      continue;
    }
    if (!cur.IsMap())
      fail(at, here + (cur.IsNull() ? " is empty" : " is a single value, not a map") + ", so it has no '" +
                   name + "'");

    bool found = false;
    std::vector<std::string> existing;
    for (const auto& kv : cur) {
      if (!kv.first.IsScalar()) continue;
      existing.push_back(kv.first.Scalar());
      found = found || kv.first.Scalar() == name;
    }
    std::vector<std::string> child_path = done;
    child_path.push_back(name);

    if (!found) {
      const bool may_add = is_section(done, sections) && (last || is_section(child_path, sections));
      if (!may_add) {
        std::string message = "unknown key '" + name + "' in " + here;
        const std::string suggestion = did_you_mean(name, existing);
        message +=
            suggestion.empty() ? (existing.empty() ? "" : "; existing keys: " + list(existing)) : suggestion;
        fail(at, message);
      }
      override_keys_.push_back({cur, name, arg});
      if (last) {
        cur[name] = value;
        remember_override_nodes(value, arg);
        return;
      }
      cur[name] = YAML::Node(YAML::NodeType::Map);
    } else if (last) {
      cur[name] = value;
      remember_override_nodes(value, arg);
      return;
    }
    YAML::Node child = cur[name];
    if (child.IsNull() && is_section(child_path, sections)) {
      cur[name] = YAML::Node(YAML::NodeType::Map);
      child.reset(cur[name]);
    }
    cur.reset(child);
    done = std::move(child_path);
  }
}

}  // namespace stasis::io::detail
