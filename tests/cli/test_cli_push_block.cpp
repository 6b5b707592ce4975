// examples/time_freezing/push_block.yaml end to end: a friction OCP in persistent contact (issue #5,
// "a friction OCP of your choice"), solved from the trivial initial guess.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace cli_test;

// With N = 5 stages of 0.4 s the discrete optimum is derived in closed form (this file): the block
// slides during three consecutive stages with accelerations (A, 0, -A) on top of the friction force
// mu g = 4.905 (the minimum-norm profile with sum a = 0 and distance 0.16 (2.5 a1 + 1.5 a2 + 0.5 a3)
// = 1 gives A = 3.125) and sticks otherwise, so J = 0.4 (3 (mu g)^2 + 2 A^2) = 36.6833308 and the
// pushing controls are mu g + (A, 0, -A) = (8.03, 4.905, 1.78). Which three stages slide is not
// unique (the cost does not depend on it), so the test checks the sorted nonzero controls.
TEST(CliPushBlock, FrictionOcpReachesTheDiscreteOptimum) {
  const std::string out = temp_dir("push_block");
  CliRun r = run("solve " + std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/push_block.yaml -o ocp.stages=5 --out " +
                 out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "converged");
  EXPECT_LE(j["complementarity_residual"].get<double>(), 1e-9);
  const double mu_g = 0.5 * 9.81, A = 3.125;
  EXPECT_NEAR(j["objective"].get<double>(), 0.4 * (3 * mu_g * mu_g + 2 * A * A), 1e-5);
  std::vector<double> pushing;
  for (double u : j["controls"]["u"].get<std::vector<double>>())
    if (std::abs(u) > 1e-6) pushing.push_back(u);
  std::sort(pushing.begin(), pushing.end());
  ASSERT_EQ(pushing.size(), 3u);
  EXPECT_NEAR(pushing[0], mu_g - A, 1e-5);
  EXPECT_NEAR(pushing[1], mu_g, 1e-5);
  EXPECT_NEAR(pushing[2], mu_g + A, 1e-5);
  // At the target and at rest, on the floor, after exactly 2 s of physical time.
  EXPECT_NEAR(j["states"]["x"].back().get<double>(), 1.0, 1e-8);
  EXPECT_NEAR(j["states"]["vx"].back().get<double>(), 0.0, 1e-8);
  EXPECT_NEAR(j["time"].back().get<double>(), 2.0, 1e-8);
  for (double z : j["states"]["z"].get<std::vector<double>>()) EXPECT_NEAR(z, 0.0, 1e-7);
  // The re-simulated controls reproduce the trajectory.
  EXPECT_LT(j["validation"]["final_state_deviation"].get<double>(), 1e-6);
}

// With a terminal clock constraint only, the physical control grid is free and the stages are not
// equal (measured 0.679, 0.182, 0.380, 0.380, 0.380 s). The validation re-simulates stage by stage
// over that grid (docs/guide-ocp.md "Validation"), so every stage end is compared and the
// deviation stays at the solver tolerances (measured 2.1e-8; limit 1e-6). About 4 s.
TEST(CliPushBlock, TerminalClockValidationFollowsTheOcpGrid) {
  const std::string out = temp_dir("push_block_terminal");
  CliRun r = run("solve " + std::string(STASIS_SOURCE_DIR) +
                 "/examples/time_freezing/push_block.yaml -o ocp.stages=5 -o time_freezing.clock_constraints=terminal "
                 "-q --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = read_json(out + "/result.json");
  const auto t = j["control_time"].get<std::vector<double>>();
  ASSERT_EQ(t.size(), 5u);
  double shortest = 1e9, longest = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double length = (k + 1 < t.size() ? t[k + 1] : 2.0) - t[k];
    shortest = std::min(shortest, length);
    longest = std::max(longest, length);
  }
  EXPECT_GT(longest - shortest, 0.1);  // a non-equidistant grid, or the test shows nothing
  const auto& v = j["validation"];
  EXPECT_TRUE(v["passed"].get<bool>()) << v.dump();
  EXPECT_LT(v["final_state_deviation"].get<double>(), 1e-6);
  for (const auto& d : v["stage_end_deviation"]) EXPECT_LT(d.get<double>(), 1e-6) << v.dump();
}

