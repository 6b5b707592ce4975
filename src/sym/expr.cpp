// Expression nodes: the hash-consing pool, constant folding and the elementary operations.
#include "stasis/sym/expr.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <ostream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "node.hpp"
#include "stasis/error.hpp"

namespace stasis::sym {

int arity(Op op) {
  switch (op) {
    case Op::Constant:
    case Op::Symbol:
      return 0;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Pow:
    case Op::Atan2:
    case Op::Fmin:
    case Op::Fmax:
    case Op::Lt:
    case Op::Le:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
      return 2;
    case Op::IfElse:
      return 3;
    default:
      return 1;
  }
}

const char* op_name(Op op) {
  switch (op) {
    case Op::Constant: return "const";
    case Op::Symbol: return "symbol";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
    case Op::Pow: return "pow";
    case Op::Atan2: return "atan2";
    case Op::Fmin: return "min";
    case Op::Fmax: return "max";
    case Op::Neg: return "neg";
    case Op::Sq: return "sq";
    case Op::Sqrt: return "sqrt";
    case Op::Exp: return "exp";
    case Op::Log: return "log";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Tan: return "tan";
    case Op::Asin: return "asin";
    case Op::Acos: return "acos";
    case Op::Atan: return "atan";
    case Op::Sinh: return "sinh";
    case Op::Cosh: return "cosh";
    case Op::Tanh: return "tanh";
    case Op::Abs: return "abs";
    case Op::Sign: return "sign";
    case Op::PowConst: return "pow";
    case Op::Lt: return "lt";
    case Op::Le: return "le";
    case Op::Eq: return "eq";
    case Op::Ne: return "ne";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Not: return "not";
    case Op::IfElse: return "if_else";
  }
  return "?";
}

double apply(Op op, double a, double b, double c, double exponent) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Pow: return std::pow(a, b);
    case Op::Atan2: return std::atan2(a, b);
    case Op::Fmin: return a <= b ? a : b;
    case Op::Fmax: return a >= b ? a : b;
    case Op::Neg: return -a;
    case Op::Sq: return a * a;
    case Op::Sqrt: return std::sqrt(a);
    case Op::Exp: return std::exp(a);
    case Op::Log: return std::log(a);
    case Op::Sin: return std::sin(a);
    case Op::Cos: return std::cos(a);
    case Op::Tan: return std::tan(a);
    case Op::Asin: return std::asin(a);
    case Op::Acos: return std::acos(a);
    case Op::Atan: return std::atan(a);
    case Op::Sinh: return std::sinh(a);
    case Op::Cosh: return std::cosh(a);
    case Op::Tanh: return std::tanh(a);
    case Op::Abs: return std::fabs(a);
    case Op::Sign: return a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0);
    case Op::PowConst: return std::pow(a, exponent);
    case Op::Lt: return a < b ? 1.0 : 0.0;
    case Op::Le: return a <= b ? 1.0 : 0.0;
    case Op::Eq: return a == b ? 1.0 : 0.0;
    case Op::Ne: return a != b ? 1.0 : 0.0;
    case Op::And: return (a != 0 && b != 0) ? 1.0 : 0.0;
    case Op::Or: return (a != 0 || b != 0) ? 1.0 : 0.0;
    case Op::Not: return a == 0 ? 1.0 : 0.0;
    case Op::IfElse: return a != 0 ? b : c;
    case Op::Constant:
    case Op::Symbol:
      break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

struct NodeHash {
  std::size_t operator()(const Node* n) const { return n->hash; }
};
struct NodeEq {
  bool operator()(const Node* x, const Node* y) const {
    if (x->op != y->op || x->nargs != y->nargs) return false;
    if (x->op == Op::Symbol) return x == y;
    for (int i = 0; i < x->nargs; ++i)
      if (x->args[i] != y->args[i]) return false;
    return std::bit_cast<std::uint64_t>(x->value) == std::bit_cast<std::uint64_t>(y->value);
  }
};

