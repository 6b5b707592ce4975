// Static SVG line plots for the HTML report (see stasis/report/svg.hpp).
#include "stasis/report/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace stasis::report {

namespace {

// Data coordinate for data-* attributes: enough digits to compare to 1e-12.
std::string data_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

const char* event_color(const std::string& kind) {
  if (kind == "impact") return "#d62728";
  if (kind == "liftoff") return "#2ca02c";
  if (kind == "switch") return "#7f7f7f";
  return "#9467bd";
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return !(lo <= hi); }
};

}  // namespace

const char* series_color(std::size_t i) {
  static const char* const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                        "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return palette[i % (sizeof palette / sizeof palette[0])];
}

std::string limit_text(double v) {
  const double k = std::round(std::log10(v));
  if (v > 0.0 && std::fabs(v - std::pow(10.0, k)) <= 1e-12 * v) return "1e" + std::to_string(static_cast<int>(k));
  return format_number(v, 3);
}

std::string format_number(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", std::clamp(digits, 1, 17), v);
  std::string s = buf;
  // Short exponent: 1e-05 -> 1e-5, 1e+06 -> 1e6.
  const std::size_t e = s.find('e');
  if (e != std::string::npos) {
    std::string mantissa = s.substr(0, e);
    std::string exponent = s.substr(e + 1);
    bool negative = false;
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
      negative = exponent[0] == '-';
      exponent.erase(0, 1);
    }
    while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
    s = mantissa + "e" + (negative ? "-" : "") + exponent;
  }
  if (s == "-0") s = "0";
  return s;
}

std::string escape_html(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        s += "&amp;";
        break;
      case '<':
        s += "&lt;";
        break;
      case '>':
        s += "&gt;";
        break;
      case '"':
        s += "&quot;";
        break;
      case '\'':
        s += "&#39;";
        break;
      default:
        s += c;
    }
  }
  return s;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) return {lo};
  target = std::max(target, 2);
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw * 0.999) {
      step = m * mag;
      break;
    }
  std::vector<double> ticks;
  const double first = std::ceil(lo / step - 1e-9);
  const double last = std::floor(hi / step + 1e-9);
  for (double k = first; k <= last && ticks.size() < 100; k += 1.0) {
    double v = k * step;
    if (std::fabs(v) < step * 1e-9) v = 0.0;
    ticks.push_back(v);
  }
  if (ticks.size() < 2) {  // a narrow range between two ticks: show its ends
    ticks = {lo, hi};
  }
  return ticks;
}

std::vector<double> log_ticks(double lo, double hi, int max_ticks) {
  if (!(lo > 0.0) || !(hi > 0.0) || !std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (lo > hi) std::swap(lo, hi);
  const int k0 = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int k1 = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  std::vector<double> ticks;
  if (k1 < k0) return {lo, hi};
  const int every = std::max(1, (k1 - k0 + max_ticks) / std::max(max_ticks, 1));
  for (int k = k0; k <= k1; ++k)
    if ((k - k0) % every == 0) ticks.push_back(std::pow(10.0, k));
  return ticks;
}

std::vector<std::string> tick_labels(const std::vector<double>& ticks, bool log) {
  std::vector<std::string> labels;
  if (log) {
    for (double v : ticks) {
      const double k = std::round(std::log10(v));
      if (std::fabs(std::log10(v) - k) < 1e-9 && k >= -3 && k <= 4) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.*f", k < 0 ? static_cast<int>(-k) : 0, v);
        labels.push_back(buf);
      } else if (std::fabs(std::log10(v) - k) < 1e-9) {
        labels.push_back("1e" + std::to_string(static_cast<int>(k)));
      } else {
        labels.push_back(format_number(v, 3));
      }
    }
    return labels;
  }
  double step = 0.0, biggest = 0.0;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    biggest = std::max(biggest, std::fabs(ticks[i]));
    if (i > 0) step = step == 0.0 ? ticks[i] - ticks[i - 1] : std::min(step, ticks[i] - ticks[i - 1]);
  }
  if (step <= 0.0) step = biggest > 0.0 ? biggest : 1.0;
  const double tolerance = step * 1e-6;
  const auto fits = [&](const std::vector<std::string>& candidate) {
    for (std::size_t i = 0; i < ticks.size(); ++i)
      if (std::fabs(std::strtod(candidate[i].c_str(), nullptr) - ticks[i]) > tolerance) return false;
    return true;
  };
  if (biggest < 1e5 && step >= 1e-4) {
    for (int d = 0; d <= 10; ++d) {
      std::vector<std::string> candidate;
      for (double v : ticks) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.*f", d, v);
        std::string s = buf;
        if (s.find_first_not_of("-0.") == std::string::npos) s = "0";
        candidate.push_back(s);
      }
      if (fits(candidate)) return candidate;
    }
  }
  for (int p = 1; p <= 17; ++p) {
    std::vector<std::string> candidate;
    for (double v : ticks) candidate.push_back(format_number(v, p));
    if (fits(candidate)) return candidate;
  }
  for (double v : ticks) labels.push_back(format_number(v, 17));
  return labels;
}

