#pragma once
// mpcc::Homotopy — solves an MPCC as a sequence of relaxed smooth NLPs with IPOPT while σ → 0,
// until the complementarity residual max_i G_i H_i is below tolerance (fesd.md §5.2–§5.4).
//
// The relaxed NLP is built and compiled once at construction; σ, 1/σ and the objective scaling
// are runtime parameters. The solver can be re-solved with new bounds, start point or
// parameters (e.g. a new x0 in MPC or the next simulation step) without rebuilding.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stasis/mpcc/options.hpp"
#include "stasis/mpcc/problem.hpp"
#include "stasis/nlp/ipopt_solver.hpp"
#include "stasis/nlp/problem.hpp"

namespace stasis::mpcc {

/// One homotopy step.
struct StepStats {
  int step = 0;
  double sigma = 0.0;
  double residual = 0.0;      ///< max_i G_i H_i after the step
  double objective = 0.0;     ///< the problem's own objective after the step
  int iterations = 0;         ///< IPOPT iterations of the step
  nlp::Status status = nlp::Status::InternalError;
  double wall_time_s = 0.0;
  double evaluation_time_s = 0.0;  ///< share spent evaluating functions and derivatives
  double constraint_violation = 0.0;
  bool polish = false;  ///< a polishing solve (HomotopyOptions::polish), not a relaxed NLP; σ is 0
  /// A step of the ℓ1-penalty finish (HomotopyOptions::penalty_finish); σ is its σ_p.
  bool penalty = false;
  /// A step of a phase-1 initialization homotopy (set by the caller that runs it, e.g. ocp::Solver).
  bool initialization = false;
  /// A relaxed NLP that failed: the rows and bounds violated most (by more than
  /// Result::kShownViolation) where IPOPT stopped, at most Result::kLargestViolations, largest
  /// first — what kept the step infeasible. Empty for a successful step.
  std::vector<ViolationValue> largest_violations;
};

struct Result {
  bool converged = false;
  std::string message;
  std::vector<double> w;  ///< the MPCC's variables (elastic variables removed)
  /// The MPCC's variables as the last relaxed NLP returned them: = w unless that NLP failed (then
  /// w is the last good iterate, or the start point, and this is where IPOPT stopped — what a
  /// diagnosis of the failure should look at).
  std::vector<double> last_iterate;
  double objective = 0.0;
  double residual = 0.0;
  double initial_residual = 0.0;
  int nlp_iterations = 0;
  int nlp_solves = 0;
  double wall_time_s = 0.0;
  double evaluation_time_s = 0.0;
  nlp::Status last_status = nlp::Status::InternalError;
  std::vector<StepStats> steps;
  nlp::Multipliers multipliers;  ///< of the last relaxed NLP (for warm starts)
  /// Index in steps of the relaxed NLP whose multipliers these are (its σ goes with them); -1 if
  /// none.
  int multipliers_step = -1;
  /// solve() was given multipliers (duals0) and the first step started from them.
  bool duals0_used = false;
  bool polished = false;  ///< w comes from a successful polishing solve
  bool penalty_finished = false;  ///< w comes from a converged ℓ1-penalty finish
  /// Not converged: the pairs with the largest products at w (at most kLargestPairs, largest
  /// first), i.e. where the residual sits; empty when converged.
  std::vector<PairValue> largest_pairs;
  static constexpr std::size_t kLargestPairs = 5;
  /// The last NLP failed: its StepStats::largest_violations (at last_iterate).
  std::vector<ViolationValue> largest_violations;
  static constexpr std::size_t kLargestViolations = 5;
  static constexpr double kShownViolation = 1e-8;
};

class Homotopy {
 public:
  Homotopy(const Problem& problem, const HomotopyOptions& options = {});
  ~Homotopy();

  /// Called after every homotopy step (progress lines).
  std::function<void(const StepStats&)> on_step;
  /// Called after every relaxed NLP that solved (not after polishing or penalty-finish solves),
  /// after on_step, with that step, the MPCC point it reached (as Result::w) and the relaxed NLP's
  /// multipliers (as Result::multipliers): a checkpoint from which solve(w, step.sigma,
  /// &multipliers) resumes, e.g. after a long run was stopped.
  std::function<void(const StepStats&, const std::vector<double>& w, const nlp::Multipliers& multipliers)>
      on_checkpoint;

  /// Solve from the problem's start point (or from w0, of length n_variables of the MPCC).
  Result solve();
  Result solve(const std::vector<double>& w0);
  /// The same from σ0 = sigma0 instead of options().sigma0 (a start point that already holds the
  /// switch structure, which a first relaxed NLP at a large σ would relax away).
  Result solve(const std::vector<double>& w0, double sigma0);
  /// The same, with the multipliers of an earlier solve of this relaxed NLP (Result::multipliers)
  /// for the first step: IPOPT's warm start with bound pushes of 1e-9 instead of 1e-3 (unless
  /// options().ipopt sets them), so that a converged point is not pushed off its active bounds.
  /// Multipliers of another size (another NLP) are ignored; Result::duals0_used says whether they
  /// were used.
  Result solve(const std::vector<double>& w0, double sigma0, const nlp::Multipliers* duals0);

  /// The relaxed NLP: its first n_variables() variables and first n_parameters() parameters are
  /// the MPCC's, so bounds, start values and parameters can be changed between solves.
  nlp::Problem& relaxed();
  const Problem& problem() const { return problem_; }
  const HomotopyOptions& options() const { return options_; }
  /// Number of homotopy steps the loop may take (fesd.md §5.4, N_homotopy).
  int max_steps() const;
  int max_steps(double sigma0) const;
  /// The effective final σ: min(0.1·complementarity_tol, sigma_final).
  double sigma_final() const;

 private:
  struct Impl;
  const Problem& problem_;
  HomotopyOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stasis::mpcc
