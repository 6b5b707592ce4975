// OCP solver: transcription, homotopy, and unpacking the solution into a trajectory.
#include "stasis/ocp/solver.hpp"

#include <chrono>
#include <cmath>

#include "stasis/error.hpp"
#include "stasis/ocp/time_frozen.hpp"

namespace stasis::ocp {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

// The smoothed phase 1 (InitializationOptions::Smoothed): its own transcription and homotopy.
struct Phase1 {
  discretize::Transcription tr;
  std::unique_ptr<mpcc::Homotopy> homotopy;
  std::vector<double> nominal;
};

struct Solver::Impl {
  discretize::Transcription tr;
  std::unique_ptr<mpcc::Homotopy> homotopy;
  std::unique_ptr<sim::ModeMonitor> modes;
  std::vector<double> nominal;
  std::unique_ptr<Phase1> phase1;
  double construction_time = 0.0;
};

namespace {

// The relaxed NLP's start point without the method's extra variables (elastic variables).
std::vector<double> nominal_start(mpcc::Homotopy& h, std::size_t n_variables) {
  const auto& full = h.relaxed().start();
  return {full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n_variables)};
}

// Phase 1, without the omitted path constraints, σ from sigma0 to sigma_final, no polishing:
// standard time stepping with G·H = σ (Smoothed) or the homotopy's own transcription and relaxation
// (Relaxed).
std::unique_ptr<Phase1> make_phase1(const reformulate::Dcs& dcs, const discretize::OcpSpec& spec,
                                    const Options& options) {
  const InitializationOptions& init = options.initialization;
  init.validate();
  const bool smoothed = init.method == InitializationOptions::Method::Smoothed;
  auto p = std::make_unique<Phase1>();
  discretize::Options disc = options.discretization;
  if (smoothed) disc.fesd = false;
  discretize::OcpSpec phase1_spec = spec;
  if (!init.omit_path_constraints.empty()) {
    std::vector<bool> omit(spec.path.size(), false);
    for (int i : init.omit_path_constraints) {
      if (i < 0 || static_cast<std::size_t>(i) >= spec.path.size())
        throw Error("initialization option 'omit_path_constraints': position " + std::to_string(i) +
                    " is not a path constraint (there are " + std::to_string(spec.path.size()) + ", from 0)");
      omit[static_cast<std::size_t>(i)] = true;
    }
    phase1_spec.path.clear();
    phase1_spec.path_lower.clear();
    phase1_spec.path_upper.clear();
    phase1_spec.path_names.clear();
    phase1_spec.path_at.clear();
    for (std::size_t i = 0; i < spec.path.size(); ++i) {
      if (omit[i]) continue;
      phase1_spec.path.push_back(spec.path[i]);
      phase1_spec.path_lower.push_back(spec.path_lower[i]);
      phase1_spec.path_upper.push_back(spec.path_upper[i]);
      if (i < spec.path_names.size()) phase1_spec.path_names.push_back(spec.path_names[i]);
      if (i < spec.path_at.size()) phase1_spec.path_at.push_back(spec.path_at[i]);
    }
  }
  p->tr = discretize::transcribe(dcs, phase1_spec, disc);
  mpcc::HomotopyOptions h = options.homotopy;
  if (smoothed) {
    h.relaxation = mpcc::Relaxation::ScholtesEq;
    h.steering = mpcc::Steering::Direct;
  } else if (init.relaxation) {
    h.relaxation = *init.relaxation;
  }
  h.update = mpcc::SigmaUpdate::Linear;
  h.sigma0 = init.sigma0;
  h.kappa = init.kappa;
  h.sigma_final = init.sigma_final;
  // With G·H = σ the residual is σ (with G·H <= σ at most σ): stop once σ has reached sigma_final
  // (the margin absorbs rounding of the σ sequence).
  h.complementarity_tol = 1.5 * init.sigma_final;
  h.max_steps = 0;
  h.polish = false;
  // Far from a solution the previous multipliers can lead elsewhere (E2, hopper session 29): only
  // when asked for (InitializationOptions::warm_first_iter).
  h.warm_first_iter = init.warm_first_iter;
  if (init.max_iter > 0) h.max_iter = init.max_iter;
  if (init.tol > 0.0) h.tol = init.tol;
  h.validate();
  p->homotopy = std::make_unique<mpcc::Homotopy>(p->tr.problem, h);
  p->nominal = nominal_start(*p->homotopy, p->tr.problem.n_variables());
  return p;
}

// Fixes the entries of x0 that are not free in `h`'s relaxed NLP and sets them in w.
void fix_initial_state(mpcc::Homotopy& h, mpcc::Index x0_index, const std::vector<double>& x0,
                       const discretize::OcpSpec& spec, std::vector<double>& w) {
  nlp::Problem& nlp = h.relaxed();
  const auto base = static_cast<std::size_t>(x0_index);
  for (std::size_t i = 0; i < x0.size(); ++i) {
    const bool is_free = !spec.x0_free.empty() && spec.x0_free[i];
    if (!is_free) nlp.variable_lower()[base + i] = nlp.variable_upper()[base + i] = x0[i];
    w[base + i] = x0[i];
  }
}

}  // namespace

