// kind: simulate / kind: ocp readers with a pss model: the example files (sizes, and the facts their
// headers state, checked against the file's own expressions), the format's features, physical time
// `t`, and -o overrides. Error cases are in test_model_file_errors.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"

namespace {

using stasis::Error;
using stasis::io::OcpFile;
using stasis::io::read_ocp_file;
using stasis::io::read_ocp_string;
using stasis::io::read_simulate_file;
using stasis::io::read_simulate_string;
using stasis::io::SimulateFile;
namespace sym = stasis::sym;
namespace discretize = stasis::discretize;
namespace model = stasis::model;
namespace mpcc = stasis::mpcc;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = std::numbers::pi;

std::string example(const std::string& name) {
  return std::string(STASIS_SOURCE_DIR) + "/examples/pss/" + name;
}

// Symbols of states then controls, for evaluating model expressions.
sym::Vector symbols(const model::Pss& p) {
  sym::Vector s = p.x;
  s.insert(s.end(), p.u.begin(), p.u.end());
  return s;
}

double eval(const sym::Expr& e, const model::Pss& p, const std::vector<double>& xu) {
  return sym::evaluate(e, symbols(p), xu);
}

// The field of region `i` of subsystem `k` at (x, u), plus f0.
std::vector<double> field(const model::Pss& p, std::size_t k, std::size_t i, const std::vector<double>& xu) {
  std::vector<double> f;
  for (std::size_t j = 0; j < p.n_x(); ++j)
    f.push_back(eval(p.subsystems[k].fields[i][j], p, xu) + (p.f0.empty() ? 0.0 : eval(p.f0[j], p, xu)));
  return f;
}

bool is_one(const sym::Expr& e) { return e.is_constant() && e.constant_value() == 1.0; }
bool is_zero(const sym::Expr& e) { return e.is_constant() && e.constant_value() == 0.0; }

// ---- the examples ----

TEST(PssExamples, Oscillator) {
  const SimulateFile f = read_simulate_file(example("oscillator.yaml"));
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(f.name, "oscillator");
  EXPECT_EQ(p.state_names, (std::vector<std::string>{"x1", "x2"}));
  EXPECT_EQ(p.n_u(), 0u);
  ASSERT_EQ(p.subsystems.size(), 1u);
  ASSERT_EQ(p.subsystems[0].n_regions(), 2u);
  EXPECT_EQ(p.subsystems[0].signs, (std::vector<std::vector<int>>{{-1}, {1}}));
  EXPECT_EQ(p.time_state, -1);
  EXPECT_EQ(f.horizon, 1.5707963267948966);
  EXPECT_EQ(f.steps, 29);
  EXPECT_TRUE(f.controls.empty());
  EXPECT_EQ(f.discretization.scheme, discretize::Scheme::RadauIIA);
  EXPECT_EQ(f.discretization.stages, 2);
  EXPECT_EQ(f.discretization.elements, 2);
  EXPECT_EQ(f.homotopy.kappa, 0.05);
  EXPECT_EQ(f.homotopy.complementarity_tol, 1e-13);
  EXPECT_EQ(f.homotopy.sigma_final, 1e-14);
  ASSERT_EQ(f.model.parameters.size(), 1u);
  EXPECT_DOUBLE_EQ(f.model.parameters[0].second, 2 * kPi);

  // The header's exact solution: x = e^(t-1) (cos w t, sin w t) inside until t_s = 1 (on the circle),
  // then e^(t-1) (cos w(t-1), -sin w(t-1)) outside; both solve the file's fields.
  EXPECT_DOUBLE_EQ(p.x0[0], std::exp(-1.0));
  const double w = 2 * kPi;
  EXPECT_LT(eval(p.subsystems[0].switching[0], p, p.x0), 0);  // x0 starts inside: region 0
  for (double t : {0.3, 0.9}) {
    const double e = std::exp(t - 1), x1 = e * std::cos(w * t), x2 = e * std::sin(w * t);
    const std::vector<double> dx = {x1 - w * x2, x2 + w * x1};  // d/dt of the inside solution
    const auto fi = field(p, 0, 0, {x1, x2});
    EXPECT_NEAR(fi[0], dx[0], 1e-12);
    EXPECT_NEAR(fi[1], dx[1], 1e-12);
  }
  for (double t : {1.2, kPi / 2}) {
    const double e = std::exp(t - 1), x1 = e * std::cos(w * (t - 1)), x2 = -e * std::sin(w * (t - 1));
    const std::vector<double> dx = {x1 + w * x2, x2 - w * x1};
    const auto fo = field(p, 0, 1, {x1, x2});
    EXPECT_NEAR(fo[0], dx[0], 1e-12);
    EXPECT_NEAR(fo[1], dx[1], 1e-12);
    EXPECT_GT(eval(p.subsystems[0].switching[0], p, {x1, x2}), 0);
  }
  const double T = f.horizon, e = std::exp(T - 1);
  EXPECT_NEAR(e * std::cos(w * (T - 1)), -1.5974603774506984, 1e-15);
  EXPECT_NEAR(-e * std::sin(w * (T - 1)), 0.7614936206060108, 1e-15);
}

TEST(PssExamples, SimpleSwitch) {
  const SimulateFile f = read_simulate_file(example("simple_switch.yaml"));
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(p.n_x(), 1u);
  EXPECT_EQ(p.x0, (std::vector<double>{-1}));
  EXPECT_EQ(f.horizon, 1.5);
  EXPECT_EQ(f.steps, 16);
  EXPECT_TRUE(f.warm_start);
  EXPECT_EQ(f.homotopy.kappa, 0.1);
  // Header: step 0.09375; x reaches 0 at t = 0.5 with slope 2, inside step 6; x(1.5) = 0.2.
  const double step = f.horizon / f.steps, slope0 = field(p, 0, 0, {0})[0], slope1 = field(p, 0, 1, {0})[0];
  EXPECT_EQ(step, 0.09375);
  const double ts = -p.x0[0] / slope0;
  EXPECT_EQ(ts, 0.5);
  EXPECT_EQ(static_cast<int>(ts / step) + 1, 6);
  EXPECT_DOUBLE_EQ(ts - 5 * step, 0.03125);
  EXPECT_DOUBLE_EQ(6 * step - ts, 0.0625);
  EXPECT_DOUBLE_EQ(slope1 * (f.horizon - ts), 0.2);
}

TEST(PssExamples, SlidingMode) {
  const SimulateFile f = read_simulate_file(example("sliding_mode.yaml"));
  const model::Pss& p = f.model.pss;
  EXPECT_DOUBLE_EQ(p.x0[0], -std::sqrt(2.0));
  EXPECT_EQ(f.steps, 7);
  EXPECT_FALSE(f.warm_start);
  EXPECT_EQ(field(p, 0, 0, {0})[0], 1);
  EXPECT_EQ(field(p, 0, 1, {0})[0], -1);
  // Header: reaches 0 at sqrt(2), inside step 5 = [8/7, 10/7], split as (0.2713564195, 0.0143578662).
  const double step = f.horizon / f.steps, ts = -p.x0[0] / field(p, 0, 0, {0})[0];
  EXPECT_EQ(static_cast<int>(ts / step) + 1, 5);
  EXPECT_NEAR(ts - 4 * step, 0.2713564195, 1e-10);
  EXPECT_NEAR(5 * step - ts, 0.0143578662, 1e-10);
}

TEST(PssExamples, SwitchingLeaveSliding) {
  const SimulateFile f = read_simulate_file(example("switching_leave_sliding.yaml"));
  const model::Pss& p = f.model.pss;
  // The state t is added: x = (x, t) as in the spec, f1 = (1 + t, 1), f2 = (-1 + t, 1).
  EXPECT_EQ(p.state_names, (std::vector<std::string>{"x", "t"}));
  EXPECT_EQ(p.time_state, 1);
  EXPECT_EQ(p.x0, (std::vector<double>{0, 0}));
  EXPECT_EQ(field(p, 0, 0, {0, 0.25}), (std::vector<double>{1.25, 1}));
  EXPECT_EQ(field(p, 0, 1, {0, 0.25}), (std::vector<double>{-0.75, 1}));
  EXPECT_EQ(f.discretization.scheme, discretize::Scheme::GaussLegendre);
  EXPECT_EQ(f.discretization.representation, discretize::Representation::Differential);
  EXPECT_EQ(f.steps, 10);
  // Sliding with theta1 = (1 - t)/2 is an equilibrium of x on [0, 1): theta1 f1 + theta2 f2 = 0.
  for (double t : {0.0, 0.5, 0.9}) {
    const double th = (1 - t) / 2;
    EXPECT_NEAR(th * field(p, 0, 0, {0, t})[0] + (1 - th) * field(p, 0, 1, {0, t})[0], 0, 1e-15);
  }
  // After t = 1: x' = t - 1 > 0 in region 1, so x(1.5) = 0.125 (Simpson is exact here).
  const auto fx = [&](double t) { return field(p, 0, 1, {0, t})[0]; };
  EXPECT_NEAR((f.horizon - 1) / 6 * (fx(1) + 4 * fx((1 + f.horizon) / 2) + fx(f.horizon)), 0.125, 1e-15);
}

TEST(PssExamples, SpontaneousSwitch) {
  const SimulateFile f = read_simulate_file(example("spontaneous_switch.yaml"));
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(p.x0, (std::vector<double>{0}));
  EXPECT_EQ(field(p, 0, 0, {0})[0], -1);  // both fields point away from x = 0
  EXPECT_EQ(field(p, 0, 1, {0})[0], 1);
  EXPECT_EQ(f.discretization.scheme, discretize::Scheme::ExplicitRK);
  EXPECT_EQ(f.discretization.stages, 1);
  EXPECT_EQ(f.discretization.elements, 3);
  EXPECT_EQ(f.steps, 10);
}

TEST(PssExamples, TurboCar) {
  const OcpFile f = read_ocp_file(example("turbo_car.yaml"));
  const model::Pss& p = f.model.pss;
  const discretize::OcpSpec& o = f.ocp;
  EXPECT_EQ(f.state_names, (std::vector<std::string>{"q", "v"}));
  EXPECT_EQ(f.control_names, (std::vector<std::string>{"u"}));
  EXPECT_TRUE(o.time_optimal);
  EXPECT_EQ(o.final_time_lower, 1);
  EXPECT_EQ(o.final_time_upper, 100);
  EXPECT_EQ(o.stages, 10);
  EXPECT_EQ(o.u_lower, (std::vector<double>{-5}));
  EXPECT_EQ(o.u_upper, (std::vector<double>{5}));
  EXPECT_EQ(o.u_start, (std::vector<double>{0}));
  EXPECT_EQ(o.x_lower, (std::vector<double>{-kInf, -20}));
  EXPECT_EQ(o.x_upper, (std::vector<double>{kInf, 20}));
  EXPECT_EQ(o.x0_free, (std::vector<bool>{false, false}));
  ASSERT_EQ(o.terminal.size(), 2u);
  EXPECT_TRUE(o.path.empty());
  EXPECT_TRUE(o.running_cost.is_constant());
  EXPECT_EQ(o.terminal_names[0].substr(0, 10), "'q == 200'");
  EXPECT_EQ(f.discretization.elements, 3);
  EXPECT_EQ(f.discretization.path_at, discretize::PathAt::StageEnds);
  EXPECT_EQ(f.homotopy.update, mpcc::SigmaUpdate::Superlinear);

  // The header's optimum: u = (5, 5, 0, ..., 0, -5, -5) on 10 stages of length 4/3 drives (0, 0) to
  // (200, 0) through the file's own dynamics (integrated exactly: the fields are piecewise constant
  // in v', so step to each crossing of the switching surface v = 10).
  const double T = 40.0 / 3, L = T / o.stages;
  double q = p.x0[0], v = p.x0[1], vmax = 0;
  for (int k = 0; k < o.stages; ++k) {
    const double u = k < 2 ? 5 : (k >= 8 ? -5 : 0);
    double left = L;
    while (left > 1e-15) {
      const double c = eval(p.subsystems[0].switching[0], p, {q, v, u});
      const double a_neg = field(p, 0, 0, {q, v, u})[1], a_pos = field(p, 0, 1, {q, v, u})[1];
      double a = c < 0 ? a_neg : a_pos;
      if (c == 0) a = a_pos > 0 ? a_pos : (a_neg < 0 ? a_neg : 0);
      double dt = left;
      if (a != 0 && c != 0 && (c < 0) == (a > 0)) dt = std::min(dt, -c / a);  // time to reach v = 10
      q += v * dt + a * dt * dt / 2;
      v += a * dt;
      left -= dt;
      vmax = std::max(vmax, std::fabs(v));
    }
  }
  EXPECT_NEAR(q, 200, 1e-9);
  EXPECT_NEAR(v, 0, 1e-9);
  EXPECT_NEAR(vmax, 20, 1e-9);
  for (std::size_t i = 0; i < o.terminal.size(); ++i) {
    const double g = eval(o.terminal[i], p, {200, 0, 0});
    EXPECT_EQ(g, o.terminal_lower[i]);
    EXPECT_EQ(g, o.terminal_upper[i]);
  }
}

TEST(PssExamples, SlidingModeOcp) {
  const OcpFile f = read_ocp_file(example("sliding_mode_ocp.yaml"));
  const model::Pss& p = f.model.pss;
  const discretize::OcpSpec& o = f.ocp;
  EXPECT_EQ(p.n_x(), 4u);
  EXPECT_EQ(p.n_u(), 2u);
  ASSERT_EQ(p.subsystems.size(), 2u);
  EXPECT_EQ(p.subsystems[0].name, "c1");
  EXPECT_EQ(p.n_theta(), 4u);
  EXPECT_EQ(p.f0.size(), 4u);
  EXPECT_DOUBLE_EQ(p.x0[0], 2 * kPi / 3);
  EXPECT_DOUBLE_EQ(p.x0[1], kPi / 3);
  EXPECT_EQ(o.horizon, 4);
  EXPECT_EQ(o.stages, 6);
  EXPECT_EQ(o.u_lower, (std::vector<double>{-10, -10}));
  EXPECT_EQ(o.terminal.size(), 2u);
  EXPECT_DOUBLE_EQ(o.terminal_lower[0], -kPi / 6);
  EXPECT_DOUBLE_EQ(o.terminal_upper[1], -kPi / 4);
  EXPECT_EQ(f.discretization.stages, 3);
  EXPECT_EQ(f.discretization.cross_complementarity, discretize::CrossComplementarity::FeFe);
  EXPECT_EQ(f.discretization.step_penalty, 100);
  EXPECT_EQ(f.homotopy.max_steps, 15);
  EXPECT_EQ(f.homotopy.sigma_final, 1e-9);
  // q1' = -sign(c1) + v1, q2' = -sign(c2) + v2, v' = u: where c1 > 0 and c2 < 0 the sum of f0 and
  // the two active regions is (-1 + v1, 1 + v2, u1, u2).
  const std::vector<double> xu = {1, -1, 0.5, 0.25, 3, 4};
  EXPECT_GT(eval(p.subsystems[0].switching[0], p, xu), 0);
  EXPECT_LT(eval(p.subsystems[1].switching[0], p, xu), 0);
  std::vector<double> sum(4, 0.0);
  for (std::size_t j = 0; j < 4; ++j)
    sum[j] = eval(p.f0[j], p, xu) + eval(p.subsystems[0].fields[0][j], p, xu) +
             eval(p.subsystems[1].fields[1][j], p, xu);
  EXPECT_EQ(sum, (std::vector<double>{-0.5, 1.25, 3, 4}));
  EXPECT_EQ(eval(o.running_cost, p, xu), 0.25 + 0.0625);
}

TEST(PssExamples, IvpLocalMinima) {
  const OcpFile f = read_ocp_file(example("ivp_local_minima.yaml"));
  const model::Pss& p = f.model.pss;
  const discretize::OcpSpec& o = f.ocp;
  EXPECT_EQ(o.stages, 1);
  EXPECT_EQ(o.x0_free, (std::vector<bool>{true}));
  EXPECT_EQ(o.x0_lower[0], -kInf);
  EXPECT_EQ(o.x0_upper[0], kInf);
  EXPECT_EQ(p.x0[0], -1);
  EXPECT_EQ(f.discretization.scheme, discretize::Scheme::GaussLegendre);
  EXPECT_EQ(f.discretization.elements, 25);
  EXPECT_EQ(f.discretization.step_equilibration, discretize::StepEquilibration::L2Relaxed);
  EXPECT_EQ(f.homotopy.sigma_final, 1e-15);
  EXPECT_EQ(f.homotopy.complementarity_tol, 1e-14);

  // The header's value function from the file's costs and dynamics: x rises with slope f(x < 0)
  // until 0, then with slope f(x > 0); Simpson's rule is exact for x^2 on each linear piece.
  const auto V = [&](double x0) {
    const double s0 = field(p, 0, 0, {-1})[0], s1 = field(p, 0, 1, {1})[0], T = o.horizon;
    const double ts = std::min(T, -x0 / s0);
    const auto x = [&](double t) { return t < ts ? x0 + s0 * t : s1 * (t - ts); };
    const auto simpson = [&](double a, double b) {
      const auto L = [&](double t) { return eval(o.running_cost, p, {x(t)}); };
      return (b - a) / 6 * (L(a) + 4 * L((a + b) / 2) + L(b));
    };
    const double xT = s1 * (T - ts);
    return simpson(0, ts) + simpson(ts, T) + eval(o.terminal_cost, p, {xT});
  };
  const double x_star = (9 - std::sqrt(417.0)) / 8;
  EXPECT_DOUBLE_EQ(x_star, -1.4275722320827673);
  EXPECT_NEAR(V(x_star), 1.5237727753749573, 1e-14);
  EXPECT_NEAR(V(-1), 1.6543209876543208, 1e-14);
  EXPECT_NEAR(V(-2), 1.790123456790123, 1e-14);
  EXPECT_LT(V(x_star), V(x_star - 1e-4));
  EXPECT_LT(V(x_star), V(x_star + 1e-4));
}

// ---- the format ----

// The pss example of PROBLEM_FORMAT.md's model section, with a simulate section.
const std::string kFormatModel = R"Y(kind: simulate
model:
  pss:                                   # Filippov / piecewise smooth system
    states: [x1, x2]
    controls: []                         # optional
    parameters: {w: 6.283185307179586}   # optional
    switching: ["x1^2 + x2^2 - 1"]       # c(x)
    regions:                             # one per region: sign of each c_j (+1, -1, 0 = any), vector field
      - {signs: [-1], f: ["x1 - w*x2", "w*x1 + x2"]}
      - {signs: [1],  f: ["x1 + w*x2", "-w*x1 + x2"]}
    x0: [0.36787944117144233, 0]
simulate:
  horizon: 20            # physical time
  steps: 400             # integrator steps
)Y";

