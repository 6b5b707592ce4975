// End-to-end regression tests of the time-freezing simulation examples that no other test runs:
// `stasis simulate` on examples/time_freezing/*.yaml, the file unchanged (overrides only where the
// file's header gives them), checked against the figures of the file's header (closed forms from
// the spec time_freezing.md §7, or the header's reference integration). Tolerances are stated per
// figure: tight enough to catch a regression, loose enough for what the solver achieves today
// (measured values in the comments). Each run takes about 5-20 s (IPOPT on every step).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace cli_test;

std::string example(const std::string& name) {
  return std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/" + name;
}

/// Runs `stasis simulate` on the example with extra arguments; returns result.json.
nlohmann::json simulate(const std::string& name, const std::string& out_name, const std::string& args = "") {
  const std::string out = temp_dir(out_name);
  const CliRun r = run("simulate " + example(name) + args + " -q --out " + out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return read_json(out + "/result.json");
}

double value(const nlohmann::json& j) { return j.get<double>(); }

/// The last entry of state `name` in physical time.
double final_state(const nlohmann::json& j, const char* name) { return value(j["states"][name].back()); }

}  // namespace

// examples/time_freezing/two_contacts.yaml, spec time_freezing.md §7 T11 (closed form, the file's
// header): floor impact at t = 0.2316624790 with v2- = -3.3166247904 and q1 = 0.4525062814, a
// frictionless slide with v1 = -1.5, wall impact at t = 0.5333333333 (v1 -> 0, impulse 1.5), rest in
// the corner: x(1.5) = 0. Measured: impact times within 1.1e-9, impact states within 3e-9, final
// state within 2.4e-6 (the particle drifts off the wall at ~2e-6 after the wall impact). Tolerances:
// impact times and states 1e-6, final state 1e-5. Spec T18: exactly 2 jumps.
TEST(CliTimeFreezingExamples, TwoContactsT11) {
  const auto j = simulate("two_contacts.yaml", "two_contacts");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  ASSERT_EQ(j["events"].size(), 2u);
  const auto& floor = j["events"][0];
  EXPECT_EQ(floor["kind"], "impact");
  EXPECT_EQ(floor["contact_name"], "floor");
  EXPECT_NEAR(value(floor["time"]), 0.2316624790, 1e-6);
  EXPECT_NEAR(value(floor["before"]["v2"]), -3.3166247904, 1e-6);
  EXPECT_NEAR(value(floor["before"]["q1"]), 0.4525062814, 1e-6);
  EXPECT_NEAR(value(floor["before"]["v1"]), -1.5, 1e-6);
  EXPECT_NEAR(value(floor["after"]["v2"]), 0.0, 1e-6);
  EXPECT_NEAR(value(floor["after"]["v1"]), -1.5, 1e-6);  // frictionless: v1 unchanged
  EXPECT_NEAR(value(floor["impulse"]), 3.3166247904, 1e-6);
  const auto& wall = j["events"][1];
  EXPECT_EQ(wall["kind"], "impact");
  EXPECT_EQ(wall["contact_name"], "wall");
  EXPECT_NEAR(value(wall["time"]), 0.5333333333, 1e-6);
  EXPECT_NEAR(value(wall["before"]["v1"]), -1.5, 1e-6);
  EXPECT_NEAR(value(wall["after"]["v1"]), 0.0, 1e-6);
  EXPECT_NEAR(value(wall["impulse"]), 1.5, 1e-6);
  EXPECT_NEAR(value(j["time"].back()), 1.5, 1e-12);
  for (const char* x : {"q1", "q2", "v1", "v2"}) EXPECT_NEAR(final_state(j, x), 0.0, 1e-5) << x;
}

