#pragma once
// Result files of `mpcc`, `simulate` and `solve` runs: result.json (PROBLEM_FORMAT.md) and CSV.
#include <limits>
#include <optional>
#include <string>

#include "stasis/io/continuation.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/io/problem_file.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/ocp/time_frozen.hpp"
#include "stasis/sim/integrator.hpp"
#include "stasis/sim/physical.hpp"

namespace stasis::io {

/// result.json for an MPCC solve (PROBLEM_FORMAT.md, "result.json").
std::string mpcc_result_json(const MpccFile& file, const mpcc::Result& result);
std::string simulation_result_json(const SimulateFile& file, const sim::Result& result);
/// `continuation`: the stages of the file's parameter continuation, if it ran (solver.continuation;
/// the solver totals then include them).
std::string ocp_result_json(const OcpFile& file, const ocp::Result& result,
                            const std::vector<ContinuationStage>& continuation = {});
/// Time-frozen (cls / jump) simulation: physical `time` and `states` (clock removed; a jump is two
/// equal consecutive times), `numerical` (every element boundary in numerical time, frozen phases
/// included), impact `events`, contact forces and the sanity-check warnings.
std::string time_frozen_simulation_result_json(const SimulateFile& file, const sim::Result& result,
                                               const sim::PhysicalTrajectory& physical);
/// Time-frozen (cls / jump) OCP: as time_frozen_simulation_result_json, plus the OCP's objective,
/// controls and solver statistics, `final_time` and `control_time` as clock values, `frozen_stages`,
/// (when given) `validation` and (when not empty) `speed_of_time_diagnosis`.
std::string time_frozen_ocp_result_json(const OcpFile& file, const ocp::Result& result,
                                        const ocp::PhysicalResult& physical,
                                        const std::optional<ocp::Validation>& validation,
                                        const ocp::SpeedOfTimeDiagnosis& diagnosis = {},
                                        const std::vector<ContinuationStage>& continuation = {});
std::string physical_trajectory_csv(const sim::PhysicalTrajectory& physical);
/// time and every state, one row per finite-element boundary.
std::string trajectory_csv(const model::Pss& model, const std::vector<double>& time,
                           const std::vector<std::vector<double>>& states);
/// time, kind, switching functions, regions before and after.
std::string events_csv(const std::vector<sim::Event>& events);
/// events.csv of a time-frozen run: one row per impact and contact (time, kind, contact, normal
/// impulse, numerical duration, the physical state before and after).
std::string impacts_csv(const sim::PhysicalTrajectory& physical);

/// The size of an MPCC, as start.json records it to check that a start fits the problem.
struct MpccSize {
  std::size_t variables = 0, constraints = 0, pairs = 0;
};
/// Where a start.json's point comes from (its `sigma`, `step` and `final`).
struct StartOrigin {
  /// σ of the relaxed NLP whose multipliers the file holds (and whose solution w is, unless a
  /// polish or penalty finish followed); NaN: not written.
  double sigma = std::numeric_limits<double>::quiet_NaN();
  std::string step;   ///< that step's label in the progress table ("i3" in phase 1, "5"); empty: not written
  bool final = true;  ///< false: a checkpoint, written after a step of a run that was still going
};
/// start.json of a `solve` run (docs/results.md "start.json"): the MPCC point the run ended at
/// (every variable of the transcription), for `stasis solve --start`, with the variables' names
/// (written when `variable_names` has one name per entry of `w`).
/// With `multipliers` (the homotopy's last relaxed NLP, mpcc::Result::multipliers; written when
/// non-empty) a later --start can warm-start IPOPT's duals too.
/// With `constraint_keys` (multiplier_keys of that relaxed NLP, one per constraint multiplier) a
/// start for a changed problem keeps the multipliers of the rows it still has (match_multipliers).
std::string mpcc_start_json(const std::string& problem_file, const MpccSize& size, const std::vector<double>& w,
                            const std::vector<std::string>& variable_names = {},
                            const nlp::Multipliers* multipliers = nullptr, const StartOrigin& origin = {},
                            const std::vector<std::string>* constraint_keys = nullptr);
/// The names under which start.json keeps a relaxed NLP's constraint multipliers: each row's
/// nlp::Problem::constraint_key without the file position of a problem file's constraint (its
/// trailing " (FILE:LINE:COLUMN)", which moves when lines are added above it), and "#2", "#3", ...
/// on a key's repeats, so that every row has its own.
std::vector<std::string> multiplier_keys(const nlp::Problem& relaxed);
/// A start.json as read: the MPCC point, the multipliers if the file has them, and its origin
/// (sigma NaN and step empty if the file does not say, as in files written before these fields).
struct MpccStart {
  std::vector<double> w;
  std::optional<nlp::Multipliers> multipliers;
  /// The rows' multiplier_keys (multipliers.constraint_keys; empty if the file has none).
  std::vector<std::string> constraint_keys;
  StartOrigin origin;
};
/// Reads a start.json for a problem of the given size. Throws stasis::Error naming the file and
/// what is wrong: not JSON, no `w`, a non-finite entry (with its index), or a different number of
/// variables or complementarity pairs (a start needs the same model, stages and discretization);
/// malformed `multipliers` (not three arrays of finite numbers, or `constraint_keys` not one
/// string per constraint multiplier) too. Their sizes are not checked against the problem here:
/// they belong to the relaxed NLP (match_multipliers fits them to it; mpcc::Homotopy ignores
/// multipliers of another size).
MpccStart read_mpcc_start_file(const std::string& path, const MpccSize& size);
/// A start's multipliers fitted to a relaxed NLP (match_multipliers).
struct MatchedMultipliers {
  nlp::Multipliers multipliers;
  std::size_t matched = 0;  ///< constraint rows whose multiplier came from the start
  std::size_t rows = 0;     ///< constraint rows of the relaxed NLP
  bool by_key = false;      ///< the rows were matched by key (the start's rows differ)
};
/// The start's multipliers for a relaxed NLP with these row keys (multiplier_keys) and this many
/// variables: as they are if the rows are the same (equal keys, or no keys and the same number),
/// otherwise matched by key, rows the start does not have starting at 0 (a changed path
/// constraint, say). std::nullopt if the start has no multipliers, has no keys and another number
/// of rows, has bound multipliers for another number of variables, or matches no row.
std::optional<MatchedMultipliers> match_multipliers(const MpccStart& start, const std::vector<std::string>& keys,
                                                    std::size_t n_variables);
/// read_mpcc_start_file's point only.
std::vector<double> read_mpcc_start(const std::string& path, const MpccSize& size);

}  // namespace stasis::io
