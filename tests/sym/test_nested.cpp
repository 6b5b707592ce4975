// Nested differentiation: a symbolic gradient / Jacobian used inside an expression that is then
// differentiated twice more (what the time-freezing reformulation does with ∇f_c and with Coriolis
// terms), against Eigen AutoDiff three levels deep: an inner AutoDiffScalar whose scalar is the
// nested AD2 takes the inner derivative, AD2 the outer Hessian.
//
// Tolerances: |a - b| <= 1e-10 (1 + scale), scale = largest |entry| of the compared quantity;
// textbook closed-form dynamics: 1e-12 (1 + scale).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sym_test_support.hpp"

namespace {

using namespace symtest;
using sym::Matrix;
using sym::Vector;

// Inner AutoDiff level: derivatives with respect to a subset of the variables (q), scalar AD2.
using AD2Vec = Eigen::Matrix<AD2, Eigen::Dynamic, 1>;
using ADX = Eigen::AutoDiffScalar<AD2Vec>;

ADX inner_variable(const AD2& value, int n_inner, int i, int n_outer) {
  AD2Vec d(n_inner);
  for (int j = 0; j < n_inner; ++j) d(j) = constant<AD2>(j == i ? 1.0 : 0.0, n_outer);
  return ADX(value, d);
}
ADX inner_constant(const AD2& value, int n_inner, int n_outer) {
  AD2Vec d(n_inner);
  for (int j = 0; j < n_inner; ++j) d(j) = constant<AD2>(0.0, n_outer);
  return ADX(value, d);
}
// Chain rule on the inner level with the outer value and derivative computed by the AD2 oracle.
ADX chain(const ADX& x, const AD2& f, const AD2& df) { return ADX(f, AD2Vec(x.derivatives() * df)); }
ADX sinX(const ADX& x) { return chain(x, gen::sin(x.value()), gen::cos(x.value())); }
ADX cosX(const ADX& x) { return chain(x, gen::cos(x.value()), AD2(-gen::sin(x.value()))); }
ADX expX(const ADX& x) { return chain(x, gen::exp(x.value()), gen::exp(x.value())); }
ADX logX(const ADX& x) { return chain(x, gen::log(x.value()), AD2(1.0 / x.value())); }

template <class T>
T dot_values(const std::vector<T>& a, const std::vector<T>& b) {
  T s = a[0] * b[0];
  for (std::size_t i = 1; i < a.size(); ++i) s = T(s + a[i] * b[i]);
  return s;
}

struct OracleResult {
  double value;
  Eigen::VectorXd gradient;
  Eigen::MatrixXd hessian;
};
OracleResult unpack(const AD2& f, int n) { return {value_of(f), f.value().derivatives(), hessian_of(f, n)}; }

void expect_matches(const sym::Function& F, const sym::SparseMatrix& H, const std::vector<double>& z,
                    const OracleResult& o, double tol) {
  auto r = F({z});
  const int n = static_cast<int>(z.size());
  EXPECT_TRUE(close(r[0][0], o.value, tol, std::fabs(o.value))) << r[0][0] << " vs " << o.value;
  const double gs = o.gradient.cwiseAbs().maxCoeff();
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(close(r[1][i], o.gradient(i), tol, gs))
        << "gradient " << i << ": " << r[1][i] << " vs " << o.gradient(i);
  Eigen::MatrixXd Hs = dense_symmetric(H, r[2]);
  const double hs = o.hessian.cwiseAbs().maxCoeff();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      EXPECT_TRUE(close(Hs(i, j), o.hessian(i, j), tol, hs))
          << "H(" << i << "," << j << "): " << Hs(i, j) << " vs " << o.hessian(i, j);
  // and the pattern holds every entry the oracle sees nonzero
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      if (o.hessian(i, j) == 0.0) continue;
      bool found = false;
      for (std::size_t k = 0; k < H.nnz(); ++k) found = found || (H.row[k] == i && H.col[k] == j);
      EXPECT_TRUE(found) << "H(" << i << "," << j << ") missing from the pattern";
    }
}

// f(x, w) = ∇g(x) · w, g(x) = sin(x0 x1) + x2² e^{x0} + log(1 + x1² x2²): value, gradient and
// Hessian of f (third derivatives of g) match three-level AutoDiff within 1e-10.
TEST(SymNested, HessianOfGradientDotWeightsMatchesThreeLevelAutoDiff) {
  Vector x = sym::symbols("x", 3), w = sym::symbols("w", 3);
  Expr g =
      sym::sin(x[0] * x[1]) + sym::sq(x[2]) * sym::exp(x[0]) + sym::log(1.0 + sym::sq(x[1]) * sym::sq(x[2]));
  Expr f = sym::dot(sym::gradient(g, x), w);
  Vector z = sym::vertcat({x, w});
  sym::SparseMatrix H = sym::hessian_lower(f, z);
  sym::Function F("nested", {z}, {{f}, sym::gradient(f, z), H.values});

  std::mt19937_64 rng(7);
  for (int p = 0; p < 30; ++p) {
    std::vector<double> zv = uniform(rng, 6, -1.5, 1.5);
    std::vector<AD2> Z = variables<AD2>(zv);
    std::vector<ADX> X;
    for (int i = 0; i < 3; ++i) X.push_back(inner_variable(Z[i], 3, i, 6));
    ADX one = inner_constant(constant<AD2>(1.0, 6), 3, 6);
    ADX G = ADX(sinX(ADX(X[0] * X[1])) + ADX(X[2] * X[2]) * expX(X[0]) +
                logX(ADX(one + X[1] * X[1] * X[2] * X[2])));
    AD2 fo = AD2(G.derivatives()(0) * Z[3] + G.derivatives()(1) * Z[4] + G.derivatives()(2) * Z[5]);
    SCOPED_TRACE("point " + ::testing::PrintToString(zv));
    expect_matches(F, H, zv, unpack(fo, 6), 1e-10);
  }
}