// The simultaneous-impact variant of two_contacts.yaml (the -o overrides of its header; spec T11
// "Simultaneous variant"): both gaps close at t = 0.3 with v- = (-1, -3), v+ = (0, 0), one impact
// event on both contacts with impulses (1, 3); the frozen phase lasts max(tau1, tau2) = 0.3
// (tau_i = |v_i-|/a_n, a_n = 10); final x = 0. Measured: impact time exact to 4e-17, velocities
// within 1e-8, frozen duration within 6e-10, final state within 2.5e-6. Tolerances 1e-6 (impact),
// 1e-5 (final state).
TEST(CliTimeFreezingExamples, TwoContactsSimultaneousImpactT11) {
  const auto j =
      simulate("two_contacts.yaml", "two_contacts_simultaneous",
               " -o model.cls.x0.q1=0.3 -o model.cls.x0.q2=0.45 -o model.cls.x0.v1=-1 -o model.cls.x0.v2=0");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  ASSERT_EQ(j["events"].size(), 1u);
  const auto& e = j["events"][0];
  EXPECT_EQ(e["kind"], "impact");
  ASSERT_EQ(e["contacts"].size(), 2u);
  EXPECT_EQ(e["contacts"][0], 0);
  EXPECT_EQ(e["contacts"][1], 1);
  EXPECT_NEAR(value(e["time"]), 0.3, 1e-6);
  EXPECT_NEAR(value(e["before"]["v1"]), -1.0, 1e-6);
  EXPECT_NEAR(value(e["before"]["v2"]), -3.0, 1e-6);
  EXPECT_NEAR(value(e["after"]["v1"]), 0.0, 1e-6);
  EXPECT_NEAR(value(e["after"]["v2"]), 0.0, 1e-6);
  EXPECT_NEAR(value(e["impulse"][0]), 1.0, 1e-6);
  EXPECT_NEAR(value(e["impulse"][1]), 3.0, 1e-6);
  EXPECT_NEAR(value(e["frozen_duration"]), 0.3, 1e-6);
  EXPECT_NEAR(value(j["time"].back()), 1.5, 1e-12);
  for (const char* x : {"q1", "q2", "v1", "v2"}) EXPECT_NEAR(final_state(j, x), 0.0, 1e-5) << x;
}

// examples/time_freezing/falling_rod.yaml against the event-driven reference of its header (RK4 with
// bisection on the events): impact at t = sqrt(2·0.2/g) = 0.2019275109, v- = (0, -1.9809088823, 0),
// impulse 1.6308248223, v+ = (-1.2610386496, 0, -2.6174623779); then persistent sliding contact with
// the center's x fixed at 0.5 cos 1.3 = 0.1337501838; at t = 0.5 q = (-0.3607329930, 0,
// 0.1486979568), v = (-0.3814292385, 0, -5.1492100743). Measured: impact time 1.7e-9 late, impact
// velocities and impulse within 6e-8, x(0.5) within 2.1e-6 (positions) and 7.4e-6 (velocities).
// Tolerances: impact 1e-6, x(0.5) 2e-5 (about 3x the measured error of the sliding phase).
TEST(CliTimeFreezingExamples, FallingRod) {
  const auto j = simulate("falling_rod.yaml", "falling_rod");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  ASSERT_EQ(j["events"].size(), 1u);  // one impact, no zero-impulse events in the sliding phase
  const auto& e = j["events"][0];
  EXPECT_EQ(e["kind"], "impact");
  EXPECT_EQ(e["contact_name"], "lower_end");
  EXPECT_NEAR(value(e["time"]), 0.2019275109, 1e-6);
  EXPECT_NEAR(value(e["before"]["vx"]), 0.0, 1e-6);
  EXPECT_NEAR(value(e["before"]["vy"]), -1.9809088823, 1e-6);
  EXPECT_NEAR(value(e["before"]["w"]), 0.0, 1e-6);
  EXPECT_NEAR(value(e["impulse"]), 1.6308248223, 1e-6);
  EXPECT_NEAR(value(e["after"]["vx"]), -1.2610386496, 1e-6);
  EXPECT_NEAR(value(e["after"]["vy"]), 0.0, 1e-6);
  EXPECT_NEAR(value(e["after"]["w"]), -2.6174623779, 1e-6);
  EXPECT_NEAR(value(e["after"]["th"]), 1.3, 1e-6);  // positions do not move during the jump
  // No horizontal force: the center of mass keeps x = 0.5 cos 1.3 at every physical point.
  const auto& s = j["states"];
  for (std::size_t i = 0; i < j["time"].size(); ++i)
    EXPECT_NEAR(value(s["x"][i]) + 0.5 * std::cos(value(s["th"][i])), 0.1337501838, 2e-5)
        << value(j["time"][i]);
  EXPECT_NEAR(value(j["time"].back()), 0.5, 1e-12);
  EXPECT_NEAR(final_state(j, "x"), -0.3607329930, 2e-5);
  EXPECT_NEAR(final_state(j, "y"), 0.0, 2e-5);
  EXPECT_NEAR(final_state(j, "th"), 0.1486979568, 2e-5);
  EXPECT_NEAR(final_state(j, "vx"), -0.3814292385, 2e-5);
  EXPECT_NEAR(final_state(j, "vy"), 0.0, 2e-5);
  EXPECT_NEAR(final_state(j, "w"), -5.1492100743, 2e-5);
}

