// MPCC homotopy on small MPCCs with known solutions, in every relaxation and steering mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "stasis/error.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/sym.hpp"

using namespace stasis;
using namespace stasis::mpcc;
using sym::Expr;

namespace {

// fesd.md T8: min (x1−1)² + x2³ + x2² s.t. 0 <= x1 ⟂ x2 >= 0, start (0, 0); solution (1, 0), f* = 0.
Problem t8_problem() {
  Problem p;
  Index x = p.add_variables("x", 2, -kInf, kInf, 0.0);
  sym::Vector xs = sym::symbols("x", 2);
  BlockModel m;
  m.name = "t8";
  m.variables = xs;
  m.objective = sq(xs[0] - 1.0) + pow(xs[1], 3.0) + sq(xs[1]);
  m.G = {xs[0]};
  m.H = {xs[1]};
  p.add_block(p.add_block_kind(m), {x, x + 1});
  return p;
}

// min x1 + x2 − x3 s.t. 4x1 >= x3, 4x2 >= x3, 0 <= x1 ⟂ x2 >= 0: unique minimizer (0, 0, 0),
// C-stationary but not S-stationary (the second example).
Problem not_s_stationary_problem() {
  Problem p;
  Index x = p.add_variables("x", 3, -kInf, kInf, 1.0);
  sym::Vector xs = sym::symbols("x", 3);
  BlockModel m;
  m.name = "cstat";
  m.variables = xs;
  m.objective = xs[0] + xs[1] - xs[2];
  m.constraints = {4.0 * xs[0] - xs[2], 4.0 * xs[1] - xs[2]};
  m.G = {xs[0]};
  m.H = {xs[1]};
  p.add_block(p.add_block_kind(m), {x, x + 1, x + 2}, {}, {0.0, 0.0}, {kInf, kInf});
  return p;
}

struct Mode {
  Relaxation relaxation;
  Steering steering;
  HomotopyOptions options() const {
    HomotopyOptions o;
    o.relaxation = relaxation;
    o.steering = steering;
    return o;
  }
};

std::vector<Mode> all_modes() {
  return {{Relaxation::ScholtesIneq, Steering::Direct}, {Relaxation::ScholtesIneq, Steering::EllInf},
          {Relaxation::ScholtesIneq, Steering::Ell1},   {Relaxation::ScholtesEq, Steering::Direct},
          {Relaxation::ScholtesEq, Steering::EllInf},   {Relaxation::ScholtesEq, Steering::Ell1},
          {Relaxation::Ell1Penalty, Steering::Direct}};
}

}  // namespace

TEST(Homotopy, DefaultScheduleIsNosnocs) {
  // fesd.md T12: N_homotopy = 11, σ = 1, 0.1, ..., 1e-10 (repeated ×0.1).
  Problem p = t8_problem();
  Homotopy h(p);
  EXPECT_EQ(h.max_steps(), 11);
  EXPECT_DOUBLE_EQ(h.sigma_final(), 1e-10);
}

TEST(Homotopy, AutomaticStepCountReachesSigmaFinal) {
  // From σ0 = 1e-2 the steps are σ = 1e-2, ..., 1e-10 (9); nosnoc's formula ceil(log(σ_N/σ0)/log κ)
  // gives 8 and stops at 1e-9 (kept by preset nosnoc, fesd.md §5.4).
  Problem p = t8_problem();
  HomotopyOptions o;
  o.sigma0 = 1e-2;
  EXPECT_EQ(Homotopy(p, o).max_steps(), 9);
  o.sigma0 = 0.5;  // 0.5·0.1^10 = 5e-11 <= σ_N: 11 steps
  EXPECT_EQ(Homotopy(p, o).max_steps(), 11);
  HomotopyOptions n;
  apply_preset(n, "nosnoc");
  EXPECT_EQ(Homotopy(p, n).max_steps(), 11);
  n.sigma0 = 1e-2;
  EXPECT_EQ(Homotopy(p, n).max_steps(), 8);
}

TEST(Homotopy, T8EveryRelaxationAndSteering) {
  for (const Mode& mode : all_modes()) {
    Problem p = t8_problem();
    HomotopyOptions o = mode.options();
    Homotopy h(p, o);
    Result r = h.solve();
    SCOPED_TRACE(std::string(to_string(mode.relaxation)) + " / " + to_string(mode.steering));
    EXPECT_TRUE(r.converged) << r.message;
    EXPECT_LE(r.residual, 1e-9);
    // tolerance 1e-6: the relaxed solutions converge like sqrt(σ) for Scholtes at the final σ=1e-10
    EXPECT_NEAR(r.w[0], 1.0, 1e-6);
    EXPECT_NEAR(r.w[1], 0.0, 1e-6);
    EXPECT_NEAR(r.objective, 0.0, 1e-9);
  }
}

