// kind: simulate / kind: ocp readers with cls and jump models and the time_freezing section: the
// examples in examples/time_freezing (sizes, the clock last, the facts their headers state), a
// mass matrix and forces derived from a Lagrangian against hand-written formulas, physical time `t`
// as the clock, -o overrides, and error cases with their file:line:column.
#include <gtest/gtest.h>

#include "io_test_support.hpp"

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/sym/matrix.hpp"

namespace {

using stasis::Error;
using stasis::io::OcpFile;
using stasis::io::read_ocp_file;
using stasis::io::read_ocp_string;
using stasis::io::read_simulate_file;
using stasis::io::read_simulate_string;
using stasis::io::SimulateFile;
using stasis::io::TimeFreezingFile;
namespace sym = stasis::sym;
namespace model = stasis::model;
namespace discretize = stasis::discretize;
namespace reformulate = stasis::reformulate;


std::string example(const std::string& name) {
  return std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/" + name;
}

sym::Vector symbols(const model::Pss& p) {
  sym::Vector s = p.x;
  s.insert(s.end(), p.u.begin(), p.u.end());
  return s;
}

// The field of region `i` (single subsystem) at (y, u).
std::vector<double> field(const model::Pss& p, std::size_t i, const std::vector<double>& yu) {
  std::vector<double> f;
  for (const auto& e : p.subsystems.at(0).fields.at(i)) f.push_back(sym::evaluate(e, symbols(p), yu));
  return f;
}

// The region whose sign row is `row`: the dense form's sign row, or for a lifted one-contact model the
// field that the signs select (TimeFreezingFile.LiftingFollowsTheDcs checks the lifted layout).
std::size_t region(const model::Pss& p, const std::vector<int>& row) {
  const auto& signs = p.subsystems.at(0).signs;
  if (p.subsystems.at(0).lifting && row.size() <= 3) {
    // lifted, one contact: row = signs of (gap, normal velocity[, tangential]); fields flight, pos, neg
    if (row[0] > 0 || row[1] > 0) return 0;
    return row.size() == 3 && row[2] < 0 ? 2 : 1;
  }
  for (std::size_t i = 0; i < signs.size(); ++i)
    if (signs[i] == row) return i;
  ADD_FAILURE() << "no region with these signs";
  return 0;
}

void expect_near(const std::vector<double>& a, const std::vector<double>& b, double tol = 1e-12) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol) << "entry " << i;
}

// Common checks of a time-frozen file: the PSS is the frozen model's, the clock `t` is last and is
// the `time` symbol, x0 ends with t0 = 0.
void expect_time_frozen(const model::Pss& pss, const TimeFreezingFile& tf,
                        const std::vector<std::string>& states) {
  std::vector<std::string> names = states;
  names.push_back("t");
  EXPECT_EQ(pss.state_names, names);
  EXPECT_EQ(tf.physical_state_names(), states);
  EXPECT_EQ(pss.clock, static_cast<int>(states.size()));
  EXPECT_EQ(tf.frozen.clock, pss.clock);
  EXPECT_EQ(pss.time_state, -1);
  ASSERT_EQ(pss.x.size(), states.size() + 1);
  EXPECT_TRUE(sym::is_same(pss.x.back(), tf.time));
  EXPECT_EQ(pss.x.back().name(), "t");
  EXPECT_EQ(pss.x0.back(), 0.0);
  EXPECT_EQ(tf.frozen.pss.x0, pss.x0);
  EXPECT_EQ(tf.frozen.pss.state_names, pss.state_names);
  EXPECT_NO_THROW(pss.validate());
}

// ---- the examples ----

TEST(TimeFreezingExamples, BouncingBall) {
  const SimulateFile f = read_simulate_file(example("bouncing_ball.yaml"));
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"q", "v"});
  ASSERT_NE(tf.jump(), nullptr);
  EXPECT_FALSE(tf.is_cls());
  const model::JumpSystem& js = *tf.jump();
  EXPECT_EQ(js.restitution, 0.9);
  EXPECT_EQ(js.stiffness, 20.0);
  EXPECT_TRUE(js.builtin_auxiliary());
  EXPECT_EQ(js.x0, (std::vector<double>{10, 0}));
  EXPECT_EQ(p.x0, (std::vector<double>{10, 0, 0}));
  EXPECT_FALSE(tf.uses_time);
  EXPECT_NEAR(tf.frozen.damping, 0.2997981228, 1e-10);  // spec T1: c(20, 0.9)
  EXPECT_NEAR(reformulate::elastic_jump_duration(js.stiffness, js.restitution), 0.7028764201, 1e-10);
  EXPECT_EQ(f.horizon, 15.0);
  EXPECT_EQ(f.steps, 60);
  EXPECT_EQ(f.discretization.elements, 6);
  EXPECT_EQ(tf.settings.speed_of_time_upper, 25.0);
  // Region rows: q > 0 the flight (v, -g, 1); q < 0 the spring-damper (v, -k q - c v, 0).
  ASSERT_EQ(p.subsystems.size(), 1u);
  ASSERT_EQ(p.subsystems[0].n_regions(), 2u);
  expect_near(field(p, region(p, {1}), {2, -3, 1.5}), {-3, -9.81, 1});
  expect_near(field(p, region(p, {-1}), {-0.5, -3, 1.5}), {-3, 10 + 0.2997981228 * 3, 0}, 1e-9);
}

TEST(TimeFreezingExamples, ParticleInelastic) {
  const SimulateFile f = read_simulate_file(example("particle_inelastic.yaml"), {"time_freezing.lifting=false"});
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"q1", "q2", "v1", "v2"});
  ASSERT_NE(tf.cls(), nullptr);
  const model::Cls& c = *tf.cls();
  ASSERT_EQ(c.n_contacts(), 1u);
  EXPECT_EQ(c.contacts[0].name, "ground");
  EXPECT_EQ(c.contacts[0].restitution, 0.0);
  EXPECT_EQ(c.contacts[0].friction, 0.0);
  EXPECT_EQ(c.mass.rows(), 0u);  // identity
  EXPECT_EQ(tf.options.normal_acceleration, 10.0);
  EXPECT_EQ(tf.frozen.normal_acceleration, 10.0);
  EXPECT_EQ(p.x0, (std::vector<double>{0, 0.06, 3, 0, 0}));
  EXPECT_EQ(f.steps, 1);
  EXPECT_EQ(f.horizon, 0.2);
  EXPECT_EQ(f.discretization.elements, 3);
  EXPECT_EQ(f.homotopy.complementarity_tol, 1e-10);
  // c = (q2, v2): 4 regions; flight (v, 0, -g, 1) where q2 > 0 or v2 > 0, else (0, 0, 0, a_n, 0).
  EXPECT_EQ(p.n_switching(), 2u);
  ASSERT_EQ(p.subsystems[0].n_regions(), 4u);
  expect_near(field(p, region(p, {1, -1}), {0.3, 0.01, 3, -1, 0.1}), {3, -1, 0, -10, 1});
  expect_near(field(p, region(p, {-1, 1}), {0.3, -0.01, 3, 1, 0.1}), {3, 1, 0, -10, 1});
  expect_near(field(p, region(p, {-1, -1}), {0.3, -0.01, 3, -1, 0.1}), {0, 0, 0, 10, 0});
  // The header's numbers: impact time and normal velocity.
  const double ti = std::sqrt(2 * 0.06 / 10);
  EXPECT_NEAR(ti, 0.1095445115, 1e-10);
  EXPECT_NEAR(reformulate::inelastic_jump_duration(-10 * ti, 1.0, 10.0), 0.1095445115, 1e-10);
}