// examples/time_freezing/ball_3d_friction.yaml, spec time_freezing.md §7 T10 (closed form, the
// file's header): impact at t = sqrt(2/g) = 0.4472135955 with vz- = -4.4721359550 at
// q_xy = (0.8944271910, 0.4472135955); v_t+ = (1.2, 0.6); slip with deceleration mu g = 2 along
// -(2, 1)/sqrt(5), stick at t = 1.1180339887; final q = (1.2969194297, 0.6484597148, 0) with
// |v_t| <= eps_t = 1e-7.
// Measured today: impact time within 1e-10; the recovered post-impact state is taken at the end of
// the element that holds the end of the jump and the first 2.8e-3 of running time (qx, qy move by
// 3.3e-3, 1.7e-3 "while frozen", the file's two warnings), so v_t+ = (1.19502, 0.59751) is the
// closed-form slip speed at t = 0.45 (1.33607, within 1e-6), 5e-3 below 1.3416 in magnitude, exact
// in direction. The stick transition is located at an element boundary: |v_t| first reaches eps_t
// at t = 1.1180348 (closed form 1.1180340). Final q 7.0e-6 (qx) and 3.5e-6 (qy) short of the
// closed form, all of it from the landing step (q at t = 0.6 is already 6.9e-6 short; the same
// step as particle_friction's 2e-5 below: the element holding the end of the jump integrates its
// 2.8e-3 of slip by its last stage alone, dt^2 mu g/2 = 7.8e-6 short; the file's header). Before
// the stick fix (slip direction regularized at delta = eps_t instead of eps_t/100, no direction
// guard) the element holding the stop moved |v_t| from 0.0356 to eps_t with stage velocities on
// both sides of 0 and lost the remaining slip distance |v_t|^2/(2 mu g) = 3.2e-4: final q 2.9e-4
// short. Tolerances: final q 2e-5, stop time
// 1e-5, v_t+ 1e-2 in magnitude and 1e-6 in direction, impact 1e-6. The spec's 1e-6 on the final
// q is the DISABLED_ test below.
TEST(CliTimeFreezingExamples, Ball3dFrictionT10) {
  const auto j = simulate("ball_3d_friction.yaml", "ball_3d_friction");
  ASSERT_EQ(j["status"], "converged");
  ASSERT_EQ(j["events"].size(), 1u);
  const auto& e = j["events"][0];
  EXPECT_EQ(e["kind"], "impact");
  EXPECT_NEAR(value(e["time"]), 0.4472135955, 1e-6);
  EXPECT_NEAR(value(e["before"]["vz"]), -4.4721359550, 1e-6);
  EXPECT_NEAR(value(e["before"]["qx"]), 0.8944271910, 1e-6);
  EXPECT_NEAR(value(e["before"]["qy"]), 0.4472135955, 1e-6);
  EXPECT_NEAR(value(e["before"]["vx"]), 2.0, 1e-6);
  EXPECT_NEAR(value(e["before"]["vy"]), 1.0, 1e-6);
  EXPECT_NEAR(value(e["impulse"]), 4.4721359550, 1e-6);
  const double vx = value(e["after"]["vx"]), vy = value(e["after"]["vy"]);
  EXPECT_NEAR(std::hypot(vx, vy), std::hypot(1.2, 0.6), 1e-2);
  EXPECT_NEAR(vy / vx, 0.5, 1e-6);  // the friction impulse acts against v_t: direction (2, 1) kept
  EXPECT_NEAR(value(e["after"]["vz"]), 0.0, 1e-6);
  EXPECT_NEAR(value(j["time"].back()), 3.0, 1e-12);
  EXPECT_NEAR(final_state(j, "qx"), 1.2969194297, 2e-5);
  EXPECT_NEAR(final_state(j, "qy"), 0.6484597148, 2e-5);
  EXPECT_NEAR(final_state(j, "qz"), 0.0, 1e-6);
  EXPECT_NEAR(final_state(j, "vz"), 0.0, 1e-6);
  // Stuck: |v_t| <= eps_t up to the drift of the stick ball (measured 1.0000e-7).
  EXPECT_LE(std::hypot(final_state(j, "vx"), final_state(j, "vy")), 1.1e-7);
  // The stop is an element boundary: the first point with |v_t| <= 1.1 eps_t is at the stick time.
  const auto& t = j["time"];
  const auto& sx = j["states"]["vx"];
  const auto& sy = j["states"]["vy"];
  std::size_t stop = 0;
  while (stop < t.size() && std::hypot(value(sx[stop]), value(sy[stop])) > 1.1e-7) ++stop;
  ASSERT_LT(stop, t.size());
  EXPECT_NEAR(value(t[stop]), 1.1180339887, 1e-5);
}