TEST(Homotopy, NotSStationaryEveryRelaxationAndSteering) {
  for (const Mode& mode : all_modes()) {
    Problem p = not_s_stationary_problem();
    HomotopyOptions o = mode.options();
    Homotopy h(p, o);
    Result r = h.solve();
    SCOPED_TRACE(std::string(to_string(mode.relaxation)) + " / " + to_string(mode.steering));
    EXPECT_TRUE(r.converged) << r.message;
    EXPECT_LE(r.residual, 1e-9);
    // The relaxed minimizers approach the origin like sqrt(σ) (x1 = x2 = sqrt(σ), x3 = 4 sqrt(σ) for
    // Scholtes), so at residual <= 1e-9 the distance is at most 4·sqrt(1e-9) ≈ 1.3e-4.
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.w[static_cast<std::size_t>(i)], 0.0, 4 * std::sqrt(1e-9) * 1.01);
  }
}

TEST(Homotopy, ProgressCallbackAndStatistics) {
  Problem p = t8_problem();
  Homotopy h(p);
  int calls = 0;
  h.on_step = [&](const StepStats& s) {
    EXPECT_EQ(s.step, calls);
    EXPECT_GT(s.sigma, 0.0);
    ++calls;
  };
  Result r = h.solve();
  EXPECT_EQ(calls, r.nlp_solves);
  EXPECT_EQ(static_cast<int>(r.steps.size()), r.nlp_solves);
  EXPECT_GT(r.nlp_iterations, 0);
  // σ decreases by κ = 0.1 per step
  for (std::size_t i = 1; i < r.steps.size(); ++i) EXPECT_NEAR(r.steps[i].sigma, 0.1 * r.steps[i - 1].sigma, 1e-20);
}

TEST(Homotopy, NosnocPresetConvergesToo) {
  Problem p = t8_problem();
  HomotopyOptions o;
  apply_preset(o, "nosnoc");
  Homotopy h(p, o);
  Result r = h.solve();
  EXPECT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.w[0], 1.0, 1e-6);
}

TEST(Homotopy, BadOptionsAreRejected) {
  HomotopyOptions o;
  EXPECT_THROW(set_option(o, "sigma_zero", "1"), Error);
  EXPECT_THROW(set_option(o, "relaxation", "scholtes"), Error);
  EXPECT_THROW(set_option(o, "kappa", "abc"), Error);
  o.kappa = 1.5;
  EXPECT_THROW(o.validate(), Error);
  set_option(o, "ipopt.mu_strategy", "monotone");
  EXPECT_EQ(o.ipopt.at("mu_strategy"), "monotone");
}

// Result::last_iterate: where the last relaxed NLP stopped. Equal to w after a successful step;
// after a failed first step w is the start point and last_iterate is IPOPT's own last point.
TEST(Homotopy, LastIterateOfAFailedStep) {
  {
    Problem p = t8_problem();
    Homotopy h(p);
    Result r = h.solve();
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_EQ(r.last_iterate, r.w);
  }
  // min x1² + x2² s.t. x1 + x2 = 1 and x1 + x2 = 3 (infeasible), 0 <= x1 ⟂ x2 >= 0, start (5, 5).
  Problem p;
  Index x = p.add_variables("x", 2, -kInf, kInf, 5.0);
  sym::Vector xs = sym::symbols("x", 2);
  BlockModel m;
  m.name = "infeasible";
  m.variables = xs;
  m.objective = sq(xs[0]) + sq(xs[1]);
  m.constraints = {xs[0] + xs[1], xs[0] + xs[1]};
  m.G = {xs[0]};
  m.H = {xs[1]};
  p.add_block(p.add_block_kind(m), {x, x + 1}, {}, {1.0, 3.0}, {1.0, 3.0});
  HomotopyOptions o;
  o.max_steps = 1;
  Homotopy h(p, o);
  Result r = h.solve();
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.w, (std::vector<double>{5.0, 5.0}));  // no good iterate: the start point
  ASSERT_EQ(r.last_iterate.size(), 2u);
  EXPECT_NE(r.last_iterate, r.w);
  // IPOPT ends near the least-squares point x1 + x2 = 2.
  EXPECT_NEAR(r.last_iterate[0] + r.last_iterate[1], 2.0, 0.5);
}

