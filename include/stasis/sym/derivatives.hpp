#pragma once
// Symbolic differentiation: reverse mode on the expression graph. The results are ordinary
// expressions, so they can be differentiated again (nested differentiation) and compiled.
#include <cstddef>
#include <vector>

#include "stasis/sym/expr.hpp"
#include "stasis/sym/matrix.hpp"

namespace stasis::sym {

/// A sparse matrix of expressions in triplet form, sorted by (row, col); only structurally
/// non-zero entries are stored (entries whose derivative expression is not the constant 0).
struct SparseMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<int> row, col;
  Vector values;
  std::size_t nnz() const { return values.size(); }
  /// Dense copy (zeros filled in).
  Matrix dense() const;
};

/// ∂f/∂x for scalar f; x must be symbols.
Vector gradient(const Expr& f, const Vector& x);
/// Dense Jacobian ∂f/∂x (f.size() × x.size()).
Matrix jacobian(const Vector& f, const Vector& x);
/// Sparse Jacobian with exact structural sparsity.
SparseMatrix jacobian_sparse(const Vector& f, const Vector& x);
/// Lower triangle (row >= col) of the Hessian of Σ_i weights[i]·f[i] with respect to x.
SparseMatrix hessian_lower(const Vector& f, const Vector& weights, const Vector& x);
/// Lower triangle of the Hessian of a scalar.
SparseMatrix hessian_lower(const Expr& f, const Vector& x);
/// Dense Hessian of a scalar.
Matrix hessian(const Expr& f, const Vector& x);

}  // namespace stasis::sym
