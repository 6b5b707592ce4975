// Butcher tableaus and collocation matrices (fesd.md §2.1–§2.2, test case T11 of §8).
// Every expectation names its source and tolerance. The tests that sweep all stage counts print the
// largest error of each check for s = 9 ("[ max err ]" lines) so a regression in accuracy shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "stasis/discretize/butcher.hpp"
#include "stasis/error.hpp"

using namespace stasis;
using namespace stasis::discretize;

namespace {

using Vec = std::vector<double>;
using Mat = std::vector<std::vector<double>>;

const double kSqrt3 = std::sqrt(3.0);
const double kSqrt6 = std::sqrt(6.0);
const double kSqrt15 = std::sqrt(15.0);
const double kSqrt21 = std::sqrt(21.0);

// Returns the largest absolute deviation (for the s = 9 report).
double expect_vec_near(const Vec& got, const Vec& want, double tol, const std::string& what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tol) << what << "[" << i << "]";
    worst = std::max(worst, std::fabs(got[i] - want[i]));
  }
  return worst;
}
void expect_mat_near(const Mat& got, const Mat& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    expect_vec_near(got[i], want[i], tol, what + "[" + std::to_string(i) + "]");
}

// Every scheme with every allowed stage count.
std::vector<std::pair<Scheme, int>> all_cases() {
  std::vector<std::pair<Scheme, int>> v;
  for (Scheme s : {Scheme::RadauIIA, Scheme::GaussLegendre, Scheme::LobattoIIIA, Scheme::LobattoIIIC,
                   Scheme::ExplicitRK})
    for (int n = min_stages(s); n <= max_stages(s); ++n) v.emplace_back(s, n);
  return v;
}

std::string label(Scheme s, int n) { return std::string(to_string(s)) + " s=" + std::to_string(n); }

double ipow(double x, int k) {
  double r = 1;
  for (int i = 0; i < k; ++i) r *= x;
  return r;
}

Vec mat_vec(const Mat& A, const Vec& x) {
  Vec y(A.size(), 0.0);
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) y[i] += A[i][j] * x[j];
  return y;
}
double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

