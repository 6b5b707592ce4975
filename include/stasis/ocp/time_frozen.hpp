#pragma once
// Time-frozen OCPs (cls / jump models; time_freezing.md §3–§4):
// - set_time_freezing: the time-freezing fields of an OcpSpec (clock, speed of time, clock
//   constraints, running-cost time, α regularization), as a problem file's `time_freezing:` sets
//   them (examples/cpp/push_block.cpp builds a time-frozen OCP with it);
// - recover_physical: the physical-time trajectory (the clock at every element boundary where it
//   runs; a jump = two consecutive points with the same time), impacts, contact forces and the
//   §4.7 sanity checks (sim::recover_physical), the physical control grid (the clock at each
//   stage start) and the stages in which the clock does not advance at all (frozen stages, whose
//   controls have no physical meaning);
// - check_speed_of_time / diagnose_speed_of_time: speed-of-time bounds that cannot produce the
//   physical control grid, before solving (an error) and after a failed solve (a diagnosis naming
//   the stages, the bound and what to raise);
// - validate: re-simulate the optimal controls with the time-freezing integrator (each stage's
//   control held over its physical interval) and compare with the OCP trajectory; check gaps and
//   the OCP's path constraints and bounds at every physical point of the OCP trajectory.
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sim/physical.hpp"

