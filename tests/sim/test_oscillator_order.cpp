// The oscillator integration-order study of [FESD] §4.4 (fesd.md R1/T4): FESD keeps the Runge-Kutta
// order across the switch at t = 1, standard time stepping drops to first order.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "stasis/discretize/butcher.hpp"
#include "stasis/sim/integrator.hpp"

using namespace stasis;
using discretize::Scheme;

namespace {

model::Pss oscillator(std::vector<double> x0 = {std::exp(-1.0), 0.0}) {
  model::Pss p;
  sym::Vector x = p.add_states({"x1", "x2"});
  const double w = 2 * M_PI;
  model::Subsystem s;
  s.switching = {sq(x[0]) + sq(x[1]) - 1.0};
  s.signs = {{-1}, {1}};
  // inside the unit circle: A2 x; outside: A1 x (the code's assignment, see R1)
  s.fields = {{x[0] - w * x[1], w * x[0] + x[1]}, {x[0] + w * x[1], -w * x[0] + x[1]}};
  p.subsystems = {s};
  p.x0 = x0;
  return p;
}

const double kT = M_PI / 2;
const double kExact[2] = {-1.5974603774506984, 0.7614936206060108};  // x(π/2), fesd.md R1

struct Measured {
  double error;  // ‖x(T) − x*‖_∞
  bool converged;
};

Measured run(Scheme scheme, int ns, int steps, bool fesd) {
  sim::Options o;
  o.horizon = kT;
  o.steps = steps;
  o.discretization.scheme = scheme;
  o.discretization.stages = ns;
  o.discretization.elements = 2;
  o.discretization.fesd = fesd;
  // R1's settings: comp_tol 1e-13 (κ 0.05 in the paper's code; 0.1 with more steps is equivalent)
  o.homotopy.complementarity_tol = 1e-13;
  o.homotopy.sigma_final = 1e-14;
  sim::Result r = sim::simulate(oscillator(), o);
  const auto& x = r.states.back();
  return {std::max(std::fabs(x[0] - kExact[0]), std::fabs(x[1] - kExact[1])), r.converged};
}

}  // namespace

// Reference errors: fesd.md §8 T4 table (derived by the spec author with the switch step split
// exactly). Tolerance: within 10% (the requirement); observed order within 0.5 of p.
TEST(OscillatorOrder, FesdReachesTheTableErrorsAndOrders) {
  struct Row {
    Scheme scheme;
    int ns;
    int order;
    double e36, e115;
  };
  const Row rows[] = {
      {Scheme::RadauIIA, 2, 3, 5.221e-3, 1.282e-4},
      {Scheme::RadauIIA, 3, 5, 1.128e-6, 1.780e-9},
      {Scheme::GaussLegendre, 1, 2, 9.516e-2, 9.104e-3},
      {Scheme::GaussLegendre, 2, 4, 6.639e-5, 4.620e-7},
      {Scheme::GaussLegendre, 3, 6, 2.049e-8, 8.0e-12},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::string(discretize::to_string(row.scheme)) + " n_s=" + std::to_string(row.ns));
    Measured a = run(row.scheme, row.ns, 36, true);
    Measured b = run(row.scheme, row.ns, 115, true);
    ASSERT_TRUE(a.converged && b.converged);
    EXPECT_NEAR(a.error, row.e36, 0.1 * row.e36);
    double order = std::log(a.error / b.error) / std::log(115.0 / 36.0);
    // The table's own slope between these step counts (the spec notes 3.2, 5.6, 4.3 for Radau 2,
    // Radau 3, Gauss 2: pre-asymptotic, so it may exceed p by more than 0.5).
    double table_order = std::log(row.e36 / row.e115) / std::log(115.0 / 36.0);
    // Gauss n_s = 3 at N = 115 is at round-off level (8e-12): only its N = 36 value is compared.
    if (row.e115 > 1e-11) {
      EXPECT_NEAR(b.error, row.e115, 0.1 * row.e115);
      EXPECT_NEAR(order, table_order, 0.5) << "errors " << a.error << " " << b.error;
      EXPECT_GT(order, row.order - 0.5) << "errors " << a.error << " " << b.error;
    }
  }
}

TEST(OscillatorOrder, StandardTimeSteppingIsFirstOrder) {
  Measured a = run(Scheme::RadauIIA, 3, 36, false);
  Measured b = run(Scheme::RadauIIA, 3, 115, false);
  double order = std::log(a.error / b.error) / std::log(115.0 / 36.0);
  EXPECT_NEAR(order, 1.0, 0.5) << "errors " << a.error << " " << b.error;
  EXPECT_GT(a.error, 100 * 1.128e-6);  // far from FESD's error at the same step
}

