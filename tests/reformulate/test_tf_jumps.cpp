// Jumps produced by integrating the auxiliary fields of the time-frozen PSS numerically.
// Sources: time_freezing.md §2.7 and [A] Prop. 3 (inelastic τ_jump = −nᵀv/(D a_n), q and t frozen,
// post-jump nᵀv = 0), §7 T4 (1-D numbers), §1.4 / §7 T7 (planar frictional impact), §2.6 (exact
// elastic field: restitution e for any affine gap and M; the nosnoc-literal field realises ≈ 0.80
// for M = 3, e = 0.5, k = 10), §7 T2 (spring-damper endpoint for every row of T1), §1.2 and [L]
// Sec. III-B (orthogonal walls, summed corner field), §6.1 (bouncing-ball state at τ = 3).
// Inelastic phases use explicit Euler with step h and region lookup by sign(c) (tolerance a few h
// or a few μ a_n h for the Filippov chattering); elastic phases use RK4 (tolerance 1e-8).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "tf_test_support.hpp"

using namespace tftest;

namespace {

struct FrozenRun {
  Vec y;             // state at the end of the frozen phase
  double tau = 0.0;  // its length in numerical time
  int steps = 0;
};

/// Explicit Euler on the PSS from y (which must be in an auxiliary region) until the region is an
/// ODE region again.
FrozenRun run_frozen_euler(const Evaluator& ev, Vec y, double h, int max_steps = 10000000) {
  FrozenRun r;
  EXPECT_TRUE(ev.frozen(y));
  while (ev.frozen(y) && r.steps < max_steps) {
    y = axpy(y, h, ev.pss_field(y));
    ++r.steps;
  }
  r.y = y;
  r.tau = r.steps * h;
  return r;
}

}  // namespace

// §7 T4: 1-D ball, M = 1 and M = 3 (force −3g), a_n = 100, touchdown from h0 = 0.8:
// τ_jump = 0.0396181776 (M = 1) and 0.1188545329 (M = 3); afterwards q = 0, v = 0 (on Σ),
// the clock still at sqrt(2 h0/g) (spec: 0.4038588; exactly 0.4038550219).
TEST(TimeFreezingJumps, T4InelasticBallEuler) {
  const double vs = -std::sqrt(2 * 9.81 * 0.8), ts = std::sqrt(2 * 0.8 / 9.81);
  for (double m : {1.0, 3.0}) {
    SCOPED_TRACE("M = " + std::to_string(m));
    const auto tf = rf::time_freezing(ball(m, -9.81 * m, 0.0, 0.8, 0.0), dense());
    Evaluator ev(tf);
    const double h = 1e-6;
    // Start just inside the forbidden side (f_c = −1e-12 < 0) with the touchdown velocity.
    const FrozenRun r = run_frozen_euler(ev, {-1e-12, vs, ts}, h);
    const double expected = m == 1.0 ? 0.0396181776 : 0.1188545329;
    EXPECT_NEAR(r.tau, expected, 2 * h);
    EXPECT_NEAR(r.tau, rf::inelastic_jump_duration(vs, 1.0 / m, 100.0), 2 * h);
    EXPECT_EQ(r.y[0], -1e-12);  // q frozen exactly
    EXPECT_EQ(r.y[2], ts);      // clock frozen exactly
    // §7 T4 prints 0.4038588; sqrt(2·0.8/9.81) = |v_s|/g = 0.4038550219 (the spec's digits are off by 4e-6).
    EXPECT_NEAR(ts, 0.4038550219, 1e-9);
    EXPECT_NEAR(ts, 0.4038588, 5e-6);
    EXPECT_GE(r.y[1], 0.0);
    EXPECT_LE(r.y[1], 100.0 / m * h * 1.0001);  // post-jump v = 0 up to one Euler step
  }
}

