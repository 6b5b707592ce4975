// stasis — the command-line tool. One verb per problem kind (PROBLEM_FORMAT.md, "Commands").
// Exit codes: 0 solved/converged, 1 the solver did not converge, 2 bad input or usage.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "stasis/error.hpp"
#include "stasis/version.hpp"

int main(int argc, char** argv) {
  using namespace stasis::cli;
  CLI::App app{"stasis — optimal control and simulation of nonsmooth systems with state jumps"};
  app.set_version_flag("--version", stasis::version());
  app.require_subcommand(1);
  app.footer(
      "Problem files are YAML (see docs/problem-format.md). Every command writes DIR/result.json\n"
      "(default DIR: ./out/<file stem>) and exits 0 on success, 1 if the solver did not converge,\n"
      "2 on bad input.");

  CommonOptions common;
  auto add_common = [&common](CLI::App* sub, bool solves) {
    sub->add_option("FILE", common.file, "problem file (YAML)")->required()->check(CLI::ExistingFile);
    sub->add_option("-o,--option", common.overrides,
                    "override a value of the file: -o key.path=value (e.g. -o options.sigma0=0.5); repeatable");
    if (solves) {
      sub->add_option("--out", common.out_dir, "output directory (default ./out/<file stem>)");
      sub->add_flag("-q,--quiet", common.quiet, "print only errors and the final summary line");
      sub->add_flag("-v,--verbose", common.verbose, "also print IPOPT's own iteration log");
    }
  };
  CLI::App* mpcc = app.add_subcommand("mpcc", "solve a generic MPCC (kind: mpcc)");
  add_common(mpcc, true);
  CLI::App* simulate = app.add_subcommand("simulate", "simulate a model (kind: simulate; pss models)");
  add_common(simulate, true);
  CLI::App* solve = app.add_subcommand("solve", "solve an optimal control problem (kind: ocp; pss models)");
  add_common(solve, true);
  solve->add_option("--start", common.start_file,
                    "start from DIR/start.json of an earlier solve of the same model and discretization "
                    "(its MPCC point; no phase 1; the homotopy from homotopy.sigma0)")
      ->check(CLI::ExistingFile);
  CLI::App* check = app.add_subcommand("check", "parse, build and validate a problem file; print sizes; solve nothing");
  add_common(check, false);
  std::string report_dir;
  CLI::App* report = app.add_subcommand(
      "report", "(re)build DIR/report.html (plots, events, animation; self-contained) from DIR/result.json");
  report->add_option("DIR", report_dir, "a result directory")->required();
  bool markdown = false;
  CLI::App* options = app.add_subcommand("options", "list every homotopy and discretization option with its default");
  options->add_flag("--markdown", markdown, "print the docs page docs/options.md instead");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (mpcc->parsed()) return run_mpcc(common);
    if (check->parsed()) return run_check(common);
    if (simulate->parsed()) return run_simulate(common);
    if (solve->parsed()) return run_solve(common);
    if (options->parsed()) return run_options(markdown);
    if (report->parsed()) return run_report(report_dir);
  } catch (const stasis::Error& e) {
    std::cerr << "stasis: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "stasis: internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