void report(const char* check, Scheme s, double err) {
  std::printf("[ max err  ] %-40s %-16s s=9: %.2e\n", check, to_string(s), err);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Names and errors

TEST(Butcher, SchemeNamesRoundTrip) {
  EXPECT_STREQ(to_string(Scheme::RadauIIA), "radau_iia");
  EXPECT_STREQ(to_string(Scheme::GaussLegendre), "gauss_legendre");
  EXPECT_STREQ(to_string(Scheme::LobattoIIIA), "lobatto_iiia");
  EXPECT_STREQ(to_string(Scheme::LobattoIIIC), "lobatto_iiic");
  EXPECT_STREQ(to_string(Scheme::ExplicitRK), "explicit_rk");
  for (Scheme s : {Scheme::RadauIIA, Scheme::GaussLegendre, Scheme::LobattoIIIA, Scheme::LobattoIIIC,
                   Scheme::ExplicitRK})
    EXPECT_EQ(scheme_from_string(to_string(s)), s);
  EXPECT_EQ(scheme_from_string("RADAU_IIA"), Scheme::RadauIIA);  // nosnoc's enum spelling
}

TEST(Butcher, UnknownSchemeNameListsValidNames) {
  for (const char* bad : {"radau", "", "gauss", "lobatto_iiib", "radau_ia"}) {
    try {
      scheme_from_string(bad);
      ADD_FAILURE() << "no error for '" << bad << "'";
    } catch (const Error& e) {
      std::string m = e.what();
      EXPECT_NE(m.find("'" + std::string(bad) + "'"), std::string::npos) << m;
      for (const char* name : {"radau_iia", "gauss_legendre", "lobatto_iiia", "lobatto_iiic", "explicit_rk"})
        EXPECT_NE(m.find(name), std::string::npos) << m;
    }
  }
}

TEST(Butcher, OutOfRangeStagesThrowWithSchemeStagesAndRange) {
  struct Bad {
    Scheme scheme;
    int stages;
    const char* range;
  };
  // fesd.md §2.1: Radau IIA / Gauss 1..9, Lobatto 2..5, explicit 1..4.
  for (Bad b : {Bad{Scheme::RadauIIA, 0, "1..9"}, Bad{Scheme::RadauIIA, 10, "1..9"},
                Bad{Scheme::GaussLegendre, 0, "1..9"}, Bad{Scheme::GaussLegendre, 10, "1..9"},
                Bad{Scheme::LobattoIIIA, 1, "2..5"}, Bad{Scheme::LobattoIIIA, 6, "2..5"},
                Bad{Scheme::LobattoIIIC, 1, "2..5"}, Bad{Scheme::LobattoIIIC, 6, "2..5"},
                Bad{Scheme::ExplicitRK, 0, "1..4"}, Bad{Scheme::ExplicitRK, 5, "1..4"}}) {
    try {
      butcher_tableau(b.scheme, b.stages);
      ADD_FAILURE() << "no error for " << label(b.scheme, b.stages);
    } catch (const Error& e) {
      std::string m = e.what();
      EXPECT_NE(m.find(to_string(b.scheme)), std::string::npos) << m;
      EXPECT_NE(m.find("got " + std::to_string(b.stages)), std::string::npos) << m;
      EXPECT_NE(m.find(b.range), std::string::npos) << m;
    }
  }
  EXPECT_THROW(collocation_matrices(Scheme::RadauIIA, 0), Error);
  EXPECT_THROW(collocation_matrices(Scheme::RadauIIA, 10), Error);
  EXPECT_THROW(collocation_matrices(Scheme::GaussLegendre, 10), Error);
}

TEST(Butcher, IntegralRepresentationOnlyForRadauAndGauss) {
  // fesd.md §2.2: only RADAU_IIA and GAUSS_LEGENDRE; nosnoc forces 'differential' for the others.
  for (Scheme s : {Scheme::LobattoIIIA, Scheme::LobattoIIIC, Scheme::ExplicitRK}) {
    try {
      collocation_matrices(s, 2);
      ADD_FAILURE() << "no error for " << to_string(s);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(to_string(s)), std::string::npos) << e.what();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Closed-form values of fesd.md §2.1

TEST(Butcher, RadauIIA_Stages1And2_ClosedForm) {
  // fesd.md §2.1: n_s=1 c=[1] (implicit Euler); n_s=2 c=(1/3,1), A=[[5/12,−1/12],[3/4,1/4]], b=(3/4,1/4). Tol
  // 1e-15.
  auto t1 = butcher_tableau(Scheme::RadauIIA, 1);
  expect_mat_near(t1.A, {{1.0}}, 1e-15, "A");
  expect_vec_near(t1.b, {1.0}, 1e-15, "b");
  EXPECT_EQ(t1.c, Vec{1.0});
  EXPECT_EQ(t1.order, 1);
  auto t = butcher_tableau(Scheme::RadauIIA, 2);
  expect_vec_near(t.c, {1.0 / 3.0, 1.0}, 1e-15, "c");
  expect_mat_near(t.A, {{5.0 / 12.0, -1.0 / 12.0}, {0.75, 0.25}}, 1e-15, "A");
  expect_vec_near(t.b, {0.75, 0.25}, 1e-15, "b");
  EXPECT_EQ(t.order, 3);
  EXPECT_TRUE(t.last_node_is_end);
  EXPECT_FALSE(t.explicit_scheme);
}

TEST(Butcher, RadauIIA_Stages3_ClosedFormAndSpecDigits) {
  // fesd.md §2.1: c=((4−√6)/10,(4+√6)/10,1) (closed form, tol 1e-15); b and A rows given with 10 digits (tol
  // 1e-9).
  auto t = butcher_tableau(Scheme::RadauIIA, 3);
  expect_vec_near(t.c, {(4 - kSqrt6) / 10, (4 + kSqrt6) / 10, 1.0}, 1e-15, "c");
  expect_vec_near(t.c, {0.1550510257, 0.6449489743, 1.0}, 1e-9, "c (spec digits)");
  expect_vec_near(t.b, {0.3764030627, 0.5124858262, 1.0 / 9.0}, 1e-9, "b (spec digits)");
  expect_mat_near(t.A,
                  {{0.1968154772, -0.0655354259, 0.0237709743},
                   {0.3944243147, 0.2920734117, -0.0415487521},
                   {0.3764030627, 0.5124858262, 1.0 / 9.0}},
                  1e-9, "A (spec digits)");
  // Textbook closed form (Hairer–Wanner IV.5, Table 5.6) b = ((16−√6)/36, (16+√6)/36, 1/9), tol 1e-15.
  expect_vec_near(t.b, {(16 - kSqrt6) / 36, (16 + kSqrt6) / 36, 1.0 / 9.0}, 1e-15, "b");
  expect_vec_near(t.A[0], {(88 - 7 * kSqrt6) / 360, (296 - 169 * kSqrt6) / 1800, (-2 + 3 * kSqrt6) / 225},
                  1e-15, "A[0]");
  EXPECT_EQ(t.order, 5);
}

TEST(Butcher, GaussLegendre_Stages1To3_ClosedForm) {
  // fesd.md §2.1: n_s=1 c=[1/2] (midpoint); n_s=2 c=1/2∓√3/6, A=[[1/4,1/4−√3/6],[1/4+√3/6,1/4]], b=(1/2,1/2);
  // n_s=3 c=(1/2−√15/10,1/2,1/2+√15/10), b=(5/18,4/9,5/18), A standard. Tol 1e-15.
  auto t1 = butcher_tableau(Scheme::GaussLegendre, 1);
  expect_vec_near(t1.c, {0.5}, 1e-15, "c");
  expect_mat_near(t1.A, {{0.5}}, 1e-15, "A");
  expect_vec_near(t1.b, {1.0}, 1e-15, "b");
  auto t2 = butcher_tableau(Scheme::GaussLegendre, 2);
  expect_vec_near(t2.c, {0.5 - kSqrt3 / 6, 0.5 + kSqrt3 / 6}, 1e-15, "c");
  expect_mat_near(t2.A, {{0.25, 0.25 - kSqrt3 / 6}, {0.25 + kSqrt3 / 6, 0.25}}, 1e-15, "A");
  expect_vec_near(t2.b, {0.5, 0.5}, 1e-15, "b");
  EXPECT_EQ(t2.order, 4);
  EXPECT_FALSE(t2.last_node_is_end);
  auto t3 = butcher_tableau(Scheme::GaussLegendre, 3);
  expect_vec_near(t3.c, {0.5 - kSqrt15 / 10, 0.5, 0.5 + kSqrt15 / 10}, 1e-15, "c");
  expect_vec_near(t3.b, {5.0 / 18, 4.0 / 9, 5.0 / 18}, 1e-15, "b");
  expect_mat_near(t3.A,
                  {{5.0 / 36, 2.0 / 9 - kSqrt15 / 15, 5.0 / 36 - kSqrt15 / 30},
                   {5.0 / 36 + kSqrt15 / 24, 2.0 / 9, 5.0 / 36 - kSqrt15 / 24},
                   {5.0 / 36 + kSqrt15 / 30, 2.0 / 9 + kSqrt15 / 15, 5.0 / 36}},
                  1e-15, "A");
  EXPECT_EQ(t3.order, 6);
}

TEST(Butcher, Lobatto_Stages2And3_ClosedForm) {
  // fesd.md §2.1: IIIA n_s=2 A=[[0,0],[1/2,1/2]]; IIIC n_s=2 A=[[1/2,−1/2],[1/2,1/2]];
  // n_s=3 IIIA A=[[0,0,0],[5/24,1/3,−1/24],[1/6,2/3,1/6]], IIIC
  // [[1/6,−1/3,1/6],[1/6,5/12,−1/12],[1/6,2/3,1/6]], b=(1/6,2/3,1/6). Tol 1e-15.
  auto a2 = butcher_tableau(Scheme::LobattoIIIA, 2);
  EXPECT_EQ(a2.c, (Vec{0.0, 1.0}));
  expect_mat_near(a2.A, {{0, 0}, {0.5, 0.5}}, 1e-15, "IIIA2 A");
  expect_vec_near(a2.b, {0.5, 0.5}, 1e-15, "IIIA2 b");
  auto c2 = butcher_tableau(Scheme::LobattoIIIC, 2);
  EXPECT_EQ(c2.c, (Vec{0.0, 1.0}));
  expect_mat_near(c2.A, {{0.5, -0.5}, {0.5, 0.5}}, 1e-15, "IIIC2 A");
  expect_vec_near(c2.b, {0.5, 0.5}, 1e-15, "IIIC2 b");
  auto a3 = butcher_tableau(Scheme::LobattoIIIA, 3);
  expect_vec_near(a3.c, {0, 0.5, 1}, 1e-15, "IIIA3 c");
  expect_mat_near(a3.A, {{0, 0, 0}, {5.0 / 24, 1.0 / 3, -1.0 / 24}, {1.0 / 6, 2.0 / 3, 1.0 / 6}}, 1e-15,
                  "IIIA3 A");
  expect_vec_near(a3.b, {1.0 / 6, 2.0 / 3, 1.0 / 6}, 1e-15, "IIIA3 b");
  auto c3 = butcher_tableau(Scheme::LobattoIIIC, 3);
  expect_mat_near(c3.A,
                  {{1.0 / 6, -1.0 / 3, 1.0 / 6}, {1.0 / 6, 5.0 / 12, -1.0 / 12}, {1.0 / 6, 2.0 / 3, 1.0 / 6}},
                  1e-15, "IIIC3 A");
  expect_vec_near(c3.b, {1.0 / 6, 2.0 / 3, 1.0 / 6}, 1e-15, "IIIC3 b");
  EXPECT_EQ(a3.order, 4);
  EXPECT_EQ(c3.order, 4);
  EXPECT_TRUE(a3.last_node_is_end);
  EXPECT_TRUE(c3.last_node_is_end);
}

TEST(Butcher, Lobatto_Stages5_CorrectNodeNotNosnocTypo) {
  // fesd.md §2.1 QUIRK (i): nosnoc codes the n_s=5 node as 7 − √21/14; the correct node is (7 − √21)/14.
  // We implement the correct node. Tol 1e-15. b = (1/20, 49/180, 16/45, 49/180, 1/20) (closed form).
  for (Scheme s : {Scheme::LobattoIIIA, Scheme::LobattoIIIC}) {
    auto t = butcher_tableau(s, 5);
    expect_vec_near(t.c, {0.0, 0.5 - kSqrt21 / 14, 0.5, 0.5 + kSqrt21 / 14, 1.0}, 1e-15, label(s, 5) + " c");
    expect_vec_near(t.b, {1.0 / 20, 49.0 / 180, 16.0 / 45, 49.0 / 180, 1.0 / 20}, 1e-15, label(s, 5) + " b");
    EXPECT_LT(t.c[1], 1.0) << "nosnoc's typo 7 − √21/14 ≈ 6.67 would be outside [0,1]";
  }
  // Independent 40-digit reference (mpmath: collocation integrals; IIIC from a_i1 = b_1 and C(4) solved as a
  // linear system), printed to 20 digits. Tol 1e-15.
  auto a = butcher_tableau(Scheme::LobattoIIIA, 5);
  expect_vec_near(
      a.A[2], {0.040625, 0.30318418332304277802, 0.17777777777777777778, -0.030961961100820555796, 0.009375},
      1e-15, "IIIA5 A[2]");
  auto c = butcher_tableau(Scheme::LobattoIIIC, 5);
  expect_vec_near(c.A[0],
                  {0.05, -0.11666666666666666667, 0.13333333333333333333, -0.11666666666666666667, 0.05},
                  1e-15, "IIIC5 A[0]");
  expect_vec_near(c.A[2],
                  {0.05, 0.28130918332304277802, 0.20277777777777777778, -0.052836961100820555796, 0.01875},
                  1e-15, "IIIC5 A[2]");
}

TEST(Butcher, ExplicitTableaus) {
  // fesd.md §2.1: 1 explicit Euler, 2 Heun, 3 Heun-3 (c=(0,1/3,2/3), b=(1/4,0,3/4)), 4 classical RK4. Exact.
  auto e1 = butcher_tableau(Scheme::ExplicitRK, 1);
  EXPECT_EQ(e1.A, (Mat{{0.0}}));
  EXPECT_EQ(e1.b, Vec{1.0});
  EXPECT_EQ(e1.c, Vec{0.0});
  auto e2 = butcher_tableau(Scheme::ExplicitRK, 2);
  EXPECT_EQ(e2.A, (Mat{{0, 0}, {1, 0}}));
  EXPECT_EQ(e2.b, (Vec{0.5, 0.5}));
  auto e3 = butcher_tableau(Scheme::ExplicitRK, 3);
  EXPECT_EQ(e3.A, (Mat{{0, 0, 0}, {1.0 / 3, 0, 0}, {0, 2.0 / 3, 0}}));
  EXPECT_EQ(e3.b, (Vec{0.25, 0, 0.75}));
  EXPECT_EQ(e3.c, (Vec{0, 1.0 / 3, 2.0 / 3}));
  auto e4 = butcher_tableau(Scheme::ExplicitRK, 4);
  EXPECT_EQ(e4.A, (Mat{{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1, 0}}));
  EXPECT_EQ(e4.b, (Vec{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}));
  EXPECT_EQ(e4.c, (Vec{0, 0.5, 0.5, 1}));
  // fesd.md §2.1 table: c_{n_s} = 1 only for n_s = 2 and 4.
  EXPECT_FALSE(e1.last_node_is_end);
  EXPECT_TRUE(e2.last_node_is_end);
  EXPECT_FALSE(e3.last_node_is_end);
  EXPECT_TRUE(e4.last_node_is_end);
  for (int s = 1; s <= 4; ++s) {
    auto t = butcher_tableau(Scheme::ExplicitRK, s);
    EXPECT_EQ(t.order, s);
    EXPECT_TRUE(t.explicit_scheme);
    for (int i = 0; i < s; ++i)
      for (int j = i; j < s; ++j) EXPECT_EQ(t.A[i][j], 0.0) << "explicit: strictly lower triangular";
  }
}

TEST(Butcher, NineStages_IndependentHighPrecisionReference) {
  // T11: the tableaus must match the 16-digit tables to 1e-15 for n_s <= 9. Reference: independent 40-digit
  // mpmath computation (nodes as polynomial roots, integrals by adaptive quadrature), printed to 20 digits.
  auto r = butcher_tableau(Scheme::RadauIIA, 9);
  double worst_r = 0, worst_g = 0;
  worst_r = std::max(
      worst_r, expect_vec_near(r.c,
                               {0.017779915147363451813, 0.091323607899793956004, 0.21430847939563075836,
                                0.37193216458327230243, 0.54518668480342664903, 0.71317524285556948105,
                                0.85563374295785442851, 0.95536604471003014927, 1.0},
                               1e-15, "radau9 c"));
  worst_r = std::max(
      worst_r, expect_vec_near(r.b,
                               {0.045357252461641458506, 0.10027664901227597871, 0.14319334817861558557,
                                0.1688469834879647929, 0.17413650138648329704, 0.15842188783521898917,
                                0.12359468910229652618, 0.07382700952315769291, 0.012345679012345679012},
                               1e-15, "radau9 b"));
  worst_r = std::max(
      worst_r,
      expect_vec_near(r.A[0],
                      {0.022788378793458775252, -0.0085896397529389457, 0.0064510291769951468129,
                       -0.0052575286997501196058, 0.004388833809361375394, -0.003651215553690467223,
                       0.0029404882137526146058, -0.0021492741638825537642, 0.00085884332405762604143},
                      1e-15, "radau9 A[0]"));
  worst_r = std::max(
      worst_r, expect_vec_near(r.A[4],
                               {0.044834436586910232695, 0.10230684968594175791, 0.13821763419236816517,
                                0.18126393468214012893, 0.090433600599435640179, -0.018085063366782479127,
                                0.010193387903855564581, -0.0064052654188663225557, 0.0024271699384239612508},
                               1e-15, "radau9 A[4]"));
  auto g = butcher_tableau(Scheme::GaussLegendre, 9);
  worst_g = std::max(
      worst_g, expect_vec_near(g.c,
                               {0.015919880246186955082, 0.08198444633668210285, 0.19331428364970480135,
                                0.33787328829809553548, 0.5, 0.66212671170190446452, 0.80668571635029519865,
                                0.91801555366331789715, 0.98408011975381304492},
                               1e-15, "gauss9 c"));
  worst_g = std::max(
      worst_g, expect_vec_near(g.b,
                               {0.040637194180787205986, 0.090324080347428702029, 0.13030534820146773116,
                                0.15617353852000142003, 0.16511967750062988158, 0.15617353852000142003,
                                0.13030534820146773116, 0.090324080347428702029, 0.040637194180787205986},
                               1e-15, "gauss9 b"));
  worst_g = std::max(
      worst_g,
      expect_vec_near(g.A[0],
                      {0.020318597090393602993, -0.0073978685661487868654, 0.0052220035921000538919,
                       -0.0038734512917449805505, 0.0028313694500698398635, -0.0019621941883912191703,
                       0.0012266097888125607484, -0.00062296409164891448116, 0.00017777846274479865278},
                      1e-15, "gauss9 A[0]"));
  worst_g = std::max(
      worst_g,
      expect_vec_near(g.A[4],
                      {0.03994037286983474332, 0.092943372272717086975, 0.12425711041077566993,
                       0.17000044525525348358, 0.082559838750314940791, -0.013826906735252063542,
                       0.0060482377906920612291, -0.0026192919252883849455, 0.00069682131095246266555},
                      1e-15, "gauss9 A[4]"));
  report("tableau vs 40-digit reference", Scheme::RadauIIA, worst_r);
  report("tableau vs 40-digit reference", Scheme::GaussLegendre, worst_g);
}

// ---------------------------------------------------------------------------------------------
// Order conditions and structural properties, every scheme and stage count

TEST(Butcher, ShapesFlagsAndOrders) {
  // fesd.md §2.1 table: order 2s−1 Radau IIA, 2s Gauss, 2s−2 Lobatto, s explicit; rbp flag.
  for (auto [scheme, s] : all_cases()) {
    auto t = butcher_tableau(scheme, s);
    SCOPED_TRACE(label(scheme, s));
    EXPECT_EQ(t.scheme, scheme);
    EXPECT_EQ(t.stages, s);
    ASSERT_EQ(t.A.size(), static_cast<std::size_t>(s));
    for (const auto& row : t.A) ASSERT_EQ(row.size(), static_cast<std::size_t>(s));
    ASSERT_EQ(t.b.size(), static_cast<std::size_t>(s));
    ASSERT_EQ(t.c.size(), static_cast<std::size_t>(s));
    int want = scheme == Scheme::RadauIIA        ? 2 * s - 1
               : scheme == Scheme::GaussLegendre ? 2 * s
               : scheme == Scheme::ExplicitRK    ? s
                                                 : 2 * s - 2;
    EXPECT_EQ(t.order, want);
    EXPECT_EQ(t.explicit_scheme, scheme == Scheme::ExplicitRK);
    if (scheme == Scheme::RadauIIA || scheme == Scheme::LobattoIIIA || scheme == Scheme::LobattoIIIC) {
      EXPECT_EQ(t.c.back(), 1.0) << "exactly 1 (nosnoc's integral mode tests tau_end == 1 exactly)";
      EXPECT_TRUE(t.last_node_is_end);
    }
    if (scheme == Scheme::GaussLegendre) {
      EXPECT_FALSE(t.last_node_is_end);
    }
    if (scheme == Scheme::LobattoIIIA || scheme == Scheme::LobattoIIIC) {
      EXPECT_EQ(t.c.front(), 0.0);
    }
    for (int i = 1; i < s; ++i) {
      if (scheme != Scheme::ExplicitRK) {
        EXPECT_LT(t.c[i - 1], t.c[i]) << "nodes strictly increasing";
      }
    }
    if (scheme == Scheme::RadauIIA || scheme == Scheme::LobattoIIIA) {
      EXPECT_EQ(t.A.back(), t.b) << "stiffly accurate: last row of A is b (same computation)";
    }
  }
}

TEST(Butcher, QuadratureOrderConditions) {
  // Σb = 1 and b·c^{k−1} = 1/k for k <= order (B(p)). Tol 1e-13.
  for (auto [scheme, s] : all_cases()) {
    auto t = butcher_tableau(scheme, s);
    SCOPED_TRACE(label(scheme, s));
    double worst = 0;
    for (int k = 1; k <= t.order; ++k) {
      double sum = 0;
      for (int j = 0; j < s; ++j) sum += t.b[j] * ipow(t.c[j], k - 1);
      EXPECT_NEAR(sum, 1.0 / k, 1e-13) << "k=" << k;
      worst = std::max(worst, std::fabs(sum - 1.0 / k));
    }
    if (s == 9) report("b.c^(k-1) = 1/k, k<=order", scheme, worst);
  }
}

TEST(Butcher, StageOrderAndRowSums) {
  // Row sums of A = c (all schemes), and C(q): A·c^{k−1} = c^k/k for k <= q, q = s for the collocation
  // methods (Radau IIA, Gauss, Lobatto IIIA), q = s−1 for Lobatto IIIC. Tol 1e-13.
  for (auto [scheme, s] : all_cases()) {
    auto t = butcher_tableau(scheme, s);
    SCOPED_TRACE(label(scheme, s));
    int q = scheme == Scheme::ExplicitRK ? 1 : scheme == Scheme::LobattoIIIC ? s - 1 : s;
    double worst_rows = 0, worst_stage = 0;
    for (int k = 1; k <= q; ++k) {
      Vec ck1(s), lhs;
      for (int j = 0; j < s; ++j) ck1[j] = ipow(t.c[j], k - 1);
      lhs = mat_vec(t.A, ck1);
      for (int i = 0; i < s; ++i) {
        double err = std::fabs(lhs[i] - ipow(t.c[i], k) / k);
        EXPECT_LE(err, 1e-13) << "k=" << k << " i=" << i;
        double& worst = k == 1 ? worst_rows : worst_stage;
        worst = std::max(worst, err);
      }
    }
    if (s == 9) {
      report("row sums of A = c", scheme, worst_rows);
      report("A.c^(k-1) = c^k/k, 2<=k<=s", scheme, worst_stage);
    }
  }
}

TEST(Butcher, RootedTreeOrderConditionsUpToFour) {
  // Butcher's order conditions for the 8 rooted trees of order <= min(order, 4) (Hairer–Nørsett–Wanner I,
  // Table II.2.2); this is what makes the explicit methods order s, beyond the quadrature conditions. Tol
  // 1e-13.
  for (auto [scheme, s] : all_cases()) {
    auto t = butcher_tableau(scheme, s);
    SCOPED_TRACE(label(scheme, s));
    const int p = std::min(t.order, 4);
    Vec c2(s), c3(s), Ac = mat_vec(t.A, t.c), cAc(s);
    for (int i = 0; i < s; ++i) {
      c2[i] = t.c[i] * t.c[i];
      c3[i] = c2[i] * t.c[i];
      cAc[i] = t.c[i] * Ac[i];
    }
    Vec Ac2 = mat_vec(t.A, c2), AAc = mat_vec(t.A, Ac);
    std::vector<std::pair<int, std::pair<double, double>>> cond = {
        {1, {dot(t.b, Vec(s, 1.0)), 1.0}}, {2, {dot(t.b, t.c), 0.5}},     {3, {dot(t.b, c2), 1.0 / 3}},
        {3, {dot(t.b, Ac), 1.0 / 6}},      {4, {dot(t.b, c3), 0.25}},     {4, {dot(t.b, cAc), 0.125}},
        {4, {dot(t.b, Ac2), 1.0 / 12}},    {4, {dot(t.b, AAc), 1.0 / 24}}};
    double worst = 0;
    for (std::size_t k = 0; k < cond.size(); ++k)
      if (cond[k].first <= p) {
        EXPECT_NEAR(cond[k].second.first, cond[k].second.second, 1e-13) << "tree " << k;
        worst = std::max(worst, std::fabs(cond[k].second.first - cond[k].second.second));
      }
    if (s == 9) report("8 rooted trees of order <= 4", scheme, worst);
    if (t.order < 4 && scheme == Scheme::ExplicitRK) {
      // and the order is not higher than claimed: some tree of order p+1 fails.
      bool any_fails = false;
      for (auto& c : cond)
        if (c.first == p + 1) any_fails = any_fails || std::fabs(c.second.first - c.second.second) > 1e-3;
      EXPECT_TRUE(any_fails);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Integral (collocation) representation, fesd.md §2.2

TEST(Collocation, RadauStages2_SpecReference) {
  // fesd.md §2.2: B=(0,3/4,1/4), D=(0,0,1), C=[[−4,−2,2],[4.5,1.5,−4.5],[−0.5,0.5,2.5]] (exact numbers; tol
  // 1e-14).
  auto m = collocation_matrices(Scheme::RadauIIA, 2);
  expect_vec_near(m.tau, {0, 1.0 / 3, 1}, 1e-15, "tau");
  expect_vec_near(m.B, {0, 0.75, 0.25}, 1e-14, "B");
  EXPECT_EQ(m.D, (Vec{0, 0, 1})) << "Radau: tau_end == 1 exactly, so D = e_s exactly";
  expect_mat_near(m.C, {{-4, -2, 2}, {4.5, 1.5, -4.5}, {-0.5, 0.5, 2.5}}, 1e-14, "C");
}

TEST(Collocation, GaussStages1And2_SpecReference) {
  // fesd.md §2.2: Gauss n_s=1: B=(0,1), D=(−1,2) (tol 1e-14). Gauss n_s=2: B=(0,1/2,1/2), D=(1,−√3,√3) (tol
  // 1e-14), C=[[−6,−2√3,2√3],[6.4641016151,3,−6.4641016151],[−0.4641016151,0.4641016151,3]] (10 digits: tol
  // 1e-9; the closed forms 6.4641016151 = 3+2√3, 0.4641016151 = 2√3−3 with tol 1e-14).
  auto g1 = collocation_matrices(Scheme::GaussLegendre, 1);
  expect_vec_near(g1.tau, {0, 0.5}, 1e-15, "g1 tau");
  expect_vec_near(g1.B, {0, 1}, 1e-14, "g1 B");
  expect_vec_near(g1.D, {-1, 2}, 1e-14, "g1 D");
  expect_mat_near(g1.C, {{-2, -2}, {2, 2}}, 1e-14, "g1 C (l_0 = 1−2t, l_1 = 2t)");
  auto g2 = collocation_matrices(Scheme::GaussLegendre, 2);
  expect_vec_near(g2.B, {0, 0.5, 0.5}, 1e-14, "g2 B");
  expect_vec_near(g2.D, {1, -kSqrt3, kSqrt3}, 1e-14, "g2 D");
  expect_mat_near(
      g2.C,
      {{-6, -2 * kSqrt3, 2 * kSqrt3}, {6.4641016151, 3, -6.4641016151}, {-0.4641016151, 0.4641016151, 3}},
      1e-9, "g2 C (spec digits)");
  const double p = 3 + 2 * kSqrt3, q = 2 * kSqrt3 - 3;
  expect_mat_near(g2.C, {{-6, -2 * kSqrt3, 2 * kSqrt3}, {p, 3, -p}, {-q, q, 3}}, 1e-14, "g2 C (closed form)");
}

TEST(Collocation, RadauStages1_QuirkHalfWeights) {
  // fesd.md §2.2 QUIRK: for Radau n_s=1 (implicit Euler) the interpolatory rule on {0,1} gives B=(1/2,1/2),
  // so nosnoc's Lagrange cost Σ_{m>=1} B[m] h q(X_m) under-weights by 2. We REPRODUCE what the formula gives
  // (B = (1/2,1/2)); whether the cost uses B[1:] (nosnoc) or b = (1) is for the transcription to decide.
  auto m = collocation_matrices(Scheme::RadauIIA, 1);
  expect_vec_near(m.B, {0.5, 0.5}, 1e-15, "B");
  EXPECT_EQ(m.D, (Vec{0, 1}));
  expect_mat_near(m.C, {{-1, -1}, {1, 1}}, 1e-15, "C");
  EXPECT_NE(m.B[1], butcher_tableau(Scheme::RadauIIA, 1).b[0]) << "the quirk: B[1] = 1/2 but b = (1)";
}

TEST(Collocation, BMatchesButcherWeights) {
  // fesd.md §2.2: for Radau n_s >= 2 and all Gauss, B[0] = 0 and B[1:] = b; tau[1:] = c. Tol 1e-14.
  for (Scheme scheme : {Scheme::RadauIIA, Scheme::GaussLegendre}) {
    double worst_b0 = 0, worst_b = 0;
    for (int s = 1; s <= 9; ++s) {
      if (scheme == Scheme::RadauIIA && s == 1) continue;  // the quirk above
      SCOPED_TRACE(label(scheme, s));
      auto m = collocation_matrices(scheme, s);
      auto t = butcher_tableau(scheme, s);
      ASSERT_EQ(m.B.size(), static_cast<std::size_t>(s + 1));
      EXPECT_EQ(m.tau[0], 0.0);
      for (int j = 0; j < s; ++j) EXPECT_EQ(m.tau[j + 1], t.c[j]);
      EXPECT_NEAR(m.B[0], 0.0, 1e-14);
      for (int j = 0; j < s; ++j) EXPECT_NEAR(m.B[j + 1], t.b[j], 1e-14) << "j=" << j;
      if (s == 9) {
        worst_b0 = std::fabs(m.B[0]);
        for (int j = 0; j < s; ++j) worst_b = std::max(worst_b, std::fabs(m.B[j + 1] - t.b[j]));
      }
    }
    report("B[0] = 0", scheme, worst_b0);
    report("B[1:] = b", scheme, worst_b);
  }
}

TEST(Collocation, ConsistencyAndPolynomialExactness) {
  // Σ_j D[j] = 1, Σ_j C[j][r] = 0 (tol 1e-11), and for p(t) = t^k, k = 0..s, with samples p_j = p(tau_j):
  // Σ_j C[j][r] p_j = p'(tau_r), Σ_j D[j] p_j = p(1), Σ_j B[j] p_j = 1/(k+1) (interpolation on s+1 nodes is
  // exact for degree <= s). Tol 1e-11 (C has entries up to ~1e3 for s = 9).
  for (Scheme scheme : {Scheme::RadauIIA, Scheme::GaussLegendre}) {
    for (int s = 1; s <= 9; ++s) {
      SCOPED_TRACE(label(scheme, s));
      auto m = collocation_matrices(scheme, s);
      const int n = s + 1;
      ASSERT_EQ(m.C.size(), static_cast<std::size_t>(n));
      double e_dsum = 0, e_csum = 0, e_deriv = 0, e_value = 0, e_integral = 0;
      double dsum = 0;
      for (int j = 0; j < n; ++j) dsum += m.D[j];
      e_dsum = std::fabs(dsum - 1);
      for (int r = 0; r < n; ++r) {
        double cs = 0;
        for (int j = 0; j < n; ++j) cs += m.C[j][r];
        e_csum = std::max(e_csum, std::fabs(cs));
      }
      for (int k = 0; k <= s; ++k) {
        Vec pj(n);
        for (int j = 0; j < n; ++j) pj[j] = ipow(m.tau[j], k);
        for (int r = 0; r < n; ++r) {
          double d = 0;
          for (int j = 0; j < n; ++j) d += m.C[j][r] * pj[j];
          double want = k == 0 ? 0.0 : k * ipow(m.tau[r], k - 1);
          e_deriv = std::max(e_deriv, std::fabs(d - want));
        }
        e_value = std::max(e_value, std::fabs(dot(m.D, pj) - 1.0));
        e_integral = std::max(e_integral, std::fabs(dot(m.B, pj) - 1.0 / (k + 1)));
      }
      EXPECT_LE(e_dsum, 1e-11);
      EXPECT_LE(e_csum, 1e-11);
      EXPECT_LE(e_deriv, 1e-11);
      EXPECT_LE(e_value, 1e-11);
      EXPECT_LE(e_integral, 1e-11);
      if (s == 9) {
        report("sum_j D[j] = 1", scheme, e_dsum);
        report("sum_j C[j][r] = 0", scheme, e_csum);
        report("C reproduces p', deg p <= s", scheme, e_deriv);
        report("D reproduces p(1), deg p <= s", scheme, e_value);
        report("B integrates p, deg p <= s", scheme, e_integral);
      }
    }
  }
}

// The Lagrange basis on Radau IIA's (0, 1/3, 1) at θ = 0.4 (by hand: (0.4 − 1/3)(0.4 − 1)/(1/3),
// 0.4 (0.4 − 1)/((1/3)(1/3 − 1)), 0.4 (0.4 − 1/3)/(2/3)); it is the identity at the nodes.
TEST(Butcher, LagrangeBasisOnTheCollocationNodes) {
  const std::vector<double> tau = collocation_matrices(Scheme::RadauIIA, 2).tau;
  const std::vector<double> l = lagrange_basis(tau, 0.4);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_NEAR(l[0], -0.12, 1e-15);
  EXPECT_NEAR(l[1], 1.08, 1e-15);
  EXPECT_NEAR(l[2], 0.04, 1e-15);
  for (std::size_t a = 0; a < tau.size(); ++a) {
    const std::vector<double> at_node = lagrange_basis(tau, tau[a]);
    for (std::size_t b = 0; b < tau.size(); ++b) EXPECT_EQ(at_node[b], a == b ? 1.0 : 0.0) << a << " " << b;
  }
}
