// Complementarity Lagrangian systems: construction helpers and validation (time_freezing.md §1.7, §8).
#include "stasis/model/cls.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "checks.hpp"
#include "stasis/error.hpp"
#include "stasis/sym/derivatives.hpp"

namespace stasis::model {

namespace {

using detail::add_symbols;
using detail::num;

std::string dims(const sym::Matrix& m) { return std::to_string(m.rows()) + "x" + std::to_string(m.cols()); }

}  // namespace

sym::Vector Cls::add_positions(const std::vector<std::string>& names) {
  return add_symbols(names, position_names, q);
}
sym::Vector Cls::add_velocities(const std::vector<std::string>& names) {
  return add_symbols(names, velocity_names, v);
}
sym::Vector Cls::add_controls(const std::vector<std::string>& names) {
  return add_symbols(names, control_names, u);
}

void Cls::add_contact(Contact c) { contacts.push_back(std::move(c)); }

void Cls::add_contact(const sym::Expr& gap, double restitution, double friction, const sym::Matrix& tangent,
                      const std::string& contact_name) {
  contacts.push_back(Contact{gap, restitution, friction, tangent, contact_name});
}

bool Cls::has_friction() const {
  for (const auto& c : contacts)
    if (c.friction > 0.0) return true;
  return false;
}

bool Cls::is_elastic() const {
  for (const auto& c : contacts)
    if (c.restitution != 0.0) return true;
  return false;
}

sym::Matrix Cls::mass_matrix() const {
  if (mass.rows() == 0 && mass.cols() == 0) return sym::Matrix::identity(n_q());
  return mass;
}

sym::Vector Cls::normal(std::size_t i) const { return sym::gradient(contacts.at(i).gap, q); }

sym::Matrix Cls::delassus(std::size_t i) const {
  const Contact& c = contacts.at(i);
  const std::size_t nq = n_q(), d = c.friction > 0.0 ? c.tangent.cols() : 0;
  sym::Matrix J(nq, 1 + d);
  const sym::Vector n = normal(i);
  for (std::size_t r = 0; r < nq; ++r) {
    J(r, 0) = n[r];
    for (std::size_t k = 0; k < d; ++k) J(r, 1 + k) = c.tangent(r, k);
  }
  const bool identity = mass.rows() == 0 && mass.cols() == 0;
  const sym::Matrix X = identity ? J : sym::solve_spd(mass, J);  // M⁻¹J
  sym::Matrix W(1 + d, 1 + d);
  for (std::size_t a = 0; a <= d; ++a)
    for (std::size_t b = 0; b <= d; ++b) W(a, b) = sym::dot(J.col(a), X.col(b));
  return W;
}

std::string Cls::contact_label(std::size_t i) const {
  const Contact& c = contacts.at(i);
  return c.name.empty() ? "contact " + std::to_string(i) : "contact '" + c.name + "'";
}

void Cls::validate() const {
  const std::string who = "Cls '" + name + "'";
  const std::size_t nq = n_q();

  // --- states, controls, names
  if (q.empty()) throw Error(who + ": the model has no positions (add_positions)");
  if (v.size() != nq)
    throw Error(who + ": " + std::to_string(v.size()) + " velocities for " + std::to_string(nq) +
                " positions (a CLS has one velocity per position)");
  if (position_names.size() != q.size()) throw Error(who + ": position names and positions differ in number");
  if (velocity_names.size() != v.size())
    throw Error(who + ": velocity names and velocities differ in number");
  if (control_names.size() != u.size()) throw Error(who + ": control names and controls differ in number");
  detail::SymbolSet pos, pos_vel, all;
  for (std::size_t i = 0; i < q.size(); ++i) {
    detail::add_symbol(who, q[i], "position", position_names[i], all);
    pos.insert(q[i].node());
  }
  for (std::size_t i = 0; i < v.size(); ++i) detail::add_symbol(who, v[i], "velocity", velocity_names[i], all);
  for (std::size_t i = 0; i < u.size(); ++i) detail::add_symbol(who, u[i], "control", control_names[i], all);
  for (const auto& s : q) pos_vel.insert(s.node());
  for (const auto& s : v) pos_vel.insert(s.node());
  auto check_deps = [&](const sym::Vector& e, const detail::SymbolSet& allowed, const std::string& what,
                        const std::string& allowed_text) {
    detail::check_depends(who, e, allowed, what, "not " + allowed_text);
  };

  // --- mass matrix and forces
  const bool identity_mass = mass.rows() == 0 && mass.cols() == 0;
  if (!identity_mass) {
    if (mass.rows() != nq || mass.cols() != nq)
      throw Error(who + ": the mass matrix is " + dims(mass) + ", expected " + std::to_string(nq) + "x" +
                  std::to_string(nq) + " (or empty for the identity)");
    check_deps(mass.entries(), pos, "the mass matrix", "a position (M may depend on q only)");
  }
  if (forces.size() != nq)
    throw Error(who + ": forces has " + std::to_string(forces.size()) +
                " entries, expected n_q = " + std::to_string(nq) + " (generalized forces, one per position)");
  check_deps(forces, all, "forces", "a position, velocity or control");

  // --- contacts (structure)
  if (contacts.empty())
    throw Error(who +
                ": the model has no contacts (add_contact); without a gap function there is nothing to "
                "time-freeze");
  std::size_t n_elastic = 0;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const std::string cw = who + ", " + contact_label(i);
    check_deps({c.gap}, pos, "the gap function", "a position (f_c may depend on q only)");
    bool depends = false;
    for (const auto& s : q) depends = depends || sym::depends_on(c.gap, s);
    if (!depends)
      throw Error(cw + ": the gap function does not depend on the positions, so its normal ∇f_c is zero");
    if (!std::isfinite(c.restitution) || c.restitution < 0.0 || c.restitution > 1.0)
      throw Error(cw + ": restitution " + num(c.restitution) + " is outside [0, 1]");
    if (!std::isfinite(c.friction) || c.friction < 0.0)
      throw Error(cw + ": friction coefficient " + num(c.friction) + " must be finite and >= 0");
    const bool has_tangent = c.tangent.rows() != 0 || c.tangent.cols() != 0;
    if (c.friction > 0.0 && !has_tangent)
      throw Error(
          cw + ": friction " + num(c.friction) +
          " needs the tangent directions J_t (an n_q x 1 matrix for planar or n_q x 2 for spatial contact)");
    if (has_tangent) {
      if (c.tangent.rows() != nq || (c.tangent.cols() != 1 && c.tangent.cols() != 2))
        throw Error(cw + ": the tangent is " + dims(c.tangent) + ", expected " + std::to_string(nq) +
                    "x1 (planar) or " + std::to_string(nq) + "x2 (spatial)");
      check_deps(c.tangent.entries(), pos, "the tangent", "a position (J_t may depend on q only)");
    }
    if (c.restitution > 0.0) ++n_elastic;
  }
  if (n_elastic > 0) {
    if (contacts.size() > 1)
      throw Error(
          who + ": elastic contact (restitution > 0) is supported for a single contact only, the model has " +
          std::to_string(contacts.size()) +
          " contacts: the spring-damper impact law acts along one normal, and simultaneous elastic impacts "
          "have no such construction (time_freezing.md §1.5, as nosnoc's too_many_contacts error); use "
          "restitution 0 for every contact or a JumpSystem with orthogonal constraints");
    if (contacts[0].friction > 0.0)
      throw Error(
          who + ", " + contact_label(0) +
          ": elastic contact (restitution > 0) with friction is not supported: the spring-damper impact law "
          "acts on the normal velocity only (time_freezing.md §1.5; nosnoc silently ignores μ there); set "
          "friction 0 or restitution 0");
  }

