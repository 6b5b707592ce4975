// PSS -> DCS in Stewart or Heaviside-step form (fesd.md §1).
#include "stasis/reformulate/dcs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stasis/error.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::reformulate {

const char* to_string(DcsMode m) { return m == DcsMode::Stewart ? "stewart" : "step"; }

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

void add_z(Dcs& d, const sym::Vector& v, const std::string& prefix, double lo, double up, double start) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    d.z.push_back(v[i]);
    d.z_lower.push_back(lo);
    d.z_upper.push_back(up);
    d.z_start.push_back(start);
    d.z_names.push_back(prefix + "[" + std::to_string(i) + "]");
  }
}
/// Force rows of the implicit mass form, accumulated field by field with the same weights as ẋ.
struct ForceSum {
  const model::ImplicitMass* implicit = nullptr;
  sym::Vector force;
  explicit ForceSum(const model::Pss& pss) {
    if (!pss.implicit_mass) return;
    implicit = &*pss.implicit_mass;
    force = implicit->f0_force.empty() ? sym::Vector(implicit->mass.rows(), sym::Expr(0.0)) : implicit->f0_force;
  }
  void add(std::size_t subsystem, std::size_t field, const sym::Expr& weight) {
    if (!implicit) return;
    const sym::Vector& f = implicit->forces[subsystem][field];
    for (std::size_t r = 0; r < force.size(); ++r) force[r] = force[r] + f[r] * weight;
  }
  /// The accelerations become algebraic variables: ẋ = a in the mechanical rows, M a − force = 0.
  void finish(Dcs& d) const {
    if (!implicit) return;
    const std::size_t n = implicit->mass.rows(), first = implicit->first_row;
    const sym::Vector a = sym::symbols("a", n);
    d.first_acceleration_state = first;
    for (std::size_t r = 0; r < n; ++r) {
      d.acceleration_definitions.push_back(d.f[first + r]);
      d.f[first + r] = a[r];
      d.accelerations.push_back(static_cast<int>(d.z.size()));
      d.z.push_back(a[r]);
      d.z_lower.push_back(-kInf);
      d.z_upper.push_back(kInf);
      d.z_start.push_back(0.0);
      d.z_names.push_back("d" + d.state_names[first + r] + "/dt");
    }
    for (std::size_t r = 0; r < n; ++r) {
      sym::Expr row = -force[r];
      for (std::size_t c = 0; c < n; ++c) row = row + implicit->mass(r, c) * a[c];
      d.g_alg.push_back(row);
    }
  }
};
}  // namespace