Solver::Solver(const reformulate::Dcs& dcs, const discretize::OcpSpec& spec, const Options& options)
    : dcs_(dcs), spec_(spec), options_(options), impl_(std::make_unique<Impl>()) {
  auto t0 = Clock::now();
  if (spec_.clock >= 0) check_speed_of_time(spec_);
  impl_->tr = discretize::transcribe(dcs_, spec_, options_.discretization);
  impl_->homotopy = std::make_unique<mpcc::Homotopy>(impl_->tr.problem, options_.homotopy);
  impl_->nominal = nominal_start(*impl_->homotopy, impl_->tr.problem.n_variables());
  const InitializationOptions::Method method = options_.initialization.method;
  if (method == InitializationOptions::Method::Smoothed || method == InitializationOptions::Method::Relaxed)
    impl_->phase1 = make_phase1(dcs_, spec_, options_);
  impl_->modes = std::make_unique<sim::ModeMonitor>(dcs_);
  impl_->construction_time = std::chrono::duration<double>(Clock::now() - t0).count();
}

Solver::~Solver() = default;
const discretize::Transcription& Solver::transcription() const { return impl_->tr; }
mpcc::Homotopy& Solver::homotopy() { return *impl_->homotopy; }
const std::vector<double>& Solver::nominal_point() const { return impl_->nominal; }

Result Solver::solve() { return solve_initialized(impl_->nominal, nullptr); }

Result Solver::solve(const std::vector<double>& x0) {
  if (x0.size() != dcs_.n_x())
    throw Error("ocp: x0 has " + std::to_string(x0.size()) + " entries, the model has " +
                std::to_string(dcs_.n_x()) + " states");
  std::vector<double> w = impl_->nominal;
  fix_initial_state(*impl_->homotopy, impl_->tr.map.x0, x0, spec_, w);
  return solve_initialized(std::move(w), &x0);
}

