// `model: {cls: ...}` and `model: {jump: ...}` with the `time_freezing:` section
// (PROBLEM_FORMAT.md): read into model::Cls / model::JumpSystem and reformulated by
// reformulate::time_freezing into the file's PSS.
//
// Physical time `t` is the clock state. The models themselves know no time symbol, so a model
// whose dynamics use `t` is reformulated with `t` as an extra (last) control, which then becomes
// the clock state of the PSS: the clock is the only state named `t`, and ṫ is 1 or 0 by region.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <unordered_set>
#include <vector>

#include "file_schema.hpp"
#include "model_reader.hpp"
#include "stasis/error.hpp"
#include "stasis/io/expression.hpp"
#include "stasis/sym/derivatives.hpp"
#include "stasis/sym/matrix.hpp"
#include "yaml_document.hpp"

namespace stasis::io {

std::vector<std::string> TimeFreezingFile::physical_state_names() const {
  if (const model::Cls* c = cls()) {
    std::vector<std::string> names = c->position_names;
    names.insert(names.end(), c->velocity_names.begin(), c->velocity_names.end());
    return names;
  }
  return std::get<model::JumpSystem>(model).state_names;
}

reformulate::TimeFrozenModel TimeFreezingFile::reformulated(const reformulate::TimeFreezingOptions& with) const {
  // `t` (if used) is an extra last control that becomes the clock state.
  reformulate::TimeFrozenModel frozen_model;
  if (const model::Cls* c = cls()) {
    model::Cls m = *c;
    if (uses_time) {
      m.u.push_back(time);
      m.control_names.emplace_back("t");
    }
    frozen_model = reformulate::time_freezing(m, with);
  } else {
    model::JumpSystem m = *jump();
    if (uses_time) {
      m.u.push_back(time);
      m.control_names.emplace_back("t");
    }
    frozen_model = reformulate::time_freezing(m, with);
  }
  model::Pss& pss = frozen_model.pss;
  if (uses_time) {
    pss.u.pop_back();
    pss.control_names.pop_back();
  }
  if (frozen_model.clock < 0 || static_cast<std::size_t>(frozen_model.clock) != pss.n_x() - 1)
    throw Error("internal error: the time-frozen model has no clock state last");
  pss.x[static_cast<std::size_t>(frozen_model.clock)] = time;
  return frozen_model;
}

std::vector<double> TimeFreezingFile::alpha_penalty() const {
  return frozen.alpha_penalty(settings.alpha_regularization);
}

namespace detail {

namespace {

const std::vector<std::string> kClsKeys = {"positions", "velocities", "controls", "parameters", "definitions",
                                           "mass",      "energy",     "forces",   "contacts",   "x0"};
const std::vector<std::string> kEnergyKeys = {"kinetic", "potential"};
const std::vector<std::string> kContactKeys = {"name", "gap", "restitution", "friction", "tangent"};
const std::vector<std::string> kJumpKeys = {"states",     "controls",    "parameters",  "definitions", "f",
                                            "constraint", "constraints", "restitution", "auxiliary",   "x0"};
const std::vector<std::string> kAuxiliaryKeys = {"stiffness", "f"};
const std::vector<std::string> kTimeFreezingKeys = {
    "normal_acceleration", "stiffness",           "speed_of_time", "clock_constraints",
    "running_cost",        "stabilize_positions", "stabilize_depth", "eps_t",       "elastic_mode",
    "lifting",             "lifted_variables",    "alpha_regularization", "implicit_mass"};
const std::vector<std::string> kSpeedOfTimeKeys = {"lower", "upper", "start", "penalty"};

const char* const kTimeReserved =
    "it is the clock state of the time-frozen model (physical time), usable in every expression without a "
    "declaration";

// Where the parts of a model were written, to point model errors at them.
struct Places {
  SourceLocation model, x0, mass, forces, auxiliary;
  std::vector<SourceLocation> contacts;  // per contact (cls) or constraint (jump)
};

// The symbols of `syms` as a set.
std::unordered_set<const sym::Node*> node_set(const std::vector<const sym::Vector*>& syms) {
  std::unordered_set<const sym::Node*> set;
  for (const sym::Vector* v : syms)
    for (const auto& s : *v) set.insert(s.node());
  return set;
}

// Fails at `where` if an expression of `e` depends on a symbol outside `allowed`; `expected`
// completes "expected ..." (e.g. "a function of the positions only").
void check_depends_only(const YamlDocument& doc, const sym::Vector& e,
                        const std::unordered_set<const sym::Node*>& allowed, const SourceLocation& where,
                        const std::string& what, const std::string& expected) {
  for (const auto& s : sym::free_symbols(e))
    if (!allowed.count(s.node()))
      doc.fail(where, what + " depends on '" + s.name() + "', expected " + expected);
}

bool uses(const sym::Vector& e, const sym::Expr& symbol) {
  for (const auto& s : sym::free_symbols(e))
    if (sym::is_same(s, symbol)) return true;
  return false;
}

// Declares the names of a list (positions: [x, y]) and returns them (null = none).
std::vector<std::string> declare(const YamlDocument& doc, ModelScope& ms, const MapEntry& e,
                                 const std::string& kind, const std::string& what) {
  std::vector<std::string> names;
  for (const auto& [n, where] : name_list(doc, e, what)) {
    ms.names.check(n, where, kind);
    names.push_back(n);
  }
  return names;
}

const MapEntry& required(const YamlDocument& doc, const std::vector<MapEntry>& entries,
                         const std::string& key, const SourceLocation& owner_where,
                         const std::string& message) {
  const MapEntry* e = find_entry(entries, key);
  if (!e) doc.fail(owner_where, message);
  return *e;
}

double finite_constant(const YamlDocument& doc, const MapEntry& e, const Scope& scope,
                       const std::string& what) {
  const double v = doc.constant(e.value, e.value_where, scope, what);
  if (!std::isfinite(v)) doc.fail(e.value_where, what + " is " + num(v) + ", expected a finite value");
  return v;
}

// ---- the time_freezing section ----

// `stewart`: the file's discretization.dcs is stewart, which needs the dense form (lifting off by default);
// `simulate`: a kind: simulate file (dense form by default, issue #4).
void read_time_freezing_section(const YamlDocument& doc, const MapEntry* section, bool simulate, bool jump,
                                bool stewart, const Scope& scope, TimeFreezingFile& tf) {
  // The lifted form for ocp files with dcs: step; the dense sign-row form for dcs: stewart and for
  // simulate files (issue #4: with the lifted form's θ, β variables, simulation steps that start at
  // rest on a contact stall at IPOPT's iteration limit; T4, two_contacts.yaml, falling_rod.yaml,
  // ball_3d_friction.yaml converge in the dense form). The file's key overrides either.
  tf.options.lifting = !stewart && !simulate;
  if (!section) return;
  const std::vector<MapEntry> entries = doc.entries(section->value, "time_freezing");
  doc.check_keys(entries, kTimeFreezingKeys, "time_freezing");
  reformulate::TimeFreezingOptions& o = tf.options;
  ocp::TimeFreezingSettings& ts = tf.settings;
  for (const auto& e : entries) {
    const std::string what = "time_freezing." + e.key;
    if (jump && (e.key == "normal_acceleration" || e.key == "stiffness" || e.key == "stabilize_positions" ||
                 e.key == "stabilize_depth" || e.key == "eps_t" || e.key == "elastic_mode" || e.key == "lifting" ||
                 e.key == "lifted_variables" || e.key == "alpha_regularization" || e.key == "implicit_mass"))
      doc.fail(e.key_where,
               "'" + e.key + "' applies to cls models only; a jump model's jumps are its auxiliary dynamics" +
                   (e.key == "stiffness" ? std::string(" (write auxiliary: {stiffness: k} in the jump model)")
                                         : std::string()));
    if (simulate && (e.key == "clock_constraints" || e.key == "running_cost"))
      doc.fail(e.key_where,
               "'" + e.key +
                   "' applies to kind: ocp only; a simulation advances the clock by exactly one step "
                   "length per step and has no cost");
    if (e.key == "normal_acceleration" || e.key == "stiffness") {
      const double v = finite_constant(doc, e, scope, what);
      if (!(v > 0.0)) doc.fail(e.value_where, what + " is " + num(v) + ", expected a value > 0");
      (e.key == "stiffness" ? o.stiffness : o.normal_acceleration) = v;
    } else if (e.key == "stabilize_positions") {
      const double v = finite_constant(doc, e, scope, what);
      if (v < 0.0) doc.fail(e.value_where, what + " is " + num(v) + ", expected kappa >= 0 (0 = off)");
      o.stabilize_positions = v;
    } else if (e.key == "stabilize_depth") {
      const double v = finite_constant(doc, e, scope, what);
      if (v < 0.0) doc.fail(e.value_where, what + " is " + num(v) + ", expected a depth >= 0 (0 = the surface)");
      o.stabilize_depth = v;
    } else if (e.key == "eps_t") {
      const double v = finite_constant(doc, e, scope, what);
      if (!(v > 0.0)) doc.fail(e.value_where, what + " is " + num(v) + ", expected a radius > 0");
      o.eps_t = v;
    } else if (e.key == "alpha_regularization") {
      const double v = finite_constant(doc, e, scope, what);
      if (v < 0.0) doc.fail(e.value_where, what + " is " + num(v) + ", expected a weight >= 0 (0 = off)");
      if (v > 0.0 && stewart)
        doc.fail(e.value_where, what + " weights the gaps' α of the step DCS; dcs: stewart has none "
                                "(use dcs: step or leave the key out)");
      ts.alpha_regularization = v;
    } else if (e.key == "lifting") {
      o.lifting = boolean(doc, e.value, e.value_where, what);
      if (o.lifting && stewart)
        doc.fail(e.value_where, what + " is true, but the lifted form has no sign rows for dcs: stewart; "
                                "use dcs: step or lifting: false");
    } else if (e.key == "lifted_variables") {
      o.lifted_variables = boolean(doc, e.value, e.value_where, what);
    } else if (e.key == "implicit_mass") {
      o.implicit_mass = boolean(doc, e.value, e.value_where, what);
    } else if (e.key == "elastic_mode") {
      const std::string v = doc.scalar(e.value, e.value_where, what);
      if (v == "exact")
        o.elastic_mode = reformulate::TimeFreezingOptions::ElasticMode::Exact;
      else if (v == "nosnoc_literal")
        o.elastic_mode = reformulate::TimeFreezingOptions::ElasticMode::NosnocLiteral;
      else
        doc.fail(e.value_where, what + " is '" + v + "', expected exact (default) or nosnoc_literal");
    } else if (e.key == "clock_constraints") {
      const std::string v = doc.scalar(e.value, e.value_where, what);
      if (v == "stagewise")
        ts.clock_constraints = discretize::OcpSpec::ClockConstraints::Stagewise;
      else if (v == "terminal")
        ts.clock_constraints = discretize::OcpSpec::ClockConstraints::Terminal;
      else
        doc.fail(e.value_where, what + " is '" + v + "', expected stagewise (default) or terminal");
    } else if (e.key == "running_cost") {
      const std::string v = doc.scalar(e.value, e.value_where, what);
      if (v == "physical")
        ts.running_cost = discretize::OcpSpec::RunningCost::Physical;
      else if (v == "numerical")
        ts.running_cost = discretize::OcpSpec::RunningCost::Numerical;
      else
        doc.fail(e.value_where, what + " is '" + v + "', expected physical (default) or numerical");
    } else if (e.key == "speed_of_time") {
      const std::vector<MapEntry> items = doc.entries(e.value, what);
      doc.check_keys(items, kSpeedOfTimeKeys, what);
      const MapEntry* start = nullptr;
      for (const auto& i : items) {
        const std::string w = what + "." + i.key;
        if (i.key == "penalty") {
          if (simulate)
            doc.fail(i.key_where, "'penalty' (rho_sot on sum (s_k - 1)^2) applies to kind: ocp only");
          const double v = finite_constant(doc, i, scope, w);
          if (v < 0.0) doc.fail(i.value_where, w + " is " + num(v) + ", expected a weight >= 0");
          ts.speed_of_time_penalty = v;
          continue;
        }
        const double v = doc.constant(i.value, i.value_where, scope, w);
        if (i.key == "lower") {
          if (!(v > 0.0) || !(v <= 1.0))
            doc.fail(i.value_where,
                     w + " is " + num(v) +
                         ", expected a value in (0, 1]: free flight needs s = 1 (the clock runs "
                         "with numerical time) and s must stay positive");
          ts.speed_of_time_lower = v;
        } else if (i.key == "upper") {
          if (!(v >= 1.0))
            doc.fail(i.value_where, w + " is " + num(v) +
                                        ", expected a value >= 1: free flight needs s = 1, and a step with a "
                                        "contact phase or a jump needs s > 1");
          ts.speed_of_time_upper = v;
        } else {
          if (!std::isfinite(v)) doc.fail(i.value_where, w + " is " + num(v) + ", expected a finite value");
          ts.speed_of_time_start = v;
          start = &i;
        }
      }
      const SourceLocation& where = start ? start->value_where : e.key_where;
      if (ts.speed_of_time_start < ts.speed_of_time_lower || ts.speed_of_time_start > ts.speed_of_time_upper)
        doc.fail(where, what + ": start " + num(ts.speed_of_time_start) + " is outside [lower, upper] = [" +
                            num(ts.speed_of_time_lower) + ", " + num(ts.speed_of_time_upper) + "]");
    }
  }
}

// ---- cls ----

// `mass:` — n_q rows of n_q expressions of the positions.
sym::Matrix read_mass(const YamlDocument& doc, const MapEntry& e, const ModelScope& ms,
                      const std::vector<std::string>& positions,
                      const std::unordered_set<const sym::Node*>& q) {
  const std::size_t nq = positions.size();
  const std::string shape = std::to_string(nq) + "x" + std::to_string(nq);
  const std::string expected = "expected an " + shape + " matrix (one row per position: " + join(positions) +
                               "), e.g. " + (nq == 1 ? "[[m]]" : "[[m, 0], [0, m]]");
  if (!e.value || !e.value.IsSequence()) doc.fail(e.value_where, "mass must be a list of rows, " + expected);
  if (e.value.size() != nq)
    doc.fail(e.value_where, "mass has " + plural(e.value.size(), "row") + " but the model has " +
                                plural(nq, "position") + ", " + expected);
  sym::Matrix m(nq, nq);
  for (std::size_t i = 0; i < nq; ++i) {
    const YAML::Node row = e.value[i];
    if (!row.IsSequence() || row.size() != nq)
      doc.fail(doc.where(row), "row " + std::to_string(i) + " of mass has " +
                                   (row.IsSequence() ? counted(row.size(), "entry", "entries")
                                                     : std::string("a single value")) +
                                   ", " + expected);
    for (std::size_t j = 0; j < nq; ++j) {
      const YAML::Node item = row[j];
      const std::string what = "mass entry (" + std::to_string(i) + ", " + std::to_string(j) + ")";
      m(i, j) = doc.expression(item, doc.where(item), ms.scope, what);
      check_depends_only(doc, {m(i, j)}, q, doc.where(item), what, "a function of the positions only (M(q))");
    }
  }
  return m;
}

// `tangent:` — columns of J_t (1 planar, 2 spatial), each n_q expressions of q; a flat list of
// n_q expressions is one column.
sym::Matrix read_tangent(const YamlDocument& doc, const MapEntry& e, const ModelScope& ms,
                         const std::string& who, const std::vector<std::string>& positions,
                         const std::unordered_set<const sym::Node*>& q) {
  const std::size_t nq = positions.size();
  const std::string what = "the tangent of " + who;
  const std::string expected =
      "expected 1 column (planar) or 2 columns (spatial) of " + counted(nq, "entry", "entries") +
      " each (one per position: " + join(positions) + "), e.g. [[" +
      (nq == 1 ? std::string("1") : "1" + std::string(", 0") + (nq > 2 ? ", ..." : "")) + "]]";
  if (!e.value || !e.value.IsSequence() || e.value.size() == 0)
    doc.fail(e.value_where, what + " must be a list of columns, " + expected);
  std::vector<YAML::Node> columns;
  if (!e.value[0].IsSequence())
    columns.push_back(e.value);  // a single column written flat
  else
    for (std::size_t k = 0; k < e.value.size(); ++k) columns.push_back(e.value[k]);
  if (columns.size() > 2)
    doc.fail(e.value_where, what + " has " + plural(columns.size(), "column") + ", " + expected);
  sym::Matrix t(nq, columns.size());
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const YAML::Node& col = columns[k];
    const std::string cw = "column " + std::to_string(k) + " of " + what;
    if (!col.IsSequence())
      doc.fail(doc.where(col),
               cw + " must be a list of " + counted(nq, "entry", "entries") + ", " + expected);
    if (col.size() != nq)
      doc.fail(doc.where(col), cw + " has " + counted(col.size(), "entry", "entries") +
                                   " but the model has " + plural(nq, "position") + ", " + expected);
    for (std::size_t r = 0; r < nq; ++r) {
      const YAML::Node item = col[r];
      if (!item.IsScalar())
        doc.fail(doc.where(item),
                 "entry " + std::to_string(r) + " of " + cw + " must be an expression, " + expected);
      t(r, k) = doc.expression(item, doc.where(item), ms.scope, "entry " + std::to_string(r) + " of " + cw);
      check_depends_only(doc, {t(r, k)}, q, doc.where(item), "entry " + std::to_string(r) + " of " + cw,
                         "a function of the positions only (J_t(q))");
    }
  }
  return t;
}

void read_contacts(const YamlDocument& doc, const MapEntry& e, const ModelScope& ms,
                   const std::vector<std::string>& positions, const std::unordered_set<const sym::Node*>& q,
                   model::Cls& cls, Places& places) {
  const YAML::Node& list = e.value;
  if (!list || list.IsNull() || !list.IsSequence() || list.size() == 0)
    doc.fail(
        e.value_where,
        "contacts must be a non-empty list of {gap: ..., restitution: ..., friction: ..., tangent: ...}");
  std::vector<SourceLocation> restitution_where, friction_where;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    const SourceLocation item_where = doc.where(item);
    std::string who = "contact " + std::to_string(i);
    if (!item.IsMap())
      doc.fail(item_where, who + " must be a map {gap: ..., restitution: ..., friction: ...}");
    const std::vector<MapEntry> fields = doc.entries(item, who);
    doc.check_keys(fields, kContactKeys, who);
    model::Contact c;
    if (const MapEntry* n = find_entry(fields, "name")) {
      c.name = doc.scalar(n->value, n->value_where, "the name of " + who);
      const std::size_t k = index_of(names, c.name);
      if (k < names.size())
        doc.fail(n->value_where, who + " is named '" + c.name + "' like contact " + std::to_string(k) +
                                     ", expected distinct contact names");
      who += " ('" + c.name + "')";
    }
    names.push_back(c.name);
    const MapEntry& gap = required(doc, fields, "gap", item_where,
                                   who + ": missing key 'gap', expected the gap function f_c(q) >= 0");
    c.gap = doc.expression(gap.value, gap.value_where, ms.scope, "the gap of " + who);
    check_depends_only(doc, {c.gap}, q, gap.value_where, "the gap of " + who,
                       "a function of the positions only (f_c(q) >= 0)");
    if (sym::free_symbols({c.gap}).empty())
      doc.fail(gap.value_where, "the gap of " + who +
                                    " is constant, expected a function of the positions (its gradient is the "
                                    "contact normal)");
    restitution_where.push_back(item_where);
    friction_where.push_back(item_where);
    if (const MapEntry* r = find_entry(fields, "restitution")) {
      c.restitution = finite_constant(doc, *r, ms.scope, "the restitution of " + who);
      if (c.restitution < 0.0 || c.restitution > 1.0)
        doc.fail(r->value_where, "the restitution of " + who + " is " + num(c.restitution) +
                                     ", expected e in [0, 1] (0 = inelastic, 1 = elastic)");
      restitution_where.back() = r->value_where;
    }
    if (const MapEntry* f = find_entry(fields, "friction")) {
      c.friction = finite_constant(doc, *f, ms.scope, "the friction coefficient of " + who);
      if (c.friction < 0.0)
        doc.fail(f->value_where,
                 "the friction coefficient of " + who + " is " + num(c.friction) + ", expected mu >= 0");
      friction_where.back() = f->value_where;
    }
    if (const MapEntry* t = find_entry(fields, "tangent"))
      c.tangent = read_tangent(doc, *t, ms, who, positions, q);
    if (c.friction > 0.0 && c.tangent.rows() == 0)
      doc.fail(
          friction_where.back(),
          who + " has friction " + num(c.friction) +
              " but no 'tangent', expected the tangent directions J_t as columns, e.g. tangent: [[1, 0]] "
              "(planar) or two columns (spatial)");
    places.contacts.push_back(item_where);
    cls.add_contact(std::move(c));
  }
  // Elastic contact (e > 0): a single frictionless contact only (time_freezing.md §1.5).
  for (std::size_t i = 0; i < cls.contacts.size(); ++i) {
    const model::Contact& c = cls.contacts[i];
    if (c.restitution <= 0.0) continue;
    if (cls.contacts.size() > 1)
      doc.fail(
          restitution_where[i],
          "the restitution of " + cls.contact_label(i) + " is " + num(c.restitution) +
              ", but elastic contact (restitution > 0) is supported for a single contact only and this "
              "model has " +
              std::to_string(cls.contacts.size()) +
              " (as in nosnoc); use restitution 0 for every contact, or a jump model with one constraint "
              "per wall (orthogonal walls)");
    if (c.friction > 0.0)
      doc.fail(friction_where[i], cls.contact_label(i) + " is elastic (restitution " + num(c.restitution) +
                                      ") and has friction " + num(c.friction) +
                                      ", which is not supported: the elastic impact law acts on the normal "
                                      "velocity only; set friction 0 or restitution 0");
  }
}

// The prefix of a contact's quantities (define_contact_quantities) and their suffixes: its name,
// or contact<i> when it has none or one that is no identifier ("left foot").
std::string contact_prefix(const std::string& name, std::size_t i) {
  return is_identifier(name) ? name : "contact" + std::to_string(i);
}
const std::vector<std::string> kContactQuantities{"_delassus_nn", "_delassus_tn", "_delassus_t1n", "_delassus_t2n",
                                                  "_painleve_ratio"};

// Reserved before anything is declared, so that a parameter, state or definition that takes one
// of these names is reported where it is declared.
void reserve_contact_quantities(const std::vector<MapEntry>& entries, ModelScope& ms) {
  const MapEntry* contacts = find_entry(entries, "contacts");
  if (!contacts || !contacts->value.IsSequence()) return;  // read_contacts reports it
  for (std::size_t i = 0; i < contacts->value.size(); ++i) {
    const YAML::Node item = contacts->value[i];
    std::string name;
    if (item.IsMap() && item["name"] && item["name"].IsScalar()) name = item["name"].Scalar();
    const std::string label = name.empty() ? "contact " + std::to_string(i) : "contact '" + name + "'";
    for (const std::string& suffix : kContactQuantities)
      ms.names.reserve(contact_prefix(name, i) + suffix,
                       "stasis defines it for " + label + " (docs/guide-cls.md#contact-quantities)");
  }
}

// Names for each contact's Delassus entries and Painlevé ratio (model::Cls::delassus), for the
// OCP's expressions: constraints that keep a motion out of Painlevé configurations need them, and
// writing M(q)⁻¹ by hand is how users get them wrong. Prefix: the contact's name, else contact<i>.
void define_contact_quantities(ModelScope& ms, const model::Cls& cls) {
  for (std::size_t i = 0; i < cls.contacts.size(); ++i) {
    const model::Contact& c = cls.contacts[i];
    const std::string prefix = contact_prefix(c.name, i);
    const sym::Matrix W = cls.delassus(i);
    std::vector<std::pair<std::string, sym::Expr>> names{{prefix + "_delassus_nn", W(0, 0)}};
    if (W.rows() == 2) {
      names.emplace_back(prefix + "_delassus_tn", W(1, 0));
      names.emplace_back(prefix + "_painleve_ratio", c.friction * sym::abs(W(1, 0)) / W(0, 0));
    } else if (W.rows() == 3) {
      names.emplace_back(prefix + "_delassus_t1n", W(1, 0));
      names.emplace_back(prefix + "_delassus_t2n", W(2, 0));
      names.emplace_back(prefix + "_painleve_ratio",
                         c.friction * sym::sqrt(W(1, 0) * W(1, 0) + W(2, 0) * W(2, 0)) / W(0, 0));
    }
    for (const auto& [name, value] : names) ms.scope.define(name, value);  // reserved: no clash
  }
}

void read_cls(const YamlDocument& doc, const MapEntry& kind, ModelScope& ms, PssModelFile& file,
              model::Cls& cls, sym::Vector& dynamics, Places& places) {
  const std::vector<MapEntry> entries = doc.entries(kind.value, "the cls model");
  doc.check_keys(entries, kClsKeys, "the cls model");
  reserve_contact_quantities(entries, ms);
  if (const MapEntry* e = find_entry(entries, "parameters"))
    read_parameters(doc, *e, ms.names, ms.scope, file.parameters, file.vector_parameters);

  const MapEntry& pos = required(doc, entries, "positions", kind.key_where,
                                 "the cls model has no 'positions', expected a list of position names q");
  const std::vector<std::string> positions = declare(doc, ms, pos, "position", "positions");
  if (positions.empty()) doc.fail(pos.value_where, "positions is empty, expected at least one position name");
  const MapEntry& vel = required(
      doc, entries, "velocities", kind.key_where,
      "the cls model has no 'velocities', expected one velocity name per position (" + join(positions) + ")");
  const std::vector<std::string> velocities = declare(doc, ms, vel, "velocity", "velocities");
  if (velocities.size() != positions.size())
    doc.fail(vel.value_where, "velocities has " + plural(velocities.size(), "name") + " but there " +
                                  (positions.size() == 1 ? "is " : "are ") +
                                  plural(positions.size(), "position") + " (" + join(positions) +
                                  "), expected one velocity per position");
  for (const auto& s : cls.add_positions(positions)) ms.scope.define(s.name(), s);
  for (const auto& s : cls.add_velocities(velocities)) ms.scope.define(s.name(), s);
  if (const MapEntry* controls = find_entry(entries, "controls"))
    for (const auto& s : cls.add_controls(declare(doc, ms, *controls, "control", "controls")))
      ms.scope.define(s.name(), s);
  ms.scope.define("t", ms.time);
  if (const MapEntry* e = find_entry(entries, "definitions"))
    read_definitions(doc, *e, ms.names, ms.scope, file.definitions);

  const auto q = node_set({&cls.q});
  const auto qv = node_set({&cls.q, &cls.v});
  const sym::Vector time{ms.time};
  const auto qvut = node_set({&cls.q, &cls.v, &cls.u, &time});
  const std::size_t nq = positions.size();
  const std::string force_size = "the model has " + plural(nq, "position") + " (" + join(positions) +
                                 "), expected one generalized force per position";

  const MapEntry* mass = find_entry(entries, "mass");
  const MapEntry* energy = find_entry(entries, "energy");
  const MapEntry* forces = find_entry(entries, "forces");
  if (mass && energy)
    doc.fail(energy->key_where,
             "the cls model has both 'mass' and 'energy', expected one of them (with energy, M(q) = "
             "d^2T/dv^2 is computed for you)");
  places.model = kind.key_where;
  if (forces) {
    cls.forces = expression_list(doc, forces->value, forces->value_where, ms.scope, "forces", nq, force_size);
    for (std::size_t i = 0; i < nq; ++i)
      check_depends_only(doc, {cls.forces[i]}, qvut, doc.where(forces->value[i]),
                         "forces[" + std::to_string(i) + "]",
                         "a function of the positions, velocities, controls and t");
    places.forces = forces->value_where;
  } else if (!energy) {
    doc.fail(kind.key_where,
             "the cls model has no 'forces', expected the generalized forces (one per position: " +
                 join(positions) + "), or 'energy: {kinetic, potential}'");
  } else {
    cls.forces.assign(nq, sym::Expr(0.0));
    places.forces = energy->key_where;
  }
  if (mass) {
    cls.mass = read_mass(doc, *mass, ms, positions, q);
    places.mass = mass->value_where;
  }
  if (energy) {
    const std::vector<MapEntry> items = doc.entries(energy->value, "energy");
    doc.check_keys(items, kEnergyKeys, "energy");
    const MapEntry& kinetic =
        required(doc, items, "kinetic", energy->key_where,
                 "energy: missing key 'kinetic', expected the kinetic energy T(q, v), e.g. \"0.5*m*(" +
                     velocities[0] + "^2)\"");
    const sym::Expr T = doc.expression(kinetic.value, kinetic.value_where, ms.scope, "the kinetic energy");
    check_depends_only(doc, {T}, qv, kinetic.value_where, "the kinetic energy",
                       "a function of the positions and velocities only");
    sym::Expr V(0.0);
    if (const MapEntry* p = find_entry(items, "potential")) {
      V = doc.expression(p->value, p->value_where, ms.scope, "the potential energy");
      check_depends_only(doc, {V}, q, p->value_where, "the potential energy",
                         "a function of the positions only");
    }
    // M(q) = ∂²T/∂v²; M v' = forces − (∂²T/∂v∂q) v + ∂T/∂q − ∂V/∂q (Lagrange's equations).
    cls.mass = sym::hessian(T, cls.v);
    for (const auto& s : sym::free_symbols(cls.mass.entries()))
      if (!q.count(s.node()))
        doc.fail(kinetic.value_where,
                 "the kinetic energy is not quadratic in the velocities: d^2T/dv^2 depends on '" + s.name() +
                     "', expected T = 1/2 v^T M(q) v");
    const sym::Vector p = sym::gradient(T, cls.v);
    const sym::Vector h = sym::jacobian(p, cls.q) * cls.v - sym::gradient(T, cls.q);
    cls.forces = cls.forces - h - sym::gradient(V, cls.q);
    places.mass = kinetic.value_where;
  }

  const MapEntry& contacts = required(
      doc, entries, "contacts", kind.key_where,
      "the cls model has no 'contacts', expected a list of {gap: ..., restitution: ..., friction: ...}");
  read_contacts(doc, contacts, ms, positions, q, cls, places);
  define_contact_quantities(ms, cls);

  std::vector<std::string> states = positions;
  states.insert(states.end(), velocities.begin(), velocities.end());
  const MapEntry* x0 = find_entry(entries, "x0");
  cls.x0 = read_initial_state(doc, x0, kind.key_where, "the cls model", states, ms.scope);
  places.x0 = x0->value_where;
  dynamics = cls.forces;
}

// ---- jump ----

void read_jump(const YamlDocument& doc, const MapEntry& kind, ModelScope& ms, PssModelFile& file,
               model::JumpSystem& js, sym::Vector& dynamics, Places& places) {
  const std::vector<MapEntry> entries = doc.entries(kind.value, "the jump model");
  doc.check_keys(entries, kJumpKeys, "the jump model");
  places.model = kind.key_where;
  if (const MapEntry* e = find_entry(entries, "parameters"))
    read_parameters(doc, *e, ms.names, ms.scope, file.parameters, file.vector_parameters);
  const MapEntry& st = required(doc, entries, "states", kind.key_where,
                                "the jump model has no 'states', expected a list of state names");
  const std::vector<std::string> states = declare(doc, ms, st, "state", "states");
  if (states.empty()) doc.fail(st.value_where, "states is empty, expected at least one state name");
  for (const auto& s : js.add_states(states)) ms.scope.define(s.name(), s);
  if (const MapEntry* controls = find_entry(entries, "controls"))
    for (const auto& s : js.add_controls(declare(doc, ms, *controls, "control", "controls")))
      ms.scope.define(s.name(), s);
  ms.scope.define("t", ms.time);
  if (const MapEntry* e = find_entry(entries, "definitions"))
    read_definitions(doc, *e, ms.names, ms.scope, file.definitions);

  const std::size_t nx = states.size();
  const sym::Vector time{ms.time};
  const auto x = node_set({&js.x});
  const auto xut = node_set({&js.x, &js.u, &time});
  const std::string field_size =
      "the model has " + plural(nx, "state") + " (" + join(states) + "), expected one entry per state";

  const MapEntry& f = required(
      doc, entries, "f", kind.key_where,
      "the jump model has no 'f', expected the vector field (one entry per state: " + join(states) + ")");
  js.f = expression_list(doc, f.value, f.value_where, ms.scope, "f", nx, field_size);
  for (std::size_t i = 0; i < nx; ++i)
    check_depends_only(doc, {js.f[i]}, xut, doc.where(f.value[i]), "f[" + std::to_string(i) + "]",
                       "a function of the states, controls and t");
  places.forces = f.value_where;

  // constraint: "psi" or constraints: [...]
  const MapEntry* one = find_entry(entries, "constraint");
  const MapEntry* many = find_entry(entries, "constraints");
  if (one && many)
    doc.fail(many->key_where, "the jump model has both 'constraint' and 'constraints', expected one of them");
  if (!one && !many)
    doc.fail(
        kind.key_where,
        "the jump model has no 'constraint', expected psi(x) >= 0 (or 'constraints: [...]' for several)");
  std::vector<SourceLocation> constraint_where;
  if (one) {
    js.constraints = {doc.expression(one->value, one->value_where, ms.scope, "the constraint")};
    constraint_where.push_back(one->value_where);
  } else {
    js.constraints = expression_list(doc, many->value, many->value_where, ms.scope, "constraints");
    for (std::size_t i = 0; i < js.constraints.size(); ++i)
      constraint_where.push_back(doc.where(many->value[i]));
  }
  for (std::size_t i = 0; i < js.constraints.size(); ++i) {
    const std::string what = one ? std::string("the constraint") : "constraint " + std::to_string(i);
    check_depends_only(doc, {js.constraints[i]}, x, constraint_where[i], what,
                       "a function of the states only (psi(x) >= 0)");
    if (sym::free_symbols({js.constraints[i]}).empty())
      doc.fail(constraint_where[i], what + " is constant, expected a function of the states");
  }
  places.contacts = constraint_where;

  // auxiliary: {stiffness: k} (built-in spring-damper) or {f: [...]} / {f: [[...], ...]}
  const MapEntry* aux = find_entry(entries, "auxiliary");
  const MapEntry* aux_f = nullptr;
  if (aux) {
    places.auxiliary = aux->value_where;
    const std::vector<MapEntry> items = doc.entries(aux->value, "auxiliary");
    doc.check_keys(items, kAuxiliaryKeys, "auxiliary");
    const MapEntry* k = find_entry(items, "stiffness");
    aux_f = find_entry(items, "f");
    if (k && aux_f)
      doc.fail(
          aux_f->key_where,
          "auxiliary has both 'stiffness' (the built-in spring-damper) and 'f' (your own auxiliary field), "
          "expected one of them");
    if (!k && !aux_f)
      doc.fail(aux->value_where,
               "auxiliary is empty, expected {stiffness: k} (built-in spring-damper) or {f: [...]} (your own "
               "field)");
    if (k) {
      js.stiffness = finite_constant(doc, *k, ms.scope, "auxiliary.stiffness");
      if (!(js.stiffness > 0.0))
        doc.fail(k->value_where, "auxiliary.stiffness is " + num(js.stiffness) + ", expected k > 0");
    }
    if (aux_f) {
      const YAML::Node& node = aux_f->value;
      if (!node || !node.IsSequence() || node.size() == 0)
        doc.fail(
            aux_f->value_where,
            "auxiliary.f must be a list of expressions (one field) or a list of fields (one per constraint)");
      if (node[0].IsSequence()) {
        if (node.size() != 1 && node.size() != js.constraints.size())
          doc.fail(aux_f->value_where, "auxiliary.f has " + plural(node.size(), "field") + " for " +
                                           plural(js.constraints.size(), "constraint") +
                                           ", expected one field per constraint or a single one");
        for (std::size_t i = 0; i < node.size(); ++i)
          js.auxiliary.push_back(expression_list(doc, node[i], doc.where(node[i]), ms.scope,
                                                 "auxiliary field " + std::to_string(i), nx, field_size));
      } else {
        js.auxiliary.push_back(
            expression_list(doc, node, aux_f->value_where, ms.scope, "the auxiliary field", nx, field_size));
      }
      for (const auto& a : js.auxiliary)
        check_depends_only(doc, a, xut, aux_f->value_where, "the auxiliary field",
                           "a function of the states, controls and t");
    }
  }

  const MapEntry* r = find_entry(entries, "restitution");
  if (r) {
    js.restitution = finite_constant(doc, *r, ms.scope, "restitution");
    if (!(js.restitution > 0.0) || js.restitution > 1.0)
      doc.fail(r->value_where,
               "restitution is " + num(js.restitution) +
                   ", expected a value in (0, 1] (the spring-damper needs e > 0; for inelastic "
                   "impacts use a cls model)");
  } else if (!aux_f) {
    doc.fail(
        kind.key_where,
        "the jump model has no 'restitution', expected Newton's restitution coefficient in (0, 1] of the "
        "built-in spring-damper jump law");
  }

  // Built-in auxiliary dynamics: mechanical states (q, v), q' = v, psi(q).
  if (!aux_f) {
    const std::string fix = "; give your own auxiliary field instead: auxiliary: {f: [...]}";
    if (nx % 2 != 0)
      doc.fail(st.value_where,
               "the built-in spring-damper jump law needs states ordered (positions, velocities), "
               "but the model has an odd number of states (" +
                   std::to_string(nx) + ")" + fix);
    const std::size_t nq = nx / 2;
    for (std::size_t i = 0; i < nq; ++i)
      if (!sym::is_same(js.f[i], js.x[nq + i]))
        doc.fail(doc.where(f.value[i]),
                 "the built-in spring-damper jump law needs states ordered (positions, "
                 "velocities) with " +
                     states[i] + "' = " + states[nq + i] + ", but f[" + std::to_string(i) + "] is '" +
                     js.f[i].str() + "'" + fix);
    const sym::Vector qs(js.x.begin(), js.x.begin() + static_cast<std::ptrdiff_t>(nq));
    const auto qset = node_set({&qs});
    for (std::size_t i = 0; i < js.constraints.size(); ++i)
      check_depends_only(
          doc, {js.constraints[i]}, qset, constraint_where[i],
          one ? std::string("the constraint") : "constraint " + std::to_string(i),
          "a function of the positions (" +
              join(std::vector<std::string>(states.begin(), states.begin() + static_cast<long>(nq))) +
              ") only for the built-in spring-damper jump law" + fix);
  }

  const MapEntry* x0 = find_entry(entries, "x0");
  js.x0 = read_initial_state(doc, x0, kind.key_where, "the jump model", states, ms.scope);
  places.x0 = x0->value_where;
  dynamics = js.f;
  for (const auto& a : js.auxiliary) dynamics.insert(dynamics.end(), a.begin(), a.end());
}

// The location a model's validate() message refers to.
SourceLocation locate(const std::string& message, const Places& places,
                      const std::vector<std::string>& labels) {
  const auto has = [&](const char* part) { return message.find(part) != std::string::npos; };
  if (has("forbidden region") || has("x0 of") || has("x0 has")) return places.x0;
  if (has("mass matrix") && places.mass.line > 0) return places.mass;
  for (std::size_t i = labels.size(); i-- > 0;)
    if (message.find(labels[i]) != std::string::npos && i < places.contacts.size()) return places.contacts[i];
  if (message.find("auxiliary") != std::string::npos && places.auxiliary.line > 0) return places.auxiliary;
  if ((has("forces") || has("f[")) && places.forces.line > 0) return places.forces;
  if (has("x0")) return places.x0;
  return places.model;
}

}  // namespace

