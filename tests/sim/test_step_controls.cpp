// sim::Options::step_controls: piecewise constant controls, one value per integrator step (used
// to re-simulate OCP controls, ocp::validate).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/sim/integrator.hpp"

using namespace stasis;

namespace {
// ẋ = 3 for x < 0, −1 for x > 0, x0 = −1: reaches x = 0 at t = 1/3 and slides there (fesd.md T1).
model::Pss sliding_on_zero() {
  model::Pss p;
  sym::Vector x = p.add_states({"x"});
  model::Subsystem s;
  s.switching = {x[0]};
  s.signs = {{-1}, {1}};
  s.fields = {{sym::Expr(3.0)}, {sym::Expr(-1.0)}};
  p.subsystems = {s};
  p.x0 = {-1.0};
  return p;
}

// ẋ = u + 3 for x < 0, u + 1 for x > 0, x0 = −1.
model::Pss control_plus_two_fields() {
  model::Pss p;
  sym::Vector x = p.add_states({"x"});
  sym::Vector u = p.add_controls({"u"});
  model::Subsystem s;
  s.switching = {x[0]};
  s.signs = {{-1}, {1}};
  s.fields = {{u[0] + 3.0}, {u[0] + 1.0}};
  p.subsystems = {s};
  p.x0 = {-1.0};
  return p;
}

// A ball falling from q0 at rest onto the floor q = 0 (inelastic, a_n = g), simulated for 0.2 s
// in `steps` steps.
io::SimulateFile falling_ball(double q0, int steps) {
  return io::read_simulate_string(R"(kind: simulate
model:
  cls:
    positions: [q]
    velocities: [v]
    parameters: {g: 9.81}
    forces: [-g]
    contacts:
      - {name: floor, gap: q}
    x0: {q: )" + std::to_string(q0) + R"(, v: 0}
time_freezing:
  normal_acceleration: 9.81
simulate:
  horizon: 0.2
  steps: )" + std::to_string(steps) + "\n",
                                  "falling_ball.yaml");
}

// On control_plus_two_fields, 1.5 s as `steps` steps of `stages_per_step` control stages, three
// stages in all, with u = 0, −2, 1 and 3 elements per stage.
sim::Options three_controls_over_1_5(int steps, int stages_per_step) {
  sim::Options o;
  o.horizon = 1.5;
  o.steps = steps;
  o.stages_per_step = stages_per_step;
  o.discretization.elements = 3;
  o.step_controls = {{0.0}, {-2.0}, {1.0}};
  return o;
}

// Their motion: x = 1/6, 0 and 1 at the stage ends (1e-6; EachStepHoldsItsControl).
void expect_the_three_controls_motion(const sim::Result& r) {
  ASSERT_TRUE(r.converged) << r.message;
  ASSERT_EQ(r.states.size(), 10u);
  EXPECT_NEAR(r.states[3][0], 1.0 / 6.0, 1e-6);
  EXPECT_NEAR(r.states[6][0], 0.0, 1e-6);
  EXPECT_NEAR(r.states[9][0], 1.0, 1e-6);
}

// One step over π/4 in four elements (the switch at t = 1/3 inside it).
sim::Options one_step_of_four_elements() {
  sim::Options o;
  o.horizon = M_PI / 4;
  o.steps = 1;
  o.discretization.elements = 4;
  return o;
}

// Four element lengths over π/4 with a boundary at the switch (t = 1/3).
std::vector<double> lengths_with_a_boundary_at_the_switch() {
  const double rest = M_PI / 4 - 1.0 / 3.0;
  return {0.2, 1.0 / 3.0 - 0.2, 0.6 * rest, 0.4 * rest};
}

// The step converged on `lengths` (to `tolerance`) and slides at x = 0 at its end (1e-6).
void expect_on_the_grid(const sim::Result& r, const std::vector<double>& lengths, double tolerance) {
  ASSERT_TRUE(r.converged) << r.message;
  ASSERT_EQ(r.element_length.size(), lengths.size());
  for (std::size_t n = 0; n < lengths.size(); ++n)
    EXPECT_NEAR(r.element_length[n], lengths[n], tolerance) << "element " << n;
  EXPECT_NEAR(r.states.back()[0], 0.0, 1e-6);
}
}  // namespace

