#pragma once
// Runge–Kutta schemes of one finite element (fesd.md §2.1–§2.3): Butcher tableaus of the
// collocation methods (Radau IIA, Gauss–Legendre, Lobatto IIIA), Lobatto IIIC and four explicit
// methods, and the matrices C, D, B of the integral (collocation) representation.
//
// Everything is computed, not tabulated (except the trivial explicit tableaus): nodes by Newton
// iteration on Legendre polynomials in long double, integrals of Lagrange polynomials by a
// Gauss–Legendre quadrature that is exact for them, then rounded once to double.
#include <string>
#include <vector>

namespace stasis::discretize {

enum class Scheme {
  RadauIIA,       ///< "radau_iia": 1..9 stages, order 2s-1, c_s = 1 (nosnoc default, n_s = 2)
  GaussLegendre,  ///< "gauss_legendre": 1..9 stages, order 2s, c_s < 1 (needs FE-end variables)
  LobattoIIIA,    ///< "lobatto_iiia": 2..5 stages, order 2s-2, collocation on Lobatto nodes
  LobattoIIIC,    ///< "lobatto_iiic": 2..5 stages, order 2s-2, a_i1 = b_1 and C(s-1)
  ExplicitRK,     ///< "explicit_rk": 1 Euler, 2 Heun, 3 Heun-3, 4 classical RK4 (order s)
};

/// Name as used in problem files and options: "radau_iia", "gauss_legendre", "lobatto_iiia",
/// "lobatto_iiic", "explicit_rk".
const char* to_string(Scheme scheme);
/// Inverse of to_string (ASCII case-insensitive, so nosnoc's "RADAU_IIA" is accepted too).
/// Throws stasis::Error listing the valid names.
Scheme scheme_from_string(const std::string& name);

/// Smallest and largest stage count butcher_tableau() accepts for `scheme`.
int min_stages(Scheme scheme);
int max_stages(Scheme scheme);

struct ButcherTableau {
  Scheme scheme = Scheme::RadauIIA;
  int stages = 0;
  std::vector<std::vector<double>> A;  ///< stages x stages, A[i][j] = a_ij
  std::vector<double> b, c;            ///< weights and nodes, size stages
  int order = 0;                       ///< 2s-1 Radau IIA, 2s Gauss, 2s-2 Lobatto, s explicit
  /// |c_s - 1| <= 1e-12: the last stage is the FE end (rbp = !last_node_is_end in fesd.md §0.3).
  /// For Radau IIA and Lobatto c_s is exactly 1.0.
  bool last_node_is_end = false;
  bool explicit_scheme = false;  ///< A strictly lower triangular (ExplicitRK only)
};

/// Tableau of `scheme` with `stages` stages. Throws stasis::Error naming the scheme, the requested
/// stage count and the allowed range if the count is out of range.
ButcherTableau butcher_tableau(Scheme scheme, int stages);

/// Integral (collocation) representation, fesd.md §2.2. Only Radau IIA and Gauss–Legendre (nosnoc
/// forces the differential representation for every other scheme); others throw stasis::Error.
/// Nodes tau_0 = 0, tau_r = c_r (r = 1..s); l_j (j = 0..s) the Lagrange basis on all s+1 nodes;
///   C[j][r] = l_j'(tau_r),  D[j] = l_j(1),  B[j] = integral_0^1 l_j,   j, r = 0..s.
/// Radau: tau_s = 1 exactly, so D = (0, ..., 0, 1) exactly. For s >= 2 (Radau) and all Gauss,
/// B[0] = 0 and B[1..s] = b. QUIRK (kept, as the formula gives it): Radau s = 1 has B = (1/2, 1/2).
struct CollocationMatrices {
  std::vector<std::vector<double>> C;  ///< (s+1) x (s+1), C[j][r]
  std::vector<double> D, B;            ///< size s+1
  std::vector<double> tau;             ///< (0, c_1, ..., c_s)
};
CollocationMatrices collocation_matrices(Scheme scheme, int stages);
/// The Lagrange basis l_j(θ), j = 0..n−1, on the distinct nodes tau (e.g. CollocationMatrices::tau):
/// the collocation polynomial of an element at θ ∈ [0, 1] is Σ_j l_j(θ) X_j with X_0 its start.
std::vector<double> lagrange_basis(const std::vector<double>& tau, double theta);

}  // namespace stasis::discretize
