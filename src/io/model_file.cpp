// Readers for `kind: simulate` and `kind: ocp` files with a `pss` model (PROBLEM_FORMAT.md).
#include "stasis/io/model_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <unordered_set>

#include "draw_file.hpp"
#include "file_schema.hpp"
#include "model_reader.hpp"
#include "stasis/error.hpp"
#include "yaml_document.hpp"

namespace stasis::io {

namespace detail {

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string counted(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}
std::string plural(std::size_t n, const std::string& word) { return counted(n, word, word + "s"); }

std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

std::vector<std::pair<std::string, SourceLocation>> name_list(const YamlDocument& doc, const MapEntry& e,
                                                              const std::string& what) {
  std::vector<std::pair<std::string, SourceLocation>> result;
  if (!e.value || e.value.IsNull()) return result;
  if (!e.value.IsSequence()) doc.fail(e.value_where, what + " must be a list of names, e.g. [x1, x2]");
  for (std::size_t i = 0; i < e.value.size(); ++i) {
    const YAML::Node item = e.value[i];
    result.emplace_back(doc.scalar(item, doc.where(item), "element " + std::to_string(i) + " of " + what),
                        doc.where(item));
  }
  return result;
}

sym::Vector expression_list(const YamlDocument& doc, const YAML::Node& node, const SourceLocation& at,
                            const Scope& scope, const std::string& what, std::size_t size,
                            const std::string& size_what) {
  if (!node || node.IsNull()) doc.fail(at, "missing value for " + what + ", expected a list of expressions");
  if (!node.IsSequence())
    doc.fail(doc.where(node), what + " must be a list of expressions, e.g. [\"x2\", \"-x1\"]");
  if (node.size() == 0) doc.fail(doc.where(node), what + " is empty, expected at least one expression");
  if (size > 0 && node.size() != size)
    doc.fail(doc.where(node), what + " has " + counted(node.size(), "entry", "entries") + ", " + size_what);
  sym::Vector v;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const YAML::Node item = node[i];
    v.push_back(doc.expression(item, doc.where(item), scope, "element " + std::to_string(i) + " of " + what));
  }
  return v;
}

std::vector<double> read_initial_state(const YamlDocument& doc, const MapEntry* x0,
                                       const SourceLocation& owner_where, const std::string& owner,
                                       const std::vector<std::string>& states, const Scope& scope) {
  const std::size_t n = states.size();
  if (!x0)
    doc.fail(owner_where, owner + " has no 'x0', expected the initial state as a list [" + join(states) +
                              "] or a map by state name");
  std::vector<double> result(n, 0.0);
  const auto value = [&](const YAML::Node& node, const SourceLocation& at, const std::string& state) {
    const double v = doc.constant(node, at, scope, "x0 of state '" + state + "'");
    if (!std::isfinite(v))
      doc.fail(doc.where(node), "x0 of state '" + state + "' is " + num(v) + ", expected a finite value");
    return v;
  };
  if (x0->value && x0->value.IsSequence()) {
    if (x0->value.size() != n)
      doc.fail(x0->value_where, "x0 has " + counted(x0->value.size(), "entry", "entries") +
                                    " but the model has " + plural(n, "state") + " (" + join(states) +
                                    "), expected one value per state in this order");
    for (std::size_t i = 0; i < n; ++i) result[i] = value(x0->value[i], doc.where(x0->value[i]), states[i]);
    return result;
  }
  if (!x0->value || !x0->value.IsMap())
    doc.fail(x0->value_where, "x0 must be a list [" + join(states) + "] or a map {state: value}");
  const std::vector<MapEntry> entries = doc.entries(x0->value, "x0");
  std::vector<bool> given(n, false);
  for (const auto& e : entries) {
    const std::size_t i = index_of(states, e.key);
    if (i == n)
      doc.fail(e.key_where, "x0 names '" + e.key + "', which is not a state" + did_you_mean(e.key, states) +
                                (did_you_mean(e.key, states).empty() ? ";" : "") +
                                " states: " + join(states));
    result[i] = value(e.value, e.value_where, e.key);
    given[i] = true;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!given[i])
      doc.fail(x0->value_where, "x0 has no value for state '" + states[i] +
                                    "', expected a value for every state (" + join(states) + ")");
  return result;
}

}  // namespace detail