std::vector<Jump> jumps_of(const Series& s) {
  std::vector<Jump> jumps;
  if (s.style != SeriesStyle::Line) return jumps;
  const std::size_t n = std::min(s.x.size(), s.y.size());
  for (std::size_t k = 0; k + 1 < n; ++k)
    if (s.x[k] == s.x[k + 1] && std::isfinite(s.x[k]) && std::isfinite(s.y[k]) && std::isfinite(s.y[k + 1]))
      jumps.push_back({s.x[k], s.y[k], s.y[k + 1]});
  return jumps;
}

std::vector<std::size_t> downsample_indices(const std::vector<double>& x, const std::vector<double>& y,
                                            std::size_t max_points) {
  const std::size_t n = std::min(x.size(), y.size());
  std::vector<std::size_t> keep;
  if (n <= std::max<std::size_t>(max_points, 4)) {
    for (std::size_t k = 0; k < n; ++k) keep.push_back(k);
    return keep;
  }
  const std::size_t buckets = std::max<std::size_t>(max_points / 4, 1);
  const double x0 = x.front(), x1 = x[n - 1];
  const double width = x1 > x0 ? (x1 - x0) : 1.0;
  std::size_t k = 0;
  while (k < n) {
    const double bx = std::isfinite(x[k]) ? x[k] : x0;
    const auto bucket = static_cast<std::size_t>(
        std::clamp((bx - x0) / width * static_cast<double>(buckets), 0.0, static_cast<double>(buckets - 1)));
    std::size_t end = k + 1;
    while (end < n) {
      const double ex = std::isfinite(x[end]) ? x[end] : bx;
      const auto b = static_cast<std::size_t>(std::clamp((ex - x0) / width * static_cast<double>(buckets),
                                                         0.0, static_cast<double>(buckets - 1)));
      if (b != bucket) break;
      ++end;
    }
    // [k, end): first, last, min, max (finite); non-finite points are kept (they break lines).
    std::size_t lo = k, hi = k;
    std::vector<std::size_t> picked{k, end - 1};
    for (std::size_t i = k; i < end; ++i) {
      if (!std::isfinite(y[i])) {
        picked.push_back(i);
        continue;
      }
      if (!std::isfinite(y[lo]) || y[i] < y[lo]) lo = i;
      if (!std::isfinite(y[hi]) || y[i] > y[hi]) hi = i;
    }
    picked.push_back(lo);
    picked.push_back(hi);
    std::sort(picked.begin(), picked.end());
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    keep.insert(keep.end(), picked.begin(), picked.end());
    k = end;
  }
  return keep;
}