TEST(PssReader, FormatDocumentExample) {
  const SimulateFile f = read_simulate_string(kFormatModel, "format.yaml");
  EXPECT_EQ(f.path, "format.yaml");
  EXPECT_EQ(f.model.pss.n_x(), 2u);
  EXPECT_EQ(f.model.pss.n_u(), 0u);
  EXPECT_EQ(f.model.where.line, 3);
  EXPECT_EQ(f.model.where.column, 3);
  EXPECT_EQ(f.horizon, 20);
  EXPECT_EQ(f.steps, 400);
  // Defaults: the spec's (discretize::Options, mpcc::HomotopyOptions).
  EXPECT_EQ(f.discretization.stages, discretize::Options{}.stages);
  EXPECT_EQ(f.discretization.scheme, discretize::Options{}.scheme);
  EXPECT_EQ(f.homotopy.sigma0, mpcc::HomotopyOptions{}.sigma0);
  EXPECT_FALSE(f.warm_start);
}

TEST(PssReader, DiscretizationAndHomotopySections) {
  const SimulateFile f = read_simulate_string(kFormatModel + R"Y(discretization:
  scheme: lobatto_iiic
  stages: 3
  elements: 4
  fesd: false
  dcs: step
  cross_complementarity: stage_fe
  step_equilibration: l2_relaxed_scaled
  representation: differential
  step_bounds: 0.5
  step_penalty: 10
  exit_conditions: true
homotopy:
  kappa: 0.2
  preset: nosnoc
  ipopt: {max_iter: 100}
)Y",
                                              "p.yaml");
  const discretize::Options& d = f.discretization;
  EXPECT_EQ(d.scheme, discretize::Scheme::LobattoIIIC);
  EXPECT_EQ(d.stages, 3);
  EXPECT_EQ(d.elements, 4);
  EXPECT_FALSE(d.fesd);
  EXPECT_EQ(d.dcs, stasis::reformulate::DcsMode::Step);
  EXPECT_EQ(d.cross_complementarity, discretize::CrossComplementarity::StageFe);
  EXPECT_EQ(d.step_equilibration, discretize::StepEquilibration::L2RelaxedScaled);
  EXPECT_EQ(d.representation, discretize::Representation::Differential);
  EXPECT_EQ(d.step_bounds, 0.5);
  EXPECT_EQ(d.step_penalty, 10);
  EXPECT_TRUE(d.exit_conditions);
  EXPECT_FALSE(discretize::Options{}.exit_conditions);  // off by default (a stasis extension)
  EXPECT_EQ(f.homotopy.preset, "nosnoc");
  EXPECT_EQ(f.homotopy.kappa, 0.2);  // set after the preset although written before it
  EXPECT_EQ(f.homotopy.ipopt.at("max_iter"), "100");
}