namespace {

using detail::counted;
using detail::expression_list;
using detail::index_of;
using detail::join;
using detail::ModelScope;
using detail::name_list;
using detail::plural;

using detail::check_bounds;
using detail::find_entry;
using detail::MapEntry;
using detail::Names;
using detail::num;
using detail::YamlDocument;

constexpr double kInf = std::numeric_limits<double>::infinity();

const std::vector<std::string> kSimulateKeys = {"kind",     "name",           "description",   "model",
                                                "simulate", "discretization", "time_freezing", "homotopy",
                                                "draw"};
const std::vector<std::string> kOcpKeys = {"kind",     "name",           "description",   "model",
                                           "ocp",      "discretization", "time_freezing", "homotopy",
                                           "initialization", "continuation", "draw"};
const std::vector<std::string> kContinuationKeys = {"parameter", "values", "tolerance"};
const std::vector<std::string> kModelKinds = {"pss", "cls", "jump"};
const std::vector<std::string> kPssKeys = {"states",     "controls", "parameters", "definitions",
                                           "switching",  "regions",  "subsystems", "f0",
                                           "indicators", "fields",   "x0",         "clock"};
const std::vector<std::string> kSubsystemKeys = {"name", "switching", "regions", "indicators", "fields"};
const std::vector<std::string> kSimulateSectionKeys = {"horizon", "steps", "controls", "warm_start"};
const std::vector<std::string> kOcpSectionKeys = {"horizon", "time_optimal", "final_time",
                                                  "stages",  "controls",     "states",
                                                  "initial", "cost",         "constraints",
                                                  "validate", "validation"};
const std::vector<std::string> kValidationKeys = {"gap_tolerance", "constraint_tolerance", "deviation_tolerance"};
const std::vector<std::string> kConstraintKeys = {"path", "terminal", "complementarity", "at", "terminal_relaxation"};

// Maps whose keys come from the schema (or are checked against declared names), so -o may add
// keys to them (see YamlDocument::apply_overrides). User-chosen names (parameters, definitions)
// are not among them: a typo there must not add a new entry.
const std::vector<std::string> kSections = {"",
                                            "model",
                                            "model.pss",
                                            "model.pss.x0",
                                            "model.pss.regions.*",
                                            "model.pss.subsystems.*",
                                            "model.pss.subsystems.*.regions.*",
                                            "simulate",
                                            "simulate.controls",
                                            "discretization",
                                            "model.cls",
                                            "model.cls.x0",
                                            "model.cls.energy",
                                            "model.cls.contacts.*",
                                            "model.jump",
                                            "model.jump.x0",
                                            "model.jump.auxiliary",
                                            "time_freezing",
                                            "time_freezing.speed_of_time",
                                            "homotopy",
                                            "homotopy.ipopt",
                                            "initialization",
                                            "ocp",
                                            "ocp.final_time",
                                            "ocp.controls",
                                            "ocp.controls.*",
                                            "ocp.states",
                                            "ocp.states.*",
                                            "ocp.initial",
                                            "ocp.initial.*",
                                            "ocp.cost",
                                            "ocp.constraints.terminal_relaxation",
                                            "ocp.constraints",
                                            "ocp.constraints.path.*",
                                            "ocp.constraints.terminal.*",
                                            "ocp.validation",
                                            "draw"};

std::string sign_text(const std::vector<int>& row) {
  std::string s = "[";
  for (std::size_t i = 0; i < row.size(); ++i) s += (i ? ", " : "") + std::to_string(row[i]);
  return s + "]";
}

// The rows of a vector field: one entry per state.
std::string field_size_text(const ModelScope& ms) {
  return "the model has " + plural(ms.states.size(), "state") + " (" + join(ms.states) +
         "), expected one entry per state";
}

// ---- the pss model ----

// switching + regions of one subsystem. `owner` names the subsystem in messages ("" for the
// single-subsystem form, else "subsystem 1, ").
void read_switching_regions(const YamlDocument& doc, const MapEntry* switching, const MapEntry* regions,
                            const SourceLocation& owner_where, const std::string& owner, const ModelScope& ms,
                            model::Subsystem& sub) {
  const std::string who = owner.empty() ? std::string("the pss model") : owner.substr(0, owner.size() - 2);
  if (!switching)
    doc.fail(regions ? regions->key_where : owner_where,
             who +
                 ": 'regions' needs 'switching', the list of switching functions c(x) whose signs the "
                 "regions give");
  if (!regions)
    doc.fail(switching->key_where, who + ": 'switching' needs 'regions', a list of {signs: [...], f: [...]}");
  sub.switching =
      expression_list(doc, switching->value, switching->value_where, ms.scope, owner + "switching");
  const std::size_t n_c = sub.switching.size();

  const YAML::Node& list = regions->value;
  if (!list || list.IsNull() || !list.IsSequence() || list.size() == 0)
    doc.fail(regions->value_where, owner + "regions must be a non-empty list of {signs: [...], f: [...]}");
  std::map<std::vector<int>, std::pair<std::size_t, SourceLocation>> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    const std::string what = owner + "region " + std::to_string(i);
    const SourceLocation item_where = doc.where(item);
    if (!item.IsMap()) doc.fail(item_where, what + " must be a map {signs: [...], f: [...]}");
    const std::vector<MapEntry> fields = doc.entries(item, what);
    doc.check_keys(fields, {"signs", "f"}, what);
    const MapEntry* signs = find_entry(fields, "signs");
    const MapEntry* f = find_entry(fields, "f");
    if (!signs)
      doc.fail(item_where, what +
                               ": missing key 'signs', expected one sign (-1, 1, or 0 = either) per "
                               "switching function");
    if (!f) doc.fail(item_where, what + ": missing key 'f', expected the vector field in this region");

    // Signs: one of -1, 0, +1 per switching function.
    if (!signs->value || !signs->value.IsSequence())
      doc.fail(signs->value_where, what + ": signs must be a list like [-1, 1] (one per switching function)");
    if (signs->value.size() != n_c)
      doc.fail(signs->value_where, what + ": the sign vector has " +
                                       counted(signs->value.size(), "entry", "entries") + " but there " +
                                       (n_c == 1 ? "is " : "are ") + plural(n_c, "switching function") +
                                       ", expected one sign per switching function");
    std::vector<int> row;
    for (std::size_t j = 0; j < signs->value.size(); ++j) {
      const YAML::Node s = signs->value[j];
      const std::string text = doc.scalar(s, doc.where(s), "sign " + std::to_string(j) + " of " + what);
      const double v = doc.constant(s, doc.where(s), ms.scope, "sign " + std::to_string(j) + " of " + what);
      if (v != -1.0 && v != 0.0 && v != 1.0)
        doc.fail(doc.where(s), what + ": sign " + std::to_string(j) + " is '" + text +
                                   "', expected -1, 1 or 0 (0 = either sign)");
      row.push_back(static_cast<int>(v));
    }
    const auto [it, inserted] = seen.emplace(row, std::make_pair(i, signs->value_where));
    if (!inserted)
      doc.fail(signs->value_where, what + " has the same signs " + sign_text(row) + " as " + owner +
                                       "region " + std::to_string(it->second.first) + " at " +
                                       to_string(it->second.second) +
                                       ", expected every region to have its own sign vector");
    sub.signs.push_back(row);

    sub.fields.push_back(expression_list(doc, f->value, f->value_where, ms.scope,
                                         "the vector field f of " + what, ms.states.size(),
                                         field_size_text(ms)));
  }
}

// indicators + fields of one subsystem (Stewart indicator functions given directly).
void read_indicators(const YamlDocument& doc, const MapEntry* indicators, const MapEntry* fields,
                     const SourceLocation& owner_where, const std::string& owner, const ModelScope& ms,
                     model::Subsystem& sub) {
  const std::string who = owner.empty() ? std::string("the pss model") : owner.substr(0, owner.size() - 2);
  if (!indicators)
    doc.fail(fields ? fields->key_where : owner_where,
             who +
                 ": 'fields' needs 'indicators', the Stewart indicator functions g_i (region i is where g_i "
                 "is smallest)");
  if (!fields)
    doc.fail(indicators->key_where, who + ": 'indicators' needs 'fields', one vector field per indicator");
  sub.indicators =
      expression_list(doc, indicators->value, indicators->value_where, ms.scope, owner + "indicators");
  const YAML::Node& list = fields->value;
  if (!list || list.IsNull() || !list.IsSequence())
    doc.fail(fields->value_where, owner + "fields must be a list of vector fields [[...], [...]]");
  if (list.size() != sub.indicators.size())
    doc.fail(fields->value_where, owner + "fields has " + plural(list.size(), "vector field") + " for " +
                                      plural(sub.indicators.size(), "indicator function") +
                                      ", expected one field per indicator");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    sub.fields.push_back(expression_list(doc, item, doc.where(item), ms.scope,
                                         owner + "field " + std::to_string(i), ms.states.size(),
                                         field_size_text(ms)));
  }
}

// One subsystem from a map that has either switching + regions or indicators + fields.
void read_subsystem(const YamlDocument& doc, const std::vector<MapEntry>& entries,
                    const SourceLocation& owner_where, const std::string& owner, const ModelScope& ms,
                    model::Subsystem& sub) {
  const MapEntry* switching = find_entry(entries, "switching");
  const MapEntry* regions = find_entry(entries, "regions");
  const MapEntry* indicators = find_entry(entries, "indicators");
  const MapEntry* fields = find_entry(entries, "fields");
  const bool sr = switching || regions, ind = indicators || fields;
  const std::string who = owner.empty() ? std::string("the pss model") : owner.substr(0, owner.size() - 2);
  if (sr && ind) {
    const MapEntry* second = indicators ? indicators : fields;
    doc.fail(second->key_where,
             who + " has both switching/regions and indicators/fields, expected one of them");
  }
  if (ind)
    read_indicators(doc, indicators, fields, owner_where, owner, ms, sub);
  else
    read_switching_regions(doc, switching, regions, owner_where, owner, ms, sub);
}

