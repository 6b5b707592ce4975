// The TNLP adapter between nlp::Problem and IPOPT.
#include "stasis/nlp/ipopt_solver.hpp"

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>

#include "stasis/error.hpp"

namespace stasis::nlp {

using Ipopt::Index;
using Ipopt::Number;
using Clock = std::chrono::steady_clock;

const char* to_string(Status s) {
  switch (s) {
    case Status::Success: return "Solve_Succeeded";
    case Status::Acceptable: return "Solved_To_Acceptable_Level";
    case Status::SearchDirectionTooSmall: return "Search_Direction_Becomes_Too_Small";
    case Status::FeasiblePointFound: return "Feasible_Point_Found";
    case Status::Infeasible: return "Infeasible_Problem_Detected";
    case Status::Diverging: return "Diverging_Iterates";
    case Status::UserStop: return "User_Requested_Stop";
    case Status::MaxIterations: return "Maximum_Iterations_Exceeded";
    case Status::MaxTime: return "Maximum_CpuTime_Exceeded";
    case Status::RestorationFailed: return "Restoration_Failed";
    case Status::ErrorInStepComputation: return "Error_In_Step_Computation";
    case Status::NotEnoughDegreesOfFreedom: return "Not_Enough_Degrees_Of_Freedom";
    case Status::InvalidProblem: return "Invalid_Problem_Definition";
    case Status::InvalidOption: return "Invalid_Option";
    case Status::InvalidNumber: return "Invalid_Number_Detected";
    case Status::InternalError: return "Internal_Error";
  }
  return "Unknown";
}

bool is_success(Status s) {
  return s == Status::Success || s == Status::Acceptable || s == Status::SearchDirectionTooSmall;
}

namespace {

Status map_status(Ipopt::SolverReturn r) {
  switch (r) {
    case Ipopt::SUCCESS: return Status::Success;
    case Ipopt::STOP_AT_ACCEPTABLE_POINT: return Status::Acceptable;
    case Ipopt::STOP_AT_TINY_STEP: return Status::SearchDirectionTooSmall;
    case Ipopt::FEASIBLE_POINT_FOUND: return Status::FeasiblePointFound;
    case Ipopt::LOCAL_INFEASIBILITY: return Status::Infeasible;
    case Ipopt::DIVERGING_ITERATES: return Status::Diverging;
    case Ipopt::USER_REQUESTED_STOP: return Status::UserStop;
    case Ipopt::MAXITER_EXCEEDED: return Status::MaxIterations;
    case Ipopt::CPUTIME_EXCEEDED: return Status::MaxTime;
    case Ipopt::RESTORATION_FAILURE: return Status::RestorationFailed;
    case Ipopt::ERROR_IN_STEP_COMPUTATION: return Status::ErrorInStepComputation;
    case Ipopt::TOO_FEW_DEGREES_OF_FREEDOM: return Status::NotEnoughDegreesOfFreedom;
    case Ipopt::INVALID_NUMBER_DETECTED: return Status::InvalidNumber;
    case Ipopt::INVALID_OPTION: return Status::InvalidOption;
    default: return Status::InternalError;
  }
}

Status map_application_status(Ipopt::ApplicationReturnStatus r) {
  switch (r) {
    case Ipopt::Solve_Succeeded: return Status::Success;
    case Ipopt::Solved_To_Acceptable_Level: return Status::Acceptable;
    case Ipopt::Search_Direction_Becomes_Too_Small: return Status::SearchDirectionTooSmall;
    case Ipopt::Feasible_Point_Found: return Status::FeasiblePointFound;
    case Ipopt::Infeasible_Problem_Detected: return Status::Infeasible;
    case Ipopt::Diverging_Iterates: return Status::Diverging;
    case Ipopt::User_Requested_Stop: return Status::UserStop;
    case Ipopt::Maximum_Iterations_Exceeded: return Status::MaxIterations;
    case Ipopt::Maximum_CpuTime_Exceeded: return Status::MaxTime;
    case Ipopt::Restoration_Failed: return Status::RestorationFailed;
    case Ipopt::Error_In_Step_Computation: return Status::ErrorInStepComputation;
    case Ipopt::Not_Enough_Degrees_Of_Freedom: return Status::NotEnoughDegreesOfFreedom;
    case Ipopt::Invalid_Problem_Definition: return Status::InvalidProblem;
    case Ipopt::Invalid_Option: return Status::InvalidOption;
    case Ipopt::Invalid_Number_Detected: return Status::InvalidNumber;
    default: return Status::InternalError;
  }
}

class Adapter : public Ipopt::TNLP {
 public:
  Adapter(const Problem& p, const std::vector<double>& w0, const Multipliers* warm, SolveResult& result)
      : p_(p), w0_(w0), warm_(warm), result_(result), ws_(p.make_workspace()) {
    grad_.resize(p.n_variables());
    jac_.resize(p.jacobian_nnz());
  }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag, IndexStyleEnum& style) override {
    n = static_cast<Index>(p_.n_variables());
    m = static_cast<Index>(p_.n_constraints());
    nnz_jac_g = static_cast<Index>(p_.jacobian_nnz());
    nnz_h_lag = static_cast<Index>(p_.hessian_nnz());
    style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l, Number* g_u) override {
    // IPOPT treats |bound| >= 1e19 as infinite.
    auto clip = [](double v) { return std::clamp(v, -1e20, 1e20); };
    for (Index i = 0; i < n; ++i) {
      x_l[i] = clip(p_.variable_lower()[static_cast<std::size_t>(i)]);
      x_u[i] = clip(p_.variable_upper()[static_cast<std::size_t>(i)]);
    }
    for (Index j = 0; j < m; ++j) {
      g_l[j] = clip(p_.constraint_lower()[static_cast<std::size_t>(j)]);
      g_u[j] = clip(p_.constraint_upper()[static_cast<std::size_t>(j)]);
    }
    return true;
  }

  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_L, Number* z_U, Index m,
                          bool init_lambda, Number* lambda) override {
    if (init_x) std::copy(w0_.begin(), w0_.begin() + n, x);
    if (init_z) {
      if (warm_ && warm_->z_lower.size() == static_cast<std::size_t>(n) &&
          warm_->z_upper.size() == static_cast<std::size_t>(n)) {
        std::copy(warm_->z_lower.begin(), warm_->z_lower.end(), z_L);
        std::copy(warm_->z_upper.begin(), warm_->z_upper.end(), z_U);
      } else {
        std::fill(z_L, z_L + n, 0.0);
        std::fill(z_U, z_U + n, 0.0);
      }
    }
    if (init_lambda) {
      if (warm_ && warm_->lambda_g.size() == static_cast<std::size_t>(m))
        std::copy(warm_->lambda_g.begin(), warm_->lambda_g.end(), lambda);
      else
        std::fill(lambda, lambda + m, 0.0);
    }
    return true;
  }

