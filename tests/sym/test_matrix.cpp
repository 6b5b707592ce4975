// sym::Matrix: products, transpose and the other dense operations against Eigen on the same numbers;
// the unpivoted symbolic Cholesky factor and SPD solve on a symbolic 4x4 A = BᵀB + I against Eigen's
// LLT; derivatives of the solution against finite differences and the analytic formula.
//
// Tolerances: products and sums 1e-14 relative; Cholesky factor and solve vs Eigen LLT 1e-12;
// Jacobian of the solution vs the analytic derivative 1e-11, vs central FD (h = 1e-6) 1e-7;
// Hessian of λᵀx vs central FD of the compiled Jacobian (h = 1e-5) 1e-6.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "sym_test_support.hpp"

namespace {

using namespace symtest;
using sym::Matrix;
using sym::Vector;

Matrix symbolic(const std::string& name, std::size_t r, std::size_t c, Vector& all) {
  Matrix m(r, c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) {
      m(i, j) = Expr::symbol(name + std::to_string(i) + std::to_string(j));
      all.push_back(m(i, j));
    }
  return m;
}

Eigen::MatrixXd numeric(const Matrix& m, const Vector& syms, const std::vector<double>& vals) {
  sym::Function F("num", {syms}, {m.entries()});
  auto r = F({vals})[0];
  Eigen::MatrixXd out(m.rows(), m.cols());
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) out(i, j) = r[i * m.cols() + j];
  return out;
}

double max_abs_diff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

// Products, sums, transpose, scalar and matrix-vector products, dot, vertcat, identity, diagonal,
// rows/cols of symbolic matrices equal Eigen's on the same numbers (1e-14 relative).
TEST(SymMatrix, DenseOperationsMatchEigen) {
  Vector all;
  Matrix A = symbolic("a", 3, 4, all), B = symbolic("b", 4, 2, all), C = symbolic("c", 3, 4, all);
  Expr s = Expr::symbol("s");
  all.push_back(s);
  Vector v = {all[0], all[5], all[13], s};
  std::mt19937_64 rng(1);
  for (int p = 0; p < 10; ++p) {
    auto vals = uniform(rng, all.size(), -2, 2);
    Eigen::MatrixXd a = numeric(A, all, vals), b = numeric(B, all, vals), c = numeric(C, all, vals);
    const double sv = vals.back();
    Eigen::VectorXd vv(4);
    vv << vals[0], vals[5], vals[13], sv;
    const double tol = 1e-14 * 10;
    EXPECT_LE(max_abs_diff(numeric(A * B, all, vals), a * b), tol);
    EXPECT_LE(max_abs_diff(numeric(A.transpose(), all, vals), a.transpose()), 0.0);
    EXPECT_LE(max_abs_diff(numeric(A + C, all, vals), a + c), tol);
    EXPECT_LE(max_abs_diff(numeric(A - C, all, vals), a - c), tol);
    EXPECT_LE(max_abs_diff(numeric(s * A, all, vals), sv * a), tol);
    EXPECT_LE(max_abs_diff(numeric(Matrix::column(A * v), all, vals), a * vv), tol);
    EXPECT_LE(max_abs_diff(numeric(A.transpose() * C, all, vals), a.transpose() * c), tol);
    Expr d = sym::dot(A.row_vector(1), C.row_vector(2));
    EXPECT_NEAR(sym::evaluate(d, all, vals), a.row(1).dot(c.row(2)), tol);
    Vector col = A.col(3);
    for (std::size_t i = 0; i < 3; ++i)
      EXPECT_EQ(sym::evaluate(col[i], all, vals), a(static_cast<int>(i), 3));
  }
  Matrix I = Matrix::identity(3);
  EXPECT_TRUE(I(0, 0).is_one() && I(1, 0).is_zero() && I(2, 2).is_one());
  Matrix D = Matrix::diagonal({all[0], all[1]});
  EXPECT_TRUE(sym::is_same(D(1, 1), all[1]) && D(0, 1).is_zero());
  Matrix Z = Matrix::zeros(2, 3);
  EXPECT_EQ(Z.rows(), 2u);
  EXPECT_EQ(Z.cols(), 3u);
  EXPECT_TRUE(Z(1, 2).is_zero());
  EXPECT_EQ(sym::vertcat({{all[0]}, {}, {all[1], all[2]}}).size(), 3u);
  EXPECT_EQ(Matrix::row({all[0], all[1]}).as_vector().size(), 2u);
  // A * I folds to A itself: no new nodes for the multiplications by 0 and 1
  Matrix AI = A * Matrix::identity(4);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) EXPECT_TRUE(sym::is_same(AI(i, j), A(i, j)));
}

