// Reader for `kind: mpcc` problem files and the `kind:` dispatch (PROBLEM_FORMAT.md).
#include "stasis/io/problem_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "stasis/error.hpp"
#include "yaml_document.hpp"

namespace stasis::io {

namespace {

using detail::MapEntry;
using detail::YamlDocument;

constexpr double kInf = std::numeric_limits<double>::infinity();

const std::vector<std::string> kMpccKeys = {
    "kind",      "name",      "description", "parameters",      "definitions",
    "variables", "objective", "constraints", "complementarity", "options"};
// Maps whose keys come from the schema, so -o may add keys to them (see apply_overrides).
const std::vector<std::string> kMpccSections = {"", "options", "options.ipopt", "variables.*",
                                                "constraints.*"};

// Shortest text that reads back as the same double.
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

// Every name a file declares (parameters, variables, definitions) shares one scope.
class Names {
 public:
  explicit Names(const YamlDocument& doc) : doc_(doc) {}

  void check(const MapEntry& e, const std::string& kind) {
    const std::string& n = e.key;
    if (!is_identifier(n))
      doc_.fail(e.key_where, kind + " name '" + n +
                                 "' is not a valid name, expected letters, digits and '_', "
                                 "not starting with a digit");
    if (is_reserved_name(n))
      doc_.fail(e.key_where,
                kind + " name '" + n + "' is reserved (" +
                    (n == "pi" || n == "inf" ? std::string("a constant") : std::string("a function")) +
                    "), expected another name");
    const auto it = declared_.find(n);
    if (it != declared_.end())
      doc_.fail(e.key_where, kind + " '" + n + "' is already declared as a " + it->second.first + " at " +
                                 to_string(it->second.second));
    declared_[n] = {kind, e.key_where};
  }

 private:
  const YamlDocument& doc_;
  std::map<std::string, std::pair<std::string, SourceLocation>> declared_;
};

void check_bounds(const YamlDocument& doc, const SourceLocation& where, const std::string& what, double lower,
                  double upper) {
  if (lower > upper)
    doc.fail(where, what + ": lower bound " + num(lower) + " > upper bound " + num(upper) +
                        ", expected lower <= upper");
  if (lower == kInf) doc.fail(where, what + ": lower bound is +inf, expected a finite value or -inf");
  if (upper == -kInf) doc.fail(where, what + ": upper bound is -inf, expected a finite value or +inf");
}

void read_parameters(const YamlDocument& doc, const MapEntry& section, Names& names, Scope& scope,
                     MpccFile& file) {
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
      file.vector_parameters.emplace_back(e.key, values);
    } else {
      const double v = doc.constant(e.value, e.value_where, scope, "parameter '" + e.key + "'");
      scope.define(e.key, sym::Expr(v));
      file.parameters.emplace_back(e.key, v);
    }
  }
}

void read_variables(const YamlDocument& doc, const MapEntry& section, Names& names, Scope& scope,
                    MpccFile& file) {
  const std::vector<MapEntry> entries = doc.entries(section.value, "variables");
  if (entries.empty())
    doc.fail(section.key_where, "no variables declared, expected at least one 'name: {lower, upper, start}'");
  // Declare every symbol first, so that a bound naming a variable gets "must be a constant"
  // rather than a confusing "unknown name".
  for (const auto& e : entries) {
    names.check(e, "variable");
    MpccVariable v;
    v.name = e.key;
    v.symbol = sym::Expr::symbol(e.key);
    v.where = e.key_where;
    scope.define(e.key, v.symbol);
    file.variables.push_back(v);
  }
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const MapEntry& e = entries[k];
    MpccVariable& v = file.variables[k];
    const std::string what = "variable '" + e.key + "'";
    const std::vector<MapEntry> fields = doc.entries(e.value, what);
    doc.check_keys(fields, {"lower", "upper", "start"}, what);
    v.lower = -kInf;
    v.upper = kInf;
    const MapEntry* start = nullptr;
    for (const auto& f : fields) {
      if (f.key == "lower") v.lower = doc.constant(f.value, f.value_where, scope, "lower bound of " + what);
      if (f.key == "upper") v.upper = doc.constant(f.value, f.value_where, scope, "upper bound of " + what);
      if (f.key == "start") {
        v.start = doc.constant(f.value, f.value_where, scope, "start of " + what);
        start = &f;
      }
    }
    check_bounds(doc, e.key_where, what, v.lower, v.upper);
    if (start) {
      if (!std::isfinite(v.start))
        doc.fail(start->value_where,
                 "start of " + what + " is " + num(v.start) + ", expected a finite value");
      if (v.start < v.lower || v.start > v.upper)
        doc.fail(start->value_where, "start of " + what + " is " + num(v.start) + ", outside its bounds [" +
                                         num(v.lower) + ", " + num(v.upper) + "]");
    } else {
      v.start = std::clamp(0.0, v.lower, v.upper);
    }
  }
}