// Active-set polishing (HomotopyOptions::polish). On the C-stationary example the relaxed
// minimizers are x1 = x2 = sqrt(σ), x3 = 4 sqrt(σ) (residual σ); after the σ = 1 step (residual 1,
// at the threshold) the branch x1 = 0 leaves min x2 − x3 s.t. x3 <= 4 x2, x3 <= 0, x2 >= 0, whose
// solution is the MPCC's (0, 0, 0). The homotopy stops after one relaxed step and one polishing
// solve, in every relaxation and steering mode (the branch NLP has no relaxation rows and no
// elastic variables). Without polishing it needs 10 steps (residual <= 1e-9 at σ = 1e-9).
TEST(Homotopy, PolishingStopsAtTheExactSolutionOfTheIdentifiedBranch) {
  for (const Mode& mode : all_modes()) {
    Problem p = not_s_stationary_problem();
    HomotopyOptions o = mode.options();
    o.polish = true;
    o.polish_threshold = 1.0 + 1e-6;
    Homotopy h(p, o);
    int calls = 0;
    h.on_step = [&](const StepStats& s) { EXPECT_EQ(s.step, calls++); };
    Result r = h.solve();
    SCOPED_TRACE(std::string(to_string(mode.relaxation)) + " / " + to_string(mode.steering));
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_TRUE(r.polished);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_FALSE(r.steps[0].polish);
    EXPECT_GT(r.steps[0].residual, 1e-3);  // the relaxed step alone is far from converged
    EXPECT_TRUE(r.steps[1].polish);
    EXPECT_EQ(r.steps[1].sigma, 0.0);
    EXPECT_EQ(r.nlp_solves, 2);
    EXPECT_EQ(calls, 2);
    // One side is fixed at 0 by its bounds: the residual is exactly 0; the rest to IPOPT's tol.
    EXPECT_EQ(r.residual, 0.0);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.w[static_cast<std::size_t>(i)], 0.0, 1e-9);
    EXPECT_NE(r.message.find("polishing"), std::string::npos) << r.message;
  }
}

// The sides a branch fixes: a variable (bounds), an affine side that is >= 0 by the bounds
// (its variables go to those bounds) and any other side (an equality row).
//   min (a − 0.2)² + (y − 1)² + (z − 3)² + (v − 2.5)²
//   s.t. 0 <= y ⟂ 1 − a >= 0 (a in [0, 1], y >= 0),  0 <= z − 1 ⟂ v >= 0 (z free, v >= 0).
// The σ = 1 step: the first pair's unconstrained optimum (a, y) = (0.2, 1) has y(1 − a) = 0.8 <= 1,
// so it stays, and its smaller side is 1 − a = 0.8: a is fixed at its upper bound 1. The second
// pair has u = z − 1, min (u − 2)² + (v − 2.5)² s.t. uv <= 1, so u < v and the smaller side z − 1
// becomes the row z − 1 = 0. The branch optimum is (a, y, z, v) = (1, 1, 1, 2.5), f = 0.64 + 4.
TEST(Homotopy, PolishingFixesVariablesAffineSidesAndRows) {
  Problem p;
  Index a = p.add_variable("a", 0.0, 1.0, 0.2);
  Index y = p.add_variable("y", 0.0, kInf, 1.0);
  Index z = p.add_variable("z", -kInf, kInf, 3.0);
  Index v = p.add_variable("v", 0.0, kInf, 2.0);
  sym::Vector s = sym::symbols("s", 4);  // a, y, z, v
  BlockModel m;
  m.name = "branches";
  m.variables = s;
  m.objective = sq(s[0] - 0.2) + sq(s[1] - 1.0) + sq(s[2] - 3.0) + sq(s[3] - 2.5);
  m.G = {s[1], s[2] - 1.0};
  m.H = {1.0 - s[0], s[3]};
  m.nonnegativity_implied = false;  // z − 1 >= 0 is a row
  p.add_block(p.add_block_kind(m), {a, y, z, v});
  HomotopyOptions o;
  o.polish = true;
  o.polish_threshold = 10.0;
  o.max_steps = 1;  // only the σ = 1 step, then the branch its point selects
  Homotopy h(p, o);
  Result r = h.solve();
  ASSERT_TRUE(r.converged) << r.message;
  ASSERT_TRUE(r.polished);
  EXPECT_EQ(r.w[0], 1.0);  // fixed through its bound: exact
  EXPECT_NEAR(r.w[1], 1.0, 1e-9);
  EXPECT_NEAR(r.w[2], 1.0, 1e-9);  // the row z − 1 = 0, to IPOPT's tol
  EXPECT_NEAR(r.w[3], 2.5, 1e-9);
  EXPECT_NEAR(r.objective, 4.64, 1e-9);
  EXPECT_LE(r.residual, 1e-9);
}

// A finishing solve (`option` switched on) whose `threshold` is below every step's residual is
// never tried: the same steps as the plain homotopy, none flagged, and the result not marked.
void expect_plain_steps(const Problem& p, const char* option, const char* threshold, bool StepStats::*flag,
                        bool Result::*finished) {
  HomotopyOptions o;
  const Result plain = Homotopy(p, o).solve();
  set_option(o, option, "true");
  set_option(o, threshold, "1e-12");
  const Result r = Homotopy(p, o).solve();
  ASSERT_TRUE(r.converged);
  EXPECT_FALSE(r.*finished);
  ASSERT_EQ(r.steps.size(), plain.steps.size());
  for (const auto& s : r.steps) EXPECT_FALSE(s.*flag);
}

