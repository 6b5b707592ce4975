// kind: simulate / kind: ocp readers: one test per error case; each message must name the item and
// its file:line:column.
#include <gtest/gtest.h>

#include "io_test_support.hpp"

#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"

namespace {

using stasis::Error;
using stasis::io::read_ocp_string;
using stasis::io::read_simulate_string;


using io_test::ocp_error;
using io_test::simulate_error;

// A simulate file whose pss body (lines from 4 on, indented by 4) is `body`.
std::string sim(const std::string& body, const std::string& rest = "simulate: {horizon: 1, steps: 2}\n") {
  return "kind: simulate\nmodel:\n  pss:\n" + body + rest;
}

// Lines 4-9 of a valid one-state model.
const std::string kSwitch = R"Y(    states: [x]
    switching: [x]
    regions:
      - {signs: [-1], f: [2]}
      - {signs: [1], f: [0.2]}
    x0: [-1]
)Y";

// An ocp file: lines 1-10 the model (state x, control u), line 11 `ocp:`, then `ocp_body`.
std::string ocp(const std::string& ocp_body, const std::string& rest = "") {
  return R"Y(kind: ocp
model:
  pss:
    states: [x]
    controls: [u]
    switching: [x]
    regions:
      - {signs: [-1], f: ["3 + u"]}
      - {signs: [1], f: ["1 + u"]}
    x0: [-1]
ocp:
)Y" + ocp_body +
         rest;
}

TEST(PssReaderErrors, TheBaseFilesAreValid) {
  EXPECT_NO_THROW(read_simulate_string(sim(kSwitch), "p.yaml"));
  EXPECT_NO_THROW(read_ocp_string(ocp("  horizon: 1\n"), "p.yaml"));
}

// ---- regions ----

TEST(PssReaderErrors, SignVectorOfTheWrongLength) {
  const std::string m = simulate_error(sim(R"Y(    states: [x]
    switching: [x]
    regions:
      - {signs: [-1], f: [2]}
      - {signs: [1, 1], f: [0.2]}
    x0: [-1]
)Y"));
  EXPECT_STARTS_WITH(m,
                     "p.yaml:8:17: error: region 1: the sign vector has 2 entries but there is 1 switching "
                     "function, expected one sign per switching function");
}

TEST(PssReaderErrors, VectorFieldOfTheWrongDimension) {
  const std::string m = simulate_error(sim(R"Y(    states: [x]
    switching: [x]
    regions:
      - {signs: [-1], f: [2, 3]}
      - {signs: [1], f: [0.2]}
    x0: [-1]
)Y"));
  EXPECT_STARTS_WITH(m,
                     "p.yaml:7:26: error: the vector field f of region 0 has 2 entries, the model has 1 "
                     "state (x), expected one entry per state");
  const std::string f0 = simulate_error(sim(kSwitch + "    f0: [1, 2]\n"));
  EXPECT_STARTS_WITH(f0, "p.yaml:10:9: error: the common field f0 has 2 entries, the model has 1 state (x)");
}

TEST(PssReaderErrors, IdenticalSignRows) {
  const std::string m = simulate_error(sim(R"Y(    states: [x]
    switching: [x]
    regions:
      - {signs: [-1], f: [2]}
      - {signs: [-1], f: [0.2]}
    x0: [-1]
)Y"));
  EXPECT_STARTS_WITH(m, "p.yaml:8:17: error: region 1 has the same signs [-1] as region 0 at p.yaml:7:17");
}

TEST(PssReaderErrors, SignValues) {
  const std::string two = simulate_error(sim(R"Y(    states: [x]
    switching: [x]
    regions:
      - {signs: [-1], f: [2]}
      - {signs: [2], f: [0.2]}
    x0: [-1]
)Y"));
  EXPECT_STARTS_WITH(two, "p.yaml:8:18: error: region 1: sign 0 is '2', expected -1, 1 or 0");
  const std::string half = simulate_error(sim(R"Y(    states: [x, y]
    switching: [x, y]
    regions:
      - {signs: [-1, 0.5], f: [2, 0]}
    x0: [-1, 0]
)Y"));
  EXPECT_STARTS_WITH(half, "p.yaml:7:22: error: region 0: sign 1 is '0.5', expected -1, 1 or 0");
  const std::string word = simulate_error(sim(R"Y(    states: [x]
    switching: [x]
    regions:
      - {signs: [minus], f: [2]}
    x0: [-1]
)Y"));
  EXPECT_STARTS_WITH(word, "p.yaml:7:18: error: unknown name 'minus'");
}

TEST(PssReaderErrors, RegionsInSubsystemsNameTheSubsystem) {
  const std::string m = simulate_error(sim(R"Y(    states: [x, y]
    subsystems:
      - switching: [x]
        regions: [{signs: [-1], f: [1, 0]}, {signs: [1], f: [-1, 0]}]
      - switching: [y]
        regions:
          - {signs: [1], f: [0, 1]}
          - {signs: [1], f: [0, -1]}
    x0: [0, 0]
)Y"));
  EXPECT_STARTS_WITH(m,
                     "p.yaml:11:21: error: subsystem 1, region 1 has the same signs [1] as subsystem 1, "
                     "region 0 at p.yaml:10:21");
  const std::string dim = simulate_error(sim(R"Y(    states: [x, y]
    subsystems:
      - switching: [x]
        regions: [{signs: [-1], f: [1, 0]}, {signs: [1], f: [-1]}]
    x0: [0, 0]
)Y"));
  EXPECT_STARTS_WITH(dim,
                     "p.yaml:7:61: error: the vector field f of subsystem 0, region 1 has 1 entry, the "
                     "model has 2 states (x, y)");
}

TEST(PssReaderErrors, RegionShapes) {
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [x]\n    switching: [x]\n    regions:\n      - {f: [1]}\n"
                         "    x0: [0]\n")),
      "p.yaml:7:9: error: region 0: missing key 'signs'");
  EXPECT_STARTS_WITH(
      simulate_error(
          sim("    states: [x]\n    switching: [x]\n    regions:\n      - {signs: [1]}\n    x0: [0]\n")),
      "p.yaml:7:9: error: region 0: missing key 'f'");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [x]\n    switching: [x]\n    regions:\n      - {sign: [1], f: [1]}\n"
                         "    x0: [0]\n")),
      "p.yaml:7:10: error: unknown key 'sign' in region 0; did you mean 'signs'?");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [x]\n    switching: [x]\n    regions: []\n    x0: [0]\n")),
      "p.yaml:6:14: error: regions must be a non-empty list");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [x]\n    switching: x\n    regions: [{signs: [1], f: [1]}]\n"
                         "    x0: [0]\n")),
      "p.yaml:5:16: error: switching must be a list of expressions");
}

