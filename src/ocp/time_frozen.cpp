// Time-frozen OCP solutions: physical time, frozen stages, re-simulation and constraint checks.
#include "stasis/ocp/time_frozen.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "stasis/error.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sim/integrator.hpp"
#include "stasis/sim/modes.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::ocp {

namespace {

using Clock = std::chrono::steady_clock;

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

// v to 3 significant digits, rounded up (a value to raise a bound to "at least") or down ("at most").
std::string num_up(double v) {
  if (!std::isfinite(v) || v == 0.0) return num(v);
  const double scale = std::pow(10.0, std::floor(std::log10(std::fabs(v))) - 2);
  return num(std::ceil(v / scale * (1 - 1e-12)) * scale);
}
std::string num_down(double v) {
  if (!std::isfinite(v) || v == 0.0) return num(v);
  const double scale = std::pow(10.0, std::floor(std::log10(std::fabs(v))) - 2);
  return num(std::floor(v / scale * (1 + 1e-12)) * scale);
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

// ValidationOptions::reproduction_tolerance at a state x of the OCP: relative to its largest
// entry, and absolute below 1.
double reproduction_limit(double tolerance, const std::vector<double>& x) {
  double largest = 1.0;
  for (double v : x) largest = std::max(largest, std::fabs(v));
  return tolerance * largest;
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

void set_time_freezing(discretize::OcpSpec& spec, const reformulate::TimeFrozenModel& model, reformulate::DcsMode dcs,
                       const TimeFreezingSettings& settings) {
  spec.clock = model.clock;
  spec.speed_of_time_lower = settings.speed_of_time_lower;
  spec.speed_of_time_upper = settings.speed_of_time_upper;
  spec.speed_of_time_start = settings.speed_of_time_start;
  spec.speed_of_time_penalty = settings.speed_of_time_penalty;
  spec.clock_constraints = settings.clock_constraints;
  spec.running_cost_time = settings.running_cost;
  spec.alpha_penalty.clear();
  if (dcs == reformulate::DcsMode::Step) spec.alpha_penalty = model.alpha_penalty(settings.alpha_regularization);
}

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

namespace {

// "3", "3, 4", "3–7, 9" (0-based stage numbers, runs of consecutive ones as ranges).
std::string stage_list(const std::vector<int>& stages) {
  std::string out;
  for (std::size_t i = 0; i < stages.size();) {
    std::size_t j = i;
    while (j + 1 < stages.size() && stages[j + 1] == stages[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(stages[i]);
    if (j > i) out += (j == i + 1 ? ", " : "–") + std::to_string(stages[j]);
    i = j + 1;
  }
  return out;
}

// The physical horizon T_phys the clock constraints ask for: the horizon, or T_final's bounds.
double physical_lower(const discretize::OcpSpec& spec) {
  return spec.time_optimal ? spec.final_time_lower : spec.horizon;
}
double physical_upper(const discretize::OcpSpec& spec) {
  return spec.time_optimal ? spec.final_time_upper : spec.horizon;
}

// The stage-length clause of messages: "(T/N + τ)/(T/N)" or "(T_final/N + τ)/(T/N)".
const char* stage_formula(const discretize::OcpSpec& spec) {
  return spec.time_optimal ? "(T_final/N + τ)/(T/N)" : "(T/N + τ)/(T/N)";
}

// What else shortens a stage's need for speed: a shorter frozen phase, fewer (longer) stages, and
// (time-optimal) a longer numerical horizon.
std::string other_remedies(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec) {
  std::string r;
  if (model.elastic)
    r = "a stiffer spring (time_freezing.stiffness of a cls model, auxiliary.stiffness of a jump model; the "
        "spring phase lasts τ = sqrt((π² + ln² e)/k))";
  else
    r = "a larger time_freezing.normal_acceleration (an impact freezes the clock for τ = |nᵀv|/(D·a_n))";
  r += ", fewer and so longer stages (ocp.stages; s = T_phys/T + τ·N/T)";
  if (spec.time_optimal) r += " or a longer numerical horizon (ocp.horizon)";
  return r;
}

}  // namespace

void check_speed_of_time(const discretize::OcpSpec& spec) {
  if (spec.clock < 0) return;
  const double lo = spec.speed_of_time_lower, up = spec.speed_of_time_upper, start = spec.speed_of_time_start;
  const double T = spec.horizon;
  if (!(lo > 0.0))
    throw Error("time_freezing.speed_of_time.lower is " + num(lo) +
                ", expected a value in (0, 1]: the speed of time must stay positive");
  if (!(lo <= up))
    throw Error("time_freezing.speed_of_time.lower = " + num(lo) +
                " is above time_freezing.speed_of_time.upper = " + num(up) +
                ": raise the upper bound to at least " + num(lo) +
                " (free flight needs s = 1, a stage holding a jump more)");
  if (!(lo <= start && start <= up))
    throw Error("time_freezing.speed_of_time.start = " + num(start) + " lies outside [lower, upper] = [" +
                num(lo) + ", " + num(up) + "]");
  if (!(T > 0.0) || spec.stages < 1) return;  // transcribe() reports these
  // A stage in free flight advances the clock by s·T/N and must advance it by T_phys/N.
  const double t_lo = physical_lower(spec), t_hi = physical_upper(spec);
  if (t_lo > up * T) {
    if (spec.time_optimal)
      throw Error("ocp.final_time.lower = " + num(t_lo) +
                  " cannot be reached from the numerical horizon ocp.horizon = " + num(T) +
                  ": a stage in free flight needs a speed of time s = T_final/T >= " + num(t_lo / T) +
                  ", above time_freezing.speed_of_time.upper = " + num(up) +
                  "; raise time_freezing.speed_of_time.upper to at least " + num_up(t_lo / T) +
                  ", ocp.horizon to at least " + num_up(t_lo / up) + ", or lower ocp.final_time.lower");
    throw Error("time_freezing.speed_of_time.upper = " + num(up) +
                " is below 1: with a fixed horizon the clock must advance by T/N in every stage, which needs "
                "s = 1 in "
                "free flight (and more in a stage holding a jump); raise time_freezing.speed_of_time.upper "
                "to at least 1");
  }
  if (t_hi < lo * T) {
    if (spec.time_optimal)
      throw Error("ocp.final_time.upper = " + num(t_hi) +
                  " is too short for the numerical horizon ocp.horizon = " + num(T) +
                  ": a stage in free flight needs a speed of time s = T_final/T <= " + num(t_hi / T) +
                  ", below time_freezing.speed_of_time.lower = " + num(lo) +
                  "; lower time_freezing.speed_of_time.lower to at most " + num_down(t_hi / T) +
                  ", ocp.horizon to at most " + num_down(t_hi / lo) +
                  ", or raise ocp.final_time.upper to at least " + num_up(lo * T));
    throw Error(
        "time_freezing.speed_of_time.lower = " + num(lo) +
        " is above 1: with a fixed horizon the clock must advance by exactly T/N in every stage, which needs "
        "s = 1 in free flight; lower time_freezing.speed_of_time.lower to at most 1");
  }
}

void check_speed_of_time(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec) {
  check_speed_of_time(spec);
  if (spec.clock < 0 || model.elastic || !(model.normal_acceleration > 0) || model.D.empty() ||
      model.gaps.empty())
    return;
  // Only a fixed initial state is known before solving.
  for (std::size_t i = 0; i < spec.x0_free.size(); ++i)
    if (spec.x0_free[i] && static_cast<int>(i) != model.clock) return;
  const std::vector<double>& y0 = model.pss.x0;
  if (y0.size() != model.pss.n_x()) return;
  const std::vector<double> u(model.pss.n_u(), 0.0);
  const std::vector<std::vector<double>> v = sym::Function(
      "impact", {model.pss.x, model.pss.u}, {model.gaps, model.normal_velocities, model.D})({y0, u});
  double tau = 0.0;
  std::size_t worst = 0;
  for (std::size_t c = 0; c < v[0].size(); ++c) {
    if (!(v[0][c] <= 0.0) || !(v[1][c] < 0.0) || !(v[2][c] > 0.0)) continue;
    const double t = reformulate::inelastic_jump_duration(v[1][c], v[2][c], model.normal_acceleration);
    if (t > tau) {
      tau = t;
      worst = c;
    }
  }
  if (!(tau > 0.0)) return;
  const double N = spec.stages, T = spec.horizon, L = T / N, A = physical_lower(spec) / N;
  const double up = spec.speed_of_time_upper, need = (A + tau) / L;
  if (need <= up) return;
  const std::string name = worst < model.contact_names.size() && !model.contact_names[worst].empty()
                               ? "'" + model.contact_names[worst] + "'"
                               : std::to_string(worst);
  std::string fix = "raise time_freezing.speed_of_time.upper to at least " + num_up(need);
  if (up * L > A)
    fix += ", time_freezing.normal_acceleration to at least " +
           num_up(-v[1][worst] / (v[2][worst] * (up * L - A)));
  const double max_stages = std::floor((up - physical_lower(spec) / T) * T / tau);
  if (max_stages >= 1)
    fix += ", or use at most " + num(max_stages) + (max_stages == 1 ? " stage" : " stages") + " (ocp.stages)";
  throw Error("the initial state starts an impact at contact " + name + " (gap " + num(v[0][worst]) +
              ", normal velocity " + num(v[1][worst]) + "): the clock stays frozen for τ = |nᵀv|/(D·a_n) = " +
              num(tau) + " of numerical time, so the first stage needs a speed of time of at least " +
              stage_formula(spec) + " = " + num_up(need) +
              ", above time_freezing.speed_of_time.upper = " + num(up) + "; " + fix);
}

namespace {

// Unscaled frozen time of every control stage when the last iterate's controls are simulated
// explicitly from its initial state: RK4 on the time-frozen field with s = 1, the region chosen
// by the signs of the switching functions (as sim::Integrator's predictor; contact phases
// chatter about the surface and so slow the clock on average as the Filippov field does), until
// the clock has advanced by A = T_phys/N; the numerical time that takes is A + τ_k. NaN where
// the state stops being finite or τ_k exceeds tau_cap.
std::vector<double> explicit_frozen_time(const reformulate::TimeFrozenModel& model, const Solver& solver,
                                         const std::vector<double>& w, double A, double tau_cap) {
  const discretize::OcpSpec& spec = solver.spec();
  const discretize::IndexMap& map = solver.transcription().map;
  const int N = spec.stages;
  const std::size_t n_x = model.pss.n_x(), n_u = model.pss.n_u();
  const auto clock = static_cast<std::size_t>(model.clock);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> tau(static_cast<std::size_t>(N), nan);
  if (!(A > 0)) return tau;
  const reformulate::Dcs dcs = reformulate::to_dcs(model.pss, solver.options().discretization.dcs);
  sim::ModeMonitor modes(dcs);
  const sym::Function field("field", {dcs.x, dcs.u, dcs.z}, {dcs.f});
  std::vector<double> work(std::max(field.work_size(), std::size_t{1}));
  std::vector<double> y(w.begin() + map.x0, w.begin() + map.x0 + static_cast<std::ptrdiff_t>(n_x));
  std::vector<double> k1(n_x), k2(n_x), k3(n_x), k4(n_x), tmp(n_x), z;
  const double dtau = A / 2000;
  for (int k = 0; k < N; ++k) {
    const auto first = w.begin() + map.u[static_cast<std::size_t>(k)];
    const std::vector<double> u(first, first + static_cast<std::ptrdiff_t>(n_u));
    auto rate = [&](const std::vector<double>& at, std::vector<double>& out) {
      z = modes.consistent_algebraics(at, u);
      const double* in[3] = {at.data(), u.data(), z.data()};
      double* o[1] = {out.data()};
      field.eval(in, o, work.data());
    };
    const double clock0 = y[clock];
    double tau_num = 0.0;
    bool finite = true;
    while (y[clock] - clock0 < A && tau_num - A <= tau_cap && finite) {
      // the last substep ends where the clock reaches A (free flight: exactly)
      const double remaining = A - (y[clock] - clock0);
      const double dt = std::min(dtau, std::max(remaining, 1e-12 * A));
      rate(y, k1);
      for (std::size_t i = 0; i < n_x; ++i) tmp[i] = y[i] + 0.5 * dt * k1[i];
      rate(tmp, k2);
      for (std::size_t i = 0; i < n_x; ++i) tmp[i] = y[i] + 0.5 * dt * k2[i];
      rate(tmp, k3);
      for (std::size_t i = 0; i < n_x; ++i) tmp[i] = y[i] + dt * k3[i];
      rate(tmp, k4);
      for (std::size_t i = 0; i < n_x; ++i) {
        y[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        finite = finite && std::isfinite(y[i]);
      }
      tau_num += dt;
    }
    if (!finite || tau_num - A > tau_cap) break;
    tau[static_cast<std::size_t>(k)] = std::max(0.0, tau_num - A);
  }
  return tau;
}

}  // namespace

SpeedOfTimeDiagnosis diagnose_speed_of_time(const reformulate::TimeFrozenModel& model, const Solver& solver,
                                            const Result& r) {
  SpeedOfTimeDiagnosis d;
  const discretize::OcpSpec& spec = solver.spec();
  const discretize::IndexMap& map = solver.transcription().map;
  if (r.converged || spec.clock < 0 || map.speed_of_time.empty()) return d;
  const std::vector<double>& w = r.homotopy.last_iterate.empty() ? r.w : r.homotopy.last_iterate;
  if (w.size() != solver.transcription().problem.n_variables()) return d;
  const auto at = [&](mpcc::Index i) { return w[static_cast<std::size_t>(i)]; };
  const int N = spec.stages, clock = spec.clock;
  const double T = spec.horizon, L = T / N, lo = spec.speed_of_time_lower, up = spec.speed_of_time_upper;
  const double T_phys = spec.time_optimal ? at(map.final_time) : T, A = T_phys / N;
  const double t0 = at(map.x0 + clock);
  const bool stagewise = spec.clock_constraints == discretize::OcpSpec::ClockConstraints::Stagewise;

  // ---- the last iterate: s_k at a bound, clock constraints violated ----
  const double s_tol_up = 1e-3 * std::max(1.0, up), s_tol_lo = 1e-3 * std::max(1.0, lo);
  const double c_tol = 1e-6 * std::max(1.0, std::fabs(T_phys));
  std::vector<int> at_upper, at_lower, lagging, ahead;
  // Unscaled frozen time per stage as the iterate has it: s_k·L − (clock advance).
  std::vector<double> frozen_iterate(static_cast<std::size_t>(N), 0.0);
  double previous = t0;
  for (int k = 0; k < N; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    const double s = at(map.speed_of_time[ku]);
    d.speed_of_time.push_back(s);
    const double end = at(map.fe[ku].back().x_end + clock);
    if (s >= up - s_tol_up) at_upper.push_back(k);
    if (s <= lo + s_tol_lo && lo < up) at_lower.push_back(k);
    if (stagewise || k == N - 1) {
      const double violation = end - t0 - double(k + 1) / N * T_phys;
      d.max_clock_violation = std::max(d.max_clock_violation, std::fabs(violation));
      if (violation < -c_tol) lagging.push_back(k);
      if (violation > c_tol) ahead.push_back(k);
      if (std::fabs(violation) > c_tol) d.clock_violated.push_back(k);
    }
    frozen_iterate[ku] = std::max(0.0, s * L - (end - previous));
    previous = end;
  }
  // The upper bound is in the way where s_k sits at it or the clock lags behind its grid; the
  // lower one where the clock runs ahead while s_k sits at the lower bound. s_k at the lower bound
  // alone is normal (free flight with lower = 1).
  const bool upper = !at_upper.empty() || !lagging.empty();
  std::vector<int> lower_stages;
  for (int k : ahead)
    if (std::find(at_lower.begin(), at_lower.end(), k) != at_lower.end()) lower_stages.push_back(k);
  if (!upper && lower_stages.empty()) return d;
  // A stage at s = lower advances its clock by at most lower·L; only a lower bound above the
  // free-flight speed T_phys/T can push it ahead of its grid. Otherwise the iterate is ahead for
  // another reason (it is not feasible), and "lower the bound to T_phys/T" would change nothing.
  if (!upper && lo <= T_phys / T * (1.0 + 1e-9)) return d;
  const std::vector<int>& late = upper ? lagging : ahead;
  d.bound = upper ? "upper" : "lower";
  d.key = "time_freezing.speed_of_time." + d.bound;
  d.bound_value = upper ? up : lo;
  d.stages_at_bound = upper ? at_upper : lower_stages;
  std::vector<int> stages = d.stages_at_bound;
  stages.insert(stages.end(), late.begin(), late.end());
  std::sort(stages.begin(), stages.end());
  stages.erase(std::unique(stages.begin(), stages.end()), stages.end());

  std::string where = "speed of time (last iterate, stages 0-based): ";
  if (!d.stages_at_bound.empty())
    where +=
        "s_k sits at " + d.key + " = " + num(d.bound_value) + " in stage(s) " + stage_list(d.stages_at_bound);
  if (!late.empty()) {
    where += d.stages_at_bound.empty() ? "the clock" : "; the clock";
    where += std::string(upper ? " lags behind" : " runs ahead of") + " its grid " +
             (stagewise ? "t0 + k·T_phys/N" : "t0 + T_phys") + " at the end of stage(s) " + stage_list(late) +
             " (by up to " + num(d.max_clock_violation) + ")";
  }
  if (!upper) {
    d.stages = stages;
    d.needed = T_phys / T;
    d.message =
        where + ". A stage in free flight needs s = T_phys/T = " + num(T_phys / T) +
        "; lower time_freezing.speed_of_time.lower to at most " + num_down(T_phys / T) +
        (spec.time_optimal ? ", or change ocp.horizon (the numerical horizon) or ocp.final_time" : "");
    return d;
  }

  // ---- what the stages need: the explicit simulation, else the iterate's own frozen time ----
  // Stage k needs (A + τ_k)/L (stagewise), or all stages together (T_phys + Σ τ_k)/T (terminal
  // clock constraint only: the frozen time may be made up anywhere).
  const std::vector<double> simulated_tau =
      explicit_frozen_time(model, solver, w, A, std::max(100.0, 10.0 * up) * L);
  bool simulated = true;
  for (double t : simulated_tau) simulated = simulated && std::isfinite(t);
  std::vector<double> tau(static_cast<std::size_t>(N), 0.0);
  for (int k = 0; k < N; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    // a failed simulation: trust neither estimate alone
    tau[ku] = simulated
                  ? simulated_tau[ku]
                  : std::max(frozen_iterate[ku], std::isfinite(simulated_tau[ku]) ? simulated_tau[ku] : 0.0);
  }
  double need = 0.0, frozen = 0.0;
  int worst = -1;
  if (stagewise) {
    for (int k = 0; k < N; ++k) {
      // without a complete simulation only the stages the iterate points at count
      if (!simulated && std::find(stages.begin(), stages.end(), k) == stages.end()) continue;
      const double nk = (A + tau[static_cast<std::size_t>(k)]) / L;
      if (nk > need) {
        need = nk;
        frozen = tau[static_cast<std::size_t>(k)];
        worst = k;
      }
    }
  } else {
    for (double t : tau) frozen += t;
    need = (T_phys + frozen) / T;
  }
  if (worst >= 0 && simulated) stages.push_back(worst);
  std::sort(stages.begin(), stages.end());
  stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
  d.stages = stages;
  const bool conclusive = need > up * (1.0 + 1e-3);
  if (at_upper.empty() && !conclusive)
    return {};  // a lagging clock the bound lets catch up (an unfinished solve)

  std::string why;
  if (simulated) {
    why = stagewise ? "Simulated explicitly with the last iterate's controls (RK4, s = 1), stage " +
                          std::to_string(worst) + " freezes the clock for τ ≈ " + num(frozen) +
                          " of numerical time (jumps, contact) and needs s = " + stage_formula(spec) + " ≈ " +
                          num_up(need)
                    : "Simulated explicitly with the last iterate's controls (RK4, s = 1), the clock is "
                      "frozen for τ ≈ " +
                          num(frozen) +
                          " of numerical time in all (jumps, contact), which needs s ≈ (T_phys + τ)/T = " +
                          num_up(need) + " on average";
  } else {
    why = stagewise
              ? std::string("A stage holding a frozen phase (jump or contact) of τ ≈ ") + num(frozen) +
                    " of numerical time needs s = " + stage_formula(spec) + " ≈ " + num_up(need)
              : "The frozen phases (jumps, contact) of about τ = " + num(frozen) +
                    " of numerical time in all need s ≈ (T_phys + τ)/T = " + num_up(need) + " on average";
    why += " (estimated from the last iterate)";
  }
  if (conclusive) {
    d.needed = need;
    d.frozen_time = frozen;
    d.message = where + ". " + why + "; raise time_freezing.speed_of_time.upper to at least " + num_up(need) +
                " (with a margin, e.g. " + num(std::ceil(1.25 * need)) +
                "), or shorten what the speed of time must make up: " + other_remedies(model, spec);
  } else {
    d.message = where + ". " + why +
                ", within the bound: the bound may still be what makes the problem infeasible; raise "
                "time_freezing.speed_of_time.upper above " +
                num(up) + ", or try " + other_remedies(model, spec);
  }
  return d;
}

namespace {
// σ0 of a validation step solved from the OCP's motion (Validation::stages_from_ocp_guess): the
// OCP's point has G·H <= its complementarity tolerance, so a small σ0 keeps the relaxed NLP near
// it, and the integrator's homotopy (κ = 0.1) then takes about 8 steps to its tolerance.
constexpr double kOcpGuessSigma0 = 1e-3;

// The largest violation seen so far and where it is; the place is built only for a new maximum
// (the checks run at every point and every row).
struct Worst {
  double& amount;
  std::string& where;
  template <class Place>
  void note(double a, const Place& place) {
    if (a > amount) {
      amount = a;
      where = place();
    }
  }
};

// The path constraints and state bounds at the state y with control u; at() ends the place.
template <class At>
void check_path_and_bounds(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec,
                           sym::Function& path, const std::vector<double>& y, const std::vector<double>& u,
                           Worst& worst, const At& at) {
  if (!spec.path.empty()) {
    const std::vector<double> g = path({y, u})[0];
    for (std::size_t c = 0; c < g.size(); ++c)
      worst.note(violation(g[c], spec.path_lower[c], spec.path_upper[c]), [&] {
        return "path constraint " + (c < spec.path_names.size() ? spec.path_names[c] : std::to_string(c)) + at();
      });
  }
  for (std::size_t s = 0; s < y.size() && s < spec.x_lower.size() && s < spec.x_upper.size(); ++s)
    worst.note(violation(y[s], spec.x_lower[s], spec.x_upper[s]),
               [&] { return "bounds of state " + model.pss.state_names[s] + at(); });
}

// The same on each element's collocation polynomial, at vo.points_between equally spaced points
// strictly inside the element (Lagrange interpolation through (0, x_start) and (c_m, X_m)); the
// physical time is the interpolated clock.
void check_between_points(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec,
                          const Result& r, const ValidationOptions& vo, sym::Function& path, Validation& v) {
  const std::vector<double>& tau = r.collocation_nodes;
  if (vo.points_between <= 0 || tau.empty() || r.stage_states.size() + 1 != r.states.size()) return;
  v.points_between = vo.points_between;
  Worst worst{v.max_path_violation_between_points, v.path_violation_between_where};
  const std::size_t per = elements_per_stage(r), n_y = model.pss.n_x(), n_nodes = tau.size();
  std::vector<double> y(n_y);
  std::vector<std::vector<double>> bases;  // the same points in every element
  for (int j = 1; j <= vo.points_between; ++j)
    bases.push_back(discretize::lagrange_basis(tau, static_cast<double>(j) / (vo.points_between + 1)));
  for (std::size_t e = 0; e < r.stage_states.size(); ++e) {
    for (const std::vector<double>& basis : bases) {
      for (std::size_t i = 0; i < n_y; ++i) {
        y[i] = basis[0] * r.states[e][i];
        for (std::size_t m = 1; m < n_nodes; ++m) y[i] += basis[m] * r.stage_states[e][m - 1][i];
      }
      check_path_and_bounds(model, spec, path, y, r.controls[e / per], worst, [&] {
        return " in element " + std::to_string(e + 1) + " at t = " + num(y[static_cast<std::size_t>(model.clock)]);
      });
    }
  }
}

// What the integrator's own steps did in the stages it did not reproduce: how far the farthest
// converged one ended from the OCP, and by how much its element lengths differ from the OCP's.
std::string mismatch_summary(const std::vector<Validation::StageMismatch>& stages) {
  double worst_deviation = -1.0, worst_length = -1.0;
  int deviation_stage = -1, length_stage = -1, failed = 0;
  for (const Validation::StageMismatch& m : stages) {
    if (!m.integrator_converged) {
      ++failed;
      continue;
    }
    if (m.integrator_deviation > worst_deviation) {
      worst_deviation = m.integrator_deviation;
      deviation_stage = m.stage;
    }
    for (std::size_t n = 0; n < m.ocp_element_lengths.size() && n < m.integrator_element_lengths.size(); ++n) {
      const double difference = std::abs(m.ocp_element_lengths[n] - m.integrator_element_lengths[n]);
      if (difference > worst_length) {
        worst_length = difference;
        length_stage = m.stage;
      }
    }
  }
  std::string text;
  if (deviation_stage >= 0)
    text += "; the integrator's own steps end up to " + num(worst_deviation) +
            " away from the OCP's stage end (stage " + std::to_string(deviation_stage) + ")";
  if (length_stage >= 0)
    text += ", their element lengths differ from the OCP's by up to " + num(worst_length) + " (stage " +
            std::to_string(length_stage) + ")";
  if (failed > 0) text += "; " + std::to_string(failed) + " of them did not converge";
  return text;
}
// "; stage(s) LIST" + what, or "" for no stages (the validation's message).
std::string stages_phrase(const std::vector<int>& stages, const std::string& what) {
  return stages.empty() ? std::string() : "; stage(s) " + stage_list(stages) + what;
}
}  // namespace

Validation validate(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec,
                    const Options& options, const Result& r, const PhysicalResult& p,
                    const ValidationOptions& vo) {
  const auto t_start = Clock::now();
  Validation v;
  const int clock = model.clock;
  const std::size_t per = elements_per_stage(r);
  const std::size_t N = r.controls.size();
  const std::size_t n_u = model.pss.n_u();

  // ---- constraint checks at every physical point of the OCP trajectory ----
  auto stage_of_point = [&](std::size_t point) { return point == 0 ? std::size_t{0} : (point - 1) / per; };
  sym::Function gaps, path, G, H;
  if (!model.gaps.empty()) gaps = sym::Function("gaps", {model.pss.x, model.pss.u}, {model.gaps});
  if (!spec.path.empty()) path = sym::Function("path", {model.pss.x, model.pss.u}, {spec.path});
  if (!spec.path_G.empty()) {
    G = sym::Function("G", {model.pss.x, model.pss.u}, {spec.path_G});
    H = sym::Function("H", {model.pss.x, model.pss.u}, {spec.path_H});
  }
  Worst worst{v.max_path_violation, v.path_violation_where};
  const sim::PhysicalTrajectory& traj = p.trajectory;
  for (std::size_t i = 0; i < traj.point.size(); ++i) {
    const std::vector<double>& y = r.states[traj.point[i]];
    const std::vector<double>& u = r.controls[stage_of_point(traj.point[i])];
    const auto at = [&] { return " at t = " + num(traj.time[i]); };
    if (!model.gaps.empty()) {
      const std::vector<double> g = gaps({y, u})[0];
      for (double gi : g) v.max_gap_violation = std::max(v.max_gap_violation, -gi - model.contact_depth);
    }
    check_path_and_bounds(model, spec, path, y, u, worst, at);
    if (!spec.path_G.empty()) {
      const std::vector<double> gv = G({y, u})[0], hv = H({y, u})[0];
      for (std::size_t j = 0; j < gv.size(); ++j)
        worst.note(std::max({-gv[j], -hv[j], std::min(gv[j], hv[j])}),
                   [&] { return "path complementarity pair " + std::to_string(j) + at(); });
    }
  }
  check_between_points(model, spec, r, vo, path, v);
  for (std::size_t k = 0; k < N; ++k)
    for (std::size_t j = 0; j < n_u && j < spec.u_lower.size() && j < spec.u_upper.size(); ++j)
      worst.note(violation(r.controls[k][j], spec.u_lower[j], spec.u_upper[j]),
                 [&] { return "bounds of control " + model.pss.control_names[j] + " on stage " + std::to_string(k); });
  const std::string checks =
      "; gap violation " + num(v.max_gap_violation) + ", path violation " + num(v.max_path_violation) +
      (v.max_path_violation > 0 ? " (" + v.path_violation_where + ")" : std::string()) +
      (v.points_between > 0 ? ", between points " + num(v.max_path_violation_between_points) +
                                  (v.max_path_violation_between_points > 0 ? " (" + v.path_violation_between_where + ")"
                                                                           : std::string())
                            : std::string());

  // ---- re-simulation ----
  v.steps_per_stage = vo.steps_per_stage;
  try {
    if (vo.steps_per_stage < 1)
      throw Error("steps per stage must be at least 1, not " + std::to_string(vo.steps_per_stage));
    const double t0 = r.states.front()[static_cast<std::size_t>(clock)];
    v.horizon = p.final_time - t0;
    if (!(v.horizon > 0)) throw Error("the OCP's physical horizon is " + num(v.horizon));
    // Stage by stage over the OCP's own physical control grid (equidistant with stagewise clock
    // constraints; with a terminal clock constraint only, each stage lasts what its clock
    // advanced), each from where the re-simulation of the stage before ended, with that stage's
    // control held: open loop, as the controls would be applied. Stages the clock does not
    // advance in (a jump that fills them) join the stage before them: one segment, as long in
    // physical time as that stage, with the numerical time and the finite elements of all of them.
    //
    // The speed-of-time bounds scale with the segment: an OCP stage lasts T/N of numerical time
    // (T = ocp.horizon) and the integrator's step as long as its physical time L, so the same
    // motion, jump included, needs a speed of time (T/N)·m/L times the OCP's in a segment of m
    // stages; the bounds are scaled by that factor (the OCP's own bounds on its own grid).
    reformulate::Dcs dcs = reformulate::to_dcs(model.pss, options.discretization.dcs);
    std::optional<reformulate::Dcs> alternative_dcs;
    if (vo.alternative_model != nullptr)
      alternative_dcs = reformulate::to_dcs(vo.alternative_model->pss, options.discretization.dcs);
    const double tol = 1e-6 * std::max(1.0, v.horizon);
    const double stage_numerical_length = spec.horizon / static_cast<double>(N);
    std::vector<double> y = r.states.front();
    double stage_start = t0;
    std::string first_failure;
    v.stage_end_deviation.assign(N, std::numeric_limits<double>::quiet_NaN());
    v.simulation_converged = true;
    std::size_t compared = 0;
    int steps = 0;
    // Frozen: the clock advances by less than 1e-4 of s·h in element e (a contact phase runs it at
    // a fraction of order 1; the hopper's relaxed jumps leak 4e-8 in elements of 0.015).
    auto clock_frozen = [&](std::size_t e) {
      if (e + 1 >= r.states.size() || e >= r.element_length.size()) return false;
      const auto c = static_cast<std::size_t>(clock);
      const double dt = r.states[e + 1][c] - r.states[e][c];
      return dt <= 1e-4 * r.speed_of_time[std::min(e / per, N - 1)] * r.element_length[e];
    };
    const bool on_ocp_grid = vo.steps_per_stage == 1 && per > 0 && r.speed_of_time.size() == N &&
                             r.element_length.size() == N * per;
    // A jump touches element boundary `point` (the clock stands still in the element before or
    // after it): every point of the jump has the clock at that boundary.
    auto jump_at = [&](std::size_t point) { return point > 0 && (clock_frozen(point - 1) || clock_frozen(point)); };
    // The stage after `stage` is frozen (the clock does not advance in it).
    auto frozen_after = [&](std::size_t stage) {
      return stage + 1 < N && !(p.stage_end_time[stage + 1] - p.stage_end_time[stage] > tol);
    };
    std::size_t alone = N;  // a stage whose joined step failed, re-simulated alone
    // ValidationOptions::on_segment: stages first..end−1.
    auto report_segment = [&](std::size_t first, std::size_t end, bool converged, double deviation, double residual,
                              std::string how, Clock::time_point since) {
      if (!vo.on_segment) return;
      ValidationSegment seg;
      seg.first_stage = static_cast<int>(first);
      seg.last_stage = static_cast<int>(end - 1);
      seg.stages = static_cast<int>(end - first);
      seg.converged = converged;
      seg.deviation = std::isfinite(deviation) ? deviation : std::numeric_limits<double>::quiet_NaN();
      seg.residual = residual;
      seg.how = std::move(how);
      seg.wall_time_s = std::chrono::duration<double>(Clock::now() - since).count();
      vo.on_segment(seg);
    };
    for (std::size_t k = 0; k < N;) {
      const auto segment_start = Clock::now();
      const double previous_stage_end = stage_start;
      const std::size_t resynchronized_before = v.stages_resynchronized.size(),
                        alternative_before = v.stages_by_alternative_form.size(),
                        from_ocp_before = v.stages_from_ocp.size(),
                        from_ocp_guess_before = v.stages_from_ocp_guess.size();
      const double length = p.stage_end_time[k] - stage_start;
      std::size_t next = k + 1;
      while (frozen_after(next - 1)) ++next;
      // A stage whose end a jump touches (jump_at: a landing on the stage end, or one under way
      // there) is re-simulated in one step with the stage after it, each with its own controls,
      // speed of time and clock constraint (sim::Options::stages_per_step): the same equations
      // as the OCP's two stages. Every point of the jump has the clock at the stage end, so the
      // physical grid does not say where in the jump the stage ends: a step of the stage alone
      // has a continuum of solutions, and in the middle of a jump the velocities move fast in
      // numerical time (the hopper's landing: about 260 per unit), so the relaxation's accuracy
      // moves that state by 1e-4 (the one-hole cut's stage 5) and the next step starts there.
      // The joined segment ends where the jump is over. The joined stages have the physical length
      // of the first (an equidistant physical grid), and none is followed by a frozen stage (which
      // joins the stage before it, below, and holds a jump that a segment ending there would miss).
      std::size_t joined = 1;
      if (vo.join_stages_at_jumps && on_ocp_grid && next == k + 1 && k != alone)
        while (k + joined < N && jump_at((k + joined) * per) && !frozen_after(k + joined) &&
               std::fabs(p.stage_end_time[k + joined] - p.stage_end_time[k + joined - 1] - length) <= tol)
          ++joined;
      if (joined > 1) {
        next = k + joined;
        v.stages_joined_across_jumps.push_back(static_cast<int>(k));
      }
      const double segment_length = p.stage_end_time[next - 1] - stage_start;
      stage_start = p.stage_end_time[next - 1];
      if (!(length > tol)) {  // frozen from the start: nothing physical to simulate
        k = next;
        continue;
      }
      const double factor = stage_numerical_length * static_cast<double>(next - k) / segment_length;
      sim::Options so;
      so.horizon = segment_length;
      so.steps = vo.steps_per_stage;
      so.stages_per_step = static_cast<int>(joined);
      // A joined step is tried from its first guess only (sim::Options::max_attempts): on the
      // OCP's fixed lengths its equations are nearly overdetermined (the OCP met them with lengths
      // it chose), and from the re-simulated start, 1e-8 off the OCP's, every guess of the
      // time-optimal bounce's stages 11-12 (20 stages) ends infeasible from σ = 0.01 on, as every
      // guess of the hopper's landing did (380 to 490 s). The retry from the OCP's stage start
      // below (the bounce with 5 stages: converged from its first guess) and the stage alone
      // remain.
      if (joined > 1) so.max_attempts = 1;
      so.discretization = options.discretization;
      // The OCP's elements of the segment: those of the stage and the frozen ones joined to it, or
      // each joined stage's own.
      if (joined == 1) so.discretization.elements *= static_cast<int>(next - k);
      for (int step = 0; step < vo.steps_per_stage; ++step)
        for (std::size_t j = 0; j < joined; ++j) so.step_controls.push_back(r.controls[k + j]);
      // The OCP's state bounds, which its motion satisfies (checked above): the hopper's light leg
      // under large torques gives the collocation equations of its long flight elements roots
      // that spin the leg over (the one-hole cut's stage 4: phi_hip -2.31 where the OCP has 0.80,
      // with the same element lengths); the box excludes those, not the motion.
      so.state_lower = spec.x_lower;
      so.state_upper = spec.x_upper;
      // On the OCP's own grid: where no switch pins an element length, the FESD equations leave it
      // free, and the OCP chose it with its cost as a discretization choice (heuristic_mean only
      // pulls it towards h0). The step's lengths are fixed to the OCP's (in its own numerical
      // time, 1/factor times the OCP's), so both solve the same discrete equations; a switch the
      // OCP put on an element boundary must then be there in the step's dynamics too. (A pull
      // towards them instead left the hopper's steps on lengths up to 5e-7 off, which its stiff
      // leg turned into 2e-4 in the velocities, and let its homotopy find other lengths.)
      if (vo.steps_per_stage == 1 && so.discretization.fesd &&
          so.discretization.step_equilibration == discretize::StepEquilibration::HeuristicMean &&
          r.element_length.size() == N * per) {
        std::vector<double> lengths;
        for (std::size_t i = k * per; i < next * per; ++i) lengths.push_back(r.element_length[i] / factor);
        const double h0 = segment_length / static_cast<double>(lengths.size()), gamma = so.discretization.step_bounds;
        for (double& h : lengths) h = std::clamp(h, (1.0 - gamma) * h0, (1.0 + gamma) * h0);
        so.step_nominal_lengths = {lengths};
        so.fix_nominal_lengths = true;
      }
      // Each step starts from its own guess, not from a phase-1 solution, so its homotopy runs
      // with the integrator's defaults (σ0 = 1, no penalty finish) whatever the OCP's homotopy was
      // tuned to after its phase 1 (the hopper's σ0 = 5e-4); the linear solver and IPOPT options
      // carry over, and so does an iteration limit above the integrator's 500 per NLP (session
      // 29's one-hole hopper solution: its stance step from rest, pulled to the OCP's lengths,
      // does not converge with 500 iterations per NLP; with the OCP's 3000 it does).
      so.homotopy = mpcc::HomotopyOptions{};
      so.homotopy.linear_solver = options.homotopy.linear_solver;
      so.homotopy.ipopt = options.homotopy.ipopt;
      so.homotopy.print_level = options.homotopy.print_level;
      so.homotopy.max_iter = std::max(so.homotopy.max_iter, options.homotopy.max_iter);
      // Active-set polishing near the tolerance (within 100·complementarity_tol, where the branch
      // is settled): a step whose residual sits at σ (relaxed pairs held at G·H = σ by the step
      // penalty) reaches 1.002e-9 at σ = 1e-9 and its σ = 1e-10 NLP ends infeasible; the OCP's own
      // stage has 0.9997e-9 (the time-optimal bounce's stage 2, whose jump touches the stage
      // end: polished, the step converges and ends within 1e-8 of the OCP's). With one step per
      // stage only: finer steps solve other equations (with 4 per stage the bounce's stage-2 step 4
      // then ended at its iteration limit, final deviation 0.066 instead of 0.0084).
      so.homotopy.polish = vo.steps_per_stage == 1;
      so.homotopy.polish_threshold = 100 * so.homotopy.complementarity_tol;
      so.speed_of_time_lower = spec.speed_of_time_lower * factor;
      so.speed_of_time_upper = spec.speed_of_time_upper * factor;
      so.speed_of_time_start = std::clamp(1.0, so.speed_of_time_lower, so.speed_of_time_upper);
      // As `stasis simulate` would: the OCP's α regularization (io: time_freezing.alpha_regularization)
      // is a method term of the optimization, not part of the model, so so.alpha_penalty stays 0.
      // A stage whose end a jump touches and that is not joined with the next (the last stage,
      // join_stages_at_jumps off, or a next stage of another physical length): the step has a
      // continuum of solutions (above). Its speed of time is then pulled towards the OCP's (sim::Options::step_speed_of_time),
      // which selects the OCP's split and changes no equation (one step per stage: the OCP's
      // s_k is the step's). (Fixing s and freeing the clock
      // instead was tried: the relaxed jump then leaks, the clock runs ~sqrt(σ) in it, and the
      // drop's stage ended 1e-4 from the OCP's.)
      const std::size_t end_point = next * per;
      const bool ocp_speed = on_ocp_grid && next == k + 1 && end_point < r.states.size() && jump_at(end_point);
      if (ocp_speed) {
        so.step_speed_of_time = {
            std::clamp(r.speed_of_time[k] * factor, so.speed_of_time_lower, so.speed_of_time_upper)};
        v.stages_at_ocp_speed_of_time.push_back(static_cast<int>(k));
      }
      sim::check_steps_hold_jumps(model, so);
      steps += vo.steps_per_stage;
      sim::Integrator integrator(dcs, so);
      // Against the OCP's state at the segment's end (the element boundary, in numerical time:
      // also where the end falls inside a jump, a state the physical trajectory does not list).
      auto deviation_at_end = [&](const std::vector<double>& y_end) {
        return end_point < r.states.size()
                   ? max_abs_difference(without_clock(y_end, clock), without_clock(r.states[end_point], clock))
                   : std::numeric_limits<double>::infinity();
      };
      // ValidationOptions::step_residual_tolerance: a step stopped just above its tolerance counts.
      const double step_tol = so.homotopy.complementarity_tol * (1 + std::numeric_limits<double>::epsilon());
      auto run = [&](sim::Integrator& in, const std::vector<double>& from, const sim::StepGuess* guess = nullptr) {
        sim::Result x = guess != nullptr ? in.simulate(from, *guess) : in.simulate(from);
        if (!x.converged && x.max_residual > step_tol && x.max_residual <= vo.step_residual_tolerance)
          x.converged = true;
        return x;
      };
      // ValidationOptions::reproduction_tolerance, relative to the OCP's state at the segment end.
      const double end_limit = end_point < r.states.size()
                                   ? reproduction_limit(vo.reproduction_tolerance, without_clock(r.states[end_point], clock))
                                   : vo.reproduction_tolerance;
      sim::Result s = run(integrator, y);
      double d = deviation_at_end(s.states.back());
      auto reproduced = [&] { return s.converged && d <= end_limit; };
      // The model's other form (ValidationOptions::alternative_model) from the same start; its
      // integrator is built once per segment, when first needed.
      std::optional<sim::Integrator> alternative;
      auto try_alternative = [&](const std::vector<double>& from) {
        if (!alternative_dcs) return false;
        if (!alternative) alternative.emplace(*alternative_dcs, so);
        sim::Result sa = run(*alternative, from);
        const double da = deviation_at_end(sa.states.back());
        if (!(sa.converged && da <= end_limit)) return false;
        s = std::move(sa);
        d = da;
        return true;
      };
      bool by_alternative = !reproduced() && try_alternative(y);
      // A start within reproduction_tolerance of the OCP's own stage start is the same state to
      // the accuracy of both solutions (the OCP's continuity rows hold to IPOPT's tolerance), but
      // a step that starts a hair off a switching surface (a normal velocity of 1e-9 in stance)
      // must resolve a jump of that size at its very start, which its homotopy may not: then the
      // step is tried again from the OCP's stage start (Validation::stages_resynchronized).
      const std::vector<double>& ocp_start = r.states[k * per];
      if (!reproduced() && y != ocp_start &&
          max_abs_difference(without_clock(y, clock), without_clock(ocp_start, clock)) <=
              reproduction_limit(vo.reproduction_tolerance, without_clock(ocp_start, clock))) {
        sim::Result again = run(integrator, ocp_start);
        const double d_again = deviation_at_end(again.states.back());
        bool resynchronized = false;
        if (again.converged && d_again <= end_limit) {
          s = std::move(again);
          d = d_again;
          resynchronized = true;
          by_alternative = false;
        } else if (try_alternative(ocp_start)) {
          resynchronized = by_alternative = true;
        }
        if (resynchronized) v.stages_resynchronized.push_back(static_cast<int>(k));
      }
      if (by_alternative) v.stages_by_alternative_form.push_back(static_cast<int>(k));
      // A joined step that did not reproduce the OCP's segment (not converged, or converged,
      // perhaps within step_residual_tolerance, to another motion): its first stage again alone
      // (pulled towards the OCP's speed of time), as without joining, so that joining never loses
      // a stage that its own step reproduces, and the check of the OCP's motion below (one stage
      // per step only) still applies to it.
      if (joined > 1 && !reproduced()) {
        v.stages_joined_across_jumps.pop_back();
        v.stages_joined_step_failed.push_back(static_cast<int>(k));
        v.stages_resynchronized.resize(resynchronized_before);
        v.stages_by_alternative_form.resize(alternative_before);
        steps -= vo.steps_per_stage;
        stage_start = previous_stage_end;
        alone = k;
        report_segment(k, next, s.converged, d, s.max_residual,
                       "joined at a jump; stage " + std::to_string(k) + " again alone", segment_start);
        continue;
      }
      // An open-loop step can have several discrete solutions (a robot balanced on a point foot
      // may stay, tip over or lift off; a bounce on a stage end), and the integrator's own
      // guesses may find another one than the OCP's, or none. With one step per stage (the same
      // discrete equations as the OCP's stage), the OCP's own motion in the stage, from the
      // re-simulated state, is then used twice.
      // (1) As the step's initial guess (sim::StepGuess, from σ0 = kOcpGuessSigma0): the step
      // solved to the integrator's own tolerance. On a landing the step's equations on the OCP's
      // fixed lengths are nearly degenerate, and the integrator's own guesses find other
      // solutions or end infeasible (the three-hole hopper's landing stages; the 20-stage bounce's
      // stages 11-12, where from the OCP's motion σ = 1e-3 .. 1e-8 solve in 7 iterations each). A
      // step that converges from there within reproduction_tolerance of the OCP's stage end is an
      // integrator solution of the open-loop step next to the OCP's: the stage is reproduced
      // (Validation::stages_from_ocp_guess).
      // (2) Otherwise it is checked against the step's equations: if it satisfies them (rows,
      // bounds and pair signs to constraint_tolerance, complementarity to the OCP's tolerance), it
      // is a solution of the step as well, and the re-simulation goes on from its end, so that
      // the later stages are still compared. Such stages are reported and fail the verdict
      // (Validation::stages_from_ocp).
      const bool with_ocp_motion = vo.transcription != nullptr && next == k + 1 && vo.steps_per_stage == 1 &&
                                   r.w.size() == vo.transcription->problem.n_variables();
      // The OCP's motion in stage k as a point of the step's MPCC, from the re-simulated start
      // (built once, for (1) and (2)).
      std::vector<double> ocp_motion;
      if (!reproduced() && with_ocp_motion) {
        const discretize::Transcription& step = integrator.transcription();
        ocp_motion = step.problem.start();
        discretize::transfer_stage(*vo.transcription, r.w, k, step, ocp_motion, 1.0 / factor);
        std::copy(y.begin(), y.end(), ocp_motion.begin() + step.map.x0);
        const sim::StepGuess guess{ocp_motion, kOcpGuessSigma0};
        sim::Result g = run(integrator, y, &guess);
        const double dg = deviation_at_end(g.states.back());
        if (g.converged && dg <= end_limit) {
          s = std::move(g);
          d = dg;
          v.stages_from_ocp_guess.push_back(static_cast<int>(k));
        }
      }
      if (!reproduced() && with_ocp_motion) {
        const discretize::Transcription& step = integrator.transcription();
        const std::vector<double>& w = ocp_motion;
        const auto x0 = static_cast<std::size_t>(step.map.x0);
        // The step's x0 bounds are the integrator's construction-time values (it fixes them to
        // the current state when it steps), so they are not part of this check: of the n_x + 1
        // largest violations, the largest one that is not an x0 bound.
        const auto x0_names = step.problem.variable_names.begin() + static_cast<std::ptrdiff_t>(x0);
        auto is_x0_bound = [&](const mpcc::ViolationValue& vv) {
          return vv.block == "variables" &&
                 std::find(x0_names, x0_names + static_cast<std::ptrdiff_t>(y.size()), vv.what) !=
                     x0_names + static_cast<std::ptrdiff_t>(y.size());
        };
        double worst_row = 0.0;
        for (const mpcc::ViolationValue& vv : step.problem.largest_violations(w, y.size() + 1))
          if (!is_x0_bound(vv)) worst_row = std::max(worst_row, vv.violation());
        const double residual = step.problem.complementarity_residual(w);
        if (worst_row <= vo.constraint_tolerance &&
            residual <= options.homotopy.complementarity_tol * (1 + std::numeric_limits<double>::epsilon())) {
          Validation::StageMismatch m;
          m.stage = static_cast<int>(k);
          m.integrator_converged = s.converged;
          if (s.converged) {
            m.integrator_deviation = d;
            m.integrator_element_lengths = s.element_length;
          }
          for (const discretize::FiniteElementIndex& fe : step.map.fe[0])
            m.ocp_element_lengths.push_back(fe.h >= 0 ? w[static_cast<std::size_t>(fe.h)]
                                                      : std::numeric_limits<double>::quiet_NaN());
          v.not_reproduced.push_back(std::move(m));
          const auto end = static_cast<std::size_t>(step.map.fe[0].back().x_end);
          s.converged = true;
          s.states.back().assign(w.begin() + static_cast<std::ptrdiff_t>(end),
                                 w.begin() + static_cast<std::ptrdiff_t>(end + y.size()));
          d = deviation_at_end(s.states.back());
          v.stages_from_ocp.push_back(static_cast<int>(k));
          v.ocp_stage_violation = std::max(v.ocp_stage_violation, worst_row);
        }
      }
      if (s.converged && s.max_residual > step_tol && v.stages_from_ocp.size() == from_ocp_before)
        v.stages_above_step_tolerance.push_back(static_cast<int>(k));
      if (!s.converged) {
        v.simulation_converged = false;
        if (first_failure.empty()) first_failure = "stage " + std::to_string(k) + ": " + s.message;
      }
      y = s.states.back();
      if (std::isfinite(d)) {
        v.stage_end_deviation[next - 1] = d;
        v.max_deviation_at_stage_ends =
            std::isnan(v.max_deviation_at_stage_ends) ? d : std::max(v.max_deviation_at_stage_ends, d);
        ++compared;
      }
      if (vo.on_segment) {
        const bool from_ocp = v.stages_from_ocp.size() > from_ocp_before;  // report the integrator's own step
        std::vector<std::string> how;
        if (joined > 1) how.push_back("joined at a jump");
        if (ocp_speed) how.push_back("pulled towards the OCP's speed of time");
        if (v.stages_by_alternative_form.size() > alternative_before) how.push_back("by the model's other form");
        if (v.stages_resynchronized.size() > resynchronized_before) how.push_back("from the OCP's stage start");
        if (v.stages_from_ocp_guess.size() > from_ocp_guess_before) how.push_back("from the OCP's motion as its guess");
        if (from_ocp)
          how.push_back("not reproduced, the OCP's motion solves the step and the re-simulation goes on from it");
        std::string text;
        for (const std::string& h : how) text += (text.empty() ? "" : "; ") + h;
        report_segment(k, next, from_ocp ? v.not_reproduced.back().integrator_converged : s.converged,
                       from_ocp ? v.not_reproduced.back().integrator_deviation : d, s.max_residual, text,
                       segment_start);
      }
      k = next;
    }
    v.resimulated = true;
    v.steps = steps;
    v.simulated_final_state = without_clock(y, clock);
    v.final_state_deviation = max_abs_difference(v.simulated_final_state, p.trajectory.states.back());
    v.message = "re-simulated " + std::to_string(v.steps) + " integrator steps over the OCP's control stages (" +
                (v.simulation_converged ? std::string("all converged") : "not all converged; " + first_failure) +
                "): final state deviation " + num(v.final_state_deviation) + ", max deviation at stage ends " +
                num(v.max_deviation_at_stage_ends) +
                " (" + std::to_string(compared) + " segments compared)" +
                stages_phrase(v.stages_by_alternative_form, " reproduced by the model's other form (lifted or dense)") +
                stages_phrase(v.stages_at_ocp_speed_of_time,
                              " (a jump at the stage end) pulled towards the OCP's speed of time") +
                stages_phrase(v.stages_joined_across_jumps,
                              " (a jump at the stage end) re-simulated in one step with the stage after") +
                stages_phrase(v.stages_joined_step_failed,
                              ": the step joined with the stage after did not reproduce the OCP's, re-simulated alone") +
                stages_phrase(v.stages_above_step_tolerance,
                              ": the step stopped above its complementarity tolerance, within " +
                                  num(vo.step_residual_tolerance) + " (taken as converged)") +
                stages_phrase(v.stages_resynchronized, " reproduced from the OCP's stage start (the re-simulated one within " +
                                                           num(vo.reproduction_tolerance) + " relative)") +
                stages_phrase(v.stages_from_ocp_guess,
                              ": the integrator's own guesses found another solution or none; reproduced from the "
                              "OCP's motion as the step's initial guess") +
                stages_phrase(v.stages_from_ocp,
                              ": the integrator found another solution or none, the OCP's motion solves the step (to " +
                                  num(v.ocp_stage_violation) + ")" + mismatch_summary(v.not_reproduced)) +
                checks;
  } catch (const std::exception& e) {
    v.resimulated = false;
    v.message = std::string("not re-simulated: ") + e.what() + checks;
  }
  // Stages that hold an impact or a sliding contact phase in a Painlevé configuration (sim::
  // recover_physical): the rigid contact problem has no unique solution there, which explains an
  // integrator that finds another motion than the OCP's (it does not change the verdict).
  // An impact on a stage end touches both stages (its jump may go on in the next one; the clock
  // agrees to the solver's tolerance, hence the margin).
  const double margin = 1e-6 * std::max(1.0, std::fabs(p.final_time));
  for (std::size_t k = 0; k < p.control_time.size() && k < p.stage_end_time.size(); ++k) {
    const double start = p.control_time[k], end = p.stage_end_time[k];
    bool painleve = false;
    for (const sim::Impact& imp : p.trajectory.impacts)
      painleve = painleve ||
                 (!imp.painleve_contacts.empty() && imp.time >= start - margin && imp.time <= end + margin);
    for (double t : p.trajectory.painleve_sliding_time) painleve = painleve || (t >= start && t < end);
    if (painleve) v.stages_painleve.push_back(static_cast<int>(k));
  }
  v.message += stages_phrase(v.stages_painleve, " hold impacts or sliding in Painlevé configurations (no unique "
                                                "solution of the rigid contact problem)");
  // The verdict (ValidationOptions' tolerances).
  if (!v.resimulated)
    v.failures.push_back("not re-simulated");
  else if (!v.simulation_converged)
    v.failures.push_back("a re-simulation step did not converge");
  // A stage the integrator does not reproduce by itself is not validated by the OCP's motion
  // solving the step too (that shows that the open-loop step has several solutions there, and
  // lets the later stages be checked), so it fails the verdict.
  if (!v.stages_from_ocp.empty())
    v.failures.push_back("stage(s) " + stage_list(v.stages_from_ocp) +
                         " not reproduced by the integrator (the OCP's motion solves the step too)");
  if (v.resimulated && !(v.final_state_deviation <= vo.deviation_tolerance))
    v.failures.push_back("final state deviation " + num(v.final_state_deviation) + " > " + num(vo.deviation_tolerance));
  v.gap_tolerance = vo.gap_tolerance;
  v.constraint_tolerance = vo.constraint_tolerance;
  v.deviation_tolerance = vo.deviation_tolerance;
  if (v.max_gap_violation > vo.gap_tolerance)
    v.failures.push_back("gap violation " + num(v.max_gap_violation) + " > " + num(vo.gap_tolerance));
  if (v.max_path_violation > vo.constraint_tolerance)
    v.failures.push_back("path violation " + num(v.max_path_violation) + " > " + num(vo.constraint_tolerance) + " (" +
                         v.path_violation_where + ")");
  if (v.max_path_violation_between_points > vo.constraint_tolerance)
    v.failures.push_back("path violation between points " + num(v.max_path_violation_between_points) + " > " +
                         num(vo.constraint_tolerance) + " (" + v.path_violation_between_where + ")");
  v.passed = v.failures.empty();
  v.wall_time_s = std::chrono::duration<double>(Clock::now() - t_start).count();
  return v;
}

}  // namespace stasis::ocp
