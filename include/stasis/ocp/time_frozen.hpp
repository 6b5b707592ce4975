#pragma once
// Time-frozen OCP solutions (cls / jump models; time_freezing.md §3–§4):
// - recover_physical: the physical-time trajectory (the clock at every element boundary where it
//   runs; a jump = two consecutive points with the same time), impacts, contact forces and the
//   §4.7 sanity checks (sim::recover_physical), the physical control grid (the clock at each
//   stage start) and the stages in which the clock does not advance at all (frozen stages, whose
//   controls have no physical meaning);
// - validate: re-simulate the optimal controls with the time-freezing integrator (each stage's
//   control held over its physical interval) and compare with the OCP trajectory; check gaps and
//   the OCP's path constraints and bounds at every physical point of the OCP trajectory.
#include <limits>
#include <string>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sim/physical.hpp"

namespace stasis::ocp {

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

struct ValidationOptions {
  /// Integrator steps per control stage (>= 1): the re-simulation uses stages·steps_per_stage
  /// equal physical steps over the OCP's physical horizon.
  int steps_per_stage = 1;
};

struct Validation {
  /// The re-simulation ran to the end (its steps may not all have converged).
  bool resimulated = false;
  bool simulation_converged = false;   ///< every integrator step converged
  int steps = 0, steps_per_stage = 0;  ///< integrator steps in all, per control stage
  double horizon = 0.0;                ///< physical time simulated (the OCP's final time)
  /// max |x_sim − x_ocp| over the physical states (no clock) at the final time; NaN if not resimulated.
  double final_state_deviation = std::numeric_limits<double>::quiet_NaN();
  /// The same at every stage end (NaN for frozen stages and stage ends off the integrator grid).
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
  std::string message;       ///< one-line summary, or why the re-simulation failed
  double wall_time_s = 0.0;  ///< re-simulation (construction included) and checks
};

/// Never throws for a failed re-simulation (resimulated = false and the reason in `message`);
/// the constraint checks are done in any case. `spec` and `options` are the OCP's (speed-of-time
/// bounds, α regularization, discretization and homotopy options are reused by the integrator).
Validation validate(const reformulate::TimeFrozenModel& model, const discretize::OcpSpec& spec,
                    const Options& options, const Result& result, const PhysicalResult& physical,
                    const ValidationOptions& validation = {});

}  // namespace stasis::ocp
