#pragma once
// A small static SVG plotter for the HTML report (docs/report.md): axes with "nice" ticks (linear
// or log10), grid, polylines with jumps drawn as dashed vertical segments, step and stem series,
// event markers, shaded x intervals and a legend. Long series are downsampled (min/max per
// bucket) so that a plot stays small whatever the length of the run.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stasis::report {

/// How a series is drawn.
enum class SeriesStyle {
  Line,  ///< polyline through (x[k], y[k]); two consecutive points with the same x are a jump, drawn
         ///< as a dashed vertical segment (class "jump"); a non-finite value breaks the line
  Step,  ///< piecewise constant: y[k] on [x[k], x[k+1]); x may have one entry more than y (the end of
         ///< the last piece), otherwise the last piece is a point
  Stem,  ///< a vertical stem from 0 to y[k] at x[k] with a dot (impulses)
};

struct Series {
  std::string label;
  std::vector<double> x, y;
  SeriesStyle style = SeriesStyle::Line;
  bool markers = false;  ///< also draw a dot at every (kept) point
  bool dashed = false;   ///< dashed line (Line and Step styles)
};

/// A vertical marker across the plot (an event); `kind` becomes a CSS class and picks the color
/// (impact, liftoff, switch, ...).
struct EventMark {
  double x = 0.0;
  std::string kind;
  std::string label;  ///< tooltip
};

struct Plot {
  std::string title;
  std::string x_label;
  bool log_y = false;
  std::vector<Series> series;
  std::vector<EventMark> events;
  std::vector<std::pair<double, double>> shaded;  ///< x intervals, drawn as shaded bands
  std::string shaded_label = "frozen";
  bool hatched = false;  ///< draw the bands hatched (diagonal lines over a light fill, class "hatch")
  std::vector<double>
      x_extent;  ///< x values the axis must include besides the data's (e.g. 0 and the final time)
  int width = 540, height = 240;
};

/// A jump of a Line series: the two values at one x.
struct Jump {
  double x, y_before, y_after;
};

/// The jumps of a Line series (consecutive points with equal x and finite values).
std::vector<Jump> jumps_of(const Series& series);

/// Ticks at multiples of 1, 2, 2.5 or 5 times a power of ten, inside [lo, hi], about `target` of
/// them (at least 2 when lo < hi).
std::vector<double> nice_ticks(double lo, double hi, int target = 5);
/// Powers of ten inside [lo, hi] (lo, hi > 0), every n-th decade if there are many.
std::vector<double> log_ticks(double lo, double hi, int max_ticks = 8);
/// Tick labels for `ticks` (equally spaced, or decades when `log`): as few digits as tell them apart.
std::vector<std::string> tick_labels(const std::vector<double>& ticks, bool log);

/// Compact number: %.{digits}g with a short exponent ("1.5e-9", "12.34"); "nan", "inf", "-inf".
std::string format_number(double v, int digits = 6);
/// A limit: "1e-3" for powers of ten, else format_number with 3 digits.
std::string limit_text(double v);
/// Escapes & < > " ' for HTML text and attribute values.
std::string escape_html(std::string_view text);

/// A pixel coordinate with one decimal, without a trailing ".0" ("0" for non-finite values).
std::string px(double v);

/// Indices of the points to keep of a series with increasing x (min/max per x bucket, plus the
/// first and last point of every bucket): all of them if there are at most max_points.
std::vector<std::size_t> downsample_indices(const std::vector<double>& x, const std::vector<double>& y,
                                            std::size_t max_points);

/// The color of series i (a fixed palette, repeating).
const char* series_color(std::size_t i);

/// The plot as a standalone <svg> element with class `css_class`. Jumps are <line class="jump">
/// (left out where the value does not change by more than 1e-6 of the axis range),
/// events <line class="event KIND">, shaded bands <rect class="shade"> (hatched bands also a
/// <g class="hatch"> of diagonal lines), each with data-t (data-t0, data-t1 for bands) holding the
/// data x coordinate.
std::string render_svg(const Plot& plot, const std::string& css_class = "stasis-plot");

}  // namespace stasis::report
