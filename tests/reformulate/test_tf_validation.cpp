// Bad input is rejected with a stasis::Error whose message names the problem.
// Sources: time_freezing.md §1.7 (nosnoc Cls validation, made stricter as §8 step 1 asks: e ∈ [0, 1],
// not nosnoc's [0, 2]), §1.5 (elastic only for one frictionless contact), §2.1 (x0 must not lie in
// the forbidden region), §1.3 (M symmetric positive definite), ARCHITECTURE.md (errors name the
// item). Each case checks that the message contains the key words.
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "tf_test_support.hpp"

using namespace tftest;

namespace {

/// Expects `f` to throw stasis::Error with every word of `needles` in its message.
void expect_error(const std::function<void()>& f, const std::vector<std::string>& needles) {
  try {
    f();
    ADD_FAILURE() << "no error thrown (expected: " << needles.front() << ")";
  } catch (const stasis::Error& e) {
    const std::string msg = e.what();
    for (const auto& n : needles)
      EXPECT_NE(msg.find(n), std::string::npos) << "message: " << msg << "\nmissing: " << n;
  }
}

void expect_cls_error(const model::Cls& c, const std::vector<std::string>& needles) {
  expect_error([&] { c.validate(); }, needles);
  expect_error([&] { rf::time_freezing(c, dense()); }, needles);
}

model::Cls planar(double mu = 0.0) {
  model::Cls c;
  c.name = "planar";
  auto q = c.add_positions({"x", "z"});
  c.add_velocities({"vx", "vz"});
  c.forces = {0.0, -9.81};
  c.add_contact({.gap = q[1],
                 .restitution = 0.0,
                 .friction = mu,
                 .tangent = sym::Matrix{{1.0}, {0.0}},
                 .name = "floor"});
  c.x0 = {0.0, 1.0, 0.0, 0.0};
  return c;
}

}  // namespace

TEST(TimeFreezingValidation, ValidModelsPass) {
  EXPECT_NO_THROW(planar().validate());
  EXPECT_NO_THROW(planar(0.5).validate());
  EXPECT_NO_THROW(ball(2.0, -19.62, 0.7).validate());
  // Starting on the surface (f_c = 0) is allowed (§2.1: the monoped starts on Σ).
  auto c = planar();
  c.x0 = {0.0, 0.0, 0.0, 0.0};
  EXPECT_NO_THROW(rf::time_freezing(c, dense()));
}

TEST(TimeFreezingValidation, MassMatrix) {
  auto c = planar();
  c.mass = sym::Matrix{{1.0, 2.0}, {2.0, 1.0}};  // symmetric, eigenvalues 3 and −1
  expect_cls_error(c, {"planar", "mass matrix", "not positive definite", "q0"});
  c.mass = sym::Matrix{{1.0, 0.2}, {0.1, 1.0}};
  expect_cls_error(c, {"mass matrix", "not symmetric"});
  c.mass = sym::Matrix{{1.0, 0.0}, {0.0, 0.0}};  // singular
  expect_cls_error(c, {"not positive definite"});
  // Depends on q: positive definite at other q, not at q0 (x = 0): M = diag(1, x).
  auto q = c.q;
  c.mass = sym::Matrix{{1.0, 0.0}, {0.0, q[0]}};
  expect_cls_error(c, {"not positive definite"});
  c.mass = sym::Matrix{{1.0, 0.0}, {0.0, 1.0 / q[0]}};  // 1/0 at q0
  expect_cls_error(c, {"mass matrix", "not finite"});
  c.mass = sym::Matrix{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
  expect_cls_error(c, {"mass matrix is 3x3", "2x2"});
  c.mass = sym::Matrix{{1.0, 0.0}, {0.0, 1.0 + c.v[0] * c.v[0]}};
  expect_cls_error(c, {"mass matrix", "depends on 'vx'"});
}

TEST(TimeFreezingValidation, ContactParameters) {
  auto c = planar(-0.1);
  expect_cls_error(c, {"contact 'floor'", "friction", "-0.1"});
  c = planar();
  c.contacts[0].restitution = 1.5;  // nosnoc would accept e <= 2
  expect_cls_error(c, {"restitution 1.5", "[0, 1]"});
  c.contacts[0].restitution = -0.1;
  expect_cls_error(c, {"restitution", "[0, 1]"});
  c = planar(0.3);
  c.contacts[0].tangent = sym::Matrix();
  expect_cls_error(c, {"friction 0.3", "tangent"});
  c = planar(0.3);
  c.contacts[0].tangent = sym::Matrix{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}};
  expect_cls_error(c, {"tangent is 2x3", "2x1", "2x2"});
  c.contacts[0].tangent = sym::Matrix{{1.0}, {0.0}, {0.0}};
  expect_cls_error(c, {"tangent is 3x1"});
  c = planar(0.3);
  c.contacts[0].tangent = sym::Matrix{{1.0}, {c.v[0]}};
  expect_cls_error(c, {"tangent", "depends on 'vx'"});
  c = planar();
  c.contacts[0].gap = sym::Expr(1.0) + 0.0 * c.v[0];
  expect_cls_error(c, {"gap"});
  c.contacts[0].gap = c.q[1] + c.v[1];
  expect_cls_error(c, {"gap function", "depends on 'vz'"});
  c.contacts[0].gap = sym::Expr(2.0);
  expect_cls_error(c, {"gap function does not depend on the positions"});
  c = planar();
  c.contacts.clear();
  expect_cls_error(c, {"no contacts"});
}

