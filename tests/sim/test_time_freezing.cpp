// Simulation of time-frozen systems with FESD, checked in physical time against closed-form and
// event-based references (time_freezing.md §6–§7).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "stasis/error.hpp"
#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sim/integrator.hpp"
#include "stasis/sim/physical.hpp"

using namespace stasis;

namespace {

struct TfRun {
  sim::Result numerical;
  sim::PhysicalTrajectory physical;
};

TfRun simulate(const reformulate::TimeFrozenModel& m, double horizon, int steps, int elements, int stages,
               bool regularize_alpha = false) {
  sim::Options o;
  o.horizon = horizon;
  o.steps = steps;
  o.discretization.elements = elements;
  o.discretization.stages = stages;
  o.discretization.dcs = reformulate::DcsMode::Step;
  if (regularize_alpha) o.alpha_penalty = m.alpha_regularization;
  TfRun r;
  r.numerical = sim::simulate(m.pss, o);
  r.physical = sim::recover_physical(m, r.numerical);
  return r;
}

model::Cls particle(double g, std::vector<double> x0) {
  model::Cls c;
  sym::Vector q = c.add_positions({"x", "y"});
  c.add_velocities({"vx", "vy"});
  c.forces = {0.0, -g};
  c.add_contact(q[1]);
  c.x0 = std::move(x0);
  return c;
}

// 1-D ball above the ground: q' = v, v' = −g, q >= 0, with the seed's spring-damper (k = 20, γ = 0.9).
model::JumpSystem ball(double q0, double v0) {
  model::JumpSystem js;
  sym::Vector x = js.add_states({"q", "v"});
  js.f = {x[1], sym::Expr(-9.81)};
  js.constraints = {x[0]};
  js.restitution = 0.9;
  js.stiffness = 20.0;
  js.x0 = {q0, v0};
  return js;
}

// Spec T8's physical end: t = 0.2 exactly (1e-9) and x = (0.6, 0, 3, 0) (1e-6).
void expect_t8_final_state(const TfRun& r) {
  const auto& x = r.physical.states.back();
  EXPECT_NEAR(r.physical.time.back(), 0.2, 1e-9);
  EXPECT_NEAR(x[0], 0.6, 1e-6);
  EXPECT_NEAR(x[1], 0.0, 1e-6);
  EXPECT_NEAR(x[2], 3.0, 1e-6);
  EXPECT_NEAR(x[3], 0.0, 1e-6);
}

// T8's one impact (spec T8): at t = sqrt(2·0.06/g) = 0.1095445115 with v2− = −1.0954451150,
// v2+ = 0, normal impulse |v2−| and τ_jump = |v2−|/a_n of numerical time (1e-6).
void expect_t8_impact(const TfRun& r, double normal_acceleration) {
  ASSERT_EQ(r.physical.impacts.size(), 1u);
  const sim::Impact& imp = r.physical.impacts[0];
  EXPECT_NEAR(imp.time, 0.1095445115, 1e-6);
  EXPECT_NEAR(imp.before[3], -1.0954451150, 1e-6);
  EXPECT_NEAR(imp.after[3], 0.0, 1e-6);
  EXPECT_NEAR(imp.impulse[0], 1.0954451150, 1e-6);
  EXPECT_NEAR(imp.numerical_duration, 1.0954451150 / normal_acceleration, 1e-6);
}

}  // namespace

