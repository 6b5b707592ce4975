#pragma once
// Readers for `kind: simulate` and `kind: ocp` problem files with a `pss` model
// (PROBLEM_FORMAT.md). Every error is a stasis::Error whose message starts with
// "file:line:column: error:" (or "command line (-o ...): error:" for an override) and names the
// offending key, name, region or constraint.
//
// Physical time: the name `t` may be used in every expression of the model and the ocp. If any of
// them actually uses it, the reader appends a state named `t` with ṫ = 1 and t(0) = 0 and sets
// model::Pss::time_state to its index (with `clock: s`, `t` is the clock state s instead and no
// state is added). A user state, control, parameter or definition named `t` is an error.
#include <string>
#include <utility>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/io/expression.hpp"
#include "stasis/model/pss.hpp"
#include "stasis/mpcc/options.hpp"
#include "stasis/sym/expr.hpp"

namespace stasis::io {

/// The `model: {pss: ...}` section.
struct PssModelFile {
  /// States and controls are symbols named as in the file, in declaration order (plus the state
  /// `t`, last, if expressions use physical time); x0; the subsystems with their regions.
  model::Pss pss;
  std::vector<std::pair<std::string, double>> parameters;  ///< scalar parameters, in order
  std::vector<std::pair<std::string, std::vector<double>>> vector_parameters;  ///< list-valued parameters
  std::vector<std::pair<std::string, sym::Expr>> definitions;  ///< named expressions, in order
  SourceLocation where;                                        ///< the `pss:` key
};

struct SimulateFile {
  std::string path;         ///< display name of the file
  std::string name;         ///< optional `name:`
  std::string description;  ///< optional `description:`
  PssModelFile model;
  double horizon = 0.0;  ///< simulate.horizon: physical time (> 0)
  int steps = 0;         ///< simulate.steps: integrator steps (> 0)
  /// simulate.controls: constant control values in declaration order (size n_u; default 0).
  std::vector<double> controls;
  /// simulate.warm_start: start each step from the previous step's solution.
  bool warm_start = false;
  discretize::Options discretization;  ///< from `discretization:` via discretize::set_option, validated
  mpcc::HomotopyOptions homotopy;      ///< from `homotopy:` via mpcc::set_option (preset first), validated
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
};

/// Reads a `kind: simulate` file. `overrides` are "-o" arguments "dotted.path=value" (value parsed
/// as YAML) applied to the YAML tree before it is interpreted, e.g. "simulate.steps=200",
/// "discretization.stages=3", "model.pss.parameters.w=3", "homotopy.ipopt.max_iter=100".
SimulateFile read_simulate_file(const std::string& path, const std::vector<std::string>& overrides = {});
/// Same, from text; `display_name` stands for the file name in messages.
SimulateFile read_simulate_string(const std::string& yaml_text, const std::string& display_name,
                                  const std::vector<std::string>& overrides = {});

/// Reads a `kind: ocp` file; overrides as for read_simulate_file (e.g. "ocp.stages=20",
/// "ocp.controls.u.upper=3", "ocp.constraints.at=elements").
OcpFile read_ocp_file(const std::string& path, const std::vector<std::string>& overrides = {});
OcpFile read_ocp_string(const std::string& yaml_text, const std::string& display_name,
                        const std::vector<std::string>& overrides = {});

}  // namespace stasis::io
