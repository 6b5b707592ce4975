// sim::Options::step_controls: piecewise constant controls, one value per integrator step (used
// to re-simulate OCP controls, ocp::validate).
#include <gtest/gtest.h>

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
