// Closed-form constants of the time-freezing reformulation.
// Source: time_freezing.md §1.2 (c(k, e), τ_jump), §7 T1 (table, closed form: tolerance 1e-9
// absolute on 10-digit values, 1e-12 on exp(−cπ/(2ω)) = e), §6.1 / seed 002 ([L]: c = 0.2998 for
// k = 20, γ = 0.9), §2.6 (nosnoc's old division formula must not be reproduced), §2.7 and §7 T4
// (inelastic τ_jump = −nᵀv/(D a_n)).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "stasis/error.hpp"
#include "stasis/reformulate/time_freezing.hpp"

namespace rf = stasis::reformulate;

namespace {

struct T1Row {
  double k, e, c, tau;
};

// time_freezing.md §7 T1.
const T1Row kT1[] = {
    {20, 0.9, 0.2997981228, 0.7028764201}, {10, 0.5, 1.3626492365, 1.0173523193},
    {10, 0.9, 0.2119892856, 0.9940173660}, {100, 0.9, 0.6703689821, 0.3143358910},
    {10, 1.0, 0.0, 0.9934588266},          {100, 1.0, 0.0, 0.3141592654},
    {1, 0.5, 0.4309075239, 3.2171505117},  {10, 0.1, 3.7387927142, 1.2317265326},
};

}  // namespace

TEST(TimeFreezingConstants, T1DampingAndJumpDurationTable) {
  for (const auto& r : kT1) {
    SCOPED_TRACE("k = " + std::to_string(r.k) + ", e = " + std::to_string(r.e));
    const double c = rf::damping_from_restitution(r.k, r.e);
    const double tau = rf::elastic_jump_duration(r.k, r.e);
    EXPECT_NEAR(c, r.c, 1e-9);
    EXPECT_NEAR(tau, r.tau, 1e-9);
    // τ_jump = π/ω with ω = sqrt(k − c²/4), and the restitution of one return is exactly e.
    const double omega = std::sqrt(r.k - c * c / 4);
    EXPECT_NEAR(tau, std::numbers::pi / omega, 1e-12);
    EXPECT_NEAR(std::exp(-c * std::numbers::pi / (2 * omega)), r.e, 1e-12);
    EXPECT_LT(c * c, 4 * r.k);  // always underdamped
  }
}

TEST(TimeFreezingConstants, SeedBouncingBallDamping) {
  // [L] (seed 002) and §6.1: q0 = 10, γ = 0.9, k = 20 gives c = 0.2998 (4 digits in the paper).
  EXPECT_NEAR(rf::damping_from_restitution(20, 0.9), 0.2998, 5e-5);
  // §2.6 test string: k = 10, e = 0.5 gives 1.36265 (nosnoc TestElastic), not the old 1.4103497835.
  EXPECT_NEAR(rf::damping_from_restitution(10, 0.5), 1.36265, 5e-6);
  EXPECT_GT(std::abs(rf::damping_from_restitution(10, 0.5) - 1.4103497835), 1e-2);
  // nosnoc's T_res = 2π/sqrt(4k − c²) is the same number (§1.2).
  const double c = rf::damping_from_restitution(100, 0.9);
  EXPECT_NEAR(rf::elastic_jump_duration(100, 0.9), 2 * std::numbers::pi / std::sqrt(400 - c * c), 1e-12);
}

TEST(TimeFreezingConstants, CriticalDampingLimit) {
  // §1.2: as e → 0+, c → 2√k (critical damping); e = 0 itself is rejected (never returns).
  EXPECT_NEAR(rf::damping_from_restitution(10, 1e-12), 2 * std::sqrt(10.0), 0.05);
  EXPECT_THROW(rf::damping_from_restitution(10, 0.0), stasis::Error);
  EXPECT_THROW(rf::damping_from_restitution(10, -0.1), stasis::Error);
  EXPECT_THROW(rf::damping_from_restitution(10, 1.5), stasis::Error);
  EXPECT_THROW(rf::damping_from_restitution(0, 0.5), stasis::Error);
  EXPECT_THROW(rf::damping_from_restitution(-1, 0.5), stasis::Error);
  EXPECT_THROW(rf::damping_from_restitution(std::nan(""), 0.5), stasis::Error);
  EXPECT_THROW(rf::elastic_jump_duration(10, 0.0), stasis::Error);
  EXPECT_THROW(rf::elastic_jump_duration(0, 0.5), stasis::Error);
}

TEST(TimeFreezingConstants, T4InelasticJumpDuration) {
  // §7 T4: h0 = 0.8, g = 9.81, a_n = 100: v_s = −3.9618177646, τ_jump = 0.0396181776;
  // M = 3 (D = 1/3): τ_jump = 0.1188545329. Closed form, 1e-9.
  const double vs = -std::sqrt(2 * 9.81 * 0.8);
  EXPECT_NEAR(vs, -3.9618177646, 1e-9);
  EXPECT_NEAR(rf::inelastic_jump_duration(vs, 1.0, 100.0), 0.0396181776, 1e-9);
  EXPECT_NEAR(rf::inelastic_jump_duration(vs, 1.0 / 3.0, 100.0), 0.1188545329, 1e-9);
  EXPECT_EQ(rf::inelastic_jump_duration(0.5, 1.0, 100.0), 0.0);  // separating: no jump
  EXPECT_THROW(rf::inelastic_jump_duration(vs, 0.0, 100.0), stasis::Error);
  EXPECT_THROW(rf::inelastic_jump_duration(vs, 1.0, 0.0), stasis::Error);
}