// Process-wide pool. Nodes are immutable and never freed: expressions are small (one element's
// worth of model) and shared by every element of a problem, so the pool stays small in practice.
class Pool {
 public:
  const Node* intern(Op op, int nargs, const Node* a, const Node* b, const Node* c, double value) {
    if (value == 0.0) value = 0.0;  // one zero, not two (-0.0 would defeat is_zero and CSE)
    Node key{};
    key.op = op;
    key.nargs = static_cast<std::uint8_t>(nargs);
    key.args[0] = a;
    key.args[1] = b;
    key.args[2] = c;
    key.value = value;
    std::size_t h = static_cast<std::size_t>(op) * 0x9E3779B97F4A7C15ull;
    auto mix = [&h](std::uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2); };
    mix(reinterpret_cast<std::uintptr_t>(a));
    mix(reinterpret_cast<std::uintptr_t>(b));
    mix(reinterpret_cast<std::uintptr_t>(c));
    mix(std::bit_cast<std::uint64_t>(value));
    key.hash = h;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = table_.find(&key);
    if (it != table_.end()) return *it;
    key.serial = next_serial_++;
    nodes_.push_back(key);
    const Node* n = &nodes_.back();
    table_.insert(n);
    return n;
  }

  const Node* symbol(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    names_.push_back(name);
    Node n{};
    n.op = Op::Symbol;
    n.nargs = 0;
    n.serial = next_serial_++;
    n.name = &names_.back();
    n.hash = std::hash<std::uint64_t>{}(n.serial);
    nodes_.push_back(n);
    return &nodes_.back();
  }

  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return nodes_.size();
  }

 private:
  std::mutex mutex_;
  std::deque<Node> nodes_;
  std::deque<std::string> names_;
  std::unordered_set<const Node*, NodeHash, NodeEq> table_;
  std::uint64_t next_serial_ = 0;
};

Pool& pool() {
  static Pool* p = new Pool();  // intentionally leaked: nodes must outlive static destructors
  return *p;
}

const Node* constant_node(double v) { return pool().intern(Op::Constant, 0, nullptr, nullptr, nullptr, v); }

bool commutative(Op op) {
  return op == Op::Add || op == Op::Mul || op == Op::Fmin || op == Op::Fmax || op == Op::Eq || op == Op::Ne ||
         op == Op::And || op == Op::Or;
}

bool is_const(const Expr& e, double v) { return e.is_constant() && e.constant_value() == v; }

}  // namespace

namespace detail {

Expr make(Op op, const Expr& a_in, const Expr& b_in, const Expr& c, double imm) {
  Expr a = a_in, b = b_in;
  const int n = arity(op);
  if (n == 0) throw Error("sym: cannot build a leaf with make()");
  // Constant folding: every argument constant -> constant.
  bool all_const = a.is_constant() && (n < 2 || b.is_constant()) && (n < 3 || c.is_constant());
  if (all_const) {
    double r = apply(op, a.constant_value(), n >= 2 ? b.constant_value() : 0.0, n >= 3 ? c.constant_value() : 0.0,
                     imm);
    return Expr(constant_node(r));
  }
  // Simplifications that are exact for all finite and infinite values the model can take.
  switch (op) {
    case Op::Add:
      if (a.is_zero()) return b;
      if (b.is_zero()) return a;
      if (b.op() == Op::Neg) return make(Op::Sub, a, b.arg(0));
      if (a.op() == Op::Neg) return make(Op::Sub, b, a.arg(0));
      break;
    case Op::Sub:
      if (b.is_zero()) return a;
      if (a.is_zero()) return make(Op::Neg, b);
      if (is_same(a, b)) return Expr(0.0);
      if (b.op() == Op::Neg) return make(Op::Add, a, b.arg(0));
      break;
    case Op::Mul:
      if (a.is_zero() || b.is_zero()) return Expr(0.0);
      if (a.is_one()) return b;
      if (b.is_one()) return a;
      if (is_const(a, -1.0)) return make(Op::Neg, b);
      if (is_const(b, -1.0)) return make(Op::Neg, a);
      if (is_same(a, b)) return make(Op::Sq, a);
      break;
    case Op::Div:
      if (a.is_zero()) return Expr(0.0);
      if (b.is_one()) return a;
      if (is_const(b, -1.0)) return make(Op::Neg, a);
      break;
    case Op::Neg:
      if (a.op() == Op::Neg) return a.arg(0);
      break;
    case Op::Pow:
      if (b.is_constant()) return make(Op::PowConst, a, Expr(), Expr(), b.constant_value());
      break;
    case Op::PowConst:
      if (imm == 0.0) return Expr(1.0);
      if (imm == 1.0) return a;
      if (imm == 2.0) return make(Op::Sq, a);
      break;
    case Op::IfElse:
      if (a.is_constant()) return a.constant_value() != 0.0 ? b : c;
      if (is_same(b, c)) return b;
      break;
    case Op::Fmin:
    case Op::Fmax:
      if (is_same(a, b)) return a;
      break;
    default:
      break;
  }
  if (commutative(op) && b.serial() < a.serial()) std::swap(a, b);
  const Node* r = pool().intern(op, n, a.node(), n >= 2 ? b.node() : nullptr, n >= 3 ? c.node() : nullptr,
                                op == Op::PowConst ? imm : 0.0);
  return Expr(r);
}

std::vector<const Node*> topological_order(const std::vector<const Node*>& roots) {
  std::vector<const Node*> order;
  std::unordered_set<const Node*> seen;
  std::vector<const Node*> stack;
  for (const Node* r : roots) {
    if (r && seen.insert(r).second) stack.push_back(r);
  }
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    order.push_back(n);
    for (int i = 0; i < n->nargs; ++i) {
      if (seen.insert(n->args[i]).second) stack.push_back(n->args[i]);
    }
  }
  std::sort(order.begin(), order.end(), [](const Node* x, const Node* y) { return x->serial < y->serial; });
  return order;
}

}  // namespace detail