TEST(PssReaderErrors, DynamicsForms) {
  EXPECT_STARTS_WITH(simulate_error(sim("    states: [x]\n    x0: [0]\n")),
                     "p.yaml:3:3: error: the pss model has no dynamics, expected 'switching' and 'regions'");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [x]\n    regions: [{signs: [1], f: [1]}]\n    x0: [0]\n")),
      "p.yaml:5:5: error: the pss model: 'regions' needs 'switching'");
  EXPECT_STARTS_WITH(simulate_error(sim("    states: [x]\n    switching: [x]\n    x0: [0]\n")),
                     "p.yaml:5:5: error: the pss model: 'switching' needs 'regions'");
  EXPECT_STARTS_WITH(
      simulate_error(sim(kSwitch + "    subsystems: [{switching: [x], regions: [{signs: [1], f: [1]}]}]\n")),
      "p.yaml:5:5: error: the pss model has both 'subsystems' and 'switching'");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch + "    indicators: [x]\n")),
                     "p.yaml:10:5: error: the pss model has both switching/regions and indicators/fields");
  EXPECT_STARTS_WITH(simulate_error(sim("    states: [x]\n    indicators: [x, -x]\n    fields: [[1]]\n"
                                        "    x0: [0]\n")),
                     "p.yaml:6:13: error: fields has 1 vector field for 2 indicator functions, expected one "
                     "field per indicator");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [x]\n    indicators: [x, -x]\n    fields: [[1], [1, 2]]\n"
                         "    x0: [0]\n")),
      "p.yaml:6:19: error: field 1 has 2 entries, the model has 1 state (x)");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [x]\n    subsystems:\n      - {switching: [x], regins: []}\n"
                         "    x0: [0]\n")),
      "p.yaml:6:26: error: unknown key 'regins' in subsystem 0; did you mean 'regions'?");
}

