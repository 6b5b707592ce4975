// Random expression DAGs with shared subexpressions: the compiled Jacobian (jacobian_sparse) and
// Lagrangian Hessian (hessian_lower with weights) against the Eigen AutoDiff oracle, and the
// sparsity patterns against the structural nonzeros.
//
// A DAG is generated as a *recipe*: a list of steps, each combining earlier nodes of a pool (inputs
// first, then previous steps), so nodes are shared by many later steps and by several outputs. The
// recipe is replayed with T = sym::Expr (engine under test) and with T = AD2 (nested Eigen
// AutoDiffScalar: values, gradients, Hessians), so the oracle never sees sym's folding or
// differentiation. Every step is checked on the test points while generating: domain (log > 0,
// |asin| < 1, ...), magnitude (|value| <= 1e3) and, for nonsmooth steps, a margin of 1e-4 from the
// kink, so that both sides take the same branch.
//
// Two families:
//  - smooth: linear steps carry random coefficients (a + k b), divisions are a / (k + b²), logs,
//    roots and powers act on k + a² (fresh random k), atan2(a, k + b²): no exact algebraic
//    cancellation or separability (log(ab), atan2(ab, b)) can occur; then an entry is in the pattern iff the
//    oracle derivative is not identically zero, and the test checks both directions (outside the pattern:
//    exactly zero at every point; inside: nonzero at some point);
//  - nonsmooth: also abs, sign, fmin, fmax, if_else (incl. a constant-zero branch), comparisons and
//    raw + - /; an entry outside the pattern must still be exactly zero at every point, an entry
//    inside may legitimately vanish (inactive branch).
//
// At the first point of every DAG the compiled values must also equal sym::evaluate bit for bit.
// Tolerances: values 1e-12, Jacobian and Hessian 1e-9, all relative: |a - b| <= tol (1 + scale),
// scale = largest |entry| of that matrix (of |w_i| |∇²f_i| summed for the Hessian) at that point.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <random>
#include <sstream>

#include "sym_test_support.hpp"