TEST(TimeFreezingExamples, ParticleFriction) {
  const SimulateFile f = read_simulate_file(example("particle_friction.yaml"), {"time_freezing.lifting=false"});
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"q1", "q2", "v1", "v2"});
  const model::Cls& c = *tf.cls();
  EXPECT_EQ(c.contacts[0].friction, 0.1);
  ASSERT_EQ(c.contacts[0].tangent.rows(), 2u);
  ASSERT_EQ(c.contacts[0].tangent.cols(), 1u);
  EXPECT_EQ(tf.options.normal_acceleration, 10.0);
  // c = (q2, v2, v1): 8 regions; pos (v1 > 0) field a_n (n - mu b) = (-1, 10).
  EXPECT_EQ(p.n_switching(), 3u);
  ASSERT_EQ(p.subsystems[0].n_regions(), 8u);
  expect_near(field(p, region(p, {-1, -1, 1}), {0, -0.01, 3, -1, 0.1}), {0, 0, -1, 10, 0});
  expect_near(field(p, region(p, {-1, -1, -1}), {0, -0.01, -3, -1, 0.1}), {0, 0, 1, 10, 0});
  EXPECT_EQ(f.steps, 10);
  EXPECT_EQ(f.discretization.elements, 4);
  // The header's closed form: v1(1) = 3 - 1 and q1(1) = 3 - (1 - t_i^2)/2 with t_i^2 = 0.012.
  EXPECT_NEAR(3 - (1 - 0.012) / 2, 2.506, 1e-12);
}

TEST(TimeFreezingExamples, Ball3dFriction) {
  const SimulateFile f = read_simulate_file(example("ball_3d_friction.yaml"), {"time_freezing.lifting=false"});
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"qx", "qy", "qz", "vx", "vy", "vz"});
  const model::Cls& c = *tf.cls();
  EXPECT_EQ(c.contacts[0].friction, 0.2);
  ASSERT_EQ(c.contacts[0].tangent.rows(), 3u);
  ASSERT_EQ(c.contacts[0].tangent.cols(), 2u);  // spatial friction
  EXPECT_EQ(tf.options.eps_t, 1e-7);
  EXPECT_EQ(tf.options.normal_acceleration, 10.0);
  EXPECT_EQ(p.x0, (std::vector<double>{0, 0, 1, 2, 1, 0, 0}));
  EXPECT_EQ(p.n_switching(), 3u);
  EXPECT_EQ(p.subsystems[0].n_regions(), 8u);
  // Slipping in the auxiliary region: a_n (n - mu v_t/|v_t|) with v_t = (2, 1).
  const double s5 = std::sqrt(5.0);
  expect_near(field(p, region(p, {-1, -1, 1}), {0, 0, -0.01, 2, 1, -1, 0.4}),
              {0, 0, 0, -10 * 0.2 * 2 / s5, -10 * 0.2 / s5, 10, 0}, 1e-6);
}

TEST(TimeFreezingExamples, TwoContacts) {
  const SimulateFile f = read_simulate_file(example("two_contacts.yaml"), {"time_freezing.lifting=false"});
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"q1", "q2", "v1", "v2"});
  ASSERT_EQ(tf.cls()->n_contacts(), 2u);
  EXPECT_EQ(tf.frozen.contact_names, (std::vector<std::string>{"wall", "floor"}));
  EXPECT_EQ(p.n_switching(), 4u);  // (q1, q2, v1, v2)
  EXPECT_EQ(p.subsystems[0].n_regions(), 16u);
  // Both contacts auxiliary (the corner): the fields add up.
  expect_near(field(p, region(p, {-1, -1, -1, -1}), {-0.01, -0.01, -1, -3, 0.3}), {0, 0, 10, 10, 0});
  EXPECT_EQ(p.x0, (std::vector<double>{0.8, 0.5, -1.5, -1, 0}));
  // The simultaneous variant in the header.
  const SimulateFile g = read_simulate_file(
      example("two_contacts.yaml"),
      {"model.cls.x0.q1=0.3", "model.cls.x0.q2=0.45", "model.cls.x0.v1=-1", "model.cls.x0.v2=0"});
  EXPECT_EQ(g.model.pss.x0, (std::vector<double>{0.3, 0.45, -1, 0, 0}));
}

TEST(TimeFreezingExamples, BallInBoxElastic) {
  const SimulateFile f = read_simulate_file(example("ball_in_box_elastic.yaml"));
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"q1", "q2", "v1", "v2"});
  const model::JumpSystem& js = *tf.jump();
  EXPECT_EQ(js.n_constraints(), 3u);
  EXPECT_EQ(js.restitution, 1.0);
  EXPECT_EQ(tf.frozen.damping, 0.0);
  EXPECT_NEAR(reformulate::elastic_jump_duration(100, 1), std::numbers::pi / 10, 1e-12);
  EXPECT_EQ(p.subsystems[0].n_regions(), 8u);
  // Right wall violated (2 - q1 < 0): spring along n = (-1, 0) pushes v1 back: v1' = -k (2 - q1) (-1).
  expect_near(field(p, region(p, {1, -1, 1}), {2.01, 1, 2, 0, 0.7}), {2, 0, -100 * 0.01, 0, 0}, 1e-9);
  // Corner (right wall and floor): the two fields add up.
  expect_near(field(p, region(p, {1, -1, -1}), {2.01, -0.02, 2, -5, 0.5}), {2, -5, -1, 2, 0}, 1e-9);
  // Energy 0.5 |v|^2 + g q2 = 14.5 (header).
  EXPECT_DOUBLE_EQ(0.5 * (2 * 2 + 0) + 10 * 1.25, 14.5);
  // The corner variant.
  const SimulateFile g = read_simulate_file(example("ball_in_box_elastic.yaml"), {"model.jump.x0.q1=1"});
  EXPECT_EQ(g.model.pss.x0[0], 1.0);
}

// M(q) and the forces of the falling rod, derived from its Lagrangian, against the header's formulas.
TEST(TimeFreezingExamples, FallingRod) {
  const SimulateFile f = read_simulate_file(example("falling_rod.yaml"));
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"x", "y", "th", "vx", "vy", "w"});
  const model::Cls& c = *tf.cls();
  ASSERT_EQ(c.mass.rows(), 3u);
  ASSERT_EQ(c.mass.cols(), 3u);
  sym::Vector s = c.q;
  s.insert(s.end(), c.v.begin(), c.v.end());
  const double m = 1, L = 1, g = 9.81;
  for (const std::vector<double>& x :
       {std::vector<double>{0, 0.2, 1.3, 0, 0, 0}, std::vector<double>{0.3, 0.1, 0.7, -1.2, 0.4, -2.5}}) {
    const double th = x[2], w = x[5], sn = std::sin(th), cs = std::cos(th);
    const double M[3][3] = {
        {m, 0, -m * L / 2 * sn}, {0, m, m * L / 2 * cs}, {-m * L / 2 * sn, m * L / 2 * cs, m * L * L / 3}};
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) EXPECT_NEAR(sym::evaluate(c.mass(i, j), s, x), M[i][j], 1e-12);
    const double F[3] = {m * L / 2 * cs * w * w, m * L / 2 * sn * w * w - m * g, -m * g * L / 2 * cs};
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(sym::evaluate(c.forces[i], s, x), F[i], 1e-12);
  }
  // The impact of the header: D = n^T M^-1 n at th = 1.3 gives the impulse 1.6308248223 for v-
  // = 1.9809088823.
  const double sn = std::sin(1.3);
  const double cs = std::cos(1.3);
  const double D =
      1 / (1 - 0.25 * cs * cs / (1.0 / 3 - 0.25 * sn * sn));  // (M^-1)_yy by the Schur complement
  EXPECT_NEAR(sym::evaluate(tf.frozen.D[0], symbols(p), {0, 0, 1.3, 0, 0, 0, 0}), D, 1e-12);
  EXPECT_NEAR(1.9809088823 / D, 1.6308248223, 1e-9);
}

