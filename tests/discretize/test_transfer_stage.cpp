// discretize::transfer_stage: one stage of a solution as a point of a one-stage transcription (an
// integrator step); ocp::validate checks an OCP stage's motion against the step's equations.
#include <gtest/gtest.h>

#include <numeric>

#include "stasis/discretize/fesd.hpp"
#include "stasis/error.hpp"
#include "stasis/reformulate/dcs.hpp"

using namespace stasis;

namespace {

// ẋ = u − 1 for x < 0, u + 1 for x > 0.
model::Pss two_fields() {
  model::Pss p;
  sym::Vector x = p.add_states({"x"});
  sym::Vector u = p.add_controls({"u"});
  model::Subsystem s;
  s.switching = {x[0]};
  s.signs = {{-1}, {1}};
  s.fields = {{u[0] - 1.0}, {u[0] + 1.0}};
  p.subsystems = {s};
  p.x0 = {0.0};
  return p;
}

// A 3-stage transcription of two_fields (2 elements per stage, 0.5 per stage) with a numbered
// solution vector (entry i = i), and a target of `target_stages` stages of the same length filled
// with -1.
struct Numbered {
  discretize::Transcription from, to;
  std::vector<double> from_w, to_w;
};

Numbered numbered(int target_stages) {
  const reformulate::Dcs dcs = reformulate::to_dcs(two_fields(), reformulate::DcsMode::Stewart);
  discretize::Options d;
  d.elements = 2;
  discretize::OcpSpec three;
  three.horizon = 1.5;
  three.stages = 3;
  discretize::OcpSpec target = three;
  target.horizon = 0.5 * target_stages;
  target.stages = target_stages;
  Numbered n{discretize::transcribe(dcs, three, d), discretize::transcribe(dcs, target, d), {}, {}};
  n.from_w.resize(n.from.problem.n_variables());
  std::iota(n.from_w.begin(), n.from_w.end(), 0.0);
  n.to_w.assign(n.to.problem.n_variables(), -1.0);
  return n;
}

}  // namespace

// transfer_stage copies stage k of a 3-stage transcription into the single stage of an integrator
// step: the stage's initial state (the end of stage k − 1) and algebraics (those at the last Radau
// point of stage k − 1, the first element's λ_prev), control, and every element's length, stage
// values and end state. Checked entry by entry with a numbered source vector.
TEST(TransferStage, CopiesOneStageIntoAStep) {
  Numbered n = numbered(1);
  auto& [from, to, from_w, to_w] = n;
  discretize::transfer_stage(from, from_w, 1, to, to_w);

  const auto& a = from.map;
  const auto& b = to.map;
  auto at = [](const std::vector<double>& w, mpcc::Index i) { return w[static_cast<std::size_t>(i)]; };
  EXPECT_EQ(at(to_w, b.x0), at(from_w, a.fe[0].back().x_end));
  for (std::size_t j = 0; j < from.n_z; ++j)
    EXPECT_EQ(at(to_w, b.z0 + static_cast<mpcc::Index>(j)), at(from_w, a.fe[0].back().Z.back() + static_cast<mpcc::Index>(j)));
  EXPECT_EQ(at(to_w, b.u[0]), at(from_w, a.u[1]));
  for (std::size_t n = 0; n < 2; ++n) {
    const auto& fa = a.fe[1][n];
    const auto& fb = b.fe[0][n];
    EXPECT_EQ(at(to_w, fb.h), at(from_w, fa.h));
    EXPECT_EQ(at(to_w, fb.x_end), at(from_w, fa.x_end));
    for (std::size_t m = 0; m < fa.Z.size(); ++m)
      for (std::size_t j = 0; j < from.n_z; ++j)
        EXPECT_EQ(at(to_w, fb.Z[m] + static_cast<mpcc::Index>(j)), at(from_w, fa.Z[m] + static_cast<mpcc::Index>(j)));
  }

  // time_scale 2: the same motion on twice the numerical time, so h doubles (no speed of time
  // here, and the integral representation has no stage derivatives).
  std::vector<double> stretched(to.problem.n_variables(), -1.0);
  discretize::transfer_stage(from, from_w, 1, to, stretched, 2.0);
  EXPECT_EQ(at(stretched, b.fe[0][1].h), 2.0 * at(from_w, a.fe[1][1].h));
  EXPECT_EQ(at(stretched, b.fe[0][1].x_end), at(from_w, a.fe[1][1].x_end));

  EXPECT_THROW(discretize::transfer_stage(from, from_w, 3, to, to_w), Error);  // no stage 3
  std::vector<double> same = from_w;
  EXPECT_THROW(discretize::transfer_stage(from, from_w, 0, from, same), Error);  // not one stage
}

// repeat_stage copies stage k of one transcription into stage j of another and moves the states
// by a shift: every stage value and end value once (with Radau IIA the last stage point is the
// element's end, one block), the initial state only into stage 0; the control, algebraics and
// element lengths as they are. Checked entry by entry with a numbered source vector.
TEST(TransferStage, RepeatStageShiftsTheStatesOnce) {
  Numbered n = numbered(5);
  auto& [from, to, from_w, to_w] = n;
  const double shift = 1000.0;
  discretize::repeat_stage(from, from_w, 1, to, to_w, 3, {shift});

  const auto& a = from.map;
  const auto& b = to.map;
  auto at = [](const std::vector<double>& w, mpcc::Index i) { return w[static_cast<std::size_t>(i)]; };
  EXPECT_EQ(at(to_w, b.u[3]), at(from_w, a.u[1]));
  EXPECT_EQ(at(to_w, b.x0), -1.0);  // not stage 0: untouched
  for (std::size_t n = 0; n < 2; ++n) {
    const auto& fa = a.fe[1][n];
    const auto& fb = b.fe[3][n];
    EXPECT_EQ(at(to_w, fb.h), at(from_w, fa.h));
    ASSERT_EQ(fa.X.size(), fb.X.size());
    for (std::size_t m = 0; m < fa.X.size(); ++m) EXPECT_EQ(at(to_w, fb.X[m]), at(from_w, fa.X[m]) + shift) << m;
    EXPECT_EQ(at(to_w, fb.x_end), at(from_w, fa.x_end) + shift);
    for (std::size_t m = 0; m < fa.Z.size(); ++m)
      for (std::size_t j = 0; j < from.n_z; ++j)
        EXPECT_EQ(at(to_w, fb.Z[m] + static_cast<mpcc::Index>(j)), at(from_w, fa.Z[m] + static_cast<mpcc::Index>(j)));
  }
  // Into stage 0: the initial state (where source stage 1 starts) shifted, its algebraics copied.
  discretize::repeat_stage(from, from_w, 1, to, to_w, 0, {shift});
  EXPECT_EQ(at(to_w, b.x0), at(from_w, a.fe[0].back().x_end) + shift);
  EXPECT_EQ(at(to_w, b.z0), at(from_w, a.fe[0].back().Z.back()));
  // No shift: a plain copy.
  discretize::repeat_stage(from, from_w, 2, to, to_w, 4);
  EXPECT_EQ(at(to_w, b.fe[4][1].x_end), at(from_w, a.fe[2][1].x_end));

  EXPECT_THROW(discretize::repeat_stage(from, from_w, 3, to, to_w, 0), Error);       // no source stage 3
  EXPECT_THROW(discretize::repeat_stage(from, from_w, 0, to, to_w, 5), Error);       // no target stage 5
  EXPECT_THROW(discretize::repeat_stage(from, from_w, 0, to, to_w, 0, {1, 2}), Error);  // shift of 2 states
}