// ẋ = u + 3 for x < 0, u + 1 for x > 0, x0 = −1, steps of 0.5 with u = 0, −2, 1:
// step 1 crosses x = 0 at t = 1/3 and ends at x = 1/6; step 2 returns to 0 at t = 2/3 and slides
// there (ẋ = −1 above, +1 below); step 3 leaves upwards with ẋ = 2: x(1.5) = 1.
TEST(StepControls, EachStepHoldsItsControl) {
  const model::Pss p = control_plus_two_fields();
  sim::Options o = three_controls_over_1_5(3, 1);
  const sim::Result r = sim::simulate(p, o);
  expect_the_three_controls_motion(r);

  o.step_controls = {{0.0}, {1.0}};  // 2 entries for 3 steps
  EXPECT_THROW(sim::simulate(p, o), Error);
  o.step_controls = {{0.0}, {1.0}, {1.0, 2.0}};
  EXPECT_THROW(sim::simulate(p, o), Error);
}

// sim::Options::stages_per_step: one step of three control stages, each with its control, solves
// the equations of the three steps above (the same motion: 1/6, 0 and 1 at the stage ends, 1e-6),
// with each stage's elements on its own grid (Σh = 0.5 per stage, 1e-9).
TEST(StepControls, StagesPerStepHoldTheirControlsInOneStep) {
  const model::Pss p = control_plus_two_fields();
  sim::Options o = three_controls_over_1_5(1, 3);
  const sim::Result r = sim::simulate(p, o);
  expect_the_three_controls_motion(r);
  for (int stage = 0; stage < 3; ++stage) {
    double sum = 0;
    for (int n = 0; n < 3; ++n) sum += r.element_length[static_cast<std::size_t>(3 * stage + n)];
    EXPECT_NEAR(sum, 0.5, 1e-9) << "stage " << stage;
  }

  o.step_controls = {{0.0}, {1.0}};  // 2 entries for 3 stages
  EXPECT_THROW(sim::simulate(p, o), Error);
  o.stages_per_step = 0;
  EXPECT_THROW(sim::simulate(p, o), Error);
}

// sim::Options::stages_per_step on a time-frozen model, with the predictor's guess: a ball
// dropped from q0 = g·0.1²/2 lands at t = 0.1, on the boundary of the step's two stages of 0.1 s,
// and rests on the floor after its inelastic jump. Each stage's clock constraint holds (t = 0.1
// and 0.2 at the stage ends, 1e-9), and the step ends at rest on the floor (q, v within 1e-6).
TEST(StepControls, StagesPerStepOfATimeFrozenModelHoldAJumpOnTheirBoundary) {
  const io::SimulateFile file = falling_ball(0.04905, 1);
  sim::Options o = io::integrator_options(file);
  o.stages_per_step = 2;
  const sim::Result r = sim::simulate(file.model.pss, o);
  ASSERT_TRUE(r.converged) << r.message;
  const auto elements = static_cast<std::size_t>(o.discretization.elements);
  ASSERT_EQ(r.states.size(), 2 * elements + 1);
  ASSERT_EQ(r.speed_of_time.size(), 2u);
  EXPECT_NEAR(r.states[elements][2], 0.1, 1e-9);
  EXPECT_NEAR(r.states.back()[2], 0.2, 1e-9);
  EXPECT_NEAR(r.states.back()[0], 0.0, 1e-6);
  EXPECT_NEAR(r.states.back()[1], 0.0, 1e-6);
}

