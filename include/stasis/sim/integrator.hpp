#pragma once
// sim::Integrator — FESD as an integrator (fesd.md §6): one small MPCC per step (one control stage
// of length horizon/steps with `elements` finite elements, or Options::stages_per_step of them),
// built and compiled once and re-solved step after step, chained through the initial state.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/model/pss.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/sim/modes.hpp"

namespace stasis::sim {

/// ρ of Options::step_speed_of_time's pull (the step-equilibration penalty's default scale).
inline constexpr double kSpeedOfTimePull = 1.0;

struct Options {
  double horizon = 1.0;   ///< physical time to simulate
  int steps = 1;          ///< integrator steps
  /// Start each step from the previous step's whole solution (element lengths, multipliers).
  /// Default off: states start at the current state, everything else at the nominal guess.
  bool warm_start = false;
  /// Time-frozen models: start each step from an explicit simulation of the piecewise field (and
  /// the speed of time it implies) instead of a constant state. If that fails and the simulation
  /// holds a jump, retry from it with element boundaries where its clock stops and starts again
  /// and from σ0 = min(homotopy.sigma0, 1e-3) (a short jump inside a nominal element, a_n = 100).
  /// Should every guess fail (the constant ones too), time-frozen models retry the constant
  /// guesses from σ0 = 1e-3 (a stance the relaxed NLP at σ = 1 lets go of), kept only if they
  /// converge.
  bool predictor = true;
  std::vector<double> controls;  ///< constant control values (size n_u; empty = zeros)
  /// Control stages per step: each step is this many stages of equal physical length, each with
  /// its own controls (step_controls) and discretization.elements elements, and for time-frozen
  /// models its own speed of time and clock constraint at its end, as an OCP's stages. One step
  /// then solves the equations of that many consecutive OCP stages at once. (ocp::validate joins
  /// an OCP stage whose end a jump touches with the stage after it this way: every point of the
  /// jump has the clock at the stage end, and the state in the middle of a jump moves fast in
  /// numerical time, so a step that ended there and the next one that started there would each
  /// have to meet the OCP's split of the jump.) With more than one, the
  /// predictor holds each stage's controls until its clock reaches the stage's end; its retry with
  /// aligned element boundaries and step_speed_of_time are not available.
  int stages_per_step = 1;
  /// How many of the step's initial guesses to try (0 = all): each step is solved from the first
  /// guess of its list (the predictor for time-frozen models, then constant guesses, then the
  /// same from σ0 = 1e-3) and retried from the next while it fails. ocp::validate tries one for
  /// a step that joins stages at a jump: where that fails, so did every other (measured on the
  /// hopper's landing, 380 to 490 s, and the time-optimal bounce with 20 stages), and the
  /// validation has its own retries (the OCP's stage start, then the stage alone).
  int max_attempts = 0;
  /// Control values per control stage (size steps·stages_per_step, each of size n_u): stage j of
  /// step k holds step_controls[k·stages_per_step + j] constant. Empty = `controls` everywhere.
  /// (Re-simulating piecewise constant OCP controls.)
  std::vector<std::vector<double>> step_controls;
  /// Nominal element lengths per step (size `steps`, each of size stages_per_step·discretization.
  /// elements, in numerical time, each within the step bounds): the lengths heuristic_mean pulls towards instead
  /// of the equal h0, and the lengths of every initial guess. Where a switch pins no length, the
  /// discrete equations leave the lengths free and the step ends on this grid; switches still go
  /// where the dynamics put them. Empty = h0. Needs step_equilibration heuristic_mean. (ocp::validate
  /// re-simulates an OCP's stages on the OCP's own element lengths this way.)
  std::vector<std::vector<double>> step_nominal_lengths;
  /// With step_nominal_lengths: fix each step's element lengths to them instead of pulling towards
  /// them (all but the last of each control stage, which the stage's length then fixes). The step's equations are then
  /// those of an OCP stage on that grid, with no length left free; where a switch sits on an
  /// element boundary, the dynamics must put it there or the step has no solution. (ocp::validate
  /// re-simulates an OCP's stages on the OCP's own grid this way: a step pulled towards it may end
  /// on other lengths, 5e-7 of which the hopper's stiff leg turns into 2e-4 in its velocities.)
  bool fix_nominal_lengths = false;
  /// A box on the step's state variables (each of size n_x, or empty = unbounded), where the
  /// transcription bounds the states (discretize::OcpSpec::x_lower/x_upper); the start state is
  /// fixed regardless. Long elements of a stiff model can give the collocation equations roots far
  /// from the motion (a light leg spinning over in one element); a box the motion keeps to rules
  /// them out. (ocp::validate passes the OCP's own state bounds.)
  std::vector<double> state_lower, state_upper;
  /// Time-frozen models (a clock state): bounds and start of the speed of time per step. Each step
  /// advances the clock by exactly horizon/steps; a step holding a jump needs
  /// upper·(horizon/steps) >= horizon/steps + τ_jump.
  double speed_of_time_lower = 1.0, speed_of_time_upper = 25.0, speed_of_time_start = 1.0;
  /// Time-frozen models: a speed of time per step (size `steps`, each within the bounds) that the
  /// step's s is pulled towards, ρ (s − s_k)² with ρ = kSpeedOfTimePull; the step's guess (and its
  /// predictor, over s_k·horizon/steps of unscaled time) uses it. It changes no equation: it only
  /// selects among a step's solutions where the clock constraint leaves s free, a jump that
  /// touches the step's end (every point of the jump has the clock at the step's end, so the step
  /// could end anywhere in it). Empty = no pull. (ocp::validate re-simulates a stage whose end
  /// touches a jump with the OCP's speed of time this way, so that it ends where in the jump the
  /// OCP's stage ended.)
  std::vector<double> step_speed_of_time;
  /// Heaviside-form α regularization weights (discretize::OcpSpec::alpha_penalty); empty = none.
  std::vector<double> alpha_penalty;
  discretize::Options discretization;
  mpcc::HomotopyOptions homotopy;
};

struct StepInfo {
  int step = 0;                 ///< 0-based
  int steps = 0;
  double time = 0.0;            ///< physical time at the end of the step
  bool converged = false;
  int homotopy_steps = 0;
  int iterations = 0;
  double residual = 0.0;
  double wall_time_s = 0.0;
  std::string message;
};

struct Result {
  bool converged = true;            ///< every step converged
  std::string message;
  /// Every finite-element boundary, from 0: numerical time τ (= physical time unless the model
  /// has a clock; then physical time is the clock state in `states`).
  std::vector<double> time;
  std::vector<std::vector<double>> states;   ///< [point][state] at `time`
  std::vector<std::vector<int>> active;      ///< active regions of each element (size time.size() - 1)
  std::vector<std::vector<double>> theta;    ///< mean Filippov multipliers of each element
  std::vector<double> element_length;        ///< h of each element (numerical time)
  std::vector<double> speed_of_time;         ///< s of each control stage of each step (time-frozen models)
  std::vector<Event> events;
  std::vector<StepInfo> steps;
  std::vector<mpcc::Result> step_results;    ///< homotopy statistics of every step
  double max_residual = 0.0;
  int nlp_iterations = 0;
  double construction_time_s = 0.0;
  double solve_time_s = 0.0;
};

/// An initial guess for an integrator's first step: a whole point of the step's MPCC
/// (Integrator::transcription(), e.g. an OCP stage's motion copied by discretize::transfer_stage),
/// from which that step's homotopy starts at σ0 = sigma0. The step's start state, controls and
/// fixed element lengths are imposed on it as on every guess.
struct StepGuess {
  std::vector<double> w;
  double sigma0 = 1e-3;
};

class Integrator {
 public:
  Integrator(const reformulate::Dcs& dcs, const Options& options);
  ~Integrator();
  /// Called after every step (progress lines).
  std::function<void(const StepInfo&)> on_step;
  /// Simulates from x0 (default: the model's x0).
  Result simulate();
  Result simulate(const std::vector<double>& x0);
  /// The same with the first step solved from `guess` only (no other guess is tried for it; the
  /// later steps as usual). ocp::validate re-solves an OCP stage that the integrator's own guesses
  /// do not reproduce from the OCP's motion in it: on a landing, the step's equations on the OCP's
  /// fixed element lengths have other solutions that those guesses find, or none they reach.
  Result simulate(const std::vector<double>& x0, const StepGuess& guess);
  const discretize::Transcription& transcription() const;
  const reformulate::Dcs& dcs() const { return dcs_; }

 private:
  struct Impl;
  Result simulate(const std::vector<double>& x0, const StepGuess* first_step_guess);
  reformulate::Dcs dcs_;
  Options options_;
  std::unique_ptr<Impl> impl_;
};

/// Convenience: to_dcs + Integrator + simulate.
Result simulate(const model::Pss& model, const Options& options);

}  // namespace stasis::sim
