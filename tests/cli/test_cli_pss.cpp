// End-to-end tests of `stasis simulate` and `stasis solve` on PSS examples: result.json contents
// (PROBLEM_FORMAT.md contract), CSV files, and clean errors on bad input.
#include <gtest/gtest.h>

#include "cli_support.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

using namespace cli_test;

std::string example(const std::string& name) { return std::string(STASIS_SOURCE_DIR) + "/examples/pss/" + name; }

}  // namespace

// T2 via the CLI: result.json has time, states, events (one switch at t = 0.5) and solver stats.
TEST(CliPss, SimulateWritesTheContract) {
  std::string out = temp_dir("simple_switch");
  CliRun r = run("simulate " + example("simple_switch.yaml") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("step    16/16"), std::string::npos) << r.output;  // a progress line per step
  auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "converged");
  ASSERT_TRUE(j["time"].is_array());
  EXPECT_EQ(j["time"].size(), j["states"]["x"].size());
  EXPECT_NEAR(j["time"].back().get<double>(), 1.5, 1e-12);
  EXPECT_NEAR(j["states"]["x"].back().get<double>(), 0.2, 1e-6);
  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0]["kind"], "switch");
  EXPECT_NEAR(j["events"][0]["time"].get<double>(), 0.5, 1e-5);
  EXPECT_EQ(j["events"][0]["switching"][0], 0);
  EXPECT_GT(j["solver"]["nlp_iterations"].get<int>(), 0);
  EXPECT_EQ(j["solver"]["steps"].size(), 16u);
  std::string csv = read_text(out + "/trajectory.csv");
  EXPECT_EQ(csv.rfind("time,x\n", 0), 0u) << csv.substr(0, 40);
  EXPECT_NE(read_text(out + "/events.csv").find("switch"), std::string::npos);
}

// R5 via the CLI: time-optimal, controls per stage, final_time 40/3.
TEST(CliPss, SolveWritesControlsAndFinalTime) {
  std::string out = temp_dir("turbo");
  CliRun r = run("solve " + example("turbo_car.yaml") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = read_json(out + "/result.json");
  EXPECT_EQ(j["status"], "converged");
  EXPECT_NEAR(j["final_time"].get<double>(), 40.0 / 3.0, 1e-4);
  EXPECT_NEAR(j["objective"].get<double>(), 40.0 / 3.0, 1e-4);  // min T: the objective is T itself
  ASSERT_EQ(j["control_time"].size(), 10u);
  ASSERT_EQ(j["controls"].begin().value().size(), 10u);
  EXPECT_LE(j["complementarity_residual"].get<double>(), 1e-9);
  EXPECT_GE(j["solver"]["homotopy"].size(), 1u);
}

TEST(CliPss, CheckAndOverrides) {
  CliRun r = run("check " + example("oscillator.yaml") + " -o simulate.steps=3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("3 steps"), std::string::npos) << r.output;
  CliRun bad = run("simulate " + example("oscillator.yaml") + " -o discretization.stages=12");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("stages"), std::string::npos) << bad.output;
}

TEST(CliPss, BadModelsGiveCleanErrors) {
  struct Case {
    std::string name, yaml, expect;
  };
  const std::string head = "kind: simulate\nsimulate: {horizon: 1, steps: 2}\nmodel:\n  pss:\n    states: [x]\n";
  const Case cases[] = {
      {"sign_length.yaml", head + "    switching: [x]\n    regions:\n      - {signs: [-1, 1], f: [1]}\n      - {signs: [1], f: [2]}\n    x0: [0]\n", "sign"},
      {"field_dim.yaml", head + "    switching: [x]\n    regions:\n      - {signs: [-1], f: [1, 2]}\n      - {signs: [1], f: [2]}\n    x0: [0]\n", "field"},
      {"same_rows.yaml", head + "    switching: [x]\n    regions:\n      - {signs: [1], f: [1]}\n      - {signs: [1], f: [2]}\n    x0: [0]\n", "sign"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto path = std::filesystem::temp_directory_path() / c.name;
    std::ofstream(path) << c.yaml;
    CliRun r = run("simulate " + path.string() + " --out " + temp_dir(c.name));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(c.name + ":"), std::string::npos) << r.output;  // file:line:col
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << r.output;
  }
}
