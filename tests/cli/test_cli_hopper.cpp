// examples/hopper.yaml, the seed-000 hopper over three holes (issue #5): its expected figures.
// Solving it from the trivial guess takes about 25 min (make demo; docs/hopper-experiments.md,
// session 35), too long for the test suite. This test takes its converged point (session 34's H1,
// the same problem: bench/hopper/checkpoints/three_holes_v10_converged.json.gz) and solves one NLP
// of the file's ℓ1-penalty finish from it with its multipliers (about 6 s), so that the current
// code's problem has it as its solution: converged, the objective and the three impacts of the
// full run, and every constraint of the paper met at the physical points.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace cli_test;

TEST(CliHopper, TheExamplesConvergedPointIsItsSolution) {
  const std::string src = STASIS_SOURCE_DIR;
  const std::string out = temp_dir("hopper_point");
  const std::string start = out + "_start.json";
  CliRun unpack = shell("gzip -dc " + src + "/bench/hopper/checkpoints/three_holes_v10_converged.json.gz > " + start);
  ASSERT_EQ(unpack.exit_code, 0) << unpack.output;
  CliRun r = run("solve " + src + "/examples/hopper.yaml --start " + start +
                 " -o homotopy.relaxation=ell1_penalty -o homotopy.sigma0=1.220703125e-07 -o homotopy.max_steps=1"
                 " -o ocp.validate=false -q --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "converged");
  EXPECT_LE(j["complementarity_residual"].get<double>(), 1e-9);
  // J of the full runs: 186.5440 (session 35's `stasis solve examples/hopper.yaml`) and 186.5444
  // (session 34's H1); measured 186.544009 here.
  EXPECT_NEAR(j["objective"].get<double>(), 186.544, 1e-3);

  // Three hops: one landing per hop, at the ends of stages 5, 11 and 17 (t = 0.75, 1.5, 2.25).
  std::vector<double> impacts;
  for (const auto& e : j["events"])
    if (e["kind"] == "impact") impacts.push_back(e["time"].get<double>());
  ASSERT_EQ(impacts.size(), 3u);
  EXPECT_NEAR(impacts[0], 0.75, 1e-6);
  EXPECT_NEAR(impacts[1], 1.5, 1e-6);
  EXPECT_NEAR(impacts[2], 2.25, 1e-6);

  // Lift-offs and flight phases (no contact force): each hop's flight ends at its impact; in the
  // stance after a landing the foot also skips once (lifts off and touches down softly, measured
  // [0.875, 1] and [1.625, 1.75]).
  int liftoffs = 0, touchdowns = 0;
  for (const auto& e : j["events"]) {
    liftoffs += e["kind"] == "liftoff";
    touchdowns += e["kind"] == "touchdown";
  }
  EXPECT_EQ(liftoffs, 6);
  EXPECT_EQ(touchdowns, 2);
  const auto flights = j["flight_phases"];
  ASSERT_EQ(flights.size(), 6u);
  for (double impact : impacts) {
    bool ends_here = false;
    for (const auto& f : flights)
      ends_here = ends_here || (std::fabs(f[1].get<double>() - impact) < 1e-9 && f[0].get<double>() < impact - 0.2);
    EXPECT_TRUE(ends_here) << "no flight of at least 0.2 s ends at the impact at t = " << impact;
  }

  // The paper's constraints at every physical point: the foot out of the three holes (to 1e-6),
  // at most 5 mm in the ground, the terminal state q(T) = (3, 0.4, 0, 0).
  const auto& s = j["states"];
  const auto qx = s["qx"].get<std::vector<double>>(), qz = s["qz"].get<std::vector<double>>();
  const auto hip = s["phi_hip"].get<std::vector<double>>(), knee = s["phi_knee"].get<std::vector<double>>();
  ASSERT_EQ(qx.size(), j["time"].size());
  for (std::size_t i = 0; i < qx.size(); ++i) {
    const double foot_x = qx[i] - 0.2 * std::sin(hip[i]) - 0.2 * std::sin(hip[i] + knee[i]);
    const double foot_z = qz[i] - 0.2 * std::cos(hip[i]) - 0.2 * std::cos(hip[i] + knee[i]);
    EXPECT_GE(foot_z, -0.005 - 1e-6) << "point " << i;
    for (double centre : {0.5, 1.5, 2.5}) {
      const double ellipse = std::pow((foot_x - centre) / 0.25, 2) + std::pow(foot_z / 0.1, 2);
      EXPECT_GE(ellipse, 1.0 - 1e-6) << "point " << i << ", hole at x = " << centre;
    }
  }
  EXPECT_NEAR(qx.back(), 3.0, 1e-8);
  EXPECT_NEAR(qz.back(), 0.4, 1e-8);
  EXPECT_NEAR(hip.back(), 0.0, 1e-8);
  EXPECT_NEAR(knee.back(), 0.0, 1e-8);
  EXPECT_NEAR(j["time"].back().get<double>(), 2.5, 1e-8);
}

}  // namespace