// ---- states, names, x0, clock ----

TEST(PssReaderErrors, X0) {
  const std::string states =
      "    states: [x, y]\n    switching: [x]\n"
      "    regions: [{signs: [-1], f: [1, 0]}, {signs: [1], f: [-1, 0]}]\n";
  EXPECT_STARTS_WITH(
      simulate_error(sim(states + "    x0: {x: 1}\n")),
      "p.yaml:7:9: error: x0 has no value for state 'y', expected a value for every state (x, y)");
  EXPECT_STARTS_WITH(simulate_error(sim(states + "    x0: {x: 1, z: 2}\n")),
                     "p.yaml:7:16: error: x0 names 'z', which is not a state; states: x, y");
  // (a one-letter name suggests nothing: "did you mean" needs a distance smaller than both lengths)
  EXPECT_STARTS_WITH(simulate_error(sim(states + "    x0: {x: 1, yy: 2}\n")),
                     "p.yaml:7:16: error: x0 names 'yy', which is not a state; states: x, y");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    states: [pos, vel]\n    switching: [pos]\n"
                         "    regions: [{signs: [-1], f: [1, 0]}, {signs: [1], f: [-1, 0]}]\n"
                         "    x0: {pos: 1, vell: 2}\n")),
      "p.yaml:7:18: error: x0 names 'vell', which is not a state; did you mean 'vel'? states: pos, vel");
  EXPECT_STARTS_WITH(
      simulate_error(sim(states + "    x0: [1]\n")),
      "p.yaml:7:9: error: x0 has 1 entry but the model has 2 states (x, y), expected one value per "
      "state in this order");
  EXPECT_STARTS_WITH(simulate_error(sim(states + "    x0: [1, x]\n")),
                     "p.yaml:7:13: error: x0 of state 'y' must be a constant, but 'x' depends on x");
  EXPECT_STARTS_WITH(simulate_error(sim(states + "    x0: [1, inf]\n")),
                     "p.yaml:7:13: error: x0 of state 'y' is inf, expected a finite value");
  EXPECT_STARTS_WITH(simulate_error(sim(states)), "p.yaml:3:3: error: the pss model has no 'x0'");
}

TEST(PssReaderErrors, StateNamedTIsReserved) {
  const std::string m = simulate_error(sim(R"Y(    states: [x, t]
    switching: [x]
    regions: [{signs: [-1], f: [1, 0]}, {signs: [1], f: [-1, 0]}]
    x0: [0, 0]
)Y"));
  EXPECT_STARTS_WITH(m, "p.yaml:4:17: error: state name 't' is reserved: it is physical time");
  EXPECT_STARTS_WITH(simulate_error(sim("    parameters: {t: 1}\n" + kSwitch)),
                     "p.yaml:4:18: error: parameter name 't' is reserved: it is physical time");
  EXPECT_STARTS_WITH(simulate_error(sim("    controls: [t]\n" + kSwitch)),
                     "p.yaml:4:16: error: control name 't' is reserved");
  EXPECT_STARTS_WITH(simulate_error(sim("    definitions: {t: x}\n" + kSwitch)),
                     "p.yaml:4:19: error: definition name 't' is reserved");
}

TEST(PssReaderErrors, NameClashesAndBadNames) {
  EXPECT_STARTS_WITH(simulate_error(sim("    controls: [x]\n" + kSwitch)),
                     "p.yaml:4:16: error: control 'x' is already declared as a state at p.yaml:5:14");
  EXPECT_STARTS_WITH(simulate_error(sim("    parameters: {x: 1}\n" + kSwitch)),
                     "p.yaml:5:14: error: state 'x' is already declared as a parameter");
  EXPECT_STARTS_WITH(simulate_error(sim("    states: [x, x]\n    switching: [x]\n    regions: [{signs: [1], "
                                        "f: [1, 1]}]\n    x0: [0, 0]\n")),
                     "p.yaml:4:17: error: state 'x' is already declared as a state at p.yaml:4:14");
  EXPECT_STARTS_WITH(simulate_error(sim("    states: [sin]\n    switching: [sin]\n    regions: [{signs: [1], "
                                        "f: [1]}]\n    x0: [0]\n")),
                     "p.yaml:4:14: error: state name 'sin' is reserved (a function)");
  EXPECT_STARTS_WITH(simulate_error(sim("    states: []\n    x0: []\n")),
                     "p.yaml:4:13: error: states is empty");
  EXPECT_STARTS_WITH(simulate_error(sim("    switching: [x]\n    x0: [0]\n")),
                     "p.yaml:3:3: error: the pss model has no 'states'");
}

TEST(PssReaderErrors, UnknownNamesInExpressions) {
  EXPECT_STARTS_WITH(simulate_error(sim(R"Y(    states: [x]
    switching: [x]
    regions:
      - {signs: [-1], f: ["2*y"]}
      - {signs: [1], f: [0.2]}
    x0: [-1]
)Y")),
                     "p.yaml:7:30: error: unknown name 'y'");
}

TEST(PssReaderErrors, Clock) {
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch + "    clock: s\n")),
                     "p.yaml:10:12: error: clock 's' is not a state; expected one of the states: x");
}

