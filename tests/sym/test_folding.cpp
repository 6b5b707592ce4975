// Constant folding and simplification: identities fold, nothing structurally nonzero is dropped
// (derivative patterns stay complete through if_else / fmin / fmax / abs), and an expression of
// constants folds to exactly (bit for bit) the value of the same double computation.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "sym_test_support.hpp"

namespace {

using namespace symtest;
using sym::Op;
using sym::Vector;

bool bits_equal(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// The documented identities fold to the expected node.
TEST(SymFolding, IdentitiesFold) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y"), c = Expr::symbol("c");
  EXPECT_TRUE((x * 0.0).is_zero());
  EXPECT_TRUE((0.0 * x).is_zero());
  EXPECT_TRUE(sym::is_same(x + 0.0, x));
  EXPECT_TRUE(sym::is_same(0.0 + x, x));
  EXPECT_TRUE(sym::is_same(x - 0.0, x));
  EXPECT_TRUE(sym::is_same(0.0 - x, -x));
  EXPECT_TRUE((x - x).is_zero());
  EXPECT_TRUE(sym::is_same(-(-x), x));
  EXPECT_TRUE(sym::is_same(x * 1.0, x));
  EXPECT_TRUE(sym::is_same(x / 1.0, x));
  EXPECT_TRUE(sym::is_same(x / -1.0, -x));
  EXPECT_TRUE(sym::is_same(x * -1.0, -x));
  EXPECT_TRUE((0.0 / x).is_zero());
  EXPECT_TRUE(sym::is_same(x + (-y), x - y));
  EXPECT_TRUE(sym::is_same(x - (-y), x + y));
  EXPECT_TRUE(sym::is_same(x * x, sym::sq(x)));
  EXPECT_TRUE(sym::pow(x, 0.0).is_one());
  EXPECT_TRUE(sym::is_same(sym::pow(x, 1.0), x));
  EXPECT_TRUE(sym::is_same(sym::pow(x, 2.0), sym::sq(x)));
  EXPECT_EQ(sym::pow(x, Expr(3.0)).op(), Op::PowConst);
  EXPECT_EQ(sym::pow(x, Expr(3.0)).exponent(), 3.0);
  EXPECT_TRUE(sym::is_same(sym::if_else(1.0, x, y), x));
  EXPECT_TRUE(sym::is_same(sym::if_else(0.0, x, y), y));
  EXPECT_TRUE(sym::is_same(sym::if_else(c, x, x), x));
  EXPECT_TRUE(sym::is_same(sym::fmin(x, x), x));
  EXPECT_TRUE(sym::is_same(sym::fmax(x, x), x));
  // commutative operations are canonical
  EXPECT_TRUE(sym::is_same(x + y, y + x));
  EXPECT_TRUE(sym::is_same(x * y, y * x));
  EXPECT_TRUE(sym::is_same(sym::fmin(x, y), sym::fmin(y, x)));
  EXPECT_TRUE(sym::is_same(x == y, y == x));
  // but non-commutative ones are not
  EXPECT_FALSE(sym::is_same(x - y, y - x));
  EXPECT_FALSE(sym::is_same(x < y, y < x));
  EXPECT_TRUE(sym::is_same(x > y, y < x));
  EXPECT_TRUE(sym::is_same(x >= y, y <= x));
}

// if_else(c, 0, x) keeps its dependence on x: the gradient entry and the Hessian entries of a
// branch with zero on the other side are in the pattern, and evaluate to the active branch.
TEST(SymFolding, IfElseWithAZeroBranchKeepsStructuralDependence) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  Expr f = sym::if_else(x < 0.0, 0.0, sq(x) * y);
  EXPECT_TRUE(sym::depends_on(f, y));
  Vector g = sym::gradient(f, {x, y});
  EXPECT_FALSE(g[0].is_zero());
  EXPECT_FALSE(g[1].is_zero());
  sym::SparseMatrix H = sym::hessian_lower(f, {x, y});
  ASSERT_EQ(H.nnz(), 2u);  // (0,0): 2y, (1,0): 2x; (1,1) is structurally zero
  EXPECT_EQ(H.row[0], 0);
  EXPECT_EQ(H.col[0], 0);
  EXPECT_EQ(H.row[1], 1);
  EXPECT_EQ(H.col[1], 0);
  sym::Function F("f", {{x, y}}, {{f}, g, H.values});
  auto on = F({{2.0, 3.0}}), off = F({{-2.0, 3.0}});
  EXPECT_EQ(on[0][0], 12.0);
  EXPECT_EQ(on[1], (std::vector<double>{12.0, 4.0}));
  EXPECT_EQ(on[2], (std::vector<double>{6.0, 4.0}));
  EXPECT_EQ(off[0][0], 0.0);
  EXPECT_EQ(off[1], (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(off[2], (std::vector<double>{0.0, 0.0}));
  // the Lagrangian Hessian of several outputs keeps the union of the branch patterns
  Vector w = sym::symbols("w", 2);
  sym::SparseMatrix HL =
      sym::hessian_lower({sym::if_else(x < y, 0.0, sym::sin(x)), sym::if_else(x < y, sq(y), 0.0)}, w, {x, y});
  ASSERT_EQ(HL.nnz(), 2u);  // (0,0) from sin(x), (1,1) from y²
  EXPECT_EQ(HL.row[0], 0);
  EXPECT_EQ(HL.col[0], 0);
  EXPECT_EQ(HL.row[1], 1);
  EXPECT_EQ(HL.col[1], 1);
}

// fmin / fmax against a constant, abs and sign keep the dependence of the active branch.
TEST(SymFolding, MinMaxAbsAgainstConstantsKeepDependence) {
  Expr x = Expr::symbol("x");
  for (const Expr& f : {sym::fmax(x, 0.0), sym::fmin(0.0, x), sym::fmax(sq(x) - 1.0, 0.0), sym::abs(x)}) {
    Vector g = sym::gradient(f, {x});
    EXPECT_FALSE(g[0].is_zero()) << f;
  }
  EXPECT_EQ(sym::hessian_lower(sym::fmax(x, 0.0), {x}).nnz(), 0u);      // piecewise linear
  EXPECT_EQ(sym::hessian_lower(sym::fmax(sq(x), 0.5), {x}).nnz(), 1u);  // piecewise quadratic
  EXPECT_EQ(sym::hessian_lower(sym::abs(x) * x, {x}).nnz(), 1u);
  EXPECT_TRUE(sym::gradient(sym::sign(x), {x})[0].is_zero());
}

// Identically zero derivatives that folding can prove are dropped, and only those.
TEST(SymFolding, OnlyProvablyZeroDerivativesAreDropped) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  // (x + y) - y: d/dy = 1 - 1 folds to 0
  sym::SparseMatrix J = sym::jacobian_sparse({(x + y) - y}, {x, y});
  ASSERT_EQ(J.nnz(), 1u);
  EXPECT_EQ(J.col[0], 0);
  // x * 0 + y: no dependence on x at all
  EXPECT_EQ(sym::jacobian_sparse({x * 0.0 + y}, {x, y}).nnz(), 1u);
  // sq(x) - x*x is the node sq(x) minus itself
  EXPECT_TRUE((sq(x) - x * x).is_zero());
  // comparisons have zero derivative but multiplying by one keeps the other factor's entry
  sym::SparseMatrix J2 = sym::jacobian_sparse({(x < y) * y}, {x, y});
  ASSERT_EQ(J2.nnz(), 1u);
  EXPECT_EQ(J2.col[0], 1);
}

// A graph of constants folds to the value of the same double computation, bit for bit, for every
// operation (signed zero aside: see below), at 200 random operand sets.
TEST(SymFolding, ConstantFoldingIsBitExactAgainstDoubleComputation) {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(-2.0, 2.0), pos(0.1, 3.0), unit(-0.95, 0.95);
  for (int rep = 0; rep < 200; ++rep) {
    const double a = u(rng), b = u(rng), p = pos(rng), s = unit(rng), k = u(rng);
    const Expr A(a), B(b), P(p), S(s), K(k);
    struct Pair {
      Expr folded;
      double direct;
      const char* what;
    };
    const Pair cases[] = {
        {A + B, a + b, "a + b"},
        {A - B, a - b, "a - b"},
        {A * B, a * b, "a * b"},
        {A / B, a / b, "a / b"},
        {-A, -a, "-a"},
        {sym::pow(P, B), std::pow(p, b), "pow(p, b)"},
        {sym::pow(P, 2.5), std::pow(p, 2.5), "pow(p, 2.5)"},
        {sym::pow(A, 3.0), std::pow(a, 3.0), "pow(a, 3)"},
        {sym::sq(A), a * a, "sq(a)"},
        {sym::sqrt(P), std::sqrt(p), "sqrt(p)"},
        {sym::exp(A), std::exp(a), "exp(a)"},
        {sym::log(P), std::log(p), "log(p)"},
        {sym::sin(A), std::sin(a), "sin(a)"},
        {sym::cos(A), std::cos(a), "cos(a)"},
        {sym::tan(S), std::tan(s), "tan(s)"},
        {sym::asin(S), std::asin(s), "asin(s)"},
        {sym::acos(S), std::acos(s), "acos(s)"},
        {sym::atan(A), std::atan(a), "atan(a)"},
        {sym::atan2(A, B), std::atan2(a, b), "atan2(a, b)"},
        {sym::sinh(A), std::sinh(a), "sinh(a)"},
        {sym::cosh(A), std::cosh(a), "cosh(a)"},
        {sym::tanh(A), std::tanh(a), "tanh(a)"},
        {sym::abs(A), std::fabs(a), "abs(a)"},
        {sym::sign(A), a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0), "sign(a)"},
        {sym::fmin(A, B), a <= b ? a : b, "fmin(a, b)"},
        {sym::fmax(A, B), a >= b ? a : b, "fmax(a, b)"},
        {sym::if_else(A < B, P, K), a < b ? p : k, "if_else(a < b, p, k)"},
        {A < B, a < b ? 1.0 : 0.0, "a < b"},
        {A <= B, a <= b ? 1.0 : 0.0, "a <= b"},
        {A == A, 1.0, "a == a"},
        {A != B, a != b ? 1.0 : 0.0, "a != b"},
        // a chain: each step folded, the whole equal to the plain double expression
        {sym::sin(A) * B + sym::exp(K) / (2.0 + sym::sq(A)) - sym::sqrt(P) * sym::atan2(B, P),
         std::sin(a) * b + std::exp(k) / (2.0 + a * a) - std::sqrt(p) * std::atan2(b, p), "chain"},
    };
    for (const Pair& c : cases) {
      ASSERT_TRUE(c.folded.is_constant()) << c.what;
      EXPECT_TRUE(bits_equal(c.folded.constant_value(), c.direct))
          << c.what << ": " << c.folded.constant_value() << " vs " << c.direct;
    }
  }
}

