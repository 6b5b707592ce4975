#pragma once
// ocp::Solver — direct optimal control of a Filippov system with FESD (fesd.md §4): piecewise
// constant controls on an equidistant control grid, costs, bounds, path and terminal constraints,
// free initial states, time-optimal problems. Built once; solve() may be called again with a new
// x0 or changed parameters without rebuilding (MPC use).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/sim/integrator.hpp"

namespace stasis::ocp {

/// Where the homotopy starts (the `initialization:` section of ocp files; docs/guide-ocp.md
/// "Initialization"). The smoothed phase 1 is not a contact schedule: it starts from the same
/// nominal guess and needs nothing from the user.
struct InitializationOptions {
  enum class Method {
    /// States at x0, controls at their start values, algebraic variables at their defaults.
    Nominal,
    /// Phase 1: the same OCP with standard time stepping and smoothed complementarity G·H = σ,
    /// σ from sigma0 down to sigma_final, from the nominal guess; the homotopy starts from its
    /// solution. With G·H = σ every pair is a smooth function of the switching functions (a soft
    /// contact in time-frozen models), so the relaxed problems cannot switch auxiliary fields on
    /// far from a contact as the inequality relaxation can.
    Smoothed,
    /// Phase 1: the homotopy itself (the same discretization, relaxation and steering) without
    /// the omit_path_constraints, σ from sigma0 down to sigma_final, from the nominal guess; the
    /// homotopy with every constraint starts from its solution (at homotopy.sigma0). For
    /// obstacles that the nominal guess cannot get around but a relaxed solution can be moved
    /// over while σ is still large.
    Relaxed,
    /// The solution of a shorter problem of the same model (`problem`, solved first from its own
    /// nominal guess and initialization) repeated to fill the horizon: its stages as they are,
    /// then its stages from `from_stage` on again and again, each repetition with the states of
    /// `shift` moved by the shift once more and the clock by the repeated stages' length; the
    /// homotopy starts from that point (at homotopy.sigma0). For periodic motions such as a gait
    /// (examples/hopper.yaml). Solver::solve_repeating runs it.
    Repeat,
  };
  Method method = Method::Nominal;
  double sigma0 = 1e-2;
  double kappa = 0.1;
  double sigma_final = 1e-6;
  int max_iter = 0;  ///< IPOPT iteration limit per phase-1 step; 0 = homotopy.max_iter
  /// IPOPT tol (with dual_inf_tol and compl_inf_tol) of the phase-1 steps; 0 = homotopy.tol. Phase 1
  /// only supplies the homotopy's start: solving it to IPOPT's own 1e-8 instead of nosnoc's 1e-12
  /// cut the hopper's phase 1 from 14 660 to 5 199 iterations (examples/hopper.yaml).
  double tol = 0.0;
  /// homotopy.warm_first_iter for the phase-1 steps (0 = none, the default): far from a solution
  /// the previous step's multipliers can lead elsewhere (hopper session 29: warm_start_duals on
  /// every step took phase 1 onto another path), so the homotopy's setting does not carry over.
  int warm_first_iter = 0;
  /// Relaxation of the relaxed phase 1; empty = homotopy.relaxation. Lets phase 1 follow the
  /// Scholtes path while the homotopy after it uses the ℓ1 penalty (examples/hopper.yaml).
  std::optional<mpcc::Relaxation> relaxation;
  /// Positions (0-based) in OcpSpec::path of constraints phase 1 leaves out: obstacles the nominal
  /// guess cannot get around can make phase 1 infeasible. The homotopy has every constraint.
  std::vector<int> omit_path_constraints;
  /// Method::Repeat: the shorter problem's file (problem files: relative to the file naming it).
  std::string problem;
  /// Method::Repeat: the first stage of the shorter problem that is repeated (0-based).
  int from_stage = 0;
  /// Method::Repeat: states (by name) moved per repetition and by how much, e.g. {"qx", 1.0}.
  std::vector<std::pair<std::string, double>> shift;
  /// Throws stasis::Error naming the option if a value is out of range.
  void validate() const;
};

struct InitializationOptionInfo {
  std::string name, default_value, description;
  std::function<void(InitializationOptions&, const std::string&)> set;
};
/// Every option of the `initialization:` section, with default and meaning (docs/options.md).
const std::vector<InitializationOptionInfo>& initialization_option_table();
/// Sets an option by name from text; throws stasis::Error for an unknown name or a bad value.
void set_initialization_option(InitializationOptions& options, const std::string& name, const std::string& value);
const char* to_string(InitializationOptions::Method method);

struct Options {
  discretize::Options discretization;
  mpcc::HomotopyOptions homotopy;
  InitializationOptions initialization;
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
  /// Collocation schemes in the integral representation (Radau IIA, Gauss–Legendre): the nodes
  /// (0, c_1, ..., c_s) of each element's collocation polynomial and its stage values X_m,
  /// [element][m][state], m = 1..s. The polynomial through (0, states[e]) and (c_m, X_m) is the
  /// trajectory between two points (ocp::validate checks the path constraints on it). Empty for
  /// the differential representation.
  std::vector<double> collocation_nodes;
  std::vector<std::vector<std::vector<double>>> stage_states;
  /// Start of each control stage (k·final_time/N; time-frozen models: in numerical time, as `time`).
  std::vector<double> control_time;
  std::vector<std::vector<double>> controls; ///< [stage][control]
  std::vector<std::vector<int>> active;      ///< active regions per element
  std::vector<std::vector<double>> theta;    ///< mean Filippov multipliers per element
  std::vector<double> element_length;        ///< h of each element (numerical time)
  std::vector<double> speed_of_time;         ///< s_k per stage (time-frozen models), else empty
  std::vector<sim::Event> events;
  mpcc::Result homotopy;
  /// The smoothed phase 1 (InitializationOptions::Smoothed); no steps otherwise.
  mpcc::Result initialization;
  /// IPOPT iterations and NLP solves of the whole solve (phase 1 and homotopy).
  int nlp_iterations() const { return homotopy.nlp_iterations + initialization.nlp_iterations; }
  int nlp_solves() const { return homotopy.nlp_solves + initialization.nlp_solves; }
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
  /// After every relaxed NLP that solved (mpcc::Homotopy::on_checkpoint): the step, the point in
  /// this problem's MPCC variables (also for phase-1 steps, whose point is carried over as the
  /// homotopy's start is) and the relaxed NLP's multipliers (empty for phase-1 steps: they belong
  /// to phase 1's NLP). solve_from(w, &multipliers) with homotopy.sigma0 = step.sigma resumes there.
  std::function<void(const mpcc::StepStats&, const std::vector<double>& w, const nlp::Multipliers& multipliers)>
      on_checkpoint;
  /// Solve from the nominal initial guess (states at x0, controls at their start values), after
  /// the phase-1 initialization if options.initialization asks for one.
  Result solve();
  /// Solve with a new initial state (fixed entries of x0 only); phase 1 as for solve().
  Result solve(const std::vector<double>& x0);
  /// initialization.method Repeat: solves `cut` (a shorter problem of the same model: its solve(),
  /// with its own initialization) and this problem from the cut's solution repeated
  /// (repeat_solution, with initialization.from_stage and shift). The cut's steps are reported
  /// through on_step as initialization steps (numbered on from i0) and are
  /// Result::initialization, its time is in solve_time_s. Throws stasis::Error if the method is
  /// not Repeat or the cut does not fit (repeat_solution).
  Result solve_repeating(Solver& cut);
  /// Solve from a given MPCC start point (e.g. a previous solution's w), without phase 1.
  Result solve_from(const std::vector<double>& w0);
  /// The same with the multipliers of an earlier solve's last relaxed NLP (Result::homotopy's
  /// multipliers) for the first homotopy step (mpcc::Homotopy::solve; ignored if they do not fit,
  /// Result::homotopy.duals0_used says).
  Result solve_from(const std::vector<double>& w0, const nlp::Multipliers* duals0);
  /// A given MPCC point (e.g. an earlier solution's w) as a Result, without solving: the objective
  /// and complementarity residual at it, converged false (to validate or report an old point with
  /// new code). Throws stasis::Error if its size is not the MPCC's.
  Result evaluate(const std::vector<double>& w) const;
  const discretize::Transcription& transcription() const;
  const discretize::OcpSpec& spec() const { return spec_; }
  const reformulate::Dcs& dcs() const { return dcs_; }
  /// The nominal start point: states at x0, controls at their start values, algebraic variables
  /// at their defaults (what solve() starts from without an initialization).
  const std::vector<double>& nominal_point() const;
  const Options& options() const { return options_; }
  mpcc::Homotopy& homotopy();

 private:
  Result unpack(mpcc::Result r) const;
  Result solve_initialized(std::vector<double> w0, const std::vector<double>* x0);
  struct Impl;
  reformulate::Dcs dcs_;
  discretize::OcpSpec spec_;
  Options options_;
  std::unique_ptr<Impl> impl_;
};

/// The start point of `target` made of the solution `cut_w` of `cut`, a shorter problem of the same
/// model and discretization with the same control stage length: target stage k is cut stage k for
/// k < N_cut, then the cut's stages from_stage..N_cut-1 again and again; repetition r (from 1)
/// has `state_shift` (size n_x, or empty) added r times and, for time-frozen models, the clock
/// moved by r times the repeated stages' physical length. Variables outside the stages keep the
/// target's nominal start. Throws stasis::Error naming what differs (states, controls,
/// discretization, stage length, a time-optimal problem, from_stage out of range).
std::vector<double> repeat_solution(const Solver& cut, const std::vector<double>& cut_w, const Solver& target,
                                    std::size_t from_stage, const std::vector<double>& state_shift);

}  // namespace stasis::ocp
