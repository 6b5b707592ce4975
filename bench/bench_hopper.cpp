// bench_hopper — the hopping robot OCP (examples/hopper.yaml: the planar 4-DOF monoped of seed 000
// Sec. 6 over three holes, time-freezing spec §5.1) end to end through the library, as `stasis
// solve` runs it:
//
//   read     io::read_ocp_file: YAML, expression parsing, the energy-based CLS (M(q) and forces by
//            symbolic differentiation of T and V) and its time-freezing reformulation;
//   build    reformulate::to_dcs and ocp::Solver: FESD transcription, symbolic derivatives and
//            compilation of the relaxed NLP (= ocp::Result::construction_time_s);
//   solve    ocp::Solver::solve: the MPCC homotopy over IPOPT.
//
// Printed: the problem sizes; one row per homotopy step (σ, IPOPT status and iterations, wall
// time, the time spent in stasis's function/derivative callbacks (SolveResult::evaluation_time_s)
// and its share, the complementarity residual after the step, the objective, IPOPT's constraint
// violation); then totals: time per phase, IPOPT iterations, evaluation time against the rest of
// IPOPT (MUMPS, IPOPT's own linear algebra and bookkeeping), time per IPOPT iteration, peak
// resident memory (getrusage ru_maxrss) after each phase, the final complementarity residual and
// status, and for a failed solve the speed-of-time diagnosis (ocp::diagnose_speed_of_time).
//
// examples/hopper.yaml starts from its one-hole cut (examples/hopper_one_hole.yaml) repeated
// (initialization.method repeat): the cut is solved first, with its own file's settings (-o acts
// on the main file only; --steps and --max-iter on both, and --max-iter on the cut's phase 1 too),
// and its steps are the "i" rows. The benchmark
// measures whatever the solve does and exits 0 when it ran to the end (1 only if an exception
// escaped).
//
// Options (default: the file's own settings):
//   --steps N        homotopy steps (homotopy.max_steps; env STASIS_HOPPER_STEPS)
//   --max-iter M     IPOPT iterations per homotopy step (homotopy.max_iter; env STASIS_HOPPER_MAX_ITER)
//   --file PATH      another problem file (default examples/hopper.yaml in the source tree)
//   --start PATH     start from an earlier solve's start.json, as `stasis solve --start` (no
//                    initialization; the homotopy from homotopy.sigma0), e.g. a checkpoint
//   -o key=value     any further override, as `stasis solve -o` (repeatable)
//   --quick          = --steps 2 --max-iter 100, unless those are given
// Nothing here asserts on time.

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "stasis/io/continuation.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/io/results.hpp"
#include "stasis/nlp/ipopt_solver.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/ocp/time_frozen.hpp"
#include "stasis/reformulate/dcs.hpp"

using namespace stasis;
using bench::Clock;
using bench::cpu_now;
using bench::seconds_since;

namespace {

/// Peak resident set size of the process so far, in MiB (Linux reports ru_maxrss in KiB).
double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

struct Args {
  std::string file = std::string(STASIS_SOURCE_DIR) + "/examples/hopper.yaml";
  std::string steps, max_iter;  // empty = the file's setting
  std::string start;             // empty = the file's initialization
  std::vector<std::string> overrides;
  std::vector<std::string> cut_overrides;  // --steps and --max-iter for a repeated start's shorter problem
  bool quick = false;
};

bool is_count(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

void usage() {
  std::fprintf(
      stderr,
      "usage: bench_hopper [--steps N] [--max-iter M] [--file PATH] [--start PATH] [-o key=value]... [--quick]\n"
      "  --steps N      homotopy steps (env STASIS_HOPPER_STEPS; default: the file's homotopy.max_steps)\n"
      "  --max-iter M   IPOPT iterations per homotopy step (env STASIS_HOPPER_MAX_ITER; default: the "
      "file's)\n"
      "  --start PATH   start from an earlier solve's start.json (as stasis solve --start)\n"
      "  --quick        --steps 2 --max-iter 100 unless given\n");
}

// Returns false on a usage error.
bool parse(int argc, char** argv, Args& a) {
  if (const char* e = std::getenv("STASIS_HOPPER_STEPS")) a.steps = e;
  if (const char* e = std::getenv("STASIS_HOPPER_MAX_ITER")) a.max_iter = e;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= argc) return false;
      into = argv[++i];
      return true;
    };
    if (arg == "--steps") {
      if (!value(a.steps)) return false;
    } else if (arg == "--max-iter") {
      if (!value(a.max_iter)) return false;
    } else if (arg == "--file") {
      if (!value(a.file)) return false;
    } else if (arg == "--start") {
      if (!value(a.start)) return false;
    } else if (arg == "-o") {
      std::string o;
      if (!value(o)) return false;
      a.overrides.push_back(o);
    } else if (arg == "--quick") {
      a.quick = true;
    } else {
      return false;
    }
  }
  if (a.quick) {
    if (a.steps.empty()) a.steps = "2";
    if (a.max_iter.empty()) a.max_iter = "100";
  }
  if ((!a.steps.empty() && (!is_count(a.steps) || a.steps == "0")) ||
      (!a.max_iter.empty() && !is_count(a.max_iter))) {
    std::fprintf(stderr, "bench_hopper: --steps needs a count >= 1 and --max-iter a count >= 0\n");
    return false;
  }
  if (!a.steps.empty()) a.overrides.push_back("homotopy.max_steps=" + a.steps);
  if (!a.max_iter.empty()) a.overrides.push_back("homotopy.max_iter=" + a.max_iter);
  // The shorter problem of a repeated start (examples/hopper.yaml) is cut short the same way: its
  // homotopy and its phase 1.
  if (!a.steps.empty()) a.cut_overrides.push_back("homotopy.max_steps=" + a.steps);
  if (!a.max_iter.empty()) {
    a.cut_overrides.push_back("homotopy.max_iter=" + a.max_iter);
    a.cut_overrides.push_back("initialization.max_iter=" + a.max_iter);
  }
  return true;
}

