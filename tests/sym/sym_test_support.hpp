#pragma once
// Shared helpers of the sym tests: the Eigen AutoDiff oracle and small numeric utilities.
//
// The oracle evaluates the same formula a test builds symbolically, written once as a generic
// lambda over a scalar type T, with T = sym::Expr (the engine under test), T = double (plain value),
// T = AD1 (Eigen AutoDiffScalar, first derivatives) and T = AD2 (AutoDiffScalar whose derivative
// entries are themselves AutoDiffScalars: forward-over-forward, second derivatives). The `gen`
// namespace gives every elementary operation one spelling for the four types; for the AutoDiff types
// it only uses Eigen's AutoDiffScalar arithmetic and Eigen's elementary functions (atan, pow with a
// constant exponent and atan2 are missing or do not nest in Eigen 3.4, so those are written here as
// value + chain rule on top of AutoDiffScalar).
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <random>
#include <type_traits>
#include <unsupported/Eigen/AutoDiff>
#include <vector>

#include "stasis/sym.hpp"

namespace symtest {

namespace sym = stasis::sym;
using sym::Expr;

using AD1 = Eigen::AutoDiffScalar<Eigen::VectorXd>;
using AD1Vec = Eigen::Matrix<AD1, Eigen::Dynamic, 1>;
using AD2 = Eigen::AutoDiffScalar<AD1Vec>;

template <class T>
concept AutoDiff = std::is_same_v<T, AD1> || std::is_same_v<T, AD2>;

// ---- leaves ---------------------------------------------------------------------------------

/// A constant of type T with full-size zero derivatives (n variables), so Eigen never has to
/// reconcile empty derivative vectors.
template <class T>
T constant(double c, int n);
template <>
inline Expr constant<Expr>(double c, int) {
  return Expr(c);
}
template <>
inline double constant<double>(double c, int) {
  return c;
}
template <>
inline AD1 constant<AD1>(double c, int n) {
  return AD1(c, Eigen::VectorXd::Zero(n));
}
template <>
inline AD2 constant<AD2>(double c, int n) {
  AD1Vec d(n);
  for (int j = 0; j < n; ++j) d(j) = AD1(0.0, Eigen::VectorXd::Zero(n));
  return AD2(AD1(c, Eigen::VectorXd::Zero(n)), d);
}

/// Independent variable i of n with value x.
template <class T>
T variable(double x, int n, int i);
template <>
inline double variable<double>(double x, int, int) {
  return x;
}
template <>
inline AD1 variable<AD1>(double x, int n, int i) {
  return AD1(x, n, i);
}
template <>
inline AD2 variable<AD2>(double x, int n, int i) {
  AD1Vec d(n);
  for (int j = 0; j < n; ++j) d(j) = AD1(j == i ? 1.0 : 0.0, Eigen::VectorXd::Zero(n));
  return AD2(AD1(x, n, i), d);
}

inline std::vector<double> to_vec(const std::vector<double>& v) { return v; }

template <class T>
std::vector<T> variables(const std::vector<double>& x) {
  std::vector<T> r;
  for (std::size_t i = 0; i < x.size(); ++i)
    r.push_back(variable<T>(x[i], static_cast<int>(x.size()), static_cast<int>(i)));
  return r;
}

inline double value_of(double x) { return x; }
inline double value_of(const AD1& x) { return x.value(); }
inline double value_of(const AD2& x) { return x.value().value(); }

inline Eigen::VectorXd gradient_of(const AD1& x, int n) {
  return x.derivatives().size() ? Eigen::VectorXd(x.derivatives()) : Eigen::VectorXd::Zero(n);
}
inline Eigen::MatrixXd hessian_of(const AD2& x, int n) {
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  for (int j = 0; j < x.derivatives().size(); ++j)
    for (int k = 0; k < x.derivatives()(j).derivatives().size(); ++k)
      H(j, k) = x.derivatives()(j).derivatives()(k);
  return H;
}

// ---- elementary operations, one spelling for Expr / double / AD1 / AD2 ------------------------

namespace gen {

// Expr: the engine under test.
inline Expr sq(const Expr& x) { return sym::sq(x); }
inline Expr sqrt(const Expr& x) { return sym::sqrt(x); }
inline Expr exp(const Expr& x) { return sym::exp(x); }
inline Expr log(const Expr& x) { return sym::log(x); }
inline Expr sin(const Expr& x) { return sym::sin(x); }
inline Expr cos(const Expr& x) { return sym::cos(x); }
inline Expr tan(const Expr& x) { return sym::tan(x); }
inline Expr asin(const Expr& x) { return sym::asin(x); }
inline Expr acos(const Expr& x) { return sym::acos(x); }
inline Expr atan(const Expr& x) { return sym::atan(x); }
inline Expr sinh(const Expr& x) { return sym::sinh(x); }
inline Expr cosh(const Expr& x) { return sym::cosh(x); }
inline Expr tanh(const Expr& x) { return sym::tanh(x); }
inline Expr abs(const Expr& x) { return sym::abs(x); }
inline Expr sign(const Expr& x) { return sym::sign(x); }
inline Expr pow(const Expr& x, double c) { return sym::pow(x, c); }
inline Expr pow(const Expr& x, const Expr& y) { return sym::pow(x, y); }
inline Expr atan2(const Expr& y, const Expr& x) { return sym::atan2(y, x); }
inline Expr fmin(const Expr& a, const Expr& b) { return sym::fmin(a, b); }
inline Expr fmax(const Expr& a, const Expr& b) { return sym::fmax(a, b); }
inline Expr if_else(const Expr& c, const Expr& a, const Expr& b) { return sym::if_else(c, a, b); }
inline Expr lt(const Expr& a, const Expr& b) { return a < b; }
inline Expr le(const Expr& a, const Expr& b) { return a <= b; }
inline Expr gt(const Expr& a, const Expr& b) { return a > b; }
inline Expr ge(const Expr& a, const Expr& b) { return a >= b; }
inline Expr eq(const Expr& a, const Expr& b) { return a == b; }
inline Expr ne(const Expr& a, const Expr& b) { return a != b; }
inline Expr land(const Expr& a, const Expr& b) { return sym::logical_and(a, b); }
inline Expr lor(const Expr& a, const Expr& b) { return sym::logical_or(a, b); }
inline Expr lnot(const Expr& a) { return sym::logical_not(a); }

// double: the plain computation.
inline double sq(double x) { return x * x; }
inline double sqrt(double x) { return std::sqrt(x); }
inline double exp(double x) { return std::exp(x); }
inline double log(double x) { return std::log(x); }
inline double sin(double x) { return std::sin(x); }
inline double cos(double x) { return std::cos(x); }
inline double tan(double x) { return std::tan(x); }
inline double asin(double x) { return std::asin(x); }
inline double acos(double x) { return std::acos(x); }
inline double atan(double x) { return std::atan(x); }
inline double sinh(double x) { return std::sinh(x); }
inline double cosh(double x) { return std::cosh(x); }
inline double tanh(double x) { return std::tanh(x); }
inline double abs(double x) { return std::fabs(x); }
inline double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }
inline double pow(double x, double c) { return std::pow(x, c); }
inline double atan2(double y, double x) { return std::atan2(y, x); }
inline double fmin(double a, double b) { return a <= b ? a : b; }
inline double fmax(double a, double b) { return a >= b ? a : b; }
inline double if_else(double c, double a, double b) { return c != 0 ? a : b; }
inline double lt(double a, double b) { return a < b ? 1.0 : 0.0; }
inline double le(double a, double b) { return a <= b ? 1.0 : 0.0; }
inline double gt(double a, double b) { return a > b ? 1.0 : 0.0; }
inline double ge(double a, double b) { return a >= b ? 1.0 : 0.0; }
inline double eq(double a, double b) { return a == b ? 1.0 : 0.0; }
inline double ne(double a, double b) { return a != b ? 1.0 : 0.0; }
inline double land(double a, double b) { return (a != 0 && b != 0) ? 1.0 : 0.0; }
inline double lor(double a, double b) { return (a != 0 || b != 0) ? 1.0 : 0.0; }
inline double lnot(double a) { return a == 0 ? 1.0 : 0.0; }

// AutoDiff (Eigen's rules where Eigen 3.4 has a nesting-capable one). Each operation is a template
// *_ad over T in {AD1, AD2} plus non-template overloads for AD1 and AD2, so that Eigen's expression
// types (the result of x * y, ...) convert implicitly at the call.
template <AutoDiff T>
T sq_ad(const T& x) {
  return T(x * x);
}
template <AutoDiff T>
T sqrt_ad(const T& x) {
  return T(Eigen::sqrt(x));
}
template <AutoDiff T>
T exp_ad(const T& x) {
  return T(Eigen::exp(x));
}
template <AutoDiff T>
T log_ad(const T& x) {
  return T(Eigen::log(x));
}
template <AutoDiff T>
T sin_ad(const T& x) {
  return T(Eigen::sin(x));
}
template <AutoDiff T>
T cos_ad(const T& x) {
  return T(Eigen::cos(x));
}
template <AutoDiff T>
T tan_ad(const T& x) {
  return T(Eigen::tan(x));
}
template <AutoDiff T>
T asin_ad(const T& x) {
  return T(Eigen::asin(x));
}
template <AutoDiff T>
T acos_ad(const T& x) {
  return T(Eigen::acos(x));
}
template <AutoDiff T>
T sinh_ad(const T& x) {
  return T(Eigen::sinh(x));
}
template <AutoDiff T>
T cosh_ad(const T& x) {
  return T(Eigen::cosh(x));
}
template <AutoDiff T>
T tanh_ad(const T& x) {
  return T(Eigen::tanh(x));
}
// Eigen 3.4 has no atan for AutoDiffScalar: value + chain rule d atan = dx / (1 + x²).
inline AD1 atan_ad(const AD1& x) {
  return AD1(std::atan(x.value()), x.derivatives() / (1.0 + x.value() * x.value()));
}
inline AD2 atan_ad(const AD2& x) {
  AD1 v = x.value();
  AD1 d = AD1(1.0 / (1.0 + v * v));
  AD1Vec der = x.derivatives() * d;
  return AD2(atan_ad(v), der);
}
// Eigen's pow(AD, Scalar) does not nest (its exponent type is the inner AutoDiffScalar).
inline AD1 pow_ad(const AD1& x, double c) { return AD1(Eigen::pow(x, c)); }
inline AD2 pow_ad(const AD2& x, double c) {
  AD1 v = x.value();
  AD1 d = c * pow_ad(v, c - 1.0);
  AD1Vec der = x.derivatives() * d;
  return AD2(pow_ad(v, c), der);
}
// x^y = exp(y log x), x > 0.
template <AutoDiff T>
T powxy_ad(const T& x, const T& y) {
  return exp_ad(T(y * log_ad(x)));
}
// atan2 through atan of the ratio plus the branch constant (same derivatives, x != 0).
template <AutoDiff T>
T atan2_ad(const T& y, const T& x) {
  const double vy = value_of(y), vx = value_of(x);
  const double branch = vx > 0 ? 0.0 : (vy >= 0 ? M_PI : -M_PI);
  return T(atan_ad(T(y / x)) + branch);
}
template <AutoDiff T>
T abs_ad(const T& x) {
  return value_of(x) < 0 ? T(-x) : x;
}
template <AutoDiff T>
T sign_ad(const T& x) {
  return constant<T>(sign(value_of(x)), static_cast<int>(x.derivatives().size()));
}
template <AutoDiff T>
T fmin_ad(const T& a, const T& b) {
  return value_of(a) <= value_of(b) ? a : b;
}
template <AutoDiff T>
T fmax_ad(const T& a, const T& b) {
  return value_of(a) >= value_of(b) ? a : b;
}
template <AutoDiff T>
T if_else_ad(const T& c, const T& a, const T& b) {
  return value_of(c) != 0 ? a : b;
}
template <AutoDiff T>
T lnot_ad(const T& a) {
  return constant<T>(lnot(value_of(a)), static_cast<int>(a.derivatives().size()));
}

#define SYMTEST_AD_UNARY(NAME)                           \
  inline AD1 NAME(const AD1& x) { return NAME##_ad(x); } \
  inline AD2 NAME(const AD2& x) { return NAME##_ad(x); }
SYMTEST_AD_UNARY(sq)
SYMTEST_AD_UNARY(sqrt)
SYMTEST_AD_UNARY(exp)
SYMTEST_AD_UNARY(log)
SYMTEST_AD_UNARY(sin)
SYMTEST_AD_UNARY(cos)
SYMTEST_AD_UNARY(tan)
SYMTEST_AD_UNARY(asin)
SYMTEST_AD_UNARY(acos)
SYMTEST_AD_UNARY(atan)
SYMTEST_AD_UNARY(sinh)
SYMTEST_AD_UNARY(cosh)
SYMTEST_AD_UNARY(tanh)
SYMTEST_AD_UNARY(abs)
SYMTEST_AD_UNARY(sign)
SYMTEST_AD_UNARY(lnot)
#undef SYMTEST_AD_UNARY
inline AD1 pow(const AD1& x, double c) { return pow_ad(x, c); }
inline AD2 pow(const AD2& x, double c) { return pow_ad(x, c); }
#define SYMTEST_AD_BINARY(NAME, IMPL)                                \
  inline AD1 NAME(const AD1& a, const AD1& b) { return IMPL(a, b); } \
  inline AD2 NAME(const AD2& a, const AD2& b) { return IMPL(a, b); }
SYMTEST_AD_BINARY(pow, powxy_ad)
SYMTEST_AD_BINARY(atan2, atan2_ad)
SYMTEST_AD_BINARY(fmin, fmin_ad)
SYMTEST_AD_BINARY(fmax, fmax_ad)
#undef SYMTEST_AD_BINARY
inline AD1 if_else(const AD1& c, const AD1& a, const AD1& b) { return if_else_ad(c, a, b); }
inline AD2 if_else(const AD2& c, const AD2& a, const AD2& b) { return if_else_ad(c, a, b); }
// Predicates: a constant 0/1 with zero derivatives.
#define SYMTEST_AD_PREDICATE(NAME)                                                                  \
  inline AD1 NAME(const AD1& a, const AD1& b) {                                                     \
    return constant<AD1>(NAME(value_of(a), value_of(b)), static_cast<int>(a.derivatives().size())); \
  }                                                                                                 \
  inline AD2 NAME(const AD2& a, const AD2& b) {                                                     \
    return constant<AD2>(NAME(value_of(a), value_of(b)), static_cast<int>(a.derivatives().size())); \
  }
SYMTEST_AD_PREDICATE(lt)
SYMTEST_AD_PREDICATE(le)
SYMTEST_AD_PREDICATE(gt)
SYMTEST_AD_PREDICATE(ge)
SYMTEST_AD_PREDICATE(eq)
SYMTEST_AD_PREDICATE(ne)
SYMTEST_AD_PREDICATE(land)
SYMTEST_AD_PREDICATE(lor)
#undef SYMTEST_AD_PREDICATE

}  // namespace gen

// ---- numeric helpers -----------------------------------------------------------------------

/// |a - b| <= tol * (1 + scale): a relative test that degrades to an absolute one near zero.
inline bool close(double a, double b, double tol, double scale) {
  return std::fabs(a - b) <= tol * (1.0 + scale);
}

inline std::vector<double> uniform(std::mt19937_64& rng, std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

/// Compile-and-evaluate helper: values of `outputs` at `x` through a sym::Function.
inline std::vector<double> eval_compiled(const sym::Vector& inputs, const sym::Vector& outputs,
                                         const std::vector<double>& x) {
  sym::Function f("f", {inputs}, {outputs});
  return f({x})[0];
}

/// Dense n×n symmetric matrix from a compiled lower-triangle Hessian.
inline Eigen::MatrixXd dense_symmetric(const sym::SparseMatrix& H, const std::vector<double>& values) {
  Eigen::MatrixXd D =
      Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(H.rows), static_cast<Eigen::Index>(H.cols));
  for (std::size_t k = 0; k < H.nnz(); ++k) {
    D(H.row[k], H.col[k]) = values[k];
    D(H.col[k], H.row[k]) = values[k];
  }
  return D;
}

inline Eigen::MatrixXd dense(const sym::SparseMatrix& J, const std::vector<double>& values) {
  Eigen::MatrixXd D =
      Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(J.rows), static_cast<Eigen::Index>(J.cols));
  for (std::size_t k = 0; k < J.nnz(); ++k) D(J.row[k], J.col[k]) = values[k];
  return D;
}

}  // namespace symtest
