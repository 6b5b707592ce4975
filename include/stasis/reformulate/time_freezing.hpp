#pragma once
// reformulate::time_freezing — a CLS or an ODE with state jumps as a time-frozen PSS
// (time_freezing.md §1–§2). The result has the states y = (x, t) with the clock t LAST
// (pss.clock = its index): t' = 1 in the ODE region, t' = 0 in every auxiliary region, so the
// clock is physical time and every frozen interval is a jump.
//
// Cls, inelastic (all e = 0), lifted (options.lifting, the default) — nosnoc's multicontact path (§2.5.3):
//   the switching functions below; fields F_all = [f_ode, then per contact its auxiliary field (μ_i = 0)
//   or its pos and neg fields]; step functions α; lifting variables
//     β_ode,i = αq_i αv_i,  β_aux,i = (1 − αq_i)(1 − αv_i) (if any contact has friction),
//     β_prod,1 = Π_{i<=2} (αq_i + αv_i − β_ode,i), β_prod,j = β_prod,j−1 (αq_j+1 + αv_j+1 − β_ode,j+1) (n_c >= 3);
//   weights θ_ode = Π_i (αq_i + αv_i − β_ode,i) (through β_prod when n_c >= 3), θ_aux,i = (1 − αq_i)(1 − αv_i)
//   or β_aux,i, θ_pos,i = β_aux,i αt_i, θ_neg,i = β_aux,i (1 − αt_i). Regions = fields (overlapping
//   auxiliary fields add up). The model has no sign rows: dcs: step only.
// Cls, inelastic, dense (options.lifting = false) — nosnoc's dense PSS path (§2.5.2) with its two defects fixed:
//   * switching functions (§2.2, this order):
//       c = [ f_c,i (i = 1..n_c) ; v_n,i = n_iᵀv (i = 1..n_c) ; c_t,i (contacts with μ_i > 0, in order) ]
//     planar friction (tangent n_q × 1):  c_t,i = b_iᵀv
//     spatial friction (tangent n_q × 2): c_t,i = sqrt(‖B_iᵀv‖² + δ²) − sqrt(ε_t² + δ²), δ = ε_t/100,
//       which vanishes exactly on ‖B_iᵀv‖ = ε_t and has the sign of ‖B_iᵀv‖ − ε_t, but is smooth at
//       B_iᵀv = 0 (where ‖·‖ has no derivative); nosnoc's c_t = ‖v_t‖ − ε_t has the same regions.
//       Each spatial contact also gets a model::DirectionGuard (B_iᵀv on c_t,i): FESD keeps v_t of an
//       element that starts in slip within 90° of its start, so the stop (the slip → stick switch)
//       cannot happen between two stage points inside an element.
//   * regions: all 2^{n_sw} sign rows in descending binary order (first row all +1, leftmost bit = c_1).
//     Contact i is "auxiliary" in a row iff f_c,i < 0 and v_n,i < 0; the row's field is f_ode if no
//     contact is auxiliary, else ONE column = the SUM of the active contacts' auxiliary fields
//     (nosnoc appends one column per active field, §2.8 quirk 1, which we do not copy). Then
//     Σ_j F_j θ_j(α) of the Heaviside DCS equals nosnoc's lifted F_all [θ_ode; θ_aux] (§2.5.3) exactly.
//     The enumeration is limited to 12 switching functions (4096 regions; the same for JumpSystem).
//   * fields: f_ode = (v, M⁻¹ forces, 1);  contact i auxiliary field = (f_qstab,i, a_n M⁻¹ a_i, 0) with
//       a_i = n_i (μ_i = 0), n_i ∓ μ_i b_i (planar, − for c_t > 0 "pos", + for c_t < 0 "neg"),
//       n_i ∓ μ_i B_i v̂_i with v̂_i = B_iᵀv / sqrt(‖B_iᵀv‖² + δ²) (spatial; nosnoc's v_t/‖v_t + ε_t·1‖
//       divides by zero at v_t = −ε_t·1, §2.3; δ = ε_t/100 rather than ε_t keeps the slip friction
//       at μ_i λ_n up to the stick circle, instead of μ_i λ_n/√2 on it);
//       f_qstab,i = −κ n_i f_c,i (κ = stabilize_positions, 0 = off). M⁻¹ is applied by sym::solve_spd.
//     Contacts with μ_i = 0 among frictional ones get no tangential switching function: nosnoc's
//     fix (§2.8 quirk 3) would give them pos/neg fields with μ_i = 0, i.e. two identical fields, so
//     the Filippov system is the same with fewer regions.
// Cls, elastic (a single frictionless contact with e > 0, §2.6): c = [f_c], S = [+1; −1],
//   F = [f_ode, f_aux] with p = f_c, w = nᵀv, D = nᵀM⁻¹n, k = stiffness, c = c(k, e):
//     Exact (default):  q' = M⁻¹n w / D,  v' = M⁻¹n (−k p − c w) / D,  t' = 0   (p' = w, w' = −kp − cw
//                       for an affine gap and constant M, so n_iᵀv⁺ = −e n_iᵀv⁻ and q returns to q_s)
//     NosnocLiteral:    q' = n (nᵀM⁻¹v),  v' = M⁻¹n (−k nᵀq − c nᵀM⁻¹v),  t' = 0   (exact only when
//                       f_c = nᵀq without offset and D = 1; e.g. M = 3, e = 0.5 realises ≈ 0.80)
// JumpSystem (seed 002): c = ψ, regions = all 2^{n_ψ} sign rows (descending), field (f, 1) where all ψ_i
//   are positive, else the SUM over violated constraints of their auxiliary fields (φ_i, 0) — exact
//   for orthogonal constraints ([L] Sec. III-B). Built-in φ_i on mechanical states (q, v) with
//   n = ∇_q ψ_i, p = ψ_i, w = nᵀv:  q' = n w / (nᵀn),  v' = n (−k p − c w) / (nᵀn),  c = c(k, γ).
//   With one user auxiliary field it is used (not summed) wherever any constraint is violated.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "stasis/model/cls.hpp"
#include "stasis/model/jump_system.hpp"
#include "stasis/model/pss.hpp"
#include "stasis/sym/expr.hpp"

