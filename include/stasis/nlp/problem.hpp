#pragma once
// nlp::Problem — a smooth NLP  min f(w; p)  s.t.  lbw <= w <= ubw,  lbg <= g(w; p) <= ubg
// assembled from blocks (ARCHITECTURE.md, decision 2).
//
// A block kind is a symbolic model (local variables, local parameters, an objective term and
// constraint rows) compiled once into three sym::Functions: values, first derivatives, and the
// lower-triangular Hessian of the block Lagrangian. A block instance maps the kind's local
// variables and parameters to global indices and owns a contiguous range of constraint rows.
// Every instance of a kind shares the compiled code. The global Jacobian and Hessian patterns are
// the unions of the instance patterns, built once by finalize(); evaluation scatters block values
// into preallocated arrays and never allocates.
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::nlp {

using Index = int;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// Symbolic definition of a block kind.
struct BlockModel {
  std::string name;
  sym::Vector variables;       ///< local variables (distinct symbols)
  sym::Vector parameters;      ///< local runtime parameters (distinct symbols)
  sym::Expr objective{0.0};    ///< contribution to f
  sym::Vector constraints;     ///< constraint rows g
  std::vector<std::string> constraint_names;  ///< optional, for messages (one per row)
};

/// A compiled block kind (immutable, shared by its instances).
struct BlockKind {
  std::string name;
  std::size_t n_variables = 0, n_parameters = 0, n_constraints = 0;
  bool has_objective = false;
  std::vector<std::string> constraint_names;
  sym::Function values;       ///< (w, p) -> (f, g)
  sym::Function derivatives;  ///< (w, p) -> (∇f nonzeros, ∂g/∂w nonzeros)
  sym::Function hessian;      ///< (w, p, [σ_f, λ]) -> lower-triangle nonzeros of ∇²(σ_f f + λᵀg)
  std::vector<int> grad_index;                 ///< local variable of each ∇f nonzero
  std::vector<int> jac_row, jac_col;           ///< local (row, variable) of each ∂g/∂w nonzero
  std::vector<int> hess_row, hess_col;         ///< local (variable, variable), row >= col
  sym::Vector symbolic_objective;              ///< {f}
  sym::Vector symbolic_constraints;            ///< g
  sym::Vector variable_symbols, parameter_symbols;
};

/// Per-evaluation scratch memory (Crocoddyl's "data"): one per thread that evaluates.
struct Workspace {
  std::vector<double> work, local_w, local_p, local_mult, out_f, out_g, out_grad, out_jac, out_hess;
};

class Problem {
 public:
  Problem();
  ~Problem();
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;
  Problem(Problem&&) noexcept;
  Problem& operator=(Problem&&) noexcept;

  // ---- building ------------------------------------------------------------------------------
  /// Adds n variables named name[0..n-1] (or `name` when n == 1); returns the first index.
  Index add_variables(const std::string& name, std::size_t n, double lower = -kInf, double upper = kInf,
                      double start = 0.0);
  Index add_variable(const std::string& name, double lower = -kInf, double upper = kInf, double start = 0.0);
  /// Adds a runtime parameter; returns its index.
  Index add_parameter(const std::string& name, double value);
  /// Compiles a block kind; returns its id.
  int add_block_kind(const BlockModel& model);
  const BlockKind& block_kind(int kind) const;
  /// Adds an instance of `kind`: its variables map to `variables`, its parameters to
  /// `parameters`; its rows get the given bounds (empty = equality rows, 0 <= g <= 0). Returns the
  /// first global row of the instance.
  Index add_block(int kind, const std::vector<Index>& variables, const std::vector<Index>& parameters = {},
                  const std::vector<double>& row_lower = {}, const std::vector<double>& row_upper = {},
                  const std::string& label = "");
  /// Builds the global sparsity patterns and workspaces. No blocks may be added afterwards.
  void finalize();
  bool finalized() const;

  // ---- sizes, bounds, names ------------------------------------------------------------------
  std::size_t n_variables() const;
  std::size_t n_constraints() const;
  std::size_t n_parameters() const;
  std::size_t n_blocks() const;
  const std::string& variable_name(Index i) const;
  const std::string& parameter_name(Index i) const;
  /// "block label (kind name), row k: constraint name" for messages.
  std::string constraint_description(Index row) const;
  /// The row's name without its position: "block label (kind name): constraint name" ("row k"
  /// for an unnamed row). Rows keep it when rows elsewhere are added or removed, so multipliers
  /// of a changed problem can be matched by it (io::match_multipliers); it need not be unique.
  std::string constraint_key(Index row) const;
  std::vector<double>& variable_lower();
  std::vector<double>& variable_upper();
  std::vector<double>& start();
  std::vector<double>& constraint_lower();
  std::vector<double>& constraint_upper();
  const std::vector<double>& variable_lower() const;
  const std::vector<double>& variable_upper() const;
  const std::vector<double>& start() const;
  const std::vector<double>& constraint_lower() const;
  const std::vector<double>& constraint_upper() const;
  std::vector<double>& parameters();
  const std::vector<double>& parameters() const;
  void set_parameter(Index i, double value);

  /// Throws stasis::Error naming the first variable or row whose bounds are inconsistent
  /// (lower > upper, NaN) or whose start value is not finite.
  void check_bounds() const;
  /// Throws stasis::Error naming the objective term or constraint row that is NaN/Inf at w.
  void check_finite_at(const double* w) const;

  // ---- evaluation (after finalize; no allocation) --------------------------------------------
  std::unique_ptr<Workspace> make_workspace() const;
  /// f(w) and g(w) together.
  double eval_f_g(const double* w, double* g, Workspace& ws) const;
  double eval_f(const double* w, Workspace& ws) const;
  void eval_g(const double* w, double* g, Workspace& ws) const;
  /// ∇f(w) (dense, length n_variables) and the Jacobian values (jacobian_nnz()) together.
  void eval_grad_jac(const double* w, double* grad, double* jac_values, Workspace& ws) const;
  std::size_t jacobian_nnz() const;
  const std::vector<Index>& jacobian_rows() const;
  const std::vector<Index>& jacobian_cols() const;
  /// Lower triangle of ∇²(obj_factor f + Σ λ_i g_i).
  void eval_hessian(const double* w, double obj_factor, const double* lambda, double* hess_values,
                    Workspace& ws) const;
  std::size_t hessian_nnz() const;
  const std::vector<Index>& hessian_rows() const;
  const std::vector<Index>& hessian_cols() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Makes repeated keys unique: the second "k" becomes "k #2", the third "k #3", ...; so rows
/// matched by key (match_keys) pair a repeated key's rows in order. For Problem::constraint_key
/// lists, whose keys repeat for equal blocks.
std::vector<std::string> numbered_keys(std::vector<std::string> keys);
/// For each key of `to`, the position of the same key in `from`, or -1 if it has none (keys
/// unique, e.g. numbered_keys).
std::vector<std::ptrdiff_t> match_keys(const std::vector<std::string>& from, const std::vector<std::string>& to);

}  // namespace stasis::nlp
