#pragma once
// The optional top-level `draw:` section of kind simulate / ocp problem files: how to draw a planar
// mechanical model (docs/report.md). Points are pairs of expressions (horizontal x, vertical z) of
// the model's states, parameters, definitions and `t`; links join points; ground lines and
// obstacles are constant. The runs evaluate the points at every time point of their result and
// write them into result.json under "draw" (docs/results.md), which `stasis report` animates.
//
//   draw:
//     points:
//       hip: ["qx", "qz"]
//       knee: ["qx - 0.2*sin(phi)", "qz - 0.2*cos(phi)"]
//       ball: {at: ["q1", "q2"], radius: 0.02}     # a point drawn as a disc of that radius
//     links: [[hip, knee]]
//     ground: 0                                    # z = 0; or a list of heights / {from: [x, z], to: [x, z]}
//     obstacles: [{ellipse: {center: [0.5, 0], axes: [0.25, 0.1]}}, {line: {from: [0, 1], to: [1, 1]}}]
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "stasis/io/expression.hpp"
#include "stasis/sym/expr.hpp"

namespace stasis::io {

struct DrawPoint {
  std::string name;
  sym::Expr x, z;       ///< horizontal and vertical coordinate
  double radius = 0.0;  ///< > 0: drawn as a disc of this radius (model units); 0: a dot
  SourceLocation where;
};

/// A ground line: a horizontal line z = height across the whole picture, or a segment.
struct DrawGround {
  bool horizontal = true;
  double height = 0.0;
  double from[2] = {0.0, 0.0}, to[2] = {0.0, 0.0};
};

struct DrawObstacle {
  enum class Kind { Ellipse, Line } kind = Kind::Ellipse;
  double center[2] = {0.0, 0.0}, axes[2] = {0.0, 0.0};  ///< ellipse: center, semi-axes (x, z)
  double from[2] = {0.0, 0.0}, to[2] = {0.0, 0.0};      ///< line
};

struct DrawSpec {
  std::vector<DrawPoint> points;
  std::vector<std::pair<std::size_t, std::size_t>> links;  ///< indices into points
  std::vector<DrawGround> ground;
  std::vector<DrawObstacle> obstacles;
  /// The names the point expressions depend on: states of the model, or `t` (time) when `t` is
  /// not itself a state column of the results.
  std::vector<std::string> inputs;
  sym::Vector input_symbols;  ///< the symbols standing for `inputs` in the point expressions
  SourceLocation where;       ///< the `draw:` key
};

/// Point coordinates at every time point: x[i][k], z[i][k] for point i at time index k.
struct DrawFrames {
  std::vector<std::vector<double>> x, z;
};

/// Evaluates the points at each row of a result: `states[k]` holds the values of `state_names` at
/// `time[k]`. An input named `t` that is not a state column is `time[k]`. Throws stasis::Error if
/// an input is missing from `state_names`.
DrawFrames evaluate_draw(const DrawSpec& spec, const std::vector<double>& time,
                         const std::vector<std::string>& state_names,
                         const std::vector<std::vector<double>>& states);

}  // namespace stasis::io