// T8 (nosnoc inelastic_2d_sim): x0 = (0, 0.06, 3, 0), g = 10, a_n = 10, one step of 0.2: the impact
// at t = 0.1095445115 is an element boundary, the sliding slowdown γ = 0.5 is compensated by s = 2
// exactly, and the final state is (0.6, 0, 3, 0) at t = 0.2 (1e-6).
TEST(TimeFreezingSim, T8SpeedOfTimeCompensatesSliding) {
  reformulate::TimeFreezingOptions tf;
  tf.normal_acceleration = 10.0;
  reformulate::TimeFrozenModel m = reformulate::time_freezing(particle(10.0, {0, 0.06, 3, 0}), tf);
  // with the gap's α regularization the jump is a whole frozen element and is reported as an impact
  TfRun r = simulate(m, 0.2, 1, 3, 2, true);
  ASSERT_TRUE(r.numerical.converged) << r.numerical.message;
  ASSERT_EQ(r.numerical.speed_of_time.size(), 1u);
  EXPECT_NEAR(r.numerical.speed_of_time[0], 2.0, 1e-6);
  ASSERT_EQ(r.physical.impacts.size(), 1u);
  EXPECT_NEAR(r.physical.impacts[0].time, 0.1095445115, 1e-6);
  EXPECT_NEAR(r.physical.impacts[0].before[3], -1.0954451150, 1e-6);
  EXPECT_NEAR(r.physical.impacts[0].after[3], 0.0, 1e-6);
  EXPECT_NEAR(r.physical.impacts[0].impulse[0], 1.0954451150, 1e-6);
  // the first element ends at the impact: clock = 0.1095445115, vy = −1.0954451150
  EXPECT_NEAR(r.numerical.states[1][4], 0.1095445115, 1e-6);
  EXPECT_NEAR(r.numerical.states[1][3], -1.0954451150, 1e-6);
  expect_t8_final_state(r);
}

// Seed 002's ball, one bounce inside one step (q0 = 1, v0 = −5, step 0.25, 6 elements, Radau IIA
// n_s = 3): impact at the root of 1 − 5t − g t²/2 (1e-6), v− = −sqrt(25 + 2g) (1e-6), restitution 0.9
// on the velocity (1e-2 relative: the spring phase is integrated by the RK scheme), physical time
// exactly 0.25.
TEST(TimeFreezingSim, SpringDamperBounceWithinOneStep) {
  reformulate::TimeFrozenModel m = reformulate::time_freezing(ball(1.0, -5.0));
  TfRun r = simulate(m, 0.25, 1, 6, 3);
  ASSERT_TRUE(r.numerical.converged) << r.numerical.message;
  ASSERT_EQ(r.physical.impacts.size(), 1u);
  const double g = 9.81, t_imp = (-5.0 + std::sqrt(25.0 + 2 * g)) / g, v_minus = -std::sqrt(25.0 + 2 * g);
  const sim::Impact& imp = r.physical.impacts[0];
  EXPECT_NEAR(imp.time, t_imp, 1e-6);
  EXPECT_NEAR(imp.before[1], v_minus, 1e-6);
  EXPECT_NEAR(imp.after[1], -0.9 * v_minus, 1e-2 * 0.9 * std::fabs(v_minus));
  EXPECT_NEAR(imp.after[0], 0.0, 1e-6);
  // τ_jump = sqrt((π² + ln² 0.9)/20) = 0.7028764201 (time_freezing.md §6.1), 1e-3 relative
  EXPECT_NEAR(imp.numerical_duration, 0.7028764201, 1e-3 * 0.7028764201);
  EXPECT_NEAR(r.physical.time.back(), 0.25, 1e-9);
}

