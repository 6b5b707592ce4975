#pragma once
// Active-set polishing of an MPCC (internal to the mpcc layer).
//
// Once a relaxed NLP has (probably) identified which side of each pair 0 <= G_i ⟂ H_i >= 0 is
// zero, the MPCC restricted to that branch — the smaller side of every pair fixed at 0, the other
// side only >= 0 — is a smooth NLP without the relaxation's degenerate rows G_i H_i <= σ. Solving
// it from the relaxed solution gives a point with G_i H_i = 0 exactly (up to IPOPT's tolerance),
// which small σ often cannot: IPOPT's iterations grow without bound as σ → 0 on large problems.
// A KKT point of this branch NLP is a weakly stationary point of the MPCC.
//
// A side that is a single variable is fixed through its bounds. A side that is affine in the
// variables and >= 0 already by the bounds (e.g. Σ_m (1 − α_m) with α_m <= 1) is zero only with
// every variable at that bound, so those variables are fixed instead of adding an equality row
// whose only solutions lie on the boundary of IPOPT's interior. Any other side gets a row = 0.
#include <cstddef>
#include <string>
#include <vector>

#include "stasis/mpcc/problem.hpp"
#include "stasis/nlp/ipopt_solver.hpp"
#include "stasis/nlp/problem.hpp"

namespace stasis::mpcc::detail {

class Polisher {
 public:
  /// Builds and compiles the branch NLP once (rows for every side that is not a single variable).
  explicit Polisher(const Problem& problem);

  /// Solves the branch NLP selected at w: for each pair the side with the smaller value is fixed
  /// at zero. lower/upper are the MPCC variables' current bounds and parameters its parameter
  /// values (a caller may have changed both on the relaxed NLP since construction).
  /// Returns IPOPT's result (w has the MPCC's variables).
  nlp::SolveResult run(nlp::IpoptSolver& ipopt, const std::vector<double>& w, const std::vector<double>& lower,
                    const std::vector<double>& upper, const std::vector<double>& parameters);

 private:
  struct Side {
    int local_variable = -1;  ///< the side is this local variable
    int row = -1;             ///< else its row within the kind's extra rows
    /// The side is affine with these (local variable, constant coefficient) terms.
    std::vector<std::pair<int, double>> affine;
    bool is_affine = false;
  };
  struct Kind {
    std::size_t n_model_rows = 0;
    std::vector<Side> sides;  ///< 2 per pair: G_i at 2i, H_i at 2i + 1
    std::vector<double> free_lower, free_upper;  ///< bounds of the extra rows when not fixed
  };
  const Problem& problem_;
  nlp::Problem nlp_;
  std::vector<Kind> kinds_;
  std::vector<Index> first_row_;  ///< global first row of each block instance
};

}  // namespace stasis::mpcc::detail