struct SpdCase {
  Vector syms;  // 16 entries of B, then 4 of b, then 8 of the 4x2 right-hand side R
  Matrix A, L;
  Vector x;  // solve_spd(A, b)
  Matrix X;  // solve_spd(A, R)
};

SpdCase make_spd() {
  SpdCase c;
  Matrix B = symbolic("B", 4, 4, c.syms);
  Vector b;
  for (int i = 0; i < 4; ++i) {
    b.push_back(Expr::symbol("rhs" + std::to_string(i)));
    c.syms.push_back(b.back());
  }
  Matrix R = symbolic("R", 4, 2, c.syms);
  c.A = B.transpose() * B + Matrix::identity(4);
  c.L = sym::cholesky(c.A);
  c.x = sym::solve_spd(c.A, b);
  c.X = sym::solve_spd(c.A, R);
  return c;
}

void unpack(const std::vector<double>& v, Eigen::Matrix4d& B, Eigen::Vector4d& b,
            Eigen::Matrix<double, 4, 2>& R) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) B(i, j) = v[static_cast<std::size_t>(4 * i + j)];
  for (int i = 0; i < 4; ++i) b(i) = v[static_cast<std::size_t>(16 + i)];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) R(i, j) = v[static_cast<std::size_t>(20 + 2 * i + j)];
}

// cholesky(BᵀB + I) and solve_spd with a vector and a matrix right-hand side agree with Eigen's
// LLT (1e-12 relative), and L is lower triangular with a positive diagonal.
TEST(SymMatrix, CholeskyAndSolveSpdMatchEigenLLT) {
  SpdCase c = make_spd();
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j) EXPECT_TRUE(c.L(i, j).is_zero());
  std::mt19937_64 rng(8);
  for (int p = 0; p < 25; ++p) {
    auto vals = uniform(rng, c.syms.size(), -1.5, 1.5);
    Eigen::Matrix4d B;
    Eigen::Vector4d b;
    Eigen::Matrix<double, 4, 2> R;
    unpack(vals, B, b, R);
    Eigen::Matrix4d A = B.transpose() * B + Eigen::Matrix4d::Identity();
    Eigen::LLT<Eigen::Matrix4d> llt(A);
    Eigen::Matrix4d L = llt.matrixL();
    Eigen::Vector4d x = llt.solve(b);
    Eigen::Matrix<double, 4, 2> X = llt.solve(R);
    const double sL = L.cwiseAbs().maxCoeff(), sx = x.cwiseAbs().maxCoeff(), sX = X.cwiseAbs().maxCoeff();
    EXPECT_LE(max_abs_diff(numeric(c.L, c.syms, vals), L), 1e-12 * (1 + sL));
    EXPECT_LE(max_abs_diff(numeric(Matrix::column(c.x), c.syms, vals), x), 1e-12 * (1 + sx));
    EXPECT_LE(max_abs_diff(numeric(c.X, c.syms, vals), X), 1e-12 * (1 + sX));
    EXPECT_LE(max_abs_diff(numeric(c.A, c.syms, vals), A), 1e-13 * (1 + A.cwiseAbs().maxCoeff()));
  }
}