// T4 (time_freezing.md §7): M = 1, f_c = q, e = 0, x0 = (0.8, 0), g = 9.81, a_n = 100 over 10 steps
// of 0.1 (6 elements, Radau IIA n_s = 2), without the α regularization. The landing is at
// t = sqrt(2 h0/g) = 0.4038550219 with v_s = −3.9618177646 (1e-6: FESD is exact up to the solver
// tolerance); the impact lasts τ_jump = |v_s|/a_n = 0.0396181776 (1e-6), its normal impulse is |v_s|
// and the velocity after it 0 (1e-6). Step 5 holds the landing 0.0039 after its start; FESD puts
// the jump and the contact phase after it into one element (the gap is exactly zero in both, so
// its α is free), and the recovery completes the jump inside that element (sim/physical.hpp).
// Issue #4: the dense form (the default of simulate files) and the lifted form with θ(α)
// substituted (lifted_variables = false), the same NLPs; the lifted form with θ, β variables (the
// C++ default) ends the rest steps 6, 8 and 9 (they start ~1e-9 off the contact surface) at the
// IPOPT iteration limit with residual ~5e-9, so it is not run here.
TEST(TimeFreezingSim, T4InelasticLandingImpactIsRecovered) {
  model::Cls c;
  sym::Vector q = c.add_positions({"q"});
  c.add_velocities({"v"});
  c.forces = {-9.81};
  c.add_contact(q[0]);
  c.x0 = {0.8, 0.0};
  for (bool substituted : {false, true}) {
    SCOPED_TRACE(substituted ? "lifted, substituted" : "dense");
    reformulate::TimeFreezingOptions tf;
    tf.lifting = substituted;
    tf.lifted_variables = false;
    reformulate::TimeFrozenModel m = reformulate::time_freezing(c, tf);
    TfRun r = simulate(m, 1.0, 10, 6, 2);
    ASSERT_TRUE(r.numerical.converged) << r.numerical.message;
    ASSERT_EQ(r.physical.impacts.size(), 1u);
    const sim::Impact& imp = r.physical.impacts[0];
    const double t1 = std::sqrt(2 * 0.8 / 9.81), vs = -std::sqrt(2 * 9.81 * 0.8);
    EXPECT_NEAR(imp.time, t1, 1e-6);
    EXPECT_NEAR(imp.before[1], vs, 1e-6);
    EXPECT_NEAR(imp.after[1], 0.0, 1e-6);
    ASSERT_EQ(imp.impulse.size(), 1u);
    EXPECT_NEAR(imp.impulse[0], -vs, 1e-6);
    EXPECT_NEAR(imp.numerical_duration, 0.0396181776, 1e-6);
    EXPECT_NEAR(r.physical.time.back(), 1.0, 1e-9);
    EXPECT_NEAR(r.physical.states.back()[0], 0.0, 1e-4);  // the dense form's jump lets q sink by ~7e-6
    EXPECT_NEAR(r.physical.states.back()[1], 0.0, 1e-6);
    // the jump is two equal consecutive times
    int equal = 0;
    for (std::size_t i = 1; i < r.physical.time.size(); ++i)
      if (r.physical.time[i] == r.physical.time[i - 1]) ++equal;
    EXPECT_EQ(equal, 1);
  }
}

// T8 without the α regularization: the jump shares the second element with the sliding phase
// (the element's clock runs at less than the speed of time) and the recovery completes it there.
// Same expected numbers and tolerances as T8SpeedOfTimeCompensatesSliding.
TEST(TimeFreezingSim, T8ImpactInsideAnElementIsRecovered) {
  reformulate::TimeFreezingOptions tf;
  tf.normal_acceleration = 10.0;
  reformulate::TimeFrozenModel m = reformulate::time_freezing(particle(10.0, {0, 0.06, 3, 0}), tf);
  TfRun r = simulate(m, 0.2, 1, 3, 2);
  ASSERT_TRUE(r.numerical.converged) << r.numerical.message;
  EXPECT_NEAR(r.numerical.speed_of_time[0], 2.0, 1e-6);
  expect_t8_impact(r, 10.0);
  ASSERT_EQ(r.physical.impacts.size(), 1u);
  const sim::Impact& imp = r.physical.impacts[0];
  EXPECT_NEAR(imp.after[2], 3.0, 1e-6);             // frictionless: v1 unchanged
  EXPECT_NEAR(imp.after[0], imp.before[0], 1e-12);  // positions do not move in a jump
  EXPECT_TRUE(r.physical.warnings.empty()) << r.physical.warnings.front();
  EXPECT_NEAR(r.physical.time.back(), 0.2, 1e-9);
  EXPECT_NEAR(r.physical.states.back()[0], 0.6, 1e-6);
}

// T8 with a_n = 100 instead of 10 (issue #4: steps holding an impact failed with nosnoc's default
// a_n). Closed form from spec T8: impact at t = sqrt(2·0.06/g) = 0.1095445115 with
// v2− = −1.0954451150, τ_jump = |v2−|/a_n = 0.0109544512, sliding at γ = a_n/(a_n + g), so the step
// of 0.2 needs s = 1 + g/a_n = 1.1 exactly; x(0.2) = (0.6, 0, 3, 0). Tolerances as in T8 (1e-6). The
// 0.011-long jump sits inside a nominal element of the one step: the first attempts (predictor,
// consistent and nominal guesses from σ0 = 1) fail, the predictor with aligned elements from
// σ0 = 1e-3 converges.
TEST(TimeFreezingSim, T8WithNormalAcceleration100) {
  reformulate::TimeFreezingOptions tf;
  tf.normal_acceleration = 100.0;
  reformulate::TimeFrozenModel m = reformulate::time_freezing(particle(10.0, {0, 0.06, 3, 0}), tf);
  TfRun r = simulate(m, 0.2, 1, 3, 2);
  ASSERT_TRUE(r.numerical.converged) << r.numerical.message;
  EXPECT_NEAR(r.numerical.speed_of_time[0], 1.1, 1e-6);
  expect_t8_impact(r, 100.0);
  expect_t8_final_state(r);
}

