// Structure of the time-frozen PSS: sign matrices, switching functions and region fields.
// Sources: time_freezing.md §2.5.2 (dense PSS path: S matrices, F columns, the summed-field fix for
// 2 contacts), §2.5.3 (TestInelasticMulticontact f_x values: ball with M = 1 and M = 3, 2-D
// particle with friction), §2.6 (TestElastic strings), §7 T13, §2.2/§2.3 (spatial friction),
// §2.8 quirk 3 (mixed μ), seed 002 / §1.2 (bouncing ball fields).
// Our symbolic printing differs from CasADi's, so fields are compared by evaluating them at random
// points against hand-written formulas (tolerance 1e-12 relative; the spec's printed digits, e.g.
// 33.3333, are checked to their own precision).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <set>

#include "stasis/reformulate/dcs.hpp"
#include "tf_test_support.hpp"

using namespace tftest;

namespace {

std::mt19937& rng() {
  static std::mt19937 gen(12345);
  return gen;
}
double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng()); }
Vec random_point(std::size_t n, double scale = 3.0) {
  Vec y(n);
  for (auto& v : y) v = uniform(-scale, scale);
  return y;
}

void expect_vec_near(const Vec& a, const Vec& b, double tol, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a[i], b[i], tol * std::max(1.0, std::abs(b[i]))) << what << " entry " << i;
}

const std::vector<std::vector<int>> kS2 = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
const std::vector<std::vector<int>> kS3 = {{1, 1, 1},  {1, 1, -1},  {1, -1, 1},  {1, -1, -1},
                                           {-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1}};

}  // namespace

// §2.5.2 / T13: 1 contact without friction, 1-D ball M = 1, g = 9.81, a_n = 100:
// S = [1 1; 1 −1; −1 1; −1 −1], c = [q; v], F = [f_ode ×3, f_aux] = [(v, −9.81, 1) ×3, (0, 100, 0)].
TEST(TimeFreezingStructure, DensePssOneContactNoFriction) {
  const auto tf = rf::time_freezing(ball(1.0, -9.81), dense());
  const auto& sub = tf.pss.subsystems.at(0);
  EXPECT_EQ(sub.signs, kS2);
  ASSERT_EQ(sub.fields.size(), 4u);
  EXPECT_EQ(tf.pss.state_names, (std::vector<std::string>{"q", "v", "t"}));
  EXPECT_EQ(tf.clock, 2);
  EXPECT_EQ(tf.pss.clock, 2);
  EXPECT_EQ(tf.pss.x0, (Vec{1.0, 0.0, 0.0}));
  EXPECT_EQ(tf.region_contacts, (std::vector<std::vector<int>>{{}, {}, {}, {0}}));
  EXPECT_EQ(tf.region_friction_sign, (std::vector<std::vector<int>>{{}, {}, {}, {0}}));
  EXPECT_FALSE(tf.elastic);
  EXPECT_EQ(tf.normal_acceleration, 100.0);
  Evaluator ev(tf);
  for (int trial = 0; trial < 5; ++trial) {
    const Vec y = random_point(3);
    const double q = y[0], v = y[1];
    expect_vec_near(ev.switching(y), {q, v}, 1e-14, "c");
    for (int r = 0; r < 3; ++r) expect_vec_near(ev.field(r, y), {v, -9.81, 1.0}, 1e-14, "f_ode");
    expect_vec_near(ev.field(3, y), {0.0, 100.0, 0.0}, 1e-14, "f_aux");
    expect_vec_near(ev.D(y), {1.0}, 1e-14, "D");
    expect_vec_near(ev.normal_velocities(y), {v}, 1e-14, "n^T v");
  }
}

// T13 variants: stabilisation (4th column (−1e-5 q, 100, 0)), M = 3 ((v, −3.27, 1) and (0, 33.3333, 0);
// also §2.5.3 TestInelasticMulticontact "100 becomes 33.3333 and −9.81 becomes −3.27"), a_n = 50.
TEST(TimeFreezingStructure, DensePssStabilisationMassAndAn) {
  {
    rf::TimeFreezingOptions o;
    o.stabilize_positions = 1e-5;
    const auto tf = rf::time_freezing(ball(1.0, -9.81), dense(o));
    Evaluator ev(tf);
    const Vec y = random_point(3);
    expect_vec_near(ev.field(3, y), {-1e-5 * y[0], 100.0, 0.0}, 1e-14, "stabilised f_aux");
    expect_vec_near(ev.field(0, y), {y[1], -9.81, 1.0}, 1e-14, "f_ode");
    // stabilize_depth δ: the pull goes toward f_c = −δ, −κ n (f_c + δ); the ODE field is unchanged.
    o.stabilize_depth = 1e-3;
    const auto deep = rf::time_freezing(ball(1.0, -9.81), dense(o));
    EXPECT_EQ(deep.contact_depth, 1e-3);
    Evaluator ev_deep(deep);
    expect_vec_near(ev_deep.field(3, y), {-1e-5 * (y[0] + 1e-3), 100.0, 0.0}, 1e-14, "f_aux toward -depth");
    expect_vec_near(ev_deep.field(0, y), {y[1], -9.81, 1.0}, 1e-14, "f_ode with depth");
  }
  {
    const auto tf = rf::time_freezing(ball(3.0, -9.81), dense());
    Evaluator ev(tf);
    const Vec y = random_point(3);
    expect_vec_near(ev.field(0, y), {y[1], -9.81 / 3, 1.0}, 1e-14, "f_ode, M = 3");
    expect_vec_near(ev.field(3, y), {0.0, 100.0 / 3, 0.0}, 1e-14, "f_aux, M = 3");
    EXPECT_NEAR(ev.field(0, y)[1], -3.27, 1e-12);
    EXPECT_NEAR(ev.field(3, y)[1], 33.3333, 5e-5);
    expect_vec_near(ev.D(y), {1.0 / 3}, 1e-14, "D, M = 3");
  }
  {
    rf::TimeFreezingOptions o;
    o.normal_acceleration = 50;
    const auto tf = rf::time_freezing(ball(1.0, -9.81), dense(o));
    Evaluator ev(tf);
    expect_vec_near(ev.field(3, random_point(3)), {0.0, 50.0, 0.0}, 1e-14, "f_aux, a_n = 50");
  }
}

