#pragma once
// Shared helpers of the time-freezing tests: compiled evaluation of a time-frozen PSS (fields,
// switching functions, their Jacobian), region lookup by the signs of c(y), fixed-step
// integrators, and small model builders (1-D ball, planar particle).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/model/cls.hpp"
#include "stasis/model/jump_system.hpp"
#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sym.hpp"

namespace tftest {

namespace sym = stasis::sym;
namespace model = stasis::model;
namespace rf = stasis::reformulate;
using Vec = std::vector<double>;

/// The dense sign-row form (lifting off): the structure and region tests look regions up by sign rows.
inline rf::TimeFreezingOptions dense(rf::TimeFreezingOptions o = {}) {
  o.lifting = false;
  return o;
}

/// Numerical evaluation of subsystem 0 of a time-frozen model.
class Evaluator {
 public:
  explicit Evaluator(const rf::TimeFrozenModel& tf) : tf_(tf) {
    const model::Pss& pss = tf.pss;
    const model::Subsystem& sub = pss.subsystems.at(0);
    std::vector<sym::Vector> outs = sub.fields;
    outs.push_back(sub.switching);
    outs.push_back(sym::jacobian(sub.switching, pss.x).entries());
    outs.push_back(tf.gaps);
    outs.push_back(tf.normal_velocities);
    outs.push_back(tf.D.empty() ? sym::Vector{} : tf.D);
    n_regions_ = sub.fields.size();
    n_sw_ = sub.switching.size();
    fun_ = sym::Function("tf_eval", {pss.x, pss.u}, outs);
    u0_.assign(pss.n_u(), 0.0);
  }
  std::size_t n_regions() const { return n_regions_; }
  std::size_t n_switching() const { return n_sw_; }
  void set_controls(const Vec& u) { u0_ = u; }

  std::vector<Vec> all(const Vec& y) const { return fun_({y, u0_}); }
  Vec field(std::size_t region, const Vec& y) const { return all(y).at(region); }
  Vec switching(const Vec& y) const { return all(y).at(n_regions_); }
  /// Row-major n_sw × n_y.
  Vec switching_jacobian(const Vec& y) const { return all(y).at(n_regions_ + 1); }
  Vec gaps(const Vec& y) const { return all(y).at(n_regions_ + 2); }
  Vec normal_velocities(const Vec& y) const { return all(y).at(n_regions_ + 3); }
  Vec D(const Vec& y) const { return all(y).at(n_regions_ + 4); }

  /// The region whose sign row matches sign(c(y)) (c = 0 counts as +).
  std::size_t region(const Vec& y) const {
    const Vec c = switching(y);
    const auto& signs = tf_.pss.subsystems[0].signs;
    for (std::size_t r = 0; r < signs.size(); ++r) {
      bool match = true;
      for (std::size_t j = 0; j < c.size() && match; ++j) match = (c[j] >= 0.0 ? 1 : -1) == signs[r][j];
      if (match) return r;
    }
    ADD_FAILURE() << "no region matches the signs of c(y)";
    return 0;
  }
  /// The piecewise field at y (the region picked by sign(c(y))).
  Vec pss_field(const Vec& y) const { return field(region(y), y); }
  bool frozen(const Vec& y) const { return !tf_.region_contacts[region(y)].empty(); }

 private:
  const rf::TimeFrozenModel& tf_;
  sym::Function fun_;
  std::size_t n_regions_ = 0, n_sw_ = 0;
  Vec u0_;
};

inline Vec axpy(const Vec& y, double a, const Vec& d) {
  Vec r(y);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] += a * d[i];
  return r;
}

/// One classical RK4 step of y' = f(y).
template <class F>
Vec rk4_step(const F& f, const Vec& y, double h) {
  const Vec k1 = f(y);
  const Vec k2 = f(axpy(y, h / 2, k1));
  const Vec k3 = f(axpy(y, h / 2, k2));
  const Vec k4 = f(axpy(y, h, k3));
  Vec r(y);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  return r;
}

inline double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

/// 1-D ball: M = m, forces = −m g (or a given force), gap f_c = q, x0 = (q0, v0).
inline model::Cls ball(double m, double force, double restitution = 0.0, double q0 = 1.0, double v0 = 0.0) {
  model::Cls c;
  c.name = "ball";
  auto q = c.add_positions({"q"});
  c.add_velocities({"v"});
  if (m != 1.0) c.mass = sym::Matrix{{m}};
  c.forces = {force};
  c.add_contact({.gap = q[0], .restitution = restitution, .friction = 0.0, .tangent = {}, .name = "ground"});
  c.x0 = {q0, v0};
  return c;
}

/// Planar particle q = (q1, q2), M = I, forces (0, −g), ground f_c = q2, tangent (1, 0).
inline model::Cls particle(double mu, double g = 9.81) {
  model::Cls c;
  c.name = "particle";
  auto q = c.add_positions({"q1", "q2"});
  c.add_velocities({"v1", "v2"});
  c.forces = {0.0, -g};
  c.add_contact(
      {.gap = q[1], .restitution = 0.0, .friction = mu, .tangent = sym::Matrix{{1.0}, {0.0}}, .name = ""});
  c.x0 = {0.0, 1.0, 0.0, 0.0};
  return c;
}

}  // namespace tftest