void read_dynamics(const YamlDocument& doc, const std::vector<MapEntry>& entries, const MapEntry& pss_entry,
                   const ModelScope& ms, model::Pss& pss) {
  const MapEntry* subsystems = find_entry(entries, "subsystems");
  const bool single = find_entry(entries, "switching") || find_entry(entries, "regions") ||
                      find_entry(entries, "indicators") || find_entry(entries, "fields");
  if (!subsystems && !single)
    doc.fail(pss_entry.key_where,
             "the pss model has no dynamics, expected 'switching' and 'regions', or 'subsystems', or "
             "'indicators' and 'fields'");
  if (subsystems && single) {
    for (const char* k : {"switching", "regions", "indicators", "fields"})
      if (const MapEntry* e = find_entry(entries, k))
        doc.fail(e->key_where,
                 std::string("the pss model has both 'subsystems' and '") + k +
                     "', expected either one subsystem (switching/regions or indicators/fields) "
                     "at the model's level or a list of subsystems");
  }
  if (single) {
    model::Subsystem sub;
    read_subsystem(doc, entries, pss_entry.key_where, "", ms, sub);
    pss.subsystems.push_back(std::move(sub));
  } else {
    const YAML::Node& list = subsystems->value;
    if (!list || list.IsNull() || !list.IsSequence() || list.size() == 0)
      doc.fail(subsystems->value_where,
               "subsystems must be a non-empty list of {switching: [...], regions: [...]} (or {indicators, "
               "fields})");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const YAML::Node item = list[k];
      const std::string owner = "subsystem " + std::to_string(k) + ", ";
      const std::string what = "subsystem " + std::to_string(k);
      if (!item.IsMap())
        doc.fail(doc.where(item), what + " must be a map {switching: [...], regions: [...]}");
      const std::vector<MapEntry> sub_entries = doc.entries(item, what);
      doc.check_keys(sub_entries, kSubsystemKeys, what);
      model::Subsystem sub;
      if (const MapEntry* n = find_entry(sub_entries, "name"))
        sub.name = doc.scalar(n->value, n->value_where, "name of " + what);
      read_subsystem(doc, sub_entries, doc.where(item), owner, ms, sub);
      pss.subsystems.push_back(std::move(sub));
    }
  }
  if (const MapEntry* f0 = find_entry(entries, "f0"))
    pss.f0 = expression_list(doc, f0->value, f0->value_where, ms.scope, "the common field f0",
                             ms.states.size(), field_size_text(ms));
}

// The model section up to (not including) the state `t`, which depends on the rest of the file.
// cls and jump models (with the top level's `time_freezing:` section) are read and reformulated
// completely into `model.pss` and `tf`.
void read_model(const YamlDocument& doc, const std::vector<MapEntry>& top_entries, bool simulate,
                const std::string& name, ModelScope& ms, PssModelFile& model,
                std::optional<TimeFreezingFile>& tf) {
  const MapEntry& model_entry = *find_entry(top_entries, "model");
  const MapEntry* time_freezing = find_entry(top_entries, "time_freezing");
  const std::vector<MapEntry> kinds = doc.entries(model_entry.value, "model");
  doc.check_keys(kinds, kModelKinds, "model");
  if (kinds.empty())
    doc.fail(model_entry.key_where, "the model is empty, expected exactly one of pss, cls, jump");
  if (kinds.size() > 1)
    doc.fail(kinds[1].key_where, "the model has both '" + kinds[0].key + "' and '" + kinds[1].key +
                                     "', expected exactly one of pss, cls, jump");
  const MapEntry& kind = kinds[0];
  model.where = kind.key_where;
  model.kind = kind.key;
  if (kind.key != "pss") {
    tf.emplace();
    // The discretization section is read later; only its dcs (default: the options' default) matters here.
    bool stewart = discretize::Options{}.dcs == reformulate::DcsMode::Stewart;
    if (const MapEntry* disc = find_entry(top_entries, "discretization"); disc && disc->value.IsMap())
      if (const YAML::Node dcs = disc->value["dcs"]; dcs && dcs.IsScalar()) stewart = dcs.Scalar() == "stewart";
    detail::read_time_frozen_model(doc, kind, time_freezing, simulate, stewart, name, ms, model, *tf);
    return;
  }
  if (time_freezing)
    doc.fail(time_freezing->key_where,
             "'time_freezing' applies only to cls and jump models (it builds their time-frozen PSS); this "
             "model is a pss (a hand-built time-frozen PSS names its clock state with 'clock:')");

  const std::vector<MapEntry> entries = doc.entries(kind.value, "the pss model");
  doc.check_keys(entries, kPssKeys, "the pss model");
  model::Pss& pss = model.pss;

  ms.names.reserve("t",
                   "it is physical time (or the clock state named by 'clock:'), usable in every expression "
                   "without a declaration");
  if (const MapEntry* e = find_entry(entries, "parameters"))
    detail::read_parameters(doc, *e, ms.names, ms.scope, model.parameters, model.vector_parameters);

  const MapEntry* states = find_entry(entries, "states");
  if (!states) doc.fail(kind.key_where, "the pss model has no 'states', expected a list of state names");
  const auto state_names = name_list(doc, *states, "states");
  if (state_names.empty()) doc.fail(states->value_where, "states is empty, expected at least one state name");
  for (const auto& [n, where] : state_names) {
    ms.names.check(n, where, "state");
    ms.states.push_back(n);
  }
  for (const auto& s : pss.add_states(ms.states)) ms.scope.define(s.name(), s);

  if (const MapEntry* controls = find_entry(entries, "controls")) {
    std::vector<std::string> names;
    for (const auto& [n, where] : name_list(doc, *controls, "controls")) {
      ms.names.check(n, where, "control");
      names.push_back(n);
    }
    for (const auto& u : pss.add_controls(names)) ms.scope.define(u.name(), u);
  }

  if (const MapEntry* clock = find_entry(entries, "clock")) {
    const std::string name = doc.scalar(clock->value, clock->value_where, "clock");
    const std::size_t i = index_of(ms.states, name);
    if (i == ms.states.size())
      doc.fail(clock->value_where, "clock '" + name + "' is not a state" + did_you_mean(name, ms.states) +
                                       (did_you_mean(name, ms.states).empty() ? ";" : "") +
                                       " expected one of the states: " + join(ms.states));
    pss.clock = static_cast<int>(i);
    ms.time = pss.x[i];
    ms.time_is_clock = true;
  } else {
    ms.time = sym::Expr::symbol("t");
  }
  ms.scope.define("t", ms.time);

  if (const MapEntry* e = find_entry(entries, "definitions"))
    detail::read_definitions(doc, *e, ms.names, ms.scope, model.definitions);

  read_dynamics(doc, entries, kind, ms, pss);
  pss.x0 = detail::read_initial_state(doc, find_entry(entries, "x0"), kind.key_where, "the pss model",
                                      ms.states, ms.scope);
}