Dcs to_dcs(const model::Pss& pss, DcsMode mode) {
  pss.validate();
  Dcs d;
  d.mode = mode;
  d.x = pss.x;
  d.u = pss.u;
  d.state_names = pss.state_names;
  d.control_names = pss.control_names;
  d.x0 = pss.x0;
  d.clock = pss.clock;
  const std::size_t n_x = pss.n_x();
  d.f = pss.f0.empty() ? sym::Vector(n_x, sym::Expr(0.0)) : pss.f0;
  ForceSum forces(pss);

  if (mode == DcsMode::Stewart) {
    for (std::size_t s = 0; s < pss.subsystems.size(); ++s)
      if (pss.subsystems[s].lifting && pss.subsystems[s].signs.empty())
        throw Error("model '" + pss.name + "': subsystem " + std::to_string(s) +
                    " is given in the lifted step form, which only the Heaviside step representation "
                    "(dcs: step) accepts; for dcs: stewart reformulate without lifting "
                    "(time_freezing: {lifting: false})");
    const std::size_t n_theta = pss.n_theta();
    sym::Vector theta = sym::symbols("theta", n_theta);
    sym::Vector lambda = sym::symbols("lambda", n_theta);
    sym::Vector mu = sym::symbols("mu", pss.subsystems.size());
    // nosnoc M-new initial guesses: θ = 1/n_θ (global n_θ, spec §4.7 quirk kept: it is only a
    // start value), λ = 1, μ = 0.
    add_z(d, theta, "theta", 0.0, kInf, 1.0 / static_cast<double>(n_theta));
    add_z(d, lambda, "lambda", 0.0, kInf, 1.0);
    add_z(d, mu, "mu", -kInf, kInf, 0.0);
    for (std::size_t i = 0; i < n_theta; ++i) d.boundary_z.push_back(static_cast<int>(n_theta + i));
    for (std::size_t s = 0; s < pss.subsystems.size(); ++s) d.boundary_z.push_back(static_cast<int>(2 * n_theta + s));
    std::size_t offset = 0;
    sym::Vector convexity;
    for (std::size_t s = 0; s < pss.subsystems.size(); ++s) {
      const model::Subsystem& sub = pss.subsystems[s];
      sym::Vector g = pss.indicators(s);
      sym::Expr sum(0.0);
      for (std::size_t i = 0; i < sub.n_regions(); ++i) {
        const std::size_t k = offset + i;
        for (std::size_t r = 0; r < n_x; ++r) d.f[r] = d.f[r] + sub.fields[i][r] * theta[k];
        forces.add(s, i, theta[k]);
        sym::Expr stationarity = g[i] - lambda[k] + mu[s];
        d.g_alg.push_back(stationarity);
        d.g_boundary.push_back(stationarity);
        sum = sum + theta[k];
        d.switching.push_back(g[i]);
        d.theta.push_back(theta[k]);
        d.theta_subsystem.push_back(static_cast<int>(s));
      }
      convexity.push_back(sum - 1.0);
      offset += sub.n_regions();
    }
    d.g_alg.insert(d.g_alg.end(), convexity.begin(), convexity.end());
    d.comp_lambda = lambda;
    d.comp_theta = theta;
    forces.finish(d);
    return d;
  }

  // Heaviside step representation.
  for (std::size_t s = 0; s < pss.subsystems.size(); ++s)
    if (!pss.subsystems[s].indicators.empty())
      throw Error("model '" + pss.name + "': subsystem " + std::to_string(s) +
                  " is given by indicator functions, which only the Stewart representation (dcs: stewart) accepts");
  // α: the lifted subsystems' own step-function symbols, fresh ones elsewhere.
  sym::Vector alpha;
  for (const auto& sub : pss.subsystems) {
    sym::Vector a = sub.lifting ? sub.lifting->alpha : sym::symbols("alpha", sub.switching.size());
    alpha.insert(alpha.end(), a.begin(), a.end());
  }
  const std::size_t n_alpha = alpha.size();
  sym::Vector lambda_n = sym::symbols("lambda_n", n_alpha);
  sym::Vector lambda_p = sym::symbols("lambda_p", n_alpha);
  add_z(d, alpha, "alpha", 0.0, 1.0, 0.5);
  add_z(d, lambda_n, "lambda_n", 0.0, kInf, 0.5);
  add_z(d, lambda_p, "lambda_p", 0.0, kInf, 0.5);
  for (std::size_t i = 0; i < 2 * n_alpha; ++i) d.boundary_z.push_back(static_cast<int>(n_alpha + i));
  sym::Vector lifted_equations;
  sym::Vector relevance;
  bool any_relevance = false;
  std::size_t offset = 0;
  for (std::size_t s = 0; s < pss.subsystems.size(); ++s) {
    const model::Subsystem& sub = pss.subsystems[s];
    if (sub.lifting && !sub.lifting->relevance.empty()) {
      if (sub.lifting->relevance.size() != sub.switching.size())
        throw Error("model '" + pss.name + "': subsystem " + std::to_string(s) + " gives " +
                    std::to_string(sub.lifting->relevance.size()) + " relevance expressions for " +
                    std::to_string(sub.switching.size()) + " switching functions");
      relevance.insert(relevance.end(), sub.lifting->relevance.begin(), sub.lifting->relevance.end());
      any_relevance = true;
    } else {
      for (std::size_t j = 0; j < sub.switching.size(); ++j) relevance.push_back(sym::Expr(1.0));
    }
    if (sub.lifting && !sub.lifting->variables) {
      // Lifted fields with θ_i(α) as expressions: the β definitions substituted one after the
      // other (each may use earlier ones), then into the weights. No algebraic θ, β and no
      // lifting equations. With them (below), steps starting at rest on a contact stalled (issue #4).
      const model::StepLifting& l = *sub.lifting;
      sym::Vector defs, earlier;
      for (std::size_t k = 0; k < l.lift.size(); ++k) {
        defs.push_back(sym::substitute(l.definitions[k], earlier, defs));
        earlier.push_back(l.lift[k]);
      }
      const sym::Vector weights = sym::substitute(l.weights, l.lift, defs);
      for (std::size_t i = 0; i < sub.n_regions(); ++i) {
        for (std::size_t r = 0; r < n_x; ++r) d.f[r] = d.f[r] + sub.fields[i][r] * weights[i];
        forces.add(s, i, weights[i]);
        d.theta.push_back(weights[i]);
        d.theta_subsystem.push_back(static_cast<int>(s));
      }
    } else if (sub.lifting) {
      // θ and β as variables, θ − weights(α, β) = 0 and β − definitions(α, β) = 0 (time_freezing.md §2.5.3).
      // They are free variables, as in nosnoc: their equations fix them from α ∈ [0, 1], which
      // already keeps them in [0, 1]. Bounds θ, β >= 0 would be redundant and active wherever a
      // weight or product is 0 (every flight point: θ_aux = β = 0; every jump point: θ_ode = β = 0),
      // i.e. extra active constraints whose gradients depend on those of the α bounds. That loses
      // LICQ at every such point and changes IPOPT's path against the dense form: in T4's landing
      // step (q0 = 0.8, 10 steps, 4 elements) the σ = 0.01 NLP ended in local infeasibility and
      // the step hit the iteration limit, while the dense form solved it.
      const model::StepLifting& l = *sub.lifting;
      const sym::Vector theta = sym::symbols("theta", sub.n_regions());
      for (std::size_t k = 0; k < l.lift.size(); ++k) {
        d.z.push_back(l.lift[k]);
        d.z_lower.push_back(-kInf);
        d.z_upper.push_back(kInf);
        d.z_start.push_back(0.0);  // set below from α's start
        d.z_names.push_back(l.lift_names[k]);
        d.lifted.push_back(static_cast<int>(d.z.size()) - 1);
        d.lifted_definitions.push_back(l.definitions[k]);
        lifted_equations.push_back(l.lift[k] - l.definitions[k]);
      }
      for (std::size_t i = 0; i < sub.n_regions(); ++i) {
        d.z.push_back(theta[i]);
        d.z_lower.push_back(-kInf);
        d.z_upper.push_back(kInf);
        d.z_start.push_back(0.0);
        d.z_names.push_back("theta[" + std::to_string(d.theta.size()) + "]");
        d.lifted.push_back(static_cast<int>(d.z.size()) - 1);
        d.lifted_definitions.push_back(l.weights[i]);
        lifted_equations.push_back(theta[i] - l.weights[i]);
        for (std::size_t r = 0; r < n_x; ++r) d.f[r] = d.f[r] + sub.fields[i][r] * theta[i];
        forces.add(s, i, theta[i]);
        d.theta.push_back(theta[i]);
        d.theta_subsystem.push_back(static_cast<int>(s));
      }
    } else {
      for (std::size_t i = 0; i < sub.n_regions(); ++i) {
        // θ_i(α) = Π_j [(1 − S_ij)/2 + S_ij α_j] over the nonzero S_ij (fesd.md §1.4).
        sym::Expr theta_i(1.0);
        for (std::size_t j = 0; j < sub.switching.size(); ++j) {
          int sij = sub.signs[i][j];
          if (sij == 1) theta_i = theta_i * alpha[offset + j];
          if (sij == -1) theta_i = theta_i * (1.0 - alpha[offset + j]);
        }
        for (std::size_t r = 0; r < n_x; ++r) d.f[r] = d.f[r] + sub.fields[i][r] * theta_i;
        forces.add(s, i, theta_i);
        d.theta.push_back(theta_i);
        d.theta_subsystem.push_back(static_cast<int>(s));
      }
    }
    for (std::size_t j = 0; j < sub.switching.size(); ++j) {
      sym::Expr eq = sub.switching[j] - lambda_p[offset + j] + lambda_n[offset + j];
      d.g_alg.push_back(eq);
      d.g_boundary.push_back(eq);
      d.switching.push_back(sub.switching[j]);
    }
    for (const auto& g : sub.direction_guards) {
      d.guard_switching.push_back(static_cast<int>(offset + g.switching));
      d.guard_direction.push_back(g.direction);
    }
    offset += sub.switching.size();
  }
  d.g_alg.insert(d.g_alg.end(), lifted_equations.begin(), lifted_equations.end());
  d.comp_lambda = lambda_n;
  d.comp_lambda.insert(d.comp_lambda.end(), lambda_p.begin(), lambda_p.end());
  d.comp_theta = alpha;
  for (const auto& a : alpha) d.comp_theta.push_back(1.0 - a);
  if (any_relevance) {
    d.comp_relevance = relevance;
    d.comp_relevance.insert(d.comp_relevance.end(), relevance.begin(), relevance.end());
  }
  forces.finish(d);
  evaluate_lifted(d, d.z_start);
  return d;
}