Result Solver::solve_initialized(std::vector<double> w0, const std::vector<double>* x0) {
  if (options_.initialization.method == InitializationOptions::Method::Repeat)
    throw Error("ocp: initialization method 'repeat' starts from a shorter problem's solution: call "
                "solve_repeating(cut) with a Solver of that problem (stasis solve reads initialization.problem)");
  if (!impl_->phase1) return solve_from(w0);
  auto t0 = Clock::now();
  Phase1& p = *impl_->phase1;
  std::vector<double> w1 = p.nominal;
  if (x0) fix_initial_state(*p.homotopy, p.tr.map.x0, *x0, spec_, w1);
  p.homotopy->on_step = [this](const mpcc::StepStats& s) {
    if (!on_step) return;
    mpcc::StepStats flagged = s;
    flagged.initialization = true;
    on_step(flagged);
  };
  p.homotopy->on_checkpoint = [this, &p, &w0](const mpcc::StepStats& s, const std::vector<double>& w,
                                              const nlp::Multipliers&) {
    if (!on_checkpoint) return;
    mpcc::StepStats flagged = s;
    flagged.initialization = true;
    std::vector<double> w_main = w0;
    discretize::transfer_solution(p.tr, w, impl_->tr, w_main);
    on_checkpoint(flagged, w_main, nlp::Multipliers{});
  };
  mpcc::Result first = p.homotopy->solve(w1);
  p.homotopy->on_checkpoint = nullptr;  // it refers to this call's w0
  for (auto& st : first.steps) st.initialization = true;
  // A phase 1 that did not reach sigma_final still leaves its last good iterate: a better start
  // than the nominal guess it began from.
  discretize::transfer_solution(p.tr, first.w, impl_->tr, w0);
  Result r = solve_from(w0);
  r.initialization = std::move(first);
  r.solve_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

Result Solver::solve_from(const std::vector<double>& w0) { return solve_from(w0, nullptr); }

Result Solver::solve_from(const std::vector<double>& w0, const nlp::Multipliers* duals0) {
  auto t0 = Clock::now();
  mpcc::Homotopy& h = *impl_->homotopy;
  h.on_step = on_step;
  h.on_checkpoint = on_checkpoint;
  Result r = unpack(h.solve(w0, h.options().sigma0, duals0));
  r.solve_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
  r.construction_time_s = impl_->construction_time;
  return r;
}

Result Solver::evaluate(const std::vector<double>& w) const {
  const mpcc::Problem& P = impl_->tr.problem;
  if (w.size() != P.n_variables())
    throw Error("evaluate: the point has " + std::to_string(w.size()) + " entries, the MPCC has " +
                std::to_string(P.n_variables()) + " variables");
  mpcc::Result m;
  m.w = w;
  m.objective = P.objective(w);
  m.residual = P.complementarity_residual(w);
  m.converged = false;
  m.message = "evaluated at a given point, not solved";
  Result r = unpack(std::move(m));
  r.construction_time_s = impl_->construction_time;
  return r;
}

Result Solver::unpack(mpcc::Result m) const {
  const discretize::Transcription& tr = impl_->tr;
  const discretize::IndexMap& map = tr.map;
  const std::size_t n_x = dcs_.n_x(), n_u = dcs_.n_u();
  const int N = spec_.stages, N_FE = options_.discretization.elements;
  Result r;
  r.converged = m.converged;
  r.message = m.message;
  r.objective = m.objective;
  r.residual = m.residual;
  r.w = m.w;
  const std::vector<double>& w = m.w;
  r.final_time = spec_.time_optimal ? w[static_cast<std::size_t>(map.final_time)] : spec_.horizon;
  const bool frozen = spec_.clock >= 0;
  if (frozen) {
    // Numerical time: the element lengths; without FESD h0 = T/(N·N_FE) with the numerical
    // horizon T, also when time-optimal (time_freezing.md §3.3).
    r.time.push_back(0.0);
    for (int k = 0; k < N; ++k)
      for (int n = 0; n < N_FE; ++n) {
        const discretize::FiniteElementIndex& I = map.fe[static_cast<std::size_t>(k)][static_cast<std::size_t>(n)];
        const double h = I.h >= 0 ? w[static_cast<std::size_t>(I.h)] : spec_.horizon / (N * N_FE);
        r.time.push_back(r.time.back() + h);
      }
  } else {
    r.time = discretize::time_grid(tr, w, spec_, options_.discretization);
  }
  for (std::size_t e = 0; e + 1 < r.time.size(); ++e) r.element_length.push_back(r.time[e + 1] - r.time[e]);
  for (mpcc::Index s : map.speed_of_time) r.speed_of_time.push_back(w[static_cast<std::size_t>(s)]);
  r.states.emplace_back(w.begin() + map.x0, w.begin() + map.x0 + static_cast<std::ptrdiff_t>(n_x));
  const bool integral = tr.representation == discretize::Representation::Integral;
  if (integral) r.collocation_nodes = discretize::collocation_matrices(tr.tableau.scheme, tr.tableau.stages).tau;
  sim::ModeMonitor& modes = *impl_->modes;
  std::size_t point = 0;
  for (int k = 0; k < N; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    r.control_time.push_back(frozen ? r.time[point] : k * r.final_time / N);
    std::vector<double> u(w.begin() + map.u[ku], w.begin() + map.u[ku] + static_cast<std::ptrdiff_t>(n_u));
    r.controls.push_back(u);
    for (int n = 0; n < N_FE; ++n) {
      const discretize::FiniteElementIndex& I = map.fe[ku][static_cast<std::size_t>(n)];
      std::vector<double> mean = modes.mean_theta(w, I.Z);
      std::vector<int> active = sim::ModeMonitor::active(mean);
      if (!r.active.empty() && r.active.back() != active)
        r.events.push_back(modes.event(r.time[point], r.states.back(), u, r.active.back(), active));
      r.active.push_back(active);
      r.theta.push_back(std::move(mean));
      r.states.emplace_back(w.begin() + I.x_end, w.begin() + I.x_end + static_cast<std::ptrdiff_t>(n_x));
      if (integral) {
        std::vector<std::vector<double>> X;
        for (mpcc::Index m : I.X) X.emplace_back(w.begin() + m, w.begin() + m + static_cast<std::ptrdiff_t>(n_x));
        r.stage_states.push_back(std::move(X));
      }
      ++point;
    }
  }
  r.homotopy = std::move(m);
  return r;
}

}  // namespace stasis::ocp
