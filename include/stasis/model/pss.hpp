#pragma once
// model::Pss — a piecewise smooth (Filippov) system  ẋ = f0(x,u) + Σ_s F^s(x,u) θ^s  (fesd.md §1).
//
// Each independent subsystem s partitions the state space into regions R_i by switching
// functions c^s(x,u) and a sign matrix S^s (row i: the sign of each c_j in R_i; 0 = either), or
// directly by Stewart indicator functions g^s (R_i is where g_i is smallest). Fields of the
// subsystems add up.
#include <optional>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"
#include "stasis/sym/matrix.hpp"

namespace stasis::model {

/// A lifted Heaviside step form (time_freezing.md §2.5.3): the weight θ_i of each field given
/// directly as an expression of the step functions α (one symbol per switching function) and of
/// lifting variables β, defined one after the other by β_k = definitions_k(α, β_0..β_{k−1}).
/// The step DCS then gets θ and β as algebraic variables with the equations θ − weights = 0 and
/// β − definitions = 0 (each at most bilinear), instead of θ as sign products of α. The fields
/// need not be a partition: weights of overlapping fields may be positive together (their fields add).
struct StepLifting {
  sym::Vector alpha;        ///< symbols standing for α_j, one per switching function
  sym::Vector lift;         ///< symbols β_k
  sym::Vector definitions;  ///< β_k = definitions[k], in α and earlier β
  sym::Vector weights;      ///< θ_i, one per field, in α and β
  std::vector<std::string> lift_names;  ///< names of the β (results, messages)
  /// true: θ and β are algebraic variables of the step DCS with their bilinear equations (nosnoc).
  /// false: the step DCS substitutes the definitions into the weights, so θ_i(α) are expressions
  /// of α as in the plain step form, with these fields (no algebraic θ, β and no lifting
  /// equations). See reformulate::TimeFreezingOptions::lifted_variables (issue #4).
  bool variables = true;
  /// Optional, one per switching function (empty = none): r_j(α) >= 0, zero where the fields do
  /// not depend on α_j, so that a sign change of c_j there is a spurious switch (the field is the
  /// same on both sides). Time-freezing: the foot's normal velocity at the top of a flight (θ_ode =
  /// 1 for either sign while the gap is positive). FESD with discretization.spurious_switches:
  /// ignore weights the cross complementarity of c_j by r_j (discretize/fesd.hpp).
  sym::Vector relevance;
};

/// A vector-valued quantity that must not reverse within a finite element while the element
/// starts on the positive side of one switching function (step DCS only; fesd.md, FESD). Used by
/// spatial friction (time_freezing.md §2.3): the positive side of c_t = ‖v_t‖ − ε_t is slip, and
/// the stick region ‖v_t‖ < ε_t is a small disc in the plane of v_t that a collocation polynomial
/// can cross between two stage points, all of which then lie outside it (c_t > 0, no sign change
/// that cross complementarity could see). FESD then adds, for every stage point m of every element,
/// λp_prev · direction(x_prev)ᵀ direction(X_m) >= 0, with λp_prev = max(c(x_prev), 0) the element
/// start's λp of that switching function: an element that starts in slip keeps v_t within 90° of
/// its starting direction, so passing through the disc is a switch at an element boundary.
struct DirectionGuard {
  std::size_t switching = 0;  ///< index into the subsystem's switching functions
  sym::Vector direction;      ///< d(x, u), e.g. the tangential velocity
};

struct Subsystem {
  sym::Vector switching;                ///< c^s(x, u)
  std::vector<std::vector<int>> signs;  ///< S^s: one row per region, entries -1, 0, +1
  std::vector<sym::Vector> fields;      ///< f^s_i(x, u), one per region
  sym::Vector indicators;               ///< alternatively g^s(x, u) directly (Stewart form only)
  /// Alternatively the lifted step form (Heaviside DCS only; then `signs` is empty and the
  /// fields are not regions but the terms of F_all θ).
  std::optional<StepLifting> lifting;
  /// Direction guards (Heaviside DCS only; the Stewart form ignores them).
  std::vector<DirectionGuard> direction_guards;
  std::string name;                     ///< for messages
  std::size_t n_regions() const { return fields.size(); }
};

/// Mechanical rows in implicit form: rows first_row .. first_row + n − 1 of f0 and of every field
/// are M(x)⁻¹ times a generalized force. The fields keep those explicit rows (they serve
/// predictors, recovery and checks); reformulate::to_dcs then makes the accelerations a algebraic
/// variables with the equations M(x) a − (f0_force + Σ θ_i force_i) = 0 and ẋ = a in those rows,
/// so no M⁻¹ appears in the NLP (reformulate::TimeFreezingOptions::implicit_mass).
struct ImplicitMass {
  std::size_t first_row = 0;
  sym::Matrix mass;                              ///< M(x, u), n × n, symmetric positive definite
  sym::Vector f0_force;                          ///< force of f0 (empty: f0 is 0 in these rows)
  std::vector<std::vector<sym::Vector>> forces;  ///< per subsystem, per field: its n force rows
};

class Pss {
 public:
  /// Adds states / controls (fresh symbols with these names) and returns them.
  sym::Vector add_states(const std::vector<std::string>& names);
  sym::Vector add_controls(const std::vector<std::string>& names);

  std::vector<std::string> state_names, control_names;
  sym::Vector x, u;
  sym::Vector f0;                     ///< optional common field (empty = 0)
  std::vector<Subsystem> subsystems;
  std::vector<double> x0;
  int clock = -1;                     ///< index of a time-freezing clock state, or -1
  /// Index of a state that is physical time itself (ṫ = 1, t(0) = 0), added by the file reader
  /// when expressions use `t`; results report it as time, not as a state. -1 if none.
  int time_state = -1;
  std::string name = "pss";
  std::optional<ImplicitMass> implicit_mass;  ///< optional implicit form of the velocity rows

  std::size_t n_x() const { return x.size(); }
  std::size_t n_u() const { return u.size(); }
  std::size_t n_theta() const;        ///< Σ_s regions
  std::size_t n_switching() const;    ///< Σ_s switching functions

  /// Stewart indicator functions g^s = -S^s c^s (or the given indicators), fesd.md §1.2.
  sym::Vector indicators(std::size_t subsystem) const;

  /// Checks dimensions, sign matrices (values, row length, distinct rows), that every expression
  /// depends only on states and controls, and that the model is finite at x0. Throws stasis::Error
  /// naming the offending subsystem/region/row.
  void validate() const;
};

}  // namespace stasis::model
