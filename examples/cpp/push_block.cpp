// Push a block 1 m along the floor against Coulomb friction and stop it there, with the least
// control effort: the OCP of examples/time_freezing/push_block.yaml (run by `stasis solve`),
// built with the library, here with N = 5 control stages of 0.4 s.
//
//   q = (x, z), unit mass, forces (u, -g), floor z >= 0 (inelastic), friction mu = 0.5,
//   x0 = 0 (at rest on the floor), |u| <= 20, minimize the integral of u^2 over T = 2 s,
//   subject to x(T) = 1, vx(T) = 0.
//
// Expected (closed form, tests/cli/test_cli_push_block.cpp): the block slides during three
// stages with pushing forces mu g + (3.125, 0, -3.125) = (8.03, 4.905, 1.78) and sticks in the
// other two (u = 0); J = 0.4 (3 (mu g)^2 + 2 * 3.125^2) = 36.6833308.
#include <cstdio>

#include "stasis/error.hpp"
#include "stasis/model/cls.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/ocp/time_frozen.hpp"
#include "stasis/reformulate/dcs.hpp"
#include "stasis/reformulate/time_freezing.hpp"

using namespace stasis;

int main() try {
  // The model: a complementarity Lagrangian system with one frictional contact.
  const double g = 9.81;
  model::Cls block;
  const sym::Vector q = block.add_positions({"x", "z"});
  const sym::Vector v = block.add_velocities({"vx", "vz"});
  const sym::Vector u = block.add_controls({"u"});
  block.forces = {u[0], -g};               // generalized forces (the mass matrix is the identity)
  const sym::Matrix tangent{{1.0}, {0.0}};  // n_q x 1: friction acts along x
  block.add_contact(q[1], /*restitution=*/0.0, /*friction=*/0.5, tangent, "floor");
  block.x0 = {0.0, 0.0, 0.0, 0.0};

  // Time freezing (inelastic contact: the auxiliary fields stop the clock and push with a_n = 100).
  // The states of frozen.pss are (x, z, vx, vz, t): the model's symbols and the clock t last.
  const reformulate::TimeFrozenModel frozen = reformulate::time_freezing(block);

  // Discretization: Radau IIA with 2 stages, 2 finite elements per control stage, on the
  // Heaviside step DCS (the form time freezing uses).
  ocp::Options options;
  options.discretization.dcs = reformulate::DcsMode::Step;
  options.discretization.stages = 2;
  options.discretization.elements = 2;
  const reformulate::Dcs dcs = reformulate::to_dcs(frozen.pss, options.discretization.dcs);

  // The OCP in physical time. Vectors sized by the states may stay empty (unbounded).
  discretize::OcpSpec spec;
  spec.horizon = 2.0;
  spec.stages = 5;
  spec.u_lower = {-20.0};
  spec.u_upper = {20.0};
  spec.running_cost = u[0] * u[0];
  spec.terminal = {q[0], v[0]};  // x(T) = 1, vx(T) = 0
  spec.terminal_lower = spec.terminal_upper = {1.0, 0.0};
  spec.terminal_names = {"x == 1", "vx == 0"};
  // The time-freezing part: clock, speed-of-time bounds s_k in [0.5, 10] per stage, the clock
  // meeting the physical grid at every stage end and the running cost over physical time. The α
  // regularization of the floor's gap stays off (the default, as in push_block.yaml, which a test
  // compares with these settings); a weight, e.g. time_freezing.alpha_regularization = 1e-2, would
  // fix the gap's step function α while the gap is exactly zero in contact (docs/guide-cls.md).
  ocp::TimeFreezingSettings time_freezing;
  time_freezing.speed_of_time_lower = 0.5;
  time_freezing.speed_of_time_upper = 10.0;
  ocp::set_time_freezing(spec, frozen, options.discretization.dcs, time_freezing);
  ocp::check_speed_of_time(frozen, spec);  // throws, naming what to raise, if s_k cannot suffice

  ocp::Solver solver(dcs, spec, options);  // builds and compiles the MPCC once
  const ocp::Result result = solver.solve();
  std::printf("%s: %s\n", result.converged ? "converged" : "NOT converged", result.message.c_str());
  std::printf("objective %.9f  complementarity residual %.2e\n", result.objective, result.residual);

  // Physical time: the clock at each stage start, the states at the end (clock removed).
  const ocp::PhysicalResult physical = ocp::recover_physical(frozen, result);
  for (std::size_t k = 0; k < result.controls.size(); ++k)
    std::printf("stage %zu  t = %.9f  u = %.9f\n", k, physical.control_time[k], result.controls[k][0]);
  const auto& final_state = physical.trajectory.states.back();
  std::printf("final time %.9f  x = %.9f  z = %.9f  vx = %.9f  vz = %.9f\n", physical.final_time, final_state[0],
              final_state[1], final_state[2], final_state[3]);

  // Validation: re-simulate the optimal controls with the time-freezing integrator.
  const ocp::Validation validation = ocp::validate(frozen, spec, options, result, physical);
  std::printf("validation: final state deviation %.3e  (%s)\n", validation.final_state_deviation,
              validation.message.c_str());
  return result.converged ? 0 : 1;
} catch (const Error& e) {  // invalid model, options or speed-of-time bounds
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