// The same problem with the smoothed phase 1 (docs/guide-ocp.md "Initialization"): the same discrete
// optimum (to 1e-5, as above), phase-1 rows i0..i4 in the progress table and their record in
// result.json, iteration totals over both phases.
TEST(CliPushBlock, SmoothedInitializationReachesTheSameOptimum) {
  const std::string out = temp_dir("push_block_smoothed");
  CliRun r = run("solve " + std::string(STASIS_SOURCE_DIR) +
                 "/examples/time_freezing/push_block.yaml -o ocp.stages=5 -o initialization.method=smoothed "
                 "-o homotopy.sigma0=1e-6 -o ocp.validate=false --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("initialization: smoothed standard time stepping"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\n  i0 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\n  i4 "), std::string::npos) << r.output;
  auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "converged");
  const double mu_g = 0.5 * 9.81, A = 3.125;
  EXPECT_NEAR(j["objective"].get<double>(), 0.4 * (3 * mu_g * mu_g + 2 * A * A), 1e-5);
  const auto& init = j["solver"]["initialization"];
  EXPECT_EQ(init["method"], "smoothed");
  ASSERT_EQ(init["steps"].size(), 5u);
  EXPECT_NEAR(init["steps"][4]["sigma"].get<double>(), 1e-6, 1e-12);
  int homotopy_iterations = 0;
  for (const auto& s : j["solver"]["homotopy"]) homotopy_iterations += s["iterations"].get<int>();
  EXPECT_EQ(j["solver"]["nlp_iterations"].get<int>(), homotopy_iterations + init["nlp_iterations"].get<int>());
}

// The block pushed 2 m in 4 s (10 stages) from the 5-stage problem's solution repeated
// (initialization.method repeat, docs/guide-ocp.md "Initialization"): `stasis check` reads and
// fits the shorter file, `solve` solves it first (rows i0, i1, ...) and then this one, which stays
// at two pushes, J = 2·J_5 (tests/ocp/test_ocp_repeat.cpp); result.json records the shorter
// problem's solve. A shift of an unknown state is an error at its line, a missing shorter file an
// error that names both files.
TEST(CliPushBlock, RepeatedStartFromTheShorterProblem) {
  namespace fs = std::filesystem;
  const std::string dir = temp_dir("push_block_repeat");
  fs::create_directories(dir);
  std::string cut = read_text(std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/push_block.yaml");
  std::string twice = cut;
  cut.replace(cut.find("stages: 10"), 10, "stages: 5");
  twice.replace(twice.find("horizon: 2\n"), 11, "horizon: 4\n");
  twice.replace(twice.find("\"x == 1\""), 8, "\"x == 2\"");
  twice += "homotopy: {sigma0: 1e-6}\ninitialization:\n  method: repeat\n  problem: cut.yaml\n  shift: {x: 1}\n";
  std::ofstream(dir + "/cut.yaml") << cut;
  std::ofstream(dir + "/twice.yaml") << twice;
  CliRun check = run("check " + dir + "/twice.yaml");
  EXPECT_EQ(check.exit_code, 0) << check.output;

  const std::string out = dir + "/out";
  CliRun r = run("solve " + dir + "/twice.yaml -o ocp.validate=false --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("cut.yaml solved first, then repeated from its stage 0, shifting x by 1 per repetition"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\n  i0 "), std::string::npos) << r.output;
  auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "converged");
  const double mu_g = 0.5 * 9.81, A = 3.125, cut_objective = 0.4 * (3 * mu_g * mu_g + 2 * A * A);
  EXPECT_NEAR(j["objective"].get<double>(), 2 * cut_objective, 1e-5);
  const auto& init = j["solver"]["initialization"];
  EXPECT_EQ(init["method"], "repeat");
  EXPECT_EQ(fs::path(init["problem"].get<std::string>()).filename(), "cut.yaml");
  EXPECT_EQ(init["from_stage"], 0);
  EXPECT_EQ(init["status"], "converged");
  EXPECT_NEAR(init["objective"].get<double>(), cut_objective, 1e-5);
  EXPECT_LE(init["complementarity_residual"].get<double>(), 1e-9);
  EXPECT_FALSE(init["steps"].empty());
  int homotopy_iterations = 0;
  for (const auto& s : j["solver"]["homotopy"]) homotopy_iterations += s["iterations"].get<int>();
  EXPECT_EQ(j["solver"]["nlp_iterations"].get<int>(), homotopy_iterations + init["nlp_iterations"].get<int>());

  // `stasis check` on a variant of the file (one text replaced): its exit code and output.
  auto check_variant = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string text = twice;
    text.replace(text.find(from), from.size(), to);
    std::ofstream(dir + "/" + name) << text;
    return run("check " + dir + "/" + name);
  };
  CliRun b = check_variant("bad.yaml", "shift: {x: 1}", "shift: {q: 1}");
  EXPECT_NE(b.exit_code, 0);
  EXPECT_NE(b.output.find("bad.yaml:"), std::string::npos) << b.output;
  EXPECT_NE(b.output.find("initialization.shift: 'q' is not a state of the model"), std::string::npos) << b.output;
  // A shorter problem that is not there: both files named.
  CliRun m = check_variant("missing.yaml", "problem: cut.yaml", "problem: gone.yaml");
  EXPECT_NE(m.exit_code, 0);
  EXPECT_NE(m.output.find("missing.yaml: initialization.problem"), std::string::npos) << m.output;
  EXPECT_NE(m.output.find("cannot read problem file"), std::string::npos) << m.output;
}

}  // namespace