  bool eval_f(Index, const Number* x, bool new_x, Number& obj_value) override {
    if (new_x) first_valid_ = false;
    return guarded([&] { obj_value = p_.eval_f(x, *ws_); });
  }
  bool eval_grad_f(Index, const Number* x, bool new_x, Number* grad_f) override {
    return guarded([&] {
      refresh_first_derivatives(x, new_x);
      std::copy(grad_.begin(), grad_.end(), grad_f);
    });
  }
  bool eval_g(Index, const Number* x, bool new_x, Index, Number* g) override {
    if (new_x) first_valid_ = false;
    return guarded([&] { p_.eval_g(x, g, *ws_); });
  }
  bool eval_jac_g(Index, const Number* x, bool new_x, Index, Index nele_jac, Index* iRow, Index* jCol,
                  Number* values) override {
    return guarded([&] {
      if (values == nullptr) {
        const auto& r = p_.jacobian_rows();
        const auto& c = p_.jacobian_cols();
        for (Index k = 0; k < nele_jac; ++k) {
          iRow[k] = r[static_cast<std::size_t>(k)];
          jCol[k] = c[static_cast<std::size_t>(k)];
        }
      } else {
        refresh_first_derivatives(x, new_x);
        std::copy(jac_.begin(), jac_.end(), values);
      }
    });
  }
  bool eval_h(Index, const Number* x, bool new_x, Number obj_factor, Index, const Number* lambda, bool, Index nele_hess,
              Index* iRow, Index* jCol, Number* values) override {
    return guarded([&] {
      if (values == nullptr) {
        const auto& r = p_.hessian_rows();
        const auto& c = p_.hessian_cols();
        for (Index k = 0; k < nele_hess; ++k) {
          iRow[k] = r[static_cast<std::size_t>(k)];
          jCol[k] = c[static_cast<std::size_t>(k)];
        }
      } else {
        if (new_x) first_valid_ = false;
        p_.eval_hessian(x, obj_factor, lambda, values, *ws_);
      }
    });
  }

  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_L, const Number* z_U,
                         Index m, const Number*, const Number* lambda, Number obj_value,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    result_.status = map_status(status);
    result_.w.assign(x, x + n);
    result_.multipliers.z_lower.assign(z_L, z_L + n);
    result_.multipliers.z_upper.assign(z_U, z_U + n);
    result_.multipliers.lambda_g.assign(lambda, lambda + m);
    result_.objective = obj_value;
    finalized_ = true;
  }

  double evaluation_time() const { return eval_seconds_; }
  const std::string& error() const { return error_; }
  bool got_solution() const { return finalized_; }

 private:
  template <class F>
  bool guarded(F&& f) {
    auto t0 = Clock::now();
    try {
      f();
    } catch (const std::exception& e) {
      if (error_.empty()) error_ = e.what();
      return false;
    }
    eval_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
    return true;
  }
  // ∇f and the Jacobian come from one compiled function: compute both once per point. IPOPT
  // sets new_x only on the first callback at a new point, whichever callback that is.
  void refresh_first_derivatives(const Number* x, bool new_x) {
    if (new_x || !first_valid_) {
      p_.eval_grad_jac(x, grad_.data(), jac_.data(), *ws_);
      first_valid_ = true;
    }
  }

  const Problem& p_;
  const std::vector<double>& w0_;
  const Multipliers* warm_;
  SolveResult& result_;
  std::unique_ptr<Workspace> ws_;
  std::vector<double> grad_, jac_;
  bool first_valid_ = false;
  bool finalized_ = false;
  double eval_seconds_ = 0.0;
  std::string error_;
};

}  // namespace