TEST(TimeFreezingExamples, TimeOptimalBounce) {
  const OcpFile f = read_ocp_file(example("time_optimal_bounce.yaml"));
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  const model::Pss& p = f.model.pss;
  expect_time_frozen(p, tf, {"q", "v"});
  EXPECT_TRUE(tf.cls()->is_elastic());
  EXPECT_TRUE(tf.frozen.elastic);
  EXPECT_EQ(tf.frozen.damping, 0.0);
  EXPECT_EQ(tf.options.stiffness, 10.0);
  EXPECT_EQ(p.control_names, (std::vector<std::string>{"u"}));
  EXPECT_EQ(f.state_names, (std::vector<std::string>{"q", "v", "t"}));
  const discretize::OcpSpec& o = f.ocp;
  EXPECT_EQ(o.clock, 2);
  EXPECT_TRUE(o.time_optimal);
  EXPECT_EQ(o.horizon, 2.0);
  EXPECT_EQ(o.stages, 20);
  EXPECT_EQ(o.speed_of_time_lower, 1.0);
  EXPECT_EQ(o.speed_of_time_upper, 25.0);
  EXPECT_EQ(o.clock_constraints, discretize::OcpSpec::ClockConstraints::Stagewise);
  EXPECT_EQ(o.running_cost_time, discretize::OcpSpec::RunningCost::Physical);
  EXPECT_EQ(o.x_lower.size(), 3u);
  EXPECT_EQ(o.x0_free.size(), 3u);
  ASSERT_EQ(o.terminal.size(), 2u);
  EXPECT_EQ(o.u_lower, (std::vector<double>{-1}));
  // The header: the impact stage needs s = (T_final/N + tau_jump)/(T/N) ~ 11.
  EXPECT_NEAR((2.165383 / 20 + reformulate::elastic_jump_duration(10, 1)) / 0.1, 11.01, 0.01);
}

TEST(TimeFreezingExamples, Inelastic2dOcp) {
  const OcpFile f = read_ocp_file(example("inelastic_2d_ocp.yaml"));
  ASSERT_TRUE(f.time_freezing);
  const TimeFreezingFile& tf = *f.time_freezing;
  expect_time_frozen(f.model.pss, tf, {"q1", "q2", "v1", "v2"});
  const discretize::OcpSpec& o = f.ocp;
  EXPECT_EQ(o.clock, 4);
  EXPECT_EQ(o.speed_of_time_lower, 0.99);
  EXPECT_EQ(o.speed_of_time_upper, 10.0);
  EXPECT_EQ(o.speed_of_time_start, 1.0);
  EXPECT_EQ(o.running_cost_time, discretize::OcpSpec::RunningCost::Physical);
  EXPECT_EQ(o.terminal.size(), 4u);
  EXPECT_EQ(tf.options.normal_acceleration, 9.81);
  EXPECT_EQ(f.discretization.stages, 3);
  const OcpFile g =
      read_ocp_file(example("inelastic_2d_ocp.yaml"),
                    {"time_freezing.running_cost=numerical", "time_freezing.clock_constraints=terminal",
                     "time_freezing.speed_of_time.penalty=0.5"});
  EXPECT_EQ(g.ocp.running_cost_time, discretize::OcpSpec::RunningCost::Numerical);
  EXPECT_EQ(g.ocp.clock_constraints, discretize::OcpSpec::ClockConstraints::Terminal);
  EXPECT_EQ(g.ocp.speed_of_time_penalty, 0.5);
}

// ---- energy-derived dynamics: a two-link arm ----

// Point masses m1, m2 at the ends of links l1, l2; angles from the horizontal, y up.
const std::string kArm = R"Y(kind: simulate
model:
  cls:
    positions: [q1, q2]
    velocities: [v1, v2]
    controls: [tau1, tau2]
    parameters: {m1: 1.5, m2: 0.7, l1: 0.8, l2: 0.6, g: 9.81}
    definitions:
      x1d: "-l1*sin(q1)*v1"
      y1d: "l1*cos(q1)*v1"
      x2d: "x1d - l2*sin(q1 + q2)*(v1 + v2)"
      y2d: "y1d + l2*cos(q1 + q2)*(v1 + v2)"
    energy:
      kinetic: "0.5*m1*(x1d^2 + y1d^2) + 0.5*m2*(x2d^2 + y2d^2)"
      potential: "m1*g*l1*sin(q1) + m2*g*(l1*sin(q1) + l2*sin(q1 + q2))"
    forces: [tau1, tau2]
    contacts:
      - {gap: "l1*sin(q1) + l2*sin(q1 + q2) + 1.5"}
    x0: [0.3, 0.4, 0, 0]
simulate: {horizon: 1, steps: 10}
)Y";

TEST(ClsEnergy, TwoLinkArmAgainstTheTextbookFormulas) {
  const SimulateFile f = read_simulate_string(kArm, "arm.yaml", {"time_freezing.lifting=false"});
  const model::Cls& c = *f.time_freezing->cls();
  const double m1 = 1.5, m2 = 0.7, l1 = 0.8, l2 = 0.6, g = 9.81;
  const double q1 = 0.37, q2 = -1.1, v1 = 0.9, v2 = -1.7, tau1 = 0.25, tau2 = -0.4;
  sym::Vector s = c.q;
  s.insert(s.end(), c.v.begin(), c.v.end());
  s.insert(s.end(), c.u.begin(), c.u.end());
  const std::vector<double> x = {q1, q2, v1, v2, tau1, tau2};
  const double c2 = std::cos(q2), s2 = std::sin(q2);
  const double M11 = (m1 + m2) * l1 * l1 + m2 * l2 * l2 + 2 * m2 * l1 * l2 * c2;
  const double M12 = m2 * l2 * l2 + m2 * l1 * l2 * c2, M22 = m2 * l2 * l2;
  EXPECT_NEAR(sym::evaluate(c.mass(0, 0), s, x), M11, 1e-12);
  EXPECT_NEAR(sym::evaluate(c.mass(0, 1), s, x), M12, 1e-12);
  EXPECT_NEAR(sym::evaluate(c.mass(1, 0), s, x), M12, 1e-12);
  EXPECT_NEAR(sym::evaluate(c.mass(1, 1), s, x), M22, 1e-12);
  // h = C(q, v) v and the gravity torques.
  const double h1 = -m2 * l1 * l2 * s2 * (2 * v1 * v2 + v2 * v2), h2 = m2 * l1 * l2 * s2 * v1 * v1;
  const double G1 = (m1 + m2) * g * l1 * std::cos(q1) + m2 * g * l2 * std::cos(q1 + q2);
  const double G2 = m2 * g * l2 * std::cos(q1 + q2);
  EXPECT_NEAR(sym::evaluate(c.forces[0], s, x), tau1 - h1 - G1, 1e-12);
  EXPECT_NEAR(sym::evaluate(c.forces[1], s, x), tau2 - h2 - G2, 1e-12);
  // The time-frozen flight field is (v, M^-1 forces, 1).
  const model::Pss& p = f.model.pss;
  const std::size_t flight = region(p, {1, 1});
  const std::vector<double> fy = field(p, flight, {q1, q2, v1, v2, 0.2, tau1, tau2});
  const double F1 = tau1 - h1 - G1, F2 = tau2 - h2 - G2, det = M11 * M22 - M12 * M12;
  expect_near(fy, {v1, v2, (M22 * F1 - M12 * F2) / det, (M11 * F2 - M12 * F1) / det, 1}, 1e-10);
}