// sim::Options::step_nominal_lengths: heuristic_mean pulls towards the given lengths instead of
// h0 (ocp::validate re-simulates an OCP's stage on the OCP's grid this way). On the same switch
// (x0 = −1, ẋ = 3 below 0, ẋ = −1 above: sliding on x = 0 from t = 1/3, fesd.md T1) over π/4 in
// four elements: lengths that put a boundary at the switch come out as given (1e-8); lengths
// that do not still get the switch at a boundary (the dynamics place it, 1e-6), x = 0 at the end.
TEST(StepControls, NominalElementLengthsAreTheGridWhereNoSwitchPinsIt) {
  const model::Pss p = sliding_on_zero();
  sim::Options o = one_step_of_four_elements();
  const std::vector<double> on_switch = lengths_with_a_boundary_at_the_switch();
  o.step_nominal_lengths = {on_switch};
  sim::Result r = sim::simulate(p, o);
  expect_on_the_grid(r, on_switch, 1e-8);

  o.step_nominal_lengths = {{0.15, 0.15, 0.15, M_PI / 4 - 0.45}};  // the switch inside element 3
  r = sim::simulate(p, o);
  ASSERT_TRUE(r.converged) << r.message;
  bool boundary_at_switch = false;
  for (double t : r.time) boundary_at_switch = boundary_at_switch || std::abs(t - 1.0 / 3.0) < 1e-6;
  EXPECT_TRUE(boundary_at_switch);
  EXPECT_NEAR(r.states.back()[0], 0.0, 1e-6);

  o.step_nominal_lengths = {{0.2, 0.2, 0.2}};  // 3 lengths for 4 elements
  EXPECT_THROW(sim::simulate(p, o), Error);
  o.step_nominal_lengths = {{0.5, 0.1, 0.1, M_PI / 4 - 0.7}};  // above (1 + γ_h) h0 = 2 h0 ≈ 0.39
  EXPECT_THROW(sim::simulate(p, o), Error);
  o.step_nominal_lengths = {on_switch};
  o.discretization.step_equilibration = discretize::StepEquilibration::L2Relaxed;
  EXPECT_THROW(sim::simulate(p, o), Error);
}

// sim::Options::fix_nominal_lengths: the given lengths are the step's grid, not a pull (ocp::validate
// re-simulates an OCP's stage on the OCP's grid this way). On the same switch (fesd.md T1): lengths
// with a boundary at the switch come out exactly (1e-12) with x = 0 at the end (1e-6); lengths
// that put the switch inside an element leave the step no solution, where the pull above moved
// a boundary onto it.
TEST(StepControls, FixedNominalElementLengthsAreTheGrid) {
  const model::Pss p = sliding_on_zero();
  sim::Options o = one_step_of_four_elements();
  const std::vector<double> on_switch = lengths_with_a_boundary_at_the_switch();
  o.step_nominal_lengths = {on_switch};
  o.fix_nominal_lengths = true;
  sim::Result r = sim::simulate(p, o);
  expect_on_the_grid(r, on_switch, 1e-12);

  o.step_nominal_lengths = {{0.15, 0.15, 0.15, M_PI / 4 - 0.45}};  // the switch inside element 3
  r = sim::simulate(p, o);
  EXPECT_FALSE(r.converged);

  o.step_nominal_lengths.clear();
  EXPECT_THROW(sim::simulate(p, o), Error);
}

// sim::Options::state_lower/state_upper: a box on the step's state variables (ocp::validate
// passes the OCP's state bounds, to rule out far roots of long elements' collocation equations).
// On fesd.md T1 (x0 = −1, sliding on x = 0 from t = 1/3) a box the motion keeps to changes
// nothing (x = 0 at the end, 1e-6); one it must leave (x <= −0.5) leaves the step no solution.
TEST(StepControls, StateBoxBoundsTheStepsStates) {
  const model::Pss p = sliding_on_zero();
  sim::Options o = one_step_of_four_elements();
  o.state_lower = {-1.0};
  o.state_upper = {0.5};
  sim::Result r = sim::simulate(p, o);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.states.back()[0], 0.0, 1e-6);
  o.state_upper = {-0.5};
  r = sim::simulate(p, o);
  EXPECT_FALSE(r.converged);
  for (const auto& x : r.states) EXPECT_LE(x[0], -0.5 + 1e-6);
  o.state_upper = {0.5, 1.0};  // 2 entries for 1 state
  EXPECT_THROW(sim::simulate(p, o), Error);
  try {
    sim::simulate(p, o);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("state_upper has 2 entries"), std::string::npos) << e.what();
  }
}

