// The C++ example programs (examples/cpp/*.cpp, built as bin/example_NAME next to the CLI) run and
// print the reference figures of the problems they build (issue #5). Skipped when the examples
// are not built (-DSTASIS_BUILD_EXAMPLES=OFF).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace cli_test;
namespace fs = std::filesystem;

std::string example_path(const std::string& name) {
  return (fs::path(STASIS_CLI).parent_path() / ("example_" + name)).string();
}

std::vector<std::string> lines_starting_with(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  return lines;
}

}  // namespace

// examples/cpp/bouncing_ball.cpp: seed 002's ball (time_freezing.md §6.1, T3) with the settings of
// tests/sim/test_time_freezing.cpp SeedBouncingBall and the same tolerances: eight impacts, the
// first at sqrt(2 q0/g) with v- = -sqrt(2 g q0) (1e-6), post-impact velocities within 1e-2
// relative of the 0.9-geometric sequence, physical time 15 at the end.
TEST(CppExamples, BouncingBallPrintsTheSeedImpacts) {
  const std::string exe = example_path("bouncing_ball");
  if (!fs::exists(exe)) GTEST_SKIP() << "no " << exe << " (STASIS_BUILD_EXAMPLES=OFF?)";
  const CliRun r = shell(exe + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("impacts: 8\n"), std::string::npos) << r.output;
  const std::vector<std::string> impacts = lines_starting_with(r.output, "impact t = ");
  ASSERT_EQ(impacts.size(), 8u) << r.output;
  const double g = 9.81, q0 = 10.0;
  double v = std::sqrt(2 * g * q0);
  for (std::size_t i = 0; i < impacts.size(); ++i) {
    SCOPED_TRACE(impacts[i]);
    double t = 0, v_minus = 0, v_plus = 0;
    ASSERT_EQ(std::sscanf(impacts[i].c_str(), "impact t = %lf v- = %lf v+ = %lf", &t, &v_minus, &v_plus), 3);
    if (i == 0) {
      EXPECT_NEAR(t, std::sqrt(2 * q0 / g), 1e-6);
      EXPECT_NEAR(v_minus, -v, 1e-6);
    }
    EXPECT_NEAR(v_plus, 0.9 * v, 1e-2 * 0.9 * v);
    v *= 0.9;
  }
  const std::vector<std::string> final_line = lines_starting_with(r.output, "final time ");
  ASSERT_EQ(final_line.size(), 1u) << r.output;
  double t_end = 0, q = 0, v_end = 0;
  ASSERT_EQ(std::sscanf(final_line[0].c_str(), "final time %lf q = %lf v = %lf", &t_end, &q, &v_end), 3);
  EXPECT_NEAR(t_end, 15.0, 1e-8);
  EXPECT_GE(q, 0.0);
}

// examples/cpp/push_block.cpp: push_block.yaml with N = 5 stages, whose discrete optimum is known in
// closed form (tests/cli/test_cli_push_block.cpp): J = 0.4 (3 (mu g)^2 + 2 A^2) = 36.6833308 (1e-5),
// the pushing controls mu g + (A, 0, -A), A = 3.125 (1e-5, in whichever three stages), zero in the
// other two; at x = 1 and at rest after 2 s of physical time; re-simulation within 1e-6.
TEST(CppExamples, PushBlockReachesTheDiscreteOptimum) {
  const std::string exe = example_path("push_block");
  if (!fs::exists(exe)) GTEST_SKIP() << "no " << exe << " (STASIS_BUILD_EXAMPLES=OFF?)";
  const CliRun r = shell(exe + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const double mu_g = 0.5 * 9.81, A = 3.125;
  const std::vector<std::string> objective = lines_starting_with(r.output, "objective ");
  ASSERT_EQ(objective.size(), 1u) << r.output;
  double J = 0, residual = 1;
  ASSERT_EQ(std::sscanf(objective[0].c_str(), "objective %lf complementarity residual %lf", &J, &residual), 2);
  EXPECT_NEAR(J, 0.4 * (3 * mu_g * mu_g + 2 * A * A), 1e-5);
  EXPECT_NEAR(J, 36.6833308, 1e-5);
  EXPECT_LE(residual, 1e-9);

  const std::vector<std::string> stages = lines_starting_with(r.output, "stage ");
  ASSERT_EQ(stages.size(), 5u) << r.output;
  std::vector<double> pushing;
  for (const std::string& line : stages) {
    int k = 0;
    double t = 0, u = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "stage %d t = %lf u = %lf", &k, &t, &u), 3) << line;
    EXPECT_NEAR(t, 0.4 * k, 1e-6) << line;  // the clock meets the physical control grid
    if (std::abs(u) > 1e-6) pushing.push_back(u);
  }
  std::sort(pushing.begin(), pushing.end());
  ASSERT_EQ(pushing.size(), 3u) << r.output;
  EXPECT_NEAR(pushing[0], mu_g - A, 1e-5);
  EXPECT_NEAR(pushing[1], mu_g, 1e-5);
  EXPECT_NEAR(pushing[2], mu_g + A, 1e-5);

  const std::vector<std::string> final_line = lines_starting_with(r.output, "final time ");
  ASSERT_EQ(final_line.size(), 1u) << r.output;
  double t_end = 0, x = 0, z = 0, vx = 0, vz = 0;
  ASSERT_EQ(std::sscanf(final_line[0].c_str(), "final time %lf x = %lf z = %lf vx = %lf vz = %lf", &t_end, &x, &z,
                        &vx, &vz),
            5);
  EXPECT_NEAR(t_end, 2.0, 1e-8);
  EXPECT_NEAR(x, 1.0, 1e-8);
  EXPECT_NEAR(z, 0.0, 1e-7);
  EXPECT_NEAR(vx, 0.0, 1e-8);

  const std::vector<std::string> validation = lines_starting_with(r.output, "validation: ");
  ASSERT_EQ(validation.size(), 1u) << r.output;
  double deviation = 1;
  ASSERT_EQ(std::sscanf(validation[0].c_str(), "validation: final state deviation %lf", &deviation), 1);
  EXPECT_LT(deviation, 1e-6);
}