namespace stasis::reformulate {

struct TimeFreezingOptions {
  double normal_acceleration = 100.0;  ///< a_n > 0 of the inelastic auxiliary fields (nosnoc a_n)
  double stiffness = 10.0;             ///< k > 0 of the elastic CLS auxiliary spring (nosnoc k_aux)
  /// κ >= 0 of the q-stabilisation −κ n_i f_c,i in every auxiliary field of contact i (0 = off; nosnoc's
  /// kappa_stabilizing_q_dynamics is 1e-5 when switched on). Inelastic contacts only.
  double stabilize_positions = 0.0;
  /// δ >= 0: the q-stabilisation pulls f_c,i toward −δ instead of 0, i.e. −κ n_i (f_c,i + δ) (needs
  /// stabilize_positions > 0). In a contact phase with motion the collocation keeps f_c = 0 only to
  /// the order of the method, and where f_c changes sign inside an element FESD's cross
  /// complementarity cannot be met (a residual floor of order h³, examples/time_freezing/
  /// hopper_stance.yaml); with δ above that drift the contact phase stays strictly inside the
  /// contact region. The price: contact phases settle up to δ below the surface.
  double stabilize_depth = 0.0;
  double eps_t = 1e-7;  ///< ε_t > 0: radius of the spatial-friction stick ball
  /// Elastic CLS auxiliary field (spec §2.6): exact restitution for any affine gap and M (default),
  /// or nosnoc's literal N K Nᵀ [q; v] (for parity with nosnoc).
  enum class ElasticMode { Exact, NosnocLiteral } elastic_mode = ElasticMode::Exact;
  /// Inelastic Cls: the lifted Heaviside form of nosnoc's default (time_freezing.md §2.5.3; θ and β
  /// are algebraic variables, the model is usable with dcs: step only), or the dense sign-row PSS
  /// (false; needed for dcs: stewart). The two give the same Filippov system. The file reader
  /// uses false for kind: simulate files unless they set time_freezing.lifting (issue #4).
  bool lifting = true;
  /// Lifted form only: θ and β as algebraic variables with their bilinear defining equations, as
  /// in nosnoc (true, the default), or substituted, θ_i(α) as expressions of α in the step DCS
  /// (false). Same fields, same θ(α), same Filippov system; substituted, the relaxed NLPs are
  /// those of the dense form (lifting = false) exactly (same sizes; IPOPT iterates equal up to
  /// rounding). With the variables, steps that start at rest on a contact (gap and normal velocity
  /// ~1e-9) stall at IPOPT's iteration limit with residual ~5e-9 (issue #4).
  bool lifted_variables = true;
  /// Inelastic Cls: the velocity rows in implicit form (model::Pss::implicit_mass): the DCS gets
  /// the accelerations a as algebraic variables with M(q) a = Σ θ_i (generalized force of field i)
  /// at every stage point, instead of the symbolic M(q)⁻¹ (sym::solve_spd) in every field. Same
  /// Filippov system and the same solutions; the NLP has n_q more variables and equations per
  /// stage point, but no rational functions of q from the inverse.
  bool implicit_mass = false;
  /// Throws stasis::Error naming the option if a value is out of range or not finite.
  void validate() const;
};

const char* to_string(TimeFreezingOptions::ElasticMode mode);

/// Damping from restitution (spec §1.2): c = 2|ln e| sqrt(k / (π² + ln² e)), so that the damped
/// spring p'' = −k p − c p' started at p = 0 returns to p = 0 with velocity ratio −e.
/// k > 0 and e ∈ (0, 1] (e = 0 would be critical damping, which never returns); throws stasis::Error
/// otherwise.
double damping_from_restitution(double k, double e);
/// Length of that return (the frozen phase): τ_jump = π/ω = sqrt((π² + ln² e)/k).
double elastic_jump_duration(double k, double e);
/// Length of an inelastic jump (spec §2.7): τ_jump = −n_n / (D a_n) for a normal velocity n_n < 0 (0 if n_n
/// >= 0).
double inelastic_jump_duration(double normal_velocity, double D, double normal_acceleration);

struct TimeFrozenModel {
  /// One subsystem; states (q, v, t) [Cls] or (x, t) [JumpSystem] with the model's own symbols plus
  /// a new clock symbol "t" last, controls the model's; x0 extended by t0 = 0.
  model::Pss pss;
  int clock = -1;                  ///< index of the clock state (= pss.clock = pss.n_x() − 1)
  std::size_t n_q = 0;             ///< positions (Cls; JumpSystem with built-in auxiliary dynamics), else 0
  double normal_acceleration = 0;  ///< a_n (inelastic Cls), else 0
  /// TimeFreezingOptions::stabilize_depth: contact phases may settle this far below the surface,
  /// so the checks of the gaps at physical points allow it.
  double contact_depth = 0;
  /// Per region j of the subsystem: the contacts (constraints) whose auxiliary fields make up its
  /// field, ascending (empty = the ODE region).
  std::vector<std::vector<int>> region_contacts;
  /// Per region j, per entry of region_contacts[j]: +1 the "pos" friction field (c_t > 0), −1 the
  /// "neg" field (c_t < 0), 0 normal only (no friction / elastic / JumpSystem).
  std::vector<std::vector<int>> region_friction_sign;
  bool elastic = false;  ///< spring–damper auxiliary dynamics (elastic Cls, JumpSystem)
  sym::Vector gaps;      ///< f_c,i(q) (Cls) or ψ_i(x) (JumpSystem), in terms of pss.x
  /// n_iᵀv (Cls); ∇ψ_iᵀ f(x, u), the rate of ψ_i along the free flow (JumpSystem; = n_iᵀv when mechanical).
  sym::Vector normal_velocities;
  /// D_i = n_iᵀ M⁻¹ n_i (Cls); n_iᵀ n_i (JumpSystem with built-in auxiliary dynamics); else empty.
  sym::Vector D;
  /// Per contact (JumpSystem: friction 0; restitution NaN with user auxiliary fields).
  std::vector<double> friction, restitution;
  std::vector<std::string> contact_names;  ///< per contact / constraint, for messages and results
  /// Suggested weights of a Heaviside α regularization, one per switching function
  /// (discretize::OcpSpec::alpha_penalty): 1e-2 on each gap's α of an inelastic Cls, else empty.
  /// While a gap is exactly zero (the frozen jump and the contact phase after it) its α is free;
  /// the weight makes the contact phase use the normal-velocity α, so that cross complementarity
  /// puts an element boundary at the end of the jump.
  std::vector<double> alpha_regularization;
  /// The weights of discretize::OcpSpec::alpha_penalty and sim::Options::alpha_penalty with
  /// `weight` on every switching function that alpha_regularization marks (nonzero) and 0 on the
  /// others; empty when weight <= 0 or nothing is marked (no regularization).
  std::vector<double> alpha_penalty(double weight) const;
  /// Inelastic Cls: per contact its auxiliary fields (in pss.x, clock component 0): [0] the
  /// normal-only field (μ_i = 0) or the "pos" field (c_t,i > 0), [1] the "neg" field (= [0] without
  /// friction); and its tangential switching function c_t,i (0 without friction). Empty otherwise.
  /// sim::recover_physical integrates them to complete a jump that ends inside a finite element.
  std::vector<std::array<sym::Vector, 2>> auxiliary_fields;
  sym::Vector tangential;
  /// Inelastic Cls: per contact the tangent directions of its friction (0 frictionless, 1 planar:
  /// c_t,i is the tangential velocity, 2 spatial: c_t,i = ‖v_t‖ − ε_t, sliding where positive).
  std::vector<int> friction_dimensions;
  double stiffness = 0, damping = 0;          ///< spring–damper k and c (elastic only)
  std::size_t n_switching() const { return pss.subsystems.empty() ? 0 : pss.subsystems[0].switching.size(); }
  std::size_t n_regions() const { return region_contacts.size(); }
};

/// Validates the model and the options (stasis::Error on bad input) and reformulates.
TimeFrozenModel time_freezing(const model::Cls& cls, const TimeFreezingOptions& options = {});
/// The JumpSystem's own stiffness and restitution are used; options.stiffness does not apply.
TimeFrozenModel time_freezing(const model::JumpSystem& system, const TimeFreezingOptions& options = {});

}  // namespace stasis::reformulate