// Spec T10 to its own tolerance 1e-6 on the final q. OPEN DEFECT: the stick transition is located
// now (see above), but the landing step leaves q 7.0e-6 short (the element that holds the end of
// the jump and the start of the slip, as in particle_friction), so this fails today; run it with
// --gtest_also_run_disabled_tests.
TEST(CliTimeFreezingExamples, DISABLED_Ball3dFrictionT10SpecTolerance) {
  const auto j = simulate("ball_3d_friction.yaml", "ball_3d_friction_spec");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_NEAR(final_state(j, "qx"), 1.2969194297, 1e-6);
  EXPECT_NEAR(final_state(j, "qy"), 0.6484597148, 1e-6);
}

// examples/time_freezing/particle_inelastic.yaml, spec time_freezing.md §7 T8 (closed form, the
// file's header): impact at t = sqrt(0.012) = 0.1095445115 with v2- = -1.0954451150, jump of
// tau_jump = 0.1095445115 numerical time, sliding at gamma = 0.5, so the speed of time is s = 2.0
// exactly and x(0.2) = (0.6, 0, 3, 0). Measured: every figure within 1e-9. Tolerance 1e-7.
TEST(CliTimeFreezingExamples, ParticleInelasticT8) {
  const auto j = simulate("particle_inelastic.yaml", "particle_inelastic");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  ASSERT_EQ(j["events"].size(), 1u);
  const auto& e = j["events"][0];
  EXPECT_NEAR(value(e["time"]), 0.1095445115, 1e-7);
  EXPECT_NEAR(value(e["before"]["v2"]), -1.0954451150, 1e-7);
  EXPECT_NEAR(value(e["before"]["q1"]), 3 * 0.1095445115, 1e-7);
  EXPECT_NEAR(value(e["after"]["v2"]), 0.0, 1e-7);
  EXPECT_NEAR(value(e["after"]["v1"]), 3.0, 1e-7);  // frictionless
  EXPECT_NEAR(value(e["frozen_duration"]), 0.1095445115, 1e-7);
  ASSERT_EQ(j["numerical"]["speed_of_time"].size(), 1u);
  EXPECT_NEAR(value(j["numerical"]["speed_of_time"][0]), 2.0, 1e-7);
  EXPECT_NEAR(value(j["time"].back()), 0.2, 1e-12);
  EXPECT_NEAR(final_state(j, "q1"), 0.6, 1e-7);
  EXPECT_NEAR(final_state(j, "q2"), 0.0, 1e-7);
  EXPECT_NEAR(final_state(j, "v1"), 3.0, 1e-7);
  EXPECT_NEAR(final_state(j, "v2"), 0.0, 1e-7);
}

