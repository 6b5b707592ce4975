#pragma once
// model::JumpSystem — an ODE with state jumps (seed 002, IEEE L-CSS 2021; time_freezing.md §1.1–§1.2):
//
//   ẋ = f(x, u) while ψ_i(x) >= 0 for all i;  when ψ_i reaches 0 with ∇ψ_iᵀ f < 0 the state jumps
//   by Newton restitution on the constraint's normal velocity: n_iᵀ v⁺ = −γ n_iᵀ v⁻.
//
// The built-in jump law (auxiliary dynamics) is a spring–damper on (ψ_i, n_iᵀ v) with
// n_i = ∇_q ψ_i, stiffness k and damping c(k, γ) (§1.2, "Multi-constraint version"); it needs
// mechanical states: x = (q, v) with f's first half equal to the velocities (q̇ = v) and ψ_i(q).
// Instead, `auxiliary` may give the auxiliary field(s) φ(x) directly (Assumption 1 of [L] is then
// the user's responsibility): one per constraint (fields of violated constraints add up) or a
// single one used wherever any constraint is violated.
#include <cstddef>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"

namespace stasis::model {

struct JumpSystem {
  /// Add states / controls (fresh symbols with these names) and return them.
  sym::Vector add_states(const std::vector<std::string>& names);
  sym::Vector add_controls(const std::vector<std::string>& names);

  sym::Vector x, u;
  std::vector<std::string> state_names, control_names;
  sym::Vector f;             ///< ẋ = f(x, u) in the admissible set
  sym::Vector constraints;   ///< ψ_i(x) >= 0
  double restitution = 0.9;  ///< γ ∈ (0, 1] (built-in auxiliary dynamics; one value for all constraints)
  double stiffness = 10.0;   ///< k > 0 of the built-in spring–damper; damping from the restitution
  std::vector<sym::Vector> auxiliary;  ///< optional user auxiliary field(s) φ(x, u), each of size n_x
  std::vector<double> x0;
  std::string name = "jump_system";

  std::size_t n_x() const { return x.size(); }
  std::size_t n_u() const { return u.size(); }
  std::size_t n_constraints() const { return constraints.size(); }
  /// True when the built-in spring–damper is used (no `auxiliary` given).
  bool builtin_auxiliary() const { return auxiliary.empty(); }
  /// Number of positions n_x / 2 (built-in auxiliary dynamics only).
  std::size_t n_q() const { return x.size() / 2; }

  /// Throws stasis::Error naming the item for: sizes (names, f, auxiliary fields, x0), states or
  /// controls that are not distinct symbols, expressions depending on unknown symbols, no
  /// constraints, a constraint that does not depend on the state, restitution outside (0, 1]
  /// or stiffness not positive (built-in only), auxiliary fields neither one nor one per
  /// constraint, non-finite values at x0 (controls 0), x0 inside the forbidden region (ψ_i(x0) < 0).
  /// Built-in auxiliary dynamics also require: an even n_x, f_i identical to the velocity symbol
  /// x_{n_q+i} for i < n_q (checked symbolically), and constraints depending on positions only.
  void validate() const;
};

}  // namespace stasis::model
