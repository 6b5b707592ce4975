// Speed-of-time bounds of time-frozen OCPs (time_freezing.md §3.2–§3.3): the checks before solving
// (ocp::check_speed_of_time, also run by the ocp::Solver constructor) and the diagnosis of a failed
// solve (ocp::diagnose_speed_of_time: the stages, the bound and the value it needs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/ocp/time_frozen.hpp"

using namespace stasis;

#define EXPECT_CONTAINS(str, part) EXPECT_NE((str).find(part), std::string::npos) << (str)

namespace {

// A ball of unit mass dropped from q = 1 onto the floor (inelastic, a_n = g), pushed by
// |u| <= 1, which cannot brake it much: it lands at t ≈ 0.43–0.48 (stage 4 of 6, T/N = 0.1) with
// |v| between sqrt(2·8.81) = 4.20 and sqrt(2·10.81) = 4.65, so the impact freezes the clock for
// τ = |v|/(D·a_n) = 0.43–0.47 and stage 4 needs s = (T/N + τ)/(T/N) = 5.3–5.8 (a little more for
// the contact phase after the landing, in which the clock runs at rate 1/2: a_n = g).
const char* kDrop = R"(kind: ocp
name: drop
model:
  cls:
    positions: [q]
    velocities: [v]
    controls: [u]
    parameters: {g: 9.81}
    forces: [u - g]
    contacts:
      - {name: floor, gap: q}
    x0: {q: 1, v: 0}
ocp:
  horizon: 0.6
  stages: 6
  controls: {u: {lower: -1, upper: 1}}
  cost:
    running: "u^2 + 20*q"
  constraints:
    terminal: ["q == 0", "v == 0"]
time_freezing:
  normal_acceleration: 9.81
  speed_of_time: {lower: 1, upper: 25, start: 1}
discretization:
  scheme: radau_iia
  dcs: step
  stages: 2
  elements: 3
)";

std::string bounce() {
  return std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/time_optimal_bounce.yaml";
}