// [A] Prop. 3 with a curved gap and a non-diagonal constant mass matrix: during the frozen phase q
// and t stay fixed, nᵀv grows at the rate D a_n, τ_jump = −nᵀv_s/(D a_n) and v⁺ = v_s + a_n τ_jump M⁻¹n
// (the impulse Λ = a_n τ_jump along n), so nᵀv⁺ = 0 and the velocity changes only along M⁻¹n.
TEST(TimeFreezingJumps, InelasticGeneralMassEuler) {
  model::Cls c;
  auto q = c.add_positions({"q1", "q2"});
  c.add_velocities({"v1", "v2"});
  c.mass = sym::Matrix{{2.0, 0.5}, {0.5, 1.0}};
  c.forces = {0.0, -9.81};
  c.add_contact(q[1] - 0.3 * q[0] * q[0] - 0.1, 0.0, 0.0, {}, "parabola");
  c.x0 = {0.0, 1.0, 0.0, 0.0};
  rf::TimeFreezingOptions o;
  o.normal_acceleration = 50;
  const auto tf = rf::time_freezing(c, dense(o));
  Evaluator ev(tf);
  const double q1 = 0.4, q2 = 0.3 * q1 * q1 + 0.1 - 1e-12;  // just below the surface
  const Vec vs = {1.5, -2.0};
  Eigen::Matrix2d M;
  M << 2.0, 0.5, 0.5, 1.0;
  const Eigen::Vector2d n(-0.6 * q1, 1.0);
  const Eigen::Vector2d mn = M.ldlt().solve(n);
  const double D = n.dot(mn), vn = n.dot(Eigen::Vector2d(vs[0], vs[1]));
  ASSERT_LT(vn, 0.0);
  const double tau = -vn / (D * 50);
  EXPECT_NEAR(ev.D({q1, q2, vs[0], vs[1], 2.0})[0], D, 1e-12);
  const double h = 1e-6;
  const FrozenRun r = run_frozen_euler(ev, {q1, q2, vs[0], vs[1], 2.0}, h);
  EXPECT_NEAR(r.tau, tau, 2 * h);
  EXPECT_EQ(r.y[0], q1);
  EXPECT_EQ(r.y[1], q2);
  EXPECT_EQ(r.y[4], 2.0);
  // Hand formula evaluated at the numerically found duration: exact for a constant field.
  EXPECT_NEAR(r.y[2], vs[0] + 50 * r.tau * mn(0), 1e-9);
  EXPECT_NEAR(r.y[3], vs[1] + 50 * r.tau * mn(1), 1e-9);
  EXPECT_NEAR(n(0) * r.y[2] + n(1) * r.y[3], 0.0, 2 * D * 50 * h);
  EXPECT_NEAR(r.y[2], vs[0] + 50 * tau * mn(0), 50 * 2 * h * std::abs(mn(0)) + 1e-12);
}

// §1.4 / §7 T7: planar frictional impact, M = I, n = (0, 1), b = (1, 0):
// v1⁺ = sign(v1⁻) max(|v1⁻| − μ|v2⁻|, 0), v2⁺ = 0. The stick cases slide on {v1 = 0} (Filippov
// chattering of explicit Euler between the pos and neg fields, amplitude μ a_n h).
TEST(TimeFreezingJumps, T7PlanarFrictionalImpactEuler) {
  struct Case {
    double v1, v2, mu, expected;
  };
  const Case cases[] = {
      {3, -4.42945, 0.5, 0.785275}, {3, -4.42945, 0.8, 0.0}, {-2, -1, 0.3, -1.7}, {0, -1, 0.5, 0.0}};
  for (const auto& k : cases) {
    SCOPED_TRACE("v- = (" + std::to_string(k.v1) + ", " + std::to_string(k.v2) +
                 "), mu = " + std::to_string(k.mu));
    rf::TimeFreezingOptions o;
    o.normal_acceleration = 10;
    const auto tf = rf::time_freezing(particle(k.mu), dense(o));
    Evaluator ev(tf);
    const double h = 1e-5;
    const FrozenRun r = run_frozen_euler(ev, {0.7, -1e-12, k.v1, k.v2, 0.45}, h);
    EXPECT_NEAR(r.tau, -k.v2 / 10, 2 * h);  // normal impulse a_n τ = |v2⁻|
    EXPECT_NEAR(r.y[2], k.expected, 1e-5 + 3 * k.mu * 10 * h);
    EXPECT_NEAR(r.y[3], 0.0, 2 * 10 * h);
    EXPECT_EQ(r.y[0], 0.7);
    EXPECT_EQ(r.y[4], 0.45);
  }
}

