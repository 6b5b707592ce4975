// The parameter continuation of ocp files (include/stasis/io/continuation.hpp).
#include "stasis/io/continuation.hpp"

#include <cstdio>

#include "stasis/error.hpp"
#include "stasis/reformulate/dcs.hpp"

namespace stasis::io {

std::vector<ContinuationStage> solve_continuation(
    const OcpFile& file, const std::function<OcpFile(const std::vector<std::string>&)>& read,
    const ContinuationCallbacks& callbacks) {
  if (!file.continuation) throw Error(file.path + ": the file has no continuation section");
  const ParameterContinuation& c = *file.continuation;
  char tolerance[40];
  std::snprintf(tolerance, sizeof tolerance, "%.17g", c.tolerance);
  std::vector<ContinuationStage> stages;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    const OcpFile f = read({c.override_for(c.values[i]), std::string("homotopy.complementarity_tol=") + tolerance,
                            "homotopy.penalty_finish=false"});
    const ocp::Options options{f.discretization, f.homotopy, f.initialization};
    const reformulate::Dcs dcs = reformulate::to_dcs(f.model.pss, options.discretization.dcs);
    ocp::Solver solver(dcs, f.ocp, options);
    solver.on_step = callbacks.on_step;
    if (callbacks.on_stage) callbacks.on_stage(i, c.values[i]);
    if (stages.empty()) {
      stages.push_back({c.values[i], solver.solve()});
      continue;
    }
    const std::vector<double>& start = stages.back().result.w;
    if (start.size() != solver.transcription().problem.n_variables())
      throw Error(to_string(c.where) + ": continuation: with " + c.parameter + " = " + std::to_string(c.values[i]) +
                  " the MPCC has " + std::to_string(solver.transcription().problem.n_variables()) +
                  " variables, before " + std::to_string(start.size()) +
                  ": the parameter must not change the problem's structure");
    stages.push_back({c.values[i], solver.solve_from(start)});
  }
  return stages;
}

}  // namespace stasis::io