  // --- x0 and numerical checks at x0 (controls 0)
  if (x0.size() != 2 * nq)
    throw Error(who + ": x0 has " + std::to_string(x0.size()) +
                " entries, expected 2 n_q = " + std::to_string(2 * nq) + " (positions then velocities)");
  for (std::size_t i = 0; i < x0.size(); ++i)
    if (!std::isfinite(x0[i]))
      throw Error(who + ": x0 of '" + (i < nq ? position_names[i] : velocity_names[i - nq]) +
                  "' is not finite");
  sym::Vector qv = q;
  qv.insert(qv.end(), v.begin(), v.end());
  const detail::AtInitialState at_x0(who, qv, u, x0);
  for (std::size_t i = 0; i < nq; ++i) at_x0(forces[i], "forces[" + std::to_string(i) + "]");
  if (!identity_mass) {
    Eigen::MatrixXd m(nq, nq);
    double scale = 0.0;
    for (std::size_t i = 0; i < nq; ++i)
      for (std::size_t j = 0; j < nq; ++j) {
        m(i, j) =
            at_x0(mass(i, j), "the mass matrix entry (" + std::to_string(i) + ", " + std::to_string(j) + ")");
        scale = std::max(scale, std::abs(m(i, j)));
      }
    for (std::size_t i = 0; i < nq; ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (std::abs(m(i, j) - m(j, i)) > 1e-10 * std::max(1.0, scale))
          throw Error(who + ": the mass matrix is not symmetric at q0: M(" + std::to_string(i) + ", " +
                      std::to_string(j) + ") = " + num(m(i, j)) + " but M(" + std::to_string(j) + ", " +
                      std::to_string(i) + ") = " + num(m(j, i)));
    const Eigen::LLT<Eigen::MatrixXd> llt(m);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(m, Eigen::EigenvaluesOnly);
    const double min_eig = es.eigenvalues()(0);
    if (llt.info() != Eigen::Success || !(min_eig > 0.0))
      throw Error(who +
                  ": the mass matrix is not positive definite at q0 (Cholesky fails; smallest eigenvalue " +
                  num(min_eig) + ")");
  }
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const std::string cl = contact_label(i);
    const double g = at_x0(c.gap, "the gap of " + cl);
    if (g < 0.0)
      throw Error(who + ": x0 lies inside the forbidden region: the gap of " + cl + " is " + num(g) +
                  " < 0 at q0 (start with every f_c(q0) >= 0)");
    const sym::Vector n = normal(i);
    for (std::size_t k = 0; k < n.size(); ++k) at_x0(n[k], "the normal (gradient of the gap) of " + cl);
    for (const auto& e : c.tangent.entries()) at_x0(e, "the tangent of " + cl);
  }
}

}  // namespace stasis::model
