// The relaxed NLP and the σ → 0 homotopy loop (fesd.md §5).
#include "stasis/mpcc/homotopy.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "nlp_blocks.hpp"
#include "polish.hpp"
#include "stasis/error.hpp"
#include "../util/option_parsing.hpp"

namespace stasis::mpcc {

namespace {
using Clock = std::chrono::steady_clock;
/// IPOPT's default acceptable_constr_viol_tol.
constexpr double kIpoptAcceptableConstrViolTol = 1e-2;
// IPOPT's default of its warm_start_*_push/frac options, and what a start with its own
// multipliers uses instead (IPOPT's documentation suggests small values for such warm starts).
constexpr double kIpoptWarmStartPush = 1e-3;
constexpr double kDualStartBoundPush = 1e-9;

/// An IPOPT solve of a homotopy step that came after earlier ones of the same step: their
/// iterations and times count towards it.
void add_spent(nlp::SolveResult& into, const nlp::SolveResult& spent) {
  into.iterations += spent.iterations;
  into.wall_time_s += spent.wall_time_s;
  into.evaluation_time_s += spent.evaluation_time_s;
}

// Multipliers of one relaxed NLP of an MPCC carried over to another relaxed NLP of the same MPCC
// (the Scholtes steps' to the ℓ1-penalty finish): rows matched by nlp::Problem::constraint_key, a
// repeated key's rows in order; rows of `to` without a match start at 0; the bound multipliers as
// they are. None if the variables differ (elastic variables in one of them).
std::optional<nlp::Multipliers> carry_multipliers(const nlp::Problem& from, const nlp::Multipliers& m,
                                                  const nlp::Problem& to) {
  if (m.lambda_g.size() != from.n_constraints() || m.z_lower.size() != to.n_variables() ||
      m.z_upper.size() != to.n_variables() || from.n_variables() != to.n_variables())
    return std::nullopt;
  auto keys = [](const nlp::Problem& p) {
    std::vector<std::string> k(p.n_constraints());
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = p.constraint_key(static_cast<Index>(i));
    return nlp::numbered_keys(std::move(k));
  };
  const std::vector<std::ptrdiff_t> row = nlp::match_keys(keys(from), keys(to));
  nlp::Multipliers carried{std::vector<double>(to.n_constraints(), 0.0), m.z_lower, m.z_upper};
  for (std::size_t i = 0; i < row.size(); ++i)
    if (row[i] >= 0) carried.lambda_g[i] = m.lambda_g[static_cast<std::size_t>(row[i])];
  return carried;
}

}  // namespace

struct Homotopy::Impl {
  nlp::Problem relaxed;
  std::unique_ptr<nlp::IpoptSolver> ipopt;
  Index sigma_param = -1, weight_param = -1, scale_param = -1;
  std::vector<Index> elastic_variables;  // all elastic variables of the relaxed NLP
  std::unique_ptr<detail::Polisher> polisher;  // built on the first polishing solve
  std::unique_ptr<Homotopy> penalty;  // the ℓ1-penalty finish, built on its first use
  int max_iter = 0;  // IPOPT's max_iter as set (options.ipopt may override HomotopyOptions::max_iter)
};

Homotopy::Homotopy(const Problem& problem, const HomotopyOptions& options)
    : problem_(problem), options_(options), impl_(std::make_unique<Impl>()) {
  options_.validate();
  nlp::Problem& nlp = impl_->relaxed;
  detail::add_variables_and_parameters(problem, nlp);
  impl_->sigma_param = nlp.add_parameter("sigma", options_.sigma0);
  impl_->weight_param = nlp.add_parameter("steering_weight", 1.0);
  impl_->scale_param = nlp.add_parameter("objective_scale", 1.0);

  const bool has_rows = options_.relaxation != Relaxation::Ell1Penalty;
  const Steering steering = has_rows ? options_.steering : Steering::Direct;
  Index elastic_inf = -1;
  if (steering == Steering::EllInf && problem.n_pairs() > 0) {
    elastic_inf = nlp.add_variable("elastic", options_.elastic_min, options_.elastic_max, options_.elastic_start);
    impl_->elastic_variables.push_back(elastic_inf);
    sym::Expr s = sym::Expr::symbol("elastic"), weight = sym::Expr::symbol("steering_weight");
    nlp::BlockModel obj{"elastic_objective", {s}, {weight}, weight * s, {}, {}};
    nlp.add_block(nlp.add_block_kind(obj), {elastic_inf}, {impl_->weight_param});
  }

  // One relaxed NLP kind per MPCC kind; remember which pairs are plain variables (bounds instead of rows).
  struct KindInfo {
    int nlp_kind;
    std::size_t n_elastic;
    std::vector<int> nonneg_local_variables;
    std::size_t n_extra_rows_lower_only;  // relaxed rows come first, then G >= 0 / H >= 0 rows
    std::vector<double> extra_lower, extra_upper;
  };
  std::vector<KindInfo> infos;
  for (const CompiledKind& ck : problem.kinds()) {
    const BlockModel& m = ck.model;
    nlp::BlockModel r = detail::block_rows(m, m.name);
    sym::Expr sigma = sym::Expr::symbol("sigma"), weight = sym::Expr::symbol("steering_weight"),
              scale = sym::Expr::symbol("objective_scale");
    r.parameters.insert(r.parameters.end(), {sigma, weight, scale});
    KindInfo info{};
    sym::Expr objective = scale * m.objective;
    const std::size_t n_pairs = m.G.size();
    sym::Vector elastic;
    if (steering == Steering::EllInf && n_pairs > 0) {
      elastic = {sym::Expr::symbol("elastic")};
    } else if (steering == Steering::Ell1 && n_pairs > 0) {
      elastic = sym::symbols(m.name + ".elastic", n_pairs);
      for (const auto& s : elastic) objective = objective + weight * s;
    }
    info.n_elastic = elastic.size();
    r.variables.insert(r.variables.end(), elastic.begin(), elastic.end());
    const bool equality = options_.relaxation == Relaxation::ScholtesEq;
    auto pair_name = [&](std::size_t i) {
      return m.pair_names.empty() ? "pair " + std::to_string(i) : m.pair_names[i];
    };
    for (std::size_t i = 0; i < n_pairs; ++i) {
      sym::Expr product = m.G[i] * m.H[i];
      if (!has_rows) {
        objective = objective + weight * product;
        continue;
      }
      sym::Expr bound = steering == Steering::Direct ? sigma : (steering == Steering::EllInf ? elastic[0] : elastic[i]);
      r.constraints.push_back(product - bound);
      r.constraint_names.push_back("relaxed complementarity " + pair_name(i));
      info.extra_lower.push_back(equality ? 0.0 : -kInf);
      info.extra_upper.push_back(0.0);
    }
    if (!m.nonnegativity_implied) {
      for (std::size_t i = 0; i < n_pairs; ++i) {
        for (int side = 0; side < 2; ++side) {
          const sym::Expr& e = side == 0 ? m.G[i] : m.H[i];
          int local = detail::local_index_of(m.variables, e);
          if (local >= 0) {
            info.nonneg_local_variables.push_back(local);
          } else if (!e.is_constant() || e.constant_value() < 0) {
            r.constraints.push_back(e);
            r.constraint_names.push_back(std::string(side == 0 ? "G" : "H") + " >= 0 of " + pair_name(i));
            info.extra_lower.push_back(0.0);
            info.extra_upper.push_back(kInf);
          }
        }
      }
    }
    r.objective = objective;
    info.nlp_kind = nlp.add_block_kind(r);
    infos.push_back(std::move(info));
  }

  for (const BlockInstance& b : problem.blocks()) {
    const KindInfo& info = infos[static_cast<std::size_t>(b.kind)];
    std::vector<Index> vars = b.variables;
    if (info.n_elastic > 0) {
      if (steering == Steering::EllInf) {
        vars.push_back(elastic_inf);
      } else {
        for (std::size_t i = 0; i < info.n_elastic; ++i) {
          Index s = nlp.add_variable(b.label + ".elastic[" + std::to_string(i) + "]", options_.elastic_min,
                                     options_.elastic_max, options_.elastic_start);
          impl_->elastic_variables.push_back(s);
          vars.push_back(s);
        }
      }
    }
    std::vector<Index> pars = b.parameters;
    pars.insert(pars.end(), {impl_->sigma_param, impl_->weight_param, impl_->scale_param});
    std::vector<double> lo = b.row_lower, up = b.row_upper;
    lo.insert(lo.end(), info.extra_lower.begin(), info.extra_lower.end());
    up.insert(up.end(), info.extra_upper.begin(), info.extra_upper.end());
    nlp.add_block(info.nlp_kind, vars, pars, lo, up, b.label);
    for (int local : info.nonneg_local_variables) {
      auto g = static_cast<std::size_t>(b.variables[static_cast<std::size_t>(local)]);
      nlp.variable_lower()[g] = std::max(nlp.variable_lower()[g], 0.0);
    }
  }
  nlp.finalize();

  impl_->ipopt = std::make_unique<nlp::IpoptSolver>();
  nlp::IpoptSolver& ip = *impl_->ipopt;
  // fesd.md §5.5: nosnoc's IPOPT settings; the default preset uses the same until measurements
  // on the examples show better ones (see docs/homotopy.md).
  ip.set_option("print_level", options_.print_level);
  ip.set_option("max_iter", options_.max_iter);
  ip.set_option("bound_relax_factor", 0.0);
  ip.set_option("tol", options_.tol);
  ip.set_option("dual_inf_tol", options_.tol);
  ip.set_option("compl_inf_tol", options_.tol);
  ip.set_option("acceptable_tol", options_.acceptable_tol);
  ip.set_option("mu_strategy", std::string("adaptive"));
  ip.set_option("mu_oracle", std::string("quality-function"));
  ip.set_option("linear_solver", options_.linear_solver);
  for (const auto& [k, v] : options_.ipopt) ip.set_option(k, v);
  impl_->max_iter = options_.max_iter;
  // (IPOPT has accepted it above, so it is an integer.)
  if (const auto it = options_.ipopt.find("max_iter"); it != options_.ipopt.end())
    impl_->max_iter = util::parse_int("ipopt.max_iter", it->second);
}

Homotopy::~Homotopy() = default;

nlp::Problem& Homotopy::relaxed() { return impl_->relaxed; }

double Homotopy::sigma_final() const { return std::min(0.1 * options_.complementarity_tol, options_.sigma_final); }

int Homotopy::max_steps() const { return max_steps(options_.sigma0); }

int Homotopy::max_steps(double sigma0) const {
  if (options_.max_steps > 0) return options_.max_steps;
  const double factors = std::fabs(std::log(sigma_final() / sigma0) / std::log(options_.kappa));
  // fesd.md §5.4: nosnoc's ceil(|log(σ_N/σ0)/log κ|) reaches σ_N with the defaults only because
  // the quotient rounds to 10.000000000000002 (11 steps); from σ0 = 1e-2 it gives 8 steps and
  // stops at σ = 1e-9, one short of σ_N. The default preset counts the steps σ0, κσ0, … down to
  // σ_N (the same 11 with the defaults); the nosnoc preset keeps nosnoc's count.
  if (options_.preset == "nosnoc") return static_cast<int>(std::ceil(factors));
  return static_cast<int>(std::ceil(factors - 1e-9)) + 1;
}

Result Homotopy::solve() {
  std::vector<double> w0(impl_->relaxed.start().begin(),
                         impl_->relaxed.start().begin() + static_cast<std::ptrdiff_t>(problem_.n_variables()));
  return solve(w0);
}

Result Homotopy::solve(const std::vector<double>& w0_mpcc) { return solve(w0_mpcc, options_.sigma0); }

Result Homotopy::solve(const std::vector<double>& w0_mpcc, double sigma0) { return solve(w0_mpcc, sigma0, nullptr); }

Result Homotopy::solve(const std::vector<double>& w0_mpcc, double sigma0, const nlp::Multipliers* duals0) {
  if (!(sigma0 > 0) || !std::isfinite(sigma0))
    throw Error("Homotopy::solve: sigma0 must be positive and finite, not " + std::to_string(sigma0));
  const auto t_start = Clock::now();
  nlp::Problem& nlp = impl_->relaxed;
  const std::size_t n_w = problem_.n_variables();
  if (w0_mpcc.size() != n_w)
    throw Error("Homotopy::solve: start point has " + std::to_string(w0_mpcc.size()) + " entries, the MPCC has " +
                std::to_string(n_w) + " variables");
  // Parameters of the MPCC may have been changed by the caller on the relaxed problem directly;
  // the MPCC's own values are only the construction-time defaults.
  std::vector<double> w = nlp.start();
  std::copy(w0_mpcc.begin(), w0_mpcc.end(), w.begin());
  for (Index s : impl_->elastic_variables) w[static_cast<std::size_t>(s)] = options_.elastic_start;
  nlp.check_bounds();
  // A start outside the bounds is legal for IPOPT (it projects), but the finiteness check must
  // see the point IPOPT will evaluate first, so clamp before checking.
  std::vector<double> w_check = w;
  for (std::size_t i = 0; i < w.size(); ++i)
    w_check[i] = std::clamp(w[i], nlp.variable_lower()[i], nlp.variable_upper()[i]);
  nlp.check_finite_at(w_check.data());

  auto mpcc_part = [&](const std::vector<double>& full) {
    return std::vector<double>(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n_w));
  };
  // Residual and objective use the MPCC's parameter values as currently set on the relaxed
  // problem (its first n_parameters entries), which callers may change between solves.
  const std::vector<double> par(nlp.parameters().begin(),
                                nlp.parameters().begin() + static_cast<std::ptrdiff_t>(problem_.n_parameters()));