namespace {
// The model and the one step of T8WithNormalAcceleration100 (0.2 s, 3 elements, Radau IIA with
// 2 stages, step DCS).
reformulate::TimeFrozenModel t8_a100() {
  reformulate::TimeFreezingOptions tf;
  tf.normal_acceleration = 100.0;
  return reformulate::time_freezing(particle(10.0, {0, 0.06, 3, 0}), tf);
}
sim::Options t8_one_step() {
  sim::Options o;
  o.horizon = 0.2;
  o.steps = 1;
  o.discretization.elements = 3;
  o.discretization.stages = 2;
  o.discretization.dcs = reformulate::DcsMode::Step;
  return o;
}
}  // namespace

// sim::Options::max_attempts: the step of T8WithNormalAcceleration100 from its first guess only
// (the predictor from σ0 = 1, which fails there) does not converge; a negative count is an error.
TEST(TimeFreezingSim, MaxAttemptsLimitsTheGuessesTried) {
  const reformulate::TimeFrozenModel m = t8_a100();
  sim::Options o = t8_one_step();
  o.max_attempts = 1;
  const sim::Result one = sim::simulate(m.pss, o);
  EXPECT_FALSE(one.converged);  // with every guess (0, the default) it converges: T8WithNormalAcceleration100
  o.max_attempts = -1;
  try {
    sim::simulate(m.pss, o);
    FAIL() << "a negative max_attempts was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("max_attempts is -1"), std::string::npos) << e.what();
  }
}

// Integrator::simulate with a StepGuess: the first step from that guess only. The same T8 step
// as above, whose first guess alone does not converge: from the solution that all its guesses
// find (as ocp::validate passes an OCP stage's motion) it converges with max_attempts = 1, to
// that solution (measured: the same end state to 1e-18; asserted to 1e-9, the complementarity
// tolerance), in fewer iterations (measured 243 against 2594). A guess of the wrong size, with a
// NaN or with σ0 = 0 is refused.
TEST(TimeFreezingSim, AStepGuessStartsTheFirstStep) {
  const reformulate::TimeFrozenModel m = t8_a100();
  sim::Options o = t8_one_step();
  const reformulate::Dcs dcs = reformulate::to_dcs(m.pss, o.discretization.dcs);
  const sim::Result all = sim::Integrator(dcs, o).simulate();
  ASSERT_TRUE(all.converged) << all.message;
  o.max_attempts = 1;
  sim::Integrator one(dcs, o);
  const sim::Result guessed = one.simulate(dcs.x0, sim::StepGuess{all.step_results[0].w, 1e-3});
  ASSERT_TRUE(guessed.converged) << guessed.message;
  EXPECT_LT(guessed.nlp_iterations, all.nlp_iterations);
  ASSERT_EQ(guessed.states.back().size(), all.states.back().size());
  for (std::size_t i = 0; i < all.states.back().size(); ++i)
    EXPECT_NEAR(guessed.states.back()[i], all.states.back()[i], 1e-9) << "state " << i;
  EXPECT_THROW(one.simulate(dcs.x0, sim::StepGuess{{1.0, 2.0}, 1e-3}), Error);
  std::vector<double> bad = all.step_results[0].w;
  bad[0] = std::nan("");
  EXPECT_THROW(one.simulate(dcs.x0, sim::StepGuess{bad, 1e-3}), Error);
  EXPECT_THROW(one.simulate(dcs.x0, sim::StepGuess{all.step_results[0].w, 0.0}), Error);
}