// Appends the state `t` (ṫ = 1, t(0) = 0) if any expression of the model or `more` uses it, then
// validates the model. Returns whether the state was added.
bool finish_model(const YamlDocument& doc, const ModelScope& ms, const std::string& name,
                  const sym::Vector& more, PssModelFile& model) {
  model::Pss& pss = model.pss;
  if (!name.empty()) pss.name = name;
  bool uses_time = false;
  if (!ms.time_is_clock) {
    sym::Vector all = pss.f0;
    all.insert(all.end(), more.begin(), more.end());
    for (const auto& s : pss.subsystems) {
      all.insert(all.end(), s.switching.begin(), s.switching.end());
      all.insert(all.end(), s.indicators.begin(), s.indicators.end());
      for (const auto& f : s.fields) all.insert(all.end(), f.begin(), f.end());
    }
    for (const auto& s : sym::free_symbols(all)) uses_time = uses_time || sym::is_same(s, ms.time);
  }
  if (uses_time) {
    pss.time_state = static_cast<int>(pss.x.size());
    pss.x.push_back(ms.time);
    pss.state_names.push_back("t");
    pss.x0.push_back(0.0);
    // ṫ = 1: in the common field if there is one (or several subsystems, whose fields add up),
    // else in every region of the only subsystem.
    const bool in_f0 = !pss.f0.empty() || pss.subsystems.size() > 1;
    if (in_f0) {
      if (pss.f0.empty()) pss.f0.assign(ms.states.size(), sym::Expr(0.0));
      pss.f0.emplace_back(1.0);
    }
    for (auto& s : pss.subsystems)
      for (auto& f : s.fields) f.emplace_back(in_f0 ? 0.0 : 1.0);
  }
  try {
    pss.validate();
  } catch (const Error& e) {
    doc.fail(model.where, e.what());
  }
  return uses_time;
}

// ---- sections shared by simulate and ocp ----

// The top level: overrides, kind, unknown keys.
std::vector<MapEntry> read_top(YamlDocument& doc, const std::vector<std::string>& overrides,
                               const std::string& kind_name, const std::vector<std::string>& keys) {
  doc.apply_overrides(overrides, kSections);
  const SourceLocation top{doc.display_name(), 1, 1};
  const YAML::Node& root = doc.root();
  if (!root || root.IsNull())
    doc.fail(top, "the file is empty, expected a map starting with 'kind: " + kind_name + "'");
  std::vector<MapEntry> entries = doc.entries(root, "the problem file");
  const MapEntry* kind = find_entry(entries, "kind");
  if (!kind) doc.fail(top, "missing key 'kind', expected 'kind: " + kind_name + "' at the top level");
  const std::string kind_text = doc.scalar(kind->value, kind->value_where, "'kind'");
  if (kind_text != kind_name)
    doc.fail(kind->value_where, "kind is '" + kind_text + "', expected '" + kind_name + "'");
  doc.check_keys(entries, keys, "the " + kind_name + " problem");
  if (!find_entry(entries, "model"))
    doc.fail(top, "missing key 'model', expected 'model: {pss: {states: [...], ...}}'");
  return entries;
}

std::string optional_text(const YamlDocument& doc, const std::vector<MapEntry>& entries,
                          const std::string& key) {
  const MapEntry* e = find_entry(entries, key);
  return e ? doc.scalar(e->value, e->value_where, "'" + key + "'") : std::string();
}

// `discretization:`; returns its entries so that validation errors can point at them later.
std::vector<MapEntry> read_discretization(const YamlDocument& doc, const MapEntry* section,
                                          discretize::Options& options, bool ocp) {
  if (!section) return {};
  std::vector<MapEntry> entries = doc.entries(section->value, "discretization");
  std::vector<std::string> allowed;
  for (const auto& o : discretize::option_table())
    if (o.name != "path_at") allowed.push_back(o.name);
  for (const auto& e : entries)
    if (e.key == "path_at")
      doc.fail(e.key_where,
               ocp ? "'path_at' is written as 'at' under ocp.constraints (constraints: {at: " +
                         std::string("stage_ends | elements | stage_points | dense})")
                   : "'path_at' has no meaning for a simulation (there are no path constraints)");
  doc.check_keys(entries, allowed, "discretization");
  for (const auto& e : entries) {
    const std::string value = doc.scalar(e.value, e.value_where, "discretization option '" + e.key + "'");
    try {
      discretize::set_option(options, e.key, value);
    } catch (const Error& err) {
      const std::string message = err.what();
      doc.fail(e.value_where, message.find("'" + e.key + "'") == std::string::npos
                                  ? "option '" + e.key + "': " + message
                                  : message);
    }
  }
  return entries;
}

void validate_discretization(const YamlDocument& doc, const discretize::Options& options,
                             const std::vector<MapEntry>& entries, const SourceLocation& fallback,
                             const MapEntry* at = nullptr) {
  try {
    options.validate();
  } catch (const Error& err) {
    const std::string message = err.what();
    SourceLocation where = named_option_location(message, entries, fallback);
    if (at && message.find("option 'path_at") != std::string::npos) where = at->value_where;
    doc.fail(where, "discretization: " + message);
  }
}

// `initialization:` (ocp files): ocp::InitializationOptions by name, checked as a whole.
void read_initialization(const YamlDocument& doc, const std::vector<MapEntry>& entries,
                         ocp::InitializationOptions& options) {
  const MapEntry* section = find_entry(entries, "initialization");
  if (!section) return;
  const std::vector<MapEntry> fields = doc.entries(section->value, "initialization");
  std::vector<std::string> allowed;
  for (const auto& o : ocp::initialization_option_table()) allowed.push_back(o.name);
  doc.check_keys(fields, allowed, "initialization");
  for (const auto& e : fields) {
    // A list (omit_path_constraints: [5, 6]) is passed on as "5,6".
    std::string value;
    if (e.value && e.value.IsSequence()) {
      for (std::size_t i = 0; i < e.value.size(); ++i)
        value += (i ? "," : "") + doc.scalar(e.value[i], doc.where(e.value[i]), "initialization option '" + e.key + "'");
    } else if (e.value && e.value.IsMap()) {
      // A mapping (shift: {qx: 1}) is passed on as "qx=1".
      for (const MapEntry& m : doc.entries(e.value, "initialization." + e.key))
        value += (value.empty() ? "" : ",") + m.key + "=" +
                 doc.scalar(m.value, m.value_where, "initialization." + e.key + "." + m.key);
    } else {
      value = doc.scalar(e.value, e.value_where, "initialization option '" + e.key + "'");
    }
    try {
      ocp::set_initialization_option(options, e.key, value);
    } catch (const Error& err) {
      doc.fail(e.value_where, std::string("initialization: ") + err.what());
    }
  }
  try {
    options.validate();
  } catch (const Error& err) {
    doc.fail(named_option_location(err.what(), fields, section->key_where),
             std::string("initialization: ") + err.what());
  }
}