// Below the threshold only: with polish_threshold under every step's residual the homotopy is
// the plain one (the same steps as without polishing).
TEST(Homotopy, PolishingIsNotTriedAboveItsThreshold) {
  expect_plain_steps(t8_problem(), "polish", "polish_threshold", &StepStats::polish, &Result::polished);
  HomotopyOptions bad;
  EXPECT_THROW(set_option(bad, "polish_threshold", "0"); bad.validate(), Error);
  EXPECT_THROW(set_option(bad, "polish", "maybe"), Error);
}

// The ℓ1-penalty finish (HomotopyOptions::penalty_finish) on the C-stationary example. After the
// σ = 1 step (residual 1, at the threshold) the finish minimizes x1 + x2 − x3 + x1·x2/σ_p over
// x3 <= 4 x1, x3 <= 4 x2, x1, x2 >= 0: on x1 = x2 = t, x3 = 4t that is −2t + t²/σ_p, minimal at
// t = σ_p (residual σ_p²). So σ_p = 1e-2, 1e-3, 1e-4 leave residuals 1e-4, 1e-6, 1e-8 and
// σ_p = 1e-5 the residual 1e-10 <= 1e-9: one relaxed step and four penalty steps (without the
// finish the homotopy needs 10 steps), in every relaxation and steering mode.
TEST(Homotopy, PenaltyFinishGoesOnWithTheL1PenaltyFromASmallResidual) {
  for (const Mode& mode : all_modes()) {
    Problem p = not_s_stationary_problem();
    HomotopyOptions o = mode.options();
    o.penalty_finish = true;
    o.penalty_finish_threshold = 1.0 + 1e-6;
    o.penalty_finish_sigma0 = 1e-2;
    Homotopy h(p, o);
    int calls = 0;
    h.on_step = [&](const StepStats& s) { EXPECT_EQ(s.step, calls++); };
    Result r = h.solve();
    SCOPED_TRACE(std::string(to_string(mode.relaxation)) + " / " + to_string(mode.steering));
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_TRUE(r.penalty_finished);
    ASSERT_EQ(r.steps.size(), 5u);
    EXPECT_EQ(calls, 5);
    EXPECT_EQ(r.nlp_solves, 5);
    EXPECT_FALSE(r.steps[0].penalty);
    const double sigma_p[] = {1e-2, 1e-3, 1e-4, 1e-5};
    for (int k = 0; k < 4; ++k) {
      const StepStats& s = r.steps[static_cast<std::size_t>(k + 1)];
      EXPECT_TRUE(s.penalty);
      EXPECT_NEAR(s.sigma, sigma_p[k], 1e-12 * sigma_p[k]);
      EXPECT_NEAR(s.residual, sigma_p[k] * sigma_p[k], 1e-3 * sigma_p[k] * sigma_p[k]);  // t = σ_p to IPOPT's tol
    }
    EXPECT_NEAR(r.residual, 1e-10, 1e-13);
    EXPECT_NEAR(r.w[0], 1e-5, 1e-8);
    EXPECT_NEAR(r.w[1], 1e-5, 1e-8);
    EXPECT_NEAR(r.w[2], 4e-5, 1e-8);
    EXPECT_NE(r.message.find("penalty"), std::string::npos) << r.message;
  }
}

// penalty_finish_sigma0 = 0: the finish starts at the σ of the step it goes on from. On the same
// problem the Scholtes steps end at x1 = x2 = √σ (residual σ): σ = 1 and 0.1, the second at the
// threshold; the finish from σ_p = 0.1 leaves residuals σ_p² (0.01 .. 1e-10 for σ_p = 0.1 .. 1e-5).
TEST(Homotopy, PenaltyFinishCanStartAtTheStepsSigma) {
  Problem p = not_s_stationary_problem();
  HomotopyOptions o;
  o.penalty_finish = true;
  o.penalty_finish_threshold = 0.1 * (1.0 + 1e-6);
  o.penalty_finish_sigma0 = 0.0;
  Homotopy h(p, o);
  Result r = h.solve();
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_TRUE(r.penalty_finished);
  ASSERT_EQ(r.steps.size(), 7u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_FALSE(r.steps[static_cast<std::size_t>(k)].penalty);
    EXPECT_NEAR(r.steps[static_cast<std::size_t>(k)].residual, std::pow(0.1, k), 1e-6);
  }
  for (int k = 0; k < 5; ++k) {
    const StepStats& s = r.steps[static_cast<std::size_t>(k + 2)];
    const double sigma_p = 0.1 * std::pow(0.1, k);
    EXPECT_TRUE(s.penalty);
    EXPECT_NEAR(s.sigma, sigma_p, 1e-12 * sigma_p);
    EXPECT_NEAR(s.residual, sigma_p * sigma_p, 1e-3 * sigma_p * sigma_p);  // t = σ_p to IPOPT's tol
  }
  EXPECT_NEAR(r.residual, 1e-10, 1e-13);
  HomotopyOptions bad;
  EXPECT_NO_THROW(bad.validate());
  EXPECT_THROW(set_option(bad, "penalty_finish_sigma0", "inf"); bad.validate(), Error);
}

