#pragma once
// Recovery of the physical-time trajectory of a time-frozen simulation (time_freezing.md §4):
// physical time is the clock state; elements in which the clock does not advance are frozen; a
// maximal run of frozen elements is a jump at its clock time, reported as two consecutive points
// with the same time (state before, state after) and as an impact event with the normal impulse.
// Inelastic contacts: a jump may also end inside an element that holds the running phase after it
// (during the jump and a contact phase after it the gap is exactly zero, so its step function α is
// free and FESD need not put an element boundary at the jump's end). Such an element starts where
// a contact closes (gap <= 1e-6, n_iᵀv < −1e-6: an impact must happen there), ends where none
// does, and its clock runs slower than the speed of time. The state after the jump is then
// completed from the element's start by the auxiliary fields with the clock frozen (what the
// time-frozen model does during the jump; exact for the constant inelastic fields), and the
// element's end is the next physical point.
// Used for the integrator's results and for time-frozen OCP solutions (ocp/time_frozen.hpp).
#include <string>
#include <utility>
#include <vector>

#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sim/integrator.hpp"

namespace stasis::sim {

struct Impact {
  double time = 0.0;
  std::vector<int> contacts;           ///< contacts whose auxiliary dynamics ran during the jump
  std::vector<double> before, after;   ///< physical states (clock removed)
  std::vector<double> impulse;         ///< normal impulse per entry of `contacts`: Δ(nᵀv)/D
  /// Numerical time in which the clock stood still (τ_jump): Σ (s·h − Δclock) over the jump's
  /// elements, plus the auxiliary fields' time to complete a jump that ends inside an element.
  double numerical_duration = 0.0;
  /// Contacts (inelastic, with friction) that start the jump sliding in a Painlevé configuration:
  /// under the auxiliary field of their sliding direction the normal velocity decreases
  /// (μ|bᵀM⁻¹n| > nᵀM⁻¹n), so friction drives the contact into the surface until it sticks, a
  /// tangential impact for which the rigid contact problem has no unique solution (a warning too).
  std::vector<int> painleve_contacts;
};

/// A contact that starts or stops carrying a normal force without a jump: a touchdown without an
/// impact (the contact closes at zero normal velocity), or a lift-off.
struct ContactChange {
  double time = 0.0;
  int contact = 0;
};

struct PhysicalTrajectory {
  std::vector<double> time;                    ///< physical time (clock); a jump = two equal entries
  std::vector<std::vector<double>> states;     ///< physical states (clock removed)
  std::vector<std::string> state_names;        ///< without the clock
  std::vector<Impact> impacts;
  /// Normal contact force per element where the clock runs, λ_n,i = a_n θ_aux,i / θ_ode (time
  /// at the element's start; inelastic Cls only, else empty).
  std::vector<double> force_time;
  std::vector<std::vector<double>> contact_force;
  std::vector<bool> frozen;                    ///< per numerical element
  /// The numerical point (element boundary) behind each entry of `time` (a jump's second entry:
  /// the last point of the frozen run).
  std::vector<std::size_t> point;
  std::vector<std::string> warnings;           ///< failed sanity checks of §4.7, with numbers
  /// Physical times of the element starts at which a contact (inelastic, with friction) slides in
  /// a contact phase in a Painlevé configuration (Impact::painleve_contacts; one warning per
  /// contact sums them up): the rigid contact problem there may have several solutions or none.
  std::vector<double> painleve_sliding_time;
  /// From contact_force (inelastic Cls; else empty): where a contact's force falls to zero
  /// (at most 1e-3·max(1, largest force), below which a force is solver noise) from one element
  /// to the next, at the later element's
  /// start. Impacts close contacts; lift-offs open them.
  std::vector<ContactChange> liftoffs;
  /// Likewise where a contact's force rises from zero without an impact between the two elements:
  /// a contact that closes without a jump.
  std::vector<ContactChange> touchdowns;
  /// Flight phases: the intervals [start, end] of physical time in which no contact carries a
  /// force, from the start or a lift-off to the next impact or the end (inelastic Cls; else empty).
  std::vector<std::pair<double, double>> flight_phases;
};

/// Before solving: a step must hold a whole jump, s_max·T_step >= T_step + τ_jump. For spring–
/// damper (elastic, jump system) models τ_jump is known in advance; throws stasis::Error with the
/// numbers and what to change when it cannot hold.
void check_steps_hold_jumps(const reformulate::TimeFrozenModel& model, const Options& options);

/// After a failed step of an inelastic model: a message estimating the jump duration from the
/// state at the step start (τ ≈ |nᵀv|/(D a_n)) and what to change, or "" if no jump is plausible.
std::string diagnose_failed_step(const reformulate::TimeFrozenModel& model, const Options& options,
                                 const std::vector<double>& state_at_step_start);

/// What recover_physical needs of a numerical-time trajectory of `model.pss`: the integrator's
/// Result and a time-frozen OCP solution both provide it.
struct NumericalTrajectory {
  std::vector<std::vector<double>> states;    ///< y (clock included) at every element boundary
  std::vector<std::vector<int>> active;       ///< active regions of each element
  std::vector<std::vector<double>> theta;     ///< mean Filippov multipliers of each element (empty: no forces)
  std::vector<double> element_length;         ///< numerical h of each element
  /// s of each integrator step / control stage; the elements are split evenly among them.
  std::vector<double> speed_of_time;
  /// u of each integrator step / control stage (split evenly as speed_of_time), or a single entry
  /// for all; empty = zeros. Gaps and normal velocities are evaluated with it.
  std::vector<std::vector<double>> controls;
};

PhysicalTrajectory recover_physical(const reformulate::TimeFrozenModel& model, const NumericalTrajectory& trajectory);

/// `result` must come from simulating `model.pss` (states y = (…, t) with the clock last);
/// `controls` are the constant controls of the simulation (empty = zeros).
PhysicalTrajectory recover_physical(const reformulate::TimeFrozenModel& model, const Result& result,
                                    const std::vector<double>& controls = {});

}  // namespace stasis::sim
