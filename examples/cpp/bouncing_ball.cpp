// The bouncing ball of A. Nurkanović et al., "A time-freezing approach for numerical optimal
// control of nonsmooth differential equations with state jumps", IEEE L-CSS 5(2) (2021), built
// with the library instead of a problem file (the same as examples/time_freezing/bouncing_ball.yaml
// run by `stasis simulate`):
//
//   q' = v, v' = -g while q >= 0;  at q = 0 with v < 0 the velocity jumps: v+ = -0.9 v-.
//
// Time freezing replaces each jump by a spring-damper phase (k = 20) during which a clock state
// stops; FESD integrates the result, and the physical trajectory is read off the clock.
// Expected (closed form): the first impact at sqrt(2 q0/g) = 1.4278431229 s, post-impact
// velocities 0.9^n sqrt(2 g q0) = 12.6064, 11.3458, ... (eight impacts in 15 s).
#include <cstdio>

#include "stasis/error.hpp"
#include "stasis/model/jump_system.hpp"
#include "stasis/reformulate/time_freezing.hpp"
#include "stasis/sim/integrator.hpp"
#include "stasis/sim/physical.hpp"

using namespace stasis;

int main() try {
  // The model: an ODE with a state constraint q >= 0 and Newton restitution on it.
  model::JumpSystem ball;
  const sym::Vector x = ball.add_states({"q", "v"});
  const double g = 9.81;
  ball.f = {x[1], -g};  // (q', v') = (v, -g); the built-in jump law needs q' = v
  ball.constraints = {x[0]};       // the ground: q >= 0
  ball.restitution = 0.9;
  ball.stiffness = 20.0;  // of the auxiliary spring; its damping follows from the restitution
  ball.x0 = {10.0, 0.0};

  // Time freezing: states (q, v, t) with the clock t last; t' = 0 while the spring acts.
  const reformulate::TimeFrozenModel frozen = reformulate::time_freezing(ball);

  // FESD integrator: 60 steps of 0.25 s of physical time, each 6 finite elements of Radau IIA
  // (3 stages) on the Heaviside step DCS. A step holding a jump runs faster in numerical time
  // (speed of time s = 1 + tau_jump/0.25 = 3.8 <= the default upper bound 25), and its frozen
  // phase gets enough elements to resolve the spring.
  sim::Options options;
  options.horizon = 15.0;
  options.steps = 60;
  options.discretization.dcs = reformulate::DcsMode::Step;
  options.discretization.stages = 3;
  options.discretization.elements = 6;
  sim::check_steps_hold_jumps(frozen, options);  // throws with the numbers if a step is too short
  const sim::Result numerical = sim::simulate(frozen.pss, options);

  // Physical time: frozen elements become jumps (two points at the same time) and impacts.
  const sim::PhysicalTrajectory physical = sim::recover_physical(frozen, numerical);
  std::printf("%s: %s\n", numerical.converged ? "converged" : "NOT converged", numerical.message.c_str());
  std::printf("impacts: %zu\n", physical.impacts.size());
  for (const sim::Impact& impact : physical.impacts)  // states (q, v) without the clock
    std::printf("impact t = %.9f  v- = %.9f  v+ = %.9f\n", impact.time, impact.before[1], impact.after[1]);
  const auto& final_state = physical.states.back();
  std::printf("final time %.9f  q = %.9f  v = %.9f\n", physical.time.back(), final_state[0], final_state[1]);
  for (const std::string& warning : physical.warnings) std::printf("warning: %s\n", warning.c_str());
  return numerical.converged ? 0 : 1;
} catch (const Error& e) {  // invalid model or options: the message says what and where
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