// Above its threshold the finish is not tried (the plain homotopy's steps); bad values are refused.
TEST(Homotopy, PenaltyFinishIsNotTriedAboveItsThreshold) {
  expect_plain_steps(not_s_stationary_problem(), "penalty_finish", "penalty_finish_threshold", &StepStats::penalty,
                     &Result::penalty_finished);
  HomotopyOptions bad;
  EXPECT_THROW(set_option(bad, "penalty_finish_threshold", "0"); bad.validate(), Error);
  HomotopyOptions bad2;
  EXPECT_THROW(set_option(bad2, "penalty_finish_sigma0", "-1"); bad2.validate(), Error);
  EXPECT_THROW(set_option(bad2, "penalty_finish", "maybe"), Error);
}

// A branch that cannot be taken and the fallback: min (x − 0.6)² + (y − 0.5)², y in [0.5, 2],
// 0 <= y ⟂ x >= 0. The σ = 1 step keeps (x, y) = (0.6, 0.5) (xy = 0.3 <= 1); its smaller side is
// y, which its bounds keep away from 0, so that polishing fails at once and the homotopy goes on.
// At σ = 0.1 the step gives x = 0.2 < y = 0.5 and the branch x = 0 gives the solution (0, 0.5).
TEST(Homotopy, PolishingFallsBackToTheHomotopyWhenABranchIsInfeasible) {
  Problem p;
  Index x = p.add_variable("x", 0.0, kInf, 0.6);
  Index y = p.add_variable("y", 0.5, 2.0, 0.5);
  sym::Vector s = sym::symbols("s", 2);
  BlockModel m;
  m.name = "fallback";
  m.variables = s;
  m.objective = sq(s[0] - 0.6) + sq(s[1] - 0.5);
  m.G = {s[1]};
  m.H = {s[0]};
  m.nonnegativity_implied = true;
  p.add_block(p.add_block_kind(m), {x, y});
  HomotopyOptions o;
  o.polish = true;
  o.polish_threshold = 1.0;
  Result r = Homotopy(p, o).solve();
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_TRUE(r.polished);
  ASSERT_EQ(r.steps.size(), 4u);
  EXPECT_TRUE(r.steps[1].polish);
  EXPECT_FALSE(nlp::is_success(r.steps[1].status));
  EXPECT_FALSE(r.steps[2].polish);
  EXPECT_DOUBLE_EQ(r.steps[2].sigma, 0.1);
  EXPECT_TRUE(r.steps[3].polish);
  EXPECT_EQ(r.w[0], 0.0);
  // y's optimum lies on its bound with a zero multiplier, which IPOPT approaches only like the
  // square root of its barrier parameter: measured 5.8e-7 away, so 1e-6.
  EXPECT_NEAR(r.w[1], 0.5, 1e-6);
  EXPECT_NEAR(r.objective, 0.36, 1e-9);
}

// Problem::largest_products: positive products only, largest first, at most `count`, each named by
// its block label and pair name (unnamed pairs by position). Values chosen by hand.
TEST(Homotopy, LargestProductsAreSortedAndNamed) {
  Problem p;
  Index x = p.add_variables("x", 4, 0.0, kInf, 0.0);
  sym::Vector xs = sym::symbols("x", 4);
  BlockModel named;
  named.name = "named";
  named.variables = xs;
  named.G = {xs[0], xs[2]};
  named.H = {xs[1], xs[3]};
  named.pair_names = {"first", "second"};
  p.add_block(p.add_block_kind(named), {x, x + 1, x + 2, x + 3}, {}, {}, {}, "block A");
  BlockModel plain;
  plain.name = "plain";
  plain.variables = {xs[0], xs[3]};
  plain.G = {xs[0]};
  plain.H = {xs[3]};
  p.add_block(p.add_block_kind(plain), {x, x + 3});
  const std::vector<double> w{2.0, 0.5, 0.0, 3.0};  // products 1, 0, 6
  const std::vector<PairValue> top = p.largest_products(w, 5);
  ASSERT_EQ(top.size(), 2u);  // the zero product is not listed
  EXPECT_EQ(top[0].block, "plain");  // an unlabelled block goes by its kind's name
  EXPECT_EQ(top[0].pair, "pair 0");
  EXPECT_DOUBLE_EQ(top[0].product(), 6.0);
  EXPECT_EQ(top[1].block, "block A");
  EXPECT_EQ(top[1].pair, "first");
  EXPECT_DOUBLE_EQ(top[1].G, 2.0);
  EXPECT_DOUBLE_EQ(top[1].H, 0.5);
  const std::vector<PairValue> one = p.largest_products(w, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].pair, "pair 0");
  EXPECT_TRUE(p.largest_products(w, 0).empty());
}

