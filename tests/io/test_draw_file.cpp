// The optional `draw:` section of simulate / ocp problem files (stasis/io/draw.hpp): points as
// expressions of states, parameters, definitions and t; links, ground and obstacles; located
// errors for misspelled names, unknown points and keys, and controls; evaluation at result rows.
#include <gtest/gtest.h>

#include "io_test_support.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/io/draw.hpp"
#include "stasis/io/model_file.hpp"

namespace {

using stasis::Error;
using stasis::io::DrawObstacle;
using stasis::io::evaluate_draw;
using stasis::io::read_ocp_string;
using stasis::io::read_simulate_file;
using stasis::io::read_simulate_string;


// A planar two-link "leg" on a cls model; `draw` is appended as the last lines.
std::string leg_file(const std::string& draw) {
  return "kind: simulate\n"
         "model:\n"
         "  cls:\n"
         "    positions: [qx, qz, phi]\n"
         "    velocities: [vx, vz, w]\n"
         "    parameters: {g: 9.81, l: 0.2}\n"
         "    definitions: {knee_x: \"qx - l*sin(phi)\"}\n"
         "    forces: [0, -g, 0]\n"
         "    contacts:\n"
         "      - {gap: \"qz - 2*l*cos(phi)\", restitution: 0, friction: 0}\n"
         "    x0: {qx: 0, qz: 1, phi: 0.1, vx: 0, vz: 0, w: 0}\n"
         "simulate: {horizon: 1, steps: 10}\n" +
         draw;
}

std::string error_of(const std::string& text) {
  try {
    read_simulate_string(text, "leg.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(DrawFile, ReadsPointsLinksGroundAndObstacles) {
  const auto file = read_simulate_string(
      leg_file("draw:\n"
               "  points:\n"
               "    hip: [qx, qz]\n"
               "    knee: [knee_x, \"qz - l*cos(phi)\"]\n"
               "    foot: {at: [\"qx - 2*l*sin(phi)\", \"qz - 2*l*cos(phi)\"], radius: 0.02}\n"
               "  links: [[hip, knee], [knee, foot]]\n"
               "  ground: [0, {from: [-1, 0.5], to: [1, 0.5]}]\n"
               "  obstacles:\n"
               "    - {ellipse: {center: [0.5, 0], axes: [0.25, l]}}\n"
               "    - {line: {from: [0, 1], to: [1, 1]}}\n"),
      "leg.yaml");
  ASSERT_TRUE(file.draw.has_value());
  const auto& d = *file.draw;
  ASSERT_EQ(d.points.size(), 3u);
  EXPECT_EQ(d.points[0].name, "hip");
  EXPECT_EQ(d.points[2].name, "foot");
  EXPECT_DOUBLE_EQ(d.points[2].radius, 0.02);
  ASSERT_EQ(d.links.size(), 2u);
  EXPECT_EQ(d.links[1], (std::pair<std::size_t, std::size_t>{1, 2}));
  ASSERT_EQ(d.ground.size(), 2u);
  EXPECT_TRUE(d.ground[0].horizontal);
  EXPECT_FALSE(d.ground[1].horizontal);
  EXPECT_DOUBLE_EQ(d.ground[1].to[1], 0.5);
  ASSERT_EQ(d.obstacles.size(), 2u);
  EXPECT_EQ(d.obstacles[0].kind, DrawObstacle::Kind::Ellipse);
  EXPECT_DOUBLE_EQ(d.obstacles[0].axes[1], 0.2);  // a parameter
  EXPECT_EQ(d.obstacles[1].kind, DrawObstacle::Kind::Line);

  // Evaluated at result rows (physical states, without the clock).
  const std::vector<std::string> names = {"qx", "qz", "phi", "vx", "vz", "w"};
  const auto frames = evaluate_draw(d, {0.0, 0.5}, names, {{0, 1, 0, 0, 0, 0}, {0.3, 0.8, 0.5, 0, 0, 0}});
  ASSERT_EQ(frames.x.size(), 3u);
  EXPECT_DOUBLE_EQ(frames.x[1][0], 0.0);
  EXPECT_NEAR(frames.x[1][1], 0.3 - 0.2 * std::sin(0.5), 1e-15);
  EXPECT_NEAR(frames.z[2][1], 0.8 - 0.4 * std::cos(0.5), 1e-15);
}

TEST(DrawFile, TimeMayBeUsedAndIsTheResultTime) {
  const auto file =
      read_simulate_string(leg_file("draw: {points: {marker: [t, 0]}, ground: 0}\n"), "leg.yaml");
  ASSERT_TRUE(file.draw.has_value());
  const auto frames = evaluate_draw(*file.draw, {0.0, 0.25}, {"qx"}, {{1.0}, {2.0}});
  EXPECT_DOUBLE_EQ(frames.x[0][1], 0.25);
}

TEST(DrawFile, MisspelledNameIsALocatedError) {
  const std::string e = error_of(leg_file("draw:\n  points:\n    hip: [qx, qzz]\n"));
  EXPECT_CONTAINS(e, "leg.yaml:15:15:");
  EXPECT_CONTAINS(e, "unknown name 'qzz'");
  EXPECT_CONTAINS(e, "did you mean 'qz'");
}

TEST(DrawFile, UnknownPointInALinkIsALocatedError) {
  const std::string e =
      error_of(leg_file("draw:\n  points: {hip: [qx, qz], knee: [qx, 0]}\n  links: [[hip, kne]]\n"));
  EXPECT_CONTAINS(e, "leg.yaml:15:17:");
  EXPECT_CONTAINS(e, "unknown point 'kne'");
  EXPECT_CONTAINS(e, "did you mean 'knee'");
}

TEST(DrawFile, UnknownKeysAndBadShapesAreErrors) {
  EXPECT_CONTAINS(error_of(leg_file("draw: {points: {a: [qx, qz]}, groud: 0}\n")),
                  "unknown key 'groud' in draw");
  EXPECT_CONTAINS(error_of(leg_file("draw: {points: {a: [qx]}}\n")), "list [x, z]");
  EXPECT_CONTAINS(error_of(leg_file("draw: {ground: 0}\n")), "missing key 'points'");
  EXPECT_CONTAINS(error_of(leg_file("draw: {points: {a: [qx, qz]}, obstacles: [{circle: {}}]}\n")),
                  "unknown key 'circle'");
  EXPECT_CONTAINS(
      error_of(leg_file(
          "draw: {points: {a: [qx, qz]}, obstacles: [{ellipse: {center: [0, 0], axes: [0, 1]}}]}\n")),
      "positive semi-axes");
  EXPECT_CONTAINS(error_of(leg_file("draw: {points: {a: [qx, qz]}, links: [[a, a]]}\n")), "to itself");
  // Not a state: a typo in a top-level key is still caught.
  EXPECT_CONTAINS(error_of(leg_file("drwa: {points: {a: [qx, qz]}}\n")), "unknown key 'drwa'");
}

TEST(DrawFile, PointsMayNotDependOnControls) {
  const std::string text =
      "kind: ocp\n"
      "model:\n"
      "  pss:\n"
      "    states: [x]\n"
      "    controls: [u]\n"
      "    switching: [x]\n"
      "    regions: [{signs: [-1], f: [u]}, {signs: [1], f: [u]}]\n"
      "    x0: [0]\n"
      "ocp: {horizon: 1, stages: 2, cost: {running: \"u^2\"}}\n"
      "draw: {points: {cart: [x, u]}}\n";
  try {
    read_ocp_string(text, "cart.yaml");
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_CONTAINS(m, "cart.yaml:10:");
    EXPECT_CONTAINS(m, "the control 'u'");
  }
  const auto ok =
      read_ocp_string(text.substr(0, text.rfind("draw:")) + "draw: {points: {cart: [x, 0]}}\n", "cart.yaml");
  ASSERT_TRUE(ok.draw.has_value());
  EXPECT_EQ(ok.draw->inputs, std::vector<std::string>{"x"});
}

TEST(DrawFile, ExamplesWithADrawSection) {
  for (const char* name : {"bouncing_ball.yaml", "particle_friction.yaml", "particle_inelastic.yaml"}) {
    const auto file = read_simulate_file(std::string(STASIS_SOURCE_DIR) + "/examples/time_freezing/" + name);
    ASSERT_TRUE(file.draw.has_value()) << name;
    EXPECT_EQ(file.draw->points.size(), 1u) << name;
    ASSERT_EQ(file.draw->ground.size(), 1u) << name;
    EXPECT_DOUBLE_EQ(file.draw->ground[0].height, 0.0) << name;
  }
}
