// time_freezing.implicit_mass: the accelerations as algebraic variables with M(q) a = Σ θ_i force_i
// (model::Pss::implicit_mass, reformulate::to_dcs). Checked on the hopper of examples/hopper.yaml
// (M(q) from its kinetic energy, spec time_freezing.md §5.1) and on the planar particle with
// friction, in every DCS form: at random points, the implicit DCS's acceleration definitions equal
// the explicit DCS's velocity rows, its mass rows vanish there, and every other row of ẋ is the
// same. These are identities of the construction: tolerance 1e-10 relative (rounding of M⁻¹).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "stasis/io/model_file.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/sim/modes.hpp"
#include "tf_test_support.hpp"

using namespace tftest;

namespace {

const model::Cls& hopper() {
  static const stasis::io::OcpFile f =
      stasis::io::read_ocp_file(std::string(STASIS_SOURCE_DIR) + "/examples/hopper.yaml");
  return *f.time_freezing->cls();
}

struct Case {
  const char* name;
  bool lifting, lifted_variables;
  rf::DcsMode mode;
};

const Case kCases[] = {{"lifted step, theta variables", true, true, rf::DcsMode::Step},
                       {"lifted step, theta substituted", true, false, rf::DcsMode::Step},
                       {"dense step", false, true, rf::DcsMode::Step},
                       {"dense stewart", false, true, rf::DcsMode::Stewart}};

// Evaluates both DCS at random (x, u, z) (the implicit z = explicit z followed by a) and compares.
void compare(const model::Cls& cls, const Case& c, int points) {
  rf::TimeFreezingOptions o;
  o.lifting = c.lifting;
  o.lifted_variables = c.lifted_variables;
  o.normal_acceleration = 200;
  const rf::TimeFrozenModel explicit_model = rf::time_freezing(cls, o);
  o.implicit_mass = true;
  const rf::TimeFrozenModel implicit_model = rf::time_freezing(cls, o);
  ASSERT_TRUE(implicit_model.pss.implicit_mass.has_value());
  EXPECT_FALSE(explicit_model.pss.implicit_mass.has_value());
  const rf::Dcs e = rf::to_dcs(explicit_model.pss, c.mode);
  const rf::Dcs i = rf::to_dcs(implicit_model.pss, c.mode);
  const std::size_t nq = cls.n_q(), nx = e.n_x(), nz = e.n_z();
  ASSERT_EQ(i.n_z(), nz + nq) << c.name;
  ASSERT_EQ(i.g_alg.size(), e.g_alg.size() + nq) << c.name;
  ASSERT_EQ(i.accelerations.size(), nq) << c.name;
  EXPECT_EQ(i.first_acceleration_state, nq) << c.name;
  EXPECT_EQ(i.z_names[static_cast<std::size_t>(i.accelerations[0])], "d" + i.state_names[nq] + "/dt");
  const sym::Function fe("fe", {e.x, e.u, e.z}, {e.f, e.g_alg});
  const sym::Function fi("fi", {i.x, i.u, i.z}, {i.f, i.g_alg, i.acceleration_definitions});
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> q(-0.6, 0.6), v(-2, 2), w(0, 1);
  for (int p = 0; p < points; ++p) {
    Vec x(nx), u(e.n_u()), z(nz);
    for (std::size_t k = 0; k < nq; ++k) x[k] = q(gen);
    x[1] = 0.3 + 0.1 * q(gen);  // hopper: q_z of the hip; particle: a height either side of 0
    for (std::size_t k = nq; k < 2 * nq; ++k) x[k] = v(gen);
    for (auto& uk : u) uk = 20 * q(gen);
    for (auto& zk : z) zk = w(gen);  // θ, α, λ, β: any values, the identities hold for all
    const std::vector<Vec> ev = fe({x, u, z});
    Vec zi = z;
    zi.resize(nz + nq, 0.0);
    const Vec definitions = fi({x, u, zi})[2];
    for (std::size_t k = 0; k < nq; ++k) zi[nz + k] = definitions[k];
    const std::vector<Vec> iv = fi({x, u, zi});
    for (std::size_t r = 0; r < nx; ++r)
      EXPECT_NEAR(iv[0][r], ev[0][r], 1e-10 * std::max(1.0, std::abs(ev[0][r]))) << c.name << ", f row " << r;
    for (std::size_t r = 0; r < e.g_alg.size(); ++r)
      EXPECT_NEAR(iv[1][r], ev[1][r], 1e-10 * std::max(1.0, std::abs(ev[1][r]))) << c.name << ", g row " << r;
    double force_scale = 1.0;
    for (double a : definitions) force_scale = std::max(force_scale, std::abs(a));
    for (std::size_t r = e.g_alg.size(); r < i.g_alg.size(); ++r)
      EXPECT_NEAR(iv[1][r], 0.0, 1e-10 * force_scale) << c.name << ", mass row " << r;
  }
}

}  // namespace