TEST(PssReader, ParametersDefinitionsAndX0Map) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [q, v]
    controls: [u]
    parameters: {k: 2, g: [1, 3]}
    definitions:
      spring: "-k*q"
      force: "spring + u + g[1]"
    switching: [v]
    regions:
      - {signs: [-1], f: [v, "force + 1"]}
      - {signs: [1], f: [v, "force - 1"]}
    x0: {v: 2, q: "k/4"}
simulate:
  horizon: 1
  steps: 10
  controls: {u: 0.5}
  warm_start: false
)Y",
                                              "p.yaml");
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(p.x0, (std::vector<double>{0.5, 2}));  // map by name, in declaration order
  ASSERT_EQ(f.model.parameters.size(), 1u);
  ASSERT_EQ(f.model.vector_parameters.size(), 1u);
  EXPECT_EQ(f.model.vector_parameters[0].second, (std::vector<double>{1, 3}));
  ASSERT_EQ(f.model.definitions.size(), 2u);
  EXPECT_EQ(f.model.definitions[1].first, "force");
  EXPECT_EQ(f.controls, (std::vector<double>{0.5}));
  // force + 1 = -2 q + u + 3 + 1 at (q, v, u) = (1, 0, 2)
  EXPECT_EQ(eval(p.subsystems[0].fields[0][1], p, {1, 0, 2}), 4);
  EXPECT_EQ(p.time_state, -1);
}

