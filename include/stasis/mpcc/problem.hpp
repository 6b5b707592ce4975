#pragma once
// mpcc::Problem — an NLP plus complementarity pairs 0 <= G_i(w) ⟂ H_i(w) >= 0 (fesd.md §5.1).
//
// Built from blocks like nlp::Problem; a block kind may carry complementarity pairs next to its
// objective term and constraint rows. The homotopy solver turns each kind into a relaxed NLP
// block kind once (σ is a runtime parameter), so the solve loop never recompiles.
#include <string>
#include <vector>

#include "stasis/nlp/problem.hpp"
#include "stasis/sym/expr.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::mpcc {

using nlp::Index;
using nlp::kInf;

struct BlockModel {
  std::string name;
  sym::Vector variables;
  sym::Vector parameters;
  sym::Expr objective{0.0};
  sym::Vector constraints;
  std::vector<std::string> constraint_names;
  sym::Vector G, H;                     ///< pairs 0 <= G_i ⟂ H_i >= 0
  std::vector<std::string> pair_names;  ///< optional, for messages
  /// G >= 0 and H >= 0 already follow from variable bounds (nosnoc's assume_lower_bounds, true
  /// for FESD-generated pairs): no extra rows are added. Otherwise a G_i (H_i) that is a single
  /// variable gets lower bound 0 and any other gets a row G_i >= 0 (fesd.md §5.1).
  bool nonnegativity_implied = false;
  /// The objective of this block is a term the method adds (step equilibration, regularization),
  /// not part of the user's objective: Problem::objective() leaves it out.
  bool objective_is_regularization = false;
};

/// A block kind as the homotopy needs it: the symbolic model plus a compiled function
/// (w, p) -> (f, G, H) for the true objective and the complementarity residual.
struct CompiledKind {
  BlockModel model;
  sym::Function evaluate;
};

struct BlockInstance {
  int kind;
  std::vector<Index> variables, parameters;
  std::vector<double> row_lower, row_upper;
  std::string label;
};

/// One complementarity pair at a point: where it is (the block's label) and what it is (the block
/// kind's pair name), with its values.
struct PairValue {
  std::string block;  ///< BlockInstance::label (or "block N")
  std::string pair;   ///< BlockModel::pair_names entry (or "pair N")
  double G = 0.0, H = 0.0;
  double product() const { return G * H; }
};

/// A row or a variable bound at a point outside its bounds: where it is (the block's label, or
/// "variables" for a bound), what it is (the block kind's constraint name, G/H >= 0 of a pair, or
/// the variable's name), its value and bounds.
struct ViolationValue {
  std::string block;
  std::string what;
  double value = 0.0, lower = 0.0, upper = 0.0;
  double violation() const;
};

class Problem {
 public:
  Index add_variables(const std::string& name, std::size_t n, double lower = -kInf, double upper = kInf,
                      double start = 0.0);
  Index add_variable(const std::string& name, double lower = -kInf, double upper = kInf, double start = 0.0);
  Index add_parameter(const std::string& name, double value);
  int add_block_kind(const BlockModel& model);
  /// Rows get [row_lower, row_upper] (empty = equalities). Returns the instance number.
  int add_block(int kind, const std::vector<Index>& variables, const std::vector<Index>& parameters = {},
                const std::vector<double>& row_lower = {}, const std::vector<double>& row_upper = {},
                const std::string& label = "");

  std::size_t n_variables() const { return lower_.size(); }
  std::size_t n_parameters() const { return parameter_values_.size(); }
  std::size_t n_constraints() const;
  std::size_t n_pairs() const;

  std::vector<std::string> variable_names;
  std::vector<std::string> parameter_names;
  std::vector<double>& lower() { return lower_; }
  std::vector<double>& upper() { return upper_; }
  std::vector<double>& start() { return start_; }
  std::vector<double>& parameter_values() { return parameter_values_; }
  const std::vector<double>& lower() const { return lower_; }
  const std::vector<double>& upper() const { return upper_; }
  const std::vector<double>& start() const { return start_; }
  const std::vector<double>& parameter_values() const { return parameter_values_; }
  const std::vector<CompiledKind>& kinds() const { return kinds_; }
  const std::vector<BlockInstance>& blocks() const { return blocks_; }

  /// The problem's own objective (no relaxation or penalty terms) at w, with the given
  /// parameter values (default: parameter_values()).
  double objective(const std::vector<double>& w, const std::vector<double>* parameters = nullptr) const;
  /// max_i G_i(w) H_i(w) over all pairs (0 if there are none) — fesd.md §5.6.
  double complementarity_residual(const std::vector<double>& w,
                                  const std::vector<double>* parameters = nullptr) const;
  /// All G and H values at w, in block order.
  void pair_values(const std::vector<double>& w, std::vector<double>& G, std::vector<double>& H,
                   const std::vector<double>* parameters = nullptr) const;
  /// The `count` pairs with the largest products G·H > 0 at w, largest first: which pairs keep a
  /// homotopy's residual up (reported when it does not converge).
  std::vector<PairValue> largest_products(const std::vector<double>& w, std::size_t count,
                                          const std::vector<double>* parameters = nullptr) const;
  /// The `count` rows, pair sides (G, H >= 0) and variable bounds violated most at w, largest
  /// first: what keeps a failed step infeasible (reported with its last iterate). Compiles the
  /// rows of every block kind on each call: a diagnosis, not for evaluation loops.
  std::vector<ViolationValue> largest_violations(const std::vector<double>& w, std::size_t count,
                                                 const std::vector<double>* parameters = nullptr) const;

 private:
  std::vector<double> lower_, upper_, start_, parameter_values_;
  std::vector<CompiledKind> kinds_;
  std::vector<BlockInstance> blocks_;
};

}  // namespace stasis::mpcc
