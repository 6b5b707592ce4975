// Time-freezing reformulation of a CLS or an ODE with state jumps into a PSS with a clock state
// (time_freezing.md §1–§2; the header documents the exact construction and the deviations from nosnoc).
#include "stasis/reformulate/time_freezing.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include "stasis/error.hpp"
#include "stasis/sym/derivatives.hpp"
#include "stasis/sym/matrix.hpp"

namespace stasis::reformulate {

namespace {

constexpr std::size_t kMaxSwitching = 12;  // 2^12 = 4096 regions in the dense enumeration
/// Spatial friction: the regularization δ of the slip direction v_t / sqrt(‖v_t‖² + δ²), as a
/// fraction of the stick radius ε_t (on ‖v_t‖ = ε_t the slip friction is then 1 − 5e-5 of μλ_n).
constexpr double kSlipDirectionRegularization = 1e-2;
const char* const kClockName = "t";

std::string num(double x) {
  std::ostringstream os;
  os.precision(10);
  os << x;
  return os.str();
}

void check_finite_positive(double value, const std::string& what) {
  if (!std::isfinite(value) || value <= 0.0)
    throw Error(what + " = " + num(value) + " must be finite and > 0");
}

/// Sign rows of every 0/1 pattern of n switching functions, descending (first all +1, last all −1;
/// the leftmost entry is the most significant bit), as nosnoc's flipud(dec2bin(0:2^n−1)).
std::vector<std::vector<int>> all_sign_rows(std::size_t n) {
  const std::size_t count = std::size_t{1} << n;
  std::vector<std::vector<int>> rows(count, std::vector<int>(n));
  for (std::size_t r = 0; r < count; ++r) {
    const std::size_t bits = count - 1 - r;
    for (std::size_t j = 0; j < n; ++j) rows[r][j] = ((bits >> (n - 1 - j)) & 1U) ? 1 : -1;
  }
  return rows;
}

void check_region_count(std::size_t n_sw, const std::string& who, const std::string& detail) {
  if (n_sw > kMaxSwitching)
    throw Error(who + ": the time-freezing PSS would have " + std::to_string(n_sw) +
                " switching functions (" + detail + "), i.e. 2^" + std::to_string(n_sw) +
                " regions in the dense enumeration; at most " + std::to_string(kMaxSwitching) +
                " are supported");
}

void check_clock_name(const std::vector<std::string>& names, const std::string& who) {
  for (const auto& n : names)
    if (n == kClockName)
      throw Error(who + ": the state name '" + std::string(kClockName) +
                  "' is reserved for the clock state of the time-freezing reformulation; rename that state");
}

sym::Vector zeros(std::size_t n) { return sym::Vector(n, sym::Expr(0.0)); }

sym::Vector concat(const sym::Vector& a, const sym::Vector& b, const sym::Expr& last) {
  sym::Vector r = a;
  r.insert(r.end(), b.begin(), b.end());
  r.push_back(last);
  return r;
}

}  // namespace

const char* to_string(TimeFreezingOptions::ElasticMode mode) {
  return mode == TimeFreezingOptions::ElasticMode::Exact ? "exact" : "nosnoc_literal";
}

void TimeFreezingOptions::validate() const {
  check_finite_positive(normal_acceleration, "time freezing option normal_acceleration (a_n)");
  check_finite_positive(stiffness, "time freezing option stiffness (k_aux)");
  check_finite_positive(eps_t, "time freezing option eps_t");
  if (!std::isfinite(stabilize_positions) || stabilize_positions < 0.0)
    throw Error("time freezing option stabilize_positions (kappa) = " + num(stabilize_positions) +
                " must be finite and >= 0 (0 = off)");
  if (!std::isfinite(stabilize_depth) || stabilize_depth < 0.0)
    throw Error("time freezing option stabilize_depth = " + num(stabilize_depth) + " must be finite and >= 0");
  if (stabilize_depth > 0.0 && stabilize_positions == 0.0)
    throw Error("time freezing option stabilize_depth = " + num(stabilize_depth) +
                " needs stabilize_positions > 0 (the depth is the target of the position stabilization)");
  if (elastic_mode != ElasticMode::Exact && elastic_mode != ElasticMode::NosnocLiteral)
    throw Error("time freezing option elastic_mode has an unknown value");
}

double damping_from_restitution(double k, double e) {
  check_finite_positive(k, "damping_from_restitution: stiffness k");
  if (!std::isfinite(e) || e <= 0.0 || e > 1.0)
    throw Error("damping_from_restitution: restitution e = " + num(e) +
                " must be in (0, 1] (e = 0 is critical damping: the spring never returns)");
  const double l = std::log(e);
  return 2.0 * std::abs(l) * std::sqrt(k / (std::numbers::pi * std::numbers::pi + l * l));
}

double elastic_jump_duration(double k, double e) {
  check_finite_positive(k, "elastic_jump_duration: stiffness k");
  if (!std::isfinite(e) || e <= 0.0 || e > 1.0)
    throw Error("elastic_jump_duration: restitution e = " + num(e) + " must be in (0, 1]");
  const double l = std::log(e);
  return std::sqrt((std::numbers::pi * std::numbers::pi + l * l) / k);
}

double inelastic_jump_duration(double normal_velocity, double D, double normal_acceleration) {
  check_finite_positive(D, "inelastic_jump_duration: D = n^T M^-1 n");
  check_finite_positive(normal_acceleration, "inelastic_jump_duration: a_n");
  if (!std::isfinite(normal_velocity))
    throw Error("inelastic_jump_duration: the normal velocity is not finite");
  return normal_velocity >= 0.0 ? 0.0 : -normal_velocity / (D * normal_acceleration);
}

namespace {

// The lifted Heaviside form of an inelastic Cls (time_freezing.md §2.5.3, header comment): fields,
// step-function weights and lifting variables of `sub`, and the contacts of each field in `tf`.
void lifted_regions(model::Subsystem& sub, TimeFrozenModel& tf, const sym::Vector& f_ode,
                    const std::vector<std::array<sym::Vector, 2>>& aux, const std::vector<int>& tangential_index,
                    std::size_t nc, bool variables) {
  model::StepLifting l;
  l.variables = variables;
  l.alpha = sym::symbols("alpha", sub.switching.size());
  bool friction = false;
  for (int t : tangential_index) friction = friction || t >= 0;
  auto add_lift = [&](const std::string& name, const sym::Expr& definition) {
    l.lift.push_back(sym::Expr::symbol(name));
    l.lift_names.push_back(name);
    l.definitions.push_back(definition);
    return l.lift.back();
  };
  const auto aq = [&](std::size_t i) { return l.alpha[i]; };
  const auto av = [&](std::size_t i) { return l.alpha[nc + i]; };
  std::vector<sym::Expr> beta_ode(nc), beta_aux(nc);
  for (std::size_t i = 0; i < nc; ++i)
    beta_ode[i] = add_lift("beta_ode[" + std::to_string(i) + "]", aq(i) * av(i));
  if (friction)
    for (std::size_t i = 0; i < nc; ++i)
      beta_aux[i] = add_lift("beta_aux[" + std::to_string(i) + "]", (1.0 - aq(i)) * (1.0 - av(i)));
  // θ_ode = Π_i (αq_i + αv_i − β_ode,i): contact i is not auxiliary (f_c,i > 0 or v_n,i > 0).
  const auto free_of = [&](std::size_t i) { return aq(i) + av(i) - beta_ode[i]; };
  sym::Expr theta_ode = free_of(0);
  if (nc <= 2) {
    for (std::size_t i = 1; i < nc; ++i) theta_ode = theta_ode * free_of(i);
  } else {
    sym::Expr prod = add_lift("beta_prod[0]", free_of(0) * free_of(1));
    for (std::size_t j = 2; j + 1 < nc; ++j)
      prod = add_lift("beta_prod[" + std::to_string(j - 1) + "]", prod * free_of(j));
    theta_ode = prod * free_of(nc - 1);
  }
  sub.fields = {f_ode};
  l.weights = {theta_ode};
  tf.region_contacts = {{}};
  tf.region_friction_sign = {{}};
  for (std::size_t i = 0; i < nc; ++i) {
    const int ci = static_cast<int>(i);
    const sym::Expr active = friction ? beta_aux[i] : (1.0 - aq(i)) * (1.0 - av(i));
    if (tangential_index[i] < 0) {
      sub.fields.push_back(aux[i][0]);
      l.weights.push_back(active);
      tf.region_contacts.push_back({ci});
      tf.region_friction_sign.push_back({0});
      continue;
    }
    const sym::Expr at = l.alpha[static_cast<std::size_t>(tangential_index[i])];
    sub.fields.push_back(aux[i][0]);  // pos: c_t > 0, friction against it
    l.weights.push_back(active * at);
    sub.fields.push_back(aux[i][1]);  // neg
    l.weights.push_back(active * (1.0 - at));
    tf.region_contacts.push_back({ci});
    tf.region_contacts.push_back({ci});
    tf.region_friction_sign.push_back({1});
    tf.region_friction_sign.push_back({-1});
  }
  // Relevance of each step function (model::StepLifting::relevance), |∂θ/∂α| up to positive
  // factors: the gap's α matters only while the normal velocity is negative (1 − αv), the normal
  // velocity's only while the gap is (1 − αq), the tangential one only in the auxiliary region.
  l.relevance.assign(sub.switching.size(), sym::Expr(1.0));
  for (std::size_t i = 0; i < nc; ++i) {
    l.relevance[i] = 1.0 - av(i);
    l.relevance[nc + i] = 1.0 - aq(i);
    if (tangential_index[i] >= 0)
      l.relevance[static_cast<std::size_t>(tangential_index[i])] = (1.0 - aq(i)) * (1.0 - av(i));
  }
  sub.lifting = std::move(l);
}

}  // namespace

std::vector<double> TimeFrozenModel::alpha_penalty(double weight) const {
  if (!(weight > 0.0)) return {};
  std::vector<double> w = alpha_regularization;
  bool any = false;
  for (double& x : w) {
    any = any || x != 0.0;
    x = x != 0.0 ? weight : 0.0;
  }
  return any ? w : std::vector<double>{};
}

// ---------------------------------------------------------------------------------------------
// CLS
// ---------------------------------------------------------------------------------------------

TimeFrozenModel time_freezing(const model::Cls& cls, const TimeFreezingOptions& options) {
  cls.validate();
  options.validate();
  const std::string who = "time_freezing(Cls '" + cls.name + "')";
  check_clock_name(cls.position_names, who);
  check_clock_name(cls.velocity_names, who);

  const std::size_t nq = cls.n_q();
  const std::size_t nc = cls.n_contacts();
  const sym::Vector& q = cls.q;
  const sym::Vector& v = cls.v;

  TimeFrozenModel tf;
  tf.n_q = nq;
  tf.elastic = cls.is_elastic();

  // Normals and every right-hand side that needs M⁻¹, solved together: [f_v, n_1..n_nc, (M⁻¹v), tangents].
  std::vector<sym::Vector> normals(nc);
  for (std::size_t i = 0; i < nc; ++i) normals[i] = cls.normal(i);
  std::vector<sym::Vector> rhs;
  rhs.push_back(cls.forces);
  for (const auto& n : normals) rhs.push_back(n);
  const bool literal = tf.elastic && options.elastic_mode == TimeFreezingOptions::ElasticMode::NosnocLiteral;
  const std::size_t col_minv_v = rhs.size();
  if (literal) rhs.push_back(v);
  std::vector<std::size_t> col_tangent(nc, 0);
  if (!tf.elastic)
    for (std::size_t i = 0; i < nc; ++i) {
      const model::Contact& c = cls.contacts[i];
      if (c.friction > 0.0) {
        col_tangent[i] = rhs.size();
        for (std::size_t k = 0; k < c.tangent.cols(); ++k) rhs.push_back(c.tangent.col(k));
      }
    }
  std::vector<sym::Vector> minv(rhs.size());
  const bool identity_mass = cls.mass.rows() == 0 && cls.mass.cols() == 0;
  if (identity_mass) {
    minv = rhs;
  } else {
    sym::Matrix B(nq, rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k)
      for (std::size_t r = 0; r < nq; ++r) B(r, k) = rhs[k][r];
    const sym::Matrix X = sym::solve_spd(cls.mass, B);
    for (std::size_t k = 0; k < rhs.size(); ++k) minv[k] = X.col(k);
  }
  // Implicit mass: the fields are built on placeholders for the columns M⁻¹ rhs_k; substituting
  // those gives the explicit fields, substituting rhs_k itself the generalized forces. Every
  // velocity row is linear in the placeholders (also the spatial slip direction, whose factors
  // are in v), and no other row uses them.
  const bool implicit = options.implicit_mass;
  if (implicit && cls.is_elastic())
    throw Error(who + ": time_freezing.implicit_mass applies to inelastic contacts; the elastic auxiliary "
                      "field moves the positions by M⁻¹n as well (leave implicit_mass off)");
  sym::Vector placeholders, explicit_values, force_values;
  if (implicit) {
    for (std::size_t k = 0; k < rhs.size(); ++k) {
      const sym::Vector p = sym::symbols("minv_rhs" + std::to_string(k), nq);
      placeholders.insert(placeholders.end(), p.begin(), p.end());
      explicit_values.insert(explicit_values.end(), minv[k].begin(), minv[k].end());
      force_values.insert(force_values.end(), rhs[k].begin(), rhs[k].end());
      minv[k] = p;
    }
  }
  auto minv_n = [&](std::size_t i) -> const sym::Vector& { return minv[1 + i]; };

  const sym::Expr clock = sym::Expr::symbol(kClockName);
  const sym::Vector f_ode = concat(v, minv[0], sym::Expr(1.0));

  for (std::size_t i = 0; i < nc; ++i) {
    const model::Contact& c = cls.contacts[i];
    tf.gaps.push_back(c.gap);
    tf.normal_velocities.push_back(sym::dot(normals[i], v));
    tf.D.push_back(sym::dot(normals[i], minv_n(i)));
    tf.friction.push_back(c.friction);
    tf.restitution.push_back(c.restitution);
    tf.contact_names.push_back(c.name.empty() ? "contact " + std::to_string(i) : c.name);
  }

  model::Subsystem sub;
  sub.name = "time freezing";

  if (tf.elastic) {
    // Single frictionless contact (Cls::validate guarantees it), spec §2.6.
    const double k = options.stiffness, e = cls.contacts[0].restitution;
    const double damping = damping_from_restitution(k, e);
    tf.stiffness = k;
    tf.damping = damping;
    const sym::Vector& n = normals[0];
    const sym::Vector& mn = minv_n(0);
    sym::Vector dq, dv;
    if (!literal) {
      const sym::Expr p = cls.contacts[0].gap, w = tf.normal_velocities[0], D = tf.D[0];
      dq = (w / D) * mn;
      dv = ((-k * p - damping * w) / D) * mn;
    } else {
      const sym::Expr nminv_v = sym::dot(n, minv[col_minv_v]);
      dq = nminv_v * n;
      dv = (-k * sym::dot(n, q) - damping * nminv_v) * mn;
    }
    sub.switching = {cls.contacts[0].gap};
    sub.signs = {{1}, {-1}};
    sub.fields = {f_ode, concat(dq, dv, sym::Expr(0.0))};
    tf.region_contacts = {{}, {0}};
    tf.region_friction_sign = {{}, {0}};
  } else {
    const double an = options.normal_acceleration;
    const double kappa = options.stabilize_positions;
    const double eps = options.eps_t;
    tf.normal_acceleration = an;
    tf.contact_depth = options.stabilize_depth;
    // Switching functions: gaps, normal velocities, tangential functions of frictional contacts.
    sub.switching = tf.gaps;
    sub.switching.insert(sub.switching.end(), tf.normal_velocities.begin(), tf.normal_velocities.end());
    std::vector<int> tangential_index(nc, -1);  // position of c_t,i in the switching vector
    // Auxiliary fields per contact: [0] normal only / pos, [1] neg.
    std::vector<std::array<sym::Vector, 2>> aux(nc);
    std::vector<int> friction_dimensions(nc, 0);
    for (std::size_t i = 0; i < nc; ++i) {
      const model::Contact& c = cls.contacts[i];
      const sym::Vector stab =
          kappa > 0.0 ? (-kappa * (c.gap + options.stabilize_depth)) * normals[i] : zeros(nq);
      const sym::Vector& mn = minv_n(i);
      if (c.friction <= 0.0) {
        aux[i][0] = concat(stab, an * mn, sym::Expr(0.0));
        aux[i][1] = aux[i][0];
        continue;
      }
      const double mu = c.friction;
      friction_dimensions[i] = static_cast<int>(c.tangent.cols());
      sym::Vector mt;  // M⁻¹ J_t (direction of the tangential impulse before ±μ)
      if (c.tangent.cols() == 1) {
        mt = minv[col_tangent[i]];
        tangential_index[i] = static_cast<int>(sub.switching.size());
        sub.switching.push_back(sym::dot(c.tangent.col(0), v));
      } else {
        // v̂ = v_t / sqrt(‖v_t‖² + δ²) with δ = kSlipDirectionRegularization·ε_t: the guard only keeps
        // v̂ finite at v_t = 0 (inside the stick disc). With δ = ε_t, as before, the slip friction
        // on the switching circle ‖v_t‖ = ε_t was μλ_n/√2 (and reduced within a few ε_t of it),
        // so a slip element ending on the circle, where FESD puts the stop, collocated a friction
        // 29% short at its last stage and did not reach the circle at the stop time.
        const double delta = kSlipDirectionRegularization * eps;
        const sym::Expr vt0 = sym::dot(c.tangent.col(0), v), vt1 = sym::dot(c.tangent.col(1), v);
        const sym::Expr r = sym::sqrt(vt0 * vt0 + vt1 * vt1 + delta * delta);
        mt = (vt0 / r) * minv[col_tangent[i]] + (vt1 / r) * minv[col_tangent[i] + 1];
        tangential_index[i] = static_cast<int>(sub.switching.size());
        // c_t = sqrt(‖v_t‖² + δ²) − sqrt(ε_t² + δ²): the sign of ‖v_t‖ − ε_t, finite gradient at 0.
        sub.switching.push_back(r - std::sqrt(eps * eps + delta * delta));
        sub.direction_guards.push_back({static_cast<std::size_t>(tangential_index[i]), {vt0, vt1}});
      }
      aux[i][0] = concat(stab, an * (mn - mu * mt), sym::Expr(0.0));  // pos: c_t > 0
      aux[i][1] = concat(stab, an * (mn + mu * mt), sym::Expr(0.0));  // neg: c_t < 0
    }
    const std::size_t n_sw = sub.switching.size();
    tf.auxiliary_fields = aux;
    tf.friction_dimensions = friction_dimensions;
    for (std::size_t i = 0; i < nc; ++i)
      tf.tangential.push_back(tangential_index[i] < 0 ? sym::Expr(0.0)
                                                      : sub.switching[static_cast<std::size_t>(tangential_index[i])]);
    if (options.lifting) {
      lifted_regions(sub, tf, f_ode, aux, tangential_index, nc, options.lifted_variables);
    } else {
    check_region_count(
        n_sw, who,
        std::to_string(nc) + " contacts: gap and normal velocity each, plus one per frictional contact");
    sub.signs = all_sign_rows(n_sw);
    for (const auto& row : sub.signs) {
      std::vector<int> active, fsign;
      sym::Vector field;
      for (std::size_t i = 0; i < nc; ++i) {
        if (row[i] > 0 || row[nc + i] > 0) continue;  // R1: f_c > 0 or v_n > 0
        const int s = tangential_index[i] < 0 ? 0 : row[static_cast<std::size_t>(tangential_index[i])];
        const sym::Vector& a = aux[i][s < 0 ? 1 : 0];
        field = field.empty() ? a : field + a;
        active.push_back(static_cast<int>(i));
        fsign.push_back(s);
      }
      sub.fields.push_back(active.empty() ? f_ode : field);
      tf.region_contacts.push_back(std::move(active));
      tf.region_friction_sign.push_back(std::move(fsign));
    }
    }
  }

  if (implicit) {
    model::ImplicitMass im;
    im.first_row = nq;
    im.mass = identity_mass ? sym::Matrix::identity(nq) : cls.mass;
    im.forces.emplace_back();
    for (auto& field : sub.fields) {
      const sym::Vector v_rows(field.begin() + static_cast<std::ptrdiff_t>(nq),
                               field.begin() + static_cast<std::ptrdiff_t>(2 * nq));
      im.forces.back().push_back(sym::substitute(v_rows, placeholders, force_values));
      field = sym::substitute(field, placeholders, explicit_values);
    }
    tf.D = sym::substitute(tf.D, placeholders, explicit_values);
    for (auto& pair : tf.auxiliary_fields)
      for (auto& field : pair) field = sym::substitute(field, placeholders, explicit_values);
    tf.pss.implicit_mass = std::move(im);
  }

  model::Pss& pss = tf.pss;
  pss.name = cls.name;
  pss.x = concat(q, v, clock);
  pss.state_names = cls.position_names;
  pss.state_names.insert(pss.state_names.end(), cls.velocity_names.begin(), cls.velocity_names.end());
  pss.state_names.push_back(kClockName);
  pss.u = cls.u;
  pss.control_names = cls.control_names;
  pss.x0 = cls.x0;
  pss.x0.push_back(0.0);
  pss.clock = static_cast<int>(2 * nq);
  tf.clock = pss.clock;
  pss.subsystems.push_back(std::move(sub));
  pss.validate();
  if (!tf.elastic) {
    // switching functions start with the n_c gaps (time_freezing.md §2.2)
    tf.alpha_regularization.assign(tf.n_switching(), 0.0);
    for (std::size_t i = 0; i < cls.n_contacts() && i < tf.alpha_regularization.size(); ++i)
      tf.alpha_regularization[i] = 1e-2;
  }
  return tf;
}

// ---------------------------------------------------------------------------------------------
// JumpSystem
// ---------------------------------------------------------------------------------------------

TimeFrozenModel time_freezing(const model::JumpSystem& system, const TimeFreezingOptions& options) {
  system.validate();
  options.validate();
  const std::string who = "time_freezing(JumpSystem '" + system.name + "')";
  check_clock_name(system.state_names, who);

  const std::size_t nx = system.n_x();
  const std::size_t nc = system.n_constraints();
  const bool builtin = system.builtin_auxiliary();
  check_region_count(nc, who, "one per constraint");

  TimeFrozenModel tf;
  tf.elastic = true;
  tf.n_q = builtin ? system.n_q() : 0;

  // Per-constraint auxiliary fields (x-part) and the diagnostic expressions.
  std::vector<sym::Vector> aux(nc);
  if (builtin) {
    const double k = system.stiffness, e = system.restitution;
    const double damping = damping_from_restitution(k, e);
    tf.stiffness = k;
    tf.damping = damping;
    const std::size_t nq = system.n_q();
    const sym::Vector q(system.x.begin(), system.x.begin() + static_cast<std::ptrdiff_t>(nq));
    const sym::Vector v(system.x.begin() + static_cast<std::ptrdiff_t>(nq), system.x.end());
    for (std::size_t i = 0; i < nc; ++i) {
      const sym::Vector n = sym::gradient(system.constraints[i], q);
      const sym::Expr p = system.constraints[i], w = sym::dot(n, v), nn = sym::dot(n, n);
      sym::Vector a = (w / nn) * n;
      const sym::Vector dv = ((-k * p - damping * w) / nn) * n;
      a.insert(a.end(), dv.begin(), dv.end());
      aux[i] = std::move(a);
      tf.D.push_back(nn);
    }
  } else {
    for (std::size_t i = 0; i < nc; ++i) aux[i] = system.auxiliary[system.auxiliary.size() == 1 ? 0 : i];
  }
  for (std::size_t i = 0; i < nc; ++i) {
    tf.gaps.push_back(system.constraints[i]);
    tf.normal_velocities.push_back(sym::dot(sym::gradient(system.constraints[i], system.x), system.f));
    tf.friction.push_back(0.0);
    // A user auxiliary field makes its own jump law: no restitution to compare the jumps with.
    tf.restitution.push_back(builtin ? system.restitution : std::numeric_limits<double>::quiet_NaN());
    tf.contact_names.push_back("constraint " + std::to_string(i));
  }

  const sym::Expr clock = sym::Expr::symbol(kClockName);
  model::Subsystem sub;
  sub.name = "time freezing";
  sub.switching = system.constraints;
  sub.signs = all_sign_rows(nc);
  const bool single_user_field = !builtin && system.auxiliary.size() == 1;
  for (const auto& row : sub.signs) {
    std::vector<int> active;
    sym::Vector field;
    for (std::size_t i = 0; i < nc; ++i) {
      if (row[i] > 0) continue;
      active.push_back(static_cast<int>(i));
      if (single_user_field)
        field = aux[i];
      else
        field = field.empty() ? aux[i] : field + aux[i];
    }
    sym::Vector y_field = active.empty() ? system.f : field;
    y_field.push_back(sym::Expr(active.empty() ? 1.0 : 0.0));
    sub.fields.push_back(std::move(y_field));
    tf.region_friction_sign.emplace_back(active.size(), 0);
    tf.region_contacts.push_back(std::move(active));
  }

  model::Pss& pss = tf.pss;
  pss.name = system.name;
  pss.x = system.x;
  pss.x.push_back(clock);
  pss.state_names = system.state_names;
  pss.state_names.push_back(kClockName);
  pss.u = system.u;
  pss.control_names = system.control_names;
  pss.x0 = system.x0;
  pss.x0.push_back(0.0);
  pss.clock = static_cast<int>(nx);
  tf.clock = pss.clock;
  pss.subsystems.push_back(std::move(sub));
  pss.validate();
  return tf;
}

}  // namespace stasis::reformulate
