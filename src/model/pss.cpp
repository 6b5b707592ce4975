// Piecewise smooth systems: construction helpers and validation.
#include "stasis/model/pss.hpp"

#include <cmath>
#include <set>

#include "checks.hpp"
#include "stasis/error.hpp"

namespace stasis::model {

namespace {
std::string sub_name(const Subsystem& s, std::size_t i) {
  return s.name.empty() ? "subsystem " + std::to_string(i) : "subsystem '" + s.name + "'";
}

void validate_lifting(const std::string& who, const std::string& sn, const Subsystem& s) {
  const StepLifting& l = *s.lifting;
  if (l.alpha.size() != s.switching.size())
    throw Error(who + ", " + sn + ": the lifted step form has " + std::to_string(l.alpha.size()) +
                " step functions for " + std::to_string(s.switching.size()) + " switching functions");
  if (l.weights.size() != s.fields.size())
    throw Error(who + ", " + sn + ": the lifted step form has " + std::to_string(l.weights.size()) +
                " field weights for " + std::to_string(s.fields.size()) + " fields");
  if (l.lift.size() != l.definitions.size() || l.lift_names.size() != l.lift.size())
    throw Error(who + ", " + sn + ": the lifted step form has " + std::to_string(l.lift.size()) +
                " lifting variables, " + std::to_string(l.definitions.size()) + " definitions and " +
                std::to_string(l.lift_names.size()) + " names");
  detail::SymbolSet allowed;
  for (const auto& a : l.alpha) allowed.insert(a.node());
  for (std::size_t k = 0; k < l.lift.size(); ++k) {
    // β_k may use α and the β defined before it (so one forward pass evaluates them all)
    detail::check_depends(who, {l.definitions[k]}, allowed, sn + " lifting definition " + l.lift_names[k],
                          "neither a step function nor an earlier lifting variable");
    allowed.insert(l.lift[k].node());
  }
  detail::check_depends(who, l.weights, allowed, sn + " field weights", "neither a step function nor a lifting variable");
}
}  // namespace

sym::Vector Pss::add_states(const std::vector<std::string>& names) {
  return detail::add_symbols(names, state_names, x);
}

sym::Vector Pss::add_controls(const std::vector<std::string>& names) {
  return detail::add_symbols(names, control_names, u);
}

std::size_t Pss::n_theta() const {
  std::size_t n = 0;
  for (const auto& s : subsystems) n += s.n_regions();
  return n;
}

std::size_t Pss::n_switching() const {
  std::size_t n = 0;
  for (const auto& s : subsystems) n += s.switching.size();
  return n;
}

sym::Vector Pss::indicators(std::size_t k) const {
  const Subsystem& s = subsystems.at(k);
  if (!s.indicators.empty()) return s.indicators;
  sym::Vector g(s.signs.size(), sym::Expr(0.0));
  for (std::size_t i = 0; i < s.signs.size(); ++i)
    for (std::size_t j = 0; j < s.switching.size(); ++j)
      if (s.signs[i][j] != 0) g[i] = g[i] - static_cast<double>(s.signs[i][j]) * s.switching[j];
  return g;
}

void Pss::validate() const {
  const std::string who = "model '" + name + "'";
  if (x.empty()) throw Error(who + ": the model has no states");
  if (state_names.size() != x.size()) throw Error(who + ": state names and states differ in number");
  if (x0.size() != x.size())
    throw Error(who + ": x0 has " + std::to_string(x0.size()) + " entries but the model has " +
                std::to_string(x.size()) + " states");
  for (std::size_t i = 0; i < x0.size(); ++i)
    if (!std::isfinite(x0[i])) throw Error(who + ": x0 of state '" + state_names[i] + "' is not finite");
  if (clock >= static_cast<int>(x.size())) throw Error(who + ": clock index out of range");
  if (subsystems.empty()) throw Error(who + ": the model has no switching subsystem (give switching and regions)");
  if (!f0.empty() && f0.size() != x.size())
    throw Error(who + ": the common field f0 has " + std::to_string(f0.size()) + " entries, the model has " +
                std::to_string(x.size()) + " states");

  detail::SymbolSet allowed;
  for (const auto& s : x) allowed.insert(s.node());
  for (const auto& s : u) allowed.insert(s.node());
  auto check_expr = [&](const sym::Vector& v, const std::string& what) {
    detail::check_depends(who, v, allowed, what, "neither a state nor a control");
  };
  if (!f0.empty()) check_expr(f0, "f0");

  for (std::size_t k = 0; k < subsystems.size(); ++k) {
    const Subsystem& s = subsystems[k];
    const std::string sn = sub_name(s, k);
    if (s.fields.empty()) throw Error(who + ", " + sn + ": no regions");
    for (std::size_t i = 0; i < s.fields.size(); ++i) {
      if (s.fields[i].size() != x.size())
        throw Error(who + ", " + sn + ", region " + std::to_string(i) + ": the vector field has " +
                    std::to_string(s.fields[i].size()) + " entries, the model has " + std::to_string(x.size()) +
                    " states");
      check_expr(s.fields[i], sn + ", region " + std::to_string(i) + " field");
    }
    if (!s.indicators.empty()) {
      if (s.indicators.size() != s.fields.size())
        throw Error(who + ", " + sn + ": " + std::to_string(s.indicators.size()) + " indicator functions for " +
                    std::to_string(s.fields.size()) + " regions");
      check_expr(s.indicators, sn + " indicators");
      continue;
    }
    if (s.switching.empty()) throw Error(who + ", " + sn + ": no switching functions");
    check_expr(s.switching, sn + " switching functions");
    for (std::size_t g = 0; g < s.direction_guards.size(); ++g) {
      const DirectionGuard& d = s.direction_guards[g];
      if (d.switching >= s.switching.size() || d.direction.empty())
        throw Error(who + ", " + sn + ", direction guard " + std::to_string(g) +
                    ": needs a switching function index below " + std::to_string(s.switching.size()) +
                    " and a nonempty direction");
      check_expr(d.direction, sn + ", direction guard " + std::to_string(g));
    }
    if (s.lifting) {
      validate_lifting(who, sn, s);
      if (s.signs.empty()) continue;
    }
    if (s.signs.size() != s.fields.size())
      throw Error(who + ", " + sn + ": " + std::to_string(s.signs.size()) + " sign rows for " +
                  std::to_string(s.fields.size()) + " regions");
    std::set<std::vector<int>> seen;
    for (std::size_t i = 0; i < s.signs.size(); ++i) {
      const auto& row = s.signs[i];
      if (row.size() != s.switching.size())
        throw Error(who + ", " + sn + ", region " + std::to_string(i) + ": the sign vector has " +
                    std::to_string(row.size()) + " entries but there are " + std::to_string(s.switching.size()) +
                    " switching functions");
      for (int v : row)
        if (v != -1 && v != 0 && v != 1)
          throw Error(who + ", " + sn + ", region " + std::to_string(i) + ": sign " + std::to_string(v) +
                      " is not -1, 0 or +1");
      if (!seen.insert(row).second)
        throw Error(who + ", " + sn + ", region " + std::to_string(i) +
                    ": its sign vector repeats an earlier region's (regions must differ)");
    }
  }
  if (implicit_mass) {
    const ImplicitMass& m = *implicit_mass;
    const std::size_t n = m.mass.rows();
    if (n == 0 || m.mass.cols() != n || m.first_row + n > x.size())
      throw Error(who + ": the implicit mass matrix is " + std::to_string(m.mass.rows()) + " x " +
                  std::to_string(m.mass.cols()) + " from state row " + std::to_string(m.first_row) +
                  "; it must be square, nonempty and fit in the " + std::to_string(x.size()) + " states");
    for (std::size_t c = 0; c < n; ++c) check_expr(m.mass.col(c), "implicit mass matrix column " + std::to_string(c));
    if (!m.f0_force.empty()) {
      if (m.f0_force.size() != n)
        throw Error(who + ": the implicit f0 force has " + std::to_string(m.f0_force.size()) + " rows, expected " +
                    std::to_string(n));
      check_expr(m.f0_force, "implicit f0 force");
    } else if (!f0.empty()) {
      for (std::size_t r = 0; r < n; ++r)
        if (!f0[m.first_row + r].is_zero())
          throw Error(who + ": f0 is nonzero in the velocity row of state '" + state_names[m.first_row + r] +
                      "' but the implicit form has no force for it (give ImplicitMass::f0_force)");
    }
    if (m.forces.size() != subsystems.size())
      throw Error(who + ": implicit forces for " + std::to_string(m.forces.size()) + " subsystems, the model has " +
                  std::to_string(subsystems.size()));
    for (std::size_t k = 0; k < subsystems.size(); ++k) {
      if (m.forces[k].size() != subsystems[k].fields.size())
        throw Error(who + ", " + sub_name(subsystems[k], k) + ": implicit forces for " +
                    std::to_string(m.forces[k].size()) + " fields, the subsystem has " +
                    std::to_string(subsystems[k].fields.size()));
      for (std::size_t i = 0; i < m.forces[k].size(); ++i) {
        if (m.forces[k][i].size() != n)
          throw Error(who + ", " + sub_name(subsystems[k], k) + ", field " + std::to_string(i) +
                      ": its implicit force has " + std::to_string(m.forces[k][i].size()) + " rows, expected " +
                      std::to_string(n));
        check_expr(m.forces[k][i], sub_name(subsystems[k], k) + ", field " + std::to_string(i) + " implicit force");
      }
    }
  }
}

}  // namespace stasis::model