TEST(ClsEnergy, PendulumWithoutForcesAndWithMassKey) {
  // Pendulum of length 2, mass 3: M = m l^2, forces = -m g l cos(th) (angle from the horizontal).
  const std::string pendulum = R"Y(kind: simulate
model:
  cls:
    positions: [th]
    velocities: [w]
    parameters: {m: 3, l: 2, g: 10}
    energy: {kinetic: "0.5*m*l^2*w^2", potential: "m*g*l*sin(th)"}
    contacts: [{gap: "th + 1"}]
    x0: [0.5, 0]
simulate: {horizon: 1, steps: 10}
)Y";
  const SimulateFile f = read_simulate_string(pendulum, "p.yaml", {"time_freezing.lifting=false"});
  const model::Cls& c = *f.time_freezing->cls();
  sym::Vector s = {c.q[0], c.v[0]};
  EXPECT_NEAR(sym::evaluate(c.mass(0, 0), s, {0.3, 2}), 12, 1e-12);
  EXPECT_NEAR(sym::evaluate(c.forces[0], s, {0.3, 2}), -60 * std::cos(0.3), 1e-12);
  // The same with mass and forces written out.
  const SimulateFile g = read_simulate_string(R"Y(kind: simulate
model:
  cls:
    positions: [th]
    velocities: [w]
    parameters: {m: 3, l: 2, g: 10}
    mass: [["m*l^2"]]
    forces: ["-m*g*l*cos(th)"]
    contacts: [{gap: "th + 1"}]
    x0: [0.5, 0]
simulate: {horizon: 1, steps: 10}
)Y",
                                              "p.yaml");
  const model::Pss& pf = f.model.pss;
  const model::Pss& pg = g.model.pss;
  for (const auto& row : std::vector<std::vector<int>>{{1, 1}, {-1, -1}})
    expect_near(field(pf, region(pf, row), {-0.2, -1, 0}), field(pg, region(pg, row), {-0.2, -1, 0}), 1e-12);
}

// ---- physical time, names, overrides ----

TEST(ClsReader, TimeInTheForcesIsTheClock) {
  const std::string file = R"Y(kind: simulate
model:
  cls:
    positions: [q]
    velocities: [v]
    controls: [u]
    forces: ["u + sin(t)"]
    contacts: [{gap: q}]
    x0: [1, 0]
simulate: {horizon: 1, steps: 10}
)Y";
  const SimulateFile f = read_simulate_string(file, "p.yaml");
  const TimeFreezingFile& tf = *f.time_freezing;
  EXPECT_TRUE(tf.uses_time);
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(p.control_names, (std::vector<std::string>{"u"}));
  EXPECT_EQ(p.n_u(), 1u);
  EXPECT_EQ(p.n_x(), 3u);
  EXPECT_EQ(f.controls.size(), 1u);
  // The flight field's acceleration is u + sin(clock).
  expect_near(field(p, region(p, {1, 1}), {0.5, -1, 0.7, 0.3}), {-1, 0.3 + std::sin(0.7), 1});
  EXPECT_TRUE(sym::depends_on(p.subsystems[0].fields[region(p, {1, 1})][1], p.x[2]));
  EXPECT_EQ(tf.cls()->control_names, (std::vector<std::string>{"u"}));
}

TEST(ClsReader, OcpExpressionsUseTheClock) {
  const std::string file = R"Y(kind: ocp
model:
  jump:
    states: [q, v]
    controls: [u]
    f: [v, "u - 9.81"]
    constraint: q
    restitution: 0.8
    x0: [1, 0]
ocp:
  horizon: 2
  stages: 4
  states: {t: {lower: 0, upper: 3}}
  cost: {running: "(q - sin(t))^2 + u^2", terminal: "t"}
  constraints: {path: ["q <= 2 + t"]}
time_freezing:
  speed_of_time: {upper: 40, penalty: 0.1}
)Y";
  const OcpFile f = read_ocp_string(file, "p.yaml");
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(f.state_names, (std::vector<std::string>{"q", "v", "t"}));
  EXPECT_EQ(p.n_x(), 3u);  // no extra time state: t is the clock
  EXPECT_EQ(f.ocp.clock, 2);
  EXPECT_EQ(f.ocp.x_lower, (std::vector<double>{-INFINITY, -INFINITY, 0}));
  EXPECT_EQ(f.ocp.x_upper[2], 3.0);
  EXPECT_EQ(f.ocp.speed_of_time_upper, 40.0);
  EXPECT_EQ(f.ocp.speed_of_time_penalty, 0.1);
  EXPECT_TRUE(sym::depends_on(f.ocp.running_cost, p.x[2]));
  EXPECT_TRUE(sym::is_same(f.ocp.terminal_cost, p.x[2]));
  EXPECT_EQ(f.time_freezing->jump()->stiffness, 10.0);  // default k of the built-in law
}

// ocp.validation: the verdict's tolerances (defaults 1e-6, 1e-6, 1e-3), from the file or -o;
// unknown keys and non-positive values are errors with their place.
TEST(ClsReader, ValidationTolerances) {
  const std::string base = R"Y(kind: ocp
model:
  jump: {states: [q, v], controls: [u], f: [v, "u - 9.81"], constraint: q, restitution: 0.8, x0: [1, 0]}
ocp:
  horizon: 2
  stages: 4
  cost: {running: "u^2"}
)Y";
  const OcpFile d = read_ocp_string(base, "p.yaml");
  EXPECT_EQ(d.validation.gap_tolerance, 1e-6);
  EXPECT_EQ(d.validation.constraint_tolerance, 1e-6);
  EXPECT_EQ(d.validation.deviation_tolerance, 1e-3);
  const OcpFile f = read_ocp_string(base + "  validation: {gap_tolerance: 5e-3, deviation_tolerance: 2e-3}\n", "p.yaml");
  EXPECT_EQ(f.validation.gap_tolerance, 5e-3);
  EXPECT_EQ(f.validation.constraint_tolerance, 1e-6);
  EXPECT_EQ(f.validation.deviation_tolerance, 2e-3);
  const OcpFile o = read_ocp_string(base, "p.yaml", {"ocp.validation.constraint_tolerance=1e-7"});
  EXPECT_EQ(o.validation.constraint_tolerance, 1e-7);
  const auto error = [&](const std::string& text) {
    try {
      (void)read_ocp_string(base + text, "p.yaml");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_STARTS_WITH(error("  validation: {gap_tolerence: 1}\n"),
                     "p.yaml:8:16: error: unknown key 'gap_tolerence' in ocp.validation; did you mean 'gap_tolerance'?");
  EXPECT_STARTS_WITH(error("  validation: {gap_tolerance: 0}\n"),
                     "p.yaml:8:31: error: ocp.validation.gap_tolerance is 0, expected a finite value > 0");
  EXPECT_STARTS_WITH(error("  validation: 1e-3\n"), "p.yaml:8:15: error: ocp.validation: expected a map");
}

TEST(ClsReader, FreeInitialStatesReachTheFrozenModel) {
  const OcpFile f = read_ocp_file(example("inelastic_2d_ocp.yaml"),
                                  {"ocp.initial={q1: {lower: -1, upper: 1, start: 0.5}}"});
  EXPECT_EQ(f.model.pss.x0[0], 0.5);
  EXPECT_EQ(f.time_freezing->frozen.pss.x0[0], 0.5);
  EXPECT_TRUE(f.ocp.x0_free[0]);
}

TEST(ClsReader, Overrides) {
  const SimulateFile f =
      read_simulate_file(example("particle_inelastic.yaml"),
                         {"time_freezing.normal_acceleration=50", "model.cls.contacts.0.friction=0.2",
                          "model.cls.contacts.0.tangent=[[1, 0]]", "time_freezing.stabilize_positions=1e-5"});
  const TimeFreezingFile& tf = *f.time_freezing;
  EXPECT_EQ(tf.options.normal_acceleration, 50.0);
  EXPECT_EQ(tf.options.stabilize_positions, 1e-5);
  EXPECT_EQ(tf.cls()->contacts[0].friction, 0.2);
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(p.subsystems[0].n_regions(), 8u);  // dense (the simulate default): 2^3 sign rows
  // pos field with stabilization: q' = -kappa n f_c = (0, -1e-5 * (-0.01)), v' = 50 (n - 0.2 b).
  expect_near(field(p, region(p, {-1, -1, 1}), {0, -0.01, 3, -1, 0.1}), {0, 1e-7, -10, 50, 0}, 1e-15);
  const SimulateFile g =
      read_simulate_file(example("bouncing_ball.yaml"), {"model.jump.auxiliary.stiffness=40"});
  EXPECT_EQ(g.time_freezing->jump()->stiffness, 40.0);
}

TEST(ClsReader, DefaultsWithoutTimeFreezingSection) {
  const SimulateFile f = read_simulate_file(example("particle_friction.yaml"), {"time_freezing=null"});
  const TimeFreezingFile& tf = *f.time_freezing;
  EXPECT_EQ(tf.options.normal_acceleration, 100.0);
  EXPECT_EQ(tf.options.stiffness, 10.0);
  EXPECT_EQ(tf.options.stabilize_positions, 0.0);
  EXPECT_EQ(tf.settings.speed_of_time_lower, 1.0);
  EXPECT_EQ(tf.settings.speed_of_time_upper, 25.0);
  EXPECT_EQ(tf.settings.speed_of_time_start, 1.0);
  EXPECT_EQ(tf.settings.speed_of_time_penalty, 0.0);
  EXPECT_EQ(tf.settings.clock_constraints, discretize::OcpSpec::ClockConstraints::Stagewise);
  EXPECT_EQ(tf.settings.running_cost, discretize::OcpSpec::RunningCost::Physical);
  EXPECT_EQ(tf.options.elastic_mode, reformulate::TimeFreezingOptions::ElasticMode::Exact);
}

TEST(ClsReader, PssFilesHaveNoTimeFreezing) {
  const SimulateFile f = read_simulate_file(std::string(STASIS_SOURCE_DIR) + "/examples/pss/oscillator.yaml");
  EXPECT_FALSE(f.time_freezing);
}

TEST(ClsReader, FlatTangentAndUserAuxiliaryField) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  cls:
    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -1]
    contacts: [{gap: y, friction: 0.5, tangent: [1, 0]}]
    x0: [0, 1, 0, 0]