TEST(PssReader, ControlsDefaultToZero) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [x]
    controls: [u1, u2]
    switching: [x]
    regions: [{signs: [-1], f: [u1]}, {signs: [1], f: [u2]}]
    x0: [0]
simulate: {horizon: 1, steps: 1, controls: {u2: -1}}
)Y",
                                              "p.yaml");
  EXPECT_EQ(f.controls, (std::vector<double>{0, -1}));
}

TEST(PssReader, SubsystemsIndicatorsAndZeroSigns) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [x, y]
    subsystems:
      - switching: [x, y]
        regions:
          - {signs: [-1, 0], f: [1, 0]}
          - {signs: [1, -1], f: [-1, 0]}
          - {signs: [1, 1], f: [0, -1]}
      - name: voronoi
        indicators: ["(x - 1)^2 + y^2", "(x + 1)^2 + y^2"]
        fields: [[0, 1], [0, -1]]
    f0: [0, "x"]
    x0: [0.5, 0]
simulate: {horizon: 1, steps: 2}
)Y",
                                              "p.yaml");
  const model::Pss& p = f.model.pss;
  ASSERT_EQ(p.subsystems.size(), 2u);
  EXPECT_EQ(p.subsystems[0].signs, (std::vector<std::vector<int>>{{-1, 0}, {1, -1}, {1, 1}}));
  EXPECT_EQ(p.subsystems[0].switching.size(), 2u);
  EXPECT_TRUE(p.subsystems[0].indicators.empty());
  EXPECT_EQ(p.subsystems[1].name, "voronoi");
  EXPECT_EQ(p.subsystems[1].indicators.size(), 2u);
  EXPECT_TRUE(p.subsystems[1].switching.empty());
  EXPECT_EQ(p.n_theta(), 5u);
  EXPECT_EQ(p.f0.size(), 2u);
}