sym::Function lifted_function(const Dcs& d) { return sym::Function("lifted_definitions", {d.z}, {d.lifted_definitions}); }

void evaluate_lifted(const Dcs& d, std::vector<double>& z, const sym::Function* definitions) {
  if (d.lifted.empty()) return;
  if (z.size() != d.z.size())
    throw Error("evaluate_lifted: " + std::to_string(z.size()) + " values for " + std::to_string(d.z.size()) +
                " algebraic variables");
  sym::Function own;
  if (!definitions) {
    own = lifted_function(d);
    definitions = &own;
  }
  // Definitions are in dependency order, so one pass per variable settles them all.
  for (std::size_t pass = 0; pass <= d.lifted.size(); ++pass) {
    const std::vector<double> v = (*definitions)({z})[0];
    bool changed = false;
    for (std::size_t k = 0; k < d.lifted.size(); ++k) {
      double& target = z[static_cast<std::size_t>(d.lifted[k])];
      if (target != v[k]) changed = true;
      target = v[k];
    }
    if (!changed) break;
  }
}

std::vector<double> consistent_algebraics(const Dcs& d, const std::vector<double>& sw,
                                          const sym::Function* lifted_definitions) {
  if (sw.size() != d.switching.size())
    throw Error("consistent_algebraics: " + std::to_string(sw.size()) + " switching values for " +
                std::to_string(d.switching.size()) + " functions");
  std::vector<double> z(d.z_start);
  if (d.mode == DcsMode::Stewart) {
    const std::size_t n_theta = d.theta.size();
    std::size_t n_sys = 0;
    for (int s : d.theta_subsystem) n_sys = std::max(n_sys, static_cast<std::size_t>(s) + 1);
    for (std::size_t s = 0; s < n_sys; ++s) {
      double gmin = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < n_theta; ++i)
        if (static_cast<std::size_t>(d.theta_subsystem[i]) == s) gmin = std::min(gmin, sw[i]);
      const double tie = 1e-9 * std::max(1.0, std::fabs(gmin));
      std::size_t n_min = 0;
      for (std::size_t i = 0; i < n_theta; ++i)
        if (static_cast<std::size_t>(d.theta_subsystem[i]) == s && sw[i] <= gmin + tie) ++n_min;
      for (std::size_t i = 0; i < n_theta; ++i) {
        if (static_cast<std::size_t>(d.theta_subsystem[i]) != s) continue;
        z[i] = sw[i] <= gmin + tie ? 1.0 / static_cast<double>(n_min) : 0.0;  // θ
        z[n_theta + i] = sw[i] - gmin;                                          // λ
      }
      z[2 * n_theta + s] = -gmin;  // μ
    }
  } else {
    const std::size_t n_alpha = sw.size();
    for (std::size_t j = 0; j < n_alpha; ++j) {
      z[j] = sw[j] > 0 ? 1.0 : (sw[j] < 0 ? 0.0 : 0.5);
      z[n_alpha + j] = std::max(-sw[j], 0.0);
      z[2 * n_alpha + j] = std::max(sw[j], 0.0);
    }
    evaluate_lifted(d, z, lifted_definitions);
  }
  return z;
}

}  // namespace stasis::reformulate
