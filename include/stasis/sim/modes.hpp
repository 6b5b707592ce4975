#pragma once
// Filippov-mode bookkeeping shared by the integrator and the OCP solver: Filippov multipliers of
// a finite element, its active regions, switch events between elements, and algebraic variables
// consistent with a state (for initial guesses).
#include <vector>

#include "stasis/mpcc/problem.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::sim {

/// A change of the active set of Filippov regions between two consecutive finite elements.
struct Event {
  double time = 0.0;
  std::vector<int> switching;         ///< switching functions (or indicators) that vanish there
  std::vector<int> before, after;     ///< active regions (θ components) before and after
  std::vector<double> state;          ///< state at the event
};

class ModeMonitor {
 public:
  explicit ModeMonitor(const reformulate::Dcs& dcs);
  /// Mean Filippov multipliers over an element's stage points; Z holds the first index in w of
  /// each stage point's algebraic variables.
  std::vector<double> mean_theta(const std::vector<double>& w, const std::vector<mpcc::Index>& Z);
  /// Regions whose mean multiplier exceeds 1e-4: the homotopy drives inactive multipliers to
  /// O(complementarity_tol), active ones are O(1).
  static std::vector<int> active(const std::vector<double>& mean_theta);
  /// The switch event between two active sets at `time` and state x: names the switching
  /// functions that vanish there (the smallest ones if none is ~0).
  Event event(double time, const std::vector<double>& x, const std::vector<double>& u, std::vector<int> before,
              std::vector<int> after);
  /// Switching-function values c(x, u) (Heaviside) or indicators g(x, u) (Stewart).
  const std::vector<double>& switching(const std::vector<double>& x, const std::vector<double>& u);
  /// reformulate::consistent_algebraics at (x, u), with the accelerations of an implicit-mass DCS
  /// (reformulate::Dcs::accelerations) set to M⁻¹(forces) there.
  std::vector<double> consistent_algebraics(const std::vector<double>& x, const std::vector<double>& u);

 private:
  reformulate::Dcs dcs_;
  sym::Function theta_, switching_, lifted_, accelerations_;
  std::vector<double> theta_values_, switching_values_, acceleration_values_, work_;
};

}  // namespace stasis::sim