// Problem::largest_violations: rows against their bounds (no bounds = equality), G, H >= 0 of pairs
// whose nonnegativity is not implied, and variable bounds; violated ones only, largest first, named.
// Values by hand: w = (2, -0.5, 3): bound x1 >= 0 by 0.5, row x0 + x2 <= 4 by 1, equality
// x0 - x2 = 0 by 1 (a tie: either order), G = x1 of the pair by 0.5, row x0 >= 1 holds.
TEST(Homotopy, LargestViolationsAreSortedAndNamed) {
  Problem p;
  Index x = p.add_variables("x", 3, -kInf, kInf, 0.0);
  p.lower()[1] = 0.0;
  sym::Vector xs = sym::symbols("x", 3);
  BlockModel rows;
  rows.name = "rows";
  rows.variables = xs;
  rows.constraints = {xs[0] + xs[2], xs[0]};
  rows.constraint_names = {"sum <= 4", "x0 >= 1"};
  rows.G = {xs[1]};
  rows.H = {xs[0]};
  rows.pair_names = {"x1 ⟂ x0"};
  p.add_block(p.add_block_kind(rows), {x, x + 1, x + 2}, {}, {-kInf, 1.0}, {4.0, kInf}, "block A");
  BlockModel equal;
  equal.name = "equal";
  equal.variables = {xs[0], xs[2]};
  equal.constraints = {xs[0] - xs[2]};
  p.add_block(p.add_block_kind(equal), {x, x + 2});
  const std::vector<double> w{2.0, -0.5, 3.0};
  const std::vector<ViolationValue> top = p.largest_violations(w, 10);
  ASSERT_EQ(top.size(), 4u);
  EXPECT_DOUBLE_EQ(top[0].violation(), 1.0);
  EXPECT_DOUBLE_EQ(top[1].violation(), 1.0);
  const bool sum_first = top[0].what == "sum <= 4";
  const ViolationValue& sum = top[sum_first ? 0 : 1];
  const ViolationValue& eq = top[sum_first ? 1 : 0];
  EXPECT_EQ(sum.block, "block A");
  EXPECT_EQ(sum.what, "sum <= 4");
  EXPECT_DOUBLE_EQ(sum.value, 5.0);
  EXPECT_EQ(eq.block, "equal");  // an unlabelled block goes by its kind's name
  EXPECT_EQ(eq.what, "row 0");   // an unnamed row by its position
  EXPECT_DOUBLE_EQ(eq.value, -1.0);
  EXPECT_DOUBLE_EQ(eq.lower, 0.0);
  EXPECT_DOUBLE_EQ(eq.upper, 0.0);
  for (std::size_t i : {2u, 3u}) EXPECT_DOUBLE_EQ(top[i].violation(), 0.5);
  std::vector<std::string> halves{top[2].what, top[3].what};
  std::sort(halves.begin(), halves.end());
  EXPECT_EQ(halves, (std::vector<std::string>{"G >= 0 of x1 ⟂ x0", "x[1]"}));
  ASSERT_EQ(p.largest_violations(w, 1).size(), 1u);
  EXPECT_TRUE(p.largest_violations(w, 0).empty());
  EXPECT_TRUE(p.largest_violations({2.0, 0.0, 2.0}, 10).empty());  // feasible
}

// ralph2 (examples/mpcc/ralph2.yaml): min x² + y² − 4xy, 0 <= x ⟂ y >= 0, from (0.5, 0.5); with
// `infeasible_row` also the row x + y <= -1, which no x, y >= 0 satisfies.
static Problem ralph2(bool infeasible_row = false) {
  Problem p;
  Index x = p.add_variables("x", 2, 0.0, kInf, 0.5);
  sym::Vector xs = sym::symbols("x", 2);
  BlockModel m;
  m.name = "ralph2";
  m.variables = xs;
  m.objective = xs[0] * xs[0] + xs[1] * xs[1] - 4.0 * xs[0] * xs[1];
  if (infeasible_row) {
    m.constraints = {xs[0] + xs[1]};
    m.constraint_names = {"x + y <= -1"};
  }
  m.G = {xs[0]};
  m.H = {xs[1]};
  m.pair_names = {"x ⟂ y"};
  if (infeasible_row)
    p.add_block(p.add_block_kind(m), {x, x + 1}, {}, {-kInf}, {-1.0}, "ralph2");
  else
    p.add_block(p.add_block_kind(m), {x, x + 1}, {}, {}, {}, "ralph2");
  return p;
}