TEST(PssReader, JsonIsAccepted) {
  const SimulateFile f = read_simulate_string(
      R"Y({"kind": "simulate", "model": {"pss": {"states": ["x"], "switching": ["x"],
          "regions": [{"signs": [-1], "f": [1]}, {"signs": [1], "f": [-1]}], "x0": [1]}},
          "simulate": {"horizon": 1, "steps": 4}})Y",
      "p.json");
  EXPECT_EQ(f.steps, 4);
}

TEST(PssReader, ClockState) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [x, s]
    switching: [x]
    regions:
      - {signs: [-1], f: ["1 + t", 1]}
      - {signs: [1], f: [0, 0]}
    x0: [-1, 0]
    clock: s
simulate: {horizon: 1, steps: 2}
)Y",
                                              "p.yaml");
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(p.clock, 1);
  EXPECT_EQ(p.time_state, -1);  // `t` is the clock: no state added
  EXPECT_EQ(p.n_x(), 2u);
  EXPECT_TRUE(sym::depends_on(p.subsystems[0].fields[0][0], p.x[1]));
}

TEST(OcpReader, FormatDocumentExample) {
  // The kind: ocp example of PROBLEM_FORMAT.md (with a pss model having those names).
  const OcpFile f = read_ocp_string(R"Y(kind: ocp
model:
  pss:
    states: [x, y, vx]
    controls: [ux]
    switching: [y]
    regions:
      - {signs: [-1], f: [vx, 1, ux]}
      - {signs: [1], f: [vx, -1, ux]}
    x0: [-1, 0, 0]
ocp:
  horizon: 1.5                 # physical final time; with time_optimal: the initial guess
  time_optimal: false
  stages: 20                   # control stages (piecewise constant controls, equidistant in physical time)
  controls: {ux: {lower: -10, upper: 10, start: 0}}
  states: {y: {lower: -1, upper: 2}}       # optional box bounds by name
  initial: {x: {lower: -3, upper: 0, start: -1}}   # optional: these states are free at t = 0
  cost:
    running: "ux^2"            # integrated over physical time
    terminal: "(x - 1)^2"
  constraints:
    path: ["y <= 2"]
    terminal: ["x == 1", "vx == 0"]
    complementarity: [["y", "ux + 1"]]    # optional path complementarity 0 <= G ⟂ H >= 0
    at: stage_ends               # where path constraints hold: stage_ends (default) | elements | stage_points
)Y",
                                    "format.yaml");
  const discretize::OcpSpec& o = f.ocp;
  EXPECT_EQ(o.horizon, 1.5);
  EXPECT_FALSE(o.time_optimal);
  EXPECT_EQ(o.stages, 20);
  EXPECT_EQ(o.u_lower, (std::vector<double>{-10}));
  EXPECT_EQ(o.u_upper, (std::vector<double>{10}));
  EXPECT_EQ(o.x_lower, (std::vector<double>{-kInf, -1, -kInf}));
  EXPECT_EQ(o.x_upper, (std::vector<double>{kInf, 2, kInf}));
  EXPECT_EQ(o.x0_free, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(o.x0_lower, (std::vector<double>{-3, -kInf, -kInf}));
  EXPECT_EQ(o.x0_upper, (std::vector<double>{0, kInf, kInf}));
  EXPECT_EQ(f.model.pss.x0[0], -1);
  ASSERT_EQ(o.path.size(), 1u);
  EXPECT_EQ(o.path_upper[0], 2);
  EXPECT_EQ(o.path_lower[0], -kInf);
  EXPECT_EQ(o.path_names[0], "'y <= 2' (format.yaml:22:12)");
  ASSERT_EQ(o.terminal.size(), 2u);
  EXPECT_EQ(o.terminal_names[1], "'vx == 0' (format.yaml:23:26)");
  ASSERT_EQ(o.path_G.size(), 1u);
  EXPECT_EQ(o.path_H.size(), 1u);
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(eval(o.running_cost, p, {0, 0, 0, 3}), 9);
  EXPECT_EQ(eval(o.terminal_cost, p, {3, 0, 0, 0}), 4);
  EXPECT_EQ(eval(o.path_H[0], p, {0, 0, 0, 3}), 4);
  EXPECT_EQ(f.discretization.path_at, discretize::PathAt::StageEnds);
  EXPECT_EQ(f.state_names, (std::vector<std::string>{"x", "y", "vx"}));
}

