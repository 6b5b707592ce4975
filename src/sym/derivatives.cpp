// Symbolic reverse-mode differentiation. Each sweep builds adjoint expressions in the same
// hash-consed pool, so repeated subexpressions of the derivative are shared and the result can be
// differentiated again.
#include "stasis/sym/derivatives.hpp"

#include <algorithm>
#include <unordered_map>

#include "node.hpp"
#include "stasis/error.hpp"

namespace stasis::sym {

namespace {

void check_symbols(const Vector& x, const char* who) {
  for (const auto& s : x)
    if (!s.is_symbol()) throw Error(std::string(who) + ": differentiation variable '" + s.str() + "' is not a symbol");
}

/// Adjoints of every node reachable from `f` for the seed df = 1; returns the adjoint of each x.
///
/// Two rules keep the derivative graphs small and shared between sweeps (one sweep per Jacobian
/// row, one per Hessian row):
///  - every contribution is `adjoint * partial` with a partial that depends on the primal graph
///    only (1/b for a division, 1/(1+a²) for atan, ...), so the partials are hash-consed once and
///    reused by every sweep, and no sweep-dependent division is created;
///  - an adjoint is kept as (expression, sign): negations (of Sub, Neg, Div, Cos, ...) flip the
///    sign and become Sub at accumulation instead of Neg nodes in the graph. Only a final adjoint
///    with a negative sign is materialized as a Neg.
Vector reverse_sweep(const Expr& f, const Vector& x) {
  std::vector<const Node*> order = detail::topological_order({f.node()});
  std::unordered_map<const Node*, std::size_t> index;
  index.reserve(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) index.emplace(order[i], i);
  struct Adjoint {
    Expr e;            // magnitude (0: no adjoint)
    bool neg = false;  // adjoint = neg ? -e : e
  };
  std::vector<Adjoint> adj(order.size());
  adj[index.at(f.node())].e = Expr(1.0);

  for (std::size_t k = order.size(); k-- > 0;) {
    const Node* n = order[k];
    const Expr w = adj[k].e;
    const bool wneg = adj[k].neg;
    if (w.is_zero() || n->nargs == 0) continue;
    const Expr self(n);
    const Expr a(n->args[0]);
    const Expr b = n->nargs > 1 ? Expr(n->args[1]) : Expr(0.0);
    // adjoint(arg i) += (negate ? -1 : 1) * d, with d already multiplied by the adjoint of n
    auto acc_term = [&](int i, Expr d, bool negate) {
      if (d.is_zero()) return;
      negate = negate != wneg;
      if (d.op() == Op::Neg) {
        d = d.arg(0);
        negate = !negate;
      } else if (d.is_constant() && d.constant_value() < 0) {
        d = Expr(-d.constant_value());
        negate = !negate;
      }
      Adjoint& t = adj[index.at(n->args[i])];
      if (t.e.is_zero()) {
        t.e = d;
        t.neg = negate;
      } else if (t.neg == negate) {
        t.e = t.e + d;
      } else {
        t.e = t.e - d;
      }
    };
    // contribution adjoint * partial
    auto acc = [&](int i, const Expr& partial, bool negate = false) { acc_term(i, w * partial, negate); };
    switch (n->op) {
      case Op::Add: acc(0, 1.0); acc(1, 1.0); break;
      case Op::Sub: acc(0, 1.0); acc(1, 1.0, true); break;
      case Op::Mul: acc(0, b); acc(1, a); break;
      case Op::Div: {
        const Expr r = 1.0 / b;
        acc(0, r);
        acc(1, self * r, true);  // d(a/b)/db = -(a/b)/b
        break;
      }
      case Op::Neg: acc(0, 1.0, true); break;
      case Op::Sq: acc(0, 2.0 * a); break;
      case Op::Sqrt: acc(0, 0.5 / self); break;
      case Op::Exp: acc(0, self); break;
      case Op::Log: acc(0, 1.0 / a); break;
      case Op::Sin: acc(0, cos(a)); break;
      case Op::Cos: acc(0, sin(a), true); break;
      case Op::Tan: acc(0, 1.0 + sq(self)); break;
      case Op::Asin: acc(0, 1.0 / sqrt(1.0 - sq(a))); break;
      case Op::Acos: acc(0, 1.0 / sqrt(1.0 - sq(a)), true); break;
      case Op::Atan: acc(0, 1.0 / (1.0 + sq(a))); break;
      case Op::Atan2: {
        // atan2(y, x): d/dy = x/(x²+y²), d/dx = -y/(x²+y²)
        const Expr r2 = sq(a) + sq(b);
        acc(0, b / r2);
        acc(1, a / r2, true);
        break;
      }
      case Op::Sinh: acc(0, cosh(a)); break;
      case Op::Cosh: acc(0, sinh(a)); break;
      case Op::Tanh: acc(0, 1.0 - sq(self)); break;
      case Op::Abs: acc(0, sign(a)); break;
      case Op::PowConst: {
        const double c = n->value;
        acc(0, c * pow(a, c - 1.0));
        break;
      }
      case Op::Pow:
        acc(0, b * pow(a, b - 1.0));
        acc(1, self * log(a));
        break;
      // Branch selection stays an if_else of the adjoint (not a multiplication by 0/1), so a
      // non-finite adjoint never leaks into the inactive branch.
      case Op::Fmin: {
        const Expr first = a <= b;  // the same tie rule as evaluation
        acc_term(0, if_else(first, w, 0.0), false);
        acc_term(1, if_else(first, 0.0, w), false);
        break;
      }
      case Op::Fmax: {
        const Expr first = b <= a;
        acc_term(0, if_else(first, w, 0.0), false);
        acc_term(1, if_else(first, 0.0, w), false);
        break;
      }
      case Op::IfElse:
        acc_term(1, if_else(a, w, 0.0), false);
        acc_term(2, if_else(a, 0.0, w), false);
        break;
      // piecewise constant: derivative zero
      case Op::Sign:
      case Op::Lt:
      case Op::Le:
      case Op::Eq:
      case Op::Ne:
      case Op::And:
      case Op::Or:
      case Op::Not:
      case Op::Constant:
      case Op::Symbol:
        break;
    }
  }
  Vector g;
  g.reserve(x.size());
  for (const auto& s : x) {
    auto it = index.find(s.node());
    if (it == index.end()) {
      g.push_back(Expr(0.0));
    } else {
      const Adjoint& t = adj[it->second];
      g.push_back(t.neg ? -t.e : t.e);
    }
  }
  return g;
}

}  // namespace

Matrix SparseMatrix::dense() const {
  Matrix m(rows, cols);
  for (std::size_t k = 0; k < values.size(); ++k) m(row[k], col[k]) = values[k];
  return m;
}

Vector gradient(const Expr& f, const Vector& x) {
  check_symbols(x, "gradient");
  return reverse_sweep(f, x);
}

Matrix jacobian(const Vector& f, const Vector& x) { return jacobian_sparse(f, x).dense(); }

SparseMatrix jacobian_sparse(const Vector& f, const Vector& x) {
  check_symbols(x, "jacobian");
  SparseMatrix J;
  J.rows = f.size();
  J.cols = x.size();
  for (std::size_t i = 0; i < f.size(); ++i) {
    Vector g = reverse_sweep(f[i], x);
    for (std::size_t j = 0; j < x.size(); ++j) {
      if (g[j].is_zero()) continue;
      J.row.push_back(static_cast<int>(i));
      J.col.push_back(static_cast<int>(j));
      J.values.push_back(g[j]);
    }
  }
  return J;
}

SparseMatrix hessian_lower(const Vector& f, const Vector& weights, const Vector& x) {
  if (f.size() != weights.size())
    throw Error("hessian_lower: " + std::to_string(f.size()) + " outputs but " + std::to_string(weights.size()) +
                " weights");
  Expr lagrangian(0.0);
  for (std::size_t i = 0; i < f.size(); ++i) lagrangian = lagrangian + weights[i] * f[i];
  return hessian_lower(lagrangian, x);
}

SparseMatrix hessian_lower(const Expr& f, const Vector& x) {
  check_symbols(x, "hessian");
  Vector g = reverse_sweep(f, x);
  SparseMatrix H;
  H.rows = H.cols = x.size();
  // Row i of the lower triangle: ∂g_i/∂x_j for j <= i.
  std::vector<std::tuple<int, int, Expr>> entries;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (g[i].is_zero() || g[i].is_constant()) continue;
    Vector gi = reverse_sweep(g[i], Vector(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(i) + 1));
    for (std::size_t j = 0; j <= i; ++j)
      if (!gi[j].is_zero()) entries.emplace_back(static_cast<int>(i), static_cast<int>(j), gi[j]);
  }
  for (auto& [r, c, v] : entries) {
    H.row.push_back(r);
    H.col.push_back(c);
    H.values.push_back(v);
  }
  return H;
}

Matrix hessian(const Expr& f, const Vector& x) {
  SparseMatrix L = hessian_lower(f, x);
  Matrix H(x.size(), x.size());
  for (std::size_t k = 0; k < L.nnz(); ++k) {
    H(L.row[k], L.col[k]) = L.values[k];
    H(L.col[k], L.row[k]) = L.values[k];
  }
  return H;
}

}  // namespace stasis::sym
