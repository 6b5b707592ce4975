// End-to-end tests of `stasis mpcc` and `stasis check` on the example files: known solutions in
// every relaxation and steering mode, result.json contents, and clear errors on bad input.
#include <gtest/gtest.h>

#include "cli_support.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using namespace cli_test;

std::string example(const std::string& name) { return std::string(STASIS_SOURCE_DIR) + "/examples/mpcc/" + name; }

std::string write_temp_file(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p.string();
}

// Known solutions, from the examples' header comments (sources there). Degenerate solutions are
// approached like sqrt(σ) by the relaxations, so at residual <= 1e-9 their tolerance is
// 4·sqrt(1e-9) (the largest factor among the examples' relaxed minimizers); strictly
// complementary ones converge much faster (1e-6).
struct Known {
  std::string file;
  std::map<std::string, double> solution;
  double objective;
  double tolerance;
};
const Known kKnown[] = {
    {"ralph_example.yaml", {{"x1", 1.0}, {"x2", 0.0}}, 0.0, 1e-6},
    {"not_s_stationary.yaml", {{"x1", 0.0}, {"x2", 0.0}, {"x3", 0.0}}, 0.0, 4 * std::sqrt(1e-9) * 1.01},
    {"ralph2.yaml", {{"x", 0.0}, {"y", 0.0}}, 0.0, 4 * std::sqrt(1e-9) * 1.01},
    {"scholtes5.yaml", {{"z1", 1.0}, {"z2", 2.0}, {"z3", 0.0}}, 1.0, 1e-6},
    {"bard1.yaml", {{"x", 1.0}, {"y", 0.0}, {"l1", 3.5}, {"l2", 0.0}, {"l3", 0.0}}, 17.0, 1e-6},
};

const std::pair<const char*, const char*> kModes[] = {
    {"scholtes_ineq", "direct"}, {"scholtes_ineq", "ell_inf"}, {"scholtes_ineq", "ell_1"},
    {"scholtes_eq", "direct"},   {"scholtes_eq", "ell_inf"},   {"scholtes_eq", "ell_1"},
    {"ell1_penalty", "direct"},
};

}  // namespace

TEST(CliMpcc, ExamplesReachKnownSolutionsInEveryMode) {
  for (const Known& k : kKnown) {
    for (const auto& [relaxation, steering] : kModes) {
      SCOPED_TRACE(k.file + " " + relaxation + "/" + steering);
      std::string out = temp_dir("cli_" + k.file + relaxation + steering);
      CliRun r = run("mpcc " + example(k.file) + " --quiet --out " + out + " -o options.relaxation=" + relaxation +
                  " -o options.steering=" + steering);
      ASSERT_EQ(r.exit_code, 0) << r.output;
      auto j = read_json(out + "/result.json");
      EXPECT_EQ(j["status"], "converged");
      EXPECT_LE(j["complementarity_residual"].get<double>(), 1e-9);
      auto solution = k.solution;
      double objective = k.objective;
      if (k.file == "scholtes5.yaml" && std::string(relaxation) == "scholtes_eq" && std::string(steering) != "ell_1") {
        // A known limitation, asserted so that it stays documented: with one σ (or one elastic
        // variable) for both pairs, z1·z3 = σ = z2·z3 forces z1 = z2 along the whole path, so the
        // equality relaxation can only reach (1.5, 1.5, 0), f = 1.5 — feasible, not stationary.
        // Per-pair elastic variables (ell_1) remove the coupling and reach z* (checked below).
        // Whether rounding lets the path break the symmetry z1 = z2 near σ -> 0 depends on the
        // BLAS under MUMPS: Debian's reference BLAS stalls, OpenBLAS was seen to reach z*. Both
        // are accepted; anything else fails.
        if (std::abs(j["objective"].get<double>() - k.objective) > 10 * k.tolerance) {
          solution = {{"z1", 1.5}, {"z2", 1.5}, {"z3", 0.0}};
          objective = 1.5;
        }
      }
      // The stall point is approached only like sqrt(σ)-type degenerate paths (measured 4e-6).
      const bool stalled = objective == 1.5;
      const double tol = stalled ? 1e-4 : k.tolerance;
      for (const auto& [name, value] : solution) EXPECT_NEAR(j["variables"][name].get<double>(), value, tol) << name;
      EXPECT_NEAR(j["objective"].get<double>(), objective, 10 * tol);
    }
  }
}