std::string render_svg(const Plot& plot, const std::string& css_class) {
  const double W = plot.width, H = plot.height;
  const double left = 60, right = 14, top = 26, bottom = plot.x_label.empty() ? 24 : 38;
  const double pw = W - left - right, ph = H - top - bottom;
  constexpr std::size_t kMaxPoints = 1200;

  // Ranges.
  Range xr, yr;
  bool any_data = false;
  for (const auto& s : plot.series) {
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t k = 0; k < s.x.size(); ++k) xr.add(s.x[k]);
    for (std::size_t k = 0; k < n; ++k) {
      if (!std::isfinite(s.y[k]) || !std::isfinite(s.x[k])) continue;
      if (plot.log_y && !(s.y[k] > 0.0)) continue;
      yr.add(s.y[k]);
      any_data = true;
    }
    if (s.style == SeriesStyle::Stem && !plot.log_y && n > 0) yr.add(0.0);
  }
  for (const auto& e : plot.events) xr.add(e.x);
  for (double x : plot.x_extent) xr.add(x);
  for (const auto& [a, b] : plot.shaded) {
    xr.add(a);
    xr.add(b);
  }
  if (xr.empty()) xr = {0.0, 1.0};
  if (xr.lo == xr.hi) {
    const double d = xr.lo == 0.0 ? 1.0 : std::fabs(xr.lo) * 0.1;
    xr = {xr.lo - d, xr.hi + d};
  }
  double y0, y1;
  if (plot.log_y) {
    if (yr.empty()) yr = {1.0, 10.0};
    y0 = std::pow(10.0, std::floor(std::log10(yr.lo)));
    y1 = std::pow(10.0, std::ceil(std::log10(yr.hi)));
    if (y0 == y1) {
      y0 /= 10.0;
      y1 *= 10.0;
    }
  } else {
    if (yr.empty()) yr = {0.0, 1.0};
    if (yr.lo == yr.hi) {
      const double d = yr.lo == 0.0 ? 1.0 : std::fabs(yr.lo) * 0.1;
      yr = {yr.lo - d, yr.hi + d};
    }
    const double pad = 0.05 * (yr.hi - yr.lo);
    y0 = yr.lo - pad;
    y1 = yr.hi + pad;
  }
  const double x0 = xr.lo, x1 = xr.hi;
  const auto X = [&](double x) { return left + (x - x0) / (x1 - x0) * pw; };
  const auto Y = [&](double y) {
    double f = plot.log_y ? (std::log10(y) - std::log10(y0)) / (std::log10(y1) - std::log10(y0))
                          : (y - y0) / (y1 - y0);
    f = std::clamp(f, -0.02, 1.02);
    return top + ph - f * ph;
  };
  const auto usable = [&](double x, double y) {
    return std::isfinite(x) && std::isfinite(y) && (!plot.log_y || y > 0.0);
  };

  std::vector<std::pair<double, double>> drawn;  // pixel positions of data, to place the legend
  std::string s;
  s.reserve(8192);
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"" + escape_html(css_class) + "\" width=\"" + px(W) +
       "\" height=\"" + px(H) + "\" viewBox=\"0 0 " + px(W) + " " + px(H) +
       "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"" + escape_html(plot.title) +
       "\"" + (plot.log_y ? " data-log=\"y\"" : "") + ">\n";
  s += "<title>" + escape_html(plot.title) + "</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + px(W) + "\" height=\"" + px(H) + "\" fill=\"#fff\"/>\n";
  s += "<text class=\"plot-title\" x=\"" + px(left) + "\" y=\"16\" font-size=\"13\" font-weight=\"bold\">" +
       escape_html(plot.title) + "</text>\n";

  // Shaded bands.
  for (const auto& [a, b] : plot.shaded) {
    const double xa = X(std::max(a, x0)), xb = X(std::min(b, x1));
    const double w = std::max(xb - xa, 0.8);
    s += "<rect class=\"shade\" data-t0=\"" + data_number(a) + "\" data-t1=\"" + data_number(b) + "\" x=\"" +
         px(xa) + "\" y=\"" + px(top) + "\" width=\"" + px(w) + "\" height=\"" + px(ph) + "\" fill=\"#f4c542\" " +
         (plot.hatched ? "fill-opacity=\"0.14\"" : "fill-opacity=\"0.28\"") + "/>\n";
    if (plot.hatched) {
      // Diagonal lines y = c − x (pixels), 7 px apart, clipped to the band.
      const double ya = top, yb = top + ph;
      s += "<g class=\"hatch\" data-t0=\"" + data_number(a) + "\" data-t1=\"" + data_number(b) +
           "\" stroke=\"#c99a06\" stroke-width=\"1\" stroke-opacity=\"0.7\">";
      for (double c = xa + ya; c < xa + w + yb; c += 7.0) {
        const double lo = std::max(xa, c - yb), hi = std::min(xa + w, c - ya);
        if (hi - lo < 0.5) continue;
        s += "<line x1=\"" + px(lo) + "\" y1=\"" + px(c - lo) + "\" x2=\"" + px(hi) + "\" y2=\"" + px(c - hi) +
             "\"/>";
      }
      s += "</g>\n";
    }
  }

  // Grid, ticks and labels.
  const std::vector<double> xt = nice_ticks(x0, x1, 6);
  const std::vector<double> yt = plot.log_y ? log_ticks(y0, y1) : nice_ticks(y0, y1, 5);
  const std::vector<std::string> xl = tick_labels(xt, false), yl = tick_labels(yt, plot.log_y);
  s += "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">";
  for (double v : xt)
    s += "<line x1=\"" + px(X(v)) + "\" y1=\"" + px(top) + "\" x2=\"" + px(X(v)) + "\" y2=\"" + px(top + ph) +
         "\"/>";
  for (double v : yt)
    s += "<line x1=\"" + px(left) + "\" y1=\"" + px(Y(v)) + "\" x2=\"" + px(left + pw) + "\" y2=\"" +
         px(Y(v)) + "\"/>";
  s += "</g>\n<g class=\"ticks\" fill=\"#444\">";
  for (std::size_t i = 0; i < xt.size(); ++i)
    s += "<text x=\"" + px(X(xt[i])) + "\" y=\"" + px(top + ph + 14) + "\" text-anchor=\"middle\">" +
         escape_html(xl[i]) + "</text>";
  for (std::size_t i = 0; i < yt.size(); ++i)
    s += "<text x=\"" + px(left - 5) + "\" y=\"" + px(Y(yt[i]) + 4) + "\" text-anchor=\"end\">" +
         escape_html(yl[i]) + "</text>";
  s += "</g>\n";
  s += "<rect class=\"frame\" x=\"" + px(left) + "\" y=\"" + px(top) + "\" width=\"" + px(pw) +
       "\" height=\"" + px(ph) + "\" fill=\"none\" stroke=\"#999\"/>\n";
  if (!plot.x_label.empty())
    s += "<text class=\"x-label\" x=\"" + px(left + pw / 2) + "\" y=\"" + px(H - 6) +
         "\" text-anchor=\"middle\" fill=\"#333\">" + escape_html(plot.x_label) + "</text>\n";

  // Events.
  for (const auto& e : plot.events) {
    if (!std::isfinite(e.x)) continue;
    s += "<line class=\"event " + escape_html(e.kind) + "\" data-t=\"" + data_number(e.x) + "\" x1=\"" +
         px(X(e.x)) + "\" y1=\"" + px(top) + "\" x2=\"" + px(X(e.x)) + "\" y2=\"" + px(top + ph) +
         "\" stroke=\"" + event_color(e.kind) +
         "\" stroke-width=\"1\" stroke-dasharray=\"4 3\" stroke-opacity=\"0.75\"><title>" +
         escape_html(e.label) + "</title></line>\n";
  }

  // Series.
  for (std::size_t si = 0; si < plot.series.size(); ++si) {
    const Series& ser = plot.series[si];
    const char* color = series_color(si);
    const std::size_t n = std::min(ser.x.size(), ser.y.size());
    const std::string dash = ser.dashed ? " stroke-dasharray=\"6 3\"" : "";
    s += "<g class=\"series\" data-label=\"" + escape_html(ser.label) + "\">";
    if (ser.style == SeriesStyle::Line) {
      // Pieces between jumps and breaks, each downsampled on its own.
      std::size_t k = 0;
      while (k < n) {
        while (k < n && !usable(ser.x[k], ser.y[k])) ++k;
        if (k >= n) break;
        std::size_t end = k + 1;
        while (end < n && usable(ser.x[end], ser.y[end]) && ser.x[end] != ser.x[end - 1]) ++end;
        const std::vector<double> xs(ser.x.begin() + static_cast<long>(k),
                                     ser.x.begin() + static_cast<long>(end));
        const std::vector<double> ys(ser.y.begin() + static_cast<long>(k),
                                     ser.y.begin() + static_cast<long>(end));
        const std::vector<std::size_t> keep = downsample_indices(xs, ys, kMaxPoints);
        if (keep.size() == 1) {
          s += "<circle cx=\"" + px(X(xs[0])) + "\" cy=\"" + px(Y(ys[0])) + "\" r=\"1.8\" fill=\"" + color +
               "\"/>";
        } else {
          s += "<polyline fill=\"none\" stroke=\"" + std::string(color) + "\" stroke-width=\"1.6\"" + dash +
               " points=\"";
          for (std::size_t i = 0; i < keep.size(); ++i) {
            s += (i ? " " : "") + px(X(xs[keep[i]])) + "," + px(Y(ys[keep[i]]));
            drawn.emplace_back(X(xs[keep[i]]), Y(ys[keep[i]]));
            if (i > 0)
              drawn.emplace_back((X(xs[keep[i]]) + X(xs[keep[i - 1]])) / 2,
                                 (Y(ys[keep[i]]) + Y(ys[keep[i - 1]])) / 2);
          }
          s += "\"/>";
        }
        if (ser.markers)
          for (std::size_t i : keep)
            s += "<circle cx=\"" + px(X(xs[i])) + "\" cy=\"" + px(Y(ys[i])) + "\" r=\"2\" fill=\"" + color +
                 "\"/>";
        k = end;
      }
      for (const Jump& j : jumps_of(ser)) {
        if (!usable(j.x, j.y_before) || !usable(j.x, j.y_after)) continue;
        // A repeated point whose value does not change visibly (a continuous state at another's jump).
        const double change = plot.log_y ? std::fabs(std::log10(j.y_after / j.y_before)) / std::log10(y1 / y0)
                                         : std::fabs(j.y_after - j.y_before) / (y1 - y0);
        if (change <= 1e-6) continue;
        s += "\n<line class=\"jump\" data-t=\"" + data_number(j.x) + "\" data-y0=\"" +
             data_number(j.y_before) + "\" data-y1=\"" + data_number(j.y_after) + "\" x1=\"" + px(X(j.x)) +
             "\" y1=\"" + px(Y(j.y_before)) + "\" x2=\"" + px(X(j.x)) + "\" y2=\"" + px(Y(j.y_after)) +
             "\" stroke=\"" + color + "\" stroke-width=\"1.4\" stroke-dasharray=\"3 2\"/>";
      }
    } else if (ser.style == SeriesStyle::Step) {
      std::string points;
      const auto flush = [&]() {
        if (!points.empty())
          s += "<polyline fill=\"none\" stroke=\"" + std::string(color) + "\" stroke-width=\"1.6\"" + dash +
               " points=\"" + points + "\"/>";
        points.clear();
      };
      for (std::size_t k = 0; k < n; ++k) {
        if (!usable(ser.x[k], ser.y[k])) {
          flush();
          continue;
        }
        const double xa = ser.x[k];
        const double xb = k + 1 < ser.x.size() ? ser.x[k + 1] : xa;
        points += (points.empty() ? "" : " ") + px(X(xa)) + "," + px(Y(ser.y[k]));
        drawn.emplace_back(X(xa), Y(ser.y[k]));
        if (std::isfinite(xb) && xb != xa) {
          points += " " + px(X(xb)) + "," + px(Y(ser.y[k]));
          drawn.emplace_back(X(xb), Y(ser.y[k]));
          drawn.emplace_back((X(xa) + X(xb)) / 2, Y(ser.y[k]));
        }
        if (ser.markers)
          s += "<circle cx=\"" + px(X(xa)) + "\" cy=\"" + px(Y(ser.y[k])) + "\" r=\"2\" fill=\"" + color +
               "\"/>";
      }
      flush();
    } else {  // Stem
      for (std::size_t k = 0; k < n; ++k) {
        if (!usable(ser.x[k], ser.y[k])) continue;
        const double base = plot.log_y ? y0 : 0.0;
        s += "<line class=\"stem\" data-t=\"" + data_number(ser.x[k]) + "\" x1=\"" + px(X(ser.x[k])) +
             "\" y1=\"" + px(Y(base)) + "\" x2=\"" + px(X(ser.x[k])) + "\" y2=\"" + px(Y(ser.y[k])) +
             "\" stroke=\"" + color + "\" stroke-width=\"1.6\"/><circle cx=\"" + px(X(ser.x[k])) +
             "\" cy=\"" + px(Y(ser.y[k])) + "\" r=\"3\" fill=\"" + color + "\"/>";
        drawn.emplace_back(X(ser.x[k]), Y(ser.y[k]));
      }
    }
    s += "</g>\n";
  }
  if (!any_data)
    s += "<text x=\"" + px(left + pw / 2) + "\" y=\"" + px(top + ph / 2) +
         "\" text-anchor=\"middle\" fill=\"#888\">no data" + std::string(plot.log_y ? " (> 0)" : "") +
         "</text>\n";

  // Legend: the series (when more than one or labelled events/bands make it useful), event kinds, bands.
  struct Entry {
    std::string label, color;
    int kind;  // 0 line, 1 event (dashed), 2 band
    bool dashed;
  };
  std::vector<Entry> legend;
  if (plot.series.size() > 1)
    for (std::size_t si = 0; si < plot.series.size(); ++si)
      legend.push_back({plot.series[si].label, series_color(si), 0, plot.series[si].dashed});
  std::vector<std::string> kinds;
  for (const auto& e : plot.events)
    if (std::find(kinds.begin(), kinds.end(), e.kind) == kinds.end()) kinds.push_back(e.kind);
  for (const auto& k : kinds) legend.push_back({k, event_color(k), 1, true});
  if (!plot.shaded.empty()) legend.push_back({plot.shaded_label, "#f4c542", 2, false});
  if (!legend.empty()) {
    std::size_t longest = 0;
    for (const auto& e : legend) longest = std::max(longest, e.label.size());
    const double lw = 30 + 6.2 * static_cast<double>(std::min<std::size_t>(longest, 28));
    const double lh = 14.0 * static_cast<double>(legend.size()) + 6;
    // The corner whose box covers the fewest data points.
    double lx = left + pw - lw - 4, ly = top + 4;
    std::size_t fewest = drawn.size() + 1;
    for (const auto& [cx, cy] : {std::pair<double, double>{left + pw - lw - 4, top + 4},
                                 {left + 4, top + 4},
                                 {left + pw - lw - 4, top + ph - lh - 4},
                                 {left + 4, top + ph - lh - 4}}) {
      std::size_t covered = 0;
      for (const auto& [x, y] : drawn)
        if (x >= cx - 3 && x <= cx + lw + 3 && y >= cy - 3 && y <= cy + lh + 3) ++covered;
      if (covered < fewest) {
        fewest = covered;
        lx = cx;
        ly = cy;
      }
    }
    s += "<g class=\"legend\"><rect x=\"" + px(lx) + "\" y=\"" + px(ly) + "\" width=\"" + px(lw) +
         "\" height=\"" + px(lh) + "\" fill=\"#fff\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>";
    for (std::size_t i = 0; i < legend.size(); ++i) {
      const double yy = ly + 12 + 14.0 * static_cast<double>(i);
      const Entry& e = legend[i];
      if (e.kind == 2) {
        s += "<rect x=\"" + px(lx + 5) + "\" y=\"" + px(yy - 7) + "\" width=\"16\" height=\"8\" fill=\"" +
             e.color + "\" fill-opacity=\"" + (plot.hatched ? "0.2" : "0.4") + "\"/>";
        if (plot.hatched)
          for (double d : {0.0, 6.0, 12.0})
            s += "<line x1=\"" + px(lx + 5 + d) + "\" y1=\"" + px(yy + 1) + "\" x2=\"" + px(lx + 9 + d) +
                 "\" y2=\"" + px(yy - 7) + "\" stroke=\"#c99a06\" stroke-width=\"1\"/>";
      } else {
        s += "<line x1=\"" + px(lx + 5) + "\" y1=\"" + px(yy - 3) + "\" x2=\"" + px(lx + 21) + "\" y2=\"" +
             px(yy - 3) + "\" stroke=\"" + e.color + "\" stroke-width=\"2\"" +
             (e.kind == 1 ? " stroke-dasharray=\"4 3\"" : (e.dashed ? " stroke-dasharray=\"6 3\"" : "")) +
             "/>";
      }
      std::string label = e.label.size() > 28 ? e.label.substr(0, 27) + "…" : e.label;
      s += "<text x=\"" + px(lx + 26) + "\" y=\"" + px(yy) + "\" fill=\"#333\">" + escape_html(label) +
           "</text>";
    }
    s += "</g>\n";
  }
  s += "</svg>\n";
  return s;
}

std::string px(double v) {
  if (!std::isfinite(v)) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  if (s == "-0") s = "0";
  return s;
}

}  // namespace stasis::report