simulate: {horizon: 1, steps: 2}
)Y",
                                              "p.yaml");
  EXPECT_EQ(f.time_freezing->cls()->contacts[0].tangent.cols(), 1u);
  const SimulateFile g = read_simulate_string(R"Y(kind: simulate
model:
  jump:
    states: [x]
    f: [-1]
    constraint: x
    auxiliary: {f: [2]}
    x0: [1]
simulate: {horizon: 1, steps: 2}
)Y",
                                              "p.yaml");
  const model::JumpSystem& js = *g.time_freezing->jump();
  EXPECT_FALSE(js.builtin_auxiliary());
  expect_near(field(g.model.pss, region(g.model.pss, {-1}), {-0.1, 0}), {2, 0});
}

// ---- errors ----

using io_test::ocp_error;
using io_test::simulate_error;

// A simulate file with a cls model: line 3 `cls:`, the body from line 4 (indent 4), then `rest`.
std::string cls(const std::string& body, const std::string& rest = "simulate: {horizon: 1, steps: 2}\n") {
  return "kind: simulate\nmodel:\n  cls:\n" + body + rest;
}
std::string jump(const std::string& body, const std::string& rest = "simulate: {horizon: 1, steps: 2}\n") {
  return "kind: simulate\nmodel:\n  jump:\n" + body + rest;
}

// Lines 4-8 of a valid cls body.
const std::string kParticle = R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts: [{gap: y}]
    x0: [0, 1, 0, 0]
)Y";

const std::string kBall = R"Y(    states: [q, v]
    f: [v, -10]
    constraint: q
    restitution: 0.9
    x0: [1, 0]
)Y";

TEST(ClsReaderErrors, TheBaseFilesAreValid) {
  EXPECT_NO_THROW(read_simulate_string(cls(kParticle), "p.yaml"));
  EXPECT_NO_THROW(read_simulate_string(jump(kBall), "p.yaml"));
}

TEST(ClsReaderErrors, VelocitiesCount) {
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx]
    forces: [0, -10]
    contacts: [{gap: y}]
    x0: [0, 1, 0]
)Y")),
      "p.yaml:5:17: error: velocities has 1 name but there are 2 positions (x, y), expected one "
      "velocity per position");
  EXPECT_STARTS_WITH(simulate_error(cls("    positions: [x]\n    forces: [0]\n")),
                     "p.yaml:3:3: error: the cls model has no 'velocities'");
}

TEST(ClsReaderErrors, MassMatrixShape) {
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle + "    mass: [[1, 0]]\n")),
      "p.yaml:9:11: error: mass has 1 row but the model has 2 positions, expected an 2x2 matrix");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle + "    mass: [[1, 0], [0, 1, 2]]\n")),
                     "p.yaml:9:20: error: row 1 of mass has 3 entries, expected an 2x2 matrix");
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle + "    mass: [[1, 0], [0, vx]]\n")),
      "p.yaml:9:24: error: mass entry (1, 1) depends on 'vx', expected a function of the positions "
      "only");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle + "    mass: 3\n")),
                     "p.yaml:9:11: error: mass must be a list of rows");
}

TEST(ClsReaderErrors, MassMatrixNotPositiveDefiniteAtX0) {
  const std::string m = simulate_error(cls(kParticle + "    mass: [[1, 0], [0, \"x - 1\"]]\n"));
  EXPECT_STARTS_WITH(m, "p.yaml:9:11: error: Cls 'cls': the mass matrix is not positive definite at q0");
  const std::string s = simulate_error(cls(kParticle + "    mass: [[1, 0.5], [0, 1]]\n"));
  EXPECT_STARTS_WITH(s, "p.yaml:9:11: error: Cls 'cls': the mass matrix is not symmetric at q0");
  // The file's name names the model.
  EXPECT_CONTAINS(simulate_error("name: drop\n" + cls(kParticle + "    mass: [[1, 0], [0, -1]]\n")),
                  "Cls 'drop': the mass matrix is not positive definite");
}

TEST(ClsReaderErrors, X0InsideTheForbiddenRegion) {
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts: [{gap: y}]
    x0: [0, -0.5, 0, 0]
)Y")),
      "p.yaml:8:9: error: Cls 'cls': x0 lies inside the forbidden region: the gap of contact 0 is "
      "-0.5 < 0");
  EXPECT_STARTS_WITH(simulate_error(jump(kBall), {"model.jump.x0=[-1, 0]"}),
                     "command line (-o model.jump.x0=[-1, 0]): error: JumpSystem 'jump': x0 lies inside the "
                     "forbidden region");
}

