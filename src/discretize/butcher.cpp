// Butcher tableaus and collocation matrices (fesd.md §2.1–§2.2), computed in long double.
//
// Nodes: Newton iteration (with deflation by the roots already found) on Legendre polynomials in
// x = 2t - 1 from Chebyshev-type initial guesses, then plain Newton polishing. Integrals of Lagrange
// polynomials: a Gauss–Legendre rule with kQuadPoints points (exact up to degree 2*kQuadPoints-1 >=
// every integrand here) evaluated in long double, never via monomial coefficients. Each result is
// rounded to double once.
#include "stasis/discretize/butcher.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "stasis/error.hpp"

namespace stasis::discretize {

using Real = long double;
using RVec = std::vector<Real>;

const char* to_string(Scheme scheme) {
  switch (scheme) {
    case Scheme::RadauIIA:
      return "radau_iia";
    case Scheme::GaussLegendre:
      return "gauss_legendre";
    case Scheme::LobattoIIIA:
      return "lobatto_iiia";
    case Scheme::LobattoIIIC:
      return "lobatto_iiic";
    case Scheme::ExplicitRK:
      return "explicit_rk";
  }
  return "?";
}

Scheme scheme_from_string(const std::string& name) {
  static const Scheme all[] = {Scheme::RadauIIA, Scheme::GaussLegendre, Scheme::LobattoIIIA,
                               Scheme::LobattoIIIC, Scheme::ExplicitRK};
  std::string lower = name;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::string valid;
  for (Scheme s : all) {
    if (lower == to_string(s)) return s;
    valid += valid.empty() ? "" : ", ";
    valid += to_string(s);
  }
  throw Error("unknown Runge-Kutta scheme '" + name + "'; valid names: " + valid);
}

int min_stages(Scheme scheme) {
  return (scheme == Scheme::LobattoIIIA || scheme == Scheme::LobattoIIIC) ? 2 : 1;
}

int max_stages(Scheme scheme) {
  switch (scheme) {
    case Scheme::RadauIIA:
    case Scheme::GaussLegendre:
      return 9;
    case Scheme::LobattoIIIA:
    case Scheme::LobattoIIIC:
      return 5;
    case Scheme::ExplicitRK:
      return 4;
  }
  return 0;
}

namespace {

constexpr Real kPi = 3.141592653589793238462643383279502884L;
constexpr int kQuadPoints = 12;  // exact for degree <= 23; integrands here have degree <= 9

void check_stages(const char* function, Scheme scheme, int stages) {
  if (stages < min_stages(scheme) || stages > max_stages(scheme)) {
    throw Error(std::string(function) + ": scheme '" + to_string(scheme) + "' allows " +
                std::to_string(min_stages(scheme)) + ".." + std::to_string(max_stages(scheme)) +
                " stages, got " + std::to_string(stages));
  }
}

// P_n(x), P_n'(x), P_n''(x) by the three-term recurrence and its derivatives.
struct Legendre {
  Real p, dp, ddp;
};
Legendre legendre(int n, Real x) {
  Real p0 = 1, dp0 = 0, ddp0 = 0;  // P_{k-1}
  if (n == 0) return {p0, dp0, ddp0};
  Real p1 = x, dp1 = 1, ddp1 = 0;  // P_k
  for (int k = 1; k < n; ++k) {
    const Real kk = k;
    Real p2 = ((2 * kk + 1) * x * p1 - kk * p0) / (kk + 1);
    Real dp2 = ((2 * kk + 1) * (p1 + x * dp1) - kk * dp0) / (kk + 1);
    Real ddp2 = ((2 * kk + 1) * (2 * dp1 + x * ddp1) - kk * ddp0) / (kk + 1);
    p0 = p1, dp0 = dp1, ddp0 = ddp1;
    p1 = p2, dp1 = dp2, ddp1 = ddp2;
  }
  return {p1, dp1, ddp1};
}

// Simple real roots of f on (-1, 1), one per initial guess, by Newton iteration deflated with the
// roots found so far (and with `fixed`, known roots not to be found again); then polished with
// plain Newton. Fn returns {f(x), f'(x)}. The result is sorted and checked for distinct roots.
template <class Fn>
RVec newton_roots(Fn f, const RVec& guesses, const RVec& fixed) {
  RVec found;
  const Real eps = std::numeric_limits<Real>::epsilon();
  for (Real x : guesses) {
    for (int it = 0; it < 100; ++it) {
      auto [v, dv] = f(x);
      Real s = 0;
      for (Real r : found) s += 1 / (x - r);
      for (Real r : fixed) s += 1 / (x - r);
      Real dx = v / (dv - v * s);
      x -= dx;
      if (std::fabs(dx) <= 4 * eps) break;
    }
    for (int it = 0; it < 3; ++it) {  // polish on the undeflated polynomial
      auto [v, dv] = f(x);
      if (dv == 0) break;
      x -= v / dv;
    }
    found.push_back(x);
  }
  std::sort(found.begin(), found.end());
  for (std::size_t i = 0; i < found.size(); ++i) {
    bool bad = !(found[i] > -1 && found[i] < 1) || (i > 0 && found[i] - found[i - 1] < 1e-6L);
    for (Real r : fixed) bad = bad || std::fabs(found[i] - r) < 1e-6L;
    if (bad) throw std::logic_error("stasis::discretize: Newton root finder for RK nodes failed");
  }
  return found;
}

// Roots of P_n on (-1, 1), ascending.
RVec gauss_points(int n) {
  RVec guess;
  for (int i = 0; i < n; ++i) guess.push_back(-std::cos(kPi * (i + 0.75L) / (n + 0.5L)));
  return newton_roots(
      [n](Real x) {
        auto l = legendre(n, x);
        return std::pair<Real, Real>{l.p, l.dp};
      },
      guess, {});
}

// n-point Gauss–Legendre rule on [-1, 1] (computed once).
struct Quadrature {
  RVec x, w;
};
const Quadrature& quadrature() {
  static const Quadrature q = [] {
    Quadrature r;
    r.x = gauss_points(kQuadPoints);
    for (Real x : r.x) {
      Real dp = legendre(kQuadPoints, x).dp;
      r.w.push_back(2 / ((1 - x * x) * dp * dp));
    }
    return r;
  }();
  return q;
}

// Nodes c in [0, 1], ascending, of the collocation-type schemes.
RVec nodes(Scheme scheme, int s) {
  RVec x;
  switch (scheme) {
    case Scheme::GaussLegendre:
      x = gauss_points(s);
      break;
    case Scheme::RadauIIA: {
      // Roots of P_s(x) - P_{s-1}(x): x = 1 exactly plus s-1 interior roots. Initial guesses
      // cos(2πi/(2s-1)), i = 1..s-1 (Chebyshev–Radau points).
      RVec guess;
      for (int i = 1; i < s; ++i) guess.push_back(std::cos(2 * kPi * i / (2 * s - 1)));
      x = newton_roots(
          [s](Real t) {
            auto a = legendre(s, t), b = legendre(s - 1, t);
            return std::pair<Real, Real>{a.p - b.p, a.dp - b.dp};
          },
          guess, {Real(1)});
      x.push_back(1);
      break;
    }
    case Scheme::LobattoIIIA:
    case Scheme::LobattoIIIC: {
      // -1, 1 and the roots of P'_{s-1}. Initial guesses -cos(πi/(s-1)), i = 1..s-2.
      // QUIRK (i) of fesd.md §2.1: nosnoc codes the s = 5 interior node as 7 - √21/14; the correct
      // node, computed here, is (7 - √21)/14 = 1/2 - √21/14 (and symmetrically 1/2 + √21/14).
      RVec guess;
      for (int i = 1; i < s - 1; ++i) guess.push_back(-std::cos(kPi * i / (s - 1)));
      RVec inner = newton_roots(
          [s](Real t) {
            auto l = legendre(s - 1, t);
            return std::pair<Real, Real>{l.dp, l.ddp};
          },
          guess, {Real(-1), Real(1)});
      x.push_back(-1);
      x.insert(x.end(), inner.begin(), inner.end());
      x.push_back(1);
      break;
    }
    case Scheme::ExplicitRK:
      break;
  }
  RVec c;
  for (Real xi : x) c.push_back((xi + 1) / 2);  // exact for x = ±1
  return c;
}

// Lagrange basis polynomial j on `nd`, its value and derivative at t.
Real lagrange(const RVec& nd, std::size_t j, Real t) {
  Real v = 1;
  for (std::size_t k = 0; k < nd.size(); ++k)
    if (k != j) v *= (t - nd[k]) / (nd[j] - nd[k]);
  return v;
}
Real lagrange_derivative(const RVec& nd, std::size_t j, Real t) {
  Real sum = 0;
  for (std::size_t m = 0; m < nd.size(); ++m) {
    if (m == j) continue;
    Real term = 1 / (nd[j] - nd[m]);
    for (std::size_t k = 0; k < nd.size(); ++k)
      if (k != j && k != m) term *= (t - nd[k]) / (nd[j] - nd[k]);
    sum += term;
  }
  return sum;
}
// ∫_0^upper l_j(t) dt by the Gauss–Legendre rule (exact: deg l_j = nd.size()-1 < 2*kQuadPoints).
Real lagrange_integral(const RVec& nd, std::size_t j, Real upper) {
  const Quadrature& q = quadrature();
  Real sum = 0;
  for (std::size_t i = 0; i < q.x.size(); ++i) sum += q.w[i] * lagrange(nd, j, upper * (q.x[i] + 1) / 2);
  return sum * upper / 2;
}

std::vector<double> to_double(const RVec& v) { return {v.begin(), v.end()}; }

ButcherTableau explicit_tableau(int s) {
  ButcherTableau t;
  switch (s) {
    case 1:  // explicit Euler
      t.A = {{0.0}};
      t.b = {1.0};
      t.c = {0.0};
      break;
    case 2:  // Heun
      t.A = {{0.0, 0.0}, {1.0, 0.0}};
      t.b = {0.5, 0.5};
      t.c = {0.0, 1.0};
      break;
    case 3:  // Heun's third-order method (nosnoc's final choice, fesd.md §2.1 QUIRK (ii))
      t.A = {{0.0, 0.0, 0.0}, {1.0 / 3.0, 0.0, 0.0}, {0.0, 2.0 / 3.0, 0.0}};
      t.b = {0.25, 0.0, 0.75};
      t.c = {0.0, 1.0 / 3.0, 2.0 / 3.0};
      break;
    default:  // 4: classical Runge–Kutta
      t.A = {{0.0, 0.0, 0.0, 0.0}, {0.5, 0.0, 0.0, 0.0}, {0.0, 0.5, 0.0, 0.0}, {0.0, 0.0, 1.0, 0.0}};
      t.b = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
      t.c = {0.0, 0.5, 0.5, 1.0};
      break;
  }
  return t;
}

}  // namespace

ButcherTableau butcher_tableau(Scheme scheme, int stages) {
  check_stages("butcher_tableau", scheme, stages);
  const int s = stages;
  const auto n = static_cast<std::size_t>(s);
  ButcherTableau t;
  if (scheme == Scheme::ExplicitRK) {
    t = explicit_tableau(s);
    t.order = s;
    t.explicit_scheme = true;
  } else {
    const RVec c = nodes(scheme, s);
    RVec b(n);
    for (std::size_t j = 0; j < n; ++j) b[j] = lagrange_integral(c, j, 1);
    t.A.assign(n, std::vector<double>(n, 0.0));
    if (scheme == Scheme::LobattoIIIC) {
      // a_i1 = b_1 and C(s-1): Σ_j a_ij p(c_j) = ∫_0^{c_i} p for deg p <= s-2. With p = L_m, the
      // Lagrange basis on c_2..c_s (degree s-2): a_im = ∫_0^{c_i} L_m - b_1 L_m(c_1).
      const RVec tail(c.begin() + 1, c.end());
      for (std::size_t i = 0; i < n; ++i) {
        t.A[i][0] = static_cast<double>(b[0]);
        for (std::size_t m = 0; m < tail.size(); ++m)
          t.A[i][m + 1] =
              static_cast<double>(lagrange_integral(tail, m, c[i]) - b[0] * lagrange(tail, m, c[0]));
      }
    } else {
      // Collocation (Radau IIA, Gauss, Lobatto IIIA): a_ij = ∫_0^{c_i} l_j.
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) t.A[i][j] = static_cast<double>(lagrange_integral(c, j, c[i]));
    }
    t.b = to_double(b);
    t.c = to_double(c);
    t.order = scheme == Scheme::RadauIIA ? 2 * s - 1 : scheme == Scheme::GaussLegendre ? 2 * s : 2 * s - 2;
  }
  t.scheme = scheme;
  t.stages = s;
  t.last_node_is_end = std::fabs(t.c.back() - 1.0) <= 1e-12;
  return t;
}

