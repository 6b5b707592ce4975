#pragma once
// The HTML report of a run (docs/report.md): `stasis report DIR` and every simulate / solve / mpcc
// run write DIR/report.html from DIR/result.json. One self-contained file: a summary table, static
// SVG plots (states against physical and numerical time, controls, contact forces and impulses,
// speed of time, homotopy progress), the events, and, when result.json has a "draw" block, an
// animation of the motion (inline SVG moved by inline JS) and a filmstrip of key frames. Time-frozen
// OCP results also get a validation section (the re-simulation check, pass/fail against
// kDeviationLimit and kViolationLimit) and their frozen control stages marked.
//
// The report is built in two steps, both testable: report_data() turns result.json into plot data
// and tables, report_html() renders them.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stasis/report/svg.hpp"

namespace stasis::report {

/// A titled group of plots (one <section> of the report).
struct PlotGroup {
  std::string id;  ///< "physical", "numerical", "controls", "contact", "speed_of_time", "homotopy"
  std::string title;
  std::string note;  ///< a sentence under the title (may be empty)
  std::vector<Plot> plots;
};

/// A table of plain-text cells (escaped when rendered).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

/// The "draw" block of result.json: point coordinates at every physical time point.
struct DrawData {
  std::vector<std::string> names;         ///< points, in declaration order
  std::vector<double> radius;             ///< per point; 0 = a dot
  std::vector<std::vector<double>> x, z;  ///< [point][time index]
  std::vector<std::pair<std::size_t, std::size_t>> links;
  std::vector<double> ground_heights;                  ///< horizontal ground lines z = h
  std::vector<std::array<double, 4>> ground_segments;  ///< x0, z0, x1, z1
  std::vector<std::array<double, 4>> ellipses;         ///< center x, z; semi-axes a, b
  std::vector<std::array<double, 4>> lines;            ///< obstacle lines x0, z0, x1, z1
};

/// The world-to-pixel map of the animation and the filmstrip (equal scales in x and z).
struct View {
  double x0 = 0.0, z0 = 0.0;  ///< world coordinates of the lower-left corner of the picture
  double scale = 1.0;         ///< pixels per model unit
  double width = 0.0, height = 0.0;
  double px(double x) const { return (x - x0) * scale; }
  double pz(double z) const { return height - (z - z0) * scale; }
};

/// A frame of the filmstrip.
struct KeyFrame {
  std::size_t index = 0;  ///< into `time` and the DrawData columns
  double time = 0.0;
  std::string label;  ///< "start", "impact", "end", ...
};

/// Default limits of the validation checks of time-frozen OCP results (docs/report.md): a deviation
/// of the re-simulated from the OCP's physical state passes at most kDeviationLimit (absolute), a
/// gap or path violation at most kViolationLimit; result.json's validation.tolerances (the
/// problem's ocp.validation) replace them.
constexpr double kDeviationLimit = 1e-3;
constexpr double kViolationLimit = 1e-6;

/// One row of the validation table.
struct Check {
  enum class Verdict { Pass, Fail, NotAvailable, Info };  ///< Info: a figure without a limit
  std::string name;   ///< "final state deviation", ...
  std::string value;  ///< formatted
  std::string limit;  ///< "≤ 1e-3", "yes"; empty for Info
  Verdict verdict = Verdict::Info;
};

/// The "validation" block of a time-frozen OCP result: the optimal controls re-simulated.
struct ValidationData {
  std::vector<Check> checks;
  std::string message;                ///< validation.message
  bool passed = false;                ///< no check failed
  std::vector<std::string> failures;  ///< "final state deviation 0.0628 > 1e-3", ...
  std::optional<Plot> stage_plot;     ///< stage_end_deviation per control stage (when given)
  /// The limits the checks used: validation.tolerances, else kDeviationLimit / kViolationLimit.
  double deviation_limit = kDeviationLimit, gap_limit = kViolationLimit, violation_limit = kViolationLimit;
};

struct ReportData {
  std::string title;
  std::string kind;  ///< "mpcc", "ocp", "simulation", "time-frozen simulation"
  std::vector<std::pair<std::string, std::string>> summary;  ///< field, value
  std::vector<PlotGroup> groups;
  Table events;
  Table variables;  ///< mpcc: name, value
  /// A run that did not converge: solver.largest_violations (what the last NLP could not
  /// satisfy) and solver.largest_pairs (where the residual sits), one row each: kind, where,
  /// what, value.
  Table not_converged;
  std::vector<std::string> warnings;
  std::optional<ValidationData> validation;  ///< time-frozen OCP: the "validation" block
  std::optional<std::vector<int>> frozen_stages;  ///< time-frozen OCP: "frozen_stages" (0-based)
  std::vector<double> time;  ///< physical time ("time" of result.json)
  std::optional<DrawData> draw;
  View view;  ///< of the animation (when draw)
  std::vector<KeyFrame> key_frames;
};

/// Builds the report's content from the text of a result.json. `source` names it in error
/// messages (a path); `title` is the report's heading. Throws stasis::Error for text that is not
/// JSON or not a result object, or a field of the wrong type (the message names the field).
/// Missing fields are fine: each part of the report appears only when its data is there.
ReportData report_data(const std::string& result_json, const std::string& source, const std::string& title);

/// The self-contained HTML page (no network access; inline CSS, SVG and JS).
std::string report_html(const ReportData& data);

/// A static SVG of the drawing at time index `index` (class "stasis-frame").
std::string render_frame_svg(const DrawData& draw, const View& view, std::size_t index,
                             const std::string& caption);

/// Reads DIR/result.json and writes DIR/report.html; returns the path written. Throws
/// stasis::Error (with the path) if DIR or its result.json is missing, unreadable or malformed,
/// or report.html cannot be written.
std::string write_report(const std::string& dir);

}  // namespace stasis::report