TEST(ClsReaderErrors, ContactValues) {
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle), {"model.cls.contacts.0.friction=-0.1"}),
      "command line (-o model.cls.contacts.0.friction=-0.1): error: the friction coefficient of "
      "contact 0 is -0.1, expected mu >= 0");
  EXPECT_STARTS_WITH(simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts: [{gap: y, friction: -0.5, tangent: [[1, 0]]}]
    x0: [0, 1, 0, 0]
)Y")),
                     "p.yaml:7:35: error: the friction coefficient of contact 0 is -0.5, expected mu >= 0");
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts:
      - {name: floor, gap: y, restitution: 1.5}
    x0: [0, 1, 0, 0]
)Y")),
      "p.yaml:8:44: error: the restitution of contact 0 ('floor') is 1.5, expected e in [0, 1]");
  EXPECT_STARTS_WITH(simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts: [{gap: y, friction: 0.5}]
    x0: [0, 1, 0, 0]
)Y")),
                     "p.yaml:7:35: error: contact 0 has friction 0.5 but no 'tangent'");
  EXPECT_STARTS_WITH(simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts: [{gap: vy}]
    x0: [0, 1, 0, 0]
)Y")),
                     "p.yaml:7:22: error: the gap of contact 0 depends on 'vy', expected a function of the "
                     "positions only");
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts: [{gap: y, name: a}, {gap: x, name: a}]
    x0: [0, 1, 0, 0]
)Y")),
      "p.yaml:7:50: error: contact 1 is named 'a' like contact 0, expected distinct contact names");
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle), {"model.cls.contacts.0.gapp=y"}),
      "command line (-o model.cls.contacts.0.gapp=y): error: unknown key 'gapp' in contact 0; did "
      "you mean 'gap'?");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle), {"model.cls.contacts=[]"}),
                     "command line (-o model.cls.contacts=[]): error: contacts must be a non-empty list");
}

TEST(ClsReaderErrors, TangentSize) {
  const std::string base = R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    x0: [0, 1, 0, 0]
    contacts:
)Y";
  EXPECT_STARTS_WITH(
      simulate_error(cls(base + "      - {gap: y, friction: 0.1, tangent: [[1, 0, 0]]}\n")),
      "p.yaml:9:43: error: column 0 of the tangent of contact 0 has 3 entries but the model has 2 "
      "positions, expected 1 column (planar) or 2 columns (spatial) of 2 entries each");
  EXPECT_STARTS_WITH(
      simulate_error(cls(base + "      - {gap: y, friction: 0.1, tangent: [[1, 0], [0, 1], [1, 1]]}\n")),
      "p.yaml:9:42: error: the tangent of contact 0 has 3 columns, expected 1 column (planar) or 2 "
      "columns (spatial)");
  EXPECT_STARTS_WITH(
      simulate_error(cls(base + "      - {gap: y, friction: 0.1, tangent: [1]}\n")),
      "p.yaml:9:42: error: column 0 of the tangent of contact 0 has 1 entry but the model has 2 "
      "positions");
  EXPECT_STARTS_WITH(
      simulate_error(cls(base + "      - {gap: y, friction: 0.1, tangent: [[1, vx]]}\n")),
      "p.yaml:9:47: error: entry 1 of column 0 of the tangent of contact 0 depends on 'vx', expected "
      "a function of the positions only");
}

TEST(ClsReaderErrors, ElasticContactRestrictions) {
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts:
      - {gap: y}
      - {gap: x, restitution: 0.5}
    x0: [0, 1, 0, 0]
)Y")),
      "p.yaml:9:31: error: the restitution of contact 1 is 0.5, but elastic contact (restitution > 0) "
      "is supported for a single contact only and this model has 2");
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10]
    contacts:
      - {gap: y, restitution: 0.5, friction: 0.2, tangent: [[1, 0]]}
    x0: [0, 1, 0, 0]
)Y")),
      "p.yaml:8:46: error: contact 0 is elastic (restitution 0.5) and has friction 0.2, which is not "
      "supported");
}

TEST(ClsReaderErrors, ForcesAndEnergy) {
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    forces: [0, -10, 1]
    contacts: [{gap: y}]
    x0: [0, 1, 0, 0]
)Y")),
      "p.yaml:6:13: error: forces has 3 entries, the model has 2 positions (x, y), expected one "
      "generalized force per position");
  EXPECT_STARTS_WITH(
      simulate_error(cls("    positions: [x]\n    velocities: [v]\n    contacts: [{gap: x}]\n")),
      "p.yaml:3:3: error: the cls model has no 'forces'");
  EXPECT_STARTS_WITH(
      simulate_error(
          cls(kParticle + "    energy: {kinetic: \"0.5*(vx^2 + vy^2)\"}\n    mass: [[1, 0], [0, 1]]\n")),
      "p.yaml:9:5: error: the cls model has both 'mass' and 'energy'");
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    energy: {kinetic: "0.25*(vx^4 + vy^2)", potential: "10*y"}
    contacts: [{gap: y}]
    x0: [0, 1, 0, 0]
)Y")),
      "p.yaml:6:23: error: the kinetic energy is not quadratic in the velocities: d^2T/dv^2 depends "
      "on 'vx'");
  EXPECT_STARTS_WITH(
      simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    energy: {kinetic: "0.5*(vx^2 + vy^2)", potential: "10*y + vx"}
    contacts: [{gap: y}]
    x0: [0, 1, 0, 0]
)Y")),
      "p.yaml:6:55: error: the potential energy depends on 'vx', expected a function of the positions "
      "only");
  EXPECT_STARTS_WITH(simulate_error(cls(R"Y(    positions: [x, y]
    velocities: [vx, vy]
    energy: {kinetic: "0.5*(vx^2 + vy^2)", potentail: "10*y"}
    contacts: [{gap: y}]
    x0: [0, 1, 0, 0]
)Y")),
                     "p.yaml:6:44: error: unknown key 'potentail' in energy; did you mean 'potential'?");
}

TEST(ClsReaderErrors, NamesAndKeys) {
  EXPECT_STARTS_WITH(simulate_error(cls("    positions: [t]\n")),
                     "p.yaml:4:17: error: position name 't' is reserved: it is the clock state");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle + "    contact: []\n")),
                     "p.yaml:9:5: error: unknown key 'contact' in the cls model; did you mean 'contacts'?");
  EXPECT_STARTS_WITH(
      simulate_error(jump(kBall + "    constriant: q\n")),
      "p.yaml:9:5: error: unknown key 'constriant' in the jump model; did you mean 'constraint'?");
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle), {"model.cls.x0={x: 0, y: 1, vx: 0}"}),
      "command line (-o model.cls.x0={x: 0, y: 1, vx: 0}): error: x0 has no value for state 'vy'");
}