struct IpoptSolver::Impl {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app;
};

IpoptSolver::IpoptSolver(const std::map<std::string, std::string>& options) : impl_(std::make_unique<Impl>()) {
  impl_->app = IpoptApplicationFactory();
  // Quiet by default: no banner, no iteration log (print_level may be raised by options).
  impl_->app->Options()->SetStringValue("sb", "yes");
  impl_->app->Options()->SetIntegerValue("print_level", 0);
  if (impl_->app->Initialize() != Ipopt::Solve_Succeeded) throw Error("IPOPT failed to initialize");
  for (const auto& [k, v] : options) set_option(k, v);
}

IpoptSolver::~IpoptSolver() = default;

void IpoptSolver::set_option(const std::string& name, const std::string& value) {
  char* end = nullptr;
  long iv = std::strtol(value.c_str(), &end, 10);
  if (!value.empty() && end && *end == '\0') {
    // An integer literal may still be meant for a numeric option (tol: 1): IPOPT knows the type.
    auto reg = impl_->app->RegOptions()->GetOption(name);
    if (IsValid(reg) && reg->Type() == Ipopt::OT_Number) return set_option(name, static_cast<double>(iv));
    return set_option(name, static_cast<int>(iv));
  }
  double dv = std::strtod(value.c_str(), &end);
  if (!value.empty() && end && *end == '\0') return set_option(name, dv);
  if (!impl_->app->Options()->SetStringValue(name, value))
    throw Error("IPOPT rejected option '" + name + "' = '" + value +
                "' (unknown option or invalid value; see IPOPT's option list)");
}

void IpoptSolver::set_option(const std::string& name, int value) {
  auto reg = impl_->app->RegOptions()->GetOption(name);
  bool ok = IsValid(reg) && reg->Type() == Ipopt::OT_Number
                ? impl_->app->Options()->SetNumericValue(name, value)
                : impl_->app->Options()->SetIntegerValue(name, value);
  if (!ok)
    throw Error("IPOPT rejected option '" + name + "' = " + std::to_string(value) +
                " (unknown option or invalid value)");
}

void IpoptSolver::set_option(const std::string& name, double value) {
  if (!impl_->app->Options()->SetNumericValue(name, value))
    throw Error("IPOPT rejected option '" + name + "' = " + std::to_string(value) +
                " (unknown option or invalid value)");
}

SolveResult IpoptSolver::solve(const Problem& problem, const std::vector<double>& w0, const Multipliers* warm) {
  if (!problem.finalized()) throw Error("IpoptSolver::solve: the problem is not finalized");
  if (w0.size() != problem.n_variables())
    throw Error("IpoptSolver::solve: start point has " + std::to_string(w0.size()) + " entries, problem has " +
                std::to_string(problem.n_variables()) + " variables");
  SolveResult result;
  auto opts = impl_->app->Options();
  opts->SetStringValue("warm_start_init_point", warm ? "yes" : "no");
  Ipopt::SmartPtr<Adapter> adapter = new Adapter(problem, w0, warm, result);
  auto t0 = Clock::now();
  Ipopt::ApplicationReturnStatus st = impl_->app->OptimizeTNLP(Ipopt::SmartPtr<Ipopt::TNLP>(GetRawPtr(adapter)));
  result.wall_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
  result.evaluation_time_s = adapter->evaluation_time();
  result.message = adapter->error();
  if (!adapter->got_solution()) {
    result.status = map_application_status(st);
    result.w = w0;
  }
  auto stats = impl_->app->Statistics();
  if (IsValid(stats)) {
    result.iterations = stats->IterationCount();
    Number obj, dinf, cviol, compl_, kkt;
    stats->Infeasibilities(dinf, cviol, compl_, kkt);
    (void)obj;
    result.constraint_violation = cviol;
    result.dual_infeasibility = dinf;
  }
  return result;
}

}  // namespace stasis::nlp
