#pragma once
// Internal: the node representation behind sym::Expr and the graph utilities shared by the
// sym implementation files.
#include <cstdint>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"

namespace stasis::sym {

struct Node {
  Op op;
  std::uint8_t nargs;
  const Node* args[3];
  double value;  // Constant: its value; PowConst: the exponent
  std::uint64_t serial;
  const std::string* name;  // Symbol only
  std::size_t hash;
};

namespace detail {

/// Build (or find) a node, applying constant folding and simplifications.
Expr make(Op op, const Expr& a = Expr(), const Expr& b = Expr(), const Expr& c = Expr(), double imm = 0.0);

/// Nodes reachable from the roots, sorted by serial (arguments before users).
std::vector<const Node*> topological_order(const std::vector<const Node*>& roots);

inline std::vector<const Node*> nodes_of(const Vector& v) {
  std::vector<const Node*> r;
  r.reserve(v.size());
  for (const auto& e : v) r.push_back(e.node());
  return r;
}

}  // namespace detail
}  // namespace stasis::sym