namespace {
// The recovery of a hand-made trajectory of a planar particle on the ground y >= 0 (tangent x,
// friction mu, a_n = 10, mass matrix `mass`, empty = identity): four points, three elements of
// 0.1, 0.1 and 0.05 at speed of time 1, the second and third in contact.
sim::PhysicalTrajectory recover_particle(double mu, const sym::Matrix& mass,
                                         const std::vector<std::vector<double>>& states, bool lifting) {
  model::Cls c;
  sym::Vector q = c.add_positions({"x", "y"});
  c.add_velocities({"vx", "vy"});
  c.mass = mass;
  c.forces = {0.0, -9.81};
  c.add_contact(q[1], 0.0, mu, sym::Matrix{{1.0}, {0.0}});
  c.x0 = {states[0][0], states[0][1], states[0][2], states[0][3]};
  reformulate::TimeFreezingOptions tf;
  tf.normal_acceleration = 10.0;
  tf.lifting = lifting;
  reformulate::TimeFrozenModel m = reformulate::time_freezing(c, tf);
  sim::NumericalTrajectory n;
  n.states = states;
  n.element_length = {0.1, 0.1, 0.05};
  n.speed_of_time = {1.0};
  n.active = {{0}, {0, 1}, {0, 1}};
  return sim::recover_physical(m, n);
}
}  // namespace

// The recovery on hand-made trajectories (no solver): a flight element that ends at a closed gap
// with v = (3, −4.42945), then an element in which the clock runs at half the speed of time, whose
// start holds that closing contact and whose end is at rest in the normal direction. The jump is
// completed inside the element by the auxiliary fields: spec T7's planar frictional impact,
// v1+ = max(|v1−| − μ|v2−|, 0): 0.785275 for μ = 0.5, 0 (stick) for μ = 0.8 (closed form; the
// fields are constant, so 1e-12), v2+ = 0, normal impulse |v2−|, τ_jump = |v2−|/a_n, and the
// physical trajectory has the jump as two equal times.
TEST(TimeFreezingSim, RecoveryCompletesAJumpInsideAnElement) {
  for (double mu : {0.5, 0.8}) {
    SCOPED_TRACE("mu = " + std::to_string(mu));
    for (bool lifting : {true, false}) {
      sim::PhysicalTrajectory p = recover_particle(mu, {},
                                                   {{0.0, 0.2, 3.0, -4.0, 0.0},
                                                    {0.3, 0.0, 3.0, -4.42945, 0.1},
                                                    {0.35, 0.0, 0.7, 0.0, 0.15},
                                                    {0.4, 0.0, 0.6, 0.0, 0.2}},
                                                   lifting);
      ASSERT_EQ(p.impacts.size(), 1u);
      const sim::Impact& imp = p.impacts[0];
      EXPECT_EQ(imp.time, 0.1);
      EXPECT_EQ(imp.before, (std::vector<double>{0.3, 0.0, 3.0, -4.42945}));
      EXPECT_NEAR(imp.after[2], std::max(3.0 - mu * 4.42945, 0.0), 1e-12);
      EXPECT_NEAR(imp.after[3], 0.0, 1e-12);
      EXPECT_EQ(imp.after[0], 0.3);
      EXPECT_EQ(imp.after[1], 0.0);
      ASSERT_EQ(imp.impulse.size(), 1u);
      EXPECT_NEAR(imp.impulse[0], 4.42945, 1e-12);
      EXPECT_NEAR(imp.numerical_duration, 0.442945, 1e-12);
      EXPECT_EQ(p.time, (std::vector<double>{0.0, 0.1, 0.1, 0.15, 0.2}));
      EXPECT_EQ(p.point, (std::vector<std::size_t>{0, 1, 1, 2, 3}));
    }
  }
}