using detail::make;

Expr::Expr() : node_(constant_node(0.0)) {}
Expr::Expr(double value) : node_(constant_node(value)) {}

Expr Expr::symbol(const std::string& name) { return Expr(pool().symbol(name)); }

bool Expr::is_constant() const { return node_->op == Op::Constant; }
bool Expr::is_symbol() const { return node_->op == Op::Symbol; }
bool Expr::is_zero() const { return node_->op == Op::Constant && node_->value == 0.0; }
bool Expr::is_one() const { return node_->op == Op::Constant && node_->value == 1.0; }
double Expr::constant_value() const {
  if (!is_constant()) throw Error("sym: expression '" + str() + "' is not a constant");
  return node_->value;
}
const std::string& Expr::name() const {
  if (!is_symbol()) throw Error("sym: expression '" + str() + "' is not a symbol");
  return *node_->name;
}
Op Expr::op() const { return node_->op; }
int Expr::num_args() const { return node_->nargs; }
Expr Expr::arg(int i) const {
  if (i < 0 || i >= node_->nargs) throw Error("sym: argument index out of range");
  return Expr(node_->args[i]);
}
double Expr::exponent() const { return node_->value; }
std::uint64_t Expr::id() const { return reinterpret_cast<std::uintptr_t>(node_); }
std::uint64_t Expr::serial() const { return node_->serial; }

std::size_t Expr::graph_size() const { return detail::topological_order({node_}).size(); }

