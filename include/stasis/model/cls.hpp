#pragma once
// model::Cls — a complementarity Lagrangian system (time_freezing.md §1.3–§1.7):
//
//   q̇ = v,   M(q) v̇ = forces(q, v, u) + Σ_i ( n_i(q) λ_n,i + J_t,i(q) λ_t,i ),
//   0 <= λ_n,i ⟂ f_c,i(q) >= 0,   n_i = ∇_q f_c,i (not normalised),
//   impacts: n_iᵀ v⁺ = −e_i n_iᵀ v⁻ (Newton), Coulomb friction ‖λ_t,i‖ <= μ_i λ_n,i (maximum dissipation).
//
// nosnoc convention: `forces` are generalized FORCES (M⁻¹ is applied by the reformulation), not
// accelerations as in the Automatica paper. Restitution e > 0 (elastic) is supported for a single
// frictionless contact only, as in nosnoc (§1.5); the reformulation is reformulate::time_freezing.
#include <cstddef>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"
#include "stasis/sym/matrix.hpp"

namespace stasis::model {

struct Contact {
  sym::Expr gap;             ///< f_c(q) >= 0; normal n = ∇_q f_c (sym::gradient)
  double restitution = 0.0;  ///< e ∈ [0, 1]; e > 0 only for a single frictionless contact
  double friction = 0.0;     ///< μ >= 0
  /// J_t: n_q × 1 (planar) or n_q × 2 (spatial) tangent directions; entries may depend on q.
  /// Required iff friction > 0 (ignored, but size-checked, otherwise).
  sym::Matrix tangent;
  std::string name;  ///< for messages ("contact i" if empty)
};

class Cls {
 public:
  /// Add positions / velocities / controls (fresh symbols with these names) and return them.
  sym::Vector add_positions(const std::vector<std::string>& names);
  sym::Vector add_velocities(const std::vector<std::string>& names);
  sym::Vector add_controls(const std::vector<std::string>& names);
  void add_contact(Contact c);
  /// The same without designated initializers (GCC 12's -Wmissing-field-initializers warns on
  /// partial designated initializers even with default member initializers).
  void add_contact(const sym::Expr& gap, double restitution = 0.0, double friction = 0.0,
                   const sym::Matrix& tangent = {}, const std::string& name = "");

  std::vector<std::string> position_names, velocity_names, control_names;
  sym::Vector q, v, u;
  sym::Matrix mass;    ///< M(q), n_q × n_q symmetric positive definite; empty (0x0) = identity
  sym::Vector forces;  ///< f_v(q, v, u), size n_q (generalized forces)
  std::vector<Contact> contacts;
  std::vector<double> x0;  ///< (q0, v0)
  std::string name = "cls";

  std::size_t n_q() const { return q.size(); }
  std::size_t n_x() const { return q.size() + v.size(); }
  std::size_t n_u() const { return u.size(); }
  std::size_t n_contacts() const { return contacts.size(); }
  /// Any contact with friction > 0.
  bool has_friction() const;
  /// Any contact with restitution > 0 (the elastic reformulation, spec §2.6).
  bool is_elastic() const;
  /// M(q), the identity when `mass` is empty.
  sym::Matrix mass_matrix() const;
  /// n_i = ∇_q f_c,i.
  sym::Vector normal(std::size_t contact) const;
  /// The contact's Delassus matrix W = Jᵀ M⁻¹ J with J = [n_i, J_t,i] (n_q × (1 + d), d the
  /// tangent directions if friction > 0, else 0): W(0, 0) = n_iᵀM⁻¹n_i (D_i of spec §2.7, the
  /// inverse effective mass along the normal), W(k, 0) = J_t,kᵀM⁻¹n_i the coupling of the k-th
  /// tangent direction to the normal. Where μ_i |W(1, 0)| > W(0, 0) (planar; μ_i ‖W(1.., 0)‖ >
  /// W(0, 0) spatial) sliding drives the contact into the surface: a Painlevé configuration.
  sym::Matrix delassus(std::size_t contact) const;
  /// "contact 'name'" or "contact i", for messages.
  std::string contact_label(std::size_t contact) const;

  /// Throws stasis::Error naming the item for: sizes (names, v vs q, forces, mass, tangent
  /// n_q × 1 or 2, x0), states/controls that are not distinct symbols, expressions depending on
  /// unknown symbols (mass, gaps and tangents may depend on q only; forces on q, v, u), a gap that
  /// does not depend on q, no contacts, restitution outside [0, 1], negative friction, friction
  /// without tangent, elastic contact (e > 0) together with several contacts or with friction
  /// (not supported, spec §1.5), non-finite values at x0 (controls 0) of M, forces, gaps, normals
  /// and tangents, a mass matrix that is not symmetric or not positive definite at q0 (numerical
  /// Cholesky), and x0 inside the forbidden region (any f_c(q0) < 0).
  void validate() const;
};

}  // namespace stasis::model