// ---- model kinds and sections ----

TEST(ModelFileErrors, ModelKinds) {
  EXPECT_STARTS_WITH(
      simulate_error(
          "kind: simulate\nmodel:\n  cls:\n    positions: [x]\nsimulate: {horizon: 1, steps: 1}\n"),
      "p.yaml:3:3: error: the cls model has no 'velocities', expected one velocity name per position (x)");
  EXPECT_STARTS_WITH(ocp_error("kind: ocp\nmodel:\n  jump: {states: [q, v]}\nocp: {horizon: 1}\n"),
                     "p.yaml:3:3: error: the jump model has no 'f', expected the vector field (one entry per state: q, v)");
  EXPECT_STARTS_WITH(simulate_error("kind: simulate\nmodel:\n  psss: {}\nsimulate: {horizon: 1, steps: 1}\n"),
                     "p.yaml:3:3: error: unknown key 'psss' in model; did you mean 'pss'?");
  EXPECT_STARTS_WITH(
      simulate_error(sim(kSwitch, "  cls: {}\nsimulate: {horizon: 1, steps: 1}\n")),
      "p.yaml:10:3: error: the model has both 'pss' and 'cls', expected exactly one of pss, cls, jump");
  EXPECT_STARTS_WITH(simulate_error("kind: simulate\nmodel:\nsimulate: {horizon: 1, steps: 1}\n"),
                     "p.yaml:2:1: error: the model is empty, expected exactly one of pss, cls, jump");
}

TEST(ModelFileErrors, TimeFreezingIsOnlyForClsAndJump) {
  const std::string m = simulate_error(sim(kSwitch) + "time_freezing: {stiffness: 10}\n");
  EXPECT_STARTS_WITH(m, "p.yaml:11:1: error: 'time_freezing' applies only to cls and jump models");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n", "time_freezing:\n")),
                     "p.yaml:13:1: error: 'time_freezing'");
}

TEST(ModelFileErrors, UnknownKeysWithSuggestions) {
  EXPECT_STARTS_WITH(simulate_error(sim("    switchng: [x]\n" + kSwitch)),
                     "p.yaml:4:5: error: unknown key 'switchng' in the pss model; did you mean 'switching'?");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: 1, step: 2}\n")),
                     "p.yaml:10:24: error: unknown key 'step' in simulate; did you mean 'steps'?");
  EXPECT_STARTS_WITH(
      simulate_error(sim(kSwitch) + "homotpy: {}\n"),
      "p.yaml:11:1: error: unknown key 'homotpy' in the simulate problem; did you mean 'homotopy'?");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch) + "discretization: {stage: 3}\n"),
                     "p.yaml:11:18: error: unknown key 'stage' in discretization; did you mean 'stages'?");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch) + "homotopy: {sigma00: 3}\n"),
                     "p.yaml:11:12: error: unknown key 'sigma00' in homotopy; did you mean 'sigma0'?");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch) + "homotopy: {ipopt: {max_iter: 1}, kapa: 1}\n"),
                     "p.yaml:11:34: error: unknown key 'kapa' in homotopy; did you mean 'kappa'?");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  stagse: 3\n")),
                     "p.yaml:13:3: error: unknown key 'stagse' in ocp; did you mean 'stages'?");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  cost: {runing: x}\n")),
                     "p.yaml:13:10: error: unknown key 'runing' in ocp.cost; did you mean 'running'?");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  constraints: {paht: []}\n")),
                     "p.yaml:13:17: error: unknown key 'paht' in ocp.constraints; did you mean 'path'?");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  controls: {u: {lowr: 1}}\n")),
                     "p.yaml:13:18: error: unknown key 'lowr' in control 'u'; did you mean 'lower'?");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  states: {x: {lower: 1, start: 2}}\n")),
                     "p.yaml:13:26: error: unknown key 'start' in state 'x'; valid keys: lower, upper");
}

