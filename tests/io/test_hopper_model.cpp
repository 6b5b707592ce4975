// The hopping robot of examples/hopper.yaml (seed 000 Sec. 6): M(q) and h(q, v) derived by sym from
// the kinetic and potential energy in the file, checked against the closed form and the reference
// values of the stasis spec time_freezing.md §5.1 and T14 (which reconstruct nosnoc's serialized
// CasADi functions); tolerances 1e-9 absolute (the spec's values carry 10 significant digits).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/sym/matrix.hpp"

namespace {

using namespace stasis;

const io::OcpFile& hopper() {
  static const io::OcpFile f = io::read_ocp_file(std::string(STASIS_SOURCE_DIR) + "/examples/hopper.yaml");
  return f;
}

std::string hopper_text() {
  std::ifstream in(std::string(STASIS_SOURCE_DIR) + "/examples/hopper.yaml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const model::Cls& hopper_cls() {
  const io::OcpFile& f = hopper();
  EXPECT_TRUE(f.time_freezing);
  return *f.time_freezing->cls();
}

// Symbols (q, v, u) and values (x, u = 0).
struct Point {
  sym::Vector symbols;
  std::vector<double> values;
};

Point at(const model::Cls& c, const std::vector<double>& x) {
  Point p;
  p.symbols = c.q;
  p.symbols.insert(p.symbols.end(), c.v.begin(), c.v.end());
  p.symbols.insert(p.symbols.end(), c.u.begin(), c.u.end());
  p.values = x;
  p.values.resize(p.symbols.size(), 0.0);
  return p;
}

Eigen::Matrix4d mass_at(const model::Cls& c, const Point& p) {
  Eigen::Matrix4d M;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) M(i, j) = sym::evaluate(c.mass(i, j), p.symbols, p.values);
  return M;
}

Eigen::Vector4d forces_at(const model::Cls& c, const Point& p) {
  Eigen::Vector4d h;
  for (int i = 0; i < 4; ++i) h(i) = sym::evaluate(c.forces[i], p.symbols, p.values);
  return h;
}

// The closed form of spec §5.1 (Lagrangian reconstruction), for any (q, v); M33's constant is
// 250439/7812500 = 0.032056192 (the spec's 0.03205619 is rounded).
void closed_form(const std::vector<double>& x, Eigen::Matrix4d& M, Eigen::Vector4d& h) {
  const double ph = x[2], pk = x[3], wh = x[6], wk = x[7];
  const double c1 = std::cos(ph), s1 = std::sin(ph), c12 = std::cos(ph + pk), s12 = std::sin(ph + pk);
  const double ck = std::cos(pk), sk = std::sin(pk);
  M << 6.305, 0, -0.138112 * c1 - 0.0548 * c12, -0.0548 * c12,  //
      0, 6.305, 0.138112 * s1 + 0.0548 * s12, 0.0548 * s12,      //
      0, 0, 250439.0 / 7812500.0 + 0.02192 * ck, 0.00868 + 0.01096 * ck,   //
      0, 0, 0, 0.00868;
  M(2, 0) = M(0, 2);
  M(3, 0) = M(0, 3);
  M(2, 1) = M(1, 2);
  M(3, 1) = M(1, 3);
  M(3, 2) = M(2, 3);
  h << -0.138112 * wh * wh * s1 - 0.0548 * (wh + wk) * (wh + wk) * s12,
      -0.138112 * wh * wh * c1 - 0.0548 * (wh + wk) * (wh + wk) * c12 - 61.85205,
      0.01096 * wk * (2 * wh + wk) * sk - 1.35487872 * s1 - 0.537588 * s12,
      -0.01096 * wh * wh * sk - 0.537588 * s12;
}

TEST(HopperModel, MassMatrixAndForcesAtRest) {
  const model::Cls& c = hopper_cls();
  ASSERT_EQ(c.n_q(), 4u);
  const std::vector<double> x0 = {0, 0.4, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(c.x0, x0);
  const Point p = at(c, x0);
  Eigen::Matrix4d expected;
  expected << 6.305, 0, -0.192912, -0.0548, 0, 6.305, 0, 0, -0.192912, 0, 0.053976192, 0.01964, -0.0548, 0,
      0.01964, 0.00868;
  EXPECT_LT((mass_at(c, p) - expected).cwiseAbs().maxCoeff(), 1e-9) << mass_at(c, p);
  EXPECT_LT((forces_at(c, p) - Eigen::Vector4d(0, -61.85205, 0, 0)).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(HopperModel, MassMatrixAndForcesInMotion) {
  const model::Cls& c = hopper_cls();
  const std::vector<double> x1 = {0.5, 0.35, 0.3, -0.6, 1, -0.5, 2, -3};
  const Point p = at(c, x1);
  const Eigen::Matrix4d M = mass_at(c, p);
  EXPECT_NEAR(M(0, 2), -0.1842958728, 1e-9);
  EXPECT_NEAR(M(1, 2), 0.02462037946, 1e-9);
  EXPECT_NEAR(M(1, 3), -0.01619450733, 1e-9);
  EXPECT_NEAR(M(2, 2), 0.05014754868, 1e-9);
  EXPECT_NEAR(M(2, 3), 0.01772567834, 1e-9);
  const Eigen::Vector4d h = forces_at(c, p);
  const Eigen::Vector4d h_expected(-0.1470650398, -62.43217617, -0.2229604780, 0.1836220429);
  EXPECT_LT((h - h_expected).cwiseAbs().maxCoeff(), 1e-8) << h.transpose();
  // And the closed form of §5.1 at several random states (the symbolic derivation is the reference).
  for (const std::vector<double>& x : {x1, std::vector<double>{-0.2, 0.45, -0.9, 1.1, -2, 3, 0.5, 4},
                                       std::vector<double>{2.7, 0.25, 1.2, 0.4, 0.3, 0.1, -5, 6}}) {
    Eigen::Matrix4d Mc;
    Eigen::Vector4d hc;
    closed_form(x, Mc, hc);
    const Point px = at(c, x);
    EXPECT_LT((mass_at(c, px) - Mc).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LT((forces_at(c, px) - hc).cwiseAbs().maxCoeff(), 1e-8);
  }
}

TEST(HopperModel, ContactAtTheInitialStateAndFootPosition) {
  const model::Cls& c = hopper_cls();
  ASSERT_EQ(c.n_contacts(), 1u);
  EXPECT_EQ(c.contacts[0].friction, 0.8);
  EXPECT_EQ(hopper().time_freezing->options.normal_acceleration, 200.0);
  const Point p0 = at(c, c.x0);
  EXPECT_NEAR(sym::evaluate(c.contacts[0].gap, p0.symbols, p0.values), 0.0, 1e-15);  // f_c(q0) = 0
  const Eigen::Matrix4d M = mass_at(c, p0);
  const sym::Vector n = c.normal(0);
  Eigen::Vector4d nv, bv;
  for (int i = 0; i < 4; ++i) {
    nv(i) = sym::evaluate(n[i], p0.symbols, p0.values);
    bv(i) = sym::evaluate(c.contacts[0].tangent(i, 0), p0.symbols, p0.values);
  }
  EXPECT_LT((nv - Eigen::Vector4d(0, 1, 0, 0)).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((bv - Eigen::Vector4d(1, 0, -0.4, -0.2)).cwiseAbs().maxCoeff(), 1e-15);
  const Eigen::LLT<Eigen::Matrix4d> llt(M);
  EXPECT_NEAR(nv.dot(llt.solve(nv)), 0.15860428, 1e-8);  // D(q0), T14
  EXPECT_NEAR(bv.dot(llt.solve(bv)), 4.9001769, 1e-7);   // b^T M^-1 b (q0), T14
  EXPECT_NEAR(bv.dot(llt.solve(nv)), 0.0, 1e-12);        // orthogonal at q0
  // p_foot(q1) = (0.5, -0.0321345957) (T14): the gap is p_foot,z, the tangent its x gradient.
  const Point p1 = at(c, {0.5, 0.35, 0.3, -0.6, 1, -0.5, 2, -3});
  EXPECT_NEAR(sym::evaluate(c.contacts[0].gap, p1.symbols, p1.values), -0.0321345957, 1e-10);
}


// Cls::delassus and the names a problem file gets for it: against an Eigen solve of the same
// M(q) at q0 (T14: D(q0) = 0.15860428, b^T M^-1 b = 4.9001769, b^T M^-1 n = 0) and at T14's q1.
TEST(HopperModel, DelassusMatrixAndTheContactNamesOfTheProblemFile) {
  const model::Cls& c = hopper_cls();
  const sym::Matrix W = c.delassus(0);
  ASSERT_EQ(W.rows(), 2u);
  ASSERT_EQ(W.cols(), 2u);
  const Point p0 = at(c, c.x0);
  EXPECT_NEAR(sym::evaluate(W(0, 0), p0.symbols, p0.values), 0.15860428, 1e-8);
  EXPECT_NEAR(sym::evaluate(W(1, 1), p0.symbols, p0.values), 4.9001769, 1e-7);
  EXPECT_NEAR(sym::evaluate(W(1, 0), p0.symbols, p0.values), 0.0, 1e-12);

  // The path constraint "foot_painleve_ratio <= 1" names mu |b^T M^-1 n| / n^T M^-1 n; at q1 the
  // same from the numeric M(q1) (relative 1e-12).
  std::string yaml = hopper_text();
  const std::string anchor = "      - \"knee_x >= -0.05\"\n";
  const std::size_t pos = yaml.find(anchor);
  ASSERT_NE(pos, std::string::npos);
  yaml.insert(pos, "      - \"foot_painleve_ratio <= 1\"\n      - \"foot_delassus_tn + foot_delassus_nn <= 9\"\n");
  const io::OcpFile f = io::read_ocp_string(yaml, "hopper with Painlevé constraints");
  ASSERT_EQ(f.ocp.path.size(), hopper().ocp.path.size() + 2);
  const std::vector<double> x1{0.5, 0.35, 0.3, -0.6, 1, -0.5, 2, -3};
  const model::Cls& cf = *f.time_freezing->cls();
  const Point p1 = at(cf, x1);
  const Eigen::Matrix4d M = mass_at(cf, p1);
  Eigen::Vector4d nv, bv;
  for (int i = 0; i < 4; ++i) {
    nv(i) = sym::evaluate(cf.normal(0)[i], p1.symbols, p1.values);
    bv(i) = sym::evaluate(cf.contacts[0].tangent(i, 0), p1.symbols, p1.values);
  }
  const Eigen::LLT<Eigen::Matrix4d> llt(M);
  const double D = nv.dot(llt.solve(nv)), B = bv.dot(llt.solve(nv));
  ASSERT_GT(std::fabs(B), 1e-3);  // a point where the coupling is not zero
  // The path expressions are in the time-frozen model's states (q, v, t) and controls.
  const sym::Vector& x = f.model.pss.x;
  sym::Vector symbols = x;
  symbols.insert(symbols.end(), f.model.pss.u.begin(), f.model.pss.u.end());
  std::vector<double> values = x1;
  values.resize(symbols.size(), 0.0);
  const double ratio = sym::evaluate(f.ocp.path[0], symbols, values);
  EXPECT_NEAR(ratio, 0.8 * std::fabs(B) / D, 1e-12 * (0.8 * std::fabs(B) / D));
  EXPECT_NEAR(sym::evaluate(f.ocp.path[1], symbols, values), B + D, 1e-12 * (std::fabs(B) + D));
}

// A definition may not take a name stasis defines for a contact.
TEST(HopperModel, ADefinitionThatTakesAContactQuantitysNameIsAnError) {
  std::string yaml = hopper_text();
  const std::string anchor = "    definitions:\n";
  const std::size_t pos = yaml.find(anchor);
  ASSERT_NE(pos, std::string::npos);
  yaml.insert(pos + anchor.size(), "      foot_delassus_nn: \"qz\"\n");
  try {
    (void)io::read_ocp_string(yaml, "hopper.yaml");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'foot_delassus_nn' is reserved: stasis defines it for contact 'foot'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("hopper.yaml:"), std::string::npos) << e.what();
  }
  // A contact name that is no identifier gives the names of an unnamed contact (contact<i>).
  std::string spaced = hopper_text();
  const std::string named = "      - name: foot\n";
  ASSERT_NE(spaced.find(named), std::string::npos);
  spaced.replace(spaced.find(named), named.size(), "      - name: left foot\n");
  // The file's Painlevé rows use the contact's quantities by its name.
  for (std::size_t at = spaced.find("foot_painleve_ratio"); at != std::string::npos;
       at = spaced.find("foot_painleve_ratio", at))
    spaced.replace(at, 4, "contact0");
  const std::string path = "      - \"knee_x >= -0.05\"\n";
  spaced.insert(spaced.find(path), "      - \"contact0_painleve_ratio <= 1\"\n");
  const io::OcpFile f = io::read_ocp_string(spaced, "hopper.yaml");
  EXPECT_EQ(f.time_freezing->cls()->contacts[0].name, "left foot");
  EXPECT_EQ(f.ocp.path.size(), hopper().ocp.path.size() + 1);
  // A parameter too (parameters are read before the contacts).
  std::string with_parameter = hopper_text();
  const std::string parameters = "    parameters:\n";
  with_parameter.insert(with_parameter.find(parameters) + parameters.size(), "      foot_painleve_ratio: 1\n");
  try {
    (void)io::read_ocp_string(with_parameter, "hopper.yaml");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'foot_painleve_ratio' is reserved: stasis defines it for contact 'foot'"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
