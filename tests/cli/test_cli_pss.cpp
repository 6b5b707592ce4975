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

// The `continuation:` section (docs/guide-ocp.md "Parameter continuation"): turbo_car.yaml with
// its turbo gain first at 1 and 2 (each homotopy stops at residual 1e-6), then at the file's 3
// from there. It ends where the direct solve ends, R5's T* = 40/3 (1e-4, as above), and
// result.json lists the stages, whose iterations the totals include.
TEST(CliPss, SolveWithParameterContinuation) {
  const std::string dir = temp_dir("turbo_continuation");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/turbo.yaml";
  std::ofstream(file) << read_text(example("turbo_car.yaml"))
                      << "continuation:\n  parameter: turbo_gain\n  values: [1, 2]\n  tolerance: 1e-6\n";
  CliRun r = run("solve " + file + " --out " + dir + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("continuation 1/3: turbo_gain = 1 (until residual 1e-06)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("continuation 2/3: turbo_gain = 2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("continuation 3/3: turbo_gain as in the file"), std::string::npos) << r.output;
  auto j = read_json(dir + "/out/result.json");
  EXPECT_EQ(j["status"], "converged");
  EXPECT_NEAR(j["final_time"].get<double>(), 40.0 / 3.0, 1e-4);
  const auto& c = j["solver"]["continuation"];
  EXPECT_EQ(c["parameter"], "turbo_gain");
  ASSERT_EQ(c["stages"].size(), 2u);
  int iterations = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(c["stages"][i]["value"].get<double>(), static_cast<double>(i + 1));
    EXPECT_EQ(c["stages"][i]["status"], "converged") << c;
    EXPECT_LE(c["stages"][i]["complementarity_residual"].get<double>(), 1e-6);
    EXPECT_GT(c["stages"][i]["nlp_iterations"].get<int>(), 0);
    iterations += c["stages"][i]["nlp_iterations"].get<int>();
  }
  int own = 0;
  for (const auto& step : j["solver"]["homotopy"]) own += step["iterations"].get<int>();
  EXPECT_EQ(j["solver"]["nlp_iterations"].get<int>(), iterations + own);

  // Bad sections: an unknown parameter (with the file's line), no values.
  struct Case {
    std::string section, expect;
  };
  const std::vector<Case> cases = {
      {"continuation:\n  parameter: turbo_gian\n  values: [1]\n",
       "continuation.parameter: 'turbo_gian' is not a scalar parameter of the pss model; did you mean 'turbo_gain'?"},
      {"continuation:\n  parameter: turbo_gain\n  values: []\n", "continuation.values: expected a non-empty list"},
      {"continuation:\n  parameter: turbo_gain\n", "continuation: expected {parameter: NAME, values: [v1, v2, ...]}"},
      {"continuation:\n  parameter: turbo_gain\n  values: [1]\n  tolerance: 0\n",
       "continuation.tolerance is 0, expected a finite value > 0"},
  };
  for (const Case& k : cases) {
    std::ofstream(file) << read_text(example("turbo_car.yaml")) << k.section;
    CliRun bad = run("check " + file);
    EXPECT_EQ(bad.exit_code, 2) << bad.output;
    EXPECT_NE(bad.output.find(k.expect), std::string::npos) << bad.output;
    EXPECT_NE(bad.output.find("turbo.yaml:"), std::string::npos) << bad.output;
  }
}