CollocationMatrices collocation_matrices(Scheme scheme, int stages) {
  if (scheme != Scheme::RadauIIA && scheme != Scheme::GaussLegendre) {
    throw Error(std::string("collocation_matrices: the integral representation exists only for "
                            "radau_iia and gauss_legendre, got scheme '") +
                to_string(scheme) + "' with " + std::to_string(stages) +
                " stages (use the differential representation)");
  }
  check_stages("collocation_matrices", scheme, stages);
  RVec tau{0};
  const RVec c = nodes(scheme, stages);
  tau.insert(tau.end(), c.begin(), c.end());
  const std::size_t n = tau.size();
  CollocationMatrices m;
  m.C.assign(n, std::vector<double>(n, 0.0));
  m.D.resize(n);
  m.B.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t r = 0; r < n; ++r) m.C[j][r] = static_cast<double>(lagrange_derivative(tau, j, tau[r]));
    m.D[j] = static_cast<double>(lagrange(tau, j, 1));
    m.B[j] = static_cast<double>(lagrange_integral(tau, j, 1));
  }
  m.tau = to_double(tau);
  return m;
}

std::vector<double> lagrange_basis(const std::vector<double>& tau, double theta) {
  std::vector<double> l(tau.size(), 1.0);
  for (std::size_t a = 0; a < tau.size(); ++a)
    for (std::size_t b = 0; b < tau.size(); ++b)
      if (b != a) l[a] *= (theta - tau[b]) / (tau[a] - tau[b]);
  return l;
}

}  // namespace stasis::discretize