// §2.5.2 / T13 friction and §2.5.3 2-D particle with planar friction (μ = 0.1, J_t = [1; 0]):
// S = the 8 sign rows in descending order, c = [q2, v2, v1],
// F = (v1, v2, 0, −9.81, 1) ×6, (0, 0, −10, 100, 0) [pos], (0, 0, 10, 100, 0) [neg].
TEST(TimeFreezingStructure, DensePssPlanarFriction) {
  const auto tf = rf::time_freezing(particle(0.1), dense());
  const auto& sub = tf.pss.subsystems.at(0);
  EXPECT_EQ(sub.signs, kS3);
  ASSERT_EQ(sub.fields.size(), 8u);
  EXPECT_EQ(tf.region_contacts, (std::vector<std::vector<int>>{{}, {}, {}, {}, {}, {}, {0}, {0}}));
  EXPECT_EQ(tf.region_friction_sign, (std::vector<std::vector<int>>{{}, {}, {}, {}, {}, {}, {1}, {-1}}));
  EXPECT_EQ(tf.pss.state_names, (std::vector<std::string>{"q1", "q2", "v1", "v2", "t"}));
  Evaluator ev(tf);
  for (int trial = 0; trial < 5; ++trial) {
    const Vec y = random_point(5);
    const double v1 = y[2], v2 = y[3];
    expect_vec_near(ev.switching(y), {y[1], v2, v1}, 1e-14, "c");
    for (int r = 0; r < 6; ++r) expect_vec_near(ev.field(r, y), {v1, v2, 0.0, -9.81, 1.0}, 1e-14, "f_ode");
    expect_vec_near(ev.field(6, y), {0, 0, -10, 100, 0}, 1e-14, "f_aux,pos");
    expect_vec_near(ev.field(7, y), {0, 0, 10, 100, 0}, 1e-14, "f_aux,neg");
  }
}

