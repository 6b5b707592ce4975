// Time-frozen OCP solutions: physical time, frozen stages, re-simulation and constraint checks.
#include "stasis/ocp/time_frozen.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "stasis/error.hpp"
#include "stasis/sim/integrator.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::ocp {

namespace {

using Clock = std::chrono::steady_clock;

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

// Elements per stage of an OCP result (stages = controls.size()).
std::size_t elements_per_stage(const Result& r) {
  const std::size_t N = r.controls.size();
  if (N == 0 || r.states.size() < 2 || (r.states.size() - 1) % N != 0)
    throw Error("ocp: the result has " + std::to_string(r.states.size()) + " points for " +
                std::to_string(N) + " control stages");
  return (r.states.size() - 1) / N;
}

std::vector<double> without_clock(const std::vector<double>& y, int clock) {
  std::vector<double> x;
  for (std::size_t i = 0; i < y.size(); ++i)
    if (static_cast<int>(i) != clock) x.push_back(y[i]);
  return x;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

// Violation of lower <= v <= upper (0 if within; infinite bounds ignored).
double violation(double v, double lower, double upper) {
  if (!std::isfinite(v)) return std::numeric_limits<double>::infinity();
  double d = 0.0;
  if (std::isfinite(lower)) d = std::max(d, lower - v);
  if (std::isfinite(upper)) d = std::max(d, v - upper);
  return d;
}

}  // namespace

PhysicalResult recover_physical(const reformulate::TimeFrozenModel& model, const Result& r) {
  const int clock = model.clock;
  if (clock < 0) throw Error("ocp::recover_physical: the model has no clock");
  const std::size_t per = elements_per_stage(r);
  const std::size_t N = r.controls.size();
  sim::NumericalTrajectory n;
  n.states = r.states;
  n.active = r.active;
  n.theta = r.theta;
  n.element_length = r.element_length;
  n.speed_of_time = r.speed_of_time;
  n.controls = r.controls;
  PhysicalResult p;
  p.trajectory = sim::recover_physical(model, n);
  const auto c = static_cast<std::size_t>(clock);
  p.final_time = r.states.back()[c];
  const double eps = 1e-8 * std::max(1.0, std::fabs(p.final_time));
  for (std::size_t k = 0; k < N; ++k) {
    const double start = r.states[k * per][c], end = r.states[(k + 1) * per][c];
    p.control_time.push_back(start);
    p.stage_end_time.push_back(end);
    if (end - start <= eps) p.frozen_stages.push_back(static_cast<int>(k));
  }
  return p;
}

Validation validate(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec,
                    const Options& options, const Result& r, const PhysicalResult& p,
                    const ValidationOptions& vo) {
  const auto t_start = Clock::now();
  Validation v;
  const int clock = model.clock;
  const std::size_t per = elements_per_stage(r);
  const std::size_t N = r.controls.size();
  const std::size_t n_y = model.pss.n_x(), n_u = model.pss.n_u();

  // ---- constraint checks at every physical point of the OCP trajectory ----
  auto stage_of_point = [&](std::size_t point) { return point == 0 ? std::size_t{0} : (point - 1) / per; };
  sym::Function gaps, path, G, H;
  if (!model.gaps.empty()) gaps = sym::Function("gaps", {model.pss.x, model.pss.u}, {model.gaps});
  if (!spec.path.empty()) path = sym::Function("path", {model.pss.x, model.pss.u}, {spec.path});
  if (!spec.path_G.empty()) {
    G = sym::Function("G", {model.pss.x, model.pss.u}, {spec.path_G});
    H = sym::Function("H", {model.pss.x, model.pss.u}, {spec.path_H});
  }
  auto note = [&](double amount, const std::string& where) {
    if (amount > v.max_path_violation) {
      v.max_path_violation = amount;
      v.path_violation_where = where;
    }
  };
  const sim::PhysicalTrajectory& traj = p.trajectory;
  for (std::size_t i = 0; i < traj.point.size(); ++i) {
    const std::vector<double>& y = r.states[traj.point[i]];
    const std::vector<double>& u = r.controls[stage_of_point(traj.point[i])];
    const std::string at = " at t = " + num(traj.time[i]);
    if (!model.gaps.empty()) {
      const std::vector<double> g = gaps({y, u})[0];
      for (double gi : g) v.max_gap_violation = std::max(v.max_gap_violation, -gi);
    }
    if (!spec.path.empty()) {
      const std::vector<double> g = path({y, u})[0];
      for (std::size_t j = 0; j < g.size(); ++j)
        note(violation(g[j], spec.path_lower[j], spec.path_upper[j]),
             "path constraint " + (j < spec.path_names.size() ? spec.path_names[j] : std::to_string(j)) + at);
    }
    if (!spec.path_G.empty()) {
      const std::vector<double> gv = G({y, u})[0], hv = H({y, u})[0];
      for (std::size_t j = 0; j < gv.size(); ++j)
        note(std::max({-gv[j], -hv[j], std::min(gv[j], hv[j])}),
             "path complementarity pair " + std::to_string(j) + at);
    }
    for (std::size_t s = 0; s < n_y && s < spec.x_lower.size() && s < spec.x_upper.size(); ++s)
      note(violation(y[s], spec.x_lower[s], spec.x_upper[s]),
           "bounds of state " + model.pss.state_names[s] + at);
  }
  for (std::size_t k = 0; k < N; ++k)
    for (std::size_t j = 0; j < n_u && j < spec.u_lower.size() && j < spec.u_upper.size(); ++j)
      note(violation(r.controls[k][j], spec.u_lower[j], spec.u_upper[j]),
           "bounds of control " + model.pss.control_names[j] + " on stage " + std::to_string(k));
  const std::string checks = "; gap violation " + num(v.max_gap_violation) + ", path violation " +
                             num(v.max_path_violation) +
                             (v.max_path_violation > 0 ? " (" + v.path_violation_where + ")" : std::string());

  // ---- re-simulation ----
  v.steps_per_stage = vo.steps_per_stage;
  try {
    if (vo.steps_per_stage < 1)
      throw Error("steps per stage must be at least 1, not " + std::to_string(vo.steps_per_stage));
    const double t0 = r.states.front()[static_cast<std::size_t>(clock)];
    v.horizon = p.final_time - t0;
    v.steps = static_cast<int>(N) * vo.steps_per_stage;
    if (!(v.horizon > 0)) throw Error("the OCP's physical horizon is " + num(v.horizon));
    const double step = v.horizon / v.steps;
    sim::Options so;
    so.horizon = v.horizon;
    so.steps = v.steps;
    so.discretization = options.discretization;
    so.homotopy = options.homotopy;
    so.speed_of_time_lower = spec.speed_of_time_lower;
    so.speed_of_time_upper = spec.speed_of_time_upper;
    so.speed_of_time_start = spec.speed_of_time_start;
    so.alpha_penalty = spec.alpha_penalty;
    // Step j holds the control of the stage whose physical interval contains its midpoint: with
    // stagewise clock constraints exactly stage j / steps_per_stage. Frozen stages hold no time.
    bool aligned = true;
    for (int j = 0; j < v.steps; ++j) {
      const double mid = t0 + (j + 0.5) * step;
      const auto it = std::upper_bound(p.stage_end_time.begin(), p.stage_end_time.end(), mid);
      const std::size_t k =
          std::min<std::size_t>(static_cast<std::size_t>(it - p.stage_end_time.begin()), N - 1);
      so.step_controls.push_back(r.controls[k]);
    }
    sim::check_steps_hold_jumps(model, so);
    reformulate::Dcs dcs = reformulate::to_dcs(model.pss, options.discretization.dcs);
    sim::Integrator integrator(dcs, so);
    const sim::Result s = integrator.simulate(r.states.front());
    v.resimulated = true;
    v.simulation_converged = s.converged;
    v.simulated_final_state = without_clock(s.states.back(), clock);
    v.final_state_deviation = max_abs_difference(v.simulated_final_state, p.trajectory.states.back());
    // Stage ends: compare the physical states at the same time. At a jump a trajectory has two
    // states there (before, after): the smallest difference over the pairs counts (a jump exactly
    // at a stage end may be taken at the end of one integrator step or at the start of the next).
    sim::NumericalTrajectory sn;
    sn.states = s.states;
    sn.active = s.active;
    sn.theta = s.theta;
    sn.element_length = s.element_length;
    sn.speed_of_time = s.speed_of_time;
    sn.controls = so.step_controls;
    const sim::PhysicalTrajectory sp = sim::recover_physical(model, sn);
    const double tol = 1e-6 * std::max(1.0, v.horizon);
    auto states_at = [&](const sim::PhysicalTrajectory& t, double time) {
      std::vector<const std::vector<double>*> at;
      for (std::size_t i = 0; i < t.time.size(); ++i)
        if (std::fabs(t.time[i] - time) <= tol) at.push_back(&t.states[i]);
      return at;
    };
    std::size_t compared = 0;
    v.stage_end_deviation.assign(N, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t k = 0; k < N; ++k) {
      if (std::find(p.frozen_stages.begin(), p.frozen_stages.end(), static_cast<int>(k)) !=
          p.frozen_stages.end())
        continue;
      const auto ocp_states = states_at(p.trajectory, p.stage_end_time[k]);
      const auto sim_states = states_at(sp, p.stage_end_time[k]);
      if (ocp_states.empty() || sim_states.empty()) {
        aligned = false;
        continue;
      }
      double d = std::numeric_limits<double>::infinity();
      for (const auto* a : ocp_states)
        for (const auto* b : sim_states) d = std::min(d, max_abs_difference(*a, *b));
      v.stage_end_deviation[k] = d;
      v.max_deviation_at_stage_ends =
          std::isnan(v.max_deviation_at_stage_ends) ? d : std::max(v.max_deviation_at_stage_ends, d);
      ++compared;
    }
    v.message =
        "re-simulated " + std::to_string(v.steps) + " integrator steps (" +
        (s.converged ? "all converged" : s.message) + "): final state deviation " +
        num(v.final_state_deviation) + ", max deviation at stage ends " + num(v.max_deviation_at_stage_ends) +
        (aligned ? std::string()
                 : " (" + std::to_string(compared) + " of " + std::to_string(N - p.frozen_stages.size()) +
                       " stage ends on the integrator's grid; controls taken at step midpoints)") +
        checks;
  } catch (const std::exception& e) {
    v.resimulated = false;
    v.message = std::string("not re-simulated: ") + e.what() + checks;
  }
  v.wall_time_s = std::chrono::duration<double>(Clock::now() - t_start).count();
  return v;
}

}  // namespace stasis::ocp
