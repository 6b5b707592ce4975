// Dense matrices of expressions and the unpivoted symbolic Cholesky solve.
#include "stasis/sym/matrix.hpp"

#include <string>

#include "stasis/error.hpp"

namespace stasis::sym {

namespace {
std::string dims(const Matrix& m) { return std::to_string(m.rows()) + "x" + std::to_string(m.cols()); }
}  // namespace

Matrix::Matrix(std::size_t rows, std::size_t cols, const Expr& fill)
    : rows_(rows), cols_(cols), data_(rows * cols, fill) {}

Matrix::Matrix(std::initializer_list<std::initializer_list<Expr>> rows) {
  rows_ = rows.size();
  cols_ = rows_ ? rows.begin()->size() : 0;
  for (const auto& r : rows) {
    if (r.size() != cols_) throw Error("sym::Matrix: rows of different lengths in a matrix literal");
    data_.insert(data_.end(), r.begin(), r.end());
  }
}

Matrix Matrix::column(const Vector& v) {
  Matrix m(v.size(), 1);
  m.data_ = v;
  return m;
}
Matrix Matrix::row(const Vector& v) {
  Matrix m(1, v.size());
  m.data_ = v;
  return m;
}
Matrix Matrix::identity(std::size_t n) {
  Matrix m(n, n);
  for (std::size_t i = 0; i < n; ++i) m(i, i) = Expr(1.0);
  return m;
}
Matrix Matrix::zeros(std::size_t rows, std::size_t cols) { return Matrix(rows, cols); }
Matrix Matrix::diagonal(const Vector& d) {
  Matrix m(d.size(), d.size());
  for (std::size_t i = 0; i < d.size(); ++i) m(i, i) = d[i];
  return m;
}

Matrix Matrix::transpose() const {
  Matrix t(cols_, rows_);
  for (std::size_t i = 0; i < rows_; ++i)
    for (std::size_t j = 0; j < cols_; ++j) t(j, i) = (*this)(i, j);
  return t;
}
Vector Matrix::col(std::size_t j) const {
  Vector v(rows_);
  for (std::size_t i = 0; i < rows_; ++i) v[i] = (*this)(i, j);
  return v;
}
Vector Matrix::row_vector(std::size_t i) const {
  return Vector(data_.begin() + static_cast<std::ptrdiff_t>(i * cols_),
                data_.begin() + static_cast<std::ptrdiff_t>((i + 1) * cols_));
}
Vector Matrix::as_vector() const {
  if (rows_ != 1 && cols_ != 1) throw Error("sym::Matrix: " + dims(*this) + " matrix is not a vector");
  return data_;
}

Matrix operator+(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw Error("sym::Matrix: cannot add " + dims(a) + " and " + dims(b));
  Matrix r(a.rows(), a.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) r(i, j) = a(i, j) + b(i, j);
  return r;
}
Matrix operator-(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw Error("sym::Matrix: cannot subtract " + dims(b) + " from " + dims(a));
  Matrix r(a.rows(), a.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) r(i, j) = a(i, j) - b(i, j);
  return r;
}
Matrix operator*(const Matrix& a, const Matrix& b) {
  if (a.cols() != b.rows()) throw Error("sym::Matrix: cannot multiply " + dims(a) + " by " + dims(b));
  Matrix r(a.rows(), b.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < b.cols(); ++j) {
      Expr s(0.0);
      for (std::size_t k = 0; k < a.cols(); ++k) s = s + a(i, k) * b(k, j);
      r(i, j) = s;
    }
  return r;
}
Matrix operator*(const Expr& s, const Matrix& a) {
  Matrix r(a.rows(), a.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) r(i, j) = s * a(i, j);
  return r;
}
Vector operator*(const Matrix& a, const Vector& v) { return (a * Matrix::column(v)).as_vector(); }

Vector operator+(const Vector& a, const Vector& b) {
  if (a.size() != b.size())
    throw Error("sym: cannot add vectors of sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()));
  Vector r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] + b[i];
  return r;
}
Vector operator-(const Vector& a, const Vector& b) {
  if (a.size() != b.size())
    throw Error("sym: cannot subtract vectors of sizes " + std::to_string(a.size()) + " and " +
                std::to_string(b.size()));
  Vector r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] - b[i];
  return r;
}
Vector operator*(const Expr& s, const Vector& v) {
  Vector r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = s * v[i];
  return r;
}
Expr dot(const Vector& a, const Vector& b) {
  if (a.size() != b.size())
    throw Error("sym::dot: vectors of sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()));
  Expr s(0.0);
  for (std::size_t i = 0; i < a.size(); ++i) s = s + a[i] * b[i];
  return s;
}
Vector vertcat(const std::vector<Vector>& parts) {
  Vector r;
  for (const auto& p : parts) r.insert(r.end(), p.begin(), p.end());
  return r;
}

Matrix cholesky(const Matrix& A) {
  if (!A.is_square()) throw Error("sym::cholesky: matrix is " + dims(A) + ", not square");
  const std::size_t n = A.rows();
  Matrix L(n, n);
  for (std::size_t j = 0; j < n; ++j) {
    Expr d = A(j, j);
    for (std::size_t k = 0; k < j; ++k) d = d - sq(L(j, k));
    L(j, j) = sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      Expr s = A(i, j);
      for (std::size_t k = 0; k < j; ++k) s = s - L(i, k) * L(j, k);
      L(i, j) = s / L(j, j);
    }
  }
  return L;
}

Matrix solve_spd(const Matrix& A, const Matrix& B) {
  if (A.rows() != B.rows())
    throw Error("sym::solve_spd: A is " + dims(A) + " but the right-hand side is " + dims(B));
  // Diagonal A (a common mass matrix) needs no factorization: keep the expressions small.
  bool diagonal = true;
  for (std::size_t i = 0; i < A.rows() && diagonal; ++i)
    for (std::size_t j = 0; j < A.cols(); ++j)
      if (i != j && !A(i, j).is_zero()) {
        diagonal = false;
        break;
      }
  const std::size_t n = A.rows();
  Matrix X(n, B.cols());
  if (diagonal) {
    if (!A.is_square()) throw Error("sym::solve_spd: matrix is " + dims(A) + ", not square");
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < B.cols(); ++c) X(i, c) = B(i, c) / A(i, i);
    return X;
  }
  Matrix L = cholesky(A);
  for (std::size_t c = 0; c < B.cols(); ++c) {
    Vector y(n);
    for (std::size_t i = 0; i < n; ++i) {  // L y = b
      Expr s = B(i, c);
      for (std::size_t k = 0; k < i; ++k) s = s - L(i, k) * y[k];
      y[i] = s / L(i, i);
    }
    for (std::size_t i = n; i-- > 0;) {  // Lᵀ x = y
      Expr s = y[i];
      for (std::size_t k = i + 1; k < n; ++k) s = s - L(k, i) * X(k, c);
      X(i, c) = s / L(i, i);
    }
  }
  return X;
}

Vector solve_spd(const Matrix& A, const Vector& b) { return solve_spd(A, Matrix::column(b)).as_vector(); }

}  // namespace stasis::sym