// Planar two-link arm, point masses at the link ends. sym: positions p_k(q), J_k = jacobian(p_k, q),
// M = Σ m_k J_kᵀ J_k, L = ½ vᵀ M v - V(q), inverse dynamics τ = M a + (∂(M v)/∂q) v - ∂L/∂q, all
// with nested symbolic derivatives; then ℓ = λᵀ τ and its Hessian over (q, v, a, λ). Oracle: hand-written
// J_k, inner AutoDiff for ∂/∂q, nested AD2 for the Hessian (1e-10); τ also against the textbook
// closed form (1e-12).
TEST(SymNested, InverseDynamicsOfTwoLinkArmFromSymbolicMassMatrixMatchesAutoDiffAndTextbook) {
  const double m1 = 1.3, m2 = 0.7, l1 = 0.9, l2 = 0.6, grav = 9.81;
  Vector q = sym::symbols("q", 2), v = sym::symbols("v", 2), a = sym::symbols("a", 2),
         lam = sym::symbols("lam", 2);
  Vector p1 = {l1 * sym::cos(q[0]), l1 * sym::sin(q[0])};
  Vector p2 = {p1[0] + l2 * sym::cos(q[0] + q[1]), p1[1] + l2 * sym::sin(q[0] + q[1])};
  Matrix J1 = sym::jacobian(p1, q), J2 = sym::jacobian(p2, q);
  Matrix M = Expr(m1) * (J1.transpose() * J1) + Expr(m2) * (J2.transpose() * J2);
  Expr V = grav * (m1 * p1[1] + m2 * p2[1]);
  Expr L = 0.5 * sym::dot(v, M * v) - V;
  Vector Mv = M * v;
  Vector tau = M * a + sym::jacobian(Mv, q) * v - sym::gradient(L, q);
  Expr ell = sym::dot(lam, tau);
  Vector z = sym::vertcat({q, v, a, lam});
  sym::SparseMatrix H = sym::hessian_lower(ell, z);
  sym::Function F("arm", {z}, {{ell}, sym::gradient(ell, z), H.values});
  sym::Function T("tau", {z}, {tau});

  std::mt19937_64 rng(11);
  for (int p = 0; p < 30; ++p) {
    std::vector<double> zv = uniform(rng, 8, -2.0, 2.0);
    SCOPED_TRACE("point " + ::testing::PrintToString(zv));
    // textbook
    {
      const double c2 = std::cos(zv[1]), s2 = std::sin(zv[1]), c1 = std::cos(zv[0]),
                   c12 = std::cos(zv[0] + zv[1]);
      const double v1 = zv[2], v2 = zv[3], a1 = zv[4], a2 = zv[5];
      const double M11 = (m1 + m2) * l1 * l1 + m2 * l2 * l2 + 2 * m2 * l1 * l2 * c2;
      const double M12 = m2 * l2 * l2 + m2 * l1 * l2 * c2, M22 = m2 * l2 * l2;
      const double h = m2 * l1 * l2 * s2;
      const double t1 = M11 * a1 + M12 * a2 - h * (2 * v1 * v2 + v2 * v2) + (m1 + m2) * grav * l1 * c1 +
                        m2 * grav * l2 * c12;
      const double t2 = M12 * a1 + M22 * a2 + h * v1 * v1 + m2 * grav * l2 * c12;
      auto t = T({zv})[0];
      EXPECT_TRUE(close(t[0], t1, 1e-12, std::fabs(t1))) << t[0] << " vs " << t1;
      EXPECT_TRUE(close(t[1], t2, 1e-12, std::fabs(t2))) << t[1] << " vs " << t2;
    }
    // oracle
    const int n = 8;
    std::vector<AD2> Z = variables<AD2>(zv);
    std::vector<ADX> Q = {inner_variable(Z[0], 2, 0, n), inner_variable(Z[1], 2, 1, n)};
    auto K = [&](double c) { return inner_constant(constant<AD2>(c, n), 2, n); };
    std::vector<ADX> Vv = {inner_constant(Z[2], 2, n), inner_constant(Z[3], 2, n)};
    ADX q12 = ADX(Q[0] + Q[1]);
    // hand-written Jacobians of p1, p2
    ADX J1_00 = ADX(K(-l1) * sinX(Q[0])), J1_01 = K(0.0), J1_10 = ADX(K(l1) * cosX(Q[0])), J1_11 = K(0.0);
    ADX J2_00 = ADX(J1_00 - K(l2) * sinX(q12)), J2_01 = ADX(K(-l2) * sinX(q12));
    ADX J2_10 = ADX(J1_10 + K(l2) * cosX(q12)), J2_11 = ADX(K(l2) * cosX(q12));
    // velocities of the masses, M v and L
    ADX u1x = ADX(J1_00 * Vv[0] + J1_01 * Vv[1]), u1y = ADX(J1_10 * Vv[0] + J1_11 * Vv[1]);
    ADX u2x = ADX(J2_00 * Vv[0] + J2_01 * Vv[1]), u2y = ADX(J2_10 * Vv[0] + J2_11 * Vv[1]);
    ADX Mv0 = ADX(K(m1) * (J1_00 * u1x + J1_10 * u1y) + K(m2) * (J2_00 * u2x + J2_10 * u2y));
    ADX Mv1 = ADX(K(m1) * (J1_01 * u1x + J1_11 * u1y) + K(m2) * (J2_01 * u2x + J2_11 * u2y));
    ADX y1 = ADX(K(l1) * sinX(Q[0])), y2 = ADX(y1 + K(l2) * sinX(q12));
    ADX Lx = ADX(K(0.5) * (Vv[0] * Mv0 + Vv[1] * Mv1) - K(grav) * (K(m1) * y1 + K(m2) * y2));
    // M a: M = ∂(M v)/∂v is linear in v; rebuild M a with v -> a
    std::vector<ADX> Aa = {inner_constant(Z[4], 2, n), inner_constant(Z[5], 2, n)};
    ADX w1x = ADX(J1_00 * Aa[0] + J1_01 * Aa[1]), w1y = ADX(J1_10 * Aa[0] + J1_11 * Aa[1]);
    ADX w2x = ADX(J2_00 * Aa[0] + J2_01 * Aa[1]), w2y = ADX(J2_10 * Aa[0] + J2_11 * Aa[1]);
    ADX Ma0 = ADX(K(m1) * (J1_00 * w1x + J1_10 * w1y) + K(m2) * (J2_00 * w2x + J2_10 * w2y));
    ADX Ma1 = ADX(K(m1) * (J1_01 * w1x + J1_11 * w1y) + K(m2) * (J2_01 * w2x + J2_11 * w2y));
    AD2 tau0 =
        AD2(Ma0.value() + Mv0.derivatives()(0) * Z[2] + Mv0.derivatives()(1) * Z[3] - Lx.derivatives()(0));
    AD2 tau1 =
        AD2(Ma1.value() + Mv1.derivatives()(0) * Z[2] + Mv1.derivatives()(1) * Z[3] - Lx.derivatives()(1));
    AD2 ello = AD2(Z[6] * tau0 + Z[7] * tau1);
    expect_matches(F, H, zv, unpack(ello, n), 1e-10);
  }
}

