// ODEs with state jumps (seed 002): construction helpers and validation.
#include "stasis/model/jump_system.hpp"

#include <cmath>

#include "checks.hpp"
#include "stasis/error.hpp"
#include "stasis/sym/derivatives.hpp"

namespace stasis::model {

using detail::num;

sym::Vector JumpSystem::add_states(const std::vector<std::string>& names) {
  return detail::add_symbols(names, state_names, x);
}

sym::Vector JumpSystem::add_controls(const std::vector<std::string>& names) {
  return detail::add_symbols(names, control_names, u);
}

void JumpSystem::validate() const {
  const std::string who = "JumpSystem '" + name + "'";
  const std::size_t nx = n_x();
  if (x.empty()) throw Error(who + ": the model has no states (add_states)");
  if (state_names.size() != x.size()) throw Error(who + ": state names and states differ in number");
  if (control_names.size() != u.size()) throw Error(who + ": control names and controls differ in number");
  detail::SymbolSet states, all;
  for (std::size_t i = 0; i < x.size(); ++i) {
    detail::add_symbol(who, x[i], "state", state_names[i], all);
    states.insert(x[i].node());
  }
  for (std::size_t i = 0; i < u.size(); ++i) detail::add_symbol(who, u[i], "control", control_names[i], all);
  auto check_deps = [&](const sym::Vector& e, const detail::SymbolSet& allowed, const std::string& what,
                        const std::string& allowed_text) {
    detail::check_depends(who, e, allowed, what, "not " + allowed_text);
  };

  if (f.size() != nx)
    throw Error(who + ": f has " + std::to_string(f.size()) + " entries, the model has " +
                std::to_string(nx) + " states");
  check_deps(f, all, "f", "a state or a control");
  if (constraints.empty()) throw Error(who + ": the model has no constraints psi(x) >= 0");
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const std::string cw = "constraint " + std::to_string(i);
    check_deps({constraints[i]}, states, cw, "a state (psi may depend on x only)");
    bool depends = false;
    for (const auto& s : x) depends = depends || sym::depends_on(constraints[i], s);
    if (!depends) throw Error(who + ": " + cw + " does not depend on the state");
  }

  if (builtin_auxiliary()) {
    if (!std::isfinite(restitution) || restitution <= 0.0 || restitution > 1.0)
      throw Error(
          who + ": restitution " + num(restitution) +
          " is outside (0, 1]; the spring-damper jump law needs e > 0 (e = 0 is critical damping, which "
          "never returns to the constraint: use a Cls for inelastic impacts)");
    if (!std::isfinite(stiffness) || stiffness <= 0.0)
      throw Error(who + ": stiffness " + num(stiffness) + " must be finite and > 0");
    if (nx % 2 != 0)
      throw Error(who +
                  ": the built-in spring-damper jump law needs mechanical states (positions, velocities), "
                  "but the model has an odd number of states (" +
                  std::to_string(nx) + "); give the auxiliary field(s) instead");
    const std::size_t nq = nx / 2;
    for (std::size_t i = 0; i < nq; ++i)
      if (!sym::is_same(f[i], x[nq + i]))
        throw Error(who +
                    ": the built-in spring-damper jump law needs states ordered (positions, velocities) "
                    "with f[" +
                    std::to_string(i) + "] = " + state_names[nq + i] + " (q' = v), but f[" +
                    std::to_string(i) + "] is " + f[i].str() + "; give the auxiliary field(s) instead");
    detail::SymbolSet pos;
    for (std::size_t i = 0; i < nq; ++i) pos.insert(x[i].node());
    for (std::size_t i = 0; i < constraints.size(); ++i)
      check_deps(
          {constraints[i]}, pos, "constraint " + std::to_string(i),
          "a position (the built-in jump law needs psi(q); positions are the first half of the states)");
  } else {
    if (auxiliary.size() != 1 && auxiliary.size() != constraints.size())
      throw Error(who + ": " + std::to_string(auxiliary.size()) + " auxiliary fields for " +
                  std::to_string(constraints.size()) +
                  " constraints; give one per constraint or a single one");
    for (std::size_t k = 0; k < auxiliary.size(); ++k) {
      if (auxiliary[k].size() != nx)
        throw Error(who + ": auxiliary field " + std::to_string(k) + " has " +
                    std::to_string(auxiliary[k].size()) + " entries, the model has " + std::to_string(nx) +
                    " states (the clock is added automatically)");
      check_deps(auxiliary[k], all, "auxiliary field " + std::to_string(k), "a state or a control");
    }
  }

  if (x0.size() != nx)
    throw Error(who + ": x0 has " + std::to_string(x0.size()) + " entries, the model has " +
                std::to_string(nx) + " states");
  for (std::size_t i = 0; i < nx; ++i)
    if (!std::isfinite(x0[i])) throw Error(who + ": x0 of state '" + state_names[i] + "' is not finite");
  const detail::AtInitialState at_x0(who, x, u, x0);
  for (std::size_t i = 0; i < nx; ++i) at_x0(f[i], "f[" + std::to_string(i) + "]");
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const double g = at_x0(constraints[i], "constraint " + std::to_string(i));
    if (g < 0.0)
      throw Error(who + ": x0 lies inside the forbidden region: constraint " + std::to_string(i) + " is " +
                  num(g) + " < 0 at x0");
    for (const auto& d : sym::gradient(constraints[i], x))
      at_x0(d, "the gradient of constraint " + std::to_string(i));
  }
}

}  // namespace stasis::model
