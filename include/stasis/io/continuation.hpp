#pragma once
// The parameter continuation of ocp files (the `continuation:` section; docs/guide-ocp.md
// "Parameter continuation"): the problem solved with a model parameter at a sequence of values,
// each from the solution before, to reach a problem the homotopy cannot solve from the nominal
// guess at once.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stasis/io/model_file.hpp"
#include "stasis/ocp/solver.hpp"

namespace stasis::io {

struct ContinuationStage {
  double value = 0.0;  ///< the parameter's value
  ocp::Result result;  ///< its solve (with the file's phase 1 for the first value)
};

struct ContinuationCallbacks {
  std::function<void(std::size_t stage, double value)> on_stage;  ///< before each value's solve
  std::function<void(const mpcc::StepStats&)> on_step;            ///< every homotopy step
};

/// IPOPT iterations, NLP solves and wall time of a solve and the continuation stages before it.
struct SolveTotals {
  int nlp_iterations = 0, nlp_solves = 0;
  double wall_time_s = 0.0;
};
SolveTotals totals(const ocp::Result& result, const std::vector<ContinuationStage>& continuation);

/// Solves the values of file.continuation in turn. `read(extra_overrides)` must read the same
/// file with these overrides added to the run's own: the parameter's value, the homotopy stopping
/// at continuation.tolerance and no penalty finish. The first value is solved from the nominal
/// guess (after the file's initialization), each next one from the solution before. The last
/// stage's result.w is the start of the file's own problem. Throws stasis::Error if the file has
/// no continuation or a value's MPCC differs in size from the first (a parameter that changes
/// the problem's structure).
std::vector<ContinuationStage> solve_continuation(
    const OcpFile& file, const std::function<OcpFile(const std::vector<std::string>&)>& read,
    const ContinuationCallbacks& callbacks = {});

/// The shorter problem of initialization.method repeat (ocp::InitializationOptions::Method::Repeat):
/// its file and a solver built for it.
struct RepeatedProblem {
  OcpFile file;
  std::unique_ptr<ocp::Solver> solver;
};

/// Reads file.initialization.problem (as read_ocp_file resolved it) and builds its solver, with
/// the shorter file's own discretization, homotopy and initialization. Checks that it fits
/// (ocp::repeat_solution on its nominal point), so a mismatch is reported before any solve. Throws
/// stasis::Error (naming both files) if the method is not repeat, the file is not an ocp file,
/// itself asks for a repeated start, or does not fit.
/// `overrides` ("-o" arguments) apply to the shorter file (e.g. a benchmark's iteration limits).
RepeatedProblem read_repeated_problem(const OcpFile& file, const ocp::Solver& target,
                                      const std::vector<std::string>& overrides = {});

}  // namespace stasis::io
