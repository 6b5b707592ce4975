#pragma once
// sym::Matrix — a small dense row-major matrix of Expr (mass matrices, Jacobians, rotations).
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "stasis/sym/expr.hpp"

namespace stasis::sym {

class Matrix {
 public:
  Matrix() = default;
  Matrix(std::size_t rows, std::size_t cols, const Expr& fill = Expr(0.0));
  /// Row-wise literal: Matrix{{a, b}, {c, d}}.
  Matrix(std::initializer_list<std::initializer_list<Expr>> rows);
  /// Column vector.
  static Matrix column(const Vector& v);
  static Matrix row(const Vector& v);
  static Matrix identity(std::size_t n);
  static Matrix zeros(std::size_t rows, std::size_t cols);
  static Matrix diagonal(const Vector& d);

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  std::size_t size() const { return data_.size(); }
  Expr& operator()(std::size_t i, std::size_t j) { return data_[i * cols_ + j]; }
  const Expr& operator()(std::size_t i, std::size_t j) const { return data_[i * cols_ + j]; }

  Matrix transpose() const;
  Vector col(std::size_t j) const;
  Vector row_vector(std::size_t i) const;
  /// All entries, row-major.
  const Vector& entries() const { return data_; }
  /// Entries of a column or row vector as a Vector (throws if not a vector).
  Vector as_vector() const;
  bool is_square() const { return rows_ == cols_; }

 private:
  std::size_t rows_ = 0, cols_ = 0;
  Vector data_;
};

Matrix operator+(const Matrix& a, const Matrix& b);
Matrix operator-(const Matrix& a, const Matrix& b);
Matrix operator*(const Matrix& a, const Matrix& b);
Matrix operator*(const Expr& s, const Matrix& a);
Vector operator*(const Matrix& a, const Vector& v);

Vector operator+(const Vector& a, const Vector& b);
Vector operator-(const Vector& a, const Vector& b);
Vector operator*(const Expr& s, const Vector& v);
Expr dot(const Vector& a, const Vector& b);
/// Concatenate vectors.
Vector vertcat(const std::vector<Vector>& parts);

/// Solve A X = B for symmetric positive definite A by an unpivoted Cholesky factorization
/// (A = L Lᵀ). No pivoting means the expression graph does not depend on values; the caller is
/// responsible for A being SPD where it is evaluated (model validation checks it at x0).
Matrix solve_spd(const Matrix& A, const Matrix& B);
Vector solve_spd(const Matrix& A, const Vector& b);
/// Lower Cholesky factor L with A = L Lᵀ (unpivoted).
Matrix cholesky(const Matrix& A);

}  // namespace stasis::sym