// The same with the normal and tangential directions coupled through the mass matrix (as in a
// leg): M = [[2, 1], [1, 1]], M⁻¹ = [[1, −1], [−1, 2]], gap y, tangent x, v− = (0.3, −1), a_n = 10.
// The fields move v along a_n·M⁻¹(n ∓ μt); the slip field M⁻¹(n − μt) runs until v_x = 0. Then,
// closed form (per unit a_n):
// - μ = 2: the two fields' v_x rates are −3 and +1, so friction holds; the Filippov combination
//   that keeps v_x = 0 is (0, 1), and v+ = (0, 0) after (0.1 + 0.6)/a_n = 0.07 of numerical time
//   (P = M(v+ − v−) = (0.4, 0.7), |P_t| ≤ μP_n). The mean of the two fields, which the completion
//   used before, ended at v+ = (−0.3, 0).
// - μ = 0.8: the rates are −1.8 and −0.2, so friction cannot hold and the contact slips on along
//   M⁻¹(n + μt) = (−0.2, 1.2): v_x = 0 after 1/6 (v_y = −1 + 2.8/6), then v_y = 0 after
//   (1 − 2.8/6)/1.2, with v_x+ = −0.2 times that.
// Both: normal impulse Δ(nᵀv)/D = 1/2 (D = nᵀM⁻¹n = 2). The fields are constant (no position
// stabilization): 1e-12.
TEST(TimeFreezingSim, RecoveryCompletesAJumpWithCoupledFriction) {
  for (double mu : {2.0, 0.8}) {
    SCOPED_TRACE("mu = " + std::to_string(mu));
    for (bool lifting : {true, false}) {
      sim::PhysicalTrajectory p = recover_particle(
          mu, sym::Matrix{{2.0, 1.0}, {1.0, 1.0}},
          {{0.0, 0.2, 0.3, -0.9, 0.0}, {0.3, 0.0, 0.3, -1.0, 0.1},
           {0.3, 0.0, 0.0, 0.0, 0.15}, {0.3, 0.0, 0.0, 0.0, 0.2}},
          lifting);
      ASSERT_EQ(p.impacts.size(), 1u);
      const sim::Impact& imp = p.impacts[0];
      EXPECT_TRUE(p.warnings.empty()) << p.warnings.front();
      EXPECT_NEAR(imp.after[3], 0.0, 1e-12);
      ASSERT_EQ(imp.impulse.size(), 1u);
      if (mu == 2.0) {
        EXPECT_NEAR(imp.after[2], 0.0, 1e-12);
        EXPECT_NEAR(imp.numerical_duration, 0.07, 1e-12);
      } else {
        const double vy_stop = -1.0 + 2.8 / 6.0, tail = -vy_stop / 1.2;
        EXPECT_NEAR(imp.after[2], -0.2 * tail, 1e-12);
        EXPECT_NEAR(imp.numerical_duration, (1.0 / 6.0 + tail) / 10.0, 1e-12);
      }
      EXPECT_NEAR(imp.impulse[0], 1.0 / 2.0, 1e-12);
    }
  }
}

// A Painlevé configuration: the same coupled particle (M = [[2, 1], [1, 1]], so nᵀM⁻¹n = 2 and
// bᵀM⁻¹n = −1) landing while sliding towards −x. Under the auxiliary field of that sliding
// direction the normal velocity changes at a_n (nᵀM⁻¹n + μ bᵀM⁻¹n) = a_n (2 − μ): for μ = 3
// friction drives the contact into the surface (μ|bᵀM⁻¹n| / nᵀM⁻¹n = 1.5, closed form), a
// tangential impact without a unique rigid-body solution, which the recovery reports (the hopper's
// three landings of docs/hopper-experiments.md, session 25, are such impacts); for μ = 0.8 (0.4)
// and for sliding towards +x (the other field: 2 + μ > 0) it does not.
TEST(TimeFreezingSim, RecoveryReportsPainleveConfigurations) {
  const sym::Matrix coupled{{2.0, 1.0}, {1.0, 1.0}};
  auto landing = [&](double mu, double vx) {
    const double x1 = 0.1 * vx;
    return recover_particle(mu, coupled,
                            {{0.0, 0.2, vx, -0.9, 0.0}, {x1, 0.0, vx, -1.0, 0.1},
                             {x1, 0.0, 0.0, 0.0, 0.15}, {x1, 0.0, 0.0, 0.0, 0.2}},
                            true);
  };
  const sim::PhysicalTrajectory p = landing(3.0, -0.3);
  ASSERT_EQ(p.impacts.size(), 1u);
  EXPECT_EQ(p.impacts[0].painleve_contacts, (std::vector<int>{0}));
  bool warned = false;
  for (const std::string& w : p.warnings)
    if (w.find("a Painlevé configuration") != std::string::npos) {
      warned = true;
      EXPECT_NE(w.find("(μ|bᵀM⁻¹n| / nᵀM⁻¹n = 1.5 > 1)"), std::string::npos) << w;
      EXPECT_NE(w.find("impact at t = 0.1, contact 0"), std::string::npos) << w;
    }
  EXPECT_TRUE(warned);
  for (const auto& [mu, vx] : {std::pair{0.8, -0.3}, std::pair{3.0, 0.3}}) {
    SCOPED_TRACE("mu = " + std::to_string(mu) + ", vx = " + std::to_string(vx));
    const sim::PhysicalTrajectory q = landing(mu, vx);
    ASSERT_EQ(q.impacts.size(), 1u);
    EXPECT_TRUE(q.impacts[0].painleve_contacts.empty());
    for (const std::string& w : q.warnings) EXPECT_EQ(w.find("Painlevé"), std::string::npos) << w;
  }
}

