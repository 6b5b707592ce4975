// Physical time, jumps, impulses and contact forces from a time-frozen trajectory.
#include "stasis/sim/physical.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "stasis/error.hpp"
#include "stasis/sym/derivatives.hpp"

namespace stasis::sim {

namespace {
std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

// A gap at most this large counts as closed when deciding whether a jump is under way
// (n_iᵀv < 0 at a closed gap is an impact; the FESD solution puts a landing on an element
// boundary to within the complementarity tolerance, far below it).
constexpr double kClosedGap = 1e-6;
// A normal velocity below −kClosingVelocity at a closed gap is a jump under way (the same
// threshold as the "normal velocity after the jump" sanity check).
constexpr double kClosingVelocity = 1e-6;

// The end of an inelastic jump that a finite element holds together with the running phase
// after it: the auxiliary fields of the contacts that close (gap closed, n_iᵀv < 0) are integrated
// with the clock frozen, as the time-frozen model does, until no contact closes. Friction uses the
// "pos"/"neg" field by the sign of c_t,i and, once c_t,i has reached 0, the Filippov combination
// of the two that keeps it there (the sliding mode on c_t,i = 0: a stick impact). The fields are
// constant while q is frozen (inelastic, planar or spatial friction with a fixed sliding
// direction), so the event-driven Euler steps below are exact for them; other cases are
// integrated in at least kMinSteps steps.
struct Completion {
  std::vector<double> y;
  double duration = 0.0;  ///< numerical time the auxiliary fields ran (speed of time 1)
  std::vector<int> contacts;
  bool ok = false;
  std::string failure;  ///< why it could not be completed (for the warning)
};

Completion complete_jump(const reformulate::TimeFrozenModel& m, const std::vector<double>& y0,
                         const std::vector<double>& u, const sym::Function& gap, const sym::Function& vn,
                         const sym::Function& tangential, const sym::Function& aux, const sym::Function& Dfun) {
  constexpr int kMinSteps = 64, kMaxSteps = 100000;
  const std::size_t n_c = m.gaps.size(), n_y = y0.size();
  Completion out;
  out.y = y0;
  std::vector<double> vn0 = vn({y0, u})[0], D = Dfun({y0, u})[0];
  // an estimate of the jump's length, to bound steps in fields that are not constant
  double tau_est = 0.0, v_scale = 1.0;
  for (std::size_t c = 0; c < n_c; ++c) {
    v_scale = std::max(v_scale, std::fabs(vn0[c]));
    if (vn0[c] < 0) tau_est = std::max(tau_est, -vn0[c] / (D[c] * m.normal_acceleration));
  }
  const double v_tol = 1e-12 * v_scale, max_step = tau_est / kMinSteps;
  std::vector<bool> involved(n_c, false), stick(n_c, false);
  auto& y = out.y;
  // weight[c]: the share of contact c's "pos" field (1 − weight[c] of "neg"); frictionless: 1
  std::vector<double> weight(n_c, 1.0);
  std::vector<double> field(n_y), probe(n_y);
  auto friction = [&](std::size_t c) { return c < m.friction.size() && m.friction[c] > 0.0; };
  for (int it = 0; it < kMaxSteps; ++it) {
    const std::vector<double> g = gap({y, u})[0], v = vn({y, u})[0], ct = tangential({y, u})[0];
    const std::vector<double> F = aux({y, u})[0];  // per contact: pos (n_y), neg (n_y)
    std::vector<std::size_t> closing;
    for (std::size_t c = 0; c < n_c; ++c)
      if (g[c] <= kClosedGap && v[c] < -v_tol) closing.push_back(c);
    if (closing.empty()) {
      out.ok = true;
      break;
    }
    auto build_field = [&] {
      std::fill(field.begin(), field.end(), 0.0);
      for (std::size_t c : closing) {
        const double* pos = F.data() + 2 * c * n_y;
        const double* neg = pos + n_y;
        for (std::size_t i = 0; i < n_y; ++i) field[i] += weight[c] * pos[i] + (1.0 - weight[c]) * neg[i];
      }
    };
    // (f(y + δ·field) − f(y))/δ: the rate of a function linear in v along the field (exact while
    // q does not move; with position stabilization q moves by δ·κ·gap, a negligible error)
    auto rate = [&](const sym::Function& fn, const std::vector<double>& at_y, double delta) {
      for (std::size_t i = 0; i < n_y; ++i) probe[i] = y[i] + delta * field[i];
      std::vector<double> r = fn({probe, u})[0];
      for (std::size_t c = 0; c < r.size(); ++c) r[c] = (r[c] - at_y[c]) / delta;
      return r;
    };
    auto probe_step = [&] {
      double fmax = 0.0;
      for (double f : field) fmax = std::max(fmax, std::fabs(f));
      return fmax > 0.0 ? std::min(1.0, max_step > 0 ? max_step : 1.0) / fmax : 0.0;
    };
    std::size_t sticking = 0;
    for (std::size_t c : closing) {
      involved[c] = true;
      if (!friction(c)) continue;
      if (std::fabs(ct[c]) <= 1e-12 * std::max(1.0, v_scale)) stick[c] = true;
      if (!stick[c]) weight[c] = ct[c] > 0 ? 1.0 : 0.0;
      if (stick[c]) ++sticking;
    }
    // A contact sticking on c_t,i = 0 takes the Filippov combination of its two fields that keeps
    // c_t,i there (the pure mean would not when the normal and tangential directions are coupled
    // through M⁻¹, as in a leg). One sticking contact: exact in one pass (the rates are linear in
    // its weight); several: a few Gauss-Seidel sweeps.
    for (int sweep = 0; sweep < (sticking > 1 ? 4 : 1); ++sweep)
      for (std::size_t c : closing) {
        if (!friction(c) || !stick[c]) continue;
        weight[c] = 1.0;
        build_field();
        const double delta = probe_step();
        const double rate_pos = delta > 0 ? rate(tangential, ct, delta)[c] : 0.0;
        weight[c] = 0.0;
        build_field();
        const double rate_neg = delta > 0 ? rate(tangential, ct, delta)[c] : 0.0;
        if (rate_pos > 0.0 && rate_neg > 0.0) {
          weight[c] = 1.0;  // friction cannot hold the contact: it slips toward c_t > 0
          stick[c] = false;
        } else if (rate_pos < 0.0 && rate_neg < 0.0) {
          weight[c] = 0.0;
          stick[c] = false;
        } else {
          weight[c] = rate_neg == rate_pos ? 0.5 : rate_neg / (rate_neg - rate_pos);
        }
      }
    build_field();
    const double delta = probe_step();
    if (!(delta > 0.0)) {
      out.failure = "the auxiliary fields vanish";
      return out;
    }
    // The step ends where the first normal velocity reaches 0 or a sliding contact's c_t,i does
    // (from there it sticks).
    const std::vector<double> v_rate = rate(vn, v, delta), ct_rate = rate(tangential, ct, delta);
    double step = max_step > 0 ? max_step : std::numeric_limits<double>::infinity();
    bool progress = false;
    std::size_t stops = n_c;  // the contact whose c_t,i ends the step
    for (std::size_t c : closing) {
      if (v_rate[c] > 0) {
        step = std::min(step, -v[c] / v_rate[c]);
        progress = true;
      }
      if (friction(c) && !stick[c] && ct[c] * ct_rate[c] < 0) {
        progress = true;
        if (-ct[c] / ct_rate[c] < step) {
          step = -ct[c] / ct_rate[c];
          stops = c;
        }
      }
    }
    if (!progress || !std::isfinite(step)) {
      out.failure = "the auxiliary fields do not raise the normal velocity of contact(s)";
      for (std::size_t c : closing) out.failure += " " + std::to_string(c) + " (nᵀv = " + num(v[c]) + ")";
      return out;
    }
    for (std::size_t i = 0; i < n_y; ++i) y[i] += step * field[i];
    out.duration += step;
    if (stops < n_c) stick[stops] = true;
  }
  if (!out.ok)
    out.failure = "no end after " + std::to_string(kMaxSteps) + " steps (numerical time " + num(out.duration) + ")";
  for (std::size_t c = 0; c < n_c; ++c)
    if (involved[c]) out.contacts.push_back(static_cast<int>(c));
  return out;
}
}  // namespace

void check_steps_hold_jumps(const reformulate::TimeFrozenModel& m, const Options& o) {
  if (!m.elastic || m.stiffness <= 0) return;
  const double step = o.horizon / o.steps / o.stages_per_step;  // one control stage
  double e = 1.0;
  for (double r : m.restitution) e = std::min(e, r);
  if (e <= 0) return;
  const double tau = reformulate::elastic_jump_duration(m.stiffness, e);
  if (o.speed_of_time_upper * step < step + tau)
    throw Error("time-freezing: a step of " + num(step) + " s cannot hold a whole jump: the spring phase lasts " +
                num(tau) + " (k = " + num(m.stiffness) + ", restitution " + num(e) +
                ") and needs a speed of time of at least " + num((step + tau) / step) + ", but its upper bound is " +
                num(o.speed_of_time_upper) + ". Raise time_freezing.speed_of_time.upper above " +
                num((step + tau) / step) + ", use fewer steps (longer steps), or a stiffer spring (τ_jump = sqrt((π² "
                "+ ln² e)/k))");
}

std::string diagnose_failed_step(const reformulate::TimeFrozenModel& m, const Options& o,
                                 const std::vector<double>& y) {
  if (m.elastic || m.normal_acceleration <= 0 || m.D.empty()) return "";
  std::vector<double> u(m.pss.n_u(), 0.0);
  std::vector<double> vn = sym::Function("vn", {m.pss.x, m.pss.u}, {m.normal_velocities})({y, u})[0];
  std::vector<double> D = sym::Function("D", {m.pss.x, m.pss.u}, {m.D})({y, u})[0];
  double tau = 0;
  for (std::size_t c = 0; c < vn.size(); ++c) tau = std::max(tau, -vn[c] / (D[c] * m.normal_acceleration));
  const double step = o.horizon / o.steps / o.stages_per_step;  // one control stage
  if (tau <= 0) return "";
  return "an impact at the current normal velocity would freeze the clock for about " + num(tau) +
         " (|nᵀv|/(D a_n)); the step needs a speed of time of about " + num((step + tau) / step) +
         " (upper bound " + num(o.speed_of_time_upper) +
         "). If that is close to or above the bound, raise time_freezing.speed_of_time.upper or "
         "time_freezing.normal_acceleration, or use more elements per step";
}

namespace {

// PhysicalTrajectory::liftoffs and flight_phases from the contact forces per running element.
void add_liftoffs_and_flights(PhysicalTrajectory& out) {
  const auto& force = out.contact_force;
  if (force.empty()) return;
  double largest = 0.0;
  for (const auto& f : force)
    for (double v : f) largest = std::max(largest, std::fabs(v));
  // Off contact the force is the complementarity residual's echo (a_n θ_aux / θ_ode, 1e-9 .. 1e-7),
  // and a contact that stays closed without load (a particle at rest against a frictionless wall,
  // time_freezing.md T11) carries the solver's drift, up to 4e-5 of a 10 N floor force.
  const double carries = 1e-3 * std::max(1.0, largest);
  auto on = [&](std::size_t e, std::size_t c) { return force[e][c] > carries; };
  auto any_on = [&](std::size_t e) {
    for (std::size_t c = 0; c < force[e].size(); ++c)
      if (on(e, c)) return true;
    return false;
  };
  auto impact_between = [&](double from, double to, std::size_t c) {
    for (const Impact& imp : out.impacts)
      if (imp.time >= from && imp.time <= to &&
          std::find(imp.contacts.begin(), imp.contacts.end(), static_cast<int>(c)) != imp.contacts.end())
        return true;
    return false;
  };
  for (std::size_t e = 1; e < force.size(); ++e)
    for (std::size_t c = 0; c < force[e].size(); ++c) {
      if (on(e - 1, c) && !on(e, c)) out.liftoffs.push_back({out.force_time[e], static_cast<int>(c)});
      if (!on(e - 1, c) && on(e, c) && !impact_between(out.force_time[e - 1], out.force_time[e], c))
        out.touchdowns.push_back({out.force_time[e], static_cast<int>(c)});
    }
  for (std::size_t e = 0; e < force.size();) {
    if (any_on(e)) {
      ++e;
      continue;
    }
    const std::size_t first = e;
    while (e < force.size() && !any_on(e)) ++e;
    const double start = out.force_time[first];
    double end = e < force.size() ? out.force_time[e] : out.time.back();
    // A flight ends at the impact that closes a contact (the element after a jump that ends
    // inside it has no force entry, so the next entry may start later).
    for (const Impact& imp : out.impacts)
      if (imp.time > start && imp.time < end) end = imp.time;
    if (end > start) out.flight_phases.emplace_back(start, end);
  }
}

}  // namespace

PhysicalTrajectory recover_physical(const reformulate::TimeFrozenModel& m, const Result& r,
                                    const std::vector<double>& controls) {
  NumericalTrajectory n;
  n.states = r.states;
  n.active = r.active;
  n.theta = r.theta;
  n.element_length = r.element_length;
  n.speed_of_time = r.speed_of_time;
  if (!controls.empty()) n.controls = {controls};
  return recover_physical(m, n);
}

PhysicalTrajectory recover_physical(const reformulate::TimeFrozenModel& m, const NumericalTrajectory& r) {
  const int clock = m.clock;
  if (clock < 0) throw Error("recover_physical: the model has no clock");
  if (r.states.empty()) throw Error("recover_physical: the trajectory has no points");
  const std::size_t n_y = m.pss.n_x();
  const std::vector<double> zeros(m.pss.n_u(), 0.0);
  // The step / stage of element e: the elements are split evenly among `groups` steps or stages.
  auto group_of = [&](std::size_t e, std::size_t groups) {
    const std::size_t elements = r.states.size() - 1;
    const std::size_t per = std::max<std::size_t>(1, elements / std::max<std::size_t>(1, groups));
    return std::min(e / per, groups - 1);
  };
  // The control at point i: that of the element ending there (point 0: the first element's).
  auto control_at = [&](std::size_t i) -> const std::vector<double>& {
    if (r.controls.empty()) return zeros;
    if (r.controls.size() == 1) return r.controls[0];
    return r.controls[group_of(i == 0 ? 0 : i - 1, r.controls.size())];
  };
  PhysicalTrajectory out;
  for (std::size_t i = 0; i < n_y; ++i)
    if (static_cast<int>(i) != clock) out.state_names.push_back(m.pss.state_names[i]);
  auto physical = [&](const std::vector<double>& y) {
    std::vector<double> x;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (static_cast<int>(i) != clock) x.push_back(y[i]);
    return x;
  };
  const std::size_t n_c = m.gaps.size();
  sym::Function gap("gaps", {m.pss.x, m.pss.u}, {m.gaps});
  sym::Function vn("normal_velocities", {m.pss.x, m.pss.u}, {m.normal_velocities});
  sym::Function Dfun;
  if (!m.D.empty()) Dfun = sym::Function("D", {m.pss.x, m.pss.u}, {m.D});
  auto eval = [&](const sym::Function& f, std::size_t i) { return f({r.states[i], control_at(i)})[0]; };

  const std::size_t P = r.states.size();
  double T_end = r.states.back()[static_cast<std::size_t>(clock)];
  const double eps = 1e-8 * std::max(1.0, std::fabs(T_end));
  out.frozen.resize(P - 1);
  for (std::size_t e = 0; e + 1 < P; ++e) {
    double dt = r.states[e + 1][static_cast<std::size_t>(clock)] - r.states[e][static_cast<std::size_t>(clock)];
    out.frozen[e] = dt <= eps;
    if (dt < -eps) out.warnings.push_back("the clock decreases by " + num(-dt) + " in element " + std::to_string(e));
  }
  const bool can_force = !m.elastic && m.normal_acceleration > 0 && !r.theta.empty();
  // Inelastic Cls: a jump may end inside an element that also holds the running phase after it
  // (the FESD solution is exact, but during the jump and a contact phase after it the gap is
  // exactly zero, so the gap's α is free and the two need not be separated by an element
  // boundary). Such an element starts where a contact closes (closed gap, n_iᵀv < 0: an impact
  // must happen there) and the clock runs in it slower than in free flight; its jump is completed
  // by integrating the auxiliary fields (complete_jump) from its start.
  const bool inelastic = !m.elastic && m.normal_acceleration > 0 && !m.auxiliary_fields.empty() && !m.D.empty();
  sym::Function tangential_fn, aux_fn;
  if (inelastic) {
    tangential_fn = sym::Function("tangential", {m.pss.x, m.pss.u}, {m.tangential});
    sym::Vector all;
    for (const auto& a : m.auxiliary_fields)
      for (const auto& f : a) all.insert(all.end(), f.begin(), f.end());
    aux_fn = sym::Function("auxiliary_fields", {m.pss.x, m.pss.u}, {all});
  }
  // Painlevé configurations (inelastic Cls with friction): the rate of each contact's normal
  // velocity under its two sliding auxiliary fields, a_n (D_i ∓ μ_i b_iᵀM⁻¹n_i). Where it is
  // negative for the field of the current sliding direction, friction alone drives the contact
  // into the surface during the jump (μ|bᵀM⁻¹n| > nᵀM⁻¹n) until it sticks: a tangential impact,
  // where the rigid contact problem has no unique solution.
  sym::Function sliding_rate_fn;
  bool any_friction = false;
  for (double mu : m.friction) any_friction = any_friction || mu > 0;
  if (inelastic && any_friction && m.auxiliary_fields.size() == n_c && m.friction_dimensions.size() == n_c &&
      m.n_q > 0) {
    sym::Vector rates;
    for (std::size_t c = 0; c < n_c; ++c) {
      // Velocity rows only: the positions stand still in a jump (a stabilize_positions term there
      // pulls the gap, it does not push the velocity).
      const sym::Vector grad = sym::gradient(m.normal_velocities[c], m.pss.x);
      for (const sym::Vector& field : m.auxiliary_fields[c]) {
        sym::Expr rate(0.0);
        for (std::size_t i = m.n_q; i < 2 * m.n_q && i < grad.size() && i < field.size(); ++i)
          rate = rate + grad[i] * field[i];
        rates.push_back(rate);
      }
    }
    sliding_rate_fn = sym::Function("sliding_normal_rates", {m.pss.x, m.pss.u}, {rates});
  }
  // The auxiliary field a contact slides under at a state (0: "pos", 1: "neg"), or -1 where it
  // sticks or has no friction: planar by the sign of v_t, spatial while ‖v_t‖ > ε_t.
  auto sliding_field = [&](std::size_t c, double c_t) {
    if (c >= m.friction.size() || !(m.friction[c] > 0) || !(std::fabs(c_t) > 1e-3)) return -1;
    if (m.friction_dimensions[c] == 2) return c_t > 0 ? 0 : -1;
    return c_t > 0 ? 0 : 1;
  };
  // μ|bᵀM⁻¹n| / nᵀM⁻¹n of contact c where it slides in a Painlevé configuration (its normal
  // velocity decreases under the field of its sliding direction), else 0; vt, rates and D_c at
  // the state (eval of tangential_fn, sliding_rate_fn, Dfun).
  auto painleve_ratio_of = [&](std::size_t c, const std::vector<double>& vt, const std::vector<double>& rates,
                               double D_c) {
    const int field = sliding_field(c, vt[c]);
    if (field < 0) return 0.0;
    const double rate = rates[2 * c + static_cast<std::size_t>(field)], scale = m.normal_acceleration * D_c;
    return scale > 0 && rate < -1e-9 * scale ? 1.0 - rate / scale : 0.0;
  };
  auto closing = [&](std::size_t i) {
    if (!inelastic) return false;
    const std::vector<double> g = eval(gap, i), v = eval(vn, i);
    for (std::size_t c = 0; c < n_c; ++c)
      if (g[c] <= kClosedGap && v[c] < -kClosingVelocity) return true;
    return false;
  };
  // The clock runs in element e slower than in free flight (t' = s θ_ode < s): some of the
  // element is frozen or in a contact phase.
  auto slowed = [&](std::size_t e) {
    if (e >= r.element_length.size()) return false;
    const double s = r.speed_of_time.empty() ? 1.0 : r.speed_of_time[group_of(e, r.speed_of_time.size())];
    const double tau = s * r.element_length[e];
    const double dt = r.states[e + 1][static_cast<std::size_t>(clock)] - r.states[e][static_cast<std::size_t>(clock)];
    return dt < (1.0 - 1e-6) * tau;
  };
  // Element e belongs to a jump: frozen, or it starts with a contact closing and is slowed.
  auto in_jump = [&](std::size_t e) { return out.frozen[e] || (closing(e) && slowed(e)); };
  auto add_point = [&](std::size_t i) {
    out.time.push_back(r.states[i][static_cast<std::size_t>(clock)]);
    out.states.push_back(physical(r.states[i]));
    out.point.push_back(i);
    std::vector<double> g = eval(gap, i);
    for (std::size_t c = 0; c < n_c; ++c)
      if (g[c] < -1e-6 - m.contact_depth)
        out.warnings.push_back("contact " + std::to_string(c) + ": gap " + num(g[c]) + " < 0 at physical time " +
                               num(out.time.back()));
  };
  add_point(0);
  // Contact phases sliding in Painlevé configurations: per contact, the elements and the largest
  // ratio μ|bᵀM⁻¹n| / nᵀM⁻¹n, summed up in one warning each.
  std::vector<int> painleve_elements(n_c, 0);
  std::vector<double> painleve_ratio(n_c, 0.0), painleve_first(n_c, 0.0), painleve_last(n_c, 0.0);
  std::size_t e = 0;
  while (e + 1 < P) {
    if (!in_jump(e)) {
      // The element's θ of the ODE region and, per contact, of its auxiliary fields (a contact
      // phase where positive).
      double theta_ode = 0;
      std::vector<double> aux(n_c, 0.0);
      if (e < r.theta.size())
        for (std::size_t j = 0; j < m.region_contacts.size() && j < r.theta[e].size(); ++j) {
          if (m.region_contacts[j].empty()) theta_ode += r.theta[e][j];
          for (int c : m.region_contacts[j]) aux[static_cast<std::size_t>(c)] += r.theta[e][j];
        }
      if (sliding_rate_fn.n_out() > 0 && e < r.theta.size()) {
        // A contact in a contact phase that slides at the element's start, under the field of
        // that direction.
        std::vector<double> vt, rates, Dv;
        bool recorded = false;
        for (std::size_t c = 0; c < n_c; ++c) {
          if (!(aux[c] > 1e-6) || !(c < m.friction.size() && m.friction[c] > 0)) continue;
          if (vt.empty()) {
            vt = eval(tangential_fn, e);
            rates = eval(sliding_rate_fn, e);
            Dv = eval(Dfun, e);
          }
          const double ratio = painleve_ratio_of(c, vt, rates, Dv[c]);
          if (!(ratio > 0)) continue;
          const double t_e = r.states[e][static_cast<std::size_t>(clock)];
          if (painleve_elements[c]++ == 0) painleve_first[c] = t_e;
          painleve_last[c] = t_e;
          painleve_ratio[c] = std::max(painleve_ratio[c], ratio);
          if (!recorded) out.painleve_sliding_time.push_back(t_e);
          recorded = true;
        }
      }
      if (can_force && e < r.theta.size()) {
        // λ_n,i = a_n θ_aux,i / θ_ode (time_freezing.md §2.7) — the force that keeps the contact.
        std::vector<double> force(n_c, 0.0);
        if (theta_ode > 0)
          for (std::size_t c = 0; c < n_c; ++c) force[c] = m.normal_acceleration * aux[c] / theta_ode;
        out.force_time.push_back(r.states[e][static_cast<std::size_t>(clock)]);
        out.contact_force.push_back(force);
      }
      add_point(e + 1);
      ++e;
      continue;
    }
    // A jump: the frozen run [e, f) (elements e..f-1, points e..f), and possibly element f, in
    // which the jump ends and the clock runs again (`mixed`).
    std::size_t f = e;
    std::vector<bool> involved(n_c, false);
    double duration = 0.0;
    bool mixed = false;
    while (f + 1 < P && in_jump(f)) {
      if (!out.frozen[f] && !closing(f + 1)) {
        mixed = true;
        break;
      }
      if (f < r.active.size())
        for (int j : r.active[f])
          if (static_cast<std::size_t>(j) < m.region_contacts.size())
            for (int c : m.region_contacts[static_cast<std::size_t>(j)]) involved[static_cast<std::size_t>(c)] = true;
      const double s = r.speed_of_time.empty() ? 1.0 : r.speed_of_time[group_of(f, r.speed_of_time.size())];
      // the numerical time in which the clock stood still (an element of a jump in which the
      // clock advanced by the solver's tolerance counts without that share)
      if (f < r.element_length.size())
        duration += std::max(0.0, s * r.element_length[f] - (r.states[f + 1][static_cast<std::size_t>(clock)] -
                                                              r.states[f][static_cast<std::size_t>(clock)]));
      ++f;
    }
    const std::vector<double>& yb = r.states[e];
    Completion completion;
    if (mixed) {
      completion = complete_jump(m, r.states[f], control_at(f), gap, vn, tangential_fn, aux_fn, Dfun);
      if (!completion.ok) {
        out.warnings.push_back("the jump at t = " + num(yb[static_cast<std::size_t>(clock)]) +
                               " ends inside element " + std::to_string(f) +
                               " and could not be completed from its start (" + completion.failure +
                               "); the state after it is that start");
        completion.y = r.states[f];
      }
      for (int c : completion.contacts) involved[static_cast<std::size_t>(c)] = true;
      duration += completion.duration;  // the auxiliary fields' own time (it does not depend on s)
    }
    const std::vector<double>& ya = mixed ? completion.y : r.states[f];
    // A jump changes the state by a physical amount; a frozen element in a sticking or sliding
    // phase moves it only by the solver's tolerance (~1e-8 with complementarity_tol 1e-9), which
    // must not be reported as a zero-impulse impact.
    bool changed = false;
    for (std::size_t i = 0; i < n_y; ++i)
      if (static_cast<int>(i) != clock && std::fabs(ya[i] - yb[i]) > 1e-6 * std::max(1.0, std::fabs(yb[i])))
        changed = true;
    if (changed) {
      Impact imp;
      imp.time = yb[static_cast<std::size_t>(clock)];
      imp.before = physical(yb);
      imp.after = physical(ya);
      imp.numerical_duration = duration;
      std::vector<double> vb = eval(vn, e), va = vn({ya, control_at(f)})[0];
      std::vector<double> D = m.D.empty() ? std::vector<double>(n_c, 1.0) : eval(Dfun, e);
      std::vector<double> vt, rates;
      if (sliding_rate_fn.n_out() > 0) {
        vt = eval(tangential_fn, e);
        rates = eval(sliding_rate_fn, e);
      }
      for (std::size_t c = 0; c < n_c; ++c) {
        if (!involved[c]) continue;
        imp.contacts.push_back(static_cast<int>(c));
        if (const double ratio = rates.empty() ? 0.0 : painleve_ratio_of(c, vt, rates, D[c]); ratio > 0) {
          imp.painleve_contacts.push_back(static_cast<int>(c));
          out.warnings.push_back("impact at t = " + num(imp.time) + ", contact " + std::to_string(c) +
                                 ": a Painlevé configuration: sliding at " + num(vt[c]) +
                                 ", friction drives the contact into the surface (μ|bᵀM⁻¹n| / nᵀM⁻¹n = " + num(ratio) +
                                 " > 1) until it sticks; the rigid contact problem has no unique solution there, and "
                                 "a re-simulation may find another one");
        }
        imp.impulse.push_back((va[c] - vb[c]) / D[c]);
        // §4.7 sanity checks after the jump
        if (!m.elastic && va[c] < -1e-6)
          out.warnings.push_back("impact at t = " + num(imp.time) + ", contact " + std::to_string(c) +
                                 ": normal velocity after the jump is " + num(va[c]) + " < 0");
        if (m.elastic && c < m.restitution.size() && std::isfinite(m.restitution[c]) && std::fabs(vb[c]) > 1e-9) {
          double e_real = -va[c] / vb[c];
          if (std::fabs(e_real - m.restitution[c]) > 1e-2 * std::max(1.0, m.restitution[c]))
            out.warnings.push_back("impact at t = " + num(imp.time) + ": realized restitution " + num(e_real) +
                                   " differs from " + num(m.restitution[c]));
        }
      }
      // Positions stand still during a jump, up to the pull toward stabilize_depth (at most that depth).
      if (!m.elastic && m.n_q > 0)
        for (std::size_t i = 0; i < m.n_q; ++i)
          if (std::fabs(ya[i] - yb[i]) > 1e-6 + m.contact_depth)
            out.warnings.push_back("impact at t = " + num(imp.time) + ": position " + m.pss.state_names[i] +
                                   " moved by " + num(ya[i] - yb[i]) + " while the clock was frozen");
      out.impacts.push_back(std::move(imp));
      // the state before is the last physical point already; the state after at the same time
      // (exactly: the frozen clock only agrees to the solver's tolerance)
      add_point(f);
      out.time.back() = out.impacts.back().time;
      if (mixed) out.states.back() = physical(ya);
    }  // else: frozen elements without any change (zero-length elements) add no point
    if (mixed) {
      // the rest of element f runs: its end is a physical point (no contact force: the element's
      // multipliers mix the impulse with the force of the running phase)
      add_point(f + 1);
      ++f;
    }
    e = f;
  }
  add_liftoffs_and_flights(out);
  for (std::size_t c = 0; c < n_c; ++c)
    if (painleve_elements[c] > 0)
      out.warnings.push_back("contact " + std::to_string(c) + " slides in a Painlevé configuration in " +
                             std::to_string(painleve_elements[c]) + " element(s) of contact phases between t = " +
                             num(painleve_first[c]) + " and " + num(painleve_last[c]) +
                             " (μ|bᵀM⁻¹n| / nᵀM⁻¹n up to " + num(painleve_ratio[c]) +
                             " > 1): friction there drives the contact into the surface; the rigid contact problem may "
                             "have several solutions or none, and a re-simulation may find another one");
  return out;
}

}  // namespace stasis::sim