TEST(ClsReaderErrors, JumpModel) {
  EXPECT_STARTS_WITH(
      simulate_error(jump(R"Y(    states: [q, v]
    f: [2, -10]
    constraint: q
    restitution: 0.9
    x0: [1, 0]
)Y")),
      "p.yaml:5:9: error: the built-in spring-damper jump law needs states ordered (positions, "
      "velocities) with q' = v, but f[0] is '2'");
  EXPECT_STARTS_WITH(
      simulate_error(jump(kBall), {"model.jump.restitution=0"}),
      "command line (-o model.jump.restitution=0): error: restitution is 0, expected a value in (0, 1]");
  EXPECT_STARTS_WITH(simulate_error(jump(R"Y(    states: [q, v]
    f: [v, -10]
    constraint: q
    x0: [1, 0]
)Y")),
                     "p.yaml:3:3: error: the jump model has no 'restitution'");
  EXPECT_STARTS_WITH(simulate_error(jump(kBall + "    constraints: [q]\n")),
                     "p.yaml:9:5: error: the jump model has both 'constraint' and 'constraints'");
  EXPECT_STARTS_WITH(simulate_error(jump(kBall + "    auxiliary: {stiffness: 10, f: [v, 0]}\n")),
                     "p.yaml:9:32: error: auxiliary has both 'stiffness'");
  EXPECT_STARTS_WITH(simulate_error(jump(kBall + "    auxiliary: {f: [v]}\n")),
                     "p.yaml:9:20: error: the auxiliary field has 1 entry, the model has 2 states (q, v)");
  EXPECT_STARTS_WITH(simulate_error(jump(kBall + "    auxiliary: {stiffness: -1}\n")),
                     "p.yaml:9:28: error: auxiliary.stiffness is -1, expected k > 0");
  EXPECT_STARTS_WITH(
      simulate_error(jump(R"Y(    states: [q, v]
    f: [v, -10]
    constraint: v + 1
    restitution: 0.9
    x0: [1, 0]
)Y")),
      "p.yaml:6:17: error: the constraint depends on 'v', expected a function of the positions (q) "
      "only for the built-in spring-damper jump law");
  EXPECT_STARTS_WITH(
      simulate_error(jump(R"Y(    states: [q, v]
    f: [v, -10]
    constraint: q - t
    restitution: 0.9
    x0: [1, 0]
)Y")),
      "p.yaml:6:17: error: the constraint depends on 't', expected a function of the states only");
}

TEST(ClsReaderErrors, TimeFreezingSection) {
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle) + "time_freezing: {normal_acceleraton: 10}\n"),
                     "p.yaml:10:17: error: unknown key 'normal_acceleraton' in time_freezing; did you mean "
                     "'normal_acceleration'?");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle) + "time_freezing: {normal_acceleration: 0}\n"),
                     "p.yaml:10:38: error: time_freezing.normal_acceleration is 0, expected a value > 0");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle) + "time_freezing: {stabilize_positions: -1}\n"),
                     "p.yaml:10:38: error: time_freezing.stabilize_positions is -1, expected kappa >= 0");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle) + "time_freezing: {stabilize_depth: -1}\n"),
                     "p.yaml:10:34: error: time_freezing.stabilize_depth is -1, expected a depth >= 0");
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle) + "time_freezing: {speed_of_time: {lower: 2}}\n"),
      "p.yaml:10:40: error: time_freezing.speed_of_time.lower is 2, expected a value in (0, 1]");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle) + "time_freezing: {speed_of_time: {upper: 0.5}}\n"),
                     "p.yaml:10:40: error: time_freezing.speed_of_time.upper is 0.5, expected a value >= 1");
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle) + "time_freezing: {speed_of_time: {start: 30}}\n"),
      "p.yaml:10:40: error: time_freezing.speed_of_time: start 30 is outside [lower, upper] = [1, 25]");
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle) + "time_freezing: {speed_of_time: {uper: 5}}\n"),
      "p.yaml:10:33: error: unknown key 'uper' in time_freezing.speed_of_time; did you mean 'upper'?");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle) + "time_freezing: {running_cost: physical}\n"),
                     "p.yaml:10:17: error: 'running_cost' applies to kind: ocp only");
  EXPECT_STARTS_WITH(simulate_error(cls(kParticle) + "time_freezing: {speed_of_time: {penalty: 1}}\n"),
                     "p.yaml:10:33: error: 'penalty' (rho_sot on sum (s_k - 1)^2) applies to kind: ocp only");
  EXPECT_STARTS_WITH(
      simulate_error(jump(kBall) + "time_freezing: {stiffness: 10}\n"),
      "p.yaml:10:17: error: 'stiffness' applies to cls models only; a jump model's jumps are its "
      "auxiliary dynamics (write auxiliary: {stiffness: k} in the jump model)");
  EXPECT_STARTS_WITH(
      simulate_error(cls(kParticle) + "time_freezing: {elastic_mode: literal}\n"),
      "p.yaml:10:31: error: time_freezing.elastic_mode is 'literal', expected exact (default) or "
      "nosnoc_literal");
  const std::string ocp_file = "kind: ocp\nmodel:\n  cls:\n" + kParticle + "ocp: {horizon: 1}\n";
  EXPECT_NO_THROW(read_ocp_string(ocp_file + "time_freezing: {running_cost: numerical}\n", "p.yaml"));
  EXPECT_STARTS_WITH(
      ocp_error(ocp_file + "time_freezing: {clock_constraints: stagewize}\n"),
      "p.yaml:10:36: error: time_freezing.clock_constraints is 'stagewize', expected stagewise "
      "(default) or terminal");
  EXPECT_STARTS_WITH(
      ocp_error(ocp_file + "time_freezing: {running_cost: exact}\n"),
      "p.yaml:10:31: error: time_freezing.running_cost is 'exact', expected physical (default) or "
      "numerical");
}

TEST(ClsReaderErrors, StepsTooShortForAJump) {
  // Bouncing ball: tau_jump = 0.70288; 1000 steps of 0.015 need s >= 47.9.
  const std::string m = simulate_error(
      jump(kBall + "    auxiliary: {stiffness: 20}\n", "simulate: {horizon: 15, steps: 1000}\n"));
  EXPECT_STARTS_WITH(
      m,
      "p.yaml:10:32: error: simulate.steps = 1000 makes steps of h = 0.015, too short to hold a "
      "jump");
  EXPECT_CONTAINS(
      m,
      "tau_jump = 0.702876 of numerical time, so a step with an impact needs a speed of time s >= "
      "1 + tau_jump/h = 47.8584, above time_freezing.speed_of_time.upper = 25; use at most 512 steps "
      "or raise the upper bound");
  EXPECT_NO_THROW(read_simulate_string(jump(kBall + "    auxiliary: {stiffness: 20}\n",
                                            "simulate: {horizon: 15, steps: 1000}\n"
                                            "time_freezing: {speed_of_time: {upper: 50}}\n"),
                                       "p.yaml"));
}

}  // namespace

// time_freezing.lifting: simulate files get the dense sign-row form by default (issue #4: the
// lifted form's rest steps stall), ocp files with dcs: step the lifted form (fields = flight +
// pos/neg per frictional contact, spec §2.5.3), which lifting: true also gives simulate files;
// lifting with stewart is an error at the key. lifted_variables: false keeps the lifted fields
// without θ, β variables.
TEST(TimeFreezingFile, LiftingFollowsTheDcs) {
  const SimulateFile by_default = read_simulate_file(example("particle_friction.yaml"));
  EXPECT_FALSE(by_default.time_freezing->options.lifting);
  EXPECT_FALSE(by_default.model.pss.subsystems[0].lifting.has_value());
  EXPECT_EQ(by_default.model.pss.subsystems[0].n_regions(), 8u);
  const SimulateFile lifted = read_simulate_file(example("particle_friction.yaml"), {"time_freezing.lifting=true"});
  EXPECT_TRUE(lifted.time_freezing->options.lifting);
  EXPECT_TRUE(lifted.time_freezing->options.lifted_variables);
  ASSERT_TRUE(lifted.model.pss.subsystems[0].lifting.has_value());
  EXPECT_TRUE(lifted.model.pss.subsystems[0].lifting->variables);
  const SimulateFile substituted = read_simulate_file(
      example("particle_friction.yaml"), {"time_freezing.lifting=true", "time_freezing.lifted_variables=false"});
  ASSERT_TRUE(substituted.model.pss.subsystems[0].lifting.has_value());
  EXPECT_FALSE(substituted.model.pss.subsystems[0].lifting->variables);
  const OcpFile ocp = read_ocp_file(example("inelastic_2d_ocp.yaml"));
  EXPECT_TRUE(ocp.time_freezing->options.lifting);
  ASSERT_TRUE(ocp.model.pss.subsystems[0].lifting.has_value());
  EXPECT_EQ(lifted.model.pss.subsystems[0].n_regions(), 3u);
  EXPECT_EQ(lifted.time_freezing->frozen.region_friction_sign, (std::vector<std::vector<int>>{{}, {1}, {-1}}));
  const SimulateFile stewart = read_simulate_file(example("particle_friction.yaml"), {"discretization.dcs=stewart"});
  EXPECT_FALSE(stewart.time_freezing->options.lifting);
  EXPECT_EQ(stewart.model.pss.subsystems[0].n_regions(), 8u);
  try {
    read_simulate_file(example("particle_friction.yaml"), {"discretization.dcs=stewart", "time_freezing.lifting=true"});
    ADD_FAILURE() << "no error";
  } catch (const stasis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("lifting: false"), std::string::npos) << e.what();
  }
}