// The message of building an ocp::Solver for `file` with `spec`; a test failure if it builds.
std::string solver_error(const io::OcpFile& file, const discretize::OcpSpec& spec) {
  try {
    reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, file.discretization.dcs);
    ocp::Solver solver(dcs, spec, {file.discretization, file.homotopy, file.initialization});
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace

// Bounds that no trajectory can meet: lower > upper, and (a stage in free flight needs
// s = T_phys/T) a physical horizon out of reach of [lower, upper]·T.
TEST(OcpSpeedOfTime, BoundsThatCannotBeMetAreRejectedBeforeSolving) {
  const io::OcpFile bounce_file = io::read_ocp_file(bounce());  // time-optimal, T = 2, T_f in [0.5, 10]
  {
    discretize::OcpSpec spec = bounce_file.ocp;
    spec.speed_of_time_lower = 2.0;
    spec.speed_of_time_upper = 1.5;
    spec.speed_of_time_start = 1.8;
    const std::string m = solver_error(bounce_file, spec);
    EXPECT_CONTAINS(m,
                    "time_freezing.speed_of_time.lower = 2 is above time_freezing.speed_of_time.upper = 1.5");
    EXPECT_CONTAINS(m, "raise the upper bound to at least 2");
  }
  {
    discretize::OcpSpec spec = bounce_file.ocp;
    spec.speed_of_time_start = 30.0;
    EXPECT_CONTAINS(solver_error(bounce_file, spec), "time_freezing.speed_of_time.start = 30 lies outside");
  }
  {  // T_f >= 0.5 needs s >= 0.5/2 in free flight; the upper bound is 0.2
    discretize::OcpSpec spec = bounce_file.ocp;
    spec.speed_of_time_lower = 0.1;
    spec.speed_of_time_upper = 0.2;
    spec.speed_of_time_start = 0.15;
    const std::string m = solver_error(bounce_file, spec);
    EXPECT_CONTAINS(m, "ocp.final_time.lower = 0.5");
    EXPECT_CONTAINS(m, "raise time_freezing.speed_of_time.upper to at least 0.25");
    EXPECT_CONTAINS(m, "ocp.horizon to at least 2.5");
  }
  {  // T_f <= 2.5 needs s <= 1.25 in free flight; the lower bound is 1.5
    discretize::OcpSpec spec = bounce_file.ocp;
    spec.speed_of_time_lower = 1.5;
    spec.speed_of_time_start = 1.5;
    spec.final_time_upper = 2.5;
    const std::string m = solver_error(bounce_file, spec);
    EXPECT_CONTAINS(m, "ocp.final_time.upper = 2.5");
    EXPECT_CONTAINS(m, "lower time_freezing.speed_of_time.lower to at most 1.25");
    EXPECT_CONTAINS(m, "raise ocp.final_time.upper to at least 3");
  }
  const io::OcpFile drop = io::read_ocp_string(kDrop, "drop.yaml");  // fixed horizon
  {
    discretize::OcpSpec spec = drop.ocp;
    spec.speed_of_time_lower = spec.speed_of_time_start = 1.2;
    EXPECT_CONTAINS(solver_error(drop, spec), "lower time_freezing.speed_of_time.lower to at most 1");
  }
  {
    discretize::OcpSpec spec = drop.ocp;
    spec.speed_of_time_lower = 0.5;
    spec.speed_of_time_upper = spec.speed_of_time_start = 0.9;
    EXPECT_CONTAINS(solver_error(drop, spec), "raise time_freezing.speed_of_time.upper to at least 1");
  }
  // The example files' own bounds pass.
  EXPECT_NO_THROW(ocp::check_speed_of_time(bounce_file.time_freezing->frozen, bounce_file.ocp));
  EXPECT_NO_THROW(ocp::check_speed_of_time(drop.time_freezing->frozen, drop.ocp));
}

// A fixed initial state on the floor with v = -4 starts an impact of τ = 4/9.81 = 0.408 in stage
// 0: it needs s = (0.1 + 0.408)/0.1 = 5.08 > 2. Free initial states are not judged.
TEST(OcpSpeedOfTime, InitialImpactTheFirstStageCannotHold) {
  io::OcpFile file = io::read_ocp_string(
      kDrop, "drop.yaml", {"model.cls.x0.q=0", "model.cls.x0.v=-4", "time_freezing.speed_of_time.upper=2"});
  const reformulate::TimeFrozenModel& model = file.time_freezing->frozen;
  std::string m;
  try {
    ocp::check_speed_of_time(model, file.ocp);
  } catch (const Error& e) {
    m = e.what();
  }
  EXPECT_CONTAINS(m, "the initial state starts an impact at contact 'floor'");
  EXPECT_CONTAINS(m, "τ = |nᵀv|/(D·a_n) = 0.408");
  EXPECT_CONTAINS(m, "raise time_freezing.speed_of_time.upper to at least 5.08");  // 5.0775 rounded up
  EXPECT_CONTAINS(m, "time_freezing.normal_acceleration to at least 40");          // τ <= 2·0.1 − 0.1
  EXPECT_CONTAINS(m, "use at most 1 stage (ocp.stages)");
  // Within the bound, or with a free initial velocity: no error.
  file.ocp.speed_of_time_upper = 5.1;
  EXPECT_NO_THROW(ocp::check_speed_of_time(model, file.ocp));
  file.ocp.speed_of_time_upper = 2;
  file.ocp.x0_free.assign(model.pss.n_x(), false);
  file.ocp.x0_free[1] = true;
  file.ocp.x0_lower.assign(model.pss.n_x(), -10);
  file.ocp.x0_upper.assign(model.pss.n_x(), 10);
  EXPECT_NO_THROW(ocp::check_speed_of_time(model, file.ocp));
}

// The drop with upper = 2 cannot hold its landing: the first relaxed NLP is infeasible, and the
// diagnosis names the upper bound, stage 4 and the value it needs (one homotopy step, ~1 s).
TEST(OcpSpeedOfTime, DiagnosisOfALandingTheBoundCannotHold) {
  const io::OcpFile file = io::read_ocp_string(
      kDrop, "drop.yaml", {"time_freezing.speed_of_time.upper=2", "homotopy.max_steps=1"});
  const reformulate::TimeFrozenModel& model = file.time_freezing->frozen;
  reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, file.discretization.dcs);
  ocp::Solver solver(dcs, file.ocp, {file.discretization, file.homotopy, file.initialization});
  const ocp::Result r = solver.solve();
  ASSERT_FALSE(r.converged);
  EXPECT_FALSE(r.homotopy.last_iterate.empty());
  const ocp::SpeedOfTimeDiagnosis d = ocp::diagnose_speed_of_time(model, solver, r);
  ASSERT_FALSE(d.empty()) << r.message;
  EXPECT_EQ(d.bound, "upper");
  EXPECT_EQ(d.key, "time_freezing.speed_of_time.upper");
  EXPECT_EQ(d.bound_value, 2.0);
  EXPECT_EQ(d.speed_of_time.size(), 6u);
  EXPECT_FALSE(d.stages_at_bound.empty());
  EXPECT_TRUE(std::find(d.stages.begin(), d.stages.end(), 4) != d.stages.end()) << d.message;
  EXPECT_GT(d.needed, 5.2) << d.message;
  EXPECT_LT(d.needed, 6.7) << d.message;
  EXPECT_GT(d.frozen_time, 0.42) << d.message;
  EXPECT_LT(d.frozen_time, 0.57) << d.message;
  EXPECT_CONTAINS(d.message, "raise time_freezing.speed_of_time.upper to at least ");
  EXPECT_CONTAINS(d.message, "time_freezing.normal_acceleration");
  EXPECT_CONTAINS(d.message, "stage 4");

  // Raising the bound to the suggested margin makes the first relaxed NLP feasible.
  const io::OcpFile raised =
      io::read_ocp_string(kDrop, "drop.yaml",
                          {"time_freezing.speed_of_time.upper=" + std::to_string(std::ceil(1.25 * d.needed)),
                           "homotopy.max_steps=1"});
  reformulate::Dcs dcs2 = reformulate::to_dcs(raised.model.pss, raised.discretization.dcs);
  ocp::Solver solver2(dcs2, raised.ocp, {raised.discretization, raised.homotopy, raised.initialization});
  const ocp::Result r2 = solver2.solve();
  ASSERT_FALSE(r2.homotopy.steps.empty());
  EXPECT_TRUE(nlp::is_success(r2.homotopy.steps[0].status)) << r2.message;
}