// §2.6, exact elastic field: M = 3 I, affine gap with offset and a non-unit normal
// (f_c = q1 + 2 q2 − 1), e = 0.5, k = 10. Integrating the auxiliary field over τ_jump from a
// touchdown point gives q⁺ = q_s, nᵀv⁺ = −e nᵀv⁻, v⁺ − v⁻ ∥ M⁻¹n, and f_c < 0 strictly inside.
TEST(TimeFreezingJumps, ElasticExactRestitutionGeneralGapAndMass) {
  for (double e : {0.5, 0.9, 1.0}) {
    SCOPED_TRACE("e = " + std::to_string(e));
    model::Cls c;
    auto q = c.add_positions({"q1", "q2"});
    c.add_velocities({"v1", "v2"});
    c.mass = sym::Matrix{{3.0, 0.0}, {0.0, 3.0}};
    c.forces = {0.0, -3 * 9.81};
    c.add_contact(q[0] + 2 * q[1] - 1, e);
    c.x0 = {1.0, 1.0, 0.0, 0.0};
    const auto tf = rf::time_freezing(c, dense());
    Evaluator ev(tf);
    const double tau = rf::elastic_jump_duration(10, e);
    const int n_steps = 20000;
    const double h = tau / n_steps;
    const Vec ys = {0.2, 0.4, 0.5, -1.5, 1.25};  // f_c = 0, nᵀv = −2.5
    auto aux = [&](const Vec& y) { return ev.field(1, y); };
    Vec y = ys;
    double max_gap = -1e300;
    for (int i = 0; i < n_steps; ++i) {
      y = rk4_step(aux, y, h);
      if (i < n_steps - 1) max_gap = std::max(max_gap, y[0] + 2 * y[1] - 1);
    }
    EXPECT_LT(max_gap, 0.0);
    EXPECT_NEAR(y[0], ys[0], 1e-8);
    EXPECT_NEAR(y[1], ys[1], 1e-8);
    EXPECT_NEAR(y[2] + 2 * y[3], e * 2.5, 1e-8);
    // v⁺ − v⁻ ∥ M⁻¹n = (1, 2)/3: the tangential part (in the kinetic metric) is unchanged.
    EXPECT_NEAR(2 * (y[2] - ys[2]) - (y[3] - ys[3]), 0.0, 1e-8);
    EXPECT_EQ(y[4], ys[4]);  // clock frozen
  }
}

// §2.6 correctness caveat: nosnoc's literal field with M = 3 (1-D, f_c = q, e = 0.5, k = 10) acts
// as a spring-damper with k/9 and c/9, whose restitution is exp(−πζ'/sqrt(1 − ζ'²)), ζ' = c/(6√k)
// ≈ 0.80 instead of 0.5. Integrated with RK4 up to the return to q = 0 (tolerance 1e-6).
TEST(TimeFreezingJumps, ElasticNosnocLiteralCaveat) {
  rf::TimeFreezingOptions o;
  o.elastic_mode = rf::TimeFreezingOptions::ElasticMode::NosnocLiteral;
  const auto tf = rf::time_freezing(ball(3.0, -3 * 9.81, 0.5), dense(o));
  Evaluator ev(tf);
  auto aux = [&](const Vec& y) { return ev.field(1, y); };
  Vec y = {0.0, -2.0, 0.0};
  const double h = 1e-5;
  Vec prev = y;
  y = rk4_step(aux, y, h);
  while (y[0] < 0.0) {
    prev = y;
    y = rk4_step(aux, y, h);
  }
  const double s = prev[0] / (prev[0] - y[0]);  // linear interpolation to q = 0
  const double v_plus = prev[1] + s * (y[1] - prev[1]);
  const double zeta = rf::damping_from_restitution(10, 0.5) / (6 * std::sqrt(10.0));
  const double expected = std::exp(-std::numbers::pi * zeta / std::sqrt(1 - zeta * zeta));
  EXPECT_NEAR(expected, 0.80, 0.01);
  EXPECT_NEAR(v_plus / 2.0, expected, 1e-6);
}

// §7 T2: the spring-damper from (0, v_s) for τ_jump ends at (0, −γ v_s) with q < 0 strictly inside,
// for every (k, γ) row of T1 and v_s ∈ {−1, −14.0071410359}; built from a JumpSystem (bouncing ball).
TEST(TimeFreezingJumps, T2SpringDamperEndpoint) {
  const double rows[][2] = {{20, 0.9}, {10, 0.5},  {10, 0.9}, {100, 0.9},
                            {10, 1.0}, {100, 1.0}, {1, 0.5},  {10, 0.1}};
  for (const auto& row : rows) {
    model::JumpSystem js;
    auto x = js.add_states({"q", "v"});
    js.f = {x[1], -9.81};
    js.constraints = {x[0]};
    js.stiffness = row[0];
    js.restitution = row[1];
    js.x0 = {10, 0};
    const auto tf = rf::time_freezing(js, dense());
    Evaluator ev(tf);
    auto aux = [&](const Vec& y) { return ev.field(1, y); };
    for (double vs : {-1.0, -14.0071410359}) {
      SCOPED_TRACE("k = " + std::to_string(row[0]) + ", gamma = " + std::to_string(row[1]) +
                   ", v_s = " + std::to_string(vs));
      const double tau = rf::elastic_jump_duration(row[0], row[1]);
      const int n = 20000;
      Vec y = {0.0, vs, 3.0};
      double max_q = -1e300;
      for (int i = 0; i < n; ++i) {
        y = rk4_step(aux, y, tau / n);
        if (i < n - 1) max_q = std::max(max_q, y[0]);
      }
      EXPECT_LT(max_q, 0.0);
      EXPECT_NEAR(y[0], 0.0, 1e-8 * std::abs(vs));
      EXPECT_NEAR(y[1], -row[1] * vs, 1e-8 * std::abs(vs));
      EXPECT_EQ(y[2], 3.0);
    }
  }
}

