// Moving a solution between two transcriptions of the same problem (e.g. standard time stepping
// -> FESD): block by block through their index maps, so the two layouts may differ.
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

void transfer_stage(const Transcription& from, const std::vector<double>& from_w, std::size_t stage,
                    const Transcription& to, std::vector<double>& to_w, double time_scale) {
  const IndexMap& a = from.map;
  const IndexMap& b = to.map;
  if (stage >= a.fe.size())
    throw Error("transfer_stage: stage " + std::to_string(stage) + " of a transcription with " +
                std::to_string(a.fe.size()) + " stages");
  const bool same_stage = from.n_x == to.n_x && from.n_z == to.n_z && from.n_u == to.n_u &&
                          from.n_boundary_z == to.n_boundary_z && b.fe.size() == 1 &&
                          a.fe[stage].size() == b.fe[0].size() &&
                          a.speed_of_time.empty() == b.speed_of_time.empty() &&
                          from.tableau.c.size() == to.tableau.c.size() && (a.fe[stage][0].h >= 0) == (b.fe[0][0].h >= 0);
  if (!same_stage)
    throw Error("transfer_stage: the target is not one stage of the source (sizes, elements, RK stages or FESD differ)");
  if (from_w.size() != from.problem.n_variables() || to_w.size() != to.problem.n_variables())
    throw Error("transfer_stage: a variable vector does not match its transcription");

  // The stage's initial state: x0, or where the stage before ended.
  copy_block(from_w, stage == 0 ? a.x0 : a.fe[stage - 1].back().x_end, to_w, b.x0, from.n_x);
  // The algebraics at the stage start (their λ is the first element's λ_prev, fesd.md §3.3): z0, or
  // those at the last stage point of the element before when that point is its end (c_s = 1; an
  // rbp scheme keeps only the boundary subset there, which the target's z0 does not hold).
  if (stage == 0)
    copy_block(from_w, a.z0, to_w, b.z0, from.n_z);
  else if (!from.rbp)
    copy_block(from_w, a.fe[stage - 1].back().Z.back(), to_w, b.z0, from.n_z);
  copy_block(from_w, a.u[stage], to_w, b.u[0], from.n_u);
  if (!a.speed_of_time.empty()) copy_block(from_w, a.speed_of_time[stage], to_w, b.speed_of_time[0], 1);
  for (std::size_t n = 0; n < b.fe[0].size(); ++n) copy_element(from, from_w, a.fe[stage][n], to_w, b.fe[0][n]);
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

}  // namespace stasis::discretize
