// Reader for `kind: mpcc` problem files and the `kind:` dispatch (PROBLEM_FORMAT.md).
#include "stasis/io/problem_file.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "file_schema.hpp"
#include "stasis/error.hpp"
#include "yaml_document.hpp"

namespace stasis::io {

namespace {

using detail::check_bounds;
using detail::find_entry;
using detail::MapEntry;
using detail::Names;
using detail::num;
using detail::YamlDocument;

constexpr double kInf = std::numeric_limits<double>::infinity();

const std::vector<std::string> kMpccKeys = {
    "kind",      "name",      "description", "parameters",      "definitions",
    "variables", "objective", "constraints", "complementarity", "options"};
// Maps whose keys come from the schema, so -o may add keys to them (see apply_overrides).
const std::vector<std::string> kMpccSections = {"", "options", "options.ipopt", "variables.*",
                                                "constraints.*"};

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

void read_constraints(const YamlDocument& doc, const MapEntry& section, const Scope& scope, MpccFile& file) {
  const YAML::Node& list = section.value;
  if (!list || list.IsNull()) return;
  if (!list.IsSequence())
    doc.fail(section.value_where,
             "constraints must be a list of \"a <= b\" strings or {expr, lower, upper} maps");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const detail::ConstraintText c =
        detail::read_constraint(doc, list[i], "constraint " + std::to_string(i), scope);
    file.constraints.push_back({c.expr, c.lower, c.upper, c.text, c.where});
  }
}

void read_complementarity(const YamlDocument& doc, const MapEntry& section, const Scope& scope,
                          MpccFile& file) {
  const YAML::Node& list = section.value;
  if (!list || list.IsNull()) return;
  if (!list.IsSequence()) doc.fail(section.value_where, "complementarity must be a list of pairs [G, H]");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const detail::PairText p =
        detail::read_pair(doc, list[i], "complementarity pair " + std::to_string(i), scope);
    file.complementarity.push_back({p.G, p.H, p.text, p.where});
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
  if (const MapEntry* e = find_entry(entries, "parameters"))
    detail::read_parameters(doc, *e, names, scope, file.parameters, file.vector_parameters);
  const MapEntry* variables = find_entry(entries, "variables");
  if (!variables) doc.fail(top, "missing key 'variables', expected a map 'name: {lower, upper, start}'");
  read_variables(doc, *variables, names, scope, file);
  if (const MapEntry* e = find_entry(entries, "definitions"))
    detail::read_definitions(doc, *e, names, scope, file.definitions);

  const MapEntry* objective = find_entry(entries, "objective");
  if (!objective)
    doc.fail(top, "missing key 'objective', expected an expression (0 for a feasibility problem)");
  file.objective_text = doc.scalar(objective->value, objective->value_where, "'objective'");
  file.objective = doc.expression(objective->value, objective->value_where, scope, "'objective'");
  file.objective_where = objective->value_where;

  if (const MapEntry* e = find_entry(entries, "constraints")) read_constraints(doc, *e, scope, file);
  if (const MapEntry* e = find_entry(entries, "complementarity")) read_complementarity(doc, *e, scope, file);
  if (const MapEntry* e = find_entry(entries, "options"))
    detail::read_homotopy_options(doc, *e, "options", file.options);
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