// time_freezing.implicit_mass: off by default; on, the model carries M(q) and the generalized force of
// each field (model::Pss::implicit_mass, checked numerically in tests/reformulate/test_tf_implicit_mass.cpp);
// a non-boolean value is an error at the key.
TEST(TimeFreezingFile, ImplicitMassKey) {
  const SimulateFile by_default = read_simulate_file(example("falling_rod.yaml"));
  EXPECT_FALSE(by_default.time_freezing->options.implicit_mass);
  EXPECT_FALSE(by_default.model.pss.implicit_mass.has_value());
  const SimulateFile on = read_simulate_file(example("falling_rod.yaml"), {"time_freezing.implicit_mass=true"});
  ASSERT_TRUE(on.model.pss.implicit_mass.has_value());
  EXPECT_EQ(on.model.pss.implicit_mass->mass.rows(), 3u);
  EXPECT_EQ(on.model.pss.implicit_mass->first_row, 3u);
  EXPECT_EQ(on.model.pss.implicit_mass->forces.at(0).size(), on.model.pss.subsystems[0].n_regions());
  try {
    read_simulate_file(example("falling_rod.yaml"), {"time_freezing.implicit_mass=maybe"});
    ADD_FAILURE() << "no error";
  } catch (const stasis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("time_freezing.implicit_mass"), std::string::npos) << e.what();
  }
}

// ocp::set_time_freezing, the public helper the reader uses: with the settings examples/cpp/push_block.cpp
// gives (speed of time in [0.5, 10], everything else default: the α regularization off, as in the
// file reader) it fills the time-freezing fields of a hand-built OcpSpec exactly as push_block.yaml
// does; an explicit weight matches the file key time_freezing.alpha_regularization; with the
// Stewart DCS no α penalty.
TEST(TimeFreezingFile, OcpFieldsComeFromTheSetTimeFreezingHelper) {
  const OcpFile file = read_ocp_file(example("push_block.yaml"));
  ASSERT_TRUE(file.time_freezing);
  stasis::ocp::TimeFreezingSettings settings;
  EXPECT_EQ(settings.alpha_regularization, 0.0);  // off by default, like the file key
  EXPECT_EQ(file.time_freezing->settings.alpha_regularization, 0.0);
  settings.speed_of_time_lower = 0.5;
  settings.speed_of_time_upper = 10.0;
  stasis::discretize::OcpSpec spec;
  stasis::ocp::set_time_freezing(spec, file.time_freezing->frozen, stasis::reformulate::DcsMode::Step, settings);
  EXPECT_EQ(spec.clock, file.ocp.clock);
  EXPECT_EQ(spec.clock, 4);
  EXPECT_EQ(spec.speed_of_time_lower, file.ocp.speed_of_time_lower);
  EXPECT_EQ(spec.speed_of_time_upper, file.ocp.speed_of_time_upper);
  EXPECT_EQ(spec.speed_of_time_start, file.ocp.speed_of_time_start);
  EXPECT_EQ(spec.speed_of_time_penalty, file.ocp.speed_of_time_penalty);
  EXPECT_EQ(spec.clock_constraints, file.ocp.clock_constraints);
  EXPECT_EQ(spec.running_cost_time, file.ocp.running_cost_time);
  EXPECT_EQ(spec.alpha_penalty, file.ocp.alpha_penalty);
  EXPECT_TRUE(spec.alpha_penalty.empty());  // off
  // With a weight: the floor's gap only, as the file key gives it.
  const OcpFile weighted = read_ocp_file(example("push_block.yaml"), {"time_freezing.alpha_regularization=1e-2"});
  settings.alpha_regularization = 1e-2;
  stasis::ocp::set_time_freezing(spec, file.time_freezing->frozen, stasis::reformulate::DcsMode::Step, settings);
  EXPECT_EQ(spec.alpha_penalty, weighted.ocp.alpha_penalty);
  EXPECT_EQ(spec.alpha_penalty, (std::vector<double>{1e-2, 0.0, 0.0}));
  stasis::ocp::set_time_freezing(spec, file.time_freezing->frozen, stasis::reformulate::DcsMode::Stewart, settings);
  EXPECT_TRUE(spec.alpha_penalty.empty());
  EXPECT_TRUE(file.time_freezing->frozen.alpha_penalty(0.0).empty());
}

// time_freezing.alpha_regularization (docs/guide-cls.md): weight on each inelastic gap's α, by
// off by default, 1e-2 in inelastic_2d_ocp.yaml; only the gaps (the first switching functions)
// are weighted, and only with dcs: step.
TEST(TimeFreezingFile, AlphaRegularizationWeightsTheGapsOfOcps) {
  const OcpFile ocp = read_ocp_file(example("inelastic_2d_ocp.yaml"));  // gap, normal and tangential velocity
  EXPECT_EQ(ocp.ocp.alpha_penalty, (std::vector<double>{1e-2, 0.0, 0.0}));
  const OcpFile off = read_ocp_file(example("inelastic_2d_ocp.yaml"), {"time_freezing.alpha_regularization=0"});
  EXPECT_TRUE(off.ocp.alpha_penalty.empty());
  EXPECT_TRUE(read_ocp_file(example("push_block.yaml")).ocp.alpha_penalty.empty());  // default: off
  const OcpFile heavy = read_ocp_file(example("inelastic_2d_ocp.yaml"), {"time_freezing.alpha_regularization=0.5"});
  EXPECT_EQ(heavy.ocp.alpha_penalty, (std::vector<double>{0.5, 0.0, 0.0}));
  const OcpFile elastic = read_ocp_file(example("time_optimal_bounce.yaml"));  // elastic: no free gap α
  EXPECT_TRUE(elastic.ocp.alpha_penalty.empty());
  const SimulateFile sim = read_simulate_file(example("particle_friction.yaml"));
  EXPECT_TRUE(integrator_options(sim).alpha_penalty.empty());
  const SimulateFile sim_on = read_simulate_file(example("particle_friction.yaml"), {"time_freezing.alpha_regularization=1e-2"});
  EXPECT_EQ(integrator_options(sim_on).alpha_penalty.size(), 3u);
  EXPECT_EQ(integrator_options(sim_on).alpha_penalty[0], 1e-2);
  for (const char* bad : {"time_freezing.alpha_regularization=-1", "time_freezing.alpha_regularization=nan"}) {
    try {
      read_ocp_file(example("inelastic_2d_ocp.yaml"), {bad});
      ADD_FAILURE() << "no error for " << bad;
    } catch (const stasis::Error& e) {
      EXPECT_NE(std::string(e.what()).find("time_freezing.alpha_regularization"), std::string::npos) << e.what();
    }
  }
  try {
    read_ocp_file(example("inelastic_2d_ocp.yaml"),
                  {"discretization.dcs=stewart", "time_freezing.lifting=false", "time_freezing.alpha_regularization=1"});
    ADD_FAILURE() << "no error for dcs: stewart";
  } catch (const stasis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("dcs: stewart"), std::string::npos) << e.what();
  }
}