// Folding inside a partially constant expression agrees with the compiled evaluation of the
// unfolded form: f(x) built with constants folded vs the same f with the constants as inputs.
TEST(SymFolding, PartiallyConstantExpressionsEvaluateLikeTheirUnfoldedForm) {
  Expr x = Expr::symbol("x"), c1 = Expr::symbol("c1"), c2 = Expr::symbol("c2");
  auto build = [&](const Expr& a, const Expr& b) {
    return sym::sin(a * b) * x + sym::exp(b) / (1.0 + sym::sq(x)) - sym::pow(1.0 + sym::sq(a), b) * x +
           (a - b) / x;
  };
  std::mt19937_64 rng(22);
  for (int rep = 0; rep < 50; ++rep) {
    const double a = std::uniform_real_distribution<double>(-2, 2)(rng);
    const double b = std::uniform_real_distribution<double>(-2, 2)(rng);
    const double xv = std::uniform_real_distribution<double>(0.5, 2)(rng);
    sym::Function folded("folded", {{x}}, {{build(a, b)}});
    sym::Function unfolded("unfolded", {{x, c1, c2}}, {{build(c1, c2)}});
    EXPECT_TRUE(bits_equal(folded({{xv}})[0][0], unfolded({{xv, a, b}})[0][0]));
    EXPECT_LT(folded.instruction_count(), unfolded.instruction_count());
  }
}

// Signed zero: the pool keeps one zero constant, so Expr(-0.0) is the node 0 and folding a result
// of -0.0 gives +0.0. This is the one documented difference from plain double arithmetic
// (visible only through 1/±0 or atan2(±0, negative)).
TEST(SymFolding, NegativeZeroConstantsAreNormalisedToZero) {
  EXPECT_TRUE(sym::is_same(Expr(-0.0), Expr(0.0)));
  EXPECT_FALSE(std::signbit((Expr(-1.0) * Expr(0.0)).constant_value()));
  // at run time the compiled function follows IEEE: x * 0 with x < 0 is computed as -0.0
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  sym::Function F("f", {{x, y}}, {{x * y}});
  EXPECT_TRUE(std::signbit(F({{-1.0, 0.0}})[0][0]));
}

}  // namespace