TEST(CliMpcc, ResultFileAndProgressLines) {
  std::string out = temp_dir("progress");
  CliRun r = run("mpcc " + example("ralph_example.yaml") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sigma"), std::string::npos);
  EXPECT_NE(r.output.find("converged"), std::string::npos);
  auto j = read_json(out + "/result.json");
  ASSERT_TRUE(j["solver"]["homotopy"].is_array());
  EXPECT_GE(j["solver"]["homotopy"].size(), 1u);
  for (const char* key : {"sigma", "residual", "objective", "iterations", "status", "wall_time_s"})
    EXPECT_TRUE(j["solver"]["homotopy"][0].contains(key)) << key;
  EXPECT_GT(j["solver"]["nlp_iterations"].get<int>(), 0);
  // one progress line per homotopy step
  std::size_t lines = 0;
  for (std::size_t p = r.output.find("Solve_Succeeded"); p != std::string::npos; p = r.output.find("Solve_Succeeded", p + 1))
    ++lines;
  EXPECT_EQ(lines, j["solver"]["homotopy"].size());
}

// Active-set polishing from the command line: not_s_stationary.yaml's σ = 1 step has residual 1
// (x1 = x2 = 1, guide-mpcc.md); with the threshold at 1 its branch x1 = 0 gives the exact
// minimizer (0, 0, 0) at once. The progress table has a "polish" row; result.json marks it.
TEST(CliMpcc, PolishingRowAndRecord) {
  std::string out = temp_dir("polish");
  CliRun r = run("mpcc " + example("not_s_stationary.yaml") + " --out " + out +
                 " -o options.polish=true -o options.polish_threshold=1.000001");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  polish  "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("active-set polishing"), std::string::npos) << r.output;
  auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "converged");
  EXPECT_EQ(j["complementarity_residual"].get<double>(), 0.0);
  const auto& steps = j["solver"]["homotopy"];
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_FALSE(steps[0].contains("polish"));
  EXPECT_EQ(steps[1]["polish"], true);
  EXPECT_EQ(steps[1]["sigma"].get<double>(), 0.0);
  for (const char* x : {"x1", "x2", "x3"}) EXPECT_NEAR(j["variables"][x].get<double>(), 0.0, 1e-9) << x;
}

// A run whose NLP fails names the rows it could not satisfy: x + y <= -1 with x, y >= 0 is violated
// by at least 1 wherever IPOPT stops, and the message names the row by its text and file:line.
TEST(CliMpcc, FailedRunNamesItsLargestViolations) {
  const std::string file = write_temp_file("infeasible_row.yaml", R"(kind: mpcc
name: infeasible
variables:
  x: {lower: 0, start: 1}
  y: {lower: 0, start: 1}
objective: "x^2 + y^2"
constraints:
  - "x + y <= -1"
complementarity:
  - [x, y]
options:
  max_steps: 1
)");
  std::string out = temp_dir("violations");
  CliRun r = run("mpcc " + file + " --out " + out);
  ASSERT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("largest constraint violations"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("x + y <= -1"), std::string::npos) << r.output;
  auto j = read_json(out + "/result.json");
  const auto& v = j["solver"]["largest_violations"];
  ASSERT_FALSE(v.empty()) << j.dump();
  EXPECT_NE(v[0]["constraint"].get<std::string>().find("x + y <= -1"), std::string::npos) << v.dump();
  EXPECT_GE(v[0]["violation"].get<double>(), 1.0 - 1e-9);
  EXPECT_EQ(j["solver"]["homotopy"][0]["largest_violations"], v);
}