// A clock ahead of its grid in a stage whose s sits at a lower bound that allows free flight
// (lower = 1 = T_phys/T) is not the lower bound's doing: no diagnosis. (bench_hopper's failed run
// was told to "lower time_freezing.speed_of_time.lower to at most 1" while it was 1.) The iterate
// is the drop's solution with the clock at the end of stage 0 (free flight, s = 1) moved 1e-3 ahead.
TEST(OcpSpeedOfTime, NoLowerBoundDiagnosisWhenTheBoundAllowsFreeFlight) {
  const io::OcpFile file = io::read_ocp_string(kDrop, "drop.yaml");
  reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, file.discretization.dcs);
  ocp::Solver solver(dcs, file.ocp, {file.discretization, file.homotopy, file.initialization});
  ocp::Result r = solver.solve();
  ASSERT_TRUE(r.converged) << r.message;
  const auto& map = solver.transcription().map;
  const auto s0 = static_cast<std::size_t>(map.speed_of_time[0]);
  ASSERT_NEAR(r.w[s0], 1.0, 1e-6);  // stage 0 is free flight at the lower bound
  r.converged = false;
  r.homotopy.last_iterate = r.w;
  r.homotopy.last_iterate[static_cast<std::size_t>(map.fe[0].back().x_end + file.ocp.clock)] += 1e-3;
  const ocp::SpeedOfTimeDiagnosis d = ocp::diagnose_speed_of_time(file.time_freezing->frozen, solver, r);
  EXPECT_TRUE(d.empty()) << d.message;
}

// Converged solves, and unfinished ones whose speed of time is not in the way, get no diagnosis.
TEST(OcpSpeedOfTime, NoDiagnosisWhenTheSpeedOfTimeIsNotInTheWay) {
  io::OcpFile file = io::read_ocp_file(bounce(), {"ocp.stages=5"});
  reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, file.discretization.dcs);
  {
    ocp::Solver solver(dcs, file.ocp, {file.discretization, file.homotopy, file.initialization});
    const ocp::Result r = solver.solve();
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_TRUE(ocp::diagnose_speed_of_time(file.time_freezing->frozen, solver, r).empty());
  }
  {  // 3 IPOPT iterations: not converged, but s is far from 25
    mpcc::HomotopyOptions h = file.homotopy;
    h.max_iter = 3;
    h.max_steps = 1;
    ocp::Solver solver(dcs, file.ocp, {file.discretization, h, file.initialization});
    const ocp::Result r = solver.solve();
    ASSERT_FALSE(r.converged);
    const ocp::SpeedOfTimeDiagnosis d = ocp::diagnose_speed_of_time(file.time_freezing->frozen, solver, r);
    EXPECT_TRUE(d.empty()) << d.message;
  }
}
