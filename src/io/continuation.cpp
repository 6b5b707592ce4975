// The parameter continuation of ocp files (include/stasis/io/continuation.hpp).
#include "stasis/io/continuation.hpp"

#include "file_schema.hpp"
#include "stasis/error.hpp"
#include "stasis/io/problem_file.hpp"
#include "stasis/reformulate/dcs.hpp"

namespace stasis::io {

std::string ParameterContinuation::override_for(double value) const {
  return "model." + model_kind + ".parameters." + parameter + "=" + detail::num(value);
}

SolveTotals totals(const ocp::Result& result, const std::vector<ContinuationStage>& continuation) {
  SolveTotals t{result.nlp_iterations(), result.nlp_solves(), result.solve_time_s};
  for (const ContinuationStage& c : continuation) {
    t.nlp_iterations += c.result.nlp_iterations();
    t.nlp_solves += c.result.nlp_solves();
    t.wall_time_s += c.result.solve_time_s;
  }
  return t;
}

std::vector<ContinuationStage> solve_continuation(
    const OcpFile& file, const std::function<OcpFile(const std::vector<std::string>&)>& read,
    const ContinuationCallbacks& callbacks) {
  if (!file.continuation) throw Error(file.path + ": the file has no continuation section");
  const ParameterContinuation& c = *file.continuation;
  std::vector<ContinuationStage> stages;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    const OcpFile f =
        read({c.override_for(c.values[i]), "homotopy.complementarity_tol=" + detail::num(c.tolerance),
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
      throw Error(to_string(c.where) + ": continuation: with " + c.parameter + " = " +
                  detail::num(c.values[i]) + " the MPCC has " +
                  std::to_string(solver.transcription().problem.n_variables()) + " variables, before " +
                  std::to_string(start.size()) + ": the parameter must not change the problem's structure");
    stages.push_back({c.values[i], solver.solve_from(start)});
  }
  return stages;
}

RepeatedProblem read_repeated_problem(const OcpFile& file, const ocp::Solver& target,
                                      const std::vector<std::string>& overrides) {
  const ocp::InitializationOptions& init = file.initialization;
  if (init.method != ocp::InitializationOptions::Method::Repeat)
    throw Error(file.path + ": initialization.method is not repeat");
  const std::string context = file.path + ": initialization.problem " + init.problem + ": ";
  std::string kind;
  try {
    kind = read_kind(init.problem);
  } catch (const Error& e) {
    throw Error(context + e.what());
  }
  if (kind != "ocp") throw Error(context + "the shorter problem must be an ocp file (it has kind '" + kind + "')");
  RepeatedProblem cut{read_ocp_file(init.problem, overrides), nullptr};
  if (cut.file.initialization.method == ocp::InitializationOptions::Method::Repeat)
    throw Error(context + "it asks for a repeated start itself; give it another initialization");
  const ocp::Options options{cut.file.discretization, cut.file.homotopy, cut.file.initialization};
  const reformulate::Dcs dcs = reformulate::to_dcs(cut.file.model.pss, options.discretization.dcs);
  cut.solver = std::make_unique<ocp::Solver>(dcs, cut.file.ocp, options);
  try {
    // Only the layouts are compared here; the values come after the cut's solve.
    (void)ocp::repeat_solution(*cut.solver, cut.solver->nominal_point(), target,
                               static_cast<std::size_t>(init.from_stage), {});
  } catch (const Error& e) {
    throw Error(context + e.what());
  }
  return cut;
}

}  // namespace stasis::io