// examples/time_freezing/particle_friction.yaml (closed form of its header; spec §7 T7 for the
// impact law): impact at t_i = 0.1095445115 with v2- = -1.0954451150, v1+ = 3 - mu |v2-| =
// 2.8904554885; slip with v1(t) = 3 - t, q1(t) = 3 t - (t^2 - t_i^2)/2, so x(1) = (2.506, 0, 2, 0);
// the speed of time is 2 in the sliding steps after the impact (gamma = 0.5). Measured: impact within
// 1e-9, v1(1) within 2e-10, speeds of time within 1e-8, but q1(1) = 2.5059798 is 2.0e-5 short (the
// impact step; the header's observed value). Tolerances: impact 1e-6, v(1) and s 1e-6, q1(1) 5e-5.
TEST(CliTimeFreezingExamples, ParticleFriction) {
  const auto j = simulate("particle_friction.yaml", "particle_friction");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  ASSERT_EQ(j["events"].size(), 1u);
  const auto& e = j["events"][0];
  EXPECT_NEAR(value(e["time"]), 0.1095445115, 1e-6);
  EXPECT_NEAR(value(e["before"]["v2"]), -1.0954451150, 1e-6);
  EXPECT_NEAR(value(e["before"]["q1"]), 0.3286335345, 1e-6);
  EXPECT_NEAR(value(e["after"]["v1"]), 2.8904554885, 1e-6);
  EXPECT_NEAR(value(e["after"]["v2"]), 0.0, 1e-6);
  const auto& s = j["numerical"]["speed_of_time"];
  ASSERT_EQ(s.size(), 10u);
  EXPECT_NEAR(value(s[0]), 1.0, 1e-6);  // free flight: the clock runs at rate 1
  for (std::size_t k = 2; k < s.size(); ++k) EXPECT_NEAR(value(s[k]), 2.0, 1e-6) << k;
  EXPECT_NEAR(value(j["time"].back()), 1.0, 1e-12);
  // The slip at -mu g after the impact (issue #4, 1e-5): v1(t) = v1+ - mu g (t - t_i) at every
  // physical point after the jump (measured within 2e-10).
  const double t_i = std::sqrt(0.012);
  int slip_points = 0;
  for (std::size_t i = 0; i < j["time"].size(); ++i) {
    const double t = value(j["time"][i]);
    if (t <= t_i + 1e-6) continue;
    EXPECT_NEAR(value(j["states"]["v1"][i]), 2.8904554885 - 0.1 * 10.0 * (t - t_i), 1e-5) << "t = " << t;
    ++slip_points;
  }
  EXPECT_GE(slip_points, 9);
  EXPECT_NEAR(final_state(j, "q1"), 3.0 - (1.0 - 0.012) / 2, 5e-5);
  EXPECT_NEAR(final_state(j, "q2"), 0.0, 1e-6);
  EXPECT_NEAR(final_state(j, "v1"), 2.0, 1e-6);
  EXPECT_NEAR(final_state(j, "v2"), 0.0, 1e-6);
}

// A stick impact (issue #4; spec §7 T7's impact law v1+ = sign(v1-) max(|v1-| - mu |v2-|, 0)):
// particle_friction.yaml with mu = 0.5 and tangential speed 0.5, so mu |v2-| = 0.548 >= 0.5 and the
// impact stops the particle: impact at t_i = sqrt(2 h / g) = 0.1095445115 at q1 = 0.5 t_i =
// 0.0547722558, v+ = (0, 0), then rest (the friction cone holds the particle: no force pushes it),
// so x(1) = (0.0547722558, 0, 0, 0). Measured: impact time 7e-10, q1 within 1e-10, v+ exactly 0.
// Tolerance 1e-5 (the issue's).
TEST(CliTimeFreezingExamples, StickImpact) {
  const auto j = simulate("particle_friction.yaml", "stick_impact",
                          " -o model.cls.parameters.mu=0.5 -o model.cls.x0.v1=0.5");
  ASSERT_EQ(j["status"], "converged");
  ASSERT_EQ(j["events"].size(), 1u);
  const auto& e = j["events"][0];
  const double t_i = std::sqrt(2 * 0.06 / 10.0);
  EXPECT_NEAR(value(e["time"]), t_i, 1e-5);
  EXPECT_NEAR(value(e["before"]["v1"]), 0.5, 1e-5);
  EXPECT_NEAR(value(e["before"]["v2"]), -10.0 * t_i, 1e-5);
  EXPECT_NEAR(value(e["after"]["v1"]), 0.0, 1e-5);
  EXPECT_NEAR(value(e["after"]["v2"]), 0.0, 1e-5);
  EXPECT_NEAR(value(j["time"].back()), 1.0, 1e-12);
  EXPECT_NEAR(final_state(j, "q1"), 0.5 * t_i, 1e-5);
  EXPECT_NEAR(final_state(j, "q2"), 0.0, 1e-5);
  EXPECT_NEAR(final_state(j, "v1"), 0.0, 1e-5);
  EXPECT_NEAR(final_state(j, "v2"), 0.0, 1e-5);
}