TEST(ModelFileErrors, KindAndMissingSections) {
  EXPECT_STARTS_WITH(simulate_error(ocp("  horizon: 1\n")),
                     "p.yaml:1:7: error: kind is 'ocp', expected 'simulate'");
  EXPECT_STARTS_WITH(ocp_error(sim(kSwitch)), "p.yaml:1:7: error: kind is 'simulate', expected 'ocp'");
  EXPECT_STARTS_WITH(simulate_error(""), "p.yaml:1:1: error: the file is empty");
  EXPECT_STARTS_WITH(simulate_error("kind: simulate\nsimulate: {horizon: 1, steps: 1}\n"),
                     "p.yaml:1:1: error: missing key 'model'");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "")), "p.yaml:1:1: error: missing key 'simulate'");
  EXPECT_STARTS_WITH(ocp_error("kind: ocp\nmodel:\n  pss:\n" + kSwitch),
                     "p.yaml:1:1: error: missing key 'ocp'");
  EXPECT_STARTS_WITH(ocp_error(ocp("")), "p.yaml:11:1: error: ocp: missing key 'horizon'");
  EXPECT_STARTS_WITH(ocp_error(ocp("  stages: 2\n")), "p.yaml:11:1: error: ocp: missing key 'horizon'");
}

// ---- simulate ----

TEST(SimulateErrors, HorizonAndSteps) {
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {steps: 2}\n")),
                     "p.yaml:10:1: error: simulate: missing key 'horizon'");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: 1}\n")),
                     "p.yaml:10:1: error: simulate: missing key 'steps'");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: 0, steps: 2}\n")),
                     "p.yaml:10:21: error: simulate.horizon is 0, expected a finite time > 0");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: -1, steps: 2}\n")),
                     "p.yaml:10:21: error: simulate.horizon is -1");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: 1, steps: 0}\n")),
                     "p.yaml:10:31: error: simulate.steps is 0, expected at least 1");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: 1, steps: 2.5}\n")),
                     "p.yaml:10:31: error: simulate.steps is 2.5, expected a whole number");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: 1, steps: 2, warm_start: maybe}\n")),
                     "p.yaml:10:46: error: simulate.warm_start is 'maybe', expected true or false");
}

TEST(SimulateErrors, Controls) {
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch, "simulate: {horizon: 1, steps: 2, controls: {u: 1}}\n")),
                     "p.yaml:10:45: error: simulate.controls gives 'u', but the model has no controls");
  EXPECT_STARTS_WITH(
      simulate_error(
          sim("    controls: [u1]\n" + kSwitch, "simulate: {horizon: 1, steps: 2, controls: {u2: 1}}\n")),
      "p.yaml:11:45: error: unknown control 'u2' in simulate.controls; did you mean 'u1'? controls: u1");
  EXPECT_STARTS_WITH(simulate_error(sim("    controls: [u]\n" + kSwitch,
                                        "simulate: {horizon: 1, steps: 2, controls: {u: x}}\n")),
                     "p.yaml:11:48: error: the value of control 'u' must be a constant");
}

TEST(SimulateErrors, DiscretizationValues) {
  const std::string scheme = simulate_error(sim(kSwitch) + "discretization:\n  scheme: radau\n");
  EXPECT_STARTS_WITH(scheme, "p.yaml:12:11: error: ");
  EXPECT_CONTAINS(scheme, "radau_iia");
  EXPECT_STARTS_WITH(
      simulate_error(sim(kSwitch) + "discretization:\n  scheme: radau_iia\n  stages: 12\n"),
      "p.yaml:13:11: error: discretization: option 'stages': radau_iia takes 1 to 9 stages, not 12");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch) + "discretization:\n  fesd: maybe\n"),
                     "p.yaml:12:9: error: option 'fesd': 'maybe' is not a boolean");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch) + "discretization:\n  path_at: elements\n"),
                     "p.yaml:12:3: error: 'path_at' has no meaning for a simulation");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch) + "homotopy:\n  kappa: 2\n"),
                     "p.yaml:12:10: error: option 'kappa'");
}