// initialization.method repeat: the shorter problem's path made relative to this file's folder,
// the shifted states checked by name, no continuation beside it.
void check_repeat(const YamlDocument& doc, const std::vector<MapEntry>& entries, OcpFile& file) {
  const MapEntry* section = find_entry(entries, "initialization");
  SourceLocation where = section ? section->key_where : SourceLocation{};
  if (section) {
    const std::vector<MapEntry> fields = doc.entries(section->value, "initialization");
    if (const MapEntry* shift = find_entry(fields, "shift")) where = shift->value_where;
  }
  ocp::InitializationOptions& init = file.initialization;
  if (file.continuation)
    doc.fail(section ? section->key_where : where, "initialization.method repeat and a continuation section cannot be combined: the repeated "
                    "start replaces the first continuation stage's nominal guess; give the continuation to the "
                    "shorter problem's file instead");
  const std::filesystem::path problem(init.problem);
  if (problem.is_relative()) init.problem = (std::filesystem::path(file.path).parent_path() / problem).string();
  for (const auto& [name, value] : init.shift) {
    const auto& states = file.state_names;
    const auto it = std::find(states.begin(), states.end(), name);
    if (it == states.end()) doc.fail(where, "initialization.shift: '" + name + "' is not a state of the model");
    if (file.time_freezing && static_cast<int>(it - states.begin()) == file.ocp.clock)
      doc.fail(where, "initialization.shift: '" + name +
                          "' is the clock, which moves by the repeated stages' length by itself; leave it out");
  }
}

void read_homotopy(const YamlDocument& doc, const std::vector<MapEntry>& entries,
                   mpcc::HomotopyOptions& options) {
  if (const MapEntry* e = find_entry(entries, "homotopy"))
    detail::read_homotopy_options(doc, *e, "homotopy", options);
}

double positive_time(const YamlDocument& doc, const MapEntry& e, const Scope& scope,
                     const std::string& what) {
  const double v = doc.constant(e.value, e.value_where, scope, what);
  if (!(v > 0.0) || !std::isfinite(v))
    doc.fail(e.value_where, what + " is " + num(v) + ", expected a finite time > 0");
  return v;
}

int positive_count(const YamlDocument& doc, const MapEntry& e, const Scope& scope, const std::string& what) {
  const int v = detail::integer(doc, e.value, e.value_where, scope, what);
  if (v < 1) doc.fail(e.value_where, what + " is " + std::to_string(v) + ", expected at least 1");
  return v;
}

// "unknown control 'v' in simulate.controls; did you mean 'u'? controls: u"
[[noreturn]] void unknown_name(const YamlDocument& doc, const MapEntry& e, const std::string& kind,
                               const std::string& where, const std::vector<std::string>& names) {
  const std::string suggestion = did_you_mean(e.key, names);
  doc.fail(e.key_where, "unknown " + kind + " '" + e.key + "' in " + where +
                            (suggestion.empty() ? ";" : suggestion) + " " + kind + "s: " + join(names));
}

// ---- kind: simulate ----

SimulateFile read_simulate(YamlDocument& doc, const std::vector<std::string>& overrides) {
  const std::vector<MapEntry> entries = read_top(doc, overrides, "simulate", kSimulateKeys);
  const SourceLocation top{doc.display_name(), 1, 1};
  SimulateFile file;
  file.path = doc.display_name();
  file.name = optional_text(doc, entries, "name");
  file.description = optional_text(doc, entries, "description");

  ModelScope ms(doc);
  read_model(doc, entries, true, file.name, ms, file.model, file.time_freezing);
  finish_model(doc, ms, file.name, {}, file.model);
  if (file.time_freezing) file.time_freezing->frozen.pss = file.model.pss;
  const model::Pss& pss = file.model.pss;

  const MapEntry* sim = find_entry(entries, "simulate");
  if (!sim) doc.fail(top, "missing key 'simulate', expected 'simulate: {horizon: ..., steps: ...}'");
  const std::vector<MapEntry> fields = doc.entries(sim->value, "simulate");
  doc.check_keys(fields, kSimulateSectionKeys, "simulate");
  const MapEntry* horizon = find_entry(fields, "horizon");
  if (!horizon)
    doc.fail(sim->key_where, "simulate: missing key 'horizon', expected the simulated physical time");
  file.horizon = positive_time(doc, *horizon, ms.scope, "simulate.horizon");
  const MapEntry* steps = find_entry(fields, "steps");
  if (!steps)
    doc.fail(sim->key_where, "simulate: missing key 'steps', expected the number of integrator steps");
  file.steps = positive_count(doc, *steps, ms.scope, "simulate.steps");
  if (file.time_freezing)
    detail::check_steps_hold_jumps(doc, *file.time_freezing, file.horizon, file.steps, *steps);
  if (const MapEntry* w = find_entry(fields, "warm_start"))
    file.warm_start = detail::boolean(doc, w->value, w->value_where, "simulate.warm_start");

  file.controls.assign(pss.n_u(), 0.0);
  if (const MapEntry* controls = find_entry(fields, "controls")) {
    const std::vector<MapEntry> values = doc.entries(controls->value, "simulate.controls");
    if (!values.empty() && pss.n_u() == 0)
      doc.fail(values[0].key_where, "simulate.controls gives '" + values[0].key +
                                        "', but the model has no controls (declare them with 'controls:')");
    for (const auto& e : values) {
      const std::size_t i = index_of(pss.control_names, e.key);
      if (i == pss.n_u()) unknown_name(doc, e, "control", "simulate.controls", pss.control_names);
      const double v = doc.constant(e.value, e.value_where, ms.scope, "the value of control '" + e.key + "'");
      if (!std::isfinite(v))
        doc.fail(e.value_where,
                 "the value of control '" + e.key + "' is " + num(v) + ", expected a finite value");
      file.controls[i] = v;
    }
  }

  const MapEntry* disc = find_entry(entries, "discretization");
  const std::vector<MapEntry> disc_entries = read_discretization(doc, disc, file.discretization, false);
  validate_discretization(doc, file.discretization, disc_entries, disc ? disc->key_where : top);
  read_homotopy(doc, entries, file.homotopy);
  if (const MapEntry* d = find_entry(entries, "draw"))
    file.draw = detail::read_draw(doc, *d, ms.scope, pss.state_names, pss.control_names);
  return file;
}

// ---- kind: ocp ----

struct Bounds {
  double lower = -kInf, upper = kInf, start = 0.0;
  bool has_lower = false, has_upper = false, has_start = false;
  SourceLocation start_where;
};

