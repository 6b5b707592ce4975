// Moving a solution between two transcriptions of the same problem (e.g. standard time stepping
// -> FESD): block by block through their index maps, so the two layouts may differ.
#include <algorithm>
#include <string>

#include "stasis/discretize/fesd.hpp"
#include "stasis/error.hpp"

namespace stasis::discretize {

namespace {

void copy_block(const std::vector<double>& from_w, mpcc::Index from, std::vector<double>& to_w, mpcc::Index to,
                std::size_t n) {
  if (from < 0 || to < 0) return;  // not a variable in one of the two layouts
  for (std::size_t i = 0; i < n; ++i)
    to_w[static_cast<std::size_t>(to) + i] = from_w[static_cast<std::size_t>(from) + i];
}

void copy_blocks(const std::vector<double>& from_w, const std::vector<mpcc::Index>& from, std::vector<double>& to_w,
                 const std::vector<mpcc::Index>& to, std::size_t n) {
  for (std::size_t m = 0; m < from.size() && m < to.size(); ++m) copy_block(from_w, from[m], to_w, to[m], n);
}

/// One finite element's step length, stage, end and boundary values.
void copy_element(const Transcription& from, const std::vector<double>& from_w, const FiniteElementIndex& fa,
                  std::vector<double>& to_w, const FiniteElementIndex& fb) {
  copy_block(from_w, fa.h, to_w, fb.h, 1);
  copy_blocks(from_w, fa.X, to_w, fb.X, from.n_x);
  copy_blocks(from_w, fa.Z, to_w, fb.Z, from.n_z);
  copy_blocks(from_w, fa.V, to_w, fb.V, from.n_x);
  copy_block(from_w, fa.x_end, to_w, fb.x_end, from.n_x);
  // The boundary algebraics of rbp schemes are a subset of z (Dcs::boundary_z); both layouts
  // come from the same scheme, so the sizes agree.
  copy_block(from_w, fa.z_end, to_w, fb.z_end, from.n_boundary_z);
}

}  // namespace

void transfer_solution(const Transcription& from, const std::vector<double>& from_w, const Transcription& to,
                       std::vector<double>& to_w) {
  const IndexMap& a = from.map;
  const IndexMap& b = to.map;
  bool same_grid = from.n_x == to.n_x && from.n_z == to.n_z && from.n_u == to.n_u &&
                   from.n_boundary_z == to.n_boundary_z && a.fe.size() == b.fe.size() &&
                   a.u.size() == b.u.size() && a.speed_of_time.size() == b.speed_of_time.size() &&
                   from.tableau.c.size() == to.tableau.c.size();
  for (std::size_t k = 0; same_grid && k < a.fe.size(); ++k) same_grid = a.fe[k].size() == b.fe[k].size();
  if (!same_grid)
    throw Error("transfer_solution: the two transcriptions differ in sizes, stages, elements or RK stages");
  if (from_w.size() != from.problem.n_variables() || to_w.size() != to.problem.n_variables())
    throw Error("transfer_solution: a variable vector does not match its transcription");

  copy_block(from_w, a.x0, to_w, b.x0, from.n_x);
  copy_block(from_w, a.z0, to_w, b.z0, from.n_z);
  copy_block(from_w, a.final_time, to_w, b.final_time, 1);
  for (std::size_t k = 0; k < a.u.size(); ++k) copy_block(from_w, a.u[k], to_w, b.u[k], from.n_u);
  for (std::size_t k = 0; k < a.speed_of_time.size(); ++k)
    copy_block(from_w, a.speed_of_time[k], to_w, b.speed_of_time[k], 1);
  for (std::size_t k = 0; k < a.fe.size(); ++k)
    for (std::size_t n = 0; n < a.fe[k].size(); ++n)
      copy_element(from, from_w, a.fe[k][n], to_w, b.fe[k][n]);  // both FESD: the step lengths too
}

namespace {

// Stage `stage` of `from` and stage `to_stage` of `to` hold the same variables: sizes, elements,
// RK stages, FESD step lengths and speed of time agree. `what` names the caller in the message.
void check_same_stage(const Transcription& from, const std::vector<double>& from_w, std::size_t stage,
                      const Transcription& to, const std::vector<double>& to_w, std::size_t to_stage,
                      const char* what) {
  const IndexMap& a = from.map;
  const IndexMap& b = to.map;
  if (stage >= a.fe.size())
    throw Error(std::string(what) + ": stage " + std::to_string(stage) + " of a transcription with " +
                std::to_string(a.fe.size()) + " stages");
  if (to_stage >= b.fe.size())
    throw Error(std::string(what) + ": target stage " + std::to_string(to_stage) + " of a transcription with " +
                std::to_string(b.fe.size()) + " stages");
  const bool same_stage = from.n_x == to.n_x && from.n_z == to.n_z && from.n_u == to.n_u &&
                          from.n_boundary_z == to.n_boundary_z && a.fe[stage].size() == b.fe[to_stage].size() &&
                          a.speed_of_time.empty() == b.speed_of_time.empty() &&
                          from.tableau.c.size() == to.tableau.c.size() &&
                          (a.fe[stage][0].h >= 0) == (b.fe[to_stage][0].h >= 0);
  if (!same_stage)
    throw Error(std::string(what) + ": the two stages differ (sizes, elements, RK stages or FESD)");
  if (from_w.size() != from.problem.n_variables() || to_w.size() != to.problem.n_variables())
    throw Error(std::string(what) + ": a variable vector does not match its transcription");
}

// Copies stage `stage` into stage `to_stage` (checked by check_same_stage): control, speed of time
// and every element; for to_stage 0 also the stage's initial state and algebraics (a later target
// stage starts where the one before it ends).
void copy_stage(const Transcription& from, const std::vector<double>& from_w, std::size_t stage,
                const Transcription& to, std::vector<double>& to_w, std::size_t to_stage) {
  const IndexMap& a = from.map;
  const IndexMap& b = to.map;
  if (to_stage == 0) {
    // The stage's initial state: x0, or where the stage before ended.
    copy_block(from_w, stage == 0 ? a.x0 : a.fe[stage - 1].back().x_end, to_w, b.x0, from.n_x);
    // The algebraics at the stage start (their λ is the first element's λ_prev, fesd.md §3.3): z0,
    // or those at the last stage point of the element before when that point is its end (c_s = 1;
    // an rbp scheme keeps only the boundary subset there, which the target's z0 does not hold).
    if (stage == 0)
      copy_block(from_w, a.z0, to_w, b.z0, from.n_z);
    else if (!from.rbp)
      copy_block(from_w, a.fe[stage - 1].back().Z.back(), to_w, b.z0, from.n_z);
  }
  copy_block(from_w, a.u[stage], to_w, b.u[to_stage], from.n_u);
  if (!a.speed_of_time.empty())
    copy_block(from_w, a.speed_of_time[stage], to_w, b.speed_of_time[to_stage], 1);
  for (std::size_t n = 0; n < b.fe[to_stage].size(); ++n)
    copy_element(from, from_w, a.fe[stage][n], to_w, b.fe[to_stage][n]);
}

void add_to_block(std::vector<double>& w, mpcc::Index at, const std::vector<double>& shift) {
  for (std::size_t i = 0; at >= 0 && i < shift.size(); ++i) w[static_cast<std::size_t>(at) + i] += shift[i];
}

}  // namespace

void transfer_stage(const Transcription& from, const std::vector<double>& from_w, std::size_t stage,
                    const Transcription& to, std::vector<double>& to_w, double time_scale) {
  if (to.map.fe.size() != 1)
    throw Error("transfer_stage: the target is not one stage of the source (it has " +
                std::to_string(to.map.fe.size()) + " stages)");
  check_same_stage(from, from_w, stage, to, to_w, 0, "transfer_stage");
  copy_stage(from, from_w, stage, to, to_w, 0);
  const IndexMap& b = to.map;
  if (time_scale != 1.0) {
    // The same motion on a numerical time stretched by time_scale: h·time_scale, and the speed
    // of time and the stage derivatives (s·f, per unit of numerical time) divided by it.
    auto scale = [&](mpcc::Index at, std::size_t n, double by) {
      for (std::size_t i = 0; at >= 0 && i < n; ++i) to_w[static_cast<std::size_t>(at) + i] *= by;
    };
    if (!b.speed_of_time.empty()) scale(b.speed_of_time[0], 1, 1.0 / time_scale);
    for (const FiniteElementIndex& fb : b.fe[0]) {
      scale(fb.h, 1, time_scale);
      for (mpcc::Index v : fb.V) scale(v, to.n_x, 1.0 / time_scale);
    }
  }
}

void repeat_stage(const Transcription& from, const std::vector<double>& from_w, std::size_t stage,
                  const Transcription& to, std::vector<double>& to_w, std::size_t to_stage,
                  const std::vector<double>& state_shift) {
  check_same_stage(from, from_w, stage, to, to_w, to_stage, "repeat_stage");
  if (!state_shift.empty() && state_shift.size() != from.n_x)
    throw Error("repeat_stage: the state shift has " + std::to_string(state_shift.size()) + " entries, the states " +
                std::to_string(from.n_x));
  copy_stage(from, from_w, stage, to, to_w, to_stage);
  // The states move by the shift; their derivatives, the algebraics and the control do not.
  const IndexMap& b = to.map;
  if (to_stage == 0) add_to_block(to_w, b.x0, state_shift);
  for (const FiniteElementIndex& fb : b.fe[to_stage]) {
    for (mpcc::Index x : fb.X) add_to_block(to_w, x, state_shift);
    // Where the last stage point is the element's end (c_s = 1), x_end is that point's block.
    if (std::find(fb.X.begin(), fb.X.end(), fb.x_end) == fb.X.end()) add_to_block(to_w, fb.x_end, state_shift);
  }
}

}  // namespace stasis::discretize