const std::string kOcp = R"Y(kind: ocp
model:
  pss:
    states: [x]
    controls: [u]
    switching: [x]
    regions:
      - {signs: [-1], f: ["3 + u"]}
      - {signs: [1], f: ["1 + u"]}
    x0: [-1]
ocp:
  horizon: 2
  controls: {u: {lower: -1, upper: 1}}
  cost: {running: "x^2 + u^2"}
)Y";

TEST(OcpReader, DefaultsAndConstraintForms) {
  const OcpFile f = read_ocp_string(kOcp + R"Y(  constraints:
    path: ["-2 <= x <= 5", {expr: "x + u", lower: -3}]
    at: elements
discretization: {stages: 3}
)Y",
                                    "p.yaml");
  const discretize::OcpSpec& o = f.ocp;
  EXPECT_EQ(o.stages, 1);  // default
  EXPECT_FALSE(o.time_optimal);
  EXPECT_EQ(o.u_start, (std::vector<double>{0}));
  EXPECT_EQ(o.x0_free, (std::vector<bool>{false}));
  ASSERT_EQ(o.path.size(), 2u);
  EXPECT_EQ(o.path_lower, (std::vector<double>{-2, -3}));
  EXPECT_EQ(o.path_upper, (std::vector<double>{5, kInf}));
  EXPECT_EQ(o.path_names[1], "'-3 <= x + u' (p.yaml:16:28)");
  EXPECT_EQ(f.discretization.path_at, discretize::PathAt::Elements);
  EXPECT_EQ(f.discretization.stages, 3);
  EXPECT_TRUE(o.terminal_cost.is_constant());
}

