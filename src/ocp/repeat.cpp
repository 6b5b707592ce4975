// The repeated start (InitializationOptions::Method::Repeat): a shorter problem's solution repeated
// over a longer horizon, for periodic motions such as a gait whose nominal guess (standing still)
// is far from every hop (docs/guide-ocp.md "Initialization").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "stasis/error.hpp"
#include "stasis/ocp/solver.hpp"

namespace stasis::ocp {

namespace {

std::string names(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& n : v) out += (out.empty() ? "" : ", ") + n;
  return "(" + out + ")";
}

double stage_length(const discretize::OcpSpec& spec) { return spec.horizon / spec.stages; }

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

}  // namespace

std::vector<double> repeat_solution(const Solver& cut, const std::vector<double>& cut_w, const Solver& target,
                                    std::size_t from_stage, const std::vector<double>& state_shift) {
  const reformulate::Dcs& a = cut.dcs();
  const reformulate::Dcs& b = target.dcs();
  if (a.state_names != b.state_names)
    throw Error("repeat: the shorter problem's states " + names(a.state_names) + " are not this problem's " +
                names(b.state_names));
  if (a.control_names != b.control_names)
    throw Error("repeat: the shorter problem's controls " + names(a.control_names) + " are not this problem's " +
                names(b.control_names));
  const discretize::OcpSpec& sa = cut.spec();
  const discretize::OcpSpec& sb = target.spec();
  if (sa.time_optimal || sb.time_optimal)
    throw Error("repeat: a time-optimal problem has no fixed stage length to repeat on; solve the shorter problem "
                "with a fixed horizon");
  const double length = stage_length(sa);
  if (std::abs(length - stage_length(sb)) > 1e-12 * std::max(1.0, length))
    throw Error("repeat: the shorter problem's control stages are " + num(length) +
                " long (horizon / stages), this problem's " + num(stage_length(sb)) +
                "; make them equal (e.g. a horizon of " + num(length * sb.stages) + " here)");
  const discretize::Options& da = cut.options().discretization;
  const discretize::Options& db = target.options().discretization;
  if (da.scheme != db.scheme || da.stages != db.stages || da.elements != db.elements || da.fesd != db.fesd ||
      da.dcs != db.dcs)
    throw Error("repeat: the shorter problem's discretization (scheme, RK stages, elements, FESD, dcs) differs "
                "from this problem's; give both files the same discretization section");
  const auto n_cut = static_cast<std::size_t>(sa.stages);
  if (from_stage >= n_cut)
    throw Error("repeat: from_stage " + std::to_string(from_stage) + " is not a stage of the shorter problem (it has " +
                std::to_string(n_cut) + ", from 0)");
  if (cut_w.size() != cut.transcription().problem.n_variables())
    throw Error("repeat: the shorter problem's point has " + std::to_string(cut_w.size()) + " entries, its MPCC " +
                std::to_string(cut.transcription().problem.n_variables()) + " variables");
  const std::size_t n_x = b.n_x();
  if (!state_shift.empty() && state_shift.size() != n_x)
    throw Error("repeat: the state shift has " + std::to_string(state_shift.size()) + " entries, the model " +
                std::to_string(n_x) + " states");

  const std::size_t period = n_cut - from_stage;  // stages per repetition
  std::vector<double> per_repetition = state_shift.empty() ? std::vector<double>(n_x, 0.0) : state_shift;
  // The clock runs on by the repeated stages' physical length (stagewise clock constraints hold).
  if (sb.clock >= 0) per_repetition[static_cast<std::size_t>(sb.clock)] += static_cast<double>(period) * length;

  std::vector<double> w = target.nominal_point();
  std::vector<double> shift(n_x);
  for (std::size_t k = 0; k < static_cast<std::size_t>(sb.stages); ++k) {
    std::size_t source = k, repetition = 0;
    if (k >= n_cut) {
      repetition = (k - n_cut) / period + 1;
      source = from_stage + (k - n_cut) % period;
    }
    for (std::size_t i = 0; i < n_x; ++i) shift[i] = static_cast<double>(repetition) * per_repetition[i];
    discretize::repeat_stage(cut.transcription(), cut_w, source, target.transcription(), w, k, shift);
  }
  return w;
}

Result Solver::solve_repeating(Solver& cut) {
  const InitializationOptions& init = options_.initialization;
  if (init.method != InitializationOptions::Method::Repeat)
    throw Error("ocp: solve_repeating needs initialization method 'repeat' (this problem's is '" +
                std::string(to_string(init.method)) + "')");
  // The shift by state name; the clock moves by itself.
  std::vector<double> shift(dcs_.n_x(), 0.0);
  for (const auto& [name, value] : init.shift) {
    std::size_t i = 0;
    while (i < dcs_.state_names.size() && dcs_.state_names[i] != name) ++i;
    if (i == dcs_.state_names.size())
      throw Error("initialization option 'shift': '" + name + "' is not a state; the states are " +
                  names(dcs_.state_names));
    if (static_cast<int>(i) == spec_.clock)
      throw Error("initialization option 'shift': '" + name +
                  "' is the clock, which moves by the repeated stages' length by itself; leave it out");
    shift[i] += value;
  }
  const auto t0 = std::chrono::steady_clock::now();
  // The cut's steps, phase 1 and homotopy, as this problem's initialization steps i0, i1, ...
  int step = 0;
  cut.on_step = [this, &step](const mpcc::StepStats& s) {
    mpcc::StepStats flagged = s;
    flagged.initialization = true;
    flagged.step = step++;
    if (on_step) on_step(flagged);
  };
  Result c;
  try {
    c = cut.solve();
  } catch (...) {
    cut.on_step = nullptr;  // it refers to this call's counter
    throw;
  }
  cut.on_step = nullptr;
  // A cut that did not converge still leaves its last good point: a better start than the
  // nominal guess (its status is the initialization's).
  Result r = solve_from(repeat_solution(cut, c.w, *this, static_cast<std::size_t>(init.from_stage), shift));
  mpcc::Result& first = r.initialization;
  first = std::move(c.homotopy);
  std::vector<mpcc::StepStats> steps = std::move(c.initialization.steps);
  steps.insert(steps.end(), first.steps.begin(), first.steps.end());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    steps[i].initialization = true;
    steps[i].step = static_cast<int>(i);
  }
  first.steps = std::move(steps);
  first.nlp_iterations += c.initialization.nlp_iterations;
  first.nlp_solves += c.initialization.nlp_solves;
  first.evaluation_time_s += c.initialization.evaluation_time_s;
  first.wall_time_s = c.solve_time_s;
  first.message = "the shorter problem: " + first.message;
  r.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace stasis::ocp