// A relaxed NLP that fails names what kept it infeasible: ralph2 with the row x + y <= -1, which
// no x, y >= 0 satisfies, is violated by at least 1 wherever IPOPT stops. (A successful step lists
// nothing: ResultListsLargestProductsOnlyWhenNotConverged.)
TEST(Homotopy, FailedStepListsItsLargestViolations) {
  Problem p = ralph2(true);
  HomotopyOptions o;
  o.max_steps = 1;
  Result failed = Homotopy(p, o).solve();
  ASSERT_FALSE(failed.converged);
  ASSERT_EQ(failed.steps.size(), 1u);
  ASSERT_FALSE(failed.steps[0].largest_violations.empty()) << failed.message;
  EXPECT_EQ(failed.steps[0].largest_violations[0].what, "x + y <= -1");
  EXPECT_GE(failed.steps[0].largest_violations[0].violation(), 1.0 - 1e-9);
  ASSERT_EQ(failed.largest_violations.size(), failed.steps[0].largest_violations.size());
  EXPECT_EQ(failed.largest_violations[0].what, "x + y <= -1");
}

// A homotopy stopped above its tolerance reports where its residual is; a converged one does not.
// ralph2 (examples/mpcc/ralph2.yaml): min x² + y² − 4xy, 0 <= x ⟂ y >= 0; the relaxed minimizer at
// σ = 1 is x = y = sqrt(σ) = 1, so the stopped run's one pair has product 1.
TEST(Homotopy, ResultListsLargestProductsOnlyWhenNotConverged) {
  Problem p = ralph2();
  HomotopyOptions o;
  o.max_steps = 1;
  Result stopped = Homotopy(p, o).solve();
  ASSERT_FALSE(stopped.converged);
  ASSERT_EQ(stopped.largest_pairs.size(), 1u);
  EXPECT_EQ(stopped.largest_pairs[0].pair, "x ⟂ y");
  EXPECT_NEAR(stopped.largest_pairs[0].product(), 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(stopped.largest_pairs[0].product(), stopped.residual);
  EXPECT_TRUE(stopped.largest_violations.empty());  // stopped, but its NLP succeeded
  EXPECT_TRUE(stopped.steps[0].largest_violations.empty());
  Result done = Homotopy(p).solve();
  ASSERT_TRUE(done.converged) << done.message;
  EXPECT_TRUE(done.largest_pairs.empty());
}

// solve(w0, σ0, duals0): the multipliers of a converged solve start the first step (IPOPT's warm
// start, with bound pushes of 1e-9), so a re-solve at the last σ needs fewer IPOPT iterations
// than from the point alone; multipliers of another size are ignored (duals0_used false) and the
// solve is the same as without them.
TEST(Homotopy, MultipliersOfAnEarlierSolveStartTheFirstStep) {
  Problem p = not_s_stationary_problem();
  Homotopy h(p);
  const Result first = h.solve();
  ASSERT_TRUE(first.converged) << first.message;
  ASSERT_FALSE(first.multipliers.lambda_g.empty());
  EXPECT_FALSE(first.duals0_used);
  const double sigma_last = first.steps.back().sigma;

  const Result with = h.solve(first.w, sigma_last, &first.multipliers);
  EXPECT_TRUE(with.duals0_used);
  ASSERT_TRUE(with.converged) << with.message;
  const Result without = h.solve(first.w, sigma_last);
  EXPECT_FALSE(without.duals0_used);
  ASSERT_TRUE(without.converged) << without.message;
  EXPECT_LT(with.nlp_iterations, without.nlp_iterations);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(with.w[i], without.w[i], 1e-6) << i;

  nlp::Multipliers other = first.multipliers;
  other.lambda_g.push_back(0.0);
  const Result ignored = h.solve(first.w, sigma_last, &other);
  EXPECT_FALSE(ignored.duals0_used);
  EXPECT_EQ(ignored.nlp_iterations, without.nlp_iterations);
}

// on_checkpoint: after every relaxed NLP that solved, the point and that NLP's multipliers; the
// last checkpoint of a converged solve is its result (w, multipliers), and resuming from it with
// solve(w, σ, &multipliers) needs no more IPOPT iterations than the step that wrote it took
// from the previous σ (not_s_stationary_problem, converging without a polish).
TEST(Homotopy, CheckpointsAreTheStepsThatSolved) {
  Problem p = not_s_stationary_problem();
  Homotopy h(p);
  std::vector<StepStats> steps;
  std::vector<std::vector<double>> points;
  nlp::Multipliers last;
  h.on_checkpoint = [&](const StepStats& st, const std::vector<double>& w, const nlp::Multipliers& m) {
    steps.push_back(st);
    points.push_back(w);
    last = m;
  };
  const Result r = h.solve();
  ASSERT_TRUE(r.converged) << r.message;
  ASSERT_FALSE(r.polished);
  ASSERT_EQ(steps.size(), r.steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].sigma, r.steps[i].sigma) << i;
    EXPECT_EQ(points[i].size(), p.n_variables()) << i;
  }
  EXPECT_EQ(points.back(), r.w);
  EXPECT_EQ(r.multipliers_step, steps.back().step);
  EXPECT_EQ(last.lambda_g, r.multipliers.lambda_g);
  EXPECT_EQ(last.z_lower, r.multipliers.z_lower);
  h.on_checkpoint = nullptr;
  const Result resumed = h.solve(points.back(), steps.back().sigma, &last);
  EXPECT_TRUE(resumed.duals0_used);
  ASSERT_TRUE(resumed.converged) << resumed.message;
  EXPECT_LE(resumed.nlp_iterations, r.steps.back().iterations);
  for (std::size_t i = 0; i < r.w.size(); ++i) EXPECT_NEAR(resumed.w[i], r.w[i], 1e-6) << i;
}