// A run that does not converge names the pairs that hold its residual up. ralph2 stopped after its
// σ = 1 step: the relaxed minimizer is x = y = sqrt(σ) = 1 (the file's header), so its one pair has
// G = H = 1 and product 1 (to IPOPT's tolerance). A converged run has no such list.
TEST(CliMpcc, NotConvergedRunNamesItsLargestProducts) {
  std::string out = temp_dir("largest");
  CliRun r = run("mpcc " + example("ralph2.yaml") + " --out " + out + " -o options.max_steps=1");
  ASSERT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("largest complementarity products"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("'[x, y]' (" + example("ralph2.yaml") + ":19:5)"), std::string::npos) << r.output;
  auto j = read_json(out + "/result.json");
  const auto& pairs = j["solver"]["largest_pairs"];
  ASSERT_EQ(pairs.size(), 1u) << j.dump();
  EXPECT_NEAR(pairs[0]["G"].get<double>(), 1.0, 1e-6);
  EXPECT_NEAR(pairs[0]["H"].get<double>(), 1.0, 1e-6);
  EXPECT_NEAR(pairs[0]["product"].get<double>(), j["complementarity_residual"].get<double>(), 1e-15);
  EXPECT_NE(pairs[0]["pair"].get<std::string>().find("[x, y]"), std::string::npos);

  std::string done = temp_dir("largest_converged");
  CliRun c = run("mpcc " + example("ralph_example.yaml") + " --out " + done);
  ASSERT_EQ(c.exit_code, 0) << c.output;
  EXPECT_EQ(c.output.find("largest complementarity products"), std::string::npos) << c.output;
  EXPECT_FALSE(read_json(done + "/result.json")["solver"].contains("largest_pairs"));
  EXPECT_FALSE(read_json(done + "/result.json")["solver"].contains("largest_violations"));
}

TEST(CliMpcc, NosnocPresetRunsTheSameProblem) {
  std::string out = temp_dir("nosnoc");
  CliRun r = run("mpcc " + example("bard1.yaml") + " --quiet --out " + out + " -o options.preset=nosnoc");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NEAR(read_json(out + "/result.json")["objective"].get<double>(), 17.0, 1e-5);
}

TEST(CliMpcc, CheckPrintsSizes) {
  CliRun r = run("check " + example("bard1.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("complementarity pairs"), std::string::npos) << r.output;
}

TEST(CliMpcc, BadInputGivesCleanErrors) {
  struct Case {
    std::string name, yaml, expect;
  };
  const Case cases[] = {
      {"malformed_expression.yaml",
       "kind: mpcc\nvariables:\n  x: {}\nobjective: \"(x - 1\"\n", "malformed_expression.yaml:4:"},
      {"unknown_key.yaml", "kind: mpcc\nvariables:\n  x: {}\nobjectve: \"x^2\"\n", "objectve"},
      {"bounds.yaml", "kind: mpcc\nvariables:\n  x: {lower: 2, upper: 1}\nobjective: \"x^2\"\n", "x"},
      {"nan_start.yaml", "kind: mpcc\nvariables:\n  x: {start: -1}\nobjective: \"log(x)\"\n", "log(x)"},
      {"undeclared.yaml", "kind: mpcc\nvariables:\n  x: {}\nobjective: \"x + y\"\n", "'y'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::string file = write_temp_file(c.name, c.yaml);
    CliRun r = run("mpcc " + file + " --out " + temp_dir(c.name));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
  }
  CliRun r = run("mpcc " + example("bard1.yaml") + " -o options.sigma_zero=1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("sigma_zero"), std::string::npos) << r.output;
}

TEST(CliMpcc, HelpOnEveryCommand) {
  for (const char* cmd : {"", "mpcc ", "simulate ", "solve ", "check ", "report "}) {
    CliRun r = run(std::string(cmd) + "--help");
    EXPECT_EQ(r.exit_code, 0) << cmd << r.output;
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << cmd;
  }
}
