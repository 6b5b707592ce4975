// The PSS examples in examples/pss, run end to end through the file reader, checked against the
// values stated in their headers (sources: fesd.md §7–§8).
#include <gtest/gtest.h>

#include <cmath>

#include "stasis/io/model_file.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/sim/integrator.hpp"

using namespace stasis;

namespace {

std::string example(const std::string& name) { return std::string(STASIS_SOURCE_DIR) + "/examples/pss/" + name; }

sim::Result run_simulation(const std::string& name, const std::vector<std::string>& overrides = {}) {
  io::SimulateFile f = io::read_simulate_file(example(name), overrides);
  return sim::simulate(f.model.pss, io::integrator_options(f));
}

ocp::Result run_ocp(const std::string& name, const std::vector<std::string>& overrides = {}) {
  io::OcpFile f = io::read_ocp_file(example(name), overrides);
  reformulate::Dcs dcs = reformulate::to_dcs(f.model.pss, f.discretization.dcs);
  ocp::Solver solver(dcs, f.ocp, {f.discretization, f.homotopy, f.initialization});
  return solver.solve();
}

double distance_to(const sim::Result& r, double t, double x) {
  double best = 1e300;
  for (std::size_t i = 0; i < r.time.size(); ++i) best = std::min(best, std::hypot(r.time[i] - t, r.states[i][0] - x));
  return best;
}

}  // namespace

// T13(a) crossing with the example's settings (Gauss n_s = 2, differential, N_sim = 10): switch at
// t = 0.5 inside step 4 becomes a grid point; x(1.5) = 0.2 (exact for piecewise-constant fields).
TEST(PssExamplesRun, CrossingT13a) {
  sim::Result r = run_simulation("simple_switch.yaml",
                                 {"simulate.steps=10", "discretization.scheme=gauss_legendre",
                                  "discretization.representation=differential"});
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT(distance_to(r, 0.5, 0.0), 1e-6);
  EXPECT_NEAR(r.states.back()[0], 0.2, 1e-6);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_NEAR(r.events[0].time, 0.5, 1e-6);
}

// T2 settings of the example file: grid point within 1e-5 of (0.5, 0), x(1.5) = 0.2.
TEST(PssExamplesRun, SimpleSwitchT2) {
  sim::Result r = run_simulation("simple_switch.yaml");
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT(distance_to(r, 0.5, 0.0), 1e-5);
  EXPECT_NEAR(r.states.back()[0], 0.2, 1e-6);
}

// T13(b)/T3 sliding: reaches 0 at t = √2 (example: x0 = −√2, F = (1, −1)) and stays there.
TEST(PssExamplesRun, SlidingT3) {
  sim::Result r = run_simulation("sliding_mode.yaml");
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT(distance_to(r, std::sqrt(2.0), 0.0), 1e-5);
  EXPECT_NEAR(r.states.back()[0], 0.0, 1e-7);
}

// T13(c) leaving a sliding mode: exact exit at t = 1, x(1.5) = 0.125. The example turns on
// discretization.exit_conditions (stasis extension, docs/guide-pss.md): exit measured at
// 0.9999978, x(1.5) = 0.12500004 with the file's complementarity_tol 1e-9. Tolerances: 1e-5 on
// the exit time (the residual 1e-9 lets the boundary move ~2e-6) and 1e-6 on x(1.5) (error 3.5e-8).
TEST(PssExamplesRun, LeavingSlidingT13c) {
  sim::Result r = run_simulation("switching_leave_sliding.yaml");
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.states.back()[0], 0.125, 1e-6);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_NEAR(r.events[0].time, 1.0, 1e-5);
}

// T13(c) with nosnoc's conditions only (exit_conditions off): FESD does not pin the exit; in the
// switch step any exit t_b in [0.99409, 1.02679] is feasible and gives x(1.5) = 0.125 − (t_b − 1)²/2;
// heuristic_mean picks the lower end, where the first stage point after the exit touches x = 0
// (measured t_b = 0.99409, x(1.5) = 0.1249826). Tolerance 5e-5 on x(1.5) (the interval allows up
// to 3.6e-4); the exit is asserted to lie in the interval (±1e-5).
TEST(PssExamplesRun, LeavingSlidingT13cWithoutExitConditions) {
  sim::Result r = run_simulation("switching_leave_sliding.yaml", {"discretization.exit_conditions=false"});
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.states.back()[0], 0.125, 5e-5);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_GT(r.events[0].time, 0.99409 - 1e-5);
  EXPECT_LT(r.events[0].time, 1.02679 + 1e-5);
}