namespace {

int precedence(Op op) {
  switch (op) {
    case Op::Or: return 1;
    case Op::And: return 2;
    case Op::Lt:
    case Op::Le:
    case Op::Eq:
    case Op::Ne: return 3;
    case Op::Add:
    case Op::Sub: return 4;
    case Op::Mul:
    case Op::Div: return 5;
    case Op::Neg:
    case Op::Not: return 6;
    case Op::PowConst:
    case Op::Pow: return 7;
    default: return 9;
  }
}

void print(std::ostream& os, const Node* n, int parent_prec) {
  auto arg = [&](int i, int prec) { print(os, n->args[i], prec); };
  int p = precedence(n->op);
  bool paren = p < parent_prec;
  if (paren) os << '(';
  switch (n->op) {
    case Op::Constant: {
      std::ostringstream s;
      s.precision(17);
      s << n->value;
      os << s.str();
      break;
    }
    case Op::Symbol: os << *n->name; break;
    case Op::Add: arg(0, p); os << " + "; arg(1, p + 1); break;
    case Op::Sub: arg(0, p); os << " - "; arg(1, p + 1); break;
    case Op::Mul: arg(0, p); os << "*"; arg(1, p + 1); break;
    case Op::Div: arg(0, p); os << "/"; arg(1, p + 1); break;
    case Op::Neg: os << "-"; arg(0, p + 1); break;
    case Op::Not: os << "!"; arg(0, p + 1); break;
    case Op::Pow: arg(0, p + 1); os << "^"; arg(1, p); break;
    case Op::PowConst: {
      arg(0, p + 1);
      std::ostringstream s;
      s.precision(17);
      s << n->value;
      os << "^" << (n->value < 0 ? "(" + s.str() + ")" : s.str());
      break;
    }
    case Op::Lt: arg(0, p + 1); os << " < "; arg(1, p + 1); break;
    case Op::Le: arg(0, p + 1); os << " <= "; arg(1, p + 1); break;
    case Op::Eq: arg(0, p + 1); os << " == "; arg(1, p + 1); break;
    case Op::Ne: arg(0, p + 1); os << " != "; arg(1, p + 1); break;
    case Op::And: arg(0, p); os << " && "; arg(1, p + 1); break;
    case Op::Or: arg(0, p); os << " || "; arg(1, p + 1); break;
    default: {
      os << op_name(n->op) << '(';
      for (int i = 0; i < n->nargs; ++i) {
        if (i) os << ", ";
        arg(i, 0);
      }
      os << ')';
    }
  }
  if (paren) os << ')';
}

}  // namespace

std::string Expr::str() const {
  std::ostringstream os;
  print(os, node_, 0);
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Expr& e) { return os << e.str(); }

Vector symbols(const std::string& name, std::size_t n) {
  Vector v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) v.push_back(Expr::symbol(name + "_" + std::to_string(i)));
  return v;
}

Expr operator+(const Expr& a, const Expr& b) { return make(Op::Add, a, b); }
Expr operator-(const Expr& a, const Expr& b) { return make(Op::Sub, a, b); }
Expr operator*(const Expr& a, const Expr& b) { return make(Op::Mul, a, b); }
Expr operator/(const Expr& a, const Expr& b) { return make(Op::Div, a, b); }
Expr operator-(const Expr& a) { return make(Op::Neg, a); }
Expr& operator+=(Expr& a, const Expr& b) { return a = a + b; }
Expr& operator-=(Expr& a, const Expr& b) { return a = a - b; }
Expr& operator*=(Expr& a, const Expr& b) { return a = a * b; }
Expr& operator/=(Expr& a, const Expr& b) { return a = a / b; }

Expr operator<(const Expr& a, const Expr& b) { return make(Op::Lt, a, b); }
Expr operator<=(const Expr& a, const Expr& b) { return make(Op::Le, a, b); }
Expr operator>(const Expr& a, const Expr& b) { return make(Op::Lt, b, a); }
Expr operator>=(const Expr& a, const Expr& b) { return make(Op::Le, b, a); }
Expr operator==(const Expr& a, const Expr& b) { return make(Op::Eq, a, b); }
Expr operator!=(const Expr& a, const Expr& b) { return make(Op::Ne, a, b); }
Expr logical_and(const Expr& a, const Expr& b) { return make(Op::And, a, b); }
Expr logical_or(const Expr& a, const Expr& b) { return make(Op::Or, a, b); }
Expr logical_not(const Expr& a) { return make(Op::Not, a); }