// ---- ocp ----

TEST(OcpErrors, FinalTime) {
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  final_time: {lower: 0.5, upper: 2}\n")),
      "p.yaml:13:3: error: 'final_time' bounds the free final time of a time-optimal problem, but "
      "time_optimal is false");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 5\n  time_optimal: true\n  final_time: {lower: 0.5, upper: 2}\n")),
      "p.yaml:12:12: error: ocp.horizon 5 (the initial guess of the final time) lies outside final_time "
      "[0.5, 2]");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  time_optimal: true\n  final_time: {lower: 3, upper: 2}\n")),
      "p.yaml:14:3: error: final_time: lower bound 3 > upper bound 2");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  time_optimal: true\n  final_time: {lower: -1}\n")),
                     "p.yaml:14:3: error: final_time: lower bound -1 is negative");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  time_optimal: yes please\n")),
                     "p.yaml:13:17: error: ocp.time_optimal is 'yes please', expected true or false");
}

TEST(OcpErrors, HorizonAndStages) {
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 0\n")), "p.yaml:12:12: error: ocp.horizon is 0");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  stages: 0\n")), "p.yaml:13:11: error: ocp.stages is 0");
}

TEST(OcpErrors, ControlsStatesAndInitial) {
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  controls: {v: {lower: 1}}\n")),
                     "p.yaml:13:14: error: unknown control 'v' in ocp.controls; controls: u");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  controls: {u: {lower: 2, upper: 1}}\n")),
                     "p.yaml:13:14: error: control 'u': lower bound 2 > upper bound 1");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  controls: {u: {lower: 0, start: -1}}\n")),
                     "p.yaml:13:35: error: start of control 'u' is -1, outside its bounds [0, inf]");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  states: {y: {lower: 1}}\n")),
                     "p.yaml:13:12: error: unknown state 'y' in ocp.states; states: x");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  initial: {xx: {lower: 1}}\n")),
                     "p.yaml:13:13: error: unknown state 'xx' in ocp.initial; states: x");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  initial: {x: {lower: 0}}\n")),
      "p.yaml:13:13: error: initial state 'x': its start x0 = -1 (from the model) is outside [0, inf]");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  initial: {x: {lower: 0, start: 2, upper: 1}}\n")),
                     "p.yaml:13:34: error: start of initial state 'x' is 2, outside its bounds [0, 1]");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  initial: {x: {lower: 2, upper: 1}}\n")),
                     "p.yaml:13:13: error: initial state 'x': lower bound 2 > upper bound 1");
  const std::string no_controls = R"Y(kind: ocp
model:
  pss:
)Y" + kSwitch + "ocp:\n  horizon: 1\n  controls: {u: {}}\n";
  EXPECT_STARTS_WITH(ocp_error(no_controls),
                     "p.yaml:12:14: error: ocp.controls gives 'u', but the model has no controls");
}

TEST(OcpErrors, TerminalCostAndConstraintsSeeStatesOnly) {
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  cost: {terminal: \"x + u\"}\n")),
      "p.yaml:13:20: error: the terminal cost depends on the control 'u', expected an expression of "
      "the states only");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  constraints:\n    terminal: [\"x == 1\", \"x + u <= 2\"]\n")),
      "p.yaml:14:26: error: terminal constraint 'x + u <= 2' depends on the control 'u'");
}

