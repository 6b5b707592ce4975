#pragma once
// Options of the MPCC homotopy solver (fesd.md §5). Plain struct with validated, documented
// defaults (nosnoc M-new defaults unless stated); option_table() is the one place that lists every
// option with its meaning, used by the file reader, the CLI and the generated docs.
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace stasis::mpcc {

enum class Relaxation {
  ScholtesIneq,  ///< G_i H_i - σ <= 0 (default)
  ScholtesEq,    ///< G_i H_i - σ == 0
  Ell1Penalty,   ///< no rows; objective + (1/σ) Σ G_i H_i
};
enum class Steering {
  Direct,  ///< σ is the homotopy parameter itself (default)
  EllInf,  ///< one elastic variable s in [s_min, s_max], rows ψ(G_i, H_i, s), objective + s/σ
  Ell1,    ///< one elastic variable per pair, objective + Σ s_i / σ
};
enum class SigmaUpdate { Linear, Superlinear };

struct HomotopyOptions {
  Relaxation relaxation = Relaxation::ScholtesIneq;
  Steering steering = Steering::Direct;
  double sigma0 = 1.0;                 ///< initial relaxation parameter
  double kappa = 0.1;                  ///< σ ← κσ (linear update)
  /// Linear by default. Superlinear needs 0.6–0.7x the NLP solves on the benchmark problems
  /// (docs/benchmarks.md) but failed on 3 of the ~500 option-sweep cases and on one start of R3,
  /// whose final σ jump is too large; it is an option, not the default.
  SigmaUpdate update = SigmaUpdate::Linear;
  double exponent = 1.5;               ///< superlinear update: σ ← max(σ_N, min(κσ, σ^exponent))
  double complementarity_tol = 1e-9;   ///< stop when max_i G_i H_i <= this
  double sigma_final = 1e-9;           ///< σ_N (effective value min(0.1·tol, σ_N))
  int max_steps = 0;                   ///< 0 = ceil(|log(σ_N/σ0)/log κ|)
  double elastic_min = 0.0;            ///< bounds and start of the elastic variables (steering ell_inf/ell_1)
  double elastic_max = 10.0;
  double elastic_start = 1.0;
  bool objective_scaling_direct = true;  ///< steering objective f + s/σ (true) or σ f + s (false)
  bool warm_start_duals = false;       ///< pass the previous step's multipliers to IPOPT
  /// Without warm_start_duals: each step after the first is tried first from the previous step's
  /// multipliers with at most this many IPOPT iterations, and only if that fails from zero
  /// multipliers with max_iter (0 = no such first try). A try that runs out of its budget goes on
  /// from where it stopped (its iterate and multipliers) with the rest of max_iter before the
  /// start from zero multipliers. Near σ = 0 a step from zero multipliers
  /// can run to max_iter where the previous multipliers solve it in a few hundred iterations
  /// (docs/hopper-experiments.md, session 29), while from the start of a homotopy they can lead
  /// elsewhere (warm_start_duals on every step); a small budget keeps the cheap case and bounds the
  /// cost of the other. Phase 1 of an OCP's initialization does not use it.
  int warm_first_iter = 0;
  std::string linear_solver = "mumps"; ///< IPOPT linear solver (mumps; ma27/ma57/... if HSL is installed)
  int max_iter = 500;                  ///< IPOPT iterations per homotopy step
  double tol = 1e-12;                  ///< IPOPT tol, dual_inf_tol and compl_inf_tol
  double acceptable_tol = 1e-6;        ///< IPOPT acceptable_tol
  double timeout_s = 0.0;              ///< wall-time limit of the whole homotopy (0 = none)
  /// Active-set polishing: after a successful step whose residual is at most polish_threshold
  /// (and above complementarity_tol), solve the MPCC restricted to the branch that step
  /// identifies (the smaller side of every pair fixed at 0). If that NLP succeeds with the
  /// residual below tolerance, the homotopy stops there; else it goes on from the step's point.
  bool polish = false;
  double polish_threshold = 1e-3;
  /// ℓ1-penalty finish: after a successful step whose residual is at most
  /// penalty_finish_threshold (and above complementarity_tol), go on from that step's point with
  /// the ℓ1 penalty (objective + Σ G·H / σ_p, no complementarity rows), σ_p from
  /// penalty_finish_sigma0 (0: the σ of the step it starts from, i.e. the same weight 1/σ as that
  /// step's relaxation) by kappa down to the final σ. If that reaches the tolerance the
  /// homotopy stops there; else it goes on with its own relaxation from the step's point. For
  /// problems whose relaxed NLPs become too degenerate to solve near σ = 0 (examples/hopper.yaml).
  bool penalty_finish = false;
  double penalty_finish_threshold = 1e-8;
  double penalty_finish_sigma0 = 1e-2;
  std::string preset = "default";      ///< default | nosnoc
  int print_level = 0;                 ///< IPOPT print_level (the CLI's --verbose sets 5)
  /// Any further IPOPT option, passed verbatim (value parsed as int, then double, else string).
  std::map<std::string, std::string> ipopt;

  /// Throws stasis::Error naming the option if a value is out of range.
  void validate() const;
};

/// One documented option: name (as in problem files), default (as text), meaning, and a setter
/// that parses a text value and throws stasis::Error with the allowed values when it is invalid.
struct OptionInfo {
  std::string name;
  std::string default_value;
  std::string description;
  std::function<void(HomotopyOptions&, const std::string&)> set;
};
const std::vector<OptionInfo>& option_table();

/// Set an option by name from text (throws stasis::Error for an unknown name, listing valid
/// names, or an invalid value). "ipopt.NAME" sets an IPOPT option.
void set_option(HomotopyOptions& options, const std::string& name, const std::string& value);

/// Apply a preset: "nosnoc" reproduces nosnoc's homotopy and IPOPT settings exactly
/// (fesd.md §5.4–5.5); "default" is stasis's own.
void apply_preset(HomotopyOptions& options, const std::string& preset);

const char* to_string(Relaxation r);
const char* to_string(Steering s);
const char* to_string(SigmaUpdate u);

}  // namespace stasis::mpcc
