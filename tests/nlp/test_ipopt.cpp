// nlp::Problem assembly and IpoptSolver on classic test problems with known solutions.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "stasis/error.hpp"
#include "stasis/nlp/ipopt_solver.hpp"
#include "stasis/nlp/problem.hpp"
#include "stasis/sym.hpp"

using namespace stasis;
using namespace stasis::nlp;
using sym::Expr;

// Hock–Schittkowski problem 71 (IPOPT's own example): f* = 17.014017..., x* from the IPOPT docs.
TEST(Ipopt, Hs071) {
  Problem p;
  Index x0 = p.add_variables("x", 4, 1.0, 5.0, 0.0);
  p.start() = {1.0, 5.0, 5.0, 1.0};
  sym::Vector x = sym::symbols("x", 4);
  BlockModel m;
  m.name = "hs071";
  m.variables = x;
  m.objective = x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2];
  m.constraints = {x[0] * x[1] * x[2] * x[3], sq(x[0]) + sq(x[1]) + sq(x[2]) + sq(x[3])};
  int k = p.add_block_kind(m);
  p.add_block(k, {x0, x0 + 1, x0 + 2, x0 + 3}, {}, {25.0, 40.0}, {kInf, 40.0});
  p.finalize();
  EXPECT_EQ(p.hessian_nnz(), 10u);  // dense lower triangle of a 4x4
  IpoptSolver solver;
  solver.set_option("tol", 1e-10);
  SolveResult r = solver.solve(p, p.start());
  ASSERT_EQ(r.status, Status::Success) << to_string(r.status);
  EXPECT_NEAR(r.objective, 17.014017145179164, 1e-7);  // IPOPT documentation value
  const double xs[4] = {1.0, 4.7429996418092970, 3.8211499817883077, 1.3794082897556983};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.w[static_cast<std::size_t>(i)], xs[i], 1e-6);
  EXPECT_GT(r.iterations, 0);
}

// Rosenbrock as a chain of objective blocks sharing variables: minimum 0 at (1, ..., 1).
TEST(Ipopt, ChainedRosenbrockFromBlocks) {
  const int n = 20;
  Problem p;
  Index first = p.add_variables("x", n, -kInf, kInf, -1.2);
  Expr a = Expr::symbol("a"), b = Expr::symbol("b");
  BlockModel m;
  m.name = "rosen_term";
  m.variables = {a, b};
  m.objective = 100.0 * sq(b - sq(a)) + sq(1.0 - a);
  int k = p.add_block_kind(m);
  for (int i = 0; i + 1 < n; ++i) p.add_block(k, {first + i, first + i + 1});
  p.finalize();
  EXPECT_EQ(p.hessian_nnz(), static_cast<std::size_t>(2 * n - 1));  // tridiagonal lower triangle
  IpoptSolver solver;
  solver.set_option("tol", 1e-12);
  SolveResult r = solver.solve(p, p.start());
  ASSERT_EQ(r.status, Status::Success) << to_string(r.status);
  EXPECT_NEAR(r.objective, 0.0, 1e-12);
  for (double v : r.w) EXPECT_NEAR(v, 1.0, 1e-6);
}

TEST(Ipopt, ParametersChangeWithoutRebuilding) {
  // min (x - p)^2: the solution follows the runtime parameter.
  Problem p;
  Index x = p.add_variable("x");
  Index par = p.add_parameter("p", 1.0);
  Expr xs = Expr::symbol("x"), ps = Expr::symbol("p");
  BlockModel m{"track", {xs}, {ps}, sq(xs - ps), {}, {}};
  p.add_block(p.add_block_kind(m), {x}, {par});
  p.finalize();
  IpoptSolver solver;
  EXPECT_NEAR(solver.solve(p, {0.0}).w[0], 1.0, 1e-8);
  p.set_parameter(par, -3.0);
  SolveResult r = solver.solve(p, {0.0});
  EXPECT_NEAR(r.w[0], -3.0, 1e-8);
  // Warm start with duals is accepted.
  SolveResult r2 = solver.solve(p, r.w, &r.multipliers);
  EXPECT_TRUE(is_success(r2.status));
}

TEST(Ipopt, BadInputIsReported) {
  IpoptSolver solver;
  EXPECT_THROW(solver.set_option("no_such_option", "1"), Error);
  Problem p;
  p.add_variable("x", 2.0, 1.0);
  EXPECT_THROW(p.check_bounds(), Error);
  Problem q;
  Index x = q.add_variable("x", -kInf, kInf, 0.0);
  Expr xs = Expr::symbol("x");
  q.add_block(q.add_block_kind({"logx", {xs}, {}, sym::log(xs), {}, {}}), {x});
  q.finalize();
  try {
    q.check_finite_at(q.start().data());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("logx"), std::string::npos) << e.what();
  }
}

// Rows matched by key (multipliers carried to a changed NLP: the ℓ1-penalty finish, start.json):
// a repeated key's rows pair in order, keys without a partner give -1.
TEST(NlpKeys, RepeatedKeysAreNumberedAndMatchedInOrder) {
  const std::vector<std::string> from = stasis::nlp::numbered_keys({"a", "b", "a", "c", "a"});
  EXPECT_EQ(from, (std::vector<std::string>{"a", "b", "a #2", "c", "a #3"}));
  const std::vector<std::string> to = stasis::nlp::numbered_keys({"a", "a", "d", "b"});
  EXPECT_EQ(stasis::nlp::match_keys(from, to), (std::vector<std::ptrdiff_t>{0, 2, -1, 1}));
  EXPECT_TRUE(stasis::nlp::match_keys({}, {}).empty());
}
