// End-to-end: `stasis solve` on time-frozen OCPs whose speed-of-time bounds are too tight. A bound
// that cannot be met on its face is bad input (exit 2, nothing written); a solve that fails because
// of the bound gets a diagnosis naming the stages, the option key and the value it needs, printed
// and written into result.json (`message`, `speed_of_time_diagnosis`; docs/results.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace cli_test;

#define EXPECT_CONTAINS(str, part) EXPECT_NE((str).find(part), std::string::npos) << (str)

std::string inelastic_2d() {
  return std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/inelastic_2d_ocp.yaml";
}

// inelastic_2d_ocp, small: 5 stages (T/N = 0.4) of 2 elements of Radau IIA n_s = 2, `steps`
// homotopy steps from σ = 1 without the example's α regularization and IPOPT settings (the settings
// this test was written for), no validation (~0.5 s per step).
std::string small_inelastic_2d(const std::string& upper, int steps = 1) {
  return inelastic_2d() +
         " -o ocp.stages=5 -o discretization.stages=2 -o discretization.elements=2 -o homotopy.max_steps=" +
         std::to_string(steps) +
         " -o ocp.validate=false -o homotopy.sigma0=1 -o homotopy.tol=1e-12 -o homotopy.max_iter=500"
         " -o time_freezing.alpha_regularization=0 -o time_freezing.speed_of_time.upper=" +
         upper;
}

}  // namespace

// The particle falls from 1.5 (it can only be pushed sideways) and lands at t = 0.553 in stage 1
// (0.4..0.8) with v2 = -5.425: the impact freezes the clock for τ = 5.425/9.81 = 0.553, and the
// sliding contact after it (a_n = g: the clock runs at rate 1/2, s = 2 compensates) adds
// (0.8 - 0.553)·(2 - 1) = 0.247, so stage 1 needs s = (0.4 + 0.8)/0.4 = 3.0 > 1.5.
TEST(CliSpeedOfTime, LandingStageNeedsAHigherUpperBound) {
  const std::string out = temp_dir("speed_of_time_low_upper");
  CliRun r = run("solve " + small_inelastic_2d("1.5") + " --out " + out);
  ASSERT_EQ(r.exit_code, 1) << r.output;
  EXPECT_CONTAINS(r.output, "NOT converged: last NLP ended with");
  EXPECT_CONTAINS(r.output, "diagnosis: speed of time");
  EXPECT_CONTAINS(r.output, "s_k sits at time_freezing.speed_of_time.upper = 1.5");
  EXPECT_CONTAINS(r.output, "raise time_freezing.speed_of_time.upper to at least 3");
  auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "failed");
  const std::string message = j["message"];
  EXPECT_CONTAINS(message, "last NLP ended with");
  EXPECT_CONTAINS(message, "time_freezing.speed_of_time.upper");
  ASSERT_TRUE(j.contains("speed_of_time_diagnosis")) << j.dump(1);
  const auto& d = j["speed_of_time_diagnosis"];
  EXPECT_EQ(d["bound"], "upper");
  EXPECT_EQ(d["key"], "time_freezing.speed_of_time.upper");
  EXPECT_EQ(d["bound_value"].get<double>(), 1.5);
  EXPECT_NEAR(d["needed"].get<double>(), 3.0, 0.05);
  EXPECT_NEAR(d["frozen_time"].get<double>(), 0.8, 0.02);
  const auto stages = d["stages"].get<std::vector<int>>();
  EXPECT_NE(std::find(stages.begin(), stages.end(), 1), stages.end()) << d.dump();
  EXPECT_FALSE(d["stages_at_bound"].empty());
  EXPECT_EQ(d["speed_of_time"].size(), 5u);
  for (const char* key : {"clock_violated", "max_clock_violation", "message"})
    EXPECT_TRUE(d.contains(key)) << key;
  EXPECT_CONTAINS(message, d["message"].get<std::string>());

  // With room above the need the last relaxed NLP solves (not converged: two homotopy steps) and no
  // diagnosis is written. Two steps, not one: the σ = 1 NLP alone is a poor witness here, its
  // relaxation is solved by freezing the clock in every stage (objective 0) and, with the lifted
  // form's free θ and β, IPOPT ends it at the iteration limit (500, constraint violation 5e-5);
  // σ = 0.1 then solves in 95 iterations (the full homotopy converges, J = 68.158).
  const std::string out2 = temp_dir("speed_of_time_enough_upper");
  CliRun r2 = run("solve " + small_inelastic_2d("4", 2) + " --quiet --out " + out2);
  ASSERT_EQ(r2.exit_code, 1) << r2.output;
  EXPECT_EQ(r2.output.find("diagnosis:"), std::string::npos) << r2.output;
  auto j2 = read_json(out2 + "/result.json");
  EXPECT_EQ(j2["status"], "not_converged");
  EXPECT_FALSE(j2.contains("speed_of_time_diagnosis"));
}

// A fixed initial state that starts an impact the first stage cannot hold: `check` and `solve`
// reject it before solving (exit 2), naming the key and the value needed.
TEST(CliSpeedOfTime, InitialImpactIsRejectedBeforeSolving) {
  const std::string dir = temp_dir("speed_of_time_initial_impact");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/impact.yaml";
  std::ofstream(file) << R"(kind: ocp
model:
  cls:
    positions: [q]
    velocities: [v]
    controls: [u]
    forces: [u - 9.81]
    contacts:
      - {name: floor, gap: q}
    x0: {q: 0, v: -4}
ocp:
  horizon: 0.6
  stages: 6
  controls: {u: {lower: -30, upper: 30}}
  cost: {running: "u^2"}
time_freezing:
  normal_acceleration: 9.81
  speed_of_time: {lower: 1, upper: 2}
)";
  for (const std::string& args : {"check " + file, "solve " + file + " --out " + dir + "/out"}) {
    CliRun r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.output;
    EXPECT_CONTAINS(r.output, "impact.yaml: error: the initial state starts an impact at contact 'floor'");
    EXPECT_CONTAINS(r.output, "needs a speed of time of at least (T/N + τ)/(T/N) = 5.08");
    EXPECT_CONTAINS(r.output, "raise time_freezing.speed_of_time.upper to at least 5.08");
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/result.json"));
  // Raised as suggested, `check` passes.
  CliRun ok = run("check " + file + " -o time_freezing.speed_of_time.upper=5.08");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
}