Bounds read_bounds(const YamlDocument& doc, const MapEntry& e, const Scope& scope, const std::string& what,
                   bool with_start) {
  const std::vector<MapEntry> fields = doc.entries(e.value, what);
  if (with_start)
    doc.check_keys(fields, {"lower", "upper", "start"}, what);
  else
    doc.check_keys(fields, {"lower", "upper"}, what);
  Bounds b;
  for (const auto& f : fields) {
    if (f.key == "lower") {
      b.lower = doc.constant(f.value, f.value_where, scope, "lower bound of " + what);
      b.has_lower = true;
    }
    if (f.key == "upper") {
      b.upper = doc.constant(f.value, f.value_where, scope, "upper bound of " + what);
      b.has_upper = true;
    }
    if (f.key == "start") {
      b.start = doc.constant(f.value, f.value_where, scope, "start of " + what);
      b.has_start = true;
      b.start_where = f.value_where;
    }
  }
  check_bounds(doc, e.key_where, what, b.lower, b.upper);
  if (b.has_start) {
    if (!std::isfinite(b.start))
      doc.fail(b.start_where, "start of " + what + " is " + num(b.start) + ", expected a finite value");
    if (b.start < b.lower || b.start > b.upper)
      doc.fail(b.start_where, "start of " + what + " is " + num(b.start) + ", outside its bounds [" +
                                  num(b.lower) + ", " + num(b.upper) + "]");
  }
  return b;
}

// Throws if `e` depends on a control (terminal costs and constraints see the final state only).
void check_no_controls(const YamlDocument& doc, const sym::Vector& exprs, const model::Pss& pss,
                       const SourceLocation& where, const std::string& what) {
  std::unordered_set<const sym::Node*> controls;
  for (const auto& u : pss.u) controls.insert(u.node());
  for (const auto& s : sym::free_symbols(exprs))
    if (controls.count(s.node()))
      doc.fail(where,
               what + " depends on the control '" + s.name() +
                   "', expected an expression of the states only (it is evaluated at the final state)");
}

std::string constraint_name(const detail::ConstraintText& c) {
  return "'" + c.text + "' (" + to_string(c.where) + ")";
}

// `continuation: {parameter: NAME, values: [...], tolerance: 1e-6}` (ocp files).
ParameterContinuation read_continuation(const YamlDocument& doc, const MapEntry& section, const Scope& scope,
                                        const PssModelFile& model) {
  ParameterContinuation c;
  c.where = section.key_where;
  c.model_kind = model.kind;
  const std::vector<MapEntry> fields = doc.entries(section.value, "continuation");
  doc.check_keys(fields, kContinuationKeys, "continuation");
  const MapEntry* parameter = find_entry(fields, "parameter");
  const MapEntry* values = find_entry(fields, "values");
  if (!parameter || !values)
    doc.fail(section.key_where, "continuation: expected {parameter: NAME, values: [v1, v2, ...]} (a scalar model "
                                "parameter and the values to solve with before the file's own)");
  c.parameter = doc.scalar(parameter->value, parameter->value_where, "continuation.parameter");
  std::vector<std::string> names;
  for (const auto& [name, value] : model.parameters) names.push_back(name);
  if (index_of(names, c.parameter) == names.size())
    doc.fail(parameter->value_where, "continuation.parameter: '" + c.parameter +
                                         "' is not a scalar parameter of the " + model.kind + " model" +
                                         did_you_mean(c.parameter, names) + "; its parameters: " +
                                         (names.empty() ? std::string("none") : join(names)));
  if (!values->value.IsSequence() || values->value.size() == 0)
    doc.fail(values->value_where, "continuation.values: expected a non-empty list of values, e.g. [0.5, 0.75]");
  for (std::size_t i = 0; i < values->value.size(); ++i) {
    const SourceLocation at = doc.where(values->value[i]);
    const double v = doc.constant(values->value[i], at, scope, "continuation.values[" + std::to_string(i) + "]");
    if (!std::isfinite(v))
      doc.fail(at, "continuation.values[" + std::to_string(i) + "] is " + num(v) + ", expected a finite value");
    c.values.push_back(v);
  }
  if (const MapEntry* e = find_entry(fields, "tolerance")) {
    c.tolerance = doc.constant(e->value, e->value_where, scope, "continuation.tolerance");
    if (!(c.tolerance > 0) || !std::isfinite(c.tolerance))
      doc.fail(e->value_where, "continuation.tolerance is " + num(c.tolerance) + ", expected a finite value > 0");
  }
  return c;
}