TEST(TimeFreezingImplicitMass, HopperMatchesExplicitInEveryForm) {
  for (const Case& c : kCases) compare(hopper(), c, 20);
}

TEST(TimeFreezingImplicitMass, FrictionalParticleMatchesExplicit) {
  // Identity mass (M = I): the mass rows are a − forces.
  const model::Cls frictional = particle(0.5);
  for (const Case& c : kCases) compare(frictional, c, 10);
}

TEST(TimeFreezingImplicitMass, ConsistentAlgebraicsSetTheAccelerations) {
  // sim::ModeMonitor (predictors, initial guesses) puts a = M⁻¹ forces at a state: the hopper at
  // rest with its foot 0.1 above the ground falls freely, a = (0, −g, 0, 0) for u = 0 (its M⁻¹h
  // at rest: h = −(weight) in q_z only and M's q_z row is (0, 6.305, 0, 0)).
  rf::TimeFreezingOptions o;
  o.implicit_mass = true;
  const rf::Dcs d = rf::to_dcs(rf::time_freezing(hopper(), o).pss, rf::DcsMode::Step);
  stasis::sim::ModeMonitor modes(d);
  Vec x(d.n_x(), 0.0);
  x[1] = 0.5;
  const Vec z = modes.consistent_algebraics(x, Vec(d.n_u(), 0.0));
  const double expected[4] = {0.0, -9.81, 0.0, 0.0};
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_NEAR(z[static_cast<std::size_t>(d.accelerations[k])], expected[k], 1e-12) << k;
}

TEST(TimeFreezingImplicitMass, ElasticContactIsRejected) {
  const model::Cls elastic_ball = ball(1.0, -9.81, 0.9);
  rf::TimeFreezingOptions o;
  o.implicit_mass = true;
  try {
    rf::time_freezing(elastic_ball, o);
    FAIL() << "expected an error";
  } catch (const stasis::Error& err) {
    EXPECT_NE(std::string(err.what()).find("implicit_mass applies to inelastic contacts"), std::string::npos)
        << err.what();
  }
}

TEST(TimeFreezingImplicitMass, ValidateRejectsInconsistentForms) {
  // model::Pss::validate: a common field f0 with a velocity row but no f0_force would drop that
  // force from the mass rows; forces for the wrong number of fields are a size error.
  rf::TimeFreezingOptions o;
  o.implicit_mass = true;
  const rf::TimeFrozenModel tf = rf::time_freezing(ball(3.0, -29.43), o);
  model::Pss with_f0 = tf.pss;
  with_f0.f0 = {sym::Expr(0.0), sym::Expr(1.0), sym::Expr(0.0)};  // (q, v, t): a push in the v row
  EXPECT_THROW(with_f0.validate(), stasis::Error);
  with_f0.implicit_mass->f0_force = {sym::Expr(3.0)};  // M·1
  EXPECT_NO_THROW(with_f0.validate());
  model::Pss short_forces = tf.pss;
  short_forces.implicit_mass->forces[0].pop_back();
  EXPECT_THROW(short_forces.validate(), stasis::Error);
}