// An elastic ball of mass 3 keeps its restitution (issue #4): a cls with M = 3, gravity force -3 g
// (g = 10), e = 0.5 (the exact elastic reformulation, spec §2.6), dropped from q = 0.2 at rest.
// Closed form: impacts at t = 0.2 (v- = -2, v+ = 1, impulse 3 * 3 = 9) and t = 0.4 (v- = -1,
// v+ = 0.5, impulse 4.5); x(0.45) = (0.0125, 0). Measured (Radau IIA 3 stages, 6 elements per
// step): restitution 0.499998 and 0.499974, impact times within 7.2e-7, q(0.45) within 1.4e-6.
// Tolerances: restitution 1e-3 (the issue asks 1e-2), impact times 1e-5, impulses 1e-3, final
// state 1e-4.
TEST(CliTimeFreezingExamples, ElasticBallOfMass3KeepsItsRestitution) {
  const std::string dir = temp_dir("elastic_mass3");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/ball.yaml";
  std::ofstream(file) << R"(kind: simulate
name: elastic_ball_mass3
model:
  cls:
    positions: [q]
    velocities: [v]
    parameters: {g: 10}
    mass: [[3]]
    forces: [-3*g]
    contacts:
      - {name: ground, gap: q, restitution: 0.5}
    x0: {q: 0.2, v: 0}
simulate:
  horizon: 0.45
  steps: 9
discretization:
  scheme: radau_iia
  dcs: step
  stages: 3
  elements: 6
)";
  const CliRun r = run("simulate " + file + " -q --out " + dir + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto j = read_json(dir + "/out/result.json");
  ASSERT_EQ(j["status"], "converged");
  ASSERT_EQ(j["events"].size(), 2u);
  const double times[] = {0.2, 0.4}, v_before[] = {-2.0, -1.0};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& e = j["events"][i];
    EXPECT_NEAR(value(e["time"]), times[i], 1e-5) << i;
    EXPECT_NEAR(value(e["before"]["v"]), v_before[i], 1e-3) << i;
    EXPECT_NEAR(value(e["after"]["v"]) / -value(e["before"]["v"]), 0.5, 1e-3) << i;
    EXPECT_NEAR(value(e["impulse"]), 3 * 1.5 * -v_before[i], 1e-3) << i;  // M (1 + e) |v-|
  }
  EXPECT_NEAR(final_state(j, "q"), 0.0125, 1e-4);
  EXPECT_NEAR(final_state(j, "v"), 0.0, 1e-4);
}

// examples/time_freezing/ball_in_box_elastic.yaml (closed form of its header): elastic impacts at
// t = 0.5 (floor), 0.75 (right wall), 1.5 (floor), 1.75 (left wall), 2.5 (floor), 2.75 (right wall),
// x(3) = (1.5, 1.25, -2, 0). The spring phases are integrated in 2 of 6 finite elements, so each jump
// has restitution 0.99949 instead of 1 (measured, all six) and the later impacts drift (measured
// 1.5e-3 at t = 2.75; final v2 off by 0.023). Tolerances: restitution |v+|/|v-| = 1 within 1e-3,
// impact times 5e-3, x(3) 5e-2 against the closed form; x(3) 1e-5 against the header's observed
// (1.503852, 1.246123, -1.996918, -0.023123) as a regression guard (update both together).
TEST(CliTimeFreezingExamples, BallInBoxElastic) {
  const auto j = simulate("ball_in_box_elastic.yaml", "ball_in_box_elastic");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  struct Impact {
    double time;
    int contact;  // 0: left wall q1 >= 0, 1: right wall 2 - q1 >= 0, 2: floor q2 >= 0
    const char* velocity;
  };
  const Impact expected[] = {{0.5, 2, "v2"},  {0.75, 1, "v1"}, {1.5, 2, "v2"},
                             {1.75, 0, "v1"}, {2.5, 2, "v2"},  {2.75, 1, "v1"}};
  ASSERT_EQ(j["events"].size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& e = j["events"][i];
    EXPECT_EQ(e["kind"], "impact") << i;
    EXPECT_EQ(e["contact"], expected[i].contact) << i;
    EXPECT_NEAR(value(e["time"]), expected[i].time, 5e-3) << i;
    const double before = value(e["before"][expected[i].velocity]),
                 after = value(e["after"][expected[i].velocity]);
    EXPECT_LT(before * after, 0.0) << i;  // the normal velocity reverses
    EXPECT_NEAR(std::abs(after / before), 1.0, 1e-3) << i;
  }
  EXPECT_NEAR(value(j["events"][0]["time"]), 0.5, 1e-6);  // the first impact is not yet affected
  EXPECT_NEAR(value(j["time"].back()), 3.0, 1e-12);
  EXPECT_NEAR(final_state(j, "q1"), 1.5, 5e-2);
  EXPECT_NEAR(final_state(j, "q2"), 1.25, 5e-2);
  EXPECT_NEAR(final_state(j, "v1"), -2.0, 5e-2);
  EXPECT_NEAR(final_state(j, "v2"), 0.0, 5e-2);
  EXPECT_NEAR(final_state(j, "q1"), 1.503852, 1e-5);
  EXPECT_NEAR(final_state(j, "q2"), 1.246123, 1e-5);
  EXPECT_NEAR(final_state(j, "v1"), -1.996918, 1e-5);
  EXPECT_NEAR(final_state(j, "v2"), -0.023123, 1e-5);
}

