#pragma once
// reformulate::to_dcs — a PSS as a dynamic complementarity system (fesd.md §1.3, §1.4).
//
// Stewart:   ẋ = f0 + Σ_s F^s θ^s,  g^s(x) − λ^s + μ^s e = 0,  eᵀθ^s = 1,  0 <= λ ⟂ θ >= 0
// Heaviside: ẋ = f0 + Σ_s F^s θ^s(α),  c(x) − λp + λn = 0,  0 <= λn ⟂ α >= 0,  0 <= λp ⟂ 1 − α >= 0
// (nosnoc's sign convention: μ = −min g.) The result is symbolic in the model's states and
// controls and in a fresh vector z of algebraic variables per stage point.
#include <string>
#include <vector>

#include "stasis/model/pss.hpp"
#include "stasis/sym/expr.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::reformulate {

enum class DcsMode { Stewart, Step };
const char* to_string(DcsMode m);

struct Dcs {
  DcsMode mode = DcsMode::Stewart;
  sym::Vector x, u;
  std::vector<std::string> state_names, control_names;
  std::vector<double> x0;
  int clock = -1;

  /// Algebraic variables of a stage point, with bounds and nosnoc's initial guesses (§4.7):
  /// Stewart z = (θ, λ, μ); Heaviside z = (α, λn, λp), then for a lifted subsystem (β, θ).
  sym::Vector z;
  std::vector<double> z_lower, z_upper, z_start;
  std::vector<std::string> z_names;
  /// The subset of z that exists at an FE-end point of a scheme whose last node is not the end
  /// (Gauss): Stewart (λ, μ), Heaviside (λn, λp); indices into z.
  std::vector<int> boundary_z;

  sym::Vector f;           ///< ẋ = f(x, u, z)
  sym::Vector g_alg;       ///< algebraic equations at a stage point
  sym::Vector g_boundary;  ///< equations at an FE-end point (lp stationarity only), in (x, u, z)
  /// Complementarity at a stage point, componentwise: comp_lambda_i ⟂ comp_theta_i. Stewart:
  /// (λ, θ); Heaviside: ([λn; λp], [α; 1−α]).
  sym::Vector comp_lambda, comp_theta;
  /// Heaviside with a lifted subsystem that gives model::StepLifting::relevance: per complementarity
  /// component, r_j(z) of its switching function (the same for λn and λp; 1 for other subsystems);
  /// empty otherwise. Used by FESD's cross complementarity with spurious_switches: ignore.
  sym::Vector comp_relevance;
  sym::Vector switching;   ///< all c(x) (Heaviside) or indicator functions g (Stewart), for events
  sym::Vector theta;       ///< Filippov multipliers θ as expressions of z (variables or products of α)
  std::vector<int> theta_subsystem;  ///< subsystem of each θ component
  /// Lifted step form (model::StepLifting): indices into z of the β and θ variables, each defined by
  /// z[lifted[k]] = lifted_definitions[k](z) in dependency order (its equation is part of g_alg).
  std::vector<int> lifted;
  sym::Vector lifted_definitions;
  /// Direction guards of the subsystems (model::DirectionGuard), Heaviside only: the index of the
  /// switching function among all of them (its λp is comp_lambda[n_alpha + index]) and d(x, u).
  std::vector<int> guard_switching;
  std::vector<sym::Vector> guard_direction;

  /// Implicit mass (model::Pss::implicit_mass): indices into z of the accelerations a, which are
  /// ẋ of the states first_acceleration_state.. (their equations M a − forces = 0 are in g_alg),
  /// and their explicit values M⁻¹(forces) in (x, u, z), for starts consistent with a state.
  std::vector<int> accelerations;
  std::size_t first_acceleration_state = 0;
  sym::Vector acceleration_definitions;

  std::size_t n_x() const { return x.size(); }
  std::size_t n_u() const { return u.size(); }
  std::size_t n_z() const { return z.size(); }
  std::size_t n_comp() const { return comp_lambda.size(); }
};

Dcs to_dcs(const model::Pss& pss, DcsMode mode);

/// Algebraic variables consistent with a state, from the values of `dcs.switching` there
/// (fesd.md §1.3/§1.4 λ00): Stewart θ = 1/|argmin g| on the minimizers, λ = g − min g, μ = −min g
/// (per subsystem); Heaviside α = 1, 0 or ½ by the sign of c, λp = max(c, 0), λn = −min(c, 0).
/// A start far from this (nosnoc's constant guesses) can leave IPOPT stranded in the restoration
/// phase when |c(x0)| is large.
/// Lifted variables (Dcs::lifted) follow from α through their definitions; pass
/// lifted_function(dcs), built once, when calling this repeatedly.
std::vector<double> consistent_algebraics(const Dcs& dcs, const std::vector<double>& switching_values,
                                          const sym::Function* lifted_definitions = nullptr);

/// The definitions of the lifted variables as a function of z (one output vector).
sym::Function lifted_function(const Dcs& dcs);
/// Sets the lifted variables of `z` from their definitions at the other entries.
void evaluate_lifted(const Dcs& dcs, std::vector<double>& z, const sym::Function* lifted_definitions = nullptr);

}  // namespace stasis::reformulate