// §2.5.2 summed-field fix (quirk 1): 2 contacts without friction, f_c = (q1, q2), c = [q1, q2, v1, v2]:
// 16 rows and 16 fields (nosnoc: 17 columns); a row with both contacts auxiliary (f_c,i < 0 and
// v_n,i < 0 for both: only the last row) carries ONE column f_aux,1 + f_aux,2.
TEST(TimeFreezingStructure, DensePssTwoContactsSummedField) {
  model::Cls c;
  auto q = c.add_positions({"q1", "q2"});
  c.add_velocities({"v1", "v2"});
  c.forces = {0.0, -10.0};
  c.add_contact(q[0]);
  c.add_contact(q[1]);
  c.x0 = {0.8, 0.5, -1.5, -1.0};
  const auto tf = rf::time_freezing(c, dense());
  const auto& sub = tf.pss.subsystems.at(0);
  ASSERT_EQ(sub.signs.size(), 16u);
  ASSERT_EQ(sub.fields.size(), 16u);
  EXPECT_EQ(sub.signs.front(), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(sub.signs.back(), (std::vector<int>{-1, -1, -1, -1}));
  Evaluator ev(tf);
  const Vec y = random_point(5);
  expect_vec_near(ev.switching(y), {y[0], y[1], y[2], y[3]}, 1e-14, "c");
  const Vec f_ode = {y[2], y[3], 0.0, -10.0, 1.0};
  const Vec aux1 = {0, 0, 100, 0, 0}, aux2 = {0, 0, 0, 100, 0}, both = {0, 0, 100, 100, 0};
  int n_ode = 0, n_1 = 0, n_2 = 0, n_both = 0;
  for (std::size_t r = 0; r < 16; ++r) {
    const auto& s = sub.signs[r];
    const bool a1 = s[0] < 0 && s[2] < 0, a2 = s[1] < 0 && s[3] < 0;
    const Vec f = ev.field(r, y);
    if (!a1 && !a2) {
      expect_vec_near(f, f_ode, 1e-14, "ODE row " + std::to_string(r));
      EXPECT_TRUE(tf.region_contacts[r].empty());
      ++n_ode;
    } else if (a1 && a2) {
      expect_vec_near(f, both, 1e-14, "corner row " + std::to_string(r));
      EXPECT_EQ(tf.region_contacts[r], (std::vector<int>{0, 1}));
      ++n_both;
    } else if (a1) {
      expect_vec_near(f, aux1, 1e-14, "contact 1 row " + std::to_string(r));
      EXPECT_EQ(tf.region_contacts[r], (std::vector<int>{0}));
      ++n_1;
    } else {
      expect_vec_near(f, aux2, 1e-14, "contact 2 row " + std::to_string(r));
      EXPECT_EQ(tf.region_contacts[r], (std::vector<int>{1}));
      ++n_2;
    }
  }
  EXPECT_EQ(n_ode, 9);
  EXPECT_EQ(n_1, 3);
  EXPECT_EQ(n_2, 3);
  EXPECT_EQ(n_both, 1);
  EXPECT_EQ(tf.region_contacts.back(), (std::vector<int>{0, 1}));
}

// §2.8 quirk 3 (mixed μ): contact 0 with planar friction μ = 0.5 (tangent (1, 0)), contact 1
// (a wall f_c = q1) frictionless. Only the frictional contact gets a tangential switching function
// (for μ = 0 nosnoc's fix gives two identical pos/neg fields): c = [q2, q1, v2, v1, v1·1],
// 32 regions, and the corner fields are sums of the pos/neg field of contact 0 and the normal field of
// contact 1.
TEST(TimeFreezingStructure, MixedFrictionSumsPosNegAndNormalFields) {
  model::Cls c;
  auto q = c.add_positions({"q1", "q2"});
  c.add_velocities({"v1", "v2"});
  c.forces = {0.0, -9.81};
  c.add_contact({.gap = q[1],
                 .restitution = 0.0,
                 .friction = 0.5,
                 .tangent = sym::Matrix{{1.0}, {0.0}},
                 .name = "floor"});
  c.add_contact(q[0], 0.0, 0.0, {}, "wall");
  c.x0 = {1.0, 1.0, 0.0, 0.0};
  const auto tf = rf::time_freezing(c, dense());
  const auto& sub = tf.pss.subsystems.at(0);
  ASSERT_EQ(sub.switching.size(), 5u);
  ASSERT_EQ(sub.fields.size(), 32u);
  Evaluator ev(tf);
  const Vec y = random_point(5);
  expect_vec_near(ev.switching(y), {y[1], y[0], y[3], y[2], y[2]}, 1e-14, "c");
  for (std::size_t r = 0; r < 32; ++r) {
    const auto& s = sub.signs[r];
    const bool a0 = s[0] < 0 && s[2] < 0, a1 = s[1] < 0 && s[3] < 0;
    Vec expected = {0, 0, 0, 0, 0};
    if (!a0 && !a1) expected = {y[2], y[3], 0.0, -9.81, 1.0};
    if (a0) {
      expected[2] += s[4] > 0 ? -50.0 : 50.0;  // ∓ μ a_n b
      expected[3] += 100.0;
    }
    if (a1) expected[2] += 100.0;
    expect_vec_near(ev.field(r, y), expected, 1e-14, "row " + std::to_string(r));
    std::vector<int> contacts, signs;
    if (a0) contacts.push_back(0), signs.push_back(s[4]);
    if (a1) contacts.push_back(1), signs.push_back(0);
    EXPECT_EQ(tf.region_contacts[r], contacts);
    EXPECT_EQ(tf.region_friction_sign[r], signs);
  }
}

// §2.2 / §2.3 spatial friction (n_dim_contact = 2): 3-D particle, f_c = q3, B = [e1 e2], μ = 0.2.
// c_t = sqrt(‖v_t‖² + δ²) − sqrt(ε_t² + δ²), δ = ε_t/100, has the sign of ‖v_t‖ − ε_t and a finite
// gradient at v_t = 0; pos/neg fields a_n M⁻¹(n ∓ μ B v̂) with v̂ = v_t / sqrt(‖v_t‖² + δ²), so the
// slip friction is μ a_n (not μ a_n/√2, as with δ = ε_t) on the stick circle ‖v_t‖ = ε_t; one
// direction guard (v_t) on c_t.
TEST(TimeFreezingStructure, SpatialFriction) {
  model::Cls c;
  auto q = c.add_positions({"x", "y", "z"});
  c.add_velocities({"vx", "vy", "vz"});
  c.forces = {0.0, 0.0, -10.0};
  c.add_contact({.gap = q[2],
                 .restitution = 0.0,
                 .friction = 0.2,
                 .tangent = sym::Matrix{{1.0, 0.0}, {0.0, 1.0}, {0.0, 0.0}},
                 .name = ""});
  c.x0 = {0, 0, 1, 2, 1, 0};
  rf::TimeFreezingOptions o;
  o.normal_acceleration = 10;
  const double eps = o.eps_t;
  const auto tf = rf::time_freezing(c, dense(o));
  const auto& sub = tf.pss.subsystems.at(0);
  EXPECT_EQ(sub.signs, kS3);
  Evaluator ev(tf);
  // Sign of c_t against ‖v_t‖ − ε_t, outside, inside and at the centre of the stick ball.
  for (double r : {3.0, 1e-3, 2e-7, 0.5e-7, 1e-9, 0.0}) {
    const double phi = uniform(0, 2 * std::numbers::pi);
    const Vec y = {0.1, 0.2, -0.01, r * std::cos(phi), r * std::sin(phi), -1.0, 0.0};
    const Vec cy = ev.switching(y);
    EXPECT_EQ(cy[2] > 0, r > eps) << "r = " << r;
    const Vec jac = ev.switching_jacobian(y);
    for (double d : jac) EXPECT_TRUE(std::isfinite(d)) << "r = " << r;
  }
  // c_t vanishes exactly on ‖v_t‖ = ε_t.
  EXPECT_NEAR(ev.switching({0, 0, 0, eps * 0.6, eps * 0.8, 0, 0})[2], 0.0, 1e-20);
  // Fields at v_t = (3, 4): v̂ = (0.6, 0.8) up to ε²; pos = (.., −1.2, −1.6, 10), neg = (.., 1.2, 1.6, 10).
  const Vec y = {0.5, 0.5, -0.01, 3.0, 4.0, -2.0, 0.3};
  expect_vec_near(ev.field(6, y), {0, 0, 0, -0.2 * 10 * 0.6, -0.2 * 10 * 0.8, 10, 0}, 1e-12, "pos");
  expect_vec_near(ev.field(7, y), {0, 0, 0, 0.2 * 10 * 0.6, 0.2 * 10 * 0.8, 10, 0}, 1e-12, "neg");
  expect_vec_near(ev.field(0, y), {3.0, 4.0, -2.0, 0, 0, -10, 1}, 1e-14, "f_ode");
  // On the stick circle the slip friction is μ a_n = 2 up to (δ/ε_t)²/2 = 5e-5 relative.
  {
    const Vec f = ev.field(6, {0, 0, -0.01, eps * 0.6, eps * 0.8, -1.0, 0});
    EXPECT_NEAR(std::hypot(f[3], f[4]), 0.2 * 10, 2e-4);
  }
  ASSERT_EQ(sub.direction_guards.size(), 1u);
  EXPECT_EQ(sub.direction_guards[0].switching, 2u);
  EXPECT_EQ(sub.direction_guards[0].direction.size(), 2u);
  // At v_t = 0 the fields are finite (no division by zero) and purely normal.
  expect_vec_near(ev.field(7, {0, 0, -0.01, 0, 0, -2, 0}), {0, 0, 0, 0, 0, 10, 0}, 1e-14, "neg at v_t = 0");
}

// Nonlinear gap, non-diagonal mass: every field agrees with hand-written M⁻¹ formulas (Eigen) at
// random points: f_ode = (v, M⁻¹f_v, 1), f_aux,± = (0, a_n M⁻¹(n ∓ μ b), 0), D = nᵀM⁻¹n.
TEST(TimeFreezingStructure, GeneralMassAndCurvedGap) {
  model::Cls c;
  auto q = c.add_positions({"q1", "q2"});
  auto v = c.add_velocities({"v1", "v2"});
  auto u = c.add_controls({"u"});
  c.mass = sym::Matrix{{2.0 + 0.5 * sym::cos(q[0]), 0.3}, {0.3, 1.0}};
  c.forces = {u[0] - 0.1 * v[0], -9.81 + q[0] * v[1]};
  c.add_contact({.gap = q[1] - 0.2 * q[0] * q[0],
                 .restitution = 0.0,
                 .friction = 0.4,
                 .tangent = sym::Matrix{{1.0}, {0.4 * q[0]}},
                 .name = "curve"});
  c.x0 = {0.1, 1.0, 0.0, 0.0};
  rf::TimeFreezingOptions o;
  o.normal_acceleration = 30;
  const auto tf = rf::time_freezing(c, dense(o));
  Evaluator ev(tf);
  ev.set_controls({0.7});
  for (int trial = 0; trial < 5; ++trial) {
    const Vec y = random_point(5, 1.0);
    const double q1 = y[0], v1 = y[2], v2 = y[3];
    const double m11 = 2.0 + 0.5 * std::cos(q1), m12 = 0.3, m22 = 1.0, det = m11 * m22 - m12 * m12;
    auto minv = [&](double a, double b) {
      return Vec{(m22 * a - m12 * b) / det, (-m12 * a + m11 * b) / det};
    };
    const Vec fv = {0.7 - 0.1 * v1, -9.81 + q1 * v2};
    const Vec n = {-0.4 * q1, 1.0}, b = {1.0, 0.4 * q1};
    const Vec acc = minv(fv[0], fv[1]), mn = minv(n[0], n[1]), mb = minv(b[0], b[1]);
    expect_vec_near(ev.field(0, y), {v1, v2, acc[0], acc[1], 1.0}, 1e-12, "f_ode");
    expect_vec_near(ev.field(6, y), {0, 0, 30 * (mn[0] - 0.4 * mb[0]), 30 * (mn[1] - 0.4 * mb[1]), 0}, 1e-12,
                    "pos");
    expect_vec_near(ev.field(7, y), {0, 0, 30 * (mn[0] + 0.4 * mb[0]), 30 * (mn[1] + 0.4 * mb[1]), 0}, 1e-12,
                    "neg");
    expect_vec_near(ev.D(y), {dot(n, mn)}, 1e-12, "D");
    expect_vec_near(ev.switching(y), {y[1] - 0.2 * q1 * q1, dot(n, {v1, v2}), dot(b, {v1, v2})}, 1e-12, "c");
  }
}

// §2.6 TestElastic strings (nosnoc-literal mode; 1-D, M = 1, g = 9.81, f_c = q, S = [1; −1], c = q):
// e = 1: F = [[v, v], [−9.81, −10 q], [1, 0]];  M = 3: [[v, 0.333333 v], [−3.27, −3.33333 q], [1, 0]];
// k_aux = 5: v' = −5 q;  e = 0.5: v' = −10 q − 1.36265 v.
TEST(TimeFreezingStructure, ElasticNosnocLiteralStrings) {
  rf::TimeFreezingOptions lit;
  lit.elastic_mode = rf::TimeFreezingOptions::ElasticMode::NosnocLiteral;
  auto check = [&](double m, double e, double k, auto expected_aux, const std::string& what) {
    rf::TimeFreezingOptions o = lit;
    o.stiffness = k;
    const auto tf = rf::time_freezing(ball(m, -9.81, e), dense(o));
    const auto& sub = tf.pss.subsystems.at(0);
    EXPECT_EQ(sub.signs, (std::vector<std::vector<int>>{{1}, {-1}})) << what;
    EXPECT_TRUE(tf.elastic);
    EXPECT_EQ(tf.region_contacts, (std::vector<std::vector<int>>{{}, {0}}));
    Evaluator ev(tf);
    const Vec y = random_point(3);
    expect_vec_near(ev.switching(y), {y[0]}, 1e-14, what + " c");
    expect_vec_near(ev.field(0, y), {y[1], -9.81 / m, 1.0}, 1e-14, what + " f_ode");
    expect_vec_near(ev.field(1, y), expected_aux(y[0], y[1]), 1e-5, what + " f_aux");
  };
  check(
      1, 1.0, 10,
      [](double q, double v) {
        return Vec{v, -10 * q, 0};
      },
      "e = 1");
  check(
      3, 1.0, 10,
      [](double q, double v) {
        return Vec{0.333333 * v, -3.33333 * q, 0};
      },
      "M = 3");
  check(
      1, 1.0, 5,
      [](double q, double v) {
        return Vec{v, -5 * q, 0};
      },
      "k_aux = 5");
  check(
      1, 0.5, 10,
      [](double q, double v) {
        return Vec{v, -10 * q - 1.36265 * v, 0};
      },
      "e = 0.5");
}

// §2.6 exact mode (our default): q' = M⁻¹n w/D, v' = M⁻¹n(−k f_c − c w)/D. For the 1-D ball it
// equals the literal field when M = 1, and stays (v, −k q − c v) for M = 3 (the literal one does not).
TEST(TimeFreezingStructure, ElasticExactFields) {
  const double c05 = rf::damping_from_restitution(10, 0.5);
  for (double m : {1.0, 3.0}) {
    const auto tf = rf::time_freezing(ball(m, -9.81 * m, 0.5), dense());
    EXPECT_NEAR(tf.damping, c05, 1e-15);
    EXPECT_EQ(tf.stiffness, 10.0);
    Evaluator ev(tf);
    const Vec y = random_point(3);
    expect_vec_near(ev.field(1, y), {y[1], -10 * y[0] - c05 * y[1], 0}, 1e-13, "exact f_aux");
    expect_vec_near(ev.field(0, y), {y[1], -9.81, 1.0}, 1e-14, "f_ode");
  }
  // Affine gap with offset and a non-unit normal, M = 3 I: p = q1 + 2 q2 − 1, w = v1 + 2 v2, D = 5/3.
  model::Cls c;
  auto q = c.add_positions({"q1", "q2"});
  c.add_velocities({"v1", "v2"});
  c.mass = sym::Matrix{{3.0, 0.0}, {0.0, 3.0}};
  c.forces = {0.0, -9.81};
  c.add_contact(q[0] + 2 * q[1] - 1, 0.9);
  c.x0 = {1.0, 1.0, 0.0, 0.0};
  const auto tf = rf::time_freezing(c, dense());
  Evaluator ev(tf);
  const double cd = rf::damping_from_restitution(10, 0.9);
  const Vec y = random_point(5);
  const double p = y[0] + 2 * y[1] - 1, w = y[2] + 2 * y[3], D = 5.0 / 3;
  const double s = (-10 * p - cd * w) / D;
  expect_vec_near(ev.field(1, y), {w / D / 3, 2 * w / D / 3, s / 3, 2 * s / 3, 0}, 1e-13, "exact f_aux 2-D");
  expect_vec_near(ev.D(y), {D}, 1e-14, "D");
}

// Seed 002 / §1.2 / §6.1: bouncing ball as a JumpSystem (q0 = 10, v0 = 0, γ = 0.9, k = 20):
// f1 = (v, −g, 1) for q > 0, f2 = (v, −20 q − 0.2998 v, 0) for q < 0, S = [1; −1], c = q.
TEST(TimeFreezingStructure, JumpSystemBouncingBall) {
  model::JumpSystem js;
  js.name = "bouncing ball";
  auto x = js.add_states({"q", "v"});
  js.f = {x[1], -9.81};
  js.constraints = {x[0]};
  js.restitution = 0.9;
  js.stiffness = 20;
  js.x0 = {10, 0};
  const auto tf = rf::time_freezing(js, dense());
  EXPECT_NEAR(tf.damping, 0.2998, 5e-5);
  EXPECT_NEAR(tf.damping, 0.2997981228, 1e-9);
  EXPECT_EQ(tf.pss.subsystems[0].signs, (std::vector<std::vector<int>>{{1}, {-1}}));
  EXPECT_EQ(tf.pss.x0, (Vec{10, 0, 0}));
  EXPECT_EQ(tf.clock, 2);
  EXPECT_EQ(tf.n_q, 1u);
  EXPECT_EQ(tf.region_contacts, (std::vector<std::vector<int>>{{}, {0}}));
  Evaluator ev(tf);
  for (int trial = 0; trial < 3; ++trial) {
    const Vec y = random_point(3);
    expect_vec_near(ev.field(0, y), {y[1], -9.81, 1}, 1e-14, "f1");
    expect_vec_near(ev.field(1, y), {y[1], -20 * y[0] - 0.2997981228 * y[1], 0}, 1e-9, "f2");
    expect_vec_near(ev.normal_velocities(y), {y[1]}, 1e-14, "dψ/dt");
  }
}

// [L] Sec. III-B: several (orthogonal) constraints: regions = sign patterns of ψ, fields of the
// violated constraints add up; a single user-given auxiliary field is used as is.
TEST(TimeFreezingStructure, JumpSystemSeveralConstraintsAndUserField) {
  model::JumpSystem js;
  auto x = js.add_states({"q1", "q2", "v1", "v2"});
  auto u = js.add_controls({"u1", "u2"});
  js.f = {x[2], x[3], u[0], u[1]};
  js.constraints = {x[0], x[1]};
  js.restitution = 1.0;
  js.stiffness = 100;
  js.x0 = {1, 1, 0, 0};
  const auto tf = rf::time_freezing(js, dense());
  EXPECT_EQ(tf.pss.subsystems[0].signs, kS2);
  EXPECT_EQ(tf.region_contacts, (std::vector<std::vector<int>>{{}, {1}, {0}, {0, 1}}));
  EXPECT_EQ(tf.pss.control_names, (std::vector<std::string>{"u1", "u2"}));
  Evaluator ev(tf);
  ev.set_controls({0.3, -0.4});
  const Vec y = random_point(5);
  const Vec w1 = {y[2], 0, -100 * y[0], 0, 0}, w2 = {0, y[3], 0, -100 * y[1], 0};
  expect_vec_near(ev.field(0, y), {y[2], y[3], 0.3, -0.4, 1}, 1e-14, "free");
  expect_vec_near(ev.field(1, y), w2, 1e-14, "wall 2");
  expect_vec_near(ev.field(2, y), w1, 1e-14, "wall 1");
  expect_vec_near(ev.field(3, y), {y[2], y[3], -100 * y[0], -100 * y[1], 0}, 1e-14, "corner = sum");

  model::JumpSystem user = js;
  user.auxiliary = {{x[2], x[3], -x[0], -x[1]}};
  const auto tu = rf::time_freezing(user, dense());
  Evaluator eu(tu);
  for (std::size_t r = 1; r < 4; ++r)
    expect_vec_near(eu.field(r, y), {y[2], y[3], -y[0], -y[1], 0}, 1e-14, "single user field");
  EXPECT_EQ(tu.n_q, 0u);
  EXPECT_TRUE(tu.D.empty());
  // The built-in law realizes the given restitution; a user field has none to compare jumps with.
  EXPECT_EQ(tf.restitution, (std::vector<double>{1.0, 1.0}));
  ASSERT_EQ(tu.restitution.size(), 2u);
  EXPECT_TRUE(std::isnan(tu.restitution[0]) && std::isnan(tu.restitution[1]));
}

// The time-frozen PSS goes through both DCS constructions (pipeline smoke test).
TEST(TimeFreezingStructure, ToDcsStewartAndStep) {
  const auto tf = rf::time_freezing(particle(0.3), dense());
  const auto st = rf::to_dcs(tf.pss, rf::DcsMode::Stewart);
  EXPECT_EQ(st.n_x(), 5u);
  EXPECT_EQ(st.clock, 4);
  EXPECT_EQ(st.theta.size(), 8u);
  const auto hv = rf::to_dcs(tf.pss, rf::DcsMode::Step);
  EXPECT_EQ(hv.theta.size(), 8u);
  EXPECT_EQ(hv.switching.size(), 3u);
}

// §2.5.3 (TestInelasticMulticontact f_x, nosnoc's default lifted Heaviside path) against our dense
// PSS through to_dcs(Step): f = Σ_j F_j θ_j(α) must equal F_all [θ_ode; θ_aux](α) with
// θ_ode = Π_i (αq_i + αv_i − αq_i αv_i), θ_aux,i = (1−αq_i)(1−αv_i) [× αt_i | × (1−αt_i)]
// (§2.4), i.e. the strings
//   ball M = 1: f_x = [v θ0, −9.81 θ0 + 100 θ1, θ0]  (M = 3: 33.3333 and −3.27),
//   particle, μ = 0.1: f_x = [v0 θ0, v1 θ0, −10 θ1 + 10 θ2, −9.81 θ0 + 100 θ1 + 100 θ2, θ0],
//   2 contacts f_c = q: θ0 = (α0+α2−α0α2)(α1+α3−α1α3), θ1 = (1−α0)(1−α2), θ2 = (1−α1)(1−α3).
// Because overlapping auxiliary fields are summed, the dense path reproduces F_all θ exactly
// (nosnoc's 17-column dense F would not). Random α ∈ [0, 1], tolerance 1e-12.
TEST(TimeFreezingStructure, DenseStepDcsEqualsLiftedMulticontactFx) {
  auto dcs_f = [](const rf::TimeFrozenModel& tf) {
    const auto d = rf::to_dcs(tf.pss, rf::DcsMode::Step);
    EXPECT_EQ(d.z_names.front(), "alpha[0]");
    return std::make_pair(sym::Function("f", {d.x, d.u, d.z}, {d.f}), d.n_z());
  };
  auto eval = [](const std::pair<sym::Function, std::size_t>& f, const Vec& y, const Vec& alpha) {
    Vec z(f.second, 0.0);
    std::copy(alpha.begin(), alpha.end(), z.begin());
    return f.first({y, {}, z})[0];
  };
  for (double m : {1.0, 3.0}) {
    const auto tf = rf::time_freezing(ball(m, -9.81), dense());
    const auto f = dcs_f(tf);
    for (int trial = 0; trial < 5; ++trial) {
      const Vec y = random_point(3), a = {uniform(0, 1), uniform(0, 1)};
      const double th0 = a[0] + a[1] - a[0] * a[1], th1 = (1 - a[0]) * (1 - a[1]);
      expect_vec_near(eval(f, y, a), {y[1] * th0, -9.81 / m * th0 + 100 / m * th1, th0}, 1e-12, "ball f_x");
    }
  }
  {
    const auto tf = rf::time_freezing(particle(0.1), dense());
    const auto f = dcs_f(tf);
    for (int trial = 0; trial < 5; ++trial) {
      const Vec y = random_point(5), a = {uniform(0, 1), uniform(0, 1), uniform(0, 1)};
      const double th0 = a[0] + a[1] - a[0] * a[1], beta = (1 - a[0]) * (1 - a[1]);
      const double th1 = beta * a[2], th2 = beta * (1 - a[2]);
      expect_vec_near(
          eval(f, y, a),
          {y[2] * th0, y[3] * th0, -10 * th1 + 10 * th2, -9.81 * th0 + 100 * th1 + 100 * th2, th0}, 1e-12,
          "particle f_x");
    }
  }
  {
    model::Cls c;
    auto q = c.add_positions({"q1", "q2"});
    c.add_velocities({"v1", "v2"});
    c.forces = {0.0, -9.81};
    c.add_contact(q[0]);
    c.add_contact(q[1]);
    c.x0 = {1.0, 1.0, 0.0, 0.0};
    const auto tf = rf::time_freezing(c, dense());
    const auto f = dcs_f(tf);
    for (int trial = 0; trial < 5; ++trial) {
      const Vec y = random_point(5), a = {uniform(0, 1), uniform(0, 1), uniform(0, 1), uniform(0, 1)};
      const double th0 = (a[0] + a[2] - a[0] * a[2]) * (a[1] + a[3] - a[1] * a[3]);
      const double th1 = (1 - a[0]) * (1 - a[2]), th2 = (1 - a[1]) * (1 - a[3]);
      expect_vec_near(eval(f, y, a), {y[2] * th0, y[3] * th0, 100 * th1, -9.81 * th0 + 100 * th2, th0}, 1e-12,
                      "two-contact f_x");
    }
  }
}

// The lifted multicontact form (the default; time_freezing.md §2.5.3): fields F_all = [f_ode, aux...],
// θ and β algebraic variables defined by bilinear equations. With θ, β set from α by their
// definitions, the DCS right-hand side equals the dense form's Σ F_j θ_j(α) (checked on the spec's
// reference cases: 1-D ball, particle with friction, two and three contacts), and g_alg vanishes.
TEST(TimeFreezingStructure, LiftedMulticontactMatchesDenseAndSpec) {
  auto check = [](const model::Cls& c, const std::vector<std::string>& lift_names, std::size_t n_fields,
                  const std::string& what) {
    rf::TimeFreezingOptions lo;
    lo.lifting = true;
    const auto lifted = rf::time_freezing(c, lo);
    const auto dense_tf = rf::time_freezing(c, dense());
    ASSERT_TRUE(lifted.pss.subsystems[0].lifting.has_value()) << what;
    EXPECT_TRUE(lifted.pss.subsystems[0].signs.empty()) << what;
    EXPECT_EQ(lifted.pss.subsystems[0].lifting->lift_names, lift_names) << what;
    EXPECT_EQ(lifted.n_regions(), n_fields) << what;
    const auto dl = rf::to_dcs(lifted.pss, rf::DcsMode::Step);
    const auto dd = rf::to_dcs(dense_tf.pss, rf::DcsMode::Step);
    const std::size_t n_alpha = dl.switching.size();
    ASSERT_EQ(n_alpha, dd.switching.size()) << what;
    EXPECT_EQ(dl.n_z(), 3 * n_alpha + lift_names.size() + n_fields) << what;
    sym::Function fl("fl", {dl.x, dl.u, dl.z}, {dl.f, dl.g_alg});
    sym::Function fd("fd", {dd.x, dd.u, dd.z}, {dd.f});
    for (int trial = 0; trial < 5; ++trial) {
      const Vec y = random_point(dl.n_x());
      Vec zl(dl.n_z(), 0.0), zd(dd.n_z(), 0.0);
      for (std::size_t j = 0; j < n_alpha; ++j) zl[j] = zd[j] = uniform(0, 1);
      rf::evaluate_lifted(dl, zl);
      const auto out = fl({y, {}, zl});
      // λ are zero here, so the switching rows of g_alg are c(y); the lifted rows must vanish
      for (std::size_t r = n_alpha; r < out[1].size(); ++r) EXPECT_NEAR(out[1][r], 0.0, 1e-14) << what << " row " << r;
      expect_vec_near(out[0], fd({y, {}, zd})[0], 1e-12, what + " f");
    }
    EXPECT_THROW(rf::to_dcs(lifted.pss, rf::DcsMode::Stewart), stasis::Error) << what;
    // lifted_variables = false: the same fields, θ(α) substituted; no θ, β variables, same f
    lo.lifted_variables = false;
    const auto substituted = rf::time_freezing(c, lo);
    const auto ds = rf::to_dcs(substituted.pss, rf::DcsMode::Step);
    EXPECT_EQ(ds.n_z(), 3 * n_alpha) << what;
    EXPECT_TRUE(ds.lifted.empty()) << what;
    EXPECT_EQ(ds.theta.size(), n_fields) << what;
    sym::Function fs("fs", {ds.x, ds.u, ds.z}, {ds.f});
    for (int trial = 0; trial < 5; ++trial) {
      const Vec y = random_point(ds.n_x());
      Vec zs(ds.n_z(), 0.0), zd(dd.n_z(), 0.0);
      for (std::size_t j = 0; j < n_alpha; ++j) zs[j] = zd[j] = uniform(0, 1);
      expect_vec_near(fs({y, {}, zs})[0], fd({y, {}, zd})[0], 1e-12, what + " substituted f");
    }
  };
  check(ball(1.0, -9.81), {"beta_ode[0]"}, 2, "ball");
  check(particle(0.1), {"beta_ode[0]", "beta_aux[0]"}, 3, "particle with friction");
  for (std::size_t nc : {2u, 3u, 4u}) {
    model::Cls c;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < nc; ++i) names.push_back("q" + std::to_string(i));
    auto q = c.add_positions(names);
    for (auto& n : names) n = "v" + n.substr(1);
    c.add_velocities(names);
    c.forces = sym::Vector(nc, sym::Expr(-9.81));
    for (std::size_t i = 0; i < nc; ++i) c.add_contact(q[i]);
    c.x0.assign(2 * nc, 0.0);
    for (std::size_t i = 0; i < nc; ++i) c.x0[i] = 1.0;
    std::vector<std::string> lift;
    for (std::size_t i = 0; i < nc; ++i) lift.push_back("beta_ode[" + std::to_string(i) + "]");
    for (std::size_t j = 0; j + 2 < nc; ++j) lift.push_back("beta_prod[" + std::to_string(j) + "]");
    check(c, lift, 1 + nc, std::to_string(nc) + " contacts");
  }
}
