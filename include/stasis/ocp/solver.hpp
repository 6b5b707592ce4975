#pragma once
// ocp::Solver — direct optimal control of a Filippov system with FESD (fesd.md §4): piecewise
// constant controls on an equidistant control grid, costs, bounds, path and terminal constraints,
// free initial states, time-optimal problems. Built once; solve() may be called again with a new
// x0 or changed parameters without rebuilding (MPC use).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/sim/integrator.hpp"

namespace stasis::ocp {

struct Options {
  discretize::Options discretization;
  mpcc::HomotopyOptions homotopy;
};

struct Result {
  bool converged = false;
  std::string message;
  double objective = 0.0;     ///< running + terminal cost (+ final time), without method terms
  /// Physical final time: `horizon`, or the optimal T_f (time-optimal). Time-frozen models
  /// (spec.clock >= 0): as transcribed; ocp::recover_physical gives the clock at the end.
  double final_time = 0.0;
  double residual = 0.0;      ///< complementarity residual
  /// Every finite-element boundary. Time-frozen models: numerical time τ (physical time is the
  /// clock state; see ocp::recover_physical).
  std::vector<double> time;
  std::vector<std::vector<double>> states;   ///< [point][state]
  /// Start of each control stage (k·final_time/N; time-frozen models: in numerical time, as `time`).
  std::vector<double> control_time;
  std::vector<std::vector<double>> controls; ///< [stage][control]
  std::vector<std::vector<int>> active;      ///< active regions per element
  std::vector<std::vector<double>> theta;    ///< mean Filippov multipliers per element
  std::vector<double> element_length;        ///< h of each element (numerical time)
  std::vector<double> speed_of_time;         ///< s_k per stage (time-frozen models), else empty
  std::vector<sim::Event> events;
  mpcc::Result homotopy;
  double construction_time_s = 0.0;
  double solve_time_s = 0.0;
  std::vector<double> w;  ///< the MPCC solution (for warm starts)
};

class Solver {
 public:
  /// Time-frozen models (spec.clock >= 0): throws stasis::Error from check_speed_of_time(spec)
  /// (ocp/time_frozen.hpp) for speed-of-time bounds that cannot be met on their face.
  Solver(const reformulate::Dcs& dcs, const discretize::OcpSpec& spec, const Options& options);
  ~Solver();
  std::function<void(const mpcc::StepStats&)> on_step;
  /// Solve from the nominal initial guess (states at x0, controls at their start values).
  Result solve();
  /// Solve with a new initial state (fixed entries of x0 only).
  Result solve(const std::vector<double>& x0);
  /// Solve from a given MPCC start point (e.g. a previous solution's w).
  Result solve_from(const std::vector<double>& w0);
  const discretize::Transcription& transcription() const;
  const discretize::OcpSpec& spec() const { return spec_; }
  const Options& options() const { return options_; }
  mpcc::Homotopy& homotopy();

 private:
  Result unpack(mpcc::Result r) const;
  struct Impl;
  reformulate::Dcs dcs_;
  discretize::OcpSpec spec_;
  Options options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stasis::ocp
