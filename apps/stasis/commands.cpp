// The CLI verbs: read, build, solve, report progress, write results.
#include "commands.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <iostream>

#include "stasis/error.hpp"
#include "stasis/io/mpcc_build.hpp"
#include "stasis/io/problem_file.hpp"
#include "stasis/mpcc/homotopy.hpp"

namespace stasis::cli {

namespace {

std::string default_out_dir(const std::string& file) {
  return (std::filesystem::path("out") / std::filesystem::path(file).stem()).string();
}

void print_step_header() {
  fmt::print("{:>4}  {:>9}  {:>9}  {:>14}  {:>5}  {:<34} {:>8}\n", "step", "sigma", "residual", "objective", "iter",
             "status", "time");
}

void print_step(const mpcc::StepStats& s) {
  fmt::print("{:>4}  {:>9.2e}  {:>9.2e}  {:>14.7e}  {:>5}  {:<34} {:>7.3f}s\n", s.step, s.sigma, s.residual, s.objective,
             s.iterations, nlp::to_string(s.status), s.wall_time_s);
  std::fflush(stdout);
}

void require_kind(const std::string& file, const std::string& expected) {
  std::string kind = io::read_kind(file);
  if (kind != expected)
    throw Error(file + ": this file has kind '" + kind + "'; use 'stasis " +
                (kind == "ocp" ? std::string("solve") : kind) + "' for it");
}

}  // namespace

int run_mpcc(const CommonOptions& o) {
  require_kind(o.file, "mpcc");
  io::MpccFile file = io::read_mpcc_file(o.file, o.overrides);
  if (o.verbose) file.options.print_level = 5;
  mpcc::Problem problem = io::build_mpcc(file);
  mpcc::Homotopy homotopy(problem, file.options);
  if (!o.quiet) {
    fmt::print("stasis mpcc {}: {} variables, {} constraints, {} complementarity pairs\n", o.file,
               problem.n_variables(), problem.n_constraints(), problem.n_pairs());
    fmt::print("homotopy: relaxation {}, steering {}, sigma0 {:g}, kappa {:g}, tolerance {:g}, at most {} steps\n",
               mpcc::to_string(file.options.relaxation), mpcc::to_string(file.options.steering), file.options.sigma0,
               file.options.kappa, file.options.complementarity_tol, homotopy.max_steps());
    print_step_header();
    homotopy.on_step = print_step;
  }
  mpcc::Result r = homotopy.solve();
  std::string dir = o.out_dir.empty() ? default_out_dir(o.file) : o.out_dir;
  std::string out = (std::filesystem::path(dir) / "result.json").string();
  io::write_text_file(out, io::mpcc_result_json(file, r));

  fmt::print("{}: {} (residual {:.2e}, objective {:.10g}) after {} NLP solves, {} IPOPT iterations, {:.3f} s\n",
             r.converged ? "converged" : "NOT converged", r.message, r.residual, r.objective, r.nlp_solves,
             r.nlp_iterations, r.wall_time_s);
  if (!o.quiet) {
    std::string values;
    for (std::size_t i = 0; i < file.variables.size(); ++i)
      values += fmt::format("{}{} = {:.10g}", i ? ", " : "", file.variables[i].name, r.w[i]);
    fmt::print("solution: {}\nwrote {}\n", values, out);
  }
  return r.converged ? 0 : 1;
}

int run_check(const CommonOptions& o) {
  std::string kind = io::read_kind(o.file);
  if (kind != "mpcc")
    throw Error(o.file + ": 'stasis check' does not handle kind '" + kind + "' in this version yet");
  io::MpccFile file = io::read_mpcc_file(o.file, o.overrides);
  mpcc::Problem problem = io::build_mpcc(file);
  mpcc::Homotopy homotopy(problem, file.options);  // builds and compiles the relaxed NLP
  nlp::Problem& nlp = homotopy.relaxed();
  nlp.check_bounds();
  std::vector<double> w = nlp.start();
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::clamp(w[i], nlp.variable_lower()[i], nlp.variable_upper()[i]);
  nlp.check_finite_at(w.data());
  fmt::print("{}: kind mpcc, OK\n", o.file);
  fmt::print("  variables {}, constraints {}, complementarity pairs {}\n", problem.n_variables(),
             problem.n_constraints(), problem.n_pairs());
  fmt::print("  relaxed NLP: {} variables, {} rows, Jacobian nnz {}, Hessian nnz {}\n", nlp.n_variables(),
             nlp.n_constraints(), nlp.jacobian_nnz(), nlp.hessian_nnz());
  fmt::print("  start point: objective {:.10g}, complementarity residual {:.3e}\n", problem.objective(problem.start()),
             problem.complementarity_residual(problem.start()));
  return 0;
}

}  // namespace stasis::cli