OcpFile read_ocp(YamlDocument& doc, const std::vector<std::string>& overrides) {
  const std::vector<MapEntry> entries = read_top(doc, overrides, "ocp", kOcpKeys);
  const SourceLocation top{doc.display_name(), 1, 1};
  OcpFile file;
  file.path = doc.display_name();
  file.name = optional_text(doc, entries, "name");
  file.description = optional_text(doc, entries, "description");

  ModelScope ms(doc);
  read_model(doc, entries, false, file.name, ms, file.model, file.time_freezing);
  model::Pss& pss = file.model.pss;
  const std::size_t n_x = ms.states.size(), n_u = pss.n_u();

  const MapEntry* disc = find_entry(entries, "discretization");
  const std::vector<MapEntry> disc_entries = read_discretization(doc, disc, file.discretization, true);

  const MapEntry* section = find_entry(entries, "ocp");
  if (!section) doc.fail(top, "missing key 'ocp', expected 'ocp: {horizon: ..., stages: ..., cost: ...}'");
  const std::vector<MapEntry> fields = doc.entries(section->value, "ocp");
  doc.check_keys(fields, kOcpSectionKeys, "ocp");
  discretize::OcpSpec& ocp = file.ocp;

  const MapEntry* horizon = find_entry(fields, "horizon");
  if (!horizon)
    doc.fail(section->key_where,
             "ocp: missing key 'horizon', expected the final time (with time_optimal: its initial guess)");
  ocp.horizon = positive_time(doc, *horizon, ms.scope, "ocp.horizon");
  if (const MapEntry* e = find_entry(fields, "stages"))
    ocp.stages = positive_count(doc, *e, ms.scope, "ocp.stages");
  if (const MapEntry* e = find_entry(fields, "time_optimal"))
    ocp.time_optimal = detail::boolean(doc, e->value, e->value_where, "ocp.time_optimal");
  // validate: true (1 integrator step per stage), false, or the integrator steps per stage.
  if (const MapEntry* e = find_entry(fields, "validate")) {
    const std::string text = doc.scalar(e->value, e->value_where, "ocp.validate");
    if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])))
      file.validate_steps_per_stage = positive_count(doc, *e, ms.scope, "ocp.validate");
    else
      file.validate_steps_per_stage =
          detail::boolean(doc, e->value, e->value_where, "ocp.validate (true, false or steps per stage)") ? 1 : 0;
  }
  // validation: {gap_tolerance, constraint_tolerance, deviation_tolerance}, the verdict's limits.
  if (const MapEntry* e = find_entry(fields, "validation")) {
    if (!e->value.IsMap())
      doc.fail(e->value_where, "ocp.validation: expected a map {gap_tolerance: ..., constraint_tolerance: ..., "
                               "deviation_tolerance: ...}");
    const std::vector<MapEntry> items = doc.entries(e->value, "ocp.validation");
    doc.check_keys(items, kValidationKeys, "ocp.validation");
    ocp::ValidationOptions& t = file.validation;
    for (const MapEntry& item : items) {
      const std::string what = "ocp.validation." + item.key;
      const double v = doc.constant(item.value, item.value_where, ms.scope, what);
      if (!(v > 0.0) || !std::isfinite(v)) doc.fail(item.value_where, what + " is " + num(v) + ", expected a finite value > 0");
      (item.key == "gap_tolerance"          ? t.gap_tolerance
       : item.key == "constraint_tolerance" ? t.constraint_tolerance
                                            : t.deviation_tolerance) = v;
    }
  }
  if (const MapEntry* e = find_entry(fields, "final_time")) {
    if (!ocp.time_optimal)
      doc.fail(e->key_where,
               "'final_time' bounds the free final time of a time-optimal problem, but "
               "time_optimal is false (set 'time_optimal: true' or remove final_time)");
    const Bounds b = read_bounds(doc, *e, ms.scope, "final_time", false);
    if (b.lower < 0.0)
      doc.fail(e->key_where, "final_time: lower bound " + num(b.lower) + " is negative, expected >= 0");
    if (b.has_lower) ocp.final_time_lower = b.lower;
    if (b.has_upper) ocp.final_time_upper = b.upper;
    check_bounds(doc, e->key_where, "final_time", ocp.final_time_lower, ocp.final_time_upper);
  }
  if (ocp.time_optimal && (ocp.horizon < ocp.final_time_lower || ocp.horizon > ocp.final_time_upper))
    doc.fail(horizon->value_where, "ocp.horizon " + num(ocp.horizon) +
                                       " (the initial guess of the final time) lies outside final_time [" +
                                       num(ocp.final_time_lower) + ", " + num(ocp.final_time_upper) + "]");

  // Controls: bounds and start by name; unlisted controls are free with start 0.
  ocp.u_lower.assign(n_u, -kInf);
  ocp.u_upper.assign(n_u, kInf);
  ocp.u_start.assign(n_u, 0.0);
  if (const MapEntry* controls = find_entry(fields, "controls")) {
    const std::vector<MapEntry> items = doc.entries(controls->value, "ocp.controls");
    if (!items.empty() && n_u == 0)
      doc.fail(items[0].key_where, "ocp.controls gives '" + items[0].key +
                                       "', but the model has no controls (declare them with 'controls:')");
    for (const auto& e : items) {
      const std::size_t i = index_of(pss.control_names, e.key);
      if (i == n_u) unknown_name(doc, e, "control", "ocp.controls", pss.control_names);
      const Bounds b = read_bounds(doc, e, ms.scope, "control '" + e.key + "'", true);
      ocp.u_lower[i] = b.lower;
      ocp.u_upper[i] = b.upper;
      ocp.u_start[i] = b.has_start ? b.start : std::clamp(0.0, b.lower, b.upper);
    }
  }

  // State boxes.
  ocp.x_lower.assign(n_x, -kInf);
  ocp.x_upper.assign(n_x, kInf);
  if (const MapEntry* states = find_entry(fields, "states")) {
    for (const auto& e : doc.entries(states->value, "ocp.states")) {
      const std::size_t i = index_of(ms.states, e.key);
      if (i == n_x) unknown_name(doc, e, "state", "ocp.states", ms.states);
      const Bounds b = read_bounds(doc, e, ms.scope, "state '" + e.key + "'", false);
      ocp.x_lower[i] = b.lower;
      ocp.x_upper[i] = b.upper;
    }
  }

  // Free initial states.
  ocp.x0_free.assign(n_x, false);
  ocp.x0_lower.assign(n_x, -kInf);
  ocp.x0_upper.assign(n_x, kInf);
  if (const MapEntry* initial = find_entry(fields, "initial")) {
    for (const auto& e : doc.entries(initial->value, "ocp.initial")) {
      const std::size_t i = index_of(ms.states, e.key);
      if (i == n_x) unknown_name(doc, e, "state", "ocp.initial", ms.states);
      const std::string what = "initial state '" + e.key + "'";
      const Bounds b = read_bounds(doc, e, ms.scope, what, true);
      ocp.x0_free[i] = true;
      ocp.x0_lower[i] = b.lower;
      ocp.x0_upper[i] = b.upper;
      if (b.has_start) {
        pss.x0[i] = b.start;
      } else if (pss.x0[i] < b.lower || pss.x0[i] > b.upper) {
        doc.fail(e.key_where, what + ": its start x0 = " + num(pss.x0[i]) + " (from the model) is outside [" +
                                  num(b.lower) + ", " + num(b.upper) +
                                  "], expected a 'start' within the bounds");
      }
    }
  }

  // Costs.
  sym::Vector used;  // every expression, to find out whether `t` is used
  if (const MapEntry* cost = find_entry(fields, "cost")) {
    const std::vector<MapEntry> items = doc.entries(cost->value, "ocp.cost");
    doc.check_keys(items, {"running", "terminal"}, "ocp.cost");
    for (const auto& e : items) {
      const sym::Expr c = doc.expression(e.value, e.value_where, ms.scope, e.key + " cost");
      if (e.key == "running") ocp.running_cost = c;
      if (e.key == "terminal") {
        check_no_controls(doc, {c}, pss, e.value_where, "the terminal cost");
        ocp.terminal_cost = c;
      }
      used.push_back(c);
    }
  }

  // Constraints.
  const MapEntry* at = nullptr;
  std::vector<SourceLocation> row_placements_needing_stage_states;  // a path constraint's at: stage_points/dense
  if (const MapEntry* constraints = find_entry(fields, "constraints")) {
    const std::vector<MapEntry> items = doc.entries(constraints->value, "ocp.constraints");
    doc.check_keys(items, kConstraintKeys, "ocp.constraints");
    const auto list = [&](const MapEntry& e, const std::string& what) {
      if (e.value && !e.value.IsNull() && !e.value.IsSequence())
        doc.fail(e.value_where, what + " must be a list");
      return e.value && e.value.IsSequence() ? e.value.size() : std::size_t{0};
    };
    for (const auto& e : items) {
      if (e.key == "path") {
        const std::size_t n =
            list(e, "constraints.path (of \"a <= b\" strings or {expr, lower, upper} maps)");
        for (std::size_t i = 0; i < n; ++i) {
          const detail::ConstraintText c =
              detail::read_constraint(doc, e.value[i], "path constraint " + std::to_string(i), ms.scope, true);
          std::optional<discretize::PathAt> placement;
          if (!c.at.empty()) {
            discretize::Options where_options;
            try {
              discretize::set_option(where_options, "path_at", c.at);
            } catch (const Error&) {
              doc.fail(c.at_where, "path constraint " + std::to_string(i) + ": at is '" + c.at +
                                       "', expected stage_ends, elements, stage_points or dense");
            }
            placement = where_options.path_at;
            if (placement == discretize::PathAt::StagePoints || placement == discretize::PathAt::Dense)
              row_placements_needing_stage_states.push_back(c.at_where);
          }
          ocp.path_at.push_back(placement);
          ocp.path.push_back(c.expr);
          ocp.path_lower.push_back(c.lower);
          ocp.path_upper.push_back(c.upper);
          ocp.path_names.push_back(constraint_name(c));
          used.push_back(c.expr);
        }
      } else if (e.key == "terminal") {
        const std::size_t n =
            list(e, "constraints.terminal (of \"a == b\" strings or {expr, lower, upper} maps)");
        for (std::size_t i = 0; i < n; ++i) {
          const detail::ConstraintText c =
              detail::read_constraint(doc, e.value[i], "terminal constraint " + std::to_string(i), ms.scope);
          check_no_controls(doc, {c.expr}, pss, c.where, "terminal constraint '" + c.text + "'");
          ocp.terminal.push_back(c.expr);
          ocp.terminal_lower.push_back(c.lower);
          ocp.terminal_upper.push_back(c.upper);
          ocp.terminal_names.push_back(constraint_name(c));
          used.push_back(c.expr);
        }
      } else if (e.key == "complementarity") {
        const std::size_t n = list(e, "constraints.complementarity (of pairs [G, H])");
        for (std::size_t i = 0; i < n; ++i) {
          const detail::PairText p =
              detail::read_pair(doc, e.value[i], "path complementarity pair " + std::to_string(i), ms.scope);
          ocp.path_G.push_back(p.G);
          ocp.path_H.push_back(p.H);
          used.push_back(p.G);
          used.push_back(p.H);
        }
      } else if (e.key == "terminal_relaxation") {
        // {mode: none | ell_1 | ell_2 | ell_inf, weight: ρ_T (default 100)} (fesd.md §4.5)
        const std::vector<MapEntry> tr = doc.entries(e.value, "ocp.constraints.terminal_relaxation");
        doc.check_keys(tr, {"mode", "weight"}, "ocp.constraints.terminal_relaxation");
        for (const auto& f : tr) {
          if (f.key == "mode") {
            const std::string mode = doc.scalar(f.value, f.value_where, "terminal_relaxation.mode");
            using TR = discretize::OcpSpec::TerminalRelaxation;
            if (mode == "none") ocp.terminal_relaxation = TR::None;
            else if (mode == "ell_1") ocp.terminal_relaxation = TR::Ell1;
            else if (mode == "ell_2") ocp.terminal_relaxation = TR::Ell2;
            else if (mode == "ell_inf") ocp.terminal_relaxation = TR::EllInf;
            else
              doc.fail(f.value_where, "terminal_relaxation.mode is '" + mode +
                                          "', expected none, ell_1, ell_2 or ell_inf");
          } else {
            const double w = doc.constant(f.value, f.value_where, ms.scope, "terminal_relaxation.weight");
            if (!(w > 0.0) || !std::isfinite(w))
              doc.fail(f.value_where, "terminal_relaxation.weight is " + num(w) + ", expected a finite weight > 0");
            ocp.terminal_relaxation_weight = w;
          }
        }
      } else if (e.key == "at") {
        at = &e;
        const std::string value = doc.scalar(e.value, e.value_where, "constraints.at");
        try {
          discretize::set_option(file.discretization, "path_at", value);
        } catch (const Error&) {
          doc.fail(e.value_where, "constraints.at is '" + value +
                                      "', expected stage_ends (default), elements, stage_points or dense");
        }
      }
    }
  }
  validate_discretization(doc, file.discretization, disc_entries, disc ? disc->key_where : section->key_where,
                          at);
  if (!row_placements_needing_stage_states.empty() &&
      file.discretization.effective_representation() != discretize::Representation::Integral)
    doc.fail(row_placements_needing_stage_states.front(),
             "a path constraint at stage_points or dense needs stage states as variables: use representation: "
             "integral with radau_iia or gauss_legendre");

  // Physical time: a state `t` if anything uses it, unbounded and fixed at 0 initially.
  if (finish_model(doc, ms, file.name, used, file.model)) {
    ocp.x_lower.push_back(-kInf);
    ocp.x_upper.push_back(kInf);
    ocp.x0_free.push_back(false);
    ocp.x0_lower.push_back(-kInf);
    ocp.x0_upper.push_back(kInf);
  }
  file.state_names = pss.state_names;
  file.control_names = pss.control_names;
  if (file.time_freezing) {
    TimeFreezingFile& tf = *file.time_freezing;
    tf.frozen.pss = pss;  // with the starts of free initial states
    ocp::set_time_freezing(ocp, tf.frozen, file.discretization.dcs, tf.settings);
  }
  read_homotopy(doc, entries, file.homotopy);
  read_initialization(doc, entries, file.initialization);
  for (int i : file.initialization.omit_path_constraints)
    if (static_cast<std::size_t>(i) >= ocp.path.size())
      doc.fail(find_entry(entries, "initialization")->key_where,
               "initialization.omit_path_constraints: position " + std::to_string(i) +
                   " is not a path constraint (ocp.constraints.path has " + std::to_string(ocp.path.size()) +
                   ", counted from 0)");
  if (const MapEntry* c = find_entry(entries, "continuation"))
    file.continuation = read_continuation(doc, *c, ms.scope, file.model);
  if (file.initialization.method == ocp::InitializationOptions::Method::Repeat)
    check_repeat(doc, entries, file);
  if (const MapEntry* d = find_entry(entries, "draw"))
    file.draw = detail::read_draw(doc, *d, ms.scope, pss.state_names, pss.control_names);
  return file;
}

}  // namespace

