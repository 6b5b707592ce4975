#pragma once
// Readers for `kind: simulate` and `kind: ocp` problem files with a `pss`, `cls` or `jump` model
// and the `time_freezing:` section (PROBLEM_FORMAT.md). Every error is a stasis::Error whose
// message starts with "file:line:column: error:" (or "command line (-o ...): error:" for an
// override) and names the offending key, name, region, contact or constraint.
//
// Physical time (pss): the name `t` may be used in every expression of the model and the ocp. If any of
// them actually uses it, the reader appends a state named `t` with ṫ = 1 and t(0) = 0 and sets
// model::Pss::time_state to its index (with `clock: s`, `t` is the clock state s instead and no
// state is added). A user state, control, parameter or definition named `t` is an error.
//
// cls and jump models are read into model::Cls / model::JumpSystem and reformulated by
// reformulate::time_freezing right away: `model.pss` is the time-frozen PSS (states (q, v, t) or
// (x, t), the clock `t` last, pss.clock its index) and the optional `time_freezing` member of the
// file carries the model as read, the options and the TimeFrozenModel. There `t` is the clock
// state in every expression (time-varying forces, costs, constraints).
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/io/draw.hpp"
#include "stasis/io/expression.hpp"
#include "stasis/model/cls.hpp"
#include "stasis/model/jump_system.hpp"
#include "stasis/model/pss.hpp"
#include "stasis/mpcc/options.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/ocp/time_frozen.hpp"
#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sim/integrator.hpp"
#include "stasis/sym/expr.hpp"

namespace stasis::io {

/// The `model:` section as a PSS: `model: {pss: ...}` itself, or the time-frozen PSS of a cls or
/// jump model (then = SimulateFile/OcpFile::time_freezing->frozen.pss).
struct PssModelFile {
  /// States and controls are symbols named as in the file, in declaration order (plus the state
  /// `t`, last, if expressions use physical time; for cls/jump models the clock `t`, always last);
  /// x0; the subsystems with their regions.
  model::Pss pss;
  std::vector<std::pair<std::string, double>> parameters;  ///< scalar parameters, in order
  std::vector<std::pair<std::string, std::vector<double>>> vector_parameters;  ///< list-valued parameters
  std::vector<std::pair<std::string, sym::Expr>> definitions;  ///< named expressions, in order
  SourceLocation where;                                        ///< the `pss:` (`cls:`, `jump:`) key
  std::string kind;                                            ///< "pss", "cls" or "jump"
};

/// A `model: {cls: ...}` or `model: {jump: ...}` section with the `time_freezing:` section, and the
/// time-frozen model built from them.
struct TimeFreezingFile {
  /// The model as read. Positions, velocities (states) and controls are symbols named as in the
  /// file; for an energy-based cls, mass = ∂²T/∂v² and forces = given − (∂²T/∂v∂q) v + ∂T/∂q − ∂V/∂q.
  /// Its expressions may contain `time` (when uses_time): that symbol is the clock state of
  /// `frozen.pss` (the model's own validate() would reject it; the reader has validated and
  /// reformulated it with `time` as the clock).
  std::variant<model::Cls, model::JumpSystem> model;
  sym::Expr time;          ///< the symbol `t` = frozen.pss.x[frozen.clock]
  bool uses_time = false;  ///< the model's dynamics use `t`
  /// normal_acceleration, stiffness (elastic cls), stabilize_positions, eps_t, elastic_mode.
  reformulate::TimeFreezingOptions options;
  /// The rest of the section, with the defaults of ocp::TimeFreezingSettings:
  /// - speed_of_time: bounds and start of s per simulation step / control stage (sim::Options for
  ///   kind: simulate), ρ_sot (speed_of_time.penalty, ocp only);
  /// - clock_constraints and running_cost (ocp only);
  /// - alpha_regularization: weight of each inelastic gap's α at every stage point, a method term
  ///   kept out of the reported objective (discretize::OcpSpec::alpha_penalty); 0 = off, the
  ///   default. See docs/guide-cls.md.
  /// For kind: ocp the reader passes them to ocp::set_time_freezing (into OcpFile::ocp).
  ocp::TimeFreezingSettings settings;
  /// The weights settings.alpha_regularization gives for `frozen` (one per switching function;
  /// empty if off or not applicable).
  std::vector<double> alpha_penalty() const;
  /// The model reformulated with other options (e.g. the dense form of a lifted one, for
  /// ocp::ValidationOptions::alternative_model), as the reader builds `frozen` (the clock is `time`);
  /// its x0 is the model's as read. Throws stasis::Error.
  reformulate::TimeFrozenModel reformulated(const reformulate::TimeFreezingOptions& with) const;
  /// The reformulation (reformulate::time_freezing); frozen.pss is the file's model.pss (with the
  /// file's x0, also after ocp.initial starts).
  reformulate::TimeFrozenModel frozen;
  SourceLocation where;  ///< the `cls:` or `jump:` key