// examples/time_freezing/bouncing_ball.yaml, spec time_freezing.md §6.1 and §7 T3 (closed form of the
// header): impacts at t_n = 1.4278431229, 3.9979607442, ..., 14.8362264267 with v_n+ = 0.9 |v_n-|;
// x(15) = (0.8559307342, 4.4229961677). The spring-damper phase is integrated, so each jump has
// restitution 0.89989 instead of 0.9 (measured, all eight: 1.1e-4 low) and the later impacts and the
// final state drift (measured: t_8 5.8e-3 early, x(15) off by 0.025 and 0.063). Tolerances: first
// impact 1e-6, restitution 2e-4, impact times 1e-2, x(15) 0.1 against the closed form; x(15) 1e-5
// against the header's observed (0.880478, 4.360155) as a regression guard (update both together).
TEST(CliTimeFreezingExamples, BouncingBallT3) {
  const auto j = simulate("bouncing_ball.yaml", "bouncing_ball_example");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  const double t[] = {1.4278431229,  3.9979607442,  6.3110666033,  8.3928618766,
                      10.2664776225, 11.9527317938, 13.4703605480, 14.8362264267};
  ASSERT_EQ(j["events"].size(), 8u);
  EXPECT_NEAR(value(j["events"][0]["time"]), t[0], 1e-6);
  EXPECT_NEAR(value(j["events"][0]["before"]["v"]), -14.0071410359, 1e-6);
  for (std::size_t n = 0; n < 8; ++n) {
    const auto& e = j["events"][n];
    EXPECT_EQ(e["kind"], "impact") << n;
    EXPECT_NEAR(value(e["time"]), t[n], 1e-2) << n;
    EXPECT_NEAR(value(e["after"]["v"]) / -value(e["before"]["v"]), 0.9, 2e-4) << n;
  }
  EXPECT_NEAR(value(j["time"].back()), 15.0, 1e-12);
  EXPECT_NEAR(final_state(j, "q"), 0.8559307342, 0.1);
  EXPECT_NEAR(final_state(j, "v"), 4.4229961677, 0.1);
  EXPECT_NEAR(final_state(j, "q"), 0.880478, 1e-5);
  EXPECT_NEAR(final_state(j, "v"), 4.360155, 1e-5);
}

// The pinned-foot DAE of tests/reference/hopper_pinned_foot.py at t = 0.03 (the header of
// examples/time_freezing/hopper_stance.yaml), for the three hopper-stance tests below:
// q = (qx, qz, phi_hip, phi_knee), v = (vx, vz, w_hip, w_knee).
const double kPinnedFootQ[] = {0.0007319197501, 0.3992891379, 0.06143177646, -0.1191974430};
const double kPinnedFootV[] = {0.04990575785, -0.09820831544, 4.243594909, -8.236315921};