// The same particle sliding towards −x in a contact phase (an element whose clock runs at half
// the speed of time, half of it in the auxiliary field of that sliding direction): for μ = 3 a
// Painlevé configuration (ratio 1.5, closed form), reported once for the contact with its elements
// and time; for μ = 0.8 not.
TEST(TimeFreezingSim, RecoveryReportsPainleveSliding) {
  for (double mu : {3.0, 0.8}) {
    SCOPED_TRACE("mu = " + std::to_string(mu));
    model::Cls c;
    sym::Vector q = c.add_positions({"x", "y"});
    c.add_velocities({"vx", "vy"});
    c.mass = sym::Matrix{{2.0, 1.0}, {1.0, 1.0}};
    c.forces = {0.0, -9.81};
    c.add_contact(q[1], 0.0, mu, sym::Matrix{{1.0}, {0.0}});
    c.x0 = {0.0, 0.0, -0.3, 0.0};
    reformulate::TimeFreezingOptions tf;
    tf.normal_acceleration = 10.0;
    const reformulate::TimeFrozenModel m = reformulate::time_freezing(c, tf);
    sim::NumericalTrajectory n;
    n.states = {{0.0, 0.0, -0.3, 0.0, 0.0}, {-0.015, 0.0, -0.3, 0.0, 0.05}};
    n.element_length = {0.1};
    n.speed_of_time = {1.0};
    std::vector<double> theta(m.n_regions(), 0.0);
    std::vector<int> active;
    for (std::size_t j = 0; j < m.n_regions(); ++j) {
      const bool ode = m.region_contacts[j].empty();
      const bool neg = !ode && m.region_friction_sign[j] == std::vector<int>{-1};
      if (ode || neg) {
        theta[j] = 0.5;
        active.push_back(static_cast<int>(j));
      }
    }
    ASSERT_EQ(active.size(), 2u);
    n.theta = {theta};
    n.active = {active};
    const sim::PhysicalTrajectory p = sim::recover_physical(m, n);
    EXPECT_TRUE(p.impacts.empty());
    if (mu == 3.0) {
      EXPECT_EQ(p.painleve_sliding_time, (std::vector<double>{0.0}));
      ASSERT_EQ(p.warnings.size(), 1u);
      EXPECT_NE(p.warnings[0].find("contact 0 slides in a Painlevé configuration in 1 element(s) of contact phases "
                                   "between t = 0 and 0 (μ|bᵀM⁻¹n| / nᵀM⁻¹n up to 1.5 > 1)"),
                std::string::npos)
          << p.warnings[0];
    } else {
      EXPECT_TRUE(p.painleve_sliding_time.empty());
      EXPECT_TRUE(p.warnings.empty()) << p.warnings.front();
    }
  }
}

// T4 after the landing: at rest on the ground (sliding slowdown compensated by the speed of time),
// physical time exactly 1 (1e-9), q = v = 0 (1e-6).
TEST(TimeFreezingSim, T4InelasticLandingEndsAtRest) {
  model::Cls c;
  sym::Vector q = c.add_positions({"q"});
  c.add_velocities({"v"});
  c.forces = {-9.81};
  c.add_contact(q[0]);
  c.x0 = {0.8, 0.0};
  // Both forms: the lifted one (the default) and the dense sign-row one.
  for (bool lifting : {true, false}) {
    reformulate::TimeFreezingOptions tf;
    tf.lifting = lifting;
    reformulate::TimeFrozenModel m = reformulate::time_freezing(c, tf);
    TfRun r = simulate(m, 1.0, 10, 4, 2);
    const std::string form = lifting ? "lifted" : "dense";
    ASSERT_TRUE(r.numerical.converged) << form << ": " << r.numerical.message;
    EXPECT_NEAR(r.physical.time.back(), 1.0, 1e-9) << form;  // physical time exactly as asked
    EXPECT_NEAR(r.physical.states.back()[0], 0.0, 1e-6) << form;
    EXPECT_NEAR(r.physical.states.back()[1], 0.0, 1e-6) << form;
  }
}

