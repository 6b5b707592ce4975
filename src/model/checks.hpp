#pragma once
// The checks every model's validate() makes, shared by Pss, Cls and JumpSystem: symbols are
// symbols and distinct, expressions depend only on allowed symbols, values at x0 are finite.
// Messages start with `who` (e.g. "Cls 'hopper'") so that they name the model.
#include <string>
#include <unordered_set>
#include <vector>

#include "stasis/sym/expr.hpp"

namespace stasis::model::detail {

using SymbolSet = std::unordered_set<const sym::Node*>;

/// Numbers in messages: 10 significant digits.
std::string num(double x);

/// Appends fresh symbols with these names to `symbols` and `symbol_names`; returns them.
sym::Vector add_symbols(const std::vector<std::string>& names, std::vector<std::string>& symbol_names,
                        sym::Vector& symbols);

/// Registers the model symbol `s` (a state, position, control, ...) called `name` in `all`. Throws if
/// it is not a symbol ("use add_<kind>s") or is registered already.
void add_symbol(const std::string& who, const sym::Expr& s, const std::string& kind, const std::string& name,
                SymbolSet& all);

/// Throws "<who>: <what> depends on 'y', which is <which>" for the first free symbol of `e` that is not
/// in `allowed`.
void check_depends(const std::string& who, const sym::Vector& e, const SymbolSet& allowed, const std::string& what,
                   const std::string& which);

/// Evaluates model expressions at x0 with the controls at 0; a non-finite value throws
/// "<who>: <what> is not finite at x0 (controls 0)".
class AtInitialState {
 public:
  AtInitialState(std::string who, sym::Vector states, const sym::Vector& controls, const std::vector<double>& x0);
  double operator()(const sym::Expr& e, const std::string& what) const;

 private:
  std::string who_;
  sym::Vector symbols_;
  std::vector<double> values_;
};

}  // namespace stasis::model::detail