void read_time_frozen_model(const YamlDocument& doc, const MapEntry& kind, const MapEntry* section,
                            bool simulate, bool stewart, const std::string& name, ModelScope& ms,
                            PssModelFile& model, TimeFreezingFile& tf) {
  const bool is_jump = kind.key == "jump";
  tf.where = kind.key_where;
  ms.names.reserve("t", kTimeReserved);
  ms.time = sym::Expr::symbol("t");
  ms.time_is_clock = true;
  tf.time = ms.time;

  sym::Vector dynamics;  // every expression that may use `t`
  Places places;
  std::vector<std::string> labels;  // contact / constraint labels in validate() messages
  if (is_jump) {
    model::JumpSystem js;
    js.name = name.empty() ? "jump" : name;
    read_jump(doc, kind, ms, model, js, dynamics, places);
    for (std::size_t i = 0; i < js.n_constraints(); ++i) labels.push_back("constraint " + std::to_string(i));
    tf.model = std::move(js);
  } else {
    model::Cls cls;
    cls.name = name.empty() ? "cls" : name;
    read_cls(doc, kind, ms, model, cls, dynamics, places);
    for (std::size_t i = 0; i < cls.n_contacts(); ++i) labels.push_back(cls.contact_label(i));
    tf.model = std::move(cls);
  }
  read_time_freezing_section(doc, section, simulate, is_jump, stewart, ms.scope, tf);
  tf.uses_time = uses(dynamics, ms.time);

  try {
    tf.frozen = tf.reformulated(tf.options);
  } catch (const Error& e) {
    doc.fail(locate(e.what(), places, labels), e.what());
  }
  model::Pss& pss = tf.frozen.pss;
  try {
    pss.validate();
  } catch (const Error& e) {
    doc.fail(kind.key_where, e.what());
  }
  model.pss = pss;
  ms.states = pss.state_names;
}