// A path constraint's own placement (the map form's `at`); the others follow constraints.at.
TEST(OcpReader, PathConstraintPlacementPerRow) {
  const OcpFile f = read_ocp_string(kOcp + R"Y(  constraints:
    path: ["-2 <= x <= 5", {expr: "x + u", lower: -3, at: dense}, {expr: "x", upper: 4, at: stage_ends}]
    at: elements
)Y",
                                    "p.yaml");
  const discretize::OcpSpec& o = f.ocp;
  ASSERT_EQ(o.path_at.size(), 3u);
  EXPECT_FALSE(o.path_at[0].has_value());
  EXPECT_EQ(o.path_at[1], discretize::PathAt::Dense);
  EXPECT_EQ(o.path_at[2], discretize::PathAt::StageEnds);
  EXPECT_EQ(f.discretization.path_at, discretize::PathAt::Elements);
}

TEST(OcpReader, TimeOptimalDefaultsAndStartClamping) {
  const OcpFile f = read_ocp_string(R"Y(kind: ocp
model:
  pss:
    states: [x]
    controls: [u]
    switching: [x]
    regions: [{signs: [-1], f: [u]}, {signs: [1], f: [u]}]
    x0: [0]
ocp:
  horizon: 3
  time_optimal: true
  controls: {u: {lower: 1, upper: 2}}
  initial: {x: {}}
)Y",
                                    "p.yaml");
  EXPECT_TRUE(f.ocp.time_optimal);
  EXPECT_EQ(f.ocp.final_time_lower, discretize::OcpSpec{}.final_time_lower);
  EXPECT_EQ(f.ocp.final_time_upper, discretize::OcpSpec{}.final_time_upper);
  EXPECT_EQ(f.ocp.u_start, (std::vector<double>{1}));   // 0 moved into [1, 2]
  EXPECT_EQ(f.ocp.x0_free, (std::vector<bool>{true}));  // free, unbounded, start x0
  EXPECT_EQ(f.ocp.x0_lower[0], -kInf);
  EXPECT_EQ(f.model.pss.x0[0], 0);
}

// ---- physical time t ----

TEST(PhysicalTime, UnusedTimeAddsNoState) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [x]
    definitions: {unused: "sin(t)"}
    switching: [x]
    regions: [{signs: [-1], f: [1]}, {signs: [1], f: [-1]}]
    x0: [1]
simulate: {horizon: 1, steps: 1}
)Y",
                                              "p.yaml");
  EXPECT_EQ(f.model.pss.n_x(), 1u);
  EXPECT_EQ(f.model.pss.time_state, -1);
}

TEST(PhysicalTime, TimeInSwitchingFunctionOrDefinition) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [x]
    definitions: {ref: "sin(t)"}
    switching: ["x - ref"]
    regions: [{signs: [-1], f: [1]}, {signs: [1], f: [-1]}]
    x0: [1]
simulate: {horizon: 1, steps: 1}
)Y",
                                              "p.yaml");
  const model::Pss& p = f.model.pss;
  ASSERT_EQ(p.n_x(), 2u);
  EXPECT_EQ(p.time_state, 1);
  EXPECT_EQ(p.state_names[1], "t");
  EXPECT_EQ(p.x0, (std::vector<double>{1, 0}));
  EXPECT_TRUE(p.f0.empty());
  for (const auto& f_i : p.subsystems[0].fields) EXPECT_TRUE(is_one(f_i[1]));
  EXPECT_NEAR(eval(p.subsystems[0].switching[0], p, {1, 0.5}), 1 - std::sin(0.5), 1e-15);
}

TEST(PhysicalTime, WithCommonFieldGoesIntoF0) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [x, y]
    f0: ["cos(t)", 0]
    switching: [x]
    regions: [{signs: [-1], f: [1, 0]}, {signs: [1], f: [-1, 0]}]
    x0: [1, 2]
simulate: {horizon: 1, steps: 1}
)Y",
                                              "p.yaml");
  const model::Pss& p = f.model.pss;
  ASSERT_EQ(p.n_x(), 3u);
  EXPECT_EQ(p.time_state, 2);
  ASSERT_EQ(p.f0.size(), 3u);
  EXPECT_TRUE(is_one(p.f0[2]));
  for (const auto& f_i : p.subsystems[0].fields) EXPECT_TRUE(is_zero(f_i[2]));
}

TEST(PhysicalTime, SeveralSubsystemsGetACommonField) {
  const SimulateFile f = read_simulate_string(R"Y(kind: simulate
model:
  pss:
    states: [x, y]
    subsystems:
      - switching: ["x - t"]
        regions: [{signs: [-1], f: [1, 0]}, {signs: [1], f: [-1, 0]}]
      - switching: [y]
        regions: [{signs: [-1], f: [0, 1]}, {signs: [1], f: [0, -1]}]
    x0: [1, 2]
simulate: {horizon: 1, steps: 1}
)Y",
                                              "p.yaml");
  const model::Pss& p = f.model.pss;
  ASSERT_EQ(p.n_x(), 3u);
  ASSERT_EQ(p.f0.size(), 3u);  // created: (0, 0, 1); fields of the subsystems add up
  EXPECT_TRUE(is_zero(p.f0[0]));
  EXPECT_TRUE(is_zero(p.f0[1]));
  EXPECT_TRUE(is_one(p.f0[2]));
  for (const auto& s : p.subsystems)
    for (const auto& f_i : s.fields) EXPECT_TRUE(is_zero(f_i[2]));
}

