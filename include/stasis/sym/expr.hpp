#pragma once
// sym::Expr — a hash-consed scalar expression DAG (ARCHITECTURE.md, decision 1).
//
// Every Expr points to an immutable node owned by a process-wide pool. Structurally equal
// expressions are the same node (common subexpressions are shared automatically), constants are
// folded, and trivial identities (x+0, x*1, x*0, x-x, --x) are simplified. Folding only ever removes
// terms that are identically zero, so derivative sparsity patterns stay exact.
//
// There is deliberately no conversion to bool: comparisons return an Expr (1 or 0) and branching
// goes through if_else(), so an `if` on a state cannot compile.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace stasis::sym {

enum class Op : std::uint8_t {
  // leaves
  Constant,
  Symbol,
  // binary arithmetic
  Add,
  Sub,
  Mul,
  Div,
  Pow,  // expression exponent
  Atan2,
  Fmin,
  Fmax,
  // unary
  Neg,
  Sq,
  Sqrt,
  Exp,
  Log,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Abs,
  Sign,
  PowConst,  // x^c with constant c stored in the node
  // comparisons and logic (values 1.0 / 0.0)
  Lt,
  Le,
  Eq,
  Ne,
  And,
  Or,
  Not,
  // ternary
  IfElse,  // if_else(c, a, b) = c != 0 ? a : b
};

/// Number of arguments an operation takes (0 for leaves).
int arity(Op op);
/// Name of the operation as used by str() ("add", "sin", ...).
const char* op_name(Op op);

struct Node;

class Expr {
 public:
  /// The constant 0.
  Expr();
  /// A constant (implicit, so numbers can be used wherever an Expr is expected).
  Expr(double value);  // NOLINT(google-explicit-constructor)
  Expr(int value) : Expr(static_cast<double>(value)) {}  // NOLINT(google-explicit-constructor)

  /// A new free symbol. Two calls with the same name give two different symbols.
  static Expr symbol(const std::string& name);

  bool is_constant() const;
  bool is_symbol() const;
  bool is_zero() const;  ///< the constant 0
  bool is_one() const;   ///< the constant 1
  /// Value of a constant expression; throws stasis::Error if the expression is not constant.
  double constant_value() const;
  /// Name of a symbol; throws stasis::Error otherwise.
  const std::string& name() const;

  Op op() const;
  int num_args() const;
  Expr arg(int i) const;
  /// For Op::PowConst: the exponent.
  double exponent() const;

  /// Node identity: equal ids <=> structurally identical expressions.
  std::uint64_t id() const;
  /// Creation serial number: arguments always have smaller serials than the nodes using them.
  std::uint64_t serial() const;
  const Node* node() const { return node_; }

  /// Readable infix form (for messages and debugging).
  std::string str() const;

  /// Number of distinct nodes reachable from this expression.
  std::size_t graph_size() const;

  explicit Expr(const Node* node) : node_(node) {}

 private:
  const Node* node_;
};

using Vector = std::vector<Expr>;

/// True if a and b are the same node (structural identity thanks to hash-consing).
inline bool is_same(const Expr& a, const Expr& b) { return a.node() == b.node(); }

/// n fresh symbols named name_0 .. name_{n-1} (or just `name` when n == 1 and scalar_name is true).
Vector symbols(const std::string& name, std::size_t n);

// Arithmetic.
Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator*(const Expr& a, const Expr& b);
Expr operator/(const Expr& a, const Expr& b);
Expr operator-(const Expr& a);
inline Expr operator+(const Expr& a) { return a; }
Expr& operator+=(Expr& a, const Expr& b);
Expr& operator-=(Expr& a, const Expr& b);
Expr& operator*=(Expr& a, const Expr& b);
Expr& operator/=(Expr& a, const Expr& b);

// Comparisons: 1 where true, 0 where false. Derivative zero.
Expr operator<(const Expr& a, const Expr& b);
Expr operator<=(const Expr& a, const Expr& b);
Expr operator>(const Expr& a, const Expr& b);
Expr operator>=(const Expr& a, const Expr& b);
Expr operator==(const Expr& a, const Expr& b);
Expr operator!=(const Expr& a, const Expr& b);
Expr logical_and(const Expr& a, const Expr& b);
Expr logical_or(const Expr& a, const Expr& b);
Expr logical_not(const Expr& a);

// Elementary functions.
Expr pow(const Expr& base, const Expr& exponent);  // folds to PowConst for a constant exponent
Expr pow(const Expr& base, double exponent);
Expr sq(const Expr& x);
Expr sqrt(const Expr& x);
Expr exp(const Expr& x);
Expr log(const Expr& x);
Expr sin(const Expr& x);
Expr cos(const Expr& x);
Expr tan(const Expr& x);
Expr asin(const Expr& x);
Expr acos(const Expr& x);
Expr atan(const Expr& x);
Expr atan2(const Expr& y, const Expr& x);
Expr sinh(const Expr& x);
Expr cosh(const Expr& x);
Expr tanh(const Expr& x);
Expr abs(const Expr& x);
Expr sign(const Expr& x);  ///< -1, 0, +1
Expr fmin(const Expr& a, const Expr& b);
Expr fmax(const Expr& a, const Expr& b);
/// c != 0 ? a : b. Both branches are evaluated; the derivative is if_else(c, da, db).
Expr if_else(const Expr& condition, const Expr& if_true, const Expr& if_false);

/// Evaluate a scalar operation on doubles (the same semantics the compiled Function uses).
double apply(Op op, double a, double b = 0.0, double c = 0.0, double exponent = 0.0);

/// Evaluate an expression directly with values for symbols (slow, for tests and one-off checks).
double evaluate(const Expr& e, const Vector& symbols, const std::vector<double>& values);

/// Replace symbols `from[i]` by `to[i]` in every expression of `expressions`.
Vector substitute(const Vector& expressions, const Vector& from, const Vector& to);
Expr substitute(const Expr& expression, const Vector& from, const Vector& to);

/// Symbols the expressions depend on, in creation order.
Vector free_symbols(const Vector& expressions);
/// True if `e` depends on symbol `s`.
bool depends_on(const Expr& e, const Expr& s);

std::ostream& operator<<(std::ostream& os, const Expr& e);

/// Number of nodes in the process-wide pool (diagnostics).
std::size_t pool_size();

}  // namespace stasis::sym