// A compiled gradient called symbolically (Function::call) inside a new expression, then
// differentiated twice: identical expressions to differentiating the inlined gradient (the call is
// a substitution), and the compiled Hessians agree bit for bit.
TEST(SymNested, SymbolicCallOfCompiledGradientDifferentiatesLikeTheInlinedGradient) {
  Vector x = sym::symbols("x", 2), y = sym::symbols("y", 2);
  Expr g = sym::exp(x[0]) * sym::cos(x[1]) + sym::sq(x[0] * x[1]);
  sym::Function G("grad_g", {x}, {sym::gradient(g, x)});
  Vector gy = G.call({y})[0];
  Vector gy_inline = sym::substitute(sym::gradient(g, x), x, y);
  ASSERT_EQ(gy.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_TRUE(sym::is_same(gy[i], gy_inline[i])) << gy[i] << " vs " << gy_inline[i];
  Expr f = sym::dot(gy, {sym::sin(y[1]), y[0]});
  sym::SparseMatrix H = sym::hessian_lower(f, y);
  sym::Function F("f", {y}, {{f}, sym::gradient(f, y), H.values});
  // oracle
  std::mt19937_64 rng(3);
  for (int p = 0; p < 20; ++p) {
    std::vector<double> yv = uniform(rng, 2, -1.5, 1.5);
    std::vector<AD2> Y = variables<AD2>(yv);
    std::vector<ADX> X = {inner_variable(Y[0], 2, 0, 2), inner_variable(Y[1], 2, 1, 2)};
    ADX gx = ADX(expX(X[0]) * cosX(X[1]) + ADX(X[0] * X[1]) * ADX(X[0] * X[1]));
    AD2 fo = AD2(gx.derivatives()(0) * gen::sin(Y[1]) + gx.derivatives()(1) * Y[0]);
    expect_matches(F, H, yv, unpack(fo, 2), 1e-10);
  }
}

}  // namespace