// Seed 002's bouncing ball (time_freezing.md §6.1, T3): q0 = 10, v0 = 0, γ = 0.9, k = 20, g = 9.81,
// 15 s in 60 steps (6 elements, Radau IIA n_s = 3). First impact at t1 = sqrt(2 q0/g) (1e-6);
// post-impact velocities of all eight bounces within 1e-2 relative of the analytic sequence (they
// depend on how finely the spring phase is integrated: more stages or elements tighten them).
TEST(TimeFreezingSim, SeedBouncingBall) {
  reformulate::TimeFrozenModel m = reformulate::time_freezing(ball(10.0, 0.0));
  TfRun r = simulate(m, 15.0, 60, 6, 3);
  ASSERT_TRUE(r.numerical.converged) << r.numerical.message;
  ASSERT_EQ(r.physical.impacts.size(), 8u);
  const double g = 9.81;
  double t = std::sqrt(2 * 10.0 / g), v = std::sqrt(2 * g * 10.0);
  EXPECT_NEAR(r.physical.impacts[0].time, t, 1e-6);
  for (const sim::Impact& imp : r.physical.impacts) {
    EXPECT_NEAR(imp.after[1], 0.9 * v, 1e-2 * 0.9 * v);
    v *= 0.9;
  }
  EXPECT_NEAR(r.physical.time.back(), 15.0, 1e-9);
  // physical time is non-decreasing and a jump is exactly two equal consecutive entries
  int equal = 0;
  for (std::size_t i = 1; i < r.physical.time.size(); ++i) {
    EXPECT_GE(r.physical.time[i], r.physical.time[i - 1]);
    if (r.physical.time[i] == r.physical.time[i - 1]) ++equal;
  }
  EXPECT_EQ(equal, 8);
}

// discretization.spurious_switches: a ball thrown up (q0 = 1, v0 = 1, g = 9.81, one step of 0.3 with
// 3 elements) passes the top of its flight at t = 1/g = 0.1019368, where the normal velocity's
// switching function changes sign while the gap is positive: θ_ode = 1 on both sides, the same
// field. `detect` (nosnoc) still puts an element boundary there; `ignore` leaves the elements
// equal (0.1 each, the step equilibration's choice). Free flight is quadratic, so both end at the
// exact state q = 1 + 0.3 − g·0.09/2, v = 1 − 0.3 g, up to the relaxation's trace of the auxiliary
// field (θ_aux ~ 1e-10 times a_n = 100 over 0.3: 5e-9 measured; 1e-7).
TEST(TimeFreezingSim, SpuriousSwitchAtTheTopOfAFlight) {
  model::Cls c;
  sym::Vector q = c.add_positions({"q"});
  c.add_velocities({"v"});
  c.forces = {-9.81};
  c.add_contact(q[0]);
  c.x0 = {1.0, 1.0};
  const reformulate::TimeFrozenModel m = reformulate::time_freezing(c, {});
  for (auto mode : {discretize::SpuriousSwitches::Detect, discretize::SpuriousSwitches::Ignore}) {
    SCOPED_TRACE(discretize::to_string(mode));
    sim::Options o;
    o.horizon = 0.3;
    o.steps = 1;
    o.discretization.elements = 3;
    o.discretization.dcs = reformulate::DcsMode::Step;
    o.discretization.spurious_switches = mode;
    const sim::Result r = sim::simulate(m.pss, o);
    ASSERT_TRUE(r.converged) << r.message;
    ASSERT_EQ(r.time.size(), 4u);
    EXPECT_NEAR(r.states.back()[0], 1.0 + 0.3 - 9.81 * 0.09 / 2, 1e-7);
    EXPECT_NEAR(r.states.back()[1], 1.0 - 0.3 * 9.81, 1e-7);
    double closest_to_top = 1.0;
    for (double t : r.time) closest_to_top = std::min(closest_to_top, std::fabs(t - 1.0 / 9.81));
    if (mode == discretize::SpuriousSwitches::Detect) {
      EXPECT_LT(closest_to_top, 1e-6);
    } else {
      EXPECT_NEAR(r.time[1], 0.1, 1e-6);
      EXPECT_NEAR(r.time[2], 0.2, 1e-6);
    }
  }
}