// examples/time_freezing/hopper_stance.yaml: the 4-DOF hopper (M(q) and forces from its energies)
// standing on its foot under constant torques, the foot sticking while the knee buckles, against
// the pinned-foot DAE of tests/reference/hopper_pinned_foot.py (RK4, dt 1e-5; the header's values
// at t = 0.03). Third-order Radau IIA with 3 steps of 3 elements and the file's stabilize_depth
// 1e-5: measured residual 6.4e-10, |q - ref| <= 4.2e-6, |v - ref| <= 4.0e-4 (w_knee), the foot
// 3e-6 in the ground, no impact, no warning. Tolerances: q 2e-5, v 2e-3, the stick |foot_x| 1e-6,
// the depth foot_z in [-1e-5, 0].
TEST(CliTimeFreezingExamples, HopperStanceMatchesThePinnedFootDae) {
  const auto j = simulate("hopper_stance.yaml", "hopper_stance");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["events"].empty()) << j["events"];
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  EXPECT_LE(value(j["complementarity_residual"]), 1e-9);
  const char* q[] = {"qx", "qz", "phi_hip", "phi_knee"};
  const char* v[] = {"vx", "vz", "w_hip", "w_knee"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(final_state(j, q[i]), kPinnedFootQ[i], 2e-5) << q[i];
    EXPECT_NEAR(final_state(j, v[i]), kPinnedFootV[i], 2e-3) << v[i];
  }
  // The foot stays at the origin (stick), at most stabilize_depth below the ground:
  // foot = hip + 0.2 e(phi_hip) + 0.2 e(phi_hip + phi_knee), e(phi) = (-sin phi, -cos phi).
  const double ph = final_state(j, "phi_hip"), pk = final_state(j, "phi_knee");
  EXPECT_NEAR(final_state(j, "qx") - 0.2 * std::sin(ph) - 0.2 * std::sin(ph + pk), 0.0, 1e-6);
  const double foot_z = final_state(j, "qz") - 0.2 * std::cos(ph) - 0.2 * std::cos(ph + pk);
  EXPECT_LE(foot_z, 0.0);
  EXPECT_GE(foot_z, -1e-5);
}

// The residual floor of hopper_stance.yaml's header: without stabilize_depth (the gap's switching
// function changes sign inside the stance elements, O(h^3)) the homotopy ends at 7.1e-7, so
// nosnoc's complementarity_tol 1e-9 is not met: the run reports it did not converge (exit 1), the
// motion is as accurate as with the depth (phi_knee measured 4e-6 from the reference; 2e-5 here).
TEST(CliTimeFreezingExamples, HopperStanceWithoutStabilizeDepthStopsAtItsResidualFloor) {
  const std::string out = temp_dir("hopper_stance_floor");
  const CliRun r = run("simulate " + example("hopper_stance.yaml") +
                       " -o time_freezing.stabilize_positions=0 -o time_freezing.stabilize_depth=0"
                       " -o homotopy.max_iter=100 -q --out " + out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto j = read_json(out + "/result.json");
  EXPECT_NE(j["status"], "converged");
  EXPECT_GT(value(j["complementarity_residual"]), 1e-7);
  EXPECT_LT(value(j["complementarity_residual"]), 1e-6);
  EXPECT_NEAR(final_state(j, "phi_knee"), kPinnedFootQ[3], 2e-5);
}

// The same stance in the foot's coordinates (hopper_stance_foot.yaml): the gap fz is linear in q,
// so the collocation keeps it exactly constant while v_n = 0 and there is no residual floor, with
// no position stabilization. Measured: residual 5.1e-10, fx and fz within 2e-11 of 0, the angles
// within 4.7e-6 and the angular velocities within 8.4e-4 of the pinned-foot DAE (RK4, dt 1e-5,
// tests/reference/hopper_pinned_foot.py). Tolerances as in the hip's coordinates above, the foot
// position 1e-9 (exact up to IPOPT's tolerance), its velocity 1e-7 (measured 3e-9).
TEST(CliTimeFreezingExamples, HopperStanceInFootCoordinatesHasNoResidualFloor) {
  const auto j = simulate("hopper_stance_foot.yaml", "hopper_stance_foot");
  ASSERT_EQ(j["status"], "converged");
  EXPECT_TRUE(j["events"].empty()) << j["events"];
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  EXPECT_LE(value(j["complementarity_residual"]), 1e-9);
  for (const char* foot : {"fx", "fz"}) EXPECT_NEAR(final_state(j, foot), 0.0, 1e-9) << foot;
  for (const char* foot : {"vfx", "vfz"}) EXPECT_NEAR(final_state(j, foot), 0.0, 1e-7) << foot;  // 3e-9
  EXPECT_NEAR(final_state(j, "phi_hip"), kPinnedFootQ[2], 2e-5);
  EXPECT_NEAR(final_state(j, "phi_knee"), kPinnedFootQ[3], 2e-5);
  EXPECT_NEAR(final_state(j, "w_hip"), kPinnedFootV[2], 2e-3);
  EXPECT_NEAR(final_state(j, "w_knee"), kPinnedFootV[3], 2e-3);
}
