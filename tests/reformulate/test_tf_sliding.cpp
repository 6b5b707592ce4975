// Persistent contact as a sliding mode of the time-frozen PSS: θ_ode = γ = D a_n/(D a_n − φ).
// Sources: time_freezing.md §2.7 ([A] Thm. 4: stability of Σ, sliding-mode slowdown; examples
// 0.5 for a_n = g, 0.910664 for a_n = 100 and 0.953243 for a_n = 200 with g = 9.81) and §7 T6
// (closed form 0.9106638740, 0.9532434107; tolerance 1e-9). φ and D a_n are computed from the fields
// (∇c_vnᵀ f_ode and ∇c_vnᵀ f_aux, with the Jacobian of the switching functions), not assumed.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "tf_test_support.hpp"

using namespace tftest;

namespace {

struct Sliding {
  double phi, Dan, theta_ode;
  Vec field;  // θ f_ode + (1 − θ) f_aux
};

/// Filippov sliding on Σ = {f_c = 0, v_n = 0} between the ODE region (0) and the auxiliary region
/// `aux` of a single-contact model: θ from ∇c_vnᵀ(θ f_ode + (1 − θ) f_aux) = 0.
Sliding sliding_on_sigma(const Evaluator& ev, const Vec& y, std::size_t aux) {
  const std::size_t ny = y.size();
  const Vec jac = ev.switching_jacobian(y);
  const Vec grad_gap(jac.begin(), jac.begin() + static_cast<std::ptrdiff_t>(ny));
  const Vec grad_vn(jac.begin() + static_cast<std::ptrdiff_t>(ny),
                    jac.begin() + static_cast<std::ptrdiff_t>(2 * ny));
  const Vec f_ode = ev.field(0, y), f_aux = ev.field(aux, y);
  // Stability of Σ (§2.7): the gap does not move along either field on Σ.
  EXPECT_NEAR(dot(grad_gap, f_ode), 0.0, 1e-12);
  EXPECT_NEAR(dot(grad_gap, f_aux), 0.0, 1e-12);
  Sliding s;
  s.phi = dot(grad_vn, f_ode);
  s.Dan = dot(grad_vn, f_aux);
  s.theta_ode = s.Dan / (s.Dan - s.phi);
  s.field = Vec(ny);
  for (std::size_t i = 0; i < ny; ++i) s.field[i] = s.theta_ode * f_ode[i] + (1 - s.theta_ode) * f_aux[i];
  EXPECT_NEAR(dot(grad_vn, s.field), 0.0, 1e-10);  // stays on Σ
  return s;
}

}  // namespace

// §7 T6 / §2.7: particle resting on the ground (M = I, g = 9.81, v1 = 1, u = 0), D = 1, φ = −g:
// dt/dτ = θ_ode = a_n/(a_n + g) = 0.5 (a_n = g), 0.9106638740 (a_n = 100), 0.9532434107 (a_n = 200).
TEST(TimeFreezingSliding, SlowdownParticleAtRest) {
  const struct { double an, expected; } cases[] = {{9.81, 0.5}, {100, 0.9106638740}, {200, 0.9532434107}};
  for (const auto& k : cases) {
    SCOPED_TRACE("a_n = " + std::to_string(k.an));
    rf::TimeFreezingOptions o;
    o.normal_acceleration = k.an;
    const auto tf = rf::time_freezing(particle(0.0), dense(o));  // μ = 0: one normal field, 4 regions
    Evaluator ev(tf);
    ASSERT_EQ(ev.n_regions(), 4u);
    const Vec y = {0.3, 0.0, 1.0, 0.0, 0.7};  // on Σ, sliding along the ground
    const Sliding s = sliding_on_sigma(ev, y, 3);
    EXPECT_NEAR(s.phi, -9.81, 1e-12);
    EXPECT_NEAR(s.Dan, k.an, 1e-12);
    EXPECT_NEAR(s.theta_ode, k.expected, 1e-9);
    EXPECT_NEAR(s.field[4], k.expected, 1e-9);        // the clock runs at γ
    EXPECT_NEAR(s.field[0], k.expected * 1.0, 1e-9);  // y' = γ (f_DAE, 1): q1' = γ v1
    EXPECT_NEAR(s.field[3], 0.0, 1e-12);              // and v' = γ f_DAE = 0
  }
  EXPECT_NEAR(100 / (100 + 9.81), 0.910664, 5e-7);
  EXPECT_NEAR(200 / (200 + 9.81), 0.953243, 5e-7);
}