TEST(OcpErrors, Constraints) {
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  constraints:\n    path: [\"x < 1\"]\n")), "p.yaml:14:");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  constraints:\n    path: \"x <= 1\"\n")),
      "p.yaml:14:11: error: constraints.path (of \"a <= b\" strings or {expr, lower, upper} maps) must "
      "be a list");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  constraints:\n    path: [{expr: x, lower: 2, upper: 1}]\n")),
      "p.yaml:14:12: error: constraint '2 <= x <= 1': lower bound 2 > upper bound 1");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  constraints:\n    complementarity: [[x]]\n")),
                     "p.yaml:14:23: error: path complementarity pair 0 must be a list [G, H]");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  constraints:\n    at: everywhere\n")),
      "p.yaml:14:9: error: constraints.at is 'everywhere', expected stage_ends (default), elements, "
      "stage_points or dense");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  constraints:\n    at: stage_points\n",
                    "discretization: {scheme: lobatto_iiia}\n")),
      "p.yaml:14:9: error: discretization: option 'path_at: stage_points' needs stage states as variables");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n  constraints:\n    at: dense\n", "discretization: {scheme: lobatto_iiia}\n")),
      "p.yaml:14:9: error: discretization: option 'path_at: dense' needs stage states as variables");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  constraints:\n    path: [{expr: x, lower: 0, at: inside}]\n")),
                     "p.yaml:14:36: error: path constraint 0: at is 'inside', expected stage_ends, elements, "
                     "stage_points or dense");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  constraints:\n    path: [{expr: x, lower: 0, at: dense}]\n",
                                   "discretization: {scheme: lobatto_iiia}\n")),
                     "p.yaml:14:36: error: a path constraint at stage_points or dense needs stage states");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n  constraints:\n    terminal: [{expr: x, lower: 0, at: dense}]\n")),
                     "p.yaml:14:36: error: unknown key 'at' in terminal constraint 0");
  EXPECT_STARTS_WITH(ocp_error(ocp("  horizon: 1\n", "discretization: {path_at: elements}\n")),
                     "p.yaml:13:18: error: 'path_at' is written as 'at' under ocp.constraints");
}

TEST(OcpErrors, SpuriousSwitchesNeedsAStagewiseCrossComplementarity) {
  const std::string e =
      ocp_error(ocp("  horizon: 1\n", "discretization: {spurious_switches: ignore, cross_complementarity: fe_fe}\n"));
  EXPECT_NE(e.find("option 'spurious_switches: ignore' weights the cross complementarity of each stage point's θ, "
                   "which cross_complementarity fe_fe sums: use fe_stage or stage_stage"),
            std::string::npos)
      << e;
  EXPECT_NE(ocp_error(ocp("  horizon: 1\n", "discretization: {spurious_switches: sometimes}\n"))
                .find("option 'spurious_switches': unknown value 'sometimes'; allowed: detect, ignore"),
            std::string::npos);
}

// ---- overrides ----

TEST(ModelFileOverrideErrors, UnknownKeysNameTheOverride) {
  EXPECT_STARTS_WITH(
      simulate_error(sim(kSwitch), {"discretization.stagse=3"}),
      "command line (-o discretization.stagse=3): error: unknown key 'stagse' in discretization; did "
      "you mean 'stages'?");
  EXPECT_STARTS_WITH(
      simulate_error(sim(kSwitch), {"simulate.step=3"}),
      "command line (-o simulate.step=3): error: unknown key 'step' in simulate; did you mean 'steps'?");
  EXPECT_STARTS_WITH(simulate_error(sim("    parameters: {w: 1}\n" + kSwitch), {"model.pss.parameters.ww=3"}),
                     "command line (-o model.pss.parameters.ww=3): error: unknown key 'ww' in "
                     "'model.pss.parameters'; existing keys: w");
  EXPECT_STARTS_WITH(
      ocp_error(ocp("  horizon: 1\n"), {"ocp.controls.uu.upper=3"}),
      "command line (-o ocp.controls.uu.upper=3): error: unknown control 'uu' in ocp.controls; "
      "controls: u");
  EXPECT_STARTS_WITH(
      simulate_error(sim("    parameters: {gain: 1}\n" + kSwitch), {"model.pss.parameters.gian=3"}),
      "command line (-o model.pss.parameters.gian=3): error: unknown key 'gian' in "
      "'model.pss.parameters'; did you mean 'gain'?");
  EXPECT_STARTS_WITH(simulate_error(sim(kSwitch), {"simulate.steps=0"}),
                     "command line (-o simulate.steps=0): error: simulate.steps is 0, expected at least 1");
  EXPECT_STARTS_WITH(
      simulate_error(sim(kSwitch), {"model.pss.regions.1.signs=[-1]"}),
      "command line (-o model.pss.regions.1.signs=[-1]): error: region 1 has the same signs [-1] as "
      "region 0 at p.yaml:7:17");
}

}  // namespace