  Result res;
  res.initial_residual = problem_.complementarity_residual(mpcc_part(w), &par);
  const double sigma_N = sigma_final();
  const int N = max_steps(sigma0);
  const bool nosnoc = options_.preset == "nosnoc";
  // nosnoc's preset keeps IPOPT's default; an explicit ipopt.acceptable_constr_viol_tol wins.
  const bool tie_acceptable_violation = !nosnoc && !options_.ipopt.count("acceptable_constr_viol_tol");
  double sigma = sigma0;
  double sigma_w = sigma0;  // the σ at which w was solved (σ0 for the start)
  double r = 1.0;
  bool failed = false, timeout = false;
  nlp::Multipliers zeros{std::vector<double>(nlp.n_constraints(), 0.0), std::vector<double>(w.size(), 0.0),
                         std::vector<double>(w.size(), 0.0)};
  nlp::Multipliers previous;
  bool have_previous = false;
  // Multipliers given for the first step: only if they fit this relaxed NLP.
  res.duals0_used = duals0 != nullptr && duals0->lambda_g.size() == nlp.n_constraints() &&
                 duals0->z_lower.size() == w.size() && duals0->z_upper.size() == w.size();
  // IPOPT pushes a warm start off its bounds by warm_start_bound_push (default 1e-3, relative),
  // which moves a converged point away from its active bounds and complementarity pairs (a
  // re-solve of the hopper's converged point at the same σ took 1438 iterations from its primal
  // point alone). With the point's own multipliers the pushes can be tiny; they are set for the
  // first step and put back (to the user's ipopt.* value or IPOPT's default) after it.
  static constexpr const char* kWarmPushes[] = {"warm_start_bound_push", "warm_start_bound_frac",
                                                "warm_start_slack_bound_push", "warm_start_slack_bound_frac",
                                                "warm_start_mult_bound_push"};
  auto set_warm_pushes = [&](bool tight) {
    for (const char* name : kWarmPushes) {
      if (options_.ipopt.count(name)) continue;
      impl_->ipopt->set_option(name, tight ? kDualStartBoundPush : kIpoptWarmStartPush);
    }
  };
  // Put back also if the first solve throws, so that a later solve() starts as documented.
  struct RestorePushes {
    std::function<void()> restore;
    ~RestorePushes() {
      if (restore) restore();
    }
  } restore_pushes;
  if (res.duals0_used) {
    set_warm_pushes(true);
    restore_pushes.restore = [&] { set_warm_pushes(false); };
  }
  int i = 0;
  int polish_solves = 0;
  bool polish_tried = false;  // at the current w
  // Wall time left of options_.timeout_s (meaningful only when that is > 0).
  auto seconds_left = [&]() {
    return options_.timeout_s - std::chrono::duration<double>(Clock::now() - t_start).count();
  };
  // A polishing or penalty-finish solve that reached the tolerance: w becomes its solution.
  auto adopt = [&](const std::vector<double>& w_mpcc, double residual, nlp::Status status) {
    std::copy(w_mpcc.begin(), w_mpcc.end(), w.begin());
    res.residual = residual;
    res.last_status = status;
    res.last_iterate = w_mpcc;
  };
  int penalty_solves = 0;
  bool penalty_tried = false;  // at the current w
  auto wants_penalty = [&](double residual) {
    return options_.penalty_finish && residual > options_.complementarity_tol &&
           residual <= options_.penalty_finish_threshold;
  };
  // The ℓ1-penalty finish from w (its steps are reported as this homotopy's); on convergence w
  // becomes its solution and res.residual its residual.
  auto try_penalty = [&](double sigma_of_w) {
    penalty_tried = true;
    // penalty_finish_sigma0 = 0: the weight 1/σ of the step the finish starts from. Measured on the
    // three-hole hopper (docs/hopper-experiments.md, session 34): from a Scholtes point at
    // σ = 1.22e-7, whose next Scholtes steps end Restoration_Failed, the penalty from σ_p = 1.22e-7
    // converges in 5 steps; session 28's finish from σ_p = 1e-2 (a point at σ = 1.56e-6) let go of
    // its point (residual 4e-2).
    const double sigma_p0 = options_.penalty_finish_sigma0 > 0 ? options_.penalty_finish_sigma0 : sigma_of_w;
    const double left = options_.timeout_s > 0 ? seconds_left() : 0.0;
    if (options_.timeout_s > 0 && left <= 0) return false;
    if (!impl_->penalty || options_.timeout_s > 0) {
      HomotopyOptions po = options_;
      po.relaxation = Relaxation::Ell1Penalty;
      po.steering = Steering::Direct;
      po.sigma0 = sigma_p0;
      po.update = SigmaUpdate::Linear;
      po.max_steps = 0;
      po.polish = false;
      po.penalty_finish = false;
      po.timeout_s = left;
      impl_->penalty = std::make_unique<Homotopy>(problem_, po);
    }
    Homotopy& finish = *impl_->penalty;
    // The caller may have changed bounds (e.g. a fixed x0) and parameters on this relaxed NLP.
    nlp::Problem& pn = finish.relaxed();
    std::copy(nlp.variable_lower().begin(), nlp.variable_lower().begin() + static_cast<std::ptrdiff_t>(n_w),
              pn.variable_lower().begin());
    std::copy(nlp.variable_upper().begin(), nlp.variable_upper().begin() + static_cast<std::ptrdiff_t>(n_w),
              pn.variable_upper().begin());
    std::copy(par.begin(), par.end(), pn.parameters().begin());
    finish.on_step = [&](const StepStats& s) {
      StepStats st = s;
      st.step = static_cast<int>(res.steps.size());
      st.penalty = true;
      res.steps.push_back(st);
      if (on_step) on_step(st);
    };
    // From the multipliers of the step it goes on from, on the rows the two NLPs share: the
    // three-hole hopper's finish from σ = 4.88e-7 converged in 3 steps from that point's
    // multipliers (its start.json), and from zero multipliers its second step ended at residual
    // 6.7e-6, the objective rising (session 34).
    std::optional<nlp::Multipliers> duals;
    if (have_previous) duals = carry_multipliers(nlp, previous, pn);
    Result fr = finish.solve(mpcc_part(w), sigma_p0, duals ? &*duals : nullptr);
    finish.on_step = nullptr;
    penalty_solves += fr.nlp_solves;
    res.nlp_iterations += fr.nlp_iterations;
    res.evaluation_time_s += fr.evaluation_time_s;
    if (!fr.converged) return false;
    adopt(fr.w, fr.residual, fr.last_status);
    res.penalty_finished = true;
    return true;
  };
  auto wants_polish = [&](double residual) {
    return options_.polish && residual > options_.complementarity_tol && residual <= options_.polish_threshold;
  };
  // Solves the branch NLP from w; on success (IPOPT success and residual below tolerance) w
  // becomes its solution and res.residual its residual.
  auto try_polish = [&]() {
    polish_tried = true;
    if (!impl_->polisher) impl_->polisher = std::make_unique<detail::Polisher>(problem_);
    if (options_.timeout_s > 0) {
      const double left = seconds_left();
      if (left <= 0) return false;
      impl_->ipopt->set_option("max_cpu_time", left);
    }
    // The branch NLP's rows (dynamics included) must hold to the tolerance the result claims.
    if (tie_acceptable_violation)
      impl_->ipopt->set_option("acceptable_constr_viol_tol",
                               std::min(kIpoptAcceptableConstrViolTol, options_.complementarity_tol));
    const nlp::SolveResult sr =
        impl_->polisher->run(*impl_->ipopt, mpcc_part(w), nlp.variable_lower(), nlp.variable_upper(), par);
    ++polish_solves;
    StepStats st;
    st.step = static_cast<int>(res.steps.size());
    st.sigma = 0.0;
    st.residual = sr.w.size() == n_w ? problem_.complementarity_residual(sr.w, &par)
                                     : std::numeric_limits<double>::infinity();
    st.objective = sr.w.size() == n_w ? problem_.objective(sr.w, &par) : std::numeric_limits<double>::quiet_NaN();
    st.iterations = sr.iterations;
    st.status = sr.status;
    st.wall_time_s = sr.wall_time_s;
    st.evaluation_time_s = sr.evaluation_time_s;
    st.constraint_violation = sr.constraint_violation;
    st.polish = true;
    res.steps.push_back(st);
    res.nlp_iterations += sr.iterations;
    res.evaluation_time_s += sr.evaluation_time_s;
    if (on_step) on_step(st);
    const bool ok = nlp::is_success(sr.status) &&
                    st.residual <= options_.complementarity_tol * (1 + std::numeric_limits<double>::epsilon());
    if (ok) {
      adopt(sr.w, st.residual, sr.status);
      res.polished = true;
    }
    return ok;
  };
  while ((r > options_.complementarity_tol || failed) && i < N && (sigma > sigma_N || i == 0) && !timeout) {
    if (i > 0) {
      if (options_.update == SigmaUpdate::Linear)
        sigma = options_.kappa * sigma;
      else
        sigma = std::max(sigma_N, std::min(options_.kappa * sigma, std::pow(sigma, options_.exponent)));
    }
    nlp.set_parameter(impl_->sigma_param, sigma);
    if (tie_acceptable_violation)
      // IPOPT may stop at an "acceptable" point (and the homotopy takes that as solved) whose
      // constraint violation is up to acceptable_constr_viol_tol (IPOPT's default 1e-2). Once σ is
      // below that, such a point need not satisfy the relaxed complementarity G·H <= σ at all:
      // measured on T4's rest steps (a start 1e-9 off the contact surface), the σ = 1e-9 and
      // 1e-10 NLPs stopped "acceptable" after 4 iterations with G·H ≈ 2e-9, and the step ended
      // above the complementarity tolerance. An acceptable point must violate the constraints by
      // at most σ.
      impl_->ipopt->set_option("acceptable_constr_viol_tol", std::min(kIpoptAcceptableConstrViolTol, sigma));
    nlp.set_parameter(impl_->weight_param, options_.objective_scaling_direct ? 1.0 / sigma : 1.0);
    nlp.set_parameter(impl_->scale_param, options_.objective_scaling_direct ? 1.0 : sigma);
    if (options_.timeout_s > 0) impl_->ipopt->set_option("max_cpu_time", std::max(seconds_left(), 1e-3));
    // IPOPT's warm_start_init_point with the previous step's multipliers, or with zero multipliers
    // as nosnoc does (measured faster than IPOPT's own multiplier initialization, docs/benchmarks.md).
    const nlp::Multipliers* warm = &zeros;
    if (options_.warm_start_duals && have_previous) warm = &previous;
    if (i == 0 && res.duals0_used) warm = duals0;
    // HomotopyOptions::warm_first_iter: a short first try from the previous multipliers.
    std::optional<nlp::SolveResult> first_try;
    if (options_.warm_first_iter > 0 && warm == &zeros && have_previous && !nosnoc) {
      impl_->ipopt->set_option("max_iter", std::min(options_.warm_first_iter, impl_->max_iter));
      first_try = impl_->ipopt->solve(nlp, w, &previous);
      // A short try that ran out of its budget goes on from where it stopped (its iterate and
      // multipliers) with the rest of the step's budget, before the zero-multiplier start: the
      // one-hole hopper's step 8 (session 30) spent 6000 iterations from zero multipliers at
      // the limit, then solved in 541 from the previous multipliers, the short try's own start.
      if (first_try->status == nlp::Status::MaxIterations && impl_->max_iter > options_.warm_first_iter) {
        impl_->ipopt->set_option("max_iter", impl_->max_iter - options_.warm_first_iter);
        nlp::SolveResult more = impl_->ipopt->solve(nlp, first_try->w, &first_try->multipliers);
        add_spent(more, *first_try);
        first_try = std::move(more);
      }
      impl_->ipopt->set_option("max_iter", impl_->max_iter);
    }
    nlp::SolveResult sr;
    if (first_try && (nlp::is_success(first_try->status) || first_try->status == nlp::Status::MaxTime)) {
      sr = std::move(*first_try);
      first_try.reset();
    } else {
      sr = impl_->ipopt->solve(nlp, w, warm);
    }
    if (restore_pushes.restore) {
      restore_pushes.restore();
      restore_pushes.restore = nullptr;
    }
    failed = !nlp::is_success(sr.status);
    if (failed && !nosnoc && have_previous && sr.status != nlp::Status::MaxTime) {
      // One retry of the same σ from the last good iterate with a different dual start (its
      // multipliers, or IPOPT's own initialization if those were just used): degenerate relaxed
      // NLPs (e.g. nosnoc's `direct` step equilibration) often fail in IPOPT's restoration phase
      // from one start and solve from another.
      nlp::SolveResult again = impl_->ipopt->solve(nlp, w, warm == &previous ? nullptr : &previous);
      add_spent(again, sr);
      sr = std::move(again);
      failed = !nlp::is_success(sr.status);
    }
    if (first_try) add_spent(sr, *first_try);  // the failed short try counts towards the step
    // nosnoc continues from whatever a failed NLP returned (fesd.md §5.4). That point can be
    // useless (a diverged iterate of an unbounded relaxation, e.g. an ℓ1 penalty whose weight
    // 1/σ is still too small), so by default the next step restarts from the last good iterate.
    if (!failed || nosnoc) {
      w = sr.w;
      sigma_w = sigma;
      polish_tried = false;
      penalty_tried = false;
      previous = sr.multipliers;
      res.multipliers_step = static_cast<int>(res.steps.size());  // this step's record comes next
      have_previous = true;
    }
    timeout = sr.status == nlp::Status::MaxTime;
    if (options_.timeout_s > 0 && seconds_left() <= 0) timeout = true;
    std::vector<double> wm = mpcc_part(failed ? sr.w : w);
    res.last_iterate = wm;
    r = problem_.complementarity_residual(wm, &par);
    StepStats st;
    st.step = static_cast<int>(res.steps.size());
    st.sigma = sigma;
    st.residual = r;
    st.objective = problem_.objective(wm, &par);
    st.iterations = sr.iterations;
    st.status = sr.status;
    st.wall_time_s = sr.wall_time_s;
    st.evaluation_time_s = sr.evaluation_time_s;
    st.constraint_violation = sr.constraint_violation;
    if (failed) {
      st.largest_violations = problem_.largest_violations(wm, Result::kLargestViolations, &par);
      std::erase_if(st.largest_violations,
                    [](const ViolationValue& v) { return !(v.violation() > Result::kShownViolation); });
    }
    res.steps.push_back(st);
    res.nlp_iterations += sr.iterations;
    res.evaluation_time_s += sr.evaluation_time_s;
    res.last_status = sr.status;
    if (!sr.message.empty()) res.message = sr.message;
    if (on_step) on_step(st);
    if (on_checkpoint && !failed) on_checkpoint(st, wm, previous);
    ++i;
    if (!failed && !timeout && wants_polish(r) && try_polish()) r = res.residual;
    if (!failed && !timeout && !res.polished && wants_penalty(r) && try_penalty(sigma_w)) r = res.residual;
  }
  // A failed step leaves w at the last good iterate, which may be close enough to its branch
  // (polishing) or to an exact solution (penalty finish): each is tried once more from there.
  if (failed && !nosnoc && !timeout && have_previous) {
    const double r_good = problem_.complementarity_residual(mpcc_part(w), &par);
    if ((!polish_tried && wants_polish(r_good) && try_polish()) ||
        (!res.polished && !penalty_tried && wants_penalty(r_good) && try_penalty(sigma_w))) {
      failed = false;
      r = res.residual;
    }
  }
  res.nlp_solves = i + polish_solves + penalty_solves;
  res.w = mpcc_part(w);
  if (res.last_iterate.empty()) res.last_iterate = res.w;
  res.multipliers = previous;
  res.residual = failed ? problem_.complementarity_residual(res.w, &par) : r;
  res.objective = problem_.objective(res.w, &par);
  res.converged = r <= options_.complementarity_tol * (1 + std::numeric_limits<double>::epsilon()) && !failed &&
                  !timeout;
  if (res.converged) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "complementarity residual %.2e <= %.2e%s", r, options_.complementarity_tol,
                  res.polished ? " (active-set polishing)" : (res.penalty_finished ? " (l1-penalty finish)" : ""));
    res.message = buf;
  } else if (timeout) {
    res.message = "time limit reached";
  } else if (failed) {
    res.message = std::string("last NLP ended with ") + nlp::to_string(res.last_status) +
                  (res.message.empty() ? "" : ": " + res.message);
  } else {
    res.message = "σ reached its final value but the complementarity residual is above tolerance";
  }
  if (!res.converged) res.largest_pairs = problem_.largest_products(res.w, Result::kLargestPairs, &par);
  if (failed) {  // the last relaxed NLP failed (a polishing or penalty solve may come after it)
    const auto last = std::find_if(res.steps.rbegin(), res.steps.rend(),
                                   [](const StepStats& s) { return !s.polish && !s.penalty; });
    if (last != res.steps.rend()) res.largest_violations = last->largest_violations;
  }
  res.wall_time_s = std::chrono::duration<double>(Clock::now() - t_start).count();
  return res;
}

}  // namespace stasis::mpcc