namespace {

using namespace symtest;
using sym::Vector;

enum class Kind {
  // smooth, cancellation-free
  Lin,      // a + k b
  Mul,      // a b
  DivSafe,  // a / (k + b²)
  Sin,
  Cos,
  Tanh,
  Atan,
  Exp,
  LogSafe,   // log(k + a²)
  SqrtSafe,  // sqrt(k + a²)
  Sq,
  PowCSafe,  // (k + a²)^c
  PowESafe,  // (k + a²)^b, |b| < 3
  Asin,      // |a| < 0.95
  Acos,
  Tan,  // |a| < 1.3
  Sinh,
  Cosh,
  Atan2Safe,  // atan2(a, k + b²)
  // nonsmooth, or with identities that make derivatives vanish identically (log(ab) has a zero
  // mixed second derivative, atan2(ab, b) does not depend on b, ...)
  Log,    // a > 0.1
  Sqrt,   // a > 0.1
  PowC,   // a^k, a > 0.1
  PowE,   // a^b, a > 0.1, |b| < 3
  Atan2,  // |b| > 0.05, not near the cut b < 0, a = 0
  Add,
  Sub,
  Div,  // |b| > 0.2
  Abs,
  SignMul,  // sign(a) b
  Fmin,
  Fmax,
  IfLt,      // if_else(a < b, c, d)
  IfLtZero,  // if_else(a < b, 0, c)
  LtMul,     // (a < b) c
};

struct Step {
  Kind kind;
  int a = 0, b = 0, c = 0, d = 0;
  double k = 0, k2 = 0;
};

struct Recipe {
  int n_inputs = 0;
  std::vector<Step> steps;
  std::vector<int> outputs;  // pool indices
};

template <class T>
T apply_step(const Step& s, const std::vector<T>& v, int n) {
  const T& a = v[s.a];
  const T& b = v[s.b];
  switch (s.kind) {
    case Kind::Lin:
      return T(a + s.k * b);
    case Kind::Mul:
      return T(a * b);
    case Kind::DivSafe:
      return T(a / T(s.k + gen::sq(b)));
    case Kind::Sin:
      return gen::sin(a);
    case Kind::Cos:
      return gen::cos(a);
    case Kind::Tanh:
      return gen::tanh(a);
    case Kind::Atan:
      return gen::atan(a);
    case Kind::Exp:
      return gen::exp(a);
    case Kind::LogSafe:
      return gen::log(T(s.k + gen::sq(a)));
    case Kind::SqrtSafe:
      return gen::sqrt(T(s.k + gen::sq(a)));
    case Kind::Log:
      return gen::log(a);
    case Kind::Sqrt:
      return gen::sqrt(a);
    case Kind::Sq:
      return gen::sq(a);
    case Kind::PowCSafe:
      return gen::pow(T(s.k + gen::sq(a)), s.k2);
    case Kind::PowESafe:
      return gen::pow(T(s.k + gen::sq(a)), b);
    case Kind::Atan2Safe:
      return gen::atan2(a, T(s.k + gen::sq(b)));
    case Kind::PowC:
      return gen::pow(a, s.k);
    case Kind::PowE:
      return gen::pow(a, b);
    case Kind::Asin:
      return gen::asin(a);
    case Kind::Acos:
      return gen::acos(a);
    case Kind::Tan:
      return gen::tan(a);
    case Kind::Sinh:
      return gen::sinh(a);
    case Kind::Cosh:
      return gen::cosh(a);
    case Kind::Atan2:
      return gen::atan2(a, b);
    case Kind::Add:
      return T(a + b);
    case Kind::Sub:
      return T(a - b);
    case Kind::Div:
      return T(a / b);
    case Kind::Abs:
      return gen::abs(a);
    case Kind::SignMul:
      return T(gen::sign(a) * b);
    case Kind::Fmin:
      return gen::fmin(a, b);
    case Kind::Fmax:
      return gen::fmax(a, b);
    case Kind::IfLt:
      return gen::if_else(gen::lt(a, b), v[s.c], v[s.d]);
    case Kind::IfLtZero:
      return gen::if_else(gen::lt(a, b), constant<T>(0.0, n), v[s.c]);
    case Kind::LtMul:
      return T(gen::lt(a, b) * v[s.c]);
  }
  return a;
}

template <class T>
std::vector<T> replay(const Recipe& r, std::vector<T> pool) {
  for (const Step& s : r.steps) pool.push_back(apply_step(s, pool, r.n_inputs));
  std::vector<T> out;
  for (int i : r.outputs) out.push_back(pool[i]);
  return out;
}

/// Domain, magnitude and kink checks of a candidate step at every test point.
bool admissible(const Step& s, const std::vector<std::vector<double>>& vals) {
  for (const auto& v : vals) {
    const double a = v[s.a], b = v[s.b];
    switch (s.kind) {
      case Kind::Log:
      case Kind::Sqrt:
      case Kind::PowC:
        if (a <= 0.1) return false;
        break;
      case Kind::PowE:
        if (a <= 0.1 || std::fabs(b) > 3) return false;
        break;
      case Kind::PowESafe:
        if (std::fabs(b) > 3) return false;
        break;
      case Kind::Asin:
      case Kind::Acos:
        if (std::fabs(a) >= 0.95) return false;
        break;
      case Kind::Tan:
        if (std::fabs(a) >= 1.3) return false;
        break;
      case Kind::Tanh:  // Eigen's tanh derivative 1/cosh² overflows to NaN in the nested oracle
        if (std::fabs(a) >= 20) return false;
        break;
      case Kind::Atan2:  // away from x = 0 and from the branch cut (x < 0, y = ±0)
        if (std::fabs(b) <= 0.05 || (b < 0 && std::fabs(a) < 0.05)) return false;
        break;
      case Kind::Div:
        if (std::fabs(b) <= 0.2) return false;
        break;
      case Kind::Abs:
      case Kind::SignMul:
        if (std::fabs(a) < 1e-4) return false;
        break;
      case Kind::Fmin:
      case Kind::Fmax:
      case Kind::IfLt:
      case Kind::IfLtZero:
      case Kind::LtMul:
        if (std::fabs(a - b) < 1e-4) return false;
        break;
      default:
        break;
    }
    const double r = apply_step(s, v, 0);
    if (!std::isfinite(r) || std::fabs(r) > 1e3) return false;
  }
  return true;
}

Recipe generate(std::mt19937_64& rng, bool smooth, const std::vector<std::vector<double>>& points) {
  static const std::vector<Kind> smooth_kinds = {
      Kind::Lin,      Kind::Lin,  Kind::Mul,  Kind::Mul,     Kind::DivSafe,  Kind::Sin,  Kind::Cos,
      Kind::Tanh,     Kind::Atan, Kind::Exp,  Kind::LogSafe, Kind::SqrtSafe, Kind::Sq,   Kind::PowCSafe,
      Kind::PowESafe, Kind::Asin, Kind::Acos, Kind::Tan,     Kind::Sinh,     Kind::Cosh, Kind::Atan2Safe};
  static const std::vector<Kind> extra_kinds = {
      Kind::Log, Kind::Sqrt,    Kind::PowC, Kind::PowE, Kind::Atan2, Kind::Add,      Kind::Sub,  Kind::Div,
      Kind::Abs, Kind::SignMul, Kind::Fmin, Kind::Fmax, Kind::IfLt,  Kind::IfLtZero, Kind::LtMul};
  std::vector<Kind> kinds = smooth_kinds;
  if (!smooth) {
    // nonsmooth ops about a third of the time
    for (int rep = 0; rep < 1; ++rep) kinds.insert(kinds.end(), extra_kinds.begin(), extra_kinds.end());
  }
  Recipe r;
  r.n_inputs = std::uniform_int_distribution<int>(2, 8)(rng);
  const int n_steps = std::uniform_int_distribution<int>(8, 60)(rng);
  std::vector<std::vector<double>> vals = points;  // vals[p][node]
  for (auto& v : vals) v.resize(static_cast<std::size_t>(r.n_inputs));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto pick = [&]() {
    const int size = static_cast<int>(vals[0].size());
    if (unit(rng) < 0.5) return size - 1 - std::uniform_int_distribution<int>(0, std::min(4, size - 1))(rng);
    return std::uniform_int_distribution<int>(0, size - 1)(rng);
  };
  int attempts = 0;
  while (static_cast<int>(r.steps.size()) < n_steps && attempts++ < 10000) {
    Step s;
    s.kind = kinds[std::uniform_int_distribution<std::size_t>(0, kinds.size() - 1)(rng)];
    s.a = pick();
    s.b = pick();
    s.c = pick();
    s.d = pick();
    switch (s.kind) {
      case Kind::Lin:
        s.k = (unit(rng) < 0.5 ? -1 : 1) * (0.3 + 1.7 * unit(rng));
        break;
      case Kind::DivSafe:
      case Kind::LogSafe:
      case Kind::SqrtSafe:
      case Kind::PowESafe:
      case Kind::Atan2Safe:
        s.k = 0.5 + 1.5 * unit(rng);
        break;
      case Kind::PowC:
        s.k = -1.5 + 4.0 * unit(rng);
        break;
      case Kind::PowCSafe:
        s.k = 0.5 + 1.5 * unit(rng);
        s.k2 = -1.5 + 4.0 * unit(rng);
        break;
      default:
        break;
    }
    if (!admissible(s, vals)) continue;
    for (auto& v : vals) v.push_back(apply_step(s, v, 0));
    r.steps.push_back(s);
  }
  const int pool = static_cast<int>(vals[0].size());
  const int m = std::uniform_int_distribution<int>(1, 5)(rng);
  r.outputs.push_back(pool - 1);
  while (static_cast<int>(r.outputs.size()) < m) r.outputs.push_back(pick());
  return r;
}

bool bits_equal(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

struct Stats {
  std::size_t dags = 0, checks = 0, j_nnz = 0, h_nnz = 0, j_vanishing = 0, h_vanishing = 0;
};

void check_dag(const Recipe& r, const std::vector<std::vector<double>>& points, bool smooth,
               std::mt19937_64& rng, Stats& stats) {
  const int n = r.n_inputs;
  const int m = static_cast<int>(r.outputs.size());
  Vector x = sym::symbols("x", static_cast<std::size_t>(n));
  Vector w = sym::symbols("w", static_cast<std::size_t>(m));
  Vector f = replay<Expr>(r, x);
  sym::SparseMatrix J = sym::jacobian_sparse(f, x);
  sym::SparseMatrix H = sym::hessian_lower(f, w, x);
  sym::Function FJ("dag_jac", {x}, {f, J.values});
  sym::Function FH("dag_hess", {x, w}, {H.values});
  stats.j_nnz += J.nnz();
  stats.h_nnz += H.nnz();

  // triplets sorted by (row, col), no duplicates, within bounds
  for (std::size_t k = 0; k < J.nnz(); ++k) {
    ASSERT_TRUE(J.row[k] >= 0 && J.row[k] < m && J.col[k] >= 0 && J.col[k] < n);
    if (k) {
      ASSERT_TRUE(std::make_pair(J.row[k - 1], J.col[k - 1]) < std::make_pair(J.row[k], J.col[k]));
    }
  }
  for (std::size_t k = 0; k < H.nnz(); ++k) {
    ASSERT_TRUE(H.row[k] >= 0 && H.row[k] < n && H.col[k] >= 0);
    if (k) {
      ASSERT_TRUE(std::make_pair(H.row[k - 1], H.col[k - 1]) < std::make_pair(H.row[k], H.col[k]));
    }
  }
  ASSERT_EQ(J.rows, static_cast<std::size_t>(m));
  ASSERT_EQ(J.cols, static_cast<std::size_t>(n));
  ASSERT_EQ(H.rows, static_cast<std::size_t>(n));
  ASSERT_EQ(H.cols, static_cast<std::size_t>(n));
  Eigen::MatrixXi j_in = Eigen::MatrixXi::Zero(m, n), h_in = Eigen::MatrixXi::Zero(n, n);
  for (std::size_t k = 0; k < J.nnz(); ++k) j_in(J.row[k], J.col[k]) = 1;
  for (std::size_t k = 0; k < H.nnz(); ++k) {
    ASSERT_GE(H.row[k], H.col[k]) << "hessian_lower returned an upper-triangle entry";
    h_in(H.row[k], H.col[k]) = 1;
  }
  Eigen::MatrixXi j_seen = Eigen::MatrixXi::Zero(m, n), h_seen = Eigen::MatrixXi::Zero(n, n);

  std::vector<double> work(std::max(FJ.work_size(), FH.work_size()));
  for (const auto& pt : points) {
    std::vector<double> fv(static_cast<std::size_t>(m)), jv(J.nnz()), hv(H.nnz());
    std::vector<double> wv = uniform(rng, static_cast<std::size_t>(m), -1.0, 1.0);
    {
      const double* in[] = {pt.data()};
      double* out[] = {fv.data(), jv.data()};
      FJ.eval(in, out, work.data());
      const double* in2[] = {pt.data(), wv.data()};
      double* out2[] = {hv.data()};
      FH.eval(in2, out2, work.data());
    }
    if (&pt == &points.front()) {
      // the compiled program (scheduled, fused, registers reused) computes every output exactly as
      // the reference interpreter sym::evaluate does, bit for bit
      std::vector<double> xw(pt);
      xw.insert(xw.end(), wv.begin(), wv.end());
      Vector xw_syms = sym::vertcat({x, w});
      for (int i = 0; i < m; ++i)
        EXPECT_TRUE(bits_equal(fv[i], sym::evaluate(f[i], x, pt))) << "output " << i;
      for (std::size_t k = 0; k < J.nnz(); ++k)
        EXPECT_TRUE(bits_equal(jv[k], sym::evaluate(J.values[k], x, pt)));
      for (std::size_t k = 0; k < H.nnz(); ++k)
        EXPECT_TRUE(bits_equal(hv[k], sym::evaluate(H.values[k], xw_syms, xw))) << "Hessian entry " << k;
    }
    std::vector<AD2> o = replay<AD2>(r, variables<AD2>(pt));
    Eigen::MatrixXd J_ad(m, n), H_ad = Eigen::MatrixXd::Zero(n, n), H_abs = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < m; ++i) {
      const double v = value_of(o[i]);
      EXPECT_TRUE(close(fv[i], v, 1e-12, std::fabs(v))) << "output " << i << ": " << fv[i] << " vs " << v;
      for (int j = 0; j < n; ++j) J_ad(i, j) = o[i].derivatives()(j).value();
      Eigen::MatrixXd Hi = hessian_of(o[i], n);
      H_ad += wv[i] * Hi;
      H_abs += std::fabs(wv[i]) * Hi.cwiseAbs();
    }
    Eigen::MatrixXd J_sym = dense(J, jv);
    Eigen::MatrixXd H_sym = dense(H, hv);  // lower triangle only
    const double jscale = J_ad.cwiseAbs().maxCoeff(), hscale = H_abs.maxCoeff();
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        EXPECT_TRUE(close(J_sym(i, j), J_ad(i, j), 1e-9, jscale))
            << "J(" << i << "," << j << "): " << J_sym(i, j) << " vs AD " << J_ad(i, j);
        if (!j_in(i, j)) {
          EXPECT_EQ(J_ad(i, j), 0.0) << "J(" << i << "," << j << ") is outside the pattern but nonzero";
        }
        if (J_ad(i, j) != 0.0) j_seen(i, j) = 1;
      }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) {
        EXPECT_TRUE(close(H_sym(i, j), H_ad(i, j), 1e-9, hscale))
            << "H(" << i << "," << j << "): " << H_sym(i, j) << " vs AD " << H_ad(i, j);
        if (!h_in(i, j)) {
          EXPECT_EQ(H_ad(i, j), 0.0) << "H(" << i << "," << j << ") is outside the pattern but nonzero";
        }
        if (H_ad(i, j) != 0.0) h_seen(i, j) = 1;
      }
    ++stats.checks;
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      if (j_in(i, j) && !j_seen(i, j)) {
        ++stats.j_vanishing;
        if (smooth)
          ADD_FAILURE() << "smooth DAG: J(" << i << "," << j << ") is in the pattern but zero at every point";
      }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      if (h_in(i, j) && !h_seen(i, j)) {
        ++stats.h_vanishing;
        if (smooth)
          ADD_FAILURE() << "smooth DAG: H(" << i << "," << j << ") is in the pattern but zero at every point";
      }
}