// T13(d) spontaneous switch: any Filippov solution, x = 0 until t*, then ±(t − t*).
TEST(PssExamplesRun, SpontaneousSwitchT13d) {
  sim::Result r = run_simulation("spontaneous_switch.yaml");
  ASSERT_TRUE(r.converged) << r.message;
  for (std::size_t i = 1; i < r.time.size(); ++i) {
    double slope = (r.states[i][0] - r.states[i - 1][0]) / (r.time[i] - r.time[i - 1]);
    EXPECT_LE(std::fabs(slope), 1.0 + 1e-6);
    if (std::fabs(r.states[i - 1][0]) > 1e-6) {
      EXPECT_NEAR(std::fabs(slope), 1.0, 1e-6);  // off the surface: |ẋ| = 1
    }
  }
}

// R1/T4: Radau IIA n_s = 2, N_sim = 29: ‖x̂(π/2) − x*‖_∞ = 8.198e−3 (table), 10%.
TEST(PssExamplesRun, OscillatorR1) {
  sim::Result r = run_simulation("oscillator.yaml");
  ASSERT_TRUE(r.converged) << r.message;
  const auto& x = r.states.back();
  double err = std::max(std::fabs(x[0] + 1.5974603774506984), std::fabs(x[1] - 0.7614936206060108));
  EXPECT_NEAR(err, 8.198e-3, 8.198e-4);
}

// R5: T* = 40/3 (1e-4).
TEST(PssExamplesRun, TurboCarR5) {
  ocp::Result r = run_ocp("turbo_car.yaml");
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.final_time, 40.0 / 3.0, 1e-4);
}

// R4: the sliding-mode OCP reaches q(4) = (−π/6, −π/4) with four switches (paper Figs. 10–12).
TEST(PssExamplesRun, SlidingModeOcpR4) {
  ocp::Result r = run_ocp("sliding_mode_ocp.yaml");
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.states.back()[0], -M_PI / 6, 1e-6);
  EXPECT_NEAR(r.states.back()[1], -M_PI / 4, 1e-6);
  EXPECT_EQ(r.events.size(), 4u);
  for (const auto& u : r.controls)
    for (double v : u) EXPECT_LE(std::fabs(v), 10.0 + 1e-6);
}

// R3 with direct_complementarity (issue #3 item 3): with nosnoc's step bounds γ_h = 1 (h in
// [0, 2 h0]) it ends at x0 = −1.68 with 12 zero-length elements and 9 at the upper bound; with
// γ_h = 0.5 it reaches x0* = (9 − √417)/8 (measured error 2e-12 from −1, −2, −0.8). Tolerances as
// the l2_relaxed test below (1e-6 on x0, 1e-7 on V*, fesd.md T6 "up to solver tolerance").
TEST(PssExamplesRun, IvpLocalMinimaR3DirectComplementarityWithStepBounds) {
  ocp::Result r = run_ocp("ivp_local_minima.yaml", {"discretization.step_equilibration=direct_complementarity",
                                                    "discretization.step_bounds=0.5"});
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.states[0][0], (9.0 - std::sqrt(417.0)) / 8.0, 1e-6);
  EXPECT_NEAR(r.objective, 1.5237727753749573, 1e-7);
}

// R3: x0* = (9 − √417)/8 (1e-6) from the example's start and from the ends of [−2, −0.8].
TEST(PssExamplesRun, IvpLocalMinimaR3) {
  for (const char* start : {"ocp.initial.x.start=-2", "ocp.initial.x.start=-0.8", "ocp.initial.x.start=-1"}) {
    SCOPED_TRACE(start);
    ocp::Result r = run_ocp("ivp_local_minima.yaml", {start});
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.states[0][0], (9.0 - std::sqrt(417.0)) / 8.0, 1e-6);
    EXPECT_NEAR(r.objective, 1.5237727753749573, 1e-7);
  }
}