// [L] Sec. III-B: orthogonal walls q1 >= 0, q2 >= 0, simultaneous impact in the corner with
// v⁻ = (−1, −3): the summed corner field returns to (0, 0) after one τ_jump with v⁺ = γ (1, 3).
// And an oblique affine wall ψ = q1 + q2 − 1: only the normal velocity is reflected (times γ).
TEST(TimeFreezingJumps, JumpSystemCornerAndObliqueWall) {
  const double gamma = 0.8, k = 50;
  const double tau = rf::elastic_jump_duration(k, gamma);
  {
    model::JumpSystem js;
    auto x = js.add_states({"q1", "q2", "v1", "v2"});
    js.f = {x[2], x[3], 0.0, -10.0};
    js.constraints = {x[0], x[1]};
    js.restitution = gamma;
    js.stiffness = k;
    js.x0 = {0.3, 0.45, -1, 0};
    const auto tf = rf::time_freezing(js, dense());
    Evaluator ev(tf);
    Vec y = {0.0, 0.0, -1.0, -3.0, 0.3};
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      y = rk4_step([&](const Vec& z) { return ev.field(3, z); }, y, tau / n);
      if (i < n - 1) {
        EXPECT_EQ(ev.region(y), 3u);  // both walls violated throughout
      }
    }
    EXPECT_NEAR(y[0], 0.0, 1e-8);
    EXPECT_NEAR(y[1], 0.0, 1e-8);
    EXPECT_NEAR(y[2], gamma * 1.0, 1e-8);
    EXPECT_NEAR(y[3], gamma * 3.0, 1e-8);
    EXPECT_EQ(y[4], 0.3);
  }
  {
    model::JumpSystem js;
    auto x = js.add_states({"q1", "q2", "v1", "v2"});
    js.f = {x[2], x[3], 0.0, -10.0};
    js.constraints = {x[0] + x[1] - 1};
    js.restitution = gamma;
    js.stiffness = k;
    js.x0 = {1, 1, 0, 0};
    const auto tf = rf::time_freezing(js, dense());
    Evaluator ev(tf);
    const Vec ys = {0.25, 0.75, 2.0, -3.0, 1.0};  // ψ = 0, nᵀv = −1, tangential (1, −1)·v = 5
    Vec y = ys;
    const int n = 20000;
    for (int i = 0; i < n; ++i) y = rk4_step([&](const Vec& z) { return ev.field(1, z); }, y, tau / n);
    EXPECT_NEAR(y[0], ys[0], 1e-8);
    EXPECT_NEAR(y[1], ys[1], 1e-8);
    EXPECT_NEAR(y[2] + y[3], gamma * 1.0, 1e-8);
    EXPECT_NEAR(y[2] - y[3], 5.0, 1e-8);
  }
}

// §6.1 ([L] bouncing ball, q0 = 10, v0 = 0, γ = 0.9, k = 20, g = 9.81): the whole time-frozen PSS
// integrated with RK4 (region by sign(c) at each step start) gives y(τ = 3) = (7.25206461,
// 4.07878565, 2.29712358), i.e. one free fall, one frozen bounce of τ_jump = 0.7028764201 and a
// rise. Tolerance 2e-3: the fixed step does not locate the two switches (error O(h) each).
TEST(TimeFreezingJumps, SeedBouncingBallFirstBounce) {
  model::JumpSystem js;
  auto x = js.add_states({"q", "v"});
  js.f = {x[1], -9.81};
  js.constraints = {x[0]};
  js.restitution = 0.9;
  js.stiffness = 20;
  js.x0 = {10, 0};
  const auto tf = rf::time_freezing(js, dense());
  Evaluator ev(tf);
  Vec y = tf.pss.x0;
  const double h = 1e-4;
  const int n = 30000;
  for (int i = 0; i < n; ++i) {
    const std::size_t r = ev.region(y);
    y = rk4_step([&](const Vec& z) { return ev.field(r, z); }, y, h);
  }
  EXPECT_NEAR(y[0], 7.25206461, 2e-3);
  EXPECT_NEAR(y[1], 4.07878565, 2e-3);
  EXPECT_NEAR(y[2], 2.29712358, 2e-3);
  EXPECT_NEAR(3.0 - y[2], 0.7028764201, 2e-3);  // the clock lost exactly one τ_jump
}