std::string describe(const Recipe& r) {
  std::ostringstream os;
  Vector x = sym::symbols("x", static_cast<std::size_t>(r.n_inputs));
  Vector f = replay<Expr>(r, x);
  for (std::size_t i = 0; i < f.size(); ++i) os << "  f" << i << " = " << f[i] << "\n";
  return os.str();
}

void run_family(bool smooth, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Stats stats;
  const int n_points = 4;
  for (int d = 0; d < count; ++d) {
    // inputs in a box; the generator adapts the DAG to these points
    const int max_inputs = 8;
    std::vector<std::vector<double>> points;
    for (int p = 0; p < n_points; ++p) points.push_back(uniform(rng, max_inputs, -1.5, 1.5));
    Recipe r = generate(rng, smooth, points);
    for (auto& p : points) p.resize(static_cast<std::size_t>(r.n_inputs));
    check_dag(r, points, smooth, rng, stats);
    ++stats.dags;
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "in DAG #" << d << ":\n" << describe(r);
      return;  // one DAG's report is enough
    }
  }
  std::printf(
      "    %s family: %zu DAGs, %zu point checks, %zu Jacobian nnz, %zu Hessian nnz, "
      "%zu J / %zu H pattern entries vanishing at all points\n",
      smooth ? "smooth" : "nonsmooth", stats.dags, stats.checks, stats.j_nnz, stats.h_nnz, stats.j_vanishing,
      stats.h_vanishing);
}

// 600 smooth DAGs (2..6 inputs, 8..30 steps, 1..4 outputs, 4 points each): Jacobian and Lagrangian
// Hessian within 1e-9 (relative) of nested AutoDiff, and the patterns exactly the structural
// nonzeros (outside: zero at every point; inside: nonzero at some point).
TEST(SymRandomDags, SmoothDagsMatchAutoDiffAndPatternsAreExact) { run_family(true, 1500, 20240611); }

// 600 DAGs that also use abs / sign / fmin / fmax / if_else / comparisons and raw + - /: Jacobian and
// Hessian within 1e-9 of nested AutoDiff, no derivative outside the pattern is ever nonzero.
TEST(SymRandomDags, NonsmoothDagsMatchAutoDiffAndPatternsContainAllNonzeros) { run_family(false, 1500, 977); }

}  // namespace