Expr pow(const Expr& base, const Expr& exponent) { return make(Op::Pow, base, exponent); }
Expr pow(const Expr& base, double exponent) { return make(Op::PowConst, base, Expr(), Expr(), exponent); }
Expr sq(const Expr& x) { return make(Op::Sq, x); }
Expr sqrt(const Expr& x) { return make(Op::Sqrt, x); }
Expr exp(const Expr& x) { return make(Op::Exp, x); }
Expr log(const Expr& x) { return make(Op::Log, x); }
Expr sin(const Expr& x) { return make(Op::Sin, x); }
Expr cos(const Expr& x) { return make(Op::Cos, x); }
Expr tan(const Expr& x) { return make(Op::Tan, x); }
Expr asin(const Expr& x) { return make(Op::Asin, x); }
Expr acos(const Expr& x) { return make(Op::Acos, x); }
Expr atan(const Expr& x) { return make(Op::Atan, x); }
Expr atan2(const Expr& y, const Expr& x) { return make(Op::Atan2, y, x); }
Expr sinh(const Expr& x) { return make(Op::Sinh, x); }
Expr cosh(const Expr& x) { return make(Op::Cosh, x); }
Expr tanh(const Expr& x) { return make(Op::Tanh, x); }
Expr abs(const Expr& x) { return make(Op::Abs, x); }
Expr sign(const Expr& x) { return make(Op::Sign, x); }
Expr fmin(const Expr& a, const Expr& b) { return make(Op::Fmin, a, b); }
Expr fmax(const Expr& a, const Expr& b) { return make(Op::Fmax, a, b); }
Expr if_else(const Expr& condition, const Expr& if_true, const Expr& if_false) {
  return make(Op::IfElse, condition, if_true, if_false);
}

double evaluate(const Expr& e, const Vector& syms, const std::vector<double>& values) {
  if (syms.size() != values.size())
    throw Error("sym::evaluate: " + std::to_string(syms.size()) + " symbols but " + std::to_string(values.size()) +
                " values");
  std::unordered_map<const Node*, double> val;
  for (std::size_t i = 0; i < syms.size(); ++i) val[syms[i].node()] = values[i];
  for (const Node* n : detail::topological_order({e.node()})) {
    if (n->op == Op::Constant) {
      val[n] = n->value;
    } else if (n->op == Op::Symbol) {
      if (!val.count(n)) throw Error("sym::evaluate: no value for symbol '" + *n->name + "'");
    } else {
      double a = val[n->args[0]];
      double b = n->nargs > 1 ? val[n->args[1]] : 0.0;
      double c = n->nargs > 2 ? val[n->args[2]] : 0.0;
      val[n] = apply(n->op, a, b, c, n->value);
    }
  }
  return val[e.node()];
}

Vector substitute(const Vector& expressions, const Vector& from, const Vector& to) {
  if (from.size() != to.size())
    throw Error("sym::substitute: " + std::to_string(from.size()) + " symbols but " + std::to_string(to.size()) +
                " replacements");
  std::unordered_map<const Node*, Expr> map;
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (!from[i].is_symbol()) throw Error("sym::substitute: '" + from[i].str() + "' is not a symbol");
    map.emplace(from[i].node(), to[i]);
  }
  for (const Node* n : detail::topological_order(detail::nodes_of(expressions))) {
    if (n->nargs == 0) continue;
    bool changed = false;
    Expr args[3];
    for (int i = 0; i < n->nargs; ++i) {
      auto it = map.find(n->args[i]);
      if (it != map.end()) {
        args[i] = it->second;
        changed = changed || !is_same(it->second, Expr(n->args[i]));
      } else {
        args[i] = Expr(n->args[i]);
      }
    }
    if (changed) map.emplace(n, make(n->op, args[0], args[1], args[2], n->value));
  }
  Vector out;
  out.reserve(expressions.size());
  for (const auto& e : expressions) {
    auto it = map.find(e.node());
    out.push_back(it != map.end() ? it->second : e);
  }
  return out;
}

Expr substitute(const Expr& expression, const Vector& from, const Vector& to) {
  return substitute(Vector{expression}, from, to)[0];
}

Vector free_symbols(const Vector& expressions) {
  Vector out;
  for (const Node* n : detail::topological_order(detail::nodes_of(expressions)))
    if (n->op == Op::Symbol) out.push_back(Expr(n));
  return out;
}

bool depends_on(const Expr& e, const Expr& s) {
  for (const Node* n : detail::topological_order({e.node()}))
    if (n == s.node()) return true;
  return false;
}

std::size_t pool_size() { return pool().size(); }

}  // namespace stasis::sym
