// sim::Options::step_controls: piecewise constant controls, one value per integrator step (used
// to re-simulate OCP controls, ocp::validate).
#include <gtest/gtest.h>

#include <cmath>

#include "stasis/error.hpp"
#include "stasis/sim/integrator.hpp"

using namespace stasis;

// ẋ = u + 3 for x < 0, u + 1 for x > 0, x0 = −1, steps of 0.5 with u = 0, −2, 1:
// step 1 crosses x = 0 at t = 1/3 and ends at x = 1/6; step 2 returns to 0 at t = 2/3 and slides
// there (ẋ = −1 above, +1 below); step 3 leaves upwards with ẋ = 2: x(1.5) = 1.
TEST(StepControls, EachStepHoldsItsControl) {
  model::Pss p;
  sym::Vector x = p.add_states({"x"});
  sym::Vector u = p.add_controls({"u"});
  model::Subsystem s;
  s.switching = {x[0]};
  s.signs = {{-1}, {1}};
  s.fields = {{u[0] + 3.0}, {u[0] + 1.0}};
  p.subsystems = {s};
  p.x0 = {-1.0};
  sim::Options o;
  o.horizon = 1.5;
  o.steps = 3;
  o.discretization.elements = 3;
  o.step_controls = {{0.0}, {-2.0}, {1.0}};
  sim::Result r = sim::simulate(p, o);
  ASSERT_TRUE(r.converged) << r.message;
  ASSERT_EQ(r.states.size(), 10u);
  EXPECT_NEAR(r.states[3][0], 1.0 / 6.0, 1e-6);
  EXPECT_NEAR(r.states[6][0], 0.0, 1e-6);
  EXPECT_NEAR(r.states[9][0], 1.0, 1e-6);

  o.step_controls = {{0.0}, {1.0}};  // 2 entries for 3 steps
  EXPECT_THROW(sim::simulate(p, o), Error);
  o.step_controls = {{0.0}, {1.0}, {1.0, 2.0}};
  EXPECT_THROW(sim::simulate(p, o), Error);
}

// sim::Options::step_nominal_lengths: heuristic_mean pulls towards the given lengths instead of
// h0 (ocp::validate re-simulates an OCP's stage on the OCP's grid this way). On the same switch
// (x0 = −1, ẋ = 3 below 0, ẋ = −1 above: sliding on x = 0 from t = 1/3, fesd.md T1) over π/4 in
// four elements: lengths that put a boundary at the switch come out as given (1e-8); lengths
// that do not still get the switch at a boundary (the dynamics place it, 1e-6), x = 0 at the end.
TEST(StepControls, NominalElementLengthsAreTheGridWhereNoSwitchPinsIt) {
  model::Pss p;
  sym::Vector x = p.add_states({"x"});
  model::Subsystem s;
  s.switching = {x[0]};
  s.signs = {{-1}, {1}};
  s.fields = {{sym::Expr(3.0)}, {sym::Expr(-1.0)}};
  p.subsystems = {s};
  p.x0 = {-1.0};
  sim::Options o;
  o.horizon = M_PI / 4;
  o.steps = 1;
  o.discretization.elements = 4;
  const double rest = M_PI / 4 - 1.0 / 3.0;
  const std::vector<double> on_switch{0.2, 1.0 / 3.0 - 0.2, 0.6 * rest, 0.4 * rest};
  o.step_nominal_lengths = {on_switch};
  sim::Result r = sim::simulate(p, o);
  ASSERT_TRUE(r.converged) << r.message;
  ASSERT_EQ(r.element_length.size(), 4u);
  for (std::size_t n = 0; n < 4; ++n) EXPECT_NEAR(r.element_length[n], on_switch[n], 1e-8) << "element " << n;
  EXPECT_NEAR(r.states.back()[0], 0.0, 1e-6);

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