TEST(TimeFreezingValidation, ElasticRestrictions) {
  auto c = planar();
  c.contacts[0].restitution = 0.5;
  c.add_contact(c.q[0] + 2.0, 0.0, 0.0, {}, "wall");
  expect_cls_error(c, {"elastic", "single contact", "2 contacts", "§1.5"});
  c = planar(0.2);
  c.contacts[0].restitution = 0.5;
  expect_cls_error(c, {"elastic", "friction", "not supported", "§1.5"});
  // Several inelastic contacts, or one elastic frictionless contact, are fine.
  c = planar(0.2);
  c.add_contact(c.q[0] + 2.0, 0.0, 0.0, {}, "wall");
  EXPECT_NO_THROW(rf::time_freezing(c, dense()));
}

TEST(TimeFreezingValidation, InitialState) {
  auto c = planar();
  c.x0 = {0.0, -0.01, 0.0, 0.0};
  expect_cls_error(c, {"x0", "forbidden region", "contact 'floor'", "-0.01"});
  c.x0 = {0.0, 1.0, 0.0};
  expect_cls_error(c, {"x0 has 3 entries", "4"});
  c.x0 = {0.0, std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0};
  expect_cls_error(c, {"x0 of 'z'", "not finite"});
  c = planar();
  c.forces = {0.0, -9.81 / c.q[0]};
  expect_cls_error(c, {"forces[1]", "not finite"});
}

TEST(TimeFreezingValidation, SizesAndSymbols) {
  auto c = planar();
  c.forces = {0.0};
  expect_cls_error(c, {"forces has 1 entries", "n_q = 2"});
  c = planar();
  const auto stranger = sym::Expr::symbol("w");
  c.forces = {stranger, -9.81};
  expect_cls_error(c, {"forces", "depends on 'w'"});
  c = planar();
  c.add_velocities({"extra"});
  expect_cls_error(c, {"3 velocities for 2 positions"});
  c = planar();
  c.q.push_back(c.q[0]);
  c.position_names.push_back("x again");
  c.add_velocities({"vy"});
  expect_cls_error(c, {"used twice"});
  model::Cls empty;
  expect_cls_error(empty, {"no positions"});
  // The clock is named "t": a model state with that name is rejected by the reformulation.
  model::Cls tc;
  auto q = tc.add_positions({"t"});
  tc.add_velocities({"vt"});
  tc.forces = {-1.0};
  tc.add_contact(q[0]);
  tc.x0 = {1.0, 0.0};
  EXPECT_NO_THROW(tc.validate());
  expect_error([&] { rf::time_freezing(tc, dense()); }, {"'t'", "reserved for the clock"});
}