// ocp.constraints.terminal_relaxation (fesd.md §4.5): mode and weight, and errors at their values.
TEST(ModelFileErrors, TerminalRelaxationKey) {
  const std::string base =
      "kind: ocp\nmodel:\n  pss:\n    states: [x]\n    switching: [x]\n    regions:\n"
      "      - {signs: [-1], f: [3]}\n      - {signs: [1], f: [1]}\n    x0: [-1]\nocp:\n  horizon: 2\n"
      "  constraints:\n    terminal: [\"x == 2\"]\n    terminal_relaxation: ";
  stasis::io::OcpFile f = stasis::io::read_ocp_string(base + "{mode: ell_1, weight: 50}\n", "p.yaml");
  EXPECT_EQ(f.ocp.terminal_relaxation, stasis::discretize::OcpSpec::TerminalRelaxation::Ell1);
  EXPECT_DOUBLE_EQ(f.ocp.terminal_relaxation_weight, 50.0);
  EXPECT_STARTS_WITH(ocp_error(base + "{mode: ell1}\n"),
                     "p.yaml:14:33: error: terminal_relaxation.mode is 'ell1', expected none, ell_1, ell_2 or ell_inf");
  EXPECT_STARTS_WITH(ocp_error(base + "{mode: ell_2, weight: -1}\n"),
                     "p.yaml:14:48: error: terminal_relaxation.weight is -1, expected a finite weight > 0");
}

// initialization: (ocp files; docs/guide-ocp.md "Initialization"): values, a list of positions,
// and errors with file:line:column.
TEST(ModelFileErrors, InitializationSection) {
  const std::string base = ocp("  horizon: 1\n  constraints:\n    path: [\"u <= 1\", \"u >= -1\"]\n");  // ocp: is line 11
  stasis::io::OcpFile f = read_ocp_string(
      base + "initialization: {method: smoothed, sigma0: 0.1, sigma_final: 1e-5, omit_path_constraints: [1]}\n",
      "p.yaml");
  EXPECT_EQ(f.initialization.method, stasis::ocp::InitializationOptions::Method::Smoothed);
  EXPECT_DOUBLE_EQ(f.initialization.sigma0, 0.1);
  EXPECT_DOUBLE_EQ(f.initialization.sigma_final, 1e-5);
  EXPECT_EQ(f.initialization.omit_path_constraints, std::vector<int>{1});
  EXPECT_DOUBLE_EQ(read_ocp_string(base + "initialization: {tol: 1e-8}\n", "p.yaml").initialization.tol, 1e-8);
  EXPECT_CONTAINS(ocp_error(base + "initialization: {tol: -1}\n"), "option 'tol' must be a finite number >= 0");
  EXPECT_EQ(read_ocp_string(base, "p.yaml").initialization.method,
            stasis::ocp::InitializationOptions::Method::Nominal);
  EXPECT_EQ(read_ocp_string(base + "initialization: {relaxation: ell1_penalty}\n", "p.yaml").initialization.relaxation,
            stasis::mpcc::Relaxation::Ell1Penalty);
  EXPECT_FALSE(read_ocp_string(base + "initialization: {relaxation: homotopy}\n", "p.yaml").initialization.relaxation);
  EXPECT_STARTS_WITH(ocp_error(base + "initialization: {relaxation: scholtes}\n"),
                     "p.yaml:15:30: error: initialization: option 'relaxation': unknown value 'scholtes'; allowed: "
                     "homotopy, scholtes_ineq, scholtes_eq, ell1_penalty");
  EXPECT_STARTS_WITH(ocp_error(base + "initialization: {method: smooth}\n"),
                     "p.yaml:15:26: error: initialization: option 'method': unknown value 'smooth'; allowed: "
                     "nominal, smoothed");
  EXPECT_STARTS_WITH(ocp_error(base + "initialization: {sigma0: 1e-3, sigma_final: 1e-2}\n"),
                     "p.yaml:15:45: error: initialization: option 'sigma_final'");
  EXPECT_STARTS_WITH(ocp_error(base + "initialization: {omit_path_constraints: [2]}\n"),
                     "p.yaml:15:1: error: initialization.omit_path_constraints: position 2 is not a path "
                     "constraint (ocp.constraints.path has 2, counted from 0)");
  EXPECT_CONTAINS(ocp_error(base + "initialization: {sigma: 1}\n"), "p.yaml:15:");
  // Not a key of simulate files.
  EXPECT_CONTAINS(simulate_error(sim(kSwitch) + "initialization: {method: smoothed}\n"), "initialization");
}