// A step whose NLP failed is no checkpoint: ralph2 stopped by max_iter 1 (each NLP at its limit).
TEST(Homotopy, NoCheckpointForAFailedStep) {
  Problem p = ralph2();
  HomotopyOptions o;
  o.max_iter = 1;
  o.max_steps = 2;
  Homotopy h(p, o);
  int checkpoints = 0;
  h.on_checkpoint = [&](const StepStats&, const std::vector<double>&, const nlp::Multipliers&) { ++checkpoints; };
  const Result r = h.solve();
  ASSERT_FALSE(r.steps.empty());
  for (const StepStats& st : r.steps) ASSERT_FALSE(nlp::is_success(st.status));
  EXPECT_EQ(checkpoints, 0);
  EXPECT_EQ(r.multipliers_step, -1);
}

// HomotopyOptions::warm_first_iter: with a budget no step needs, every step after the first is
// solved by its first try from the previous multipliers, so the homotopy is warm_start_duals's,
// IPOPT solve for IPOPT solve; with a budget of 1 iteration the first tries run out of it, and each
// goes on from where it stopped (its iterate and multipliers) with the rest of max_iter, instead of
// the zero start (1 + the plain homotopy's iterations, 8, 9, 10, 12, ..., 19, 21 here). Measured:
// 6, 7, 7, 8, 9, 11, 11, 21, 46 (131 in all, plain 122): close to warm_start_duals's counts
// (6, 6, 7, 7, 8, 9, 10, 24, 60), which is what the short try starts from.
TEST(Homotopy, WarmFirstTryFromThePreviousMultipliers) {
  Problem p = not_s_stationary_problem();
  HomotopyOptions plain, warm, first, short_first;
  warm.warm_start_duals = true;
  first.warm_first_iter = 1000;
  short_first.warm_first_iter = 1;
  const Result r_plain = Homotopy(p, plain).solve();
  const Result r_warm = Homotopy(p, warm).solve();
  const Result r_first = Homotopy(p, first).solve();
  const Result r_short = Homotopy(p, short_first).solve();
  for (const Result* r : {&r_plain, &r_warm, &r_first, &r_short}) ASSERT_TRUE(r->converged) << r->message;
  ASSERT_EQ(r_first.steps.size(), r_warm.steps.size());
  for (std::size_t i = 0; i < r_first.steps.size(); ++i)
    EXPECT_EQ(r_first.steps[i].iterations, r_warm.steps[i].iterations) << "step " << i;
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(r_first.w[i], r_warm.w[i]) << i;
  // The short tries: one iteration each on the steps after the first, unless one converged in it;
  // the others went on from the try's iterate, not from zero multipliers.
  ASSERT_EQ(r_short.steps.size(), r_plain.steps.size());
  EXPECT_EQ(r_short.steps[0].iterations, r_plain.steps[0].iterations);
  int continued = 0;
  for (std::size_t i = 1; i < r_short.steps.size(); ++i) {
    if (r_short.steps[i].iterations == 1) continue;  // solved by its one-iteration first try
    EXPECT_TRUE(nlp::is_success(r_short.steps[i].status)) << "step " << i;
    if (r_short.steps[i].iterations != r_plain.steps[i].iterations + 1) ++continued;
  }
  EXPECT_GT(continued, 0);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(r_short.w[i], r_plain.w[i], 1e-12) << i;

  HomotopyOptions bad;
  bad.warm_first_iter = -1;
  EXPECT_THROW(Homotopy(p, bad), Error);

  // An iteration limit given as ipopt.max_iter (10) holds for every solve of a step, the short
  // try, the start from zero multipliers and the retry: at most 30 iterations per step. The
  // σ = 1e-8 step needs more than 10 from either start (24 from the previous multipliers, 18 from
  // zero ones in the runs above), so the limited homotopy cannot converge; were the limit
  // restored to max_iter (500) after the short try, the zero start would solve it.
  HomotopyOptions limited;
  limited.warm_first_iter = 1000;
  limited.ipopt["max_iter"] = "10";
  ASSERT_GT(r_plain.steps.size(), 8u);
  ASSERT_GT(r_plain.steps[8].iterations, 10);
  ASSERT_GT(r_warm.steps[8].iterations, 10);
  const Result r_limited = Homotopy(p, limited).solve();
  EXPECT_FALSE(r_limited.converged);
  for (const StepStats& st : r_limited.steps) EXPECT_LE(st.iterations, 30) << "sigma " << st.sigma;
}