TEST(TimeFreezingValidation, Options) {
  const auto c = planar();
  rf::TimeFreezingOptions o;
  o.normal_acceleration = 0;
  expect_error([&] { rf::time_freezing(c, dense(o)); }, {"normal_acceleration"});
  o = {};
  o.normal_acceleration = std::numeric_limits<double>::infinity();
  expect_error([&] { rf::time_freezing(c, dense(o)); }, {"normal_acceleration", "finite"});
  o = {};
  o.stiffness = -1;
  expect_error([&] { rf::time_freezing(c, dense(o)); }, {"stiffness"});
  o = {};
  o.eps_t = 0;
  expect_error([&] { rf::time_freezing(c, dense(o)); }, {"eps_t"});
  o = {};
  o.stabilize_positions = -1e-5;
  expect_error([&] { rf::time_freezing(c, dense(o)); }, {"stabilize_positions"});
  o = {};
  o.stabilize_depth = -1e-5;
  o.stabilize_positions = 1;
  expect_error([&] { rf::time_freezing(c, dense(o)); }, {"stabilize_depth", ">= 0"});
  o.stabilize_depth = 1e-5;
  o.stabilize_positions = 0;
  expect_error([&] { rf::time_freezing(c, dense(o)); }, {"stabilize_depth", "needs stabilize_positions > 0"});
}

TEST(TimeFreezingValidation, TooManyRegions) {
  // 7 frictionless contacts: 14 switching functions, 2^14 regions in the dense enumeration.
  model::Cls c;
  auto q = c.add_positions({"x"});
  c.add_velocities({"v"});
  c.forces = {0.0};
  for (int i = 0; i < 7; ++i) c.add_contact(q[0] + i);
  c.x0 = {1.0, 0.0};
  expect_error([&] { rf::time_freezing(c, dense()); }, {"14 switching functions", "at most 12"});
}

TEST(TimeFreezingValidation, JumpSystem) {
  auto make = [] {
    model::JumpSystem js;
    js.name = "ball";
    auto x = js.add_states({"q", "v"});
    js.f = {x[1], -9.81};
    js.constraints = {x[0]};
    js.x0 = {1.0, 0.0};
    return js;
  };
  EXPECT_NO_THROW(make().validate());
  auto check = [](const model::JumpSystem& js, const std::vector<std::string>& needles) {
    expect_error([&] { js.validate(); }, needles);
    expect_error([&] { rf::time_freezing(js, dense()); }, needles);
  };
  auto js = make();
  js.x0 = {-0.5, 0.0};
  check(js, {"JumpSystem 'ball'", "forbidden region", "constraint 0"});
  js = make();
  js.restitution = 0.0;
  check(js, {"restitution 0", "(0, 1]"});
  js.restitution = 1.2;
  check(js, {"restitution 1.2"});
  js = make();
  js.stiffness = 0.0;
  check(js, {"stiffness"});
  js = make();
  js.f = {2 * js.x[1], -9.81};  // q' = 2v is not "the velocity"
  check(js, {"f[0] = v", "auxiliary field"});
  js = make();
  js.constraints = {js.x[0] + js.x[1]};
  check(js, {"constraint 0", "depends on 'v'", "position"});
  js = make();
  js.constraints = {};
  check(js, {"no constraints"});
  js = make();
  js.f = {js.x[1]};
  check(js, {"f has 1 entries"});
  // Odd state count with the built-in law; fine with a user auxiliary field.
  model::JumpSystem odd;
  auto x = odd.add_states({"a", "b", "c"});
  odd.f = {x[1], x[2], -x[0]};
  odd.constraints = {x[0]};
  odd.x0 = {1, 0, 0};
  check(odd, {"odd number of states"});
  odd.auxiliary = {{x[1], -x[0], 0.0}};
  EXPECT_NO_THROW(rf::time_freezing(odd, dense()));
  odd.auxiliary = {{x[1], -x[0]}};
  check(odd, {"auxiliary field 0 has 2 entries"});
  odd.constraints = {x[0], x[1] + 1.0};
  odd.auxiliary = {{x[1], -x[0], 0.0}, {x[1], -x[0], 0.0}, {x[1], -x[0], 0.0}};
  check(odd, {"3 auxiliary fields for 2 constraints"});
}