// sim::Options::step_speed_of_time pulls a time-frozen step's speed of time towards a given value
// (ocp::validate, a jump on a stage end: OcpTimeFreezing.ValidationOfALandingOnAStageEnd shows
// what it selects). In free flight it changes nothing: the clock constraint fixes s = 1 whatever
// the pull (a ball falling for 0.2 s from q = 1, pulled towards s = 3: q(0.2) = 1 − g·0.02 to the
// discretization's accuracy, 1e-9 for Radau IIA on a quadratic, and s = 1). Sizes, bounds and a
// model without a clock are errors.
TEST(StepControls, SpeedOfTimePullChangesNoEquation) {
  const io::SimulateFile file = falling_ball(1.0, 2);
  sim::Options o = io::integrator_options(file);
  o.step_speed_of_time = {3.0, 3.0};
  const reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, o.discretization.dcs);
  sim::Integrator integrator(dcs, o);
  const sim::Result r = integrator.simulate();
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.states.back()[0], 1.0 - 9.81 * 0.02, 1e-9);
  ASSERT_EQ(r.speed_of_time.size(), 2u);
  for (double s : r.speed_of_time) EXPECT_NEAR(s, 1.0, 1e-9);

  o.step_speed_of_time = {3.0};  // 1 value for 2 steps
  EXPECT_THROW(sim::Integrator(dcs, o), Error);
  o.step_speed_of_time = {3.0, o.speed_of_time_upper * 2};
  EXPECT_THROW(sim::Integrator(dcs, o), Error);

  o.step_speed_of_time = {3.0, 3.0};  // not with several control stages per step
  o.stages_per_step = 2;
  EXPECT_THROW(sim::Integrator(dcs, o), Error);

  sim::Options po;  // a model without a clock
  po.step_speed_of_time = {1.0};
  EXPECT_THROW(sim::simulate(sliding_on_zero(), po), Error);
}

// The integrator's last retry for time-frozen models (sim::Options::predictor): the constant
// guesses again from σ0 = 1e-3. Source: the one-hole hopper's converged OCP solution (session 30's
// E1c, bench/hopper/checkpoints/one_hole_v10_warm_first_converged.json.gz), its stage 1 (a stance,
// 0.125 s) as ocp::validate re-simulates it: from the OCP's stage start, with the OCP's control
// and element lengths fixed, and the OCP's state bounds. Every attempt from σ = 1 loses the
// stance (residual floor 9e-4 .. 7e-2, 2.2 away from the OCP's stage end); the retry converges
// and ends within 1e-6 of the OCP's stage end (the validation's reproduction tolerance;
// measured 2.1e-7, docs/hopper-experiments.md, session 31).
TEST(StepControls, StanceStepRetriedFromASmallSigmaReproducesTheOcpStage) {
  const io::OcpFile file = io::read_ocp_file(std::string(STASIS_SOURCE_DIR) + "/examples/hopper_one_hole.yaml", {});
  sim::Options o;
  o.horizon = 0.125;
  o.steps = 1;
  o.discretization = file.discretization;
  o.step_controls = {{0.6546329464334313, 0.45259045114512575}};
  o.step_nominal_lengths = {{0.08333333333118695, 0.02775120339967399, 0.013915463269139061}};
  o.fix_nominal_lengths = true;
  o.state_lower = file.ocp.x_lower;
  o.state_upper = file.ocp.x_upper;
  o.homotopy.max_iter = 3000;
  o.homotopy.polish = true;
  o.homotopy.polish_threshold = 100 * o.homotopy.complementarity_tol;
  o.speed_of_time_lower = file.ocp.speed_of_time_lower;
  o.speed_of_time_upper = file.ocp.speed_of_time_upper;
  // (qx, qz, phi_hip, phi_knee, vx, vz, w_hip, w_knee, t) at the stage's start and the OCP's end.
  const std::vector<double> start{0.004720742254976231,  0.39995226167377196,   0.0075721129777774334,
                                  0.008460738925147872,  0.07677487066533902,   -0.001311820904318746,
                                  -0.04774123616639131,  0.4794109439887969,    0.125};
  const std::vector<double> ocp_end{0.017175523622585034, 0.395186427896791,  -0.10260691579999638,
                                    0.29208407005161935,  0.10331897909808657, -0.2609799855843504,
                                    -4.112704265439685,   8.80433969324461,    0.25};
  const reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, o.discretization.dcs);
  ASSERT_EQ(dcs.n_x(), start.size());
  sim::Integrator integrator(dcs, o);
  const sim::Result r = integrator.simulate(start);
  ASSERT_TRUE(r.converged) << r.message;
  for (std::size_t i = 0; i < ocp_end.size(); ++i)
    EXPECT_NEAR(r.states.back()[i], ocp_end[i], 1e-6) << "state " << i;
}