namespace stasis::ocp {

/// What a problem file's `time_freezing:` section sets in an OCP beyond the reformulation
/// (docs/guide-cls.md; the defaults are the file's).
struct TimeFreezingSettings {
  /// Bounds and start of the speed of time s_k of every control stage (see check_speed_of_time).
  double speed_of_time_lower = 1.0, speed_of_time_upper = 25.0, speed_of_time_start = 1.0;
  double speed_of_time_penalty = 0.0;  ///< ρ_sot Σ (s_k − 1)²
  discretize::OcpSpec::ClockConstraints clock_constraints = discretize::OcpSpec::ClockConstraints::Stagewise;
  discretize::OcpSpec::RunningCost running_cost = discretize::OcpSpec::RunningCost::Physical;
  /// Weight of the α regularization of the inelastic gaps (TimeFrozenModel::alpha_penalty); 0 = off,
  /// the default, as for a file without time_freezing.alpha_regularization.
  double alpha_regularization = 0.0;
};

/// Makes `spec` a time-frozen OCP on model.pss, as `stasis solve` does for a cls or jump file:
/// sets spec.clock = model.clock, the speed-of-time bounds, start and penalty, the clock
/// constraints, the running-cost time and spec.alpha_penalty = model.alpha_penalty(weight) when
/// `dcs` is DcsMode::Step (a Heaviside-form term; cleared for Stewart). Everything else (horizon,
/// stages, costs, constraints, bounds, sized with the clock state last) is the caller's. The
/// horizon and the final-time bounds are physical time.
void set_time_freezing(discretize::OcpSpec& spec, const reformulate::TimeFrozenModel& model, reformulate::DcsMode dcs,
                       const TimeFreezingSettings& settings = {});

struct PhysicalResult {
  sim::PhysicalTrajectory trajectory;  ///< physical time and states, impacts, forces, warnings
  std::vector<double> control_time;    ///< the clock at the start of each control stage
  std::vector<double> stage_end_time;  ///< the clock at the end of each control stage
  std::vector<int> frozen_stages;      ///< 0-based stages in which the clock does not advance
  double final_time = 0.0;             ///< the clock at the end
};

/// `result` must be a solution of an OCP on `model.pss` (clock state model.clock), with the
/// stages' elements in order (result.controls.size() stages, element_length.size()/stages elements
/// each). A stage is frozen when its clock advance is at most 1e-8·max(1, |final time|).
PhysicalResult recover_physical(const reformulate::TimeFrozenModel& model, const Result& result);

/// One re-simulated segment of the validation (ValidationOptions::on_segment): control stages
/// first_stage..last_stage (0-based; more than one where frozen stages or a jump at a stage end
/// joined them), whether its step(s) converged, its end's deviation from the OCP's (NaN if not
/// compared), how it was reproduced ("" by the integrator from the re-simulated start, else a
/// phrase), and its wall time. For a stage taken from the OCP's motion (Validation::
/// stages_from_ocp) `converged` and `deviation` are the integrator's own step's.
struct ValidationSegment {
  int first_stage = 0, last_stage = 0, stages = 0;
  bool converged = false;
  double deviation = std::numeric_limits<double>::quiet_NaN();
  /// The integrator step's complementarity residual (its largest over the segment's steps).
  double residual = std::numeric_limits<double>::quiet_NaN();
  std::string how;
  double wall_time_s = 0.0;
};

struct ValidationOptions {
  /// Called after every re-simulated segment (progress lines; `stasis solve` prints one each).
  std::function<void(const ValidationSegment&)> on_segment;
  /// Integrator steps per control stage (>= 1): the re-simulation runs stage by stage over the
  /// OCP's physical control grid (each stage as long as its clock advanced), steps_per_stage
  /// equal steps per stage, open loop from the OCP's initial state.
  int steps_per_stage = 1;
  /// Validation::passed: the largest path violation allowed at a physical point, and the largest
  /// final-state deviation of the re-simulation (issue #5's figures for the hopper). The HTML
  /// report checks result.json with the same limits (Validation records them; without them it
  /// uses report::kDeviationLimit/kViolationLimit).
  double constraint_tolerance = 1e-6;
  double deviation_tolerance = 1e-3;
  /// Validation::passed: the largest gap violation (depth below a contact surface, beyond the
  /// model's contact_depth) allowed at a physical point. A problem may accept more than
  /// constraint_tolerance where its own constraints do: the seed-000 hopper lets its foot 5 mm
  /// into the ground (foot_z >= -0.005), and FESD's contact phases hold the gap only at the
  /// collocation points, so it drifts by O(h²) in between (io::OcpFile::validation, the file's ocp.validation).
  double gap_tolerance = 1e-6;
  /// Points between two physical points at which the path constraints and state bounds are
  /// checked on each element's collocation polynomial (equally spaced in the element; 0 = none).
  /// Constraints enforced only at element ends or stage points can be violated in between, e.g.
  /// a foot that crosses a hole within one finite element.
  int points_between = discretize::kDensePathPoints;
  /// With one step per stage, the integrator's step and the OCP's stage solve the same discrete
  /// equations; a step that ends farther than this times max(1, the largest |entry| of the OCP's
  /// state there) from the OCP's stage end found another solution (the solvers agree to about 1e-8
  /// when they find the same solution on well-conditioned steps). Relative, because the OCP's
  /// point holds its equations only to its IPOPT tolerance and a stiff or unstable stage
  /// amplifies that: the three-hole hopper's stance stages 8 and 14 (states up to 7.5, the OCP
  /// stopped at IPOPT's acceptable level) end 1.3e-6 and 1.7e-6 from the OCP's, converged, and
  /// the OCP's motion solves those steps to 8e-7 (docs/hopper-experiments.md, session 34).
  double reproduction_tolerance = 1e-6;
  /// A re-simulation step whose homotopy stopped above its complementarity tolerance (1e-9, the
  /// integrator's) is still taken as converged when its last solved point has a residual of at
  /// most this (Validation::stages_above_step_tolerance); its states are compared with the OCP's
  /// as any other's. Near σ = 1e-9 a step's relaxed pairs sit at G·H = σ, and on the OCP's fixed
  /// element lengths its equations can be nearly degenerate, so that the next σ has no feasible
  /// point from a start a little off the OCP's: the hopper's one-hole cut has steps that stop at
  /// 1.1e-9 .. 1.7e-9 (one ending within 7.4e-7 of the OCP's state) where the OCP itself stopped
  /// at 9.5e-10. 0 = the integrator's tolerance, no exception.
  double step_residual_tolerance = 1e-8;
  /// The OCP's transcription (Solver::transcription()), whose solution is Result::w; optional.
  /// With it and one step per stage, a stage whose integrator step fails or ends farther than
  /// reproduction_tolerance from the OCP is checked the other way round: if the OCP's own motion in
  /// the stage solves the step's equations from the re-simulated state (to constraint_tolerance;
  /// complementarity to the OCP's complementarity_tol), the re-simulation goes on from its end
  /// (Validation::stages_from_ocp; such stages fail the verdict, but the later ones are still
  /// compared instead of following a diverged open-loop state).
  const discretize::Transcription* transcription = nullptr;
  /// Another form of the same model (io::TimeFreezingFile::reformulated, e.g. the dense form of
  /// the lifted one `stasis simulate` uses), optional: where the model's own step does not
  /// reproduce a stage, a step of this one is tried before the OCP's motion is checked
  /// (Validation::stages_by_alternative_form). The two forms have the same solutions, but the
  /// integrator's homotopy may reach different ones of an open-loop step that has several.
  const reformulate::TimeFrozenModel* alternative_model = nullptr;
  /// With one step per stage: a stage whose end a jump touches (the OCP's clock stands still in
  /// the element before or after it) is re-simulated in one step with the stage after it
  /// (sim::Options::stages_per_step; Validation::stages_joined_across_jumps), so that no step ends
  /// in a jump. Off: each such stage is its own step, with its speed of time pulled towards the
  /// OCP's (Validation::stages_at_ocp_speed_of_time), as the last stage always is.
  bool join_stages_at_jumps = true;
};

struct Validation {
  /// The re-simulation ran to the end (its steps may not all have converged).
  bool resimulated = false;
  bool simulation_converged = false;   ///< every integrator step converged
  int steps = 0, steps_per_stage = 0;  ///< integrator steps in all, per control stage
  double horizon = 0.0;                ///< physical time simulated (the OCP's final time)
  /// max |x_sim − x_ocp| over the physical states (no clock) at the final time; NaN if not resimulated.
  double final_state_deviation = std::numeric_limits<double>::quiet_NaN();
  /// The same at every stage end (NaN for frozen stages and for stage ends at a jump that the
  /// re-simulation crossed in one step: stages_joined_across_jumps).
  std::vector<double> stage_end_deviation;
  /// The largest of stage_end_deviation (NaN if none).
  double max_deviation_at_stage_ends = std::numeric_limits<double>::quiet_NaN();
  /// Physical states (no clock) at the end of the re-simulation.
  std::vector<double> simulated_final_state;
  /// max(0, −min gap) over every physical point of the OCP trajectory.
  double max_gap_violation = 0.0;
  /// Largest violation of the OCP's path constraints, path complementarity (G, H >= 0 and
  /// min(G, H)), state bounds at every physical point of the OCP trajectory (with the control of
  /// the stage the point ends) and control bounds of every stage; path_violation_where names it.
  double max_path_violation = 0.0;
  std::string path_violation_where;
  /// The same for the path constraints and state bounds between the physical points, on each
  /// element's collocation polynomial (ValidationOptions::points_between; Result::stage_states),
  /// and where; 0 when there is no collocation polynomial.
  double max_path_violation_between_points = 0.0;
  std::string path_violation_between_where;
  int points_between = 0;  ///< points checked per element (0: not checked)
  /// Stages (0-based) whose integrator step found another solution than the OCP's or none, and
  /// whose OCP motion solves the step's equations from the re-simulated state, so the
  /// re-simulation took it (ValidationOptions::transcription): the open-loop step has several
  /// discrete solutions there, and the OCP's is one of them; not reproduced by the integrator,
  /// so `passed` is false. ocp_stage_violation: the largest
  /// violation of the step's rows, bounds and pair signs by those motions.
  std::vector<int> stages_from_ocp;
  /// Stages whose integrator step, from the integrator's own guesses (and the model's other form,
  /// and the OCP's stage start), did not reproduce the OCP's stage, and that the step does
  /// reproduce from the OCP's motion in the stage as its initial guess (sim::StepGuess; the
  /// re-simulated start and the step's controls, speed-of-time pull and fixed lengths imposed,
  /// solved to the integrator's own tolerance from σ0 = 1e-3). With one step per stage and
  /// ValidationOptions::transcription only. The open-loop step has other solutions there (or
  /// none that its own guesses reach: a landing on the OCP's fixed element lengths), and this one
  /// is within reproduction_tolerance of the OCP's; they pass.
  std::vector<int> stages_from_ocp_guess;
  /// Stages reproduced by ValidationOptions::alternative_model's step where the model's own did
  /// not (they pass).
  std::vector<int> stages_by_alternative_form;
  /// Stages reproduced only from the OCP's own stage start, where the re-simulated start was
  /// within reproduction_tolerance of it but the step from there did not reproduce the stage (a
  /// start a hair off a switching surface; they pass).
  std::vector<int> stages_resynchronized;
  /// Stages whose end a jump touches (the OCP's clock stands still in the element before or after
  /// it) and that are not joined with the next (the last stage, or ValidationOptions::
  /// join_stages_at_jumps off), re-simulated with the speed of time pulled towards the OCP's s_k
  /// (sim::Options::step_speed_of_time), which selects where in the jump the stage ends.
  std::vector<int> stages_at_ocp_speed_of_time;
  /// Stages whose end a jump touches (the OCP's clock stands still in the element before or after
  /// it), re-simulated in one integrator step with the stage(s) after it, each with its own
  /// controls, speed of time and clock constraint (sim::Options::stages_per_step;
  /// ValidationOptions::join_stages_at_jumps): the first stage of each such segment. Their
  /// stage_end_deviation is NaN; the segment is compared at its end.
  std::vector<int> stages_joined_across_jumps;
  /// Stages whose step joined with the stage after did not converge or ended farther than
  /// reproduction_tolerance from the OCP's segment end, and that were then
  /// re-simulated alone (as with ValidationOptions::join_stages_at_jumps off).
  std::vector<int> stages_joined_step_failed;
  /// Segments (their first stage) whose integrator step stopped above its complementarity
  /// tolerance but within ValidationOptions::step_residual_tolerance, taken as converged.
  std::vector<int> stages_above_step_tolerance;
  /// Stages (0-based) whose physical interval holds an impact (sim::Impact::painleve_contacts) or a
  /// sliding contact phase (PhysicalTrajectory::painleve_sliding_time) in a Painlevé configuration,
  /// where the rigid contact problem has no unique solution: an explanation for stages the
  /// integrator does not reproduce; it does not change the verdict.
  std::vector<int> stages_painleve;
  double ocp_stage_violation = 0.0;
  /// For each of stages_from_ocp, what the integrator's step did on its own: whether it
  /// converged, how far its end state is from the OCP's (NaN if it did not converge), and the
  /// element lengths of both in the step's numerical time. Where no switch happens the discrete
  /// equations leave the element lengths to the step equilibration, which only the OCP's cost
  /// trades against (heuristic_mean with ρ_h = 1 hardly does): element lengths that differ
  /// between the two show a motion that depends on that freedom, not on the dynamics.
  struct StageMismatch {
    int stage = 0;
    bool integrator_converged = false;
    double integrator_deviation = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> ocp_element_lengths, integrator_element_lengths;
  };
  std::vector<StageMismatch> not_reproduced;
  /// The verdict: re-simulated with every step converged and reproducing the OCP by itself (no
  /// stages_from_ocp), final_state_deviation <= deviation_tolerance, the gap violation <=
  /// gap_tolerance, path violations (at and between points) <= constraint_tolerance (the
  /// ValidationOptions). `failures` says which of these did not hold,
  /// one phrase each (empty when passed).
  bool passed = false;
  /// The tolerances the verdict used (ValidationOptions), for result.json and the report.
  double gap_tolerance = 0.0, constraint_tolerance = 0.0, deviation_tolerance = 0.0;
  std::vector<std::string> failures;
  std::string message;       ///< one-line summary, or why the re-simulation failed
  double wall_time_s = 0.0;  ///< re-simulation (construction included) and checks
};

/// Before solving a time-frozen OCP (spec.clock >= 0; time_freezing.md §3.2–§3.3). In numerical
/// time a control stage lasts L = T/N (T = spec.horizon, the numerical horizon) and its clock
/// advances by s_k·(L − frozen numerical time); the clock constraints ask for T_phys/N per stage
/// (T_phys = T, or T_final when time-optimal). So a stage in free flight needs s_k = T_phys/T, and a
/// stage holding a jump of unscaled frozen length τ_jump needs s_k = (T_phys/N + τ_jump)/L.
/// Throws stasis::Error naming the option keys (time_freezing.speed_of_time.lower/upper/start,
/// ocp.final_time, ocp.horizon) and the value needed when
/// - not 0 < lower <= start <= upper;
/// - no physical horizon allowed (T, or [final_time_lower, final_time_upper] when time-optimal)
///   gives a free-flight speed T_phys/T within [lower, upper];
/// and, with the model:
/// - the fixed initial state starts an inelastic impact (gap <= 0, nᵀv < 0) whose frozen phase
///   τ = |nᵀv|/(D a_n) the first stage cannot hold (upper·L < T_phys,min/N + τ).
void check_speed_of_time(const discretize::OcpSpec& spec);
void check_speed_of_time(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec);

/// Why a time-frozen OCP that did not converge may be infeasible because of its speed of time.
struct SpeedOfTimeDiagnosis {
  /// 0-based control stages involved: those in which s_k sits at the bound or whose clock
  /// constraint is violated in its direction in the last iterate (mpcc::Result::last_iterate:
  /// where the last relaxed NLP stopped), and the stage that needs the most.
  std::vector<int> stages;
  std::vector<int> stages_at_bound;   ///< the stages with s_k within 1e-3·max(1, bound) of it
  std::vector<int> clock_violated;    ///< stages whose clock constraint is violated (> 1e-6·max(1, T_phys))
  std::vector<double> speed_of_time;  ///< s_k of every stage in the last iterate
  double max_clock_violation = 0.0;   ///< over all clock constraints
  std::string bound;                  ///< "upper" or "lower": the bound in the way ("" if none)
  std::string key;                    ///< the option to change: time_freezing.speed_of_time.upper / .lower
  double bound_value = std::numeric_limits<double>::quiet_NaN();
  /// Estimated value the bound needs, NaN if the estimate is not beyond it: the largest over the
  /// stages of (T_phys/N + τ_k)/L (stagewise clock constraints) or (T_phys + Σ τ_k)/T (terminal),
  /// τ_k the unscaled numerical time the stage's jumps and contact phases freeze the clock, from
  /// an explicit simulation of the last iterate's controls (RK4, s = 1) or, if that fails, from
  /// the iterate (s_k·L − clock advance).
  double needed = std::numeric_limits<double>::quiet_NaN();
  /// τ of the stage that needs the most (Σ τ_k with terminal clock constraints); NaN with `needed`.
  double frozen_time = std::numeric_limits<double>::quiet_NaN();
  std::string message;  ///< what to change; "" = nothing points at the speed of time
  bool empty() const { return message.empty(); }
};

/// For a result of `solver` (built from model.pss's DCS) that did not converge: looks at the speed
/// of time and the clock constraints in the last iterate (docs/guide-ocp.md, "Speed-of-time
/// bounds"). Upper bound: some s_k sits at it, or a clock constraint lags and the estimate
/// exceeds the bound. Lower bound (needed = T_phys/T, the free-flight speed): the clock runs
/// ahead where s_k sits at it. Otherwise, and for converged results, the diagnosis is empty.
/// The message names the option keys of problem files (time_freezing.speed_of_time.upper, ...).
SpeedOfTimeDiagnosis diagnose_speed_of_time(const reformulate::TimeFrozenModel& model, const Solver& solver,
                                            const Result& result);

/// Never throws for a failed re-simulation (resimulated = false and the reason in `message`);
/// the constraint checks are done in any case. `spec` and `options` are the OCP's (speed-of-time
/// bounds, α regularization, discretization and homotopy options are reused by the integrator).
Validation validate(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec,
                    const Options& options, const Result& result, const PhysicalResult& physical,
                    const ValidationOptions& validation = {});

}  // namespace stasis::ocp
