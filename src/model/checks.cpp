// The checks shared by the models' validate() (checks.hpp).
#include "checks.hpp"

#include <cmath>
#include <sstream>
#include <utility>

#include "stasis/error.hpp"

namespace stasis::model::detail {

std::string num(double x) {
  std::ostringstream os;
  os.precision(10);
  os << x;
  return os.str();
}

sym::Vector add_symbols(const std::vector<std::string>& names, std::vector<std::string>& symbol_names,
                        sym::Vector& symbols) {
  sym::Vector out;
  for (const auto& n : names) {
    out.push_back(sym::Expr::symbol(n));
    symbol_names.push_back(n);
  }
  symbols.insert(symbols.end(), out.begin(), out.end());
  return out;
}

void add_symbol(const std::string& who, const sym::Expr& s, const std::string& kind, const std::string& name,
                SymbolSet& all) {
  if (!s.is_symbol()) throw Error(who + ": " + kind + " '" + name + "' is not a symbol (use add_" + kind + "s)");
  if (!all.insert(s.node()).second) throw Error(who + ": " + kind + " '" + name + "' is used twice");
}

void check_depends(const std::string& who, const sym::Vector& e, const SymbolSet& allowed, const std::string& what,
                   const std::string& which) {
  for (const auto& s : sym::free_symbols(e))
    if (!allowed.count(s.node())) throw Error(who + ": " + what + " depends on '" + s.name() + "', which is " + which);
}

AtInitialState::AtInitialState(std::string who, sym::Vector states, const sym::Vector& controls,
                               const std::vector<double>& x0)
    : who_(std::move(who)), symbols_(std::move(states)), values_(x0) {
  symbols_.insert(symbols_.end(), controls.begin(), controls.end());
  values_.resize(symbols_.size(), 0.0);
}

double AtInitialState::operator()(const sym::Expr& e, const std::string& what) const {
  const double val = sym::evaluate(e, symbols_, values_);
  if (!std::isfinite(val)) throw Error(who_ + ": " + what + " is not finite at x0 (controls 0)");
  return val;
}

}  // namespace stasis::model::detail
