// Every elementary operation of sym: value, first and second derivatives at random points of its
// domain (away from kinks), computed symbolically (gradient / hessian_lower) and evaluated both by
// the compiled sym::Function and by the slow interpreter sym::evaluate, checked against
//   - the plain double formula (value),
//   - Eigen AutoDiff (AD1 for the gradient, nested AD2 for the Hessian),
//   - central finite differences (of the double formula for the gradient, of the compiled
//     gradient for the Hessian),
// and the derivative sparsity against the structure the oracle sees.
//
// Tolerances (|a - b| <= tol * (1 + scale), scale = largest magnitude involved):
//   value vs plain double                    4e-16 (bit-identical in practice: same libm calls)
//   compiled Function vs sym::evaluate       exact (bit for bit)
//   gradient vs AutoDiff                     1e-13
//   Hessian vs nested AutoDiff               1e-12
//   gradient vs central FD (h = 1e-6(1+|x|)) 1e-7
//   Hessian vs central FD of the gradient    1e-6  (h = 1e-5(1+|x|))
#include <gtest/gtest.h>

#include <bit>
#include <cctype>
#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "sym_test_support.hpp"

namespace {

using namespace symtest;
using sym::Vector;

struct OpCase {
  std::string name;
  int arity = 1;
  std::function<Expr(const std::vector<Expr>&)> f_sym;
  std::function<double(const std::vector<double>&)> f_dbl;
  std::function<AD1(const std::vector<AD1>&)> f_ad1;
  std::function<AD2(const std::vector<AD2>&)> f_ad2;
  std::function<std::vector<double>(std::mt19937_64&)> sample;
  bool piecewise_constant = false;  // derivative identically zero (sign, comparisons)
};

void PrintTo(const OpCase& c, std::ostream* os) { *os << c.name; }

template <class F>
OpCase make_case(std::string name, int arity, F f,
                 std::function<std::vector<double>(std::mt19937_64&)> sample,
                 bool piecewise_constant = false) {
  OpCase c;
  c.name = std::move(name);
  c.arity = arity;
  c.f_sym = [f](const std::vector<Expr>& v) { return f(v); };
  c.f_dbl = [f](const std::vector<double>& v) { return f(v); };
  c.f_ad1 = [f](const std::vector<AD1>& v) { return f(v); };
  c.f_ad2 = [f](const std::vector<AD2>& v) { return f(v); };
  c.sample = std::move(sample);
  c.piecewise_constant = piecewise_constant;
  return c;
}

// Samplers. Every one keeps away from the op's kinks and domain boundaries.
auto box(int n, double lo, double hi) {
  return [=](std::mt19937_64& rng) { return uniform(rng, static_cast<std::size_t>(n), lo, hi); };
}
auto away_from_zero(int n, double lo, double hi) {  // |x| in [lo, hi], random sign
  return [=](std::mt19937_64& rng) {
    auto v = uniform(rng, static_cast<std::size_t>(n), lo, hi);
    std::bernoulli_distribution coin(0.5);
    for (auto& x : v)
      if (coin(rng)) x = -x;
    return v;
  };
}
auto distinct_pair(double lo, double hi, double gap) {  // |x0 - x1| >= gap
  return [=](std::mt19937_64& rng) {
    for (;;) {
      auto v = uniform(rng, 2, lo, hi);
      if (std::fabs(v[0] - v[1]) >= gap) return v;
    }
  };
}
auto polar_away_from_origin() {  // atan2(y, x): r in [0.3, 2], away from the branch cut x < 0, y = 0
  return [](std::mt19937_64& rng) {
    for (;;) {
      auto v = uniform(rng, 2, -2.0, 2.0);
      double r = std::hypot(v[0], v[1]);
      if (r > 0.3 && !(v[1] < 0 && std::fabs(v[0]) < 0.1)) return v;
    }
  };
}

#define OP1(BODY)                             \
  []<class T>(const std::vector<T>& v) -> T { \
    const T& x = v[0];                        \
    return T(BODY);                           \
  }
#define OP2(BODY)                             \
  []<class T>(const std::vector<T>& v) -> T { \
    const T& x = v[0];                        \
    const T& y = v[1];                        \
    return T(BODY);                           \
  }

std::vector<OpCase> all_cases() {
  std::vector<OpCase> c;
  // arithmetic
  c.push_back(make_case("add", 2, OP2(x + y), box(2, -2, 2)));
  c.push_back(make_case("sub", 2, OP2(x - y), box(2, -2, 2)));
  c.push_back(make_case("mul", 2, OP2(x * y), box(2, -2, 2)));
  c.push_back(make_case("div", 2, OP2(x / y), away_from_zero(2, 0.4, 2.0)));
  c.push_back(make_case("neg", 1, OP1(-x), box(1, -2, 2)));
  c.push_back(make_case("add_const", 1, OP1(x + 1.75), box(1, -2, 2)));
  c.push_back(make_case("const_sub", 1, OP1(1.75 - x), box(1, -2, 2)));
  c.push_back(make_case("sub_const", 1, OP1(x - 1.75), box(1, -2, 2)));
  c.push_back(make_case("mul_const", 1, OP1(x * -2.5), box(1, -2, 2)));
  c.push_back(make_case("div_const", 1, OP1(x / 3.0), box(1, -2, 2)));
  c.push_back(make_case("const_div", 1, OP1(3.0 / x), away_from_zero(1, 0.4, 2.0)));
  // powers
  c.push_back(make_case("pow_const_2.5", 1, OP1(gen::pow(x, 2.5)), box(1, 0.2, 2.5)));
  c.push_back(make_case("pow_const_-1.5", 1, OP1(gen::pow(x, -1.5)), box(1, 0.2, 2.5)));
  c.push_back(make_case("pow_const_0.5", 1, OP1(gen::pow(x, 0.5)), box(1, 0.2, 2.5)));
  c.push_back(make_case("pow_const_3_negative_base", 1, OP1(gen::pow(x, 3.0)), box(1, -2, 2)));
  c.push_back(
      make_case("pow_const_-2_negative_base", 1, OP1(gen::pow(x, -2.0)), away_from_zero(1, 0.4, 2.0)));
  c.push_back(make_case("pow_expr", 2, OP2(gen::pow(x, y)), [](std::mt19937_64& rng) {
    auto v = uniform(rng, 2, 0.2, 2.5);
    v[1] = uniform(rng, 1, -2.0, 2.0)[0];
    return v;
  }));
  c.push_back(make_case("pow_constant_base", 1, OP1(gen::pow(constant<T>(2.5, 1), x)), box(1, -2, 2)));
  c.push_back(make_case("atan2_constant_x", 1, OP1(gen::atan2(x, constant<T>(0.7, 1))), box(1, -2, 2)));
  c.push_back(make_case("sq", 1, OP1(gen::sq(x)), box(1, -2, 2)));
  c.push_back(make_case("sqrt", 1, OP1(gen::sqrt(x)), box(1, 0.2, 3)));
  // transcendental
  c.push_back(make_case("exp", 1, OP1(gen::exp(x)), box(1, -2, 2)));
  c.push_back(make_case("log", 1, OP1(gen::log(x)), box(1, 0.2, 3)));
  c.push_back(make_case("sin", 1, OP1(gen::sin(x)), box(1, -3, 3)));
  c.push_back(make_case("cos", 1, OP1(gen::cos(x)), box(1, -3, 3)));
  c.push_back(make_case("tan", 1, OP1(gen::tan(x)), box(1, -1.2, 1.2)));
  c.push_back(make_case("asin", 1, OP1(gen::asin(x)), box(1, -0.9, 0.9)));
  c.push_back(make_case("acos", 1, OP1(gen::acos(x)), box(1, -0.9, 0.9)));
  c.push_back(make_case("atan", 1, OP1(gen::atan(x)), box(1, -3, 3)));
  c.push_back(make_case("atan2", 2, OP2(gen::atan2(x, y)), polar_away_from_origin()));
  c.push_back(make_case("sinh", 1, OP1(gen::sinh(x)), box(1, -2, 2)));
  c.push_back(make_case("cosh", 1, OP1(gen::cosh(x)), box(1, -2, 2)));
  c.push_back(make_case("tanh", 1, OP1(gen::tanh(x)), box(1, -2, 2)));
  // nonsmooth (sampled away from the kinks)
  c.push_back(make_case("abs", 1, OP1(gen::abs(x)), away_from_zero(1, 0.1, 2.0)));
  c.push_back(make_case("abs_of_product", 2, OP2(gen::abs(x * y)), away_from_zero(2, 0.3, 2.0)));
  c.push_back(make_case("sign", 1, OP1(gen::sign(x)), away_from_zero(1, 0.1, 2.0), true));
  c.push_back(make_case("sign_times_sq", 2, OP2(gen::sign(x) * gen::sq(y)), away_from_zero(2, 0.1, 2.0)));
  c.push_back(make_case("fmin", 2, OP2(gen::fmin(x, y)), distinct_pair(-2, 2, 0.1)));
  c.push_back(make_case("fmax", 2, OP2(gen::fmax(x, y)), distinct_pair(-2, 2, 0.1)));
  c.push_back(make_case("fmin_nonlinear", 2, OP2(gen::fmin(x * y, gen::sin(x))), [](std::mt19937_64& rng) {
    for (;;) {
      auto v = uniform(rng, 2, -2, 2);
      if (std::fabs(v[0] * v[1] - std::sin(v[0])) > 0.1) return v;
    }
  }));
  c.push_back(
      make_case("fmax_nonlinear", 2, OP2(gen::fmax(gen::exp(y), x * x * y)), [](std::mt19937_64& rng) {
        for (;;) {
          auto v = uniform(rng, 2, -2, 2);
          if (std::fabs(std::exp(v[1]) - v[0] * v[0] * v[1]) > 0.1) return v;
        }
      }));
  c.push_back(make_case("if_else", 2, OP2(gen::if_else(gen::lt(x, y), x * y * y, gen::exp(x) + y)),
                        distinct_pair(-2, 2, 0.1)));
  c.push_back(make_case("if_else_zero_branch", 2,
                        OP2(gen::if_else(gen::lt(x, y), T(0.0 * x), x * gen::sin(y))),
                        distinct_pair(-2, 2, 0.1)));
  // comparisons and logic: value 0/1, derivative structurally zero
  c.push_back(make_case("lt", 2, OP2(gen::lt(x, y)), distinct_pair(-2, 2, 0.1), true));
  c.push_back(make_case("le", 2, OP2(gen::le(x, y)), distinct_pair(-2, 2, 0.1), true));
  c.push_back(make_case("gt", 2, OP2(gen::gt(x, y)), distinct_pair(-2, 2, 0.1), true));
  c.push_back(make_case("ge", 2, OP2(gen::ge(x, y)), distinct_pair(-2, 2, 0.1), true));
  c.push_back(make_case("eq", 2, OP2(gen::eq(x, y)), distinct_pair(-2, 2, 0.1), true));
  c.push_back(make_case("ne", 2, OP2(gen::ne(x, y)), distinct_pair(-2, 2, 0.1), true));
  c.push_back(make_case("and", 2, OP2(gen::land(gen::lt(x, 0.0 * y + 0.5), gen::lt(y, 0.0 * x + 0.5))),
                        away_from_zero(2, 0.7, 2.0), true));
  c.push_back(make_case("or", 2, OP2(gen::lor(gen::lt(x, 0.0 * y + 0.5), gen::lt(y, 0.0 * x + 0.5))),
                        away_from_zero(2, 0.7, 2.0), true));
  c.push_back(
      make_case("not", 1, OP1(gen::lnot(gen::lt(x, 0.0 * x + 0.5))), away_from_zero(1, 0.7, 2.0), true));
  c.push_back(
      make_case("comparison_times_expression", 2, OP2(gen::lt(x, y) * x * y), distinct_pair(-2, 2, 0.1)));
  return c;
}

// Bit-for-bit equality that treats two NaNs as equal.
bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

void check_case(const OpCase& op) {
  SCOPED_TRACE("op " + op.name);
  const int n = op.arity;
  Vector x = sym::symbols(op.name, static_cast<std::size_t>(n));
  Expr f = op.f_sym(std::vector<Expr>(x.begin(), x.end()));
  Vector g = sym::gradient(f, x);
  sym::SparseMatrix H = sym::hessian_lower(f, x);
  sym::Function F("op_" + op.name, {x}, {{f}, g, H.values});
  sym::Function G("grad_" + op.name, {x}, {g});

  if (op.piecewise_constant) {
    for (const Expr& gi : g)
      EXPECT_TRUE(gi.is_zero()) << "gradient entry " << gi << " should be structurally zero";
    EXPECT_EQ(H.nnz(), 0u);
  }

  std::mt19937_64 rng(std::hash<std::string>{}(op.name));
  Eigen::MatrixXd seen_nonzero_H = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd seen_nonzero_g = Eigen::VectorXd::Zero(n);
  const int points = 25;
  for (int p = 0; p < points; ++p) {
    std::vector<double> pt = op.sample(rng);
    SCOPED_TRACE("at point " + ::testing::PrintToString(pt));
    auto r = F({pt});
    const double value = r[0][0];

    // value: compiled vs plain double, and vs the interpreter
    const double expect = op.f_dbl(pt);
    EXPECT_TRUE(close(value, expect, 4e-16, std::fabs(expect))) << value << " vs " << expect;
    EXPECT_TRUE(same_bits(value, sym::evaluate(f, x, pt)));
    for (int i = 0; i < n; ++i)
      EXPECT_TRUE(same_bits(r[1][i], sym::evaluate(g[i], x, pt))) << "gradient " << i;
    for (std::size_t k = 0; k < H.nnz(); ++k)
      EXPECT_TRUE(same_bits(r[2][k], sym::evaluate(H.values[k], x, pt))) << "Hessian entry " << k;

    // first derivatives: AutoDiff and FD
    AD1 a1 = op.f_ad1(variables<AD1>(pt));
    Eigen::VectorXd g_ad = gradient_of(a1, n);
    EXPECT_TRUE(close(value_of(a1), expect, 4e-16, std::fabs(expect)));
    const double gscale = g_ad.cwiseAbs().maxCoeff();
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(close(r[1][i], g_ad(i), 1e-13, gscale))
          << "d/dx" << i << ": " << r[1][i] << " vs AD " << g_ad(i);
      const double h = 1e-6 * (1 + std::fabs(pt[i]));
      auto xp = pt, xm = pt;
      xp[i] += h;
      xm[i] -= h;
      const double fd = (op.f_dbl(xp) - op.f_dbl(xm)) / (2 * h);
      EXPECT_TRUE(close(r[1][i], fd, 1e-7, gscale + std::fabs(value)))
          << "d/dx" << i << ": " << r[1][i] << " vs FD " << fd;
      if (g_ad(i) != 0.0) seen_nonzero_g(i) = 1;
    }

    // second derivatives: nested AutoDiff and FD of the compiled gradient
    AD2 a2 = op.f_ad2(variables<AD2>(pt));
    Eigen::MatrixXd H_ad = hessian_of(a2, n);
    Eigen::MatrixXd H_sym = dense_symmetric(H, r[2]);
    const double hscale = H_ad.cwiseAbs().maxCoeff();
    for (int i = 0; i < n; ++i) {
      const double h = 1e-5 * (1 + std::fabs(pt[i]));
      auto xp = pt, xm = pt;
      xp[i] += h;
      xm[i] -= h;
      auto gp = G({xp})[0], gm = G({xm})[0];
      for (int j = 0; j < n; ++j) {
        EXPECT_TRUE(close(H_sym(i, j), H_ad(i, j), 1e-12, hscale))
            << "H(" << i << "," << j << "): " << H_sym(i, j) << " vs AD " << H_ad(i, j);
        const double fd = (gp[j] - gm[j]) / (2 * h);
        EXPECT_TRUE(close(H_sym(i, j), fd, 1e-6, hscale + gscale))
            << "H(" << i << "," << j << "): " << H_sym(i, j) << " vs FD " << fd;
        if (H_ad(i, j) != 0.0) seen_nonzero_H(i, j) = 1;
      }
    }
  }

