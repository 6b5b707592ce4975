#pragma once
// nlp::IpoptSolver — solves an nlp::Problem with IPOPT through its TNLP interface: exact
// Jacobian and Lagrangian Hessian, primal and (optionally) dual warm start, any IPOPT option.
// IPOPT's headers stay out of this header so that users need not have them on their include path.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "stasis/nlp/problem.hpp"

namespace stasis::nlp {

/// IPOPT's return status, mapped to our own enum.
enum class Status {
  Success,                    ///< Solve_Succeeded
  Acceptable,                 ///< Solved_To_Acceptable_Level
  SearchDirectionTooSmall,    ///< Search_Direction_Becomes_Too_Small
  FeasiblePointFound,         ///< Feasible_Point_Found
  Infeasible,                 ///< Infeasible_Problem_Detected
  Diverging,                  ///< Diverging_Iterates
  UserStop,                   ///< User_Requested_Stop
  MaxIterations,              ///< Maximum_Iterations_Exceeded
  MaxTime,                    ///< Maximum_CpuTime_Exceeded / Maximum_WallTime_Exceeded
  RestorationFailed,          ///< Restoration_Failed
  ErrorInStepComputation,     ///< Error_In_Step_Computation
  NotEnoughDegreesOfFreedom,  ///< Not_Enough_Degrees_Of_Freedom
  InvalidProblem,             ///< Invalid_Problem_Definition
  InvalidOption,              ///< Invalid_Option
  InvalidNumber,              ///< Invalid_Number_Detected (NaN/Inf in a function evaluation)
  InternalError,              ///< any other IPOPT failure
};
/// IPOPT's own name for the status ("Solve_Succeeded", ...).
const char* to_string(Status s);
/// The statuses the homotopy accepts as a successful step (fesd.md §5.4).
bool is_success(Status s);

struct Multipliers {
  std::vector<double> lambda_g, z_lower, z_upper;
};

struct SolveResult {
  Status status = Status::InternalError;
  std::vector<double> w;
  Multipliers multipliers;
  double objective = 0.0;
  int iterations = 0;
  double wall_time_s = 0.0;        ///< whole IPOPT call
  double evaluation_time_s = 0.0;  ///< spent in our function/derivative callbacks
  double constraint_violation = 0.0;
  double dual_infeasibility = 0.0;
  std::string message;  ///< extra detail (e.g. an exception raised during evaluation)
};

class IpoptSolver {
 public:
  /// Options are IPOPT option names with text values; a value that parses fully as an integer is
  /// set as an integer, else as a number if it parses as one, else as a string.
  explicit IpoptSolver(const std::map<std::string, std::string>& options = {});
  ~IpoptSolver();
  IpoptSolver(const IpoptSolver&) = delete;
  IpoptSolver& operator=(const IpoptSolver&) = delete;

  /// Throws stasis::Error if IPOPT does not know the option or rejects the value.
  void set_option(const std::string& name, const std::string& value);
  void set_option(const std::string& name, int value);
  void set_option(const std::string& name, double value);

  /// Solves from w0 (and the given multipliers when warm is non-null: IPOPT's
  /// warm_start_init_point is switched on for this call). The problem must be finalized.
  SolveResult solve(const Problem& problem, const std::vector<double>& w0, const Multipliers* warm = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stasis::nlp
