// Schema pieces shared by the problem-file readers (see file_schema.hpp).
#include "file_schema.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "stasis/error.hpp"

namespace stasis::io::detail {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

std::string num(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

const MapEntry* find_entry(const std::vector<MapEntry>& entries, const std::string& key) {
  for (const auto& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

SourceLocation named_option_location(const std::string& message, const std::vector<MapEntry>& entries,
                                     const SourceLocation& fallback) {
  SourceLocation where = fallback;
  for (const auto& e : entries)
    if (message.find("option '" + e.key + "'") != std::string::npos) where = e.value_where;
  return where;
}

void Names::check(const std::string& n, const SourceLocation& where, const std::string& kind) {
  if (!is_identifier(n))
    doc_.fail(where, kind + " name '" + n +
                         "' is not a valid name, expected letters, digits and '_', "
                         "not starting with a digit");
  if (is_reserved_name(n))
    doc_.fail(where, kind + " name '" + n + "' is reserved (" +
                         (n == "pi" || n == "inf" ? std::string("a constant") : std::string("a function")) +
                         "), expected another name");
  if (const auto r = reserved_.find(n); r != reserved_.end())
    doc_.fail(where, kind + " name '" + n + "' is reserved: " + r->second);
  const auto it = declared_.find(n);
  if (it != declared_.end())
    doc_.fail(where, kind + " '" + n + "' is already declared as a " + it->second.first + " at " +
                         to_string(it->second.second));
  declared_[n] = {kind, where};
}

std::string Names::kind_of(const std::string& name) const {
  const auto it = declared_.find(name);
  return it == declared_.end() ? std::string() : it->second.first;
}

void check_bounds(const YamlDocument& doc, const SourceLocation& where, const std::string& what, double lower,
                  double upper) {
  if (lower > upper)
    doc.fail(where, what + ": lower bound " + num(lower) + " > upper bound " + num(upper) +
                        ", expected lower <= upper");
  if (lower == kInf) doc.fail(where, what + ": lower bound is +inf, expected a finite value or -inf");
  if (upper == -kInf) doc.fail(where, what + ": upper bound is -inf, expected a finite value or +inf");
}

void read_parameters(const YamlDocument& doc, const MapEntry& section, Names& names, Scope& scope,
                     std::vector<std::pair<std::string, double>>& scalars,
                     std::vector<std::pair<std::string, std::vector<double>>>& vectors) {
  for (const auto& e : doc.entries(section.value, "parameters")) {
    names.check(e, "parameter");
    if (e.value.IsSequence()) {
      std::vector<double> values;
      sym::Vector exprs;
      for (std::size_t i = 0; i < e.value.size(); ++i) {
        const YAML::Node item = e.value[i];
        const double v = doc.constant(item, doc.where(item), scope,
                                      "element " + std::to_string(i) + " of parameter '" + e.key + "'");
        values.push_back(v);
        exprs.emplace_back(v);
      }
      scope.define_vector(e.key, exprs);
      vectors.emplace_back(e.key, values);
    } else {
      const double v = doc.constant(e.value, e.value_where, scope, "parameter '" + e.key + "'");
      scope.define(e.key, sym::Expr(v));
      scalars.emplace_back(e.key, v);
    }
  }
}

void read_definitions(const YamlDocument& doc, const MapEntry& section, Names& names, Scope& scope,
                      std::vector<std::pair<std::string, sym::Expr>>& scalars) {
  for (const auto& e : doc.entries(section.value, "definitions")) {
    names.check(e, "definition");
    if (e.value.IsSequence()) {
      sym::Vector exprs;
      for (std::size_t i = 0; i < e.value.size(); ++i) {
        const YAML::Node item = e.value[i];
        exprs.push_back(doc.expression(item, doc.where(item), scope,
                                       "element " + std::to_string(i) + " of definition '" + e.key + "'"));
      }
      scope.define_vector(e.key, exprs);
    } else {
      const sym::Expr value = doc.expression(e.value, e.value_where, scope, "definition '" + e.key + "'");
      scope.define(e.key, value);
      scalars.emplace_back(e.key, value);
    }
  }
}

int integer(const YamlDocument& doc, const YAML::Node& node, const SourceLocation& where, const Scope& scope,
            const std::string& what) {
  const double v = doc.constant(node, where, scope, what);
  if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 1e9)
    doc.fail(doc.where(node), what + " is " + num(v) + ", expected a whole number");
  return static_cast<int>(v);
}

bool boolean(const YamlDocument& doc, const YAML::Node& node, const SourceLocation& where,
             const std::string& what) {
  const std::string text = doc.scalar(node, where, what);
  for (const char* s : {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})
    if (text == s) return true;
  for (const char* s : {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})
    if (text == s) return false;
  doc.fail(doc.where(node), what + " is '" + text + "', expected true or false");
}

ConstraintText read_constraint(const YamlDocument& doc, const YAML::Node& item, const std::string& what,
                               const Scope& scope, bool allow_at) {
  ConstraintText c;
  c.where = doc.where(item);
  if (item.IsScalar()) {
    c.text = item.Scalar();
    const Relation r = parse_relation(c.text, scope, doc.locator(item));
    c.expr = r.expr;
    c.lower = r.lower;
    c.upper = r.upper;
  } else if (item.IsMap()) {
    const std::vector<MapEntry> fields = doc.entries(item, what);
    doc.check_keys(fields,
                   allow_at ? std::vector<std::string>{"expr", "lower", "upper", "at"}
                            : std::vector<std::string>{"expr", "lower", "upper"},
                   what);
    const MapEntry* expr = find_entry(fields, "expr");
    if (!expr)
      doc.fail(c.where, what + ": missing key 'expr', expected {expr: \"...\", lower: ..., upper: ...}");
    c.lower = -kInf;
    c.upper = kInf;
    for (const auto& f : fields) {
      if (f.key == "lower") c.lower = doc.constant(f.value, f.value_where, scope, "lower bound of " + what);
      if (f.key == "upper") c.upper = doc.constant(f.value, f.value_where, scope, "upper bound of " + what);
      if (f.key == "at") {
        c.at = doc.scalar(f.value, f.value_where, "'at' of " + what);
        c.at_where = f.value_where;
      }
    }
    const std::string expr_text = doc.scalar(expr->value, expr->value_where, "'expr' of " + what);
    c.expr = doc.expression(expr->value, expr->value_where, scope, "'expr' of " + what);
    if (c.expr.is_constant())
      doc.fail(expr->value_where,
               what + ": '" + expr_text + "' is a constant, expected an expression of the variables");
    c.text = (c.lower > -kInf ? num(c.lower) + " <= " : "") + expr_text +
             (c.upper < kInf ? " <= " + num(c.upper) : "");
  } else {
    doc.fail(c.where, what + " must be a string like \"a <= b\" or a map {expr, lower, upper}");
  }
  check_bounds(doc, c.where, "constraint '" + c.text + "'", c.lower, c.upper);
  return c;
}

PairText read_pair(const YamlDocument& doc, const YAML::Node& pair, const std::string& what,
                   const Scope& scope) {
  PairText p;
  p.where = doc.where(pair);
  if (!pair.IsSequence() || pair.size() != 2)
    doc.fail(p.where, what + " must be a list [G, H] of two expressions (meaning 0 <= G, 0 <= H, G*H = 0)");
  const YAML::Node g = pair[0], h = pair[1];
  p.G = doc.expression(g, doc.where(g), scope, "G of " + what);
  p.H = doc.expression(h, doc.where(h), scope, "H of " + what);
  p.text = "[" + g.Scalar() + ", " + h.Scalar() + "]";
  if (p.G.is_constant() && p.H.is_constant())
    doc.fail(p.where, what + " " + p.text + " is constant, expected expressions of the variables");
  return p;
}

void read_homotopy_options(const YamlDocument& doc, const MapEntry& section, const std::string& what,
                           mpcc::HomotopyOptions& options) {
  const std::vector<MapEntry> entries = doc.entries(section.value, what);
  std::vector<std::string> allowed;
  for (const auto& o : mpcc::option_table())
    if (o.name.find('.') == std::string::npos) allowed.push_back(o.name);
  allowed.push_back("ipopt");
  // IPOPT options may be nested (ipopt: {NAME: value}) or flat (ipopt.NAME: value).
  std::vector<MapEntry> checked;
  for (const auto& e : entries)
    if (e.key.rfind("ipopt.", 0) != 0 || e.key.size() == 6) checked.push_back(e);
  doc.check_keys(checked, allowed, what);

  const auto set = [&](const std::string& name, const std::string& value, const SourceLocation& where) {
    try {
      mpcc::set_option(options, name, value);
    } catch (const Error& err) {
      const std::string message = err.what();
      doc.fail(where, message.find("'" + name + "'") == std::string::npos
                          ? "option '" + name + "': " + message
                          : message);
    }
  };
  // A preset sets many options at once; the file's other options refine it, whatever their order.
  for (const auto& e : entries)
    if (e.key == "preset") set(e.key, doc.scalar(e.value, e.value_where, "option 'preset'"), e.value_where);
  for (const auto& e : entries) {
    if (e.key == "preset") continue;
    if (e.key == "ipopt") {
      for (const auto& ie : doc.entries(e.value, what + ".ipopt")) {
        const std::string name = "ipopt." + ie.key;
        set(name, doc.scalar(ie.value, ie.value_where, "option '" + name + "'"), ie.value_where);
      }
      continue;
    }
    set(e.key, doc.scalar(e.value, e.value_where, "option '" + e.key + "'"), e.value_where);
  }
  try {
    options.validate();
  } catch (const Error& err) {
    // Point at the option the message names, if the file sets it.
    doc.fail(named_option_location(err.what(), entries, section.key_where), err.what());
  }
}

}  // namespace stasis::io::detail