void read_definitions(const YamlDocument& doc, const MapEntry& section, Names& names, Scope& scope,
                      MpccFile& file) {
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
      file.definitions.emplace_back(e.key, value);
    }
  }
}

MpccConstraint read_constraint(const YamlDocument& doc, const YAML::Node& item, std::size_t index,
                               const Scope& scope) {
  MpccConstraint c;
  c.where = doc.where(item);
  const std::string what = "constraint " + std::to_string(index);
  if (item.IsScalar()) {
    c.text = item.Scalar();
    const Relation r = parse_relation(c.text, scope, doc.locator(item));
    c.expr = r.expr;
    c.lower = r.lower;
    c.upper = r.upper;
  } else if (item.IsMap()) {
    const std::vector<MapEntry> fields = doc.entries(item, what);
    doc.check_keys(fields, {"expr", "lower", "upper"}, what);
    const MapEntry* expr = find_entry(fields, "expr");
    if (!expr)
      doc.fail(c.where, what + ": missing key 'expr', expected {expr: \"...\", lower: ..., upper: ...}");
    c.lower = -kInf;
    c.upper = kInf;
    for (const auto& f : fields) {
      if (f.key == "lower") c.lower = doc.constant(f.value, f.value_where, scope, "lower bound of " + what);
      if (f.key == "upper") c.upper = doc.constant(f.value, f.value_where, scope, "upper bound of " + what);
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

void read_constraints(const YamlDocument& doc, const MapEntry& section, const Scope& scope, MpccFile& file) {
  const YAML::Node& list = section.value;
  if (!list || list.IsNull()) return;
  if (!list.IsSequence())
    doc.fail(section.value_where,
             "constraints must be a list of \"a <= b\" strings or {expr, lower, upper} maps");
  for (std::size_t i = 0; i < list.size(); ++i)
    file.constraints.push_back(read_constraint(doc, list[i], i, scope));
}

void read_complementarity(const YamlDocument& doc, const MapEntry& section, const Scope& scope,
                          MpccFile& file) {
  const YAML::Node& list = section.value;
  if (!list || list.IsNull()) return;
  if (!list.IsSequence()) doc.fail(section.value_where, "complementarity must be a list of pairs [G, H]");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node pair = list[i];
    MpccPair p;
    p.where = doc.where(pair);
    const std::string what = "complementarity pair " + std::to_string(i);
    if (!pair.IsSequence() || pair.size() != 2)
      doc.fail(p.where, what + " must be a list [G, H] of two expressions (meaning 0 <= G, 0 <= H, G*H = 0)");
    const YAML::Node g = pair[0], h = pair[1];
    p.G = doc.expression(g, doc.where(g), scope, "G of " + what);
    p.H = doc.expression(h, doc.where(h), scope, "H of " + what);
    p.text = "[" + g.Scalar() + ", " + h.Scalar() + "]";
    if (p.G.is_constant() && p.H.is_constant())
      doc.fail(p.where, what + " " + p.text + " is constant, expected expressions of the variables");
    file.complementarity.push_back(p);
  }
}

void read_options(const YamlDocument& doc, const MapEntry& section, MpccFile& file) {
  const std::vector<MapEntry> entries = doc.entries(section.value, "options");
  std::vector<std::string> allowed;
  for (const auto& o : mpcc::option_table())
    if (o.name.find('.') == std::string::npos) allowed.push_back(o.name);
  allowed.push_back("ipopt");
  // IPOPT options may be nested (ipopt: {NAME: value}) or flat (ipopt.NAME: value).
  std::vector<MapEntry> checked;
  for (const auto& e : entries)
    if (e.key.rfind("ipopt.", 0) != 0 || e.key.size() == 6) checked.push_back(e);
  doc.check_keys(checked, allowed, "options");

  const auto set = [&](const std::string& name, const std::string& value, const SourceLocation& where) {
    try {
      mpcc::set_option(file.options, name, value);
    } catch (const Error& err) {
      const std::string what = err.what();
      doc.fail(where,
               what.find("'" + name + "'") == std::string::npos ? "option '" + name + "': " + what : what);
    }
  };
  // A preset sets many options at once; the file's other options refine it, whatever their order.
  for (const auto& e : entries)
    if (e.key == "preset") set(e.key, doc.scalar(e.value, e.value_where, "option 'preset'"), e.value_where);
  for (const auto& e : entries) {
    if (e.key == "preset") continue;
    if (e.key == "ipopt") {
      for (const auto& ie : doc.entries(e.value, "options.ipopt")) {
        const std::string name = "ipopt." + ie.key;
        set(name, doc.scalar(ie.value, ie.value_where, "option '" + name + "'"), ie.value_where);
      }
      continue;
    }
    set(e.key, doc.scalar(e.value, e.value_where, "option '" + e.key + "'"), e.value_where);
  }
  try {
    file.options.validate();
  } catch (const Error& err) {
    // Point at the option the message names, if the file sets it.
    const std::string what = err.what();
    SourceLocation where = section.key_where;
    for (const auto& e : entries)
      if (what.find("option '" + e.key + "'") != std::string::npos) where = e.value_where;
    doc.fail(where, what);
  }
}

MpccFile read_mpcc(YamlDocument& doc, const std::vector<std::string>& overrides) {
  doc.apply_overrides(overrides, kMpccSections);
  const SourceLocation top{doc.display_name(), 1, 1};
  const YAML::Node& root = doc.root();
  if (!root || root.IsNull()) doc.fail(top, "the file is empty, expected a map starting with 'kind: mpcc'");
  const std::vector<MapEntry> entries = doc.entries(root, "the problem file");

  // The kind first: for another kind every other key would look unknown.
  const MapEntry* kind = find_entry(entries, "kind");
  if (!kind) doc.fail(top, "missing key 'kind', expected 'kind: mpcc' at the top level");
  const std::string kind_text = doc.scalar(kind->value, kind->value_where, "'kind'");
  if (kind_text != "mpcc") doc.fail(kind->value_where, "kind is '" + kind_text + "', expected 'mpcc'");
  doc.check_keys(entries, kMpccKeys, "the mpcc problem");

  MpccFile file;
  file.path = doc.display_name();
  if (const MapEntry* e = find_entry(entries, "name"))
    file.name = doc.scalar(e->value, e->value_where, "'name'");
  if (const MapEntry* e = find_entry(entries, "description"))
    file.description = doc.scalar(e->value, e->value_where, "'description'");

  // Semantic order, whatever the order in the file: parameters, variables, definitions, the rest.
  Scope scope;
  Names names(doc);
  if (const MapEntry* e = find_entry(entries, "parameters")) read_parameters(doc, *e, names, scope, file);
  const MapEntry* variables = find_entry(entries, "variables");
  if (!variables) doc.fail(top, "missing key 'variables', expected a map 'name: {lower, upper, start}'");
  read_variables(doc, *variables, names, scope, file);
  if (const MapEntry* e = find_entry(entries, "definitions")) read_definitions(doc, *e, names, scope, file);

  const MapEntry* objective = find_entry(entries, "objective");
  if (!objective)
    doc.fail(top, "missing key 'objective', expected an expression (0 for a feasibility problem)");
  file.objective_text = doc.scalar(objective->value, objective->value_where, "'objective'");
  file.objective = doc.expression(objective->value, objective->value_where, scope, "'objective'");
  file.objective_where = objective->value_where;

  if (const MapEntry* e = find_entry(entries, "constraints")) read_constraints(doc, *e, scope, file);
  if (const MapEntry* e = find_entry(entries, "complementarity")) read_complementarity(doc, *e, scope, file);
  if (const MapEntry* e = find_entry(entries, "options")) read_options(doc, *e, file);
  return file;
}

}  // namespace

MpccFile read_mpcc_file(const std::string& path, const std::vector<std::string>& overrides) {
  YamlDocument doc = YamlDocument::from_file(path);
  return read_mpcc(doc, overrides);
}

MpccFile read_mpcc_string(const std::string& yaml_text, const std::string& display_name,
                          const std::vector<std::string>& overrides) {
  YamlDocument doc = YamlDocument::from_string(yaml_text, display_name);
  return read_mpcc(doc, overrides);
}

const std::vector<std::string>& problem_kinds() {
  static const std::vector<std::string> kinds = {"mpcc", "simulate", "ocp"};
  return kinds;
}

std::string read_kind(const std::string& path) {
  const YamlDocument doc = YamlDocument::from_file(path);
  const SourceLocation top{doc.display_name(), 1, 1};
  std::string expected = "expected one of: ";
  for (const auto& k : problem_kinds()) expected += (&k == &problem_kinds().front() ? "" : ", ") + k;
  if (!doc.root() || doc.root().IsNull())
    doc.fail(top, "the file is empty, expected 'kind: ...'; " + expected);
  const std::vector<MapEntry> entries = doc.entries(doc.root(), "the problem file");
  const MapEntry* kind = find_entry(entries, "kind");
  if (!kind) doc.fail(top, "missing key 'kind' at the top level, " + expected);
  const std::string text = doc.scalar(kind->value, kind->value_where, "'kind'");
  const auto& kinds = problem_kinds();
  if (std::find(kinds.begin(), kinds.end(), text) == kinds.end())
    doc.fail(kind->value_where, "unknown kind '" + text + "'" + did_you_mean(text, kinds) + ", " + expected);
  return text;
}

}  // namespace stasis::io