SimulateFile read_simulate_file(const std::string& path, const std::vector<std::string>& overrides) {
  YamlDocument doc = YamlDocument::from_file(path);
  return read_simulate(doc, overrides);
}

SimulateFile read_simulate_string(const std::string& yaml_text, const std::string& display_name,
                                  const std::vector<std::string>& overrides) {
  YamlDocument doc = YamlDocument::from_string(yaml_text, display_name);
  return read_simulate(doc, overrides);
}

sim::Options integrator_options(const SimulateFile& file) {
  sim::Options so;
  so.horizon = file.horizon;
  so.steps = file.steps;
  so.warm_start = file.warm_start;
  so.controls = file.controls;
  so.discretization = file.discretization;
  so.homotopy = file.homotopy;
  if (file.time_freezing) {
    so.speed_of_time_lower = file.time_freezing->settings.speed_of_time_lower;
    so.speed_of_time_upper = file.time_freezing->settings.speed_of_time_upper;
    so.speed_of_time_start = file.time_freezing->settings.speed_of_time_start;
    if (file.discretization.dcs == reformulate::DcsMode::Step) so.alpha_penalty = file.time_freezing->alpha_penalty();
  }
  return so;
}

OcpFile read_ocp_file(const std::string& path, const std::vector<std::string>& overrides) {
  YamlDocument doc = YamlDocument::from_file(path);
  return read_ocp(doc, overrides);
}

OcpFile read_ocp_string(const std::string& yaml_text, const std::string& display_name,
                        const std::vector<std::string>& overrides) {
  YamlDocument doc = YamlDocument::from_string(yaml_text, display_name);
  return read_ocp(doc, overrides);
}

}  // namespace stasis::io