  bool is_cls() const { return std::holds_alternative<model::Cls>(model); }
  const model::Cls* cls() const { return std::get_if<model::Cls>(&model); }
  const model::JumpSystem* jump() const { return std::get_if<model::JumpSystem>(&model); }
  /// Physical states (positions then velocities, or the jump model's states), without the clock.
  std::vector<std::string> physical_state_names() const;
};

struct SimulateFile {
  std::string path;         ///< display name of the file
  std::string name;         ///< optional `name:`
  std::string description;  ///< optional `description:`
  PssModelFile model;
  double horizon = 0.0;  ///< simulate.horizon: physical time (> 0)
  /// simulate.steps: integrator steps (> 0). Time-frozen models whose jumps have a known length
  /// (elastic cls, jump model with the built-in law): checked that a step can hold a jump,
  /// speed_of_time.upper * h >= h + tau_jump with h = horizon / steps.
  int steps = 0;
  /// simulate.controls: constant control values in declaration order (size n_u; default 0).
  std::vector<double> controls;
  /// simulate.warm_start: start each step from the previous step's solution.
  bool warm_start = false;
  discretize::Options discretization;  ///< from `discretization:` via discretize::set_option, validated
  mpcc::HomotopyOptions homotopy;      ///< from `homotopy:` via mpcc::set_option (preset first), validated
  /// cls / jump models: the model, time-freezing options (speed of time for the integrator) and
  /// the TimeFrozenModel (for sim::recover_physical); empty for pss models.
  std::optional<TimeFreezingFile> time_freezing;
  /// The optional `draw:` section (stasis/io/draw.hpp): how to draw the model in the report.
  std::optional<DrawSpec> draw;
};

/// The optional `continuation:` section of ocp files (docs/guide-ocp.md "Parameter continuation"):
/// before the problem as written, solve it with the scalar model parameter `parameter` at each of
/// `values` in turn, each from the solution before (the first from the nominal guess, after the
/// file's initialization), and start the file's own problem from the last one. For a constraint
/// that the homotopy cannot impose at once (the hopper's holes, grown from half their size).
struct ParameterContinuation {
  std::string parameter;
  std::vector<double> values;
  /// Each value's homotopy stops at this complementarity residual (its solution is only a start).
  double tolerance = 1e-6;
  /// The -o override that sets the parameter: "model.<kind>.parameters.<parameter>=<value>".
  std::string override_for(double value) const;
  std::string model_kind;  ///< "pss", "cls" or "jump"
  SourceLocation where;    ///< the `continuation:` key
};

struct OcpFile {
  std::string path, name, description;
  PssModelFile model;
  /// horizon, stages, control bounds/start (size n_u), state boxes (size n_x), costs, path and
  /// terminal constraints (names: "'text' (file:line:col)"), path complementarity, free initial
  /// states (x0_free, x0_lower, x0_upper; their `start` replaces model.pss.x0), time_optimal and
  /// final_time bounds. Vectors sized n_x include the state `t` when it was added (unbounded, fixed
  /// at 0 initially).
  discretize::OcpSpec ocp;
  std::vector<std::string> state_names;    ///< = model.pss.state_names
  std::vector<std::string> control_names;  ///< = model.pss.control_names
  /// From `discretization:`; path_at from `ocp.constraints.at`.
  discretize::Options discretization;
  mpcc::HomotopyOptions homotopy;
  ocp::InitializationOptions initialization;  ///< from `initialization:`, validated
  /// cls / jump models (as for SimulateFile); then ocp.clock = frozen.clock and the speed-of-time,
  /// clock-constraint and running-cost settings are copied into `ocp`.
  std::optional<TimeFreezingFile> time_freezing;
  std::optional<DrawSpec> draw;  ///< the optional `draw:` section
  /// ocp.validate (time-frozen models; ocp::validate): integrator steps per control stage of the
  /// re-simulation of the optimal controls, 0 = no validation. `true` = 1 (default), `false` = 0.
  int validate_steps_per_stage = 1;
  /// ocp.validation (a stasis extension): the verdict's gap_tolerance, constraint_tolerance and
  /// deviation_tolerance, over ocp::ValidationOptions' defaults; the caller sets the rest
  /// (steps_per_stage from validate_steps_per_stage, transcription, alternative_model).
  ocp::ValidationOptions validation;
  std::optional<ParameterContinuation> continuation;  ///< the optional `continuation:` section
};

/// Reads a `kind: simulate` file. `overrides` are "-o" arguments "dotted.path=value" (value parsed
/// as YAML) applied to the YAML tree before it is interpreted, e.g. "simulate.steps=200",
/// "discretization.stages=3", "model.pss.parameters.w=3", "homotopy.ipopt.max_iter=100",
/// "time_freezing.speed_of_time.upper=40", "model.cls.contacts.0.friction=0.3".
SimulateFile read_simulate_file(const std::string& path, const std::vector<std::string>& overrides = {});
/// Same, from text; `display_name` stands for the file name in messages.
SimulateFile read_simulate_string(const std::string& yaml_text, const std::string& display_name,
                                  const std::vector<std::string>& overrides = {});
/// The integrator options a `kind: simulate` file asks for: horizon, steps, controls, warm start,
/// discretization, homotopy and, for time-frozen models, the speed-of-time bounds.
sim::Options integrator_options(const SimulateFile& file);

/// Reads a `kind: ocp` file; overrides as for read_simulate_file (e.g. "ocp.stages=20",
/// "ocp.controls.u.upper=3", "ocp.constraints.at=elements").
OcpFile read_ocp_file(const std::string& path, const std::vector<std::string>& overrides = {});
OcpFile read_ocp_string(const std::string& yaml_text, const std::string& display_name,
                        const std::vector<std::string>& overrides = {});

}  // namespace stasis::io