TEST(PhysicalTime, UsedOnlyByTheOcp) {
  const OcpFile f = read_ocp_string(kOcp + R"Y(  states: {x: {lower: -5}}
  constraints:
    path: ["x <= 1 + t"]
)Y",
                                    "p.yaml");
  const model::Pss& p = f.model.pss;
  const discretize::OcpSpec& o = f.ocp;
  ASSERT_EQ(p.n_x(), 2u);
  EXPECT_EQ(p.time_state, 1);
  EXPECT_EQ(f.state_names, (std::vector<std::string>{"x", "t"}));
  EXPECT_EQ(o.x_lower, (std::vector<double>{-5, -kInf}));
  EXPECT_EQ(o.x_upper, (std::vector<double>{kInf, kInf}));
  EXPECT_EQ(o.x0_free, (std::vector<bool>{false, false}));
  EXPECT_EQ(o.x0_lower.size(), 2u);
  EXPECT_EQ(o.x0_upper.size(), 2u);
  EXPECT_EQ(p.x0, (std::vector<double>{-1, 0}));
  EXPECT_EQ(eval(o.path[0], p, {0.5, 2, 0}), 0.5 - 3);  // x - (1 + t) <= 0
  EXPECT_TRUE(sym::depends_on(o.path[0], p.x[1]));
  for (const auto& f_i : p.subsystems[0].fields) EXPECT_TRUE(is_one(f_i[1]));
}

TEST(PhysicalTime, TrackingCost) {
  const OcpFile f = read_ocp_string(kOcp, "p.yaml", {"ocp.cost.terminal=(x - sin(t))^2"});
  EXPECT_EQ(f.model.pss.time_state, 1);
  EXPECT_NEAR(eval(f.ocp.terminal_cost, f.model.pss, {1, 0.5, 0}), std::pow(1 - std::sin(0.5), 2), 1e-15);
}

// ---- overrides ----

TEST(PssOverrides, SimulateAndDiscretization) {
  const SimulateFile f =
      read_simulate_file(example("simple_switch.yaml"),
                         {"simulate.steps=200", "discretization.stages=3", "discretization.fesd=false",
                          "homotopy.sigma0=0.5", "homotopy.ipopt.max_iter=50", "simulate.warm_start=false"});
  EXPECT_EQ(f.steps, 200);
  EXPECT_EQ(f.discretization.stages, 3);
  EXPECT_FALSE(f.discretization.fesd);
  EXPECT_EQ(f.homotopy.sigma0, 0.5);
  EXPECT_EQ(f.homotopy.ipopt.at("max_iter"), "50");
  EXPECT_FALSE(f.warm_start);
}

TEST(PssOverrides, ModelValues) {
  const SimulateFile f =
      read_simulate_file(example("oscillator.yaml"),
                         {"model.pss.parameters.w=3", "model.pss.x0=[1, 2]", "model.pss.regions.0.f.1=0"});
  const model::Pss& p = f.model.pss;
  EXPECT_EQ(p.x0, (std::vector<double>{1, 2}));
  EXPECT_EQ(field(p, 0, 1, {1, 1}), (std::vector<double>{4, -2}));  // x1 + 3 x2, -3 x1 + x2
  EXPECT_TRUE(is_zero(p.subsystems[0].fields[0][1]));
}

TEST(PssOverrides, SectionsCreatedByOverrides) {
  // The file has no discretization/homotopy sections and no simulate.controls.
  const SimulateFile f = read_simulate_string(kFormatModel, "p.yaml",
                                              {"discretization.scheme=gauss_legendre", "homotopy.kappa=0.3"});
  EXPECT_EQ(f.discretization.scheme, discretize::Scheme::GaussLegendre);
  EXPECT_EQ(f.homotopy.kappa, 0.3);
}

TEST(PssOverrides, Ocp) {
  const OcpFile f = read_ocp_file(
      example("turbo_car.yaml"),
      {"ocp.stages=20", "ocp.controls.u.upper=3", "ocp.constraints.at=elements", "model.pss.x0.v=1",
       "ocp.states.q.upper=250", "ocp.initial.q.lower=-1", "ocp.final_time.upper=50"});
  EXPECT_EQ(f.ocp.stages, 20);
  EXPECT_EQ(f.ocp.u_upper[0], 3);
  EXPECT_EQ(f.discretization.path_at, discretize::PathAt::Elements);
  EXPECT_EQ(f.model.pss.x0, (std::vector<double>{0, 1}));
  EXPECT_EQ(f.ocp.x_upper[0], 250);
  EXPECT_EQ(f.ocp.x0_free, (std::vector<bool>{true, false}));
  EXPECT_EQ(f.ocp.x0_lower[0], -1);
  EXPECT_EQ(f.ocp.final_time_upper, 50);
}

TEST(PssOverrides, FixTheFreeInitialValue) {
  // As the ivp example's header suggests: x0 fixed at -1 through its bounds.
  const OcpFile f =
      read_ocp_file(example("ivp_local_minima.yaml"), {"ocp.initial.x.lower=-1", "ocp.initial.x.upper=-1"});
  EXPECT_EQ(f.ocp.x0_lower[0], -1);
  EXPECT_EQ(f.ocp.x0_upper[0], -1);
  EXPECT_EQ(f.model.pss.x0[0], -1);
}

}  // namespace