// Schemes whose first stage point is the element's start (Lobatto IIIC: c_1 = 0, X_1 ≠ x_prev) or
// whose last node c = 1 is not the element end (Heun, RK4: X_{n_s} = x_prev + h v_{n_s−1}). Their
// stage state at the boundary lies off the switching surface by the stage error; with the LP of
// that stage evaluated at X_m (nosnoc), IPOPT reported Infeasible_Problem_Detected from σ ≈ 1e-4 on
// in the switch step (issue #3). stasis evaluates those stages' LP at the boundary state.
//
// To keep the test fast the oscillator starts at t0 = 0.8 on its exact inside arc,
// x(t0) = e^{t0−1}(cos 2πt0, sin 2πt0), and runs to π/2 in 10 and 30 steps (fesd.md R1: same
// system, same x(π/2)).
// Reference: the Runge–Kutta method with the switch placed exactly on an element boundary, i.e.
// the switch step split as (h_s, H − h_s) with h_s the root of |x̂|² = 1 after the inside element,
// all other steps two equal elements — fesd.md §8 T4's "derived FESD reference", computed here
// for the linear fields z' = (1 ± 2πi) z by solving the stage equations exactly.
namespace {

using cplx = std::complex<double>;
const double kW = 2 * M_PI;
const cplx kInside(1.0, kW), kOutside(1.0, -kW);  // A2 x, A1 x as z = x1 + i x2

cplx rk_step(const discretize::ButcherTableau& t, cplx lambda, cplx z, double h) {
  // (I − hλA) V = λ z e by Gaussian elimination (s <= 5, well conditioned for these h)
  const std::size_t s = t.A.size();
  std::vector<std::vector<cplx>> M(s, std::vector<cplx>(s + 1));
  for (std::size_t i = 0; i < s; ++i) {
    for (std::size_t j = 0; j < s; ++j) M[i][j] = (i == j ? 1.0 : 0.0) - h * lambda * t.A[i][j];
    M[i][s] = lambda * z;
  }
  for (std::size_t i = 0; i < s; ++i) {
    for (std::size_t j = i + 1; j <= s; ++j) M[i][j] /= M[i][i];
    for (std::size_t k = 0; k < s; ++k)
      if (k != i)
        for (std::size_t j = i + 1; j <= s; ++j) M[k][j] -= M[k][i] * M[i][j];
  }
  cplx end = z;
  for (std::size_t i = 0; i < s; ++i) end += h * t.b[i] * M[i][s];
  return end;
}

// Error ‖x̂(π/2) − x(π/2)‖_∞ of the switch-exact method, N steps of two elements from t0.
double switch_exact_error(const discretize::ButcherTableau& t, int N, double t0) {
  const double H = (kT - t0) / N;
  cplx z = std::exp(t0 - 1.0) * std::exp(cplx(0.0, kW * t0));
  bool inside = true;
  for (int k = 0; k < N; ++k) {
    if (inside) {
      cplx full = rk_step(t, kInside, rk_step(t, kInside, z, H / 2), H / 2);
      if (std::norm(full) < 1.0) {
        z = full;
        continue;
      }
      double lo = 0.0, hi = H;  // the discrete switch: |x̂|² − 1 changes sign in (0, H]
      for (int it = 0; it < 200; ++it) {
        double mid = 0.5 * (lo + hi);
        (std::norm(rk_step(t, kInside, z, mid)) < 1.0 ? lo : hi) = mid;
      }
      z = rk_step(t, kOutside, rk_step(t, kInside, z, lo), H - lo);
      inside = false;
    } else {
      z = rk_step(t, kOutside, rk_step(t, kOutside, z, H / 2), H / 2);
    }
  }
  return std::max(std::fabs(z.real() - kExact[0]), std::fabs(z.imag() - kExact[1]));
}

void check_boundary_stage_scheme(Scheme scheme, int ns, int order) {
  const double t0 = 0.8;
  const std::vector<double> x0 = {std::exp(t0 - 1.0) * std::cos(kW * t0), std::exp(t0 - 1.0) * std::sin(kW * t0)};
  const discretize::ButcherTableau tab = discretize::butcher_tableau(scheme, ns);
  double e[2];
  const int steps[2] = {10, 30};
  for (int i = 0; i < 2; ++i) {
    sim::Options o;
    o.horizon = kT - t0;
    o.steps = steps[i];
    o.discretization.scheme = scheme;
    o.discretization.stages = ns;
    o.discretization.elements = 2;
    o.homotopy.complementarity_tol = 1e-13;  // R1's comp_tol
    o.homotopy.sigma_final = 1e-14;
    sim::Result r = sim::simulate(oscillator(x0), o);
    ASSERT_TRUE(r.converged) << "N = " << steps[i] << ": " << r.message;
    const auto& x = r.states.back();
    e[i] = std::max(std::fabs(x[0] - kExact[0]), std::fabs(x[1] - kExact[1]));
    // FESD puts the switch on an element boundary: the same error as the switch-exact method, to
    // 1% (observed: agreement to 4+ digits; the residual tolerance 1e-13 moves the switch ~1e-13).
    const double ref = switch_exact_error(tab, steps[i], t0);
    EXPECT_NEAR(e[i], ref, 0.01 * ref) << "N = " << steps[i];
  }
  // fesd.md R1: FESD keeps the order 2n_s − 2 (Lobatto IIIC) and n_s (explicit RK); tolerance 0.5
  // as for the schemes above (the switch-exact reference itself gives 3.80, 5.56, 2.02 here).
  const double observed = std::log(e[0] / e[1]) / std::log(double(steps[1]) / steps[0]);
  EXPECT_NEAR(observed, order, 0.5) << "errors " << e[0] << " " << e[1];
}

}  // namespace

TEST(OscillatorOrder, LobattoIIIC3ResolvesTheSwitch) { check_boundary_stage_scheme(Scheme::LobattoIIIC, 3, 4); }
TEST(OscillatorOrder, LobattoIIIC4ResolvesTheSwitch) { check_boundary_stage_scheme(Scheme::LobattoIIIC, 4, 6); }
TEST(OscillatorOrder, HeunResolvesTheSwitch) { check_boundary_stage_scheme(Scheme::ExplicitRK, 2, 2); }