double share(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

int run(const Args& a) {
  std::printf("bench_hopper: %s\n", a.file.c_str());
  for (const auto& o : a.overrides) std::printf("  -o %s\n", o.c_str());
  const double rss_start = peak_rss_mib();

  // ---- read ----
  auto t0 = Clock::now();
  double c0 = cpu_now();
  io::OcpFile file = io::read_ocp_file(a.file, a.overrides);
  const double read_s = seconds_since(t0), read_cpu = cpu_now() - c0;
  const double rss_read = peak_rss_mib();

  // ---- build ----
  t0 = Clock::now();
  c0 = cpu_now();
  ocp::Options options{file.discretization, file.homotopy, file.initialization};
  if (file.time_freezing) ocp::check_speed_of_time(file.time_freezing->frozen, file.ocp);
  reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, options.discretization.dcs);
  ocp::Solver solver(dcs, file.ocp, options);
  // initialization.method repeat (examples/hopper.yaml): the shorter problem's solver too.
  std::optional<io::RepeatedProblem> repeated;
  if (options.initialization.method == ocp::InitializationOptions::Method::Repeat && a.start.empty())
    repeated = io::read_repeated_problem(file, solver, a.cut_overrides);
  const double build_s = seconds_since(t0), build_cpu = cpu_now() - c0;
  const double rss_build = peak_rss_mib();

  const mpcc::Problem& mp = solver.transcription().problem;
  nlp::Problem& nlp = solver.homotopy().relaxed();
  const mpcc::HomotopyOptions& h = options.homotopy;
  std::printf(
      "model: %zu states, %zu controls, %zu regions (%s form); %d stages x %d elements, %s n_s = %d\n",
      dcs.n_x(), dcs.n_u(), dcs.theta.size(), reformulate::to_string(dcs.mode), file.ocp.stages,
      options.discretization.elements, discretize::to_string(options.discretization.scheme),
      options.discretization.stages);
  std::printf("MPCC: %zu variables, %zu constraints, %zu complementarity pairs\n", mp.n_variables(),
              mp.n_constraints(), mp.n_pairs());
  std::printf("relaxed NLP: %zu variables, %zu rows, Jacobian nnz %zu, Hessian nnz %zu\n", nlp.n_variables(),
              nlp.n_constraints(), nlp.jacobian_nnz(), nlp.hessian_nnz());
  std::printf("homotopy: sigma0 %g, kappa %g, complementarity_tol %g, at most %d steps, IPOPT max_iter %d\n",
              h.sigma0, h.kappa, h.complementarity_tol, solver.homotopy().max_steps(), h.max_iter);

  std::vector<double> start;
  std::optional<nlp::Multipliers> start_duals;
  if (!a.start.empty()) {  // as `stasis solve --start`: the point, and the multipliers matched by row
    io::MpccStart st = io::read_mpcc_start_file(a.start, {mp.n_variables(), mp.n_constraints(), mp.n_pairs()});
    start = std::move(st.w);
    if (auto matched = io::match_multipliers(st, io::multiplier_keys(nlp), nlp.n_variables()))
      start_duals = std::move(matched->multipliers);
    std::printf("start: %s%s\n", a.start.c_str(), start_duals ? " with its multipliers" : "");
  }
  // ---- solve ----
  std::printf("\n%4s %9s %-34s %6s %9s %9s %6s %10s %14s %9s\n", "step", "sigma", "IPOPT status", "iter",
              "wall s", "eval s", "eval%", "residual", "objective", "viol");
  solver.on_step = [](const mpcc::StepStats& s) {
    // Steps of the initialization (phase 1, or the shorter problem) are numbered i0, i1, ...
    const std::string step = (s.initialization ? "i" : "") + std::to_string(s.step);
    std::printf("%4s %9.2e %-34s %6d %9.3f %9.3f %5.1f%% %10.2e %14.7e %9.2e\n", step.c_str(), s.sigma,
                nlp::to_string(s.status), s.iterations, s.wall_time_s, s.evaluation_time_s,
                share(s.evaluation_time_s, s.wall_time_s), s.residual, s.objective, s.constraint_violation);
    std::fflush(stdout);
  };
  c0 = cpu_now();
  ocp::Result r = !start.empty() ? solver.solve_from(start, start_duals ? &*start_duals : nullptr)
                  : repeated     ? solver.solve_repeating(*repeated->solver)
                                 : solver.solve();
  const double solve_cpu = cpu_now() - c0;
  const double rss_solve = peak_rss_mib();
  const mpcc::Result& hr = r.homotopy;

  // ---- totals ----
  double ipopt_wall = 0.0;
  for (const auto& s : r.initialization.steps) ipopt_wall += s.wall_time_s;
  for (const auto& s : hr.steps) ipopt_wall += s.wall_time_s;
  const double eval = hr.evaluation_time_s + r.initialization.evaluation_time_s;
  std::printf("\n%-46s %10s %10s %8s\n", "phase", "wall s", "cpu s", "peak MiB");
  std::printf("%-46s %10s %10s %8.1f\n", "(process start)", "", "", rss_start);
  std::printf("%-46s %10.3f %10.3f %8.1f\n", "read (YAML, CLS, time freezing)", read_s, read_cpu, rss_read);
  std::printf("%-46s %10.3f %10.3f %8.1f\n", "build (DCS, transcription, compile)", build_s, build_cpu,
              rss_build);
  std::printf("%-46s %10.3f %10.3f %8.1f\n", "solve (homotopy)", r.solve_time_s, solve_cpu, rss_solve);
  std::printf("%-46s %10.3f %10s %8s\n", "  in IPOPT (sum over steps)", ipopt_wall, "", "");
  std::printf("%-46s %10.3f %10s %8s   %5.1f%% of IPOPT time\n", "    our function/derivative evaluation",
              eval, "", "", share(eval, ipopt_wall));
  std::printf("%-46s %10.3f %10s %8s   %5.1f%% of IPOPT time\n",
              "    rest of IPOPT (MUMPS, linear algebra, ...)", ipopt_wall - eval, "", "",
              share(ipopt_wall - eval, ipopt_wall));
  std::printf("%-46s %10.3f %10s %8s\n", "  homotopy outside IPOPT (residuals, unpack)",
              r.solve_time_s - ipopt_wall, "", "");
  const auto iterations_list = [](const std::vector<mpcc::StepStats>& steps) {
    std::string list;
    for (const auto& s : steps) list += (list.empty() ? "" : ", ") + std::to_string(s.iterations);
    return list.empty() ? std::string("none") : list;
  };
  std::string per_step = "homotopy " + iterations_list(hr.steps);
  if (!r.initialization.steps.empty())
    per_step = std::string(repeated ? "the shorter problem " : "phase 1 ") + iterations_list(r.initialization.steps) +
               "; " + per_step;
  const int iterations = r.nlp_iterations();
  std::printf("\nIPOPT iterations: %d in %d NLP solves (per step: %s)", iterations, r.nlp_solves(), per_step.c_str());
  if (iterations > 0)
    std::printf("; %.2f ms per iteration, of which %.2f ms evaluation", 1e3 * ipopt_wall / iterations,
                1e3 * eval / iterations);
  std::printf("\nstatus: %s (last NLP: %s)\n", r.converged ? "converged" : "NOT converged",
              nlp::to_string(hr.last_status));
  std::printf("message: %s\n", r.message.c_str());
  // The returned point is the last good iterate (the start point if every step failed); the
  // table's last row is where the last relaxed NLP stopped.
  std::printf(
      "final complementarity residual: %.3e at the returned point (tolerance %g; %.3e where the last NLP "
      "stopped); objective %.10g\n",
      r.residual, h.complementarity_tol, hr.steps.empty() ? r.residual : hr.steps.back().residual,
      r.objective);
  if (file.time_freezing && !r.states.empty()) {
    const auto clock = static_cast<std::size_t>(file.time_freezing->frozen.clock);
    std::printf("physical final time (clock): %.6g of %.6g\n", r.states.back()[clock], file.ocp.horizon);
    const ocp::SpeedOfTimeDiagnosis d = ocp::diagnose_speed_of_time(file.time_freezing->frozen, solver, r);
    if (!d.empty()) std::printf("diagnosis: %s\n", d.message.c_str());
  }
  std::printf("peak memory (ru_maxrss): %.1f MiB\n", rss_solve);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse(argc, argv, a)) {
    usage();
    return 2;
  }
  try {
    return run(a);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_hopper: %s\n", e.what());
    return 1;
  }
}
