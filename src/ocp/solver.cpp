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

struct Solver::Impl {
  discretize::Transcription tr;
  std::unique_ptr<mpcc::Homotopy> homotopy;
  std::unique_ptr<sim::ModeMonitor> modes;
  std::vector<double> nominal;
  double construction_time = 0.0;
};

Solver::Solver(const reformulate::Dcs& dcs, const discretize::OcpSpec& spec, const Options& options)
    : dcs_(dcs), spec_(spec), options_(options), impl_(std::make_unique<Impl>()) {
  auto t0 = Clock::now();
  if (spec_.clock >= 0) check_speed_of_time(spec_);
  impl_->tr = discretize::transcribe(dcs_, spec_, options_.discretization);
  impl_->homotopy = std::make_unique<mpcc::Homotopy>(impl_->tr.problem, options_.homotopy);
  const auto& full = impl_->homotopy->relaxed().start();
  impl_->nominal.assign(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(impl_->tr.problem.n_variables()));
  impl_->modes = std::make_unique<sim::ModeMonitor>(dcs_);
  impl_->construction_time = std::chrono::duration<double>(Clock::now() - t0).count();
}

Solver::~Solver() = default;
const discretize::Transcription& Solver::transcription() const { return impl_->tr; }
mpcc::Homotopy& Solver::homotopy() { return *impl_->homotopy; }

Result Solver::solve() { return solve_from(impl_->nominal); }

Result Solver::solve(const std::vector<double>& x0) {
  if (x0.size() != dcs_.n_x())
    throw Error("ocp: x0 has " + std::to_string(x0.size()) + " entries, the model has " +
                std::to_string(dcs_.n_x()) + " states");
  nlp::Problem& nlp = impl_->homotopy->relaxed();
  std::vector<double> w = impl_->nominal;
  const auto base = static_cast<std::size_t>(impl_->tr.map.x0);
  for (std::size_t i = 0; i < x0.size(); ++i) {
    bool is_free = !spec_.x0_free.empty() && spec_.x0_free[i];
    if (!is_free) nlp.variable_lower()[base + i] = nlp.variable_upper()[base + i] = x0[i];
    w[base + i] = x0[i];
  }
  return solve_from(w);
}

Result Solver::solve_from(const std::vector<double>& w0) {
  auto t0 = Clock::now();
  mpcc::Homotopy& h = *impl_->homotopy;
  h.on_step = on_step;
  Result r = unpack(h.solve(w0));
  r.solve_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
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
      ++point;
    }
  }
  r.homotopy = std::move(m);
  return r;
}

}  // namespace stasis::ocp