// With friction the two auxiliary fields (pos/neg) share the normal part, so the slowdown is the
// same (§2.7, [A] Thm. 7 for slip): particle slipping with v1 > 0 uses the pos field.
TEST(TimeFreezingSliding, SlowdownWithFrictionSlip) {
  rf::TimeFreezingOptions o;
  o.normal_acceleration = 100;
  const auto tf = rf::time_freezing(particle(0.3), dense(o));
  Evaluator ev(tf);
  const Vec y = {0.3, 0.0, 2.0, 0.0, 0.7};
  const Sliding s = sliding_on_sigma(ev, y, 6);  // c_t = v1 > 0: pos field
  EXPECT_NEAR(s.theta_ode, 0.9106638740, 1e-9);
  // Slip: v1' = γ · (−μ λ_n) with λ_n = −φ/D = g.
  EXPECT_NEAR(s.field[2], 0.9106638740 * (-0.3 * 9.81), 1e-9);
}

// M = 3 with force −3g: D = 1/3, φ = nᵀM⁻¹f_v = −g, θ = (a_n/3)/(a_n/3 + g).
TEST(TimeFreezingSliding, SlowdownWithMass) {
  const auto tf = rf::time_freezing(ball(3.0, -3 * 9.81, 0.0, 1.0, 0.0), dense());
  Evaluator ev(tf);
  const Sliding s = sliding_on_sigma(ev, {0.0, 0.0, 0.2}, 3);
  EXPECT_NEAR(s.Dan, 100.0 / 3, 1e-12);
  EXPECT_NEAR(s.phi, -9.81, 1e-12);
  EXPECT_NEAR(s.theta_ode, (100.0 / 3) / (100.0 / 3 + 9.81), 1e-12);
}

// Curved gap, non-diagonal M(q): φ = nᵀM⁻¹f_v + (∇_q(nᵀv))ᵀ v includes the curvature term
// ([A] Sec. 3.1 / spec §1.3); θ_ode = D a_n/(D a_n − φ) with D, φ from hand formulas (Eigen).
TEST(TimeFreezingSliding, SlowdownCurvedGapGeneralMass) {
  model::Cls c;
  auto q = c.add_positions({"q1", "q2"});
  c.add_velocities({"v1", "v2"});
  c.mass = sym::Matrix{{2.0 + 0.5 * sym::cos(q[0]), 0.3}, {0.3, 1.0}};
  c.forces = {0.0, -9.81};
  c.add_contact(q[1] + 0.25 * q[0] * q[0], 0.0, 0.0, {}, "valley");  // f_c = q2 + q1²/4
  c.x0 = {0.0, 0.0, 0.0, 0.0};
  rf::TimeFreezingOptions o;
  o.normal_acceleration = 80;
  const auto tf = rf::time_freezing(c, dense(o));
  Evaluator ev(tf);
  const double q1 = 0.6, q2 = -0.25 * q1 * q1;
  // Tangential velocity on the surface: n = (q1/2, 1), v ⟂ n.
  const double v1 = 1.2, v2 = -0.5 * q1 * v1;
  const Vec y = {q1, q2, v1, v2, 0.4};
  const Sliding s = sliding_on_sigma(ev, y, 3);
  Eigen::Matrix2d M;
  M << 2.0 + 0.5 * std::cos(q1), 0.3, 0.3, 1.0;
  const Eigen::Vector2d n(0.5 * q1, 1.0), fv(0.0, -9.81);
  const double D = n.dot(M.ldlt().solve(n));
  const double phi = n.dot(M.ldlt().solve(fv)) + 0.5 * v1 * v1;  // ∇_q(nᵀv)ᵀ v = (v1/2, 0)·v
  EXPECT_NEAR(s.Dan, D * 80, 1e-10);
  EXPECT_NEAR(s.phi, phi, 1e-10);
  EXPECT_NEAR(s.theta_ode, D * 80 / (D * 80 - phi), 1e-12);
  EXPECT_GT(s.theta_ode, 0.0);
  EXPECT_LT(s.theta_ode, 1.0);
}