// Jacobian of x = A(B)⁻¹ b with respect to the 20 entries of B and b: against the analytic derivative
// dx = A⁻¹ (db - dA x), dA = dBᵀ B + Bᵀ dB (1e-11), and central FD through Eigen's LLT (1e-7); the
// Hessian of λᵀx against central FD of the compiled Jacobian (1e-6).
TEST(SymMatrix, DerivativesOfSpdSolutionMatchAnalyticAndFiniteDifferences) {
  SpdCase c = make_spd();
  Vector in(c.syms.begin(), c.syms.begin() + 20);
  sym::SparseMatrix J = sym::jacobian_sparse(c.x, in);
  Vector lam = sym::symbols("lam", 4);
  sym::SparseMatrix H = sym::hessian_lower(c.x, lam, in);
  EXPECT_EQ(J.nnz(), 4u * 20u);  // dense: every x_i depends on every entry
  sym::Function FJ("jac", {in}, {J.values});
  sym::Function FH("hess", {in, lam}, {H.values});
  auto solve = [](const std::vector<double>& v) {
    Eigen::Matrix4d B;
    Eigen::Vector4d b;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) B(i, j) = v[static_cast<std::size_t>(4 * i + j)];
    for (int i = 0; i < 4; ++i) b(i) = v[static_cast<std::size_t>(16 + i)];
    Eigen::Matrix4d A = B.transpose() * B + Eigen::Matrix4d::Identity();
    return Eigen::Vector4d(A.llt().solve(b));
  };
  std::mt19937_64 rng(12);
  for (int p = 0; p < 10; ++p) {
    auto v = uniform(rng, 20, -1.5, 1.5);
    auto lv = uniform(rng, 4, -1, 1);
    Eigen::MatrixXd Js = dense(J, FJ({v})[0]);
    Eigen::Matrix4d B;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) B(i, j) = v[static_cast<std::size_t>(4 * i + j)];
    Eigen::Matrix4d A = B.transpose() * B + Eigen::Matrix4d::Identity();
    Eigen::Vector4d x = solve(v);
    const double js = Js.cwiseAbs().maxCoeff();
    for (int k = 0; k < 20; ++k) {
      // analytic
      Eigen::Matrix4d dB = Eigen::Matrix4d::Zero();
      Eigen::Vector4d db = Eigen::Vector4d::Zero();
      if (k < 16)
        dB(k / 4, k % 4) = 1;
      else
        db(k - 16) = 1;
      Eigen::Matrix4d dA = dB.transpose() * B + B.transpose() * dB;
      Eigen::Vector4d dx = A.llt().solve(db - dA * x);
      // FD
      const double h = 1e-6;
      auto vp = v, vm = v;
      vp[static_cast<std::size_t>(k)] += h;
      vm[static_cast<std::size_t>(k)] -= h;
      Eigen::Vector4d fd = (solve(vp) - solve(vm)) / (2 * h);
      for (int i = 0; i < 4; ++i) {
        EXPECT_TRUE(close(Js(i, k), dx(i), 1e-11, js))
            << "dx" << i << "/dv" << k << ": " << Js(i, k) << " vs " << dx(i);
        EXPECT_TRUE(close(Js(i, k), fd(i), 1e-7, js))
            << "dx" << i << "/dv" << k << ": " << Js(i, k) << " vs FD " << fd(i);
      }
    }
    // Hessian of λᵀx vs FD of λᵀJ
    Eigen::MatrixXd Hs = dense_symmetric(H, FH({v, lv})[0]);
    Eigen::Map<const Eigen::Vector4d> l(lv.data());
    const double hs = Hs.cwiseAbs().maxCoeff();
    for (int k = 0; k < 20; ++k) {
      const double h = 1e-5;
      auto vp = v, vm = v;
      vp[static_cast<std::size_t>(k)] += h;
      vm[static_cast<std::size_t>(k)] -= h;
      Eigen::VectorXd gp = dense(J, FJ({vp})[0]).transpose() * l, gm = dense(J, FJ({vm})[0]).transpose() * l;
      Eigen::VectorXd fd = (gp - gm) / (2 * h);
      for (int j = 0; j < 20; ++j)
        EXPECT_TRUE(close(Hs(k, j), fd(j), 1e-6, hs))
            << "H(" << k << "," << j << "): " << Hs(k, j) << " vs FD " << fd(j);
    }
  }
}

// A diagonal A is solved by division only (no square roots in the graph), with exact values.
TEST(SymMatrix, SolveSpdWithDiagonalMatrixUsesDivisionOnly) {
  Vector d = sym::symbols("d", 3), b = sym::symbols("b", 3);
  Vector x = sym::solve_spd(Matrix::diagonal(d), b);
  for (const Expr& e : x) {
    EXPECT_EQ(e.op(), sym::Op::Div) << e;
  }
  std::vector<double> vals = {2.0, 4.0, 8.0, 1.0, 3.0, 5.0};
  Vector all = sym::vertcat({d, b});
  EXPECT_EQ(sym::evaluate(x[0], all, vals), 0.5);
  EXPECT_EQ(sym::evaluate(x[1], all, vals), 0.75);
  EXPECT_EQ(sym::evaluate(x[2], all, vals), 0.625);
}

}  // namespace
