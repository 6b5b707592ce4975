// The repeated start (ocp::InitializationOptions::Method::Repeat, ocp::repeat_solution,
// ocp::Solver::solve_repeating): a shorter problem's solution repeated over a longer horizon.
// Checked on examples/time_freezing/push_block.yaml with N = 5 stages of 0.4 s, whose discrete
// optimum is known in closed form (tests/cli/test_cli_push_block.cpp): J = 0.4 (3 (mu g)^2 + 2 A^2)
// with mu g = 4.905, A = 3.125.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/ocp/solver.hpp"

using namespace stasis;

namespace {

const double kMuG = 0.5 * 9.81, kA = 3.125;
const double kCutObjective = 0.4 * (3 * kMuG * kMuG + 2 * kA * kA);  // 36.6833308

std::string push_block_text() {
  std::ifstream in(std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/push_block.yaml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void replace(std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
}

struct Problem {
  io::OcpFile file;
  std::unique_ptr<ocp::Solver> solver;
};

Problem build(const std::string& yaml, const std::string& name) {
  Problem p{io::read_ocp_string(yaml, name), nullptr};
  const ocp::Options options{p.file.discretization, p.file.homotopy, p.file.initialization};
  p.solver = std::make_unique<ocp::Solver>(reformulate::to_dcs(p.file.model.pss, options.discretization.dcs),
                                           p.file.ocp, options);
  return p;
}

// The block pushed 1 m in 2 s (5 stages), the cut.
Problem cut() {
  std::string yaml = push_block_text();
  replace(yaml, "stages: 10", "stages: 5");
  return build(yaml, "cut.yaml");
}

// The block pushed 2 m in 4 s (10 stages of the same 0.4 s), started from the cut repeated once,
// 1 m further.
Problem twice(const std::string& initialization = "initialization: {method: repeat, problem: cut.yaml, shift: {x: 1}}\n") {
  std::string yaml = push_block_text();
  replace(yaml, "horizon: 2\n", "horizon: 4\n");
  replace(yaml, "\"x == 1\"", "\"x == 2\"");
  yaml += "homotopy: {sigma0: 1e-6}\n" + initialization;
  return build(yaml, "twice.yaml");
}

}  // namespace

// The cut's solution repeated is a point of the longer problem that meets every one of its
// constraints (the second push starts at rest where the first ended, 1 m further and 2 s later on
// the clock) with about the cut's complementarity residual and twice its cost; the homotopy from there
// (σ0 = 1e-6) stays at that two-push optimum: J = 2·J_cut = 73.3666616 (the nominal guess leads
// to one long push instead, J = 50.994, measured).
TEST(RepeatedStart, TheCutRepeatedIsAPointOfTheLongerProblemAndItsOptimum) {
  Problem c = cut();
  ocp::Result rc = c.solver->solve();
  ASSERT_TRUE(rc.converged) << rc.message;
  EXPECT_NEAR(rc.objective, kCutObjective, 1e-5);

  Problem t = twice();
  const discretize::Transcription& tr = t.solver->transcription();
  std::vector<double> shift(t.solver->dcs().n_x(), 0.0);
  shift[0] = 1.0;  // x
  const std::vector<double> w = ocp::repeat_solution(*c.solver, rc.w, *t.solver, 0, shift);
  const auto violations = tr.problem.largest_violations(w, 1);
  EXPECT_TRUE(violations.empty() || violations[0].violation() < 1e-7)
      << violations[0].block << " " << violations[0].what << " " << violations[0].violation();
  // The pairs across the seam (stage 5's first element with stage 4's end) join two stages of the
  // cut that were not neighbours: measured 1.6e-9 against the cut's 1e-9.
  EXPECT_LE(tr.problem.complementarity_residual(w), 1e-8);
  EXPECT_NEAR(tr.problem.objective(w), 2 * rc.objective, 1e-9 * rc.objective);
  // Stage k's end: the clock at (k + 1)·0.4, x of the cut's stage k mod 5 end, + 1 from stage 5 on.
  const int clock = t.file.ocp.clock;
  ASSERT_GE(clock, 0);
  const auto& cut_map = c.solver->transcription().map;
  for (std::size_t k = 0; k < 10; ++k) {
    const auto end = static_cast<std::size_t>(tr.map.fe[k].back().x_end);
    const auto cut_end = static_cast<std::size_t>(cut_map.fe[k % 5].back().x_end);
    EXPECT_NEAR(w[end + static_cast<std::size_t>(clock)], 0.4 * static_cast<double>(k + 1), 1e-8) << k;
    EXPECT_EQ(w[end], rc.w[cut_end] + (k >= 5 ? 1.0 : 0.0)) << k;
  }

  // The same through solve_repeating, which solves the cut itself: its steps are the
  // initialization's, numbered on, and the iterations add up.
  Problem c2 = cut();
  std::vector<mpcc::StepStats> seen;
  t.solver->on_step = [&](const mpcc::StepStats& s) { seen.push_back(s); };
  const ocp::Result r = t.solver->solve_repeating(*c2.solver);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LE(r.residual, 1e-9);
  EXPECT_NEAR(r.objective, 2 * kCutObjective, 1e-5);
  EXPECT_TRUE(r.initialization.converged) << r.initialization.message;
  EXPECT_NEAR(r.initialization.objective, kCutObjective, 1e-5);
  ASSERT_FALSE(r.initialization.steps.empty());
  for (std::size_t i = 0; i < r.initialization.steps.size(); ++i) {
    EXPECT_TRUE(r.initialization.steps[i].initialization);
    EXPECT_EQ(r.initialization.steps[i].step, static_cast<int>(i));
  }
  ASSERT_EQ(seen.size(), r.initialization.steps.size() + r.homotopy.steps.size());
  EXPECT_TRUE(seen.front().initialization);
  EXPECT_FALSE(seen.back().initialization);
  EXPECT_EQ(r.nlp_iterations(), r.initialization.nlp_iterations + r.homotopy.nlp_iterations);
  EXPECT_GT(r.initialization.nlp_iterations, 0);
  EXPECT_GE(r.solve_time_s, r.initialization.wall_time_s);
}

// What does not fit is refused with the reason, before anything is solved.
TEST(RepeatedStart, WhatDoesNotFitIsRefused) {
  Problem c = cut();
  Problem t = twice();
  const std::vector<double>& w = c.solver->nominal_point();
  auto message = [](const auto& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { (void)ocp::repeat_solution(*c.solver, w, *t.solver, 5, {}); }).find("from_stage 5"),
            std::string::npos);
  // Stages of another length: the cut over 1 s.
  std::string short_yaml = push_block_text();
  replace(short_yaml, "stages: 10", "stages: 5");
  replace(short_yaml, "horizon: 2\n", "horizon: 1\n");
  Problem other = build(short_yaml, "short.yaml");
  EXPECT_NE(message([&] { (void)ocp::repeat_solution(*other.solver, other.solver->nominal_point(), *t.solver, 0, {}); })
                .find("control stages are 0.2 long"),
            std::string::npos);
  // solve() has no cut to start from; the clock cannot be shifted; an unknown state.
  EXPECT_NE(message([&] { (void)t.solver->solve(); }).find("solve_repeating"), std::string::npos);
  try {
    (void)twice("initialization: {method: repeat, problem: cut.yaml, shift: {t: 1}}\n");
    ADD_FAILURE() << "a shifted clock was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is the clock"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("twice.yaml:"), std::string::npos) << e.what();
  }
  try {
    (void)twice("initialization: {method: repeat, problem: cut.yaml, shift: {y: 1}}\n");
    ADD_FAILURE() << "an unknown state was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'y' is not a state"), std::string::npos) << e.what();
  }
  try {
    (void)twice("initialization: {method: repeat}\n");
    ADD_FAILURE() << "a repeat without its problem was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("option 'problem'"), std::string::npos) << e.what();
  }
}