void check_steps_hold_jumps(const YamlDocument& doc, const TimeFreezingFile& tf, double horizon, int steps,
                            const MapEntry& steps_entry) {
  double tau = 0.0;  // numerical length of a jump, when it is known in advance
  if (const model::JumpSystem* js = tf.jump()) {
    if (!js->builtin_auxiliary()) return;
    tau = reformulate::elastic_jump_duration(js->stiffness, js->restitution);
  } else {
    const model::Cls& cls = *tf.cls();
    if (!cls.is_elastic() || tf.options.elastic_mode != reformulate::TimeFreezingOptions::ElasticMode::Exact)
      return;
    tau = reformulate::elastic_jump_duration(tf.options.stiffness, cls.contacts[0].restitution);
  }
  const double h = horizon / steps;
  const double need = 1.0 + tau / h;
  if (tf.settings.speed_of_time_upper >= need) return;
  const double max_steps = std::floor(horizon * (tf.settings.speed_of_time_upper - 1.0) / tau);
  const auto short_num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf);
  };
  doc.fail(steps_entry.value_where,
           "simulate.steps = " + std::to_string(steps) + " makes steps of h = " + num(h) +
               ", too short to hold a jump: the spring-damper jump takes tau_jump = " + short_num(tau) +
               " of numerical time, so a step with an impact needs a speed of time s >= 1 + tau_jump/h = " +
               short_num(need) +
               ", above time_freezing.speed_of_time.upper = " + num(tf.settings.speed_of_time_upper) + "; " +
               (max_steps >= 1.0 ? "use at most " + num(max_steps) + " steps or raise the upper bound"
                                 : std::string("raise the upper bound")));
}

}  // namespace detail

}  // namespace stasis::io