  // Structure: every derivative the oracle saw nonzero is in the symbolic pattern.
  for (int i = 0; i < n; ++i)
    if (seen_nonzero_g(i)) {
      EXPECT_FALSE(g[i].is_zero()) << "gradient " << i << " missing from the pattern";
    }
  Eigen::MatrixXd in_pattern = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t k = 0; k < H.nnz(); ++k)
    in_pattern(H.row[k], H.col[k]) = in_pattern(H.col[k], H.row[k]) = 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (seen_nonzero_H(i, j)) {
        EXPECT_EQ(in_pattern(i, j), 1) << "H(" << i << "," << j << ") missing from the pattern";
      }
}

class SymOps : public ::testing::TestWithParam<OpCase> {};

// Per op: value (4e-16 rel. to plain double, bit-equal to sym::evaluate), gradient (1e-13 vs
// AutoDiff, 1e-7 vs FD), Hessian (1e-12 vs nested AutoDiff, 1e-6 vs FD of the gradient), pattern.
TEST_P(SymOps, ValueGradientHessianMatchAutoDiffAndFiniteDifferences) { check_case(GetParam()); }

INSTANTIATE_TEST_SUITE_P(AllOps, SymOps, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) {
                           std::string s = info.param.name;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

// Ties of comparisons and fmin/fmax use one documented rule: fmin(a, b) = a <= b ? a : b.
TEST(SymOpsTies, ComparisonsAndMinMaxAtTiesFollowTheDocumentedRule) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  sym::Function F(
      "ties", {{x, y}},
      {{x<y, x <= y, x> y, x >= y, x == y, x != y, sym::fmin(x, y), sym::fmax(x, y), sym::sign(x - y)}});
  auto r = F({{0.75, 0.75}})[0];
  EXPECT_EQ(r[0], 0.0);
  EXPECT_EQ(r[1], 1.0);
  EXPECT_EQ(r[2], 0.0);
  EXPECT_EQ(r[3], 1.0);
  EXPECT_EQ(r[4], 1.0);
  EXPECT_EQ(r[5], 0.0);
  EXPECT_EQ(r[6], 0.75);
  EXPECT_EQ(r[7], 0.75);
  EXPECT_EQ(r[8], 0.0);
}

// The derivative of fmin / fmax at a tie follows the same rule as the value, and the two one-sided
// gradients add up to the gradient of the common value: d fmin(x, y) = (1, 0) or (0, 1), never (1, 1).
TEST(SymOpsTies, MinMaxGradientAtATiePicksExactlyOneBranch) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  for (const Expr& f : {sym::fmin(x, y), sym::fmax(x, y)}) {
    Vector g = sym::gradient(f, {x, y});
    sym::Function G("g", {{x, y}}, {g});
    auto r = G({{0.5, 0.5}})[0];
    EXPECT_EQ(r[0] + r[1], 1.0) << f;
    EXPECT_TRUE((r[0] == 1.0 && r[1] == 0.0) || (r[0] == 0.0 && r[1] == 1.0)) << f;
  }
}

}  // namespace
