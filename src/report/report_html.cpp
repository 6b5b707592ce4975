// The report's HTML page (see stasis/report/report.hpp): inline CSS, static SVG plots rendered
// here, the animation's frame data as inline JSON and a small inline script that moves it.
#include <algorithm>
#include <cmath>

#include "stasis/report/report.hpp"
#include "stasis/version.hpp"

namespace stasis::report {

namespace {

const char* const kStyle = R"CSS(
body{font-family:"DejaVu Sans",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1180px;padding:14px 20px 40px;color:#222;background:#fafafa}
h1{font-size:22px;margin:6px 0 4px}
h2{font-size:17px;margin:26px 0 6px;border-bottom:1px solid #ddd;padding-bottom:3px}
nav{font-size:13px;margin:0 0 12px;color:#555}
nav a{margin-right:12px;color:#1f5fa8;text-decoration:none}
.note{color:#555;font-size:13px;margin:2px 0 8px;max-width:900px}
table{border-collapse:collapse;font-size:13px;background:#fff}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f2f2f2;font-weight:600}
table.summary th{width:190px}
table.events td{font-variant-numeric:tabular-nums;max-width:330px;overflow-wrap:anywhere}
.status-converged{color:#1a7f37;font-weight:bold}
.status-not_converged{color:#b35900;font-weight:bold}
.status-failed{color:#c62828;font-weight:bold}
.plots{display:flex;flex-wrap:wrap;gap:10px}
svg.stasis-plot{border:1px solid #e0e0e0;max-width:100%;height:auto}
.anim-box svg{background:#fff;border:1px solid #ccc;max-width:100%;height:auto}
.controls{margin:8px 0;display:flex;flex-wrap:wrap;gap:10px;align-items:center;font-size:13px}
.controls button{min-width:88px;padding:3px 10px;font-size:13px}
#anim-scrub{width:380px;max-width:100%}
#anim-time{font-variant-numeric:tabular-nums;min-width:90px;display:inline-block}
.filmstrip{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end}
.filmstrip figure{margin:0;background:#fff;border:1px solid #ddd;padding:4px}
.filmstrip figcaption{font-size:12px;color:#444;text-align:center;margin-top:2px}
ul.warnings li{color:#b35900;font-size:13px}
.check-pass{color:#1a7f37;font-weight:bold}
.check-fail{color:#c62828;font-weight:bold}
.check-na{color:#777}
tr.row-fail td,tr.row-fail th{background:#fdecea}
p.validation-message{font-family:"DejaVu Sans Mono",monospace;font-size:12px;background:#fff;border:1px solid #ddd;padding:4px 8px;max-width:1100px;overflow-wrap:anywhere}
footer{margin-top:30px;font-size:12px;color:#888}
)CSS";

// Installed first: script errors end up in <body data-errors="..."> (read by tests/browser).
const char* const kErrorHook = R"JS(
window.onerror = function (message, source, line, column) {
  var text = String(message) + " (line " + line + ":" + column + ")";
  var b = document.body;
  if (!b) { window.stasisErrors = (window.stasisErrors ? window.stasisErrors + " | " : "") + text; return false; }
  var before = b.getAttribute("data-errors") || "";
  b.setAttribute("data-errors", before ? before + " | " + text : text);
  b.setAttribute("data-status", "error");
  return false;
};
)JS";

const char* const kScript = R"JS(
(function () {
  "use strict";
  var body = document.body;
  if (window.stasisErrors) { body.setAttribute("data-errors", window.stasisErrors); body.setAttribute("data-status", "error"); }
  var source = document.getElementById("stasis-frames");
  if (source) {
    var D = JSON.parse(source.textContent);
    var t = D.t, n = t.length, P = D.x.length, V = D.view;
    var pts = [], links = [], i;
    for (i = 0; i < P; i++) pts.push(document.getElementById("anim-pt-" + i));
    for (i = 0; i < D.links.length; i++) links.push(document.getElementById("anim-link-" + i));
    var btn = document.getElementById("anim-play"), scrub = document.getElementById("anim-scrub");
    var label = document.getElementById("anim-time"), speed = document.getElementById("anim-speed");
    var traces = document.getElementById("anim-trace"), traceGroup = document.getElementById("anim-traces");
    var T0 = t[0], T1 = t[n - 1];
    var digits = Math.max(0, 3 - Math.floor(Math.log(Math.max(Math.abs(T1), 1e-12)) / Math.LN10));
    function X(x) { return (x - V.x0) * V.s; }
    function Z(z) { return V.h - (z - V.z0) * V.s; }
    function locate(T) {
      if (T >= t[n - 1]) return n - 1;
      if (T <= t[0]) return 0;
      var lo = 0, hi = n - 1;
      while (hi - lo > 1) { var m = (lo + hi) >> 1; if (t[m] <= T) lo = m; else hi = m; }
      return lo;
    }
    function lerp(a, b, s) { if (a === null) return b; if (b === null) return a; return a + (b - a) * s; }
    var current = T0, playing = false, dragging = false, wall0 = 0, start = T0, timer = null;
    function show(T) {
      current = T;
      var k = locate(T), k1 = Math.min(k + 1, n - 1), s = 0;
      if (k1 > k && t[k1] > t[k]) s = Math.max(0, Math.min(1, (T - t[k]) / (t[k1] - t[k])));
      var px = [], pz = [];
      for (var i = 0; i < P; i++) {
        var x = lerp(D.x[i][k], D.x[i][k1], s), z = lerp(D.z[i][k], D.z[i][k1], s);
        var ok = x !== null && z !== null;
        px.push(ok ? X(x) : null);
        pz.push(ok ? Z(z) : null);
        if (!pts[i]) continue;
        pts[i].style.visibility = ok ? "" : "hidden";
        if (ok) { pts[i].setAttribute("cx", px[i].toFixed(1)); pts[i].setAttribute("cy", pz[i].toFixed(1)); }
      }
      for (var j = 0; j < links.length; j++) {
        var a = D.links[j][0], b = D.links[j][1], l = links[j];
        if (!l) continue;
        var okl = px[a] !== null && px[b] !== null;
        l.style.visibility = okl ? "" : "hidden";
        if (!okl) continue;
        l.setAttribute("x1", px[a].toFixed(1)); l.setAttribute("y1", pz[a].toFixed(1));
        l.setAttribute("x2", px[b].toFixed(1)); l.setAttribute("y2", pz[b].toFixed(1));
      }
      if (label) label.textContent = "t = " + T.toFixed(digits);
      if (scrub && !dragging) scrub.value = String(Math.round((T - T0) / ((T1 - T0) || 1) * 1000));
      body.setAttribute("data-frame", String(k));
    }
    function now() { return window.performance && performance.now ? performance.now() : Date.now(); }
    function pause() { playing = false; if (btn) btn.textContent = "\u25B6 Play"; }
    function tick() {
      timer = null;
      if (!playing) return;
      var T = start + (now() - wall0) / 1000 * Number(speed ? speed.value : 1);
      if (T >= T1) { T = T1; pause(); }
      show(T);
      if (playing) timer = setTimeout(tick, 30);
    }
    function play() {
      if (current >= T1) current = T0;
      playing = true; wall0 = now(); start = current;
      if (btn) btn.textContent = "\u275A\u275A Pause";
      if (!timer) timer = setTimeout(tick, 0);
    }
    if (btn) btn.addEventListener("click", function () { if (playing) pause(); else play(); });
    if (scrub) {
      scrub.addEventListener("input", function () { dragging = true; pause(); show(T0 + (T1 - T0) * Number(scrub.value) / 1000); dragging = false; });
    }
    if (speed) speed.addEventListener("change", function () { start = current; wall0 = now(); });
    if (traces && traceGroup) traces.addEventListener("change", function () { traceGroup.style.display = traces.checked ? "" : "none"; });
    show(T0);
    if (/[?&]autoplay/.test(window.location.search)) play();
  }
  if (!body.getAttribute("data-errors")) body.setAttribute("data-status", "ok");
})();
)JS";


std::string json_number(double v) { return std::isfinite(v) ? format_number(v, 7) : "null"; }

double point_radius_px(const DrawData& d, const View& v, std::size_t i) {
  return d.radius[i] > 0.0 ? std::max(d.radius[i] * v.scale, 2.5) : 4.5;
}

// The picture at time index k. `animated`: ids for the script and the traces group.
std::string scene(const DrawData& d, const View& v, std::size_t k, bool animated) {
  std::string s;
  s += "<rect x=\"0\" y=\"0\" width=\"" + px(v.width) + "\" height=\"" + px(v.height) + "\" fill=\"#fff\"/>";
  for (double h : d.ground_heights) {
    const double y = v.pz(h);
    if (y < v.height)
      s += "<rect class=\"ground-fill\" x=\"0\" y=\"" + px(std::max(y, 0.0)) + "\" width=\"" + px(v.width) +
           "\" height=\"" + px(v.height - std::max(y, 0.0)) + "\" fill=\"#eee8dc\"/>";
    s += "<line class=\"ground\" x1=\"0\" y1=\"" + px(y) + "\" x2=\"" + px(v.width) + "\" y2=\"" + px(y) +
         "\" stroke=\"#6b5b45\" stroke-width=\"2\"/>";
  }
  for (const auto& g : d.ground_segments)
    s += "<line class=\"ground\" x1=\"" + px(v.px(g[0])) + "\" y1=\"" + px(v.pz(g[1])) + "\" x2=\"" +
         px(v.px(g[2])) + "\" y2=\"" + px(v.pz(g[3])) + "\" stroke=\"#6b5b45\" stroke-width=\"2\"/>";
  for (const auto& e : d.ellipses)
    s += "<ellipse class=\"obstacle\" cx=\"" + px(v.px(e[0])) + "\" cy=\"" + px(v.pz(e[1])) + "\" rx=\"" +
         px(e[2] * v.scale) + "\" ry=\"" + px(e[3] * v.scale) + "\" fill=\"#cfcfcf\" stroke=\"#888\"/>";
  for (const auto& l : d.lines)
    s += "<line class=\"obstacle\" x1=\"" + px(v.px(l[0])) + "\" y1=\"" + px(v.pz(l[1])) + "\" x2=\"" +
         px(v.px(l[2])) + "\" y2=\"" + px(v.pz(l[3])) + "\" stroke=\"#777\" stroke-width=\"3\"/>";
  // Traces: the path of every point (at most ~600 points each).
  s += animated ? "<g id=\"anim-traces\" class=\"traces\">" : "<g class=\"traces\">";
  for (std::size_t i = 0; i < d.names.size(); ++i) {
    const std::size_t n = d.x[i].size();
    const std::size_t stride = std::max<std::size_t>(1, n / 600);
    std::string points;
    const auto add = [&](std::size_t j) {
      if (std::isfinite(d.x[i][j]) && std::isfinite(d.z[i][j]))
        points += (points.empty() ? "" : " ") + px(v.px(d.x[i][j])) + "," + px(v.pz(d.z[i][j]));
    };
    for (std::size_t j = 0; j < n; j += stride) add(j);
    if (n > 0 && (n - 1) % stride != 0) add(n - 1);
    if (!points.empty())
      s += "<polyline fill=\"none\" stroke=\"" + std::string(series_color(i)) +
           "\" stroke-opacity=\"0.35\" stroke-width=\"1\" points=\"" + points + "\"/>";
  }
  s += "</g>";
  const auto at = [&](std::size_t i, double& x, double& z) {
    x = k < d.x[i].size() ? d.x[i][k] : NAN;
    z = k < d.z[i].size() ? d.z[i][k] : NAN;
    return std::isfinite(x) && std::isfinite(z);
  };
  for (std::size_t j = 0; j < d.links.size(); ++j) {
    double xa, za, xb, zb;
    const bool ok = at(d.links[j].first, xa, za) & at(d.links[j].second, xb, zb);
    s += "<line class=\"link\"" + (animated ? " id=\"anim-link-" + std::to_string(j) + "\"" : std::string()) +
         " x1=\"" + px(ok ? v.px(xa) : 0) + "\" y1=\"" + px(ok ? v.pz(za) : 0) + "\" x2=\"" +
         px(ok ? v.px(xb) : 0) + "\" y2=\"" + px(ok ? v.pz(zb) : 0) +
         "\" stroke=\"#333\" stroke-width=\"3\" stroke-linecap=\"round\"" +
         (ok ? "" : " style=\"visibility:hidden\"") + "/>";
  }
  for (std::size_t i = 0; i < d.names.size(); ++i) {
    double x, z;
    const bool ok = at(i, x, z);
    s += "<circle class=\"point\"" +
         (animated ? " id=\"anim-pt-" + std::to_string(i) + "\"" : std::string()) + " cx=\"" +
         px(ok ? v.px(x) : 0) + "\" cy=\"" + px(ok ? v.pz(z) : 0) + "\" r=\"" + px(point_radius_px(d, v, i)) +
         "\" fill=\"" + series_color(i) + "\" stroke=\"#222\" stroke-width=\"1\"" +
         (ok ? "" : " style=\"visibility:hidden\"") + "><title>" + escape_html(d.names[i]) +
         "</title></circle>";
  }
  return s;
}

std::string table_html(const Table& t, const std::string& css_class, std::size_t max_rows) {
  std::string s = "<table class=\"" + css_class + "\"><thead><tr>";
  for (const auto& h : t.header) s += "<th>" + escape_html(h) + "</th>";
  s += "</tr></thead><tbody>\n";
  for (std::size_t r = 0; r < t.rows.size() && r < max_rows; ++r) {
    s += "<tr>";
    for (const auto& c : t.rows[r]) s += "<td>" + escape_html(c) + "</td>";
    s += "</tr>\n";
  }
  s += "</tbody></table>\n";
  if (t.rows.size() > max_rows)
    s += "<p class=\"note\">… and " + std::to_string(t.rows.size() - max_rows) +
         " more rows (see result.json).</p>\n";
  return s;
}

// The validation section: the checks with their verdicts, the message, the deviation per stage.
static_assert(kDeviationLimit == 1e-3 && kViolationLimit == 1e-6, "the default limits are stated in docs/report.md");
std::string validation_html(const ValidationData& v) {
  std::string h = "<section id=\"validation\"><h2>Validation</h2>\n";
  h += "<p class=\"note\">The optimal controls re-simulated with the time-freezing integrator from the "
       "initial state and compared with the OCP's physical trajectory (the physical states, without the "
       "clock). A deviation passes at most " + limit_text(v.deviation_limit) + ", a gap violation at most " +
       limit_text(v.gap_limit) + ", a path violation at most " + limit_text(v.violation_limit) +
       (v.deviation_limit == kDeviationLimit && v.gap_limit == kViolationLimit && v.violation_limit == kViolationLimit
            ? std::string()
            : std::string(" (the problem's ocp.validation)")) +
       " (docs/report.md).</p>\n";
  std::string verdict = v.passed ? "passed: every check within its limit" : "failed: ";
  for (std::size_t i = 0; i < v.failures.size(); ++i) verdict += (i ? "; " : "") + v.failures[i];
  h += std::string("<p class=\"validation-verdict ") + (v.passed ? "check-pass" : "check-fail") + "\">" +
       escape_html(verdict) + "</p>\n";
  h += "<table class=\"validation\"><thead><tr><th>check</th><th>value</th><th>limit</th><th>verdict</th>"
       "</tr></thead><tbody>\n";
  for (const Check& c : v.checks) {
    const char* row = "info";
    const char* word = "";
    switch (c.verdict) {
      case Check::Verdict::Pass:
        row = "pass";
        word = "pass";
        break;
      case Check::Verdict::Fail:
        row = "fail";
        word = "fail";
        break;
      case Check::Verdict::NotAvailable:
        row = "na";
        word = "n/a";
        break;
      case Check::Verdict::Info:
        break;
    }
    h += std::string("<tr class=\"row-") + row + "\"><th>" + escape_html(c.name) + "</th><td>" +
         escape_html(c.value) + "</td><td>" + escape_html(c.limit) + "</td><td class=\"check-" + row + "\">" +
         word + "</td></tr>\n";
  }
  h += "</tbody></table>\n";
  if (!v.message.empty()) h += "<p class=\"validation-message\">" + escape_html(v.message) + "</p>\n";
  if (v.stage_plot) h += "<div class=\"plots\">\n" + render_svg(*v.stage_plot) + "</div>\n";
  h += "</section>\n";
  return h;
}

// A playback speed that makes the run last about six seconds.
double default_speed(double duration) {
  static const double speeds[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100};
  if (!(duration > 0.0) || !std::isfinite(duration)) return 1.0;
  double best = 1.0, err = 1e300;
  for (double s : speeds) {
    const double e = std::fabs(std::log(duration / s / 6.0));
    if (e < err) {
      err = e;
      best = s;
    }
  }
  return best;
}

}  // namespace

std::string render_frame_svg(const DrawData& d, const View& v, std::size_t index,
                             const std::string& caption) {
  const double width = std::min(240.0, 190.0 * v.width / std::max(v.height, 1.0));
  const double height = width * v.height / std::max(v.width, 1.0);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"stasis-frame\" width=\"" + px(width) +
         "\" height=\"" + px(height) + "\" viewBox=\"0 0 " + px(v.width) + " " + px(v.height) +
         "\" data-index=\"" + std::to_string(index) + "\" role=\"img\" aria-label=\"" + escape_html(caption) +
         "\"><title>" + escape_html(caption) + "</title>" + scene(d, v, index, false) + "</svg>\n";
}

std::string report_html(const ReportData& data) {
  std::string h;
  h.reserve(1 << 16);
  const std::string title = "stasis report: " + data.title;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
       escape_html(title) + "</title>\n<script>" + kErrorHook + "</script>\n<style>" + kStyle +
       "</style>\n</head>\n";
  h += "<body data-status=\"loading\" data-errors=\"\" data-frame=\"0\">\n";
  h += "<h1>" + escape_html(title) + "</h1>\n";

  // Table of contents.
  h += "<nav><a href=\"#summary\">summary</a>";
  if (data.validation) h += "<a href=\"#validation\">validation</a>";
  if (data.draw) h += "<a href=\"#animation\">animation</a>";
  for (const auto& g : data.groups)
    h += "<a href=\"#" + escape_html(g.id) + "\">" + escape_html(g.title) + "</a>";
  if (!data.events.rows.empty()) h += "<a href=\"#events\">events</a>";
  if (!data.variables.rows.empty()) h += "<a href=\"#variables\">variables</a>";
  h += "</nav>\n";

  h += "<section id=\"summary\"><h2>Summary</h2>\n<table class=\"summary\"><tbody>\n";
  for (const auto& [k, v] : data.summary) {
    std::string cls;
    if (k == "status") cls = " class=\"status-" + escape_html(v) + "\"";
    if (k == "validation" && data.validation)
      cls = data.validation->passed ? " class=\"check-pass\"" : " class=\"check-fail\"";
    h += "<tr><th>" + escape_html(k) + "</th><td" + cls + ">" + escape_html(v) + "</td></tr>\n";
  }
  h += "</tbody></table>\n";
  if (!data.warnings.empty()) {
    // Many warnings (a gap check at every physical point) would push the plots off the first
    // screen: beyond kShownWarnings they fold into a <details> element.
    constexpr std::size_t kShownWarnings = 5;
    h += "<ul class=\"warnings\">";
    for (std::size_t i = 0; i < data.warnings.size() && i < kShownWarnings; ++i)
      h += "<li>warning: " + escape_html(data.warnings[i]) + "</li>";
    h += "</ul>\n";
    if (data.warnings.size() > kShownWarnings) {
      h += "<details class=\"warnings\"><summary>" + std::to_string(data.warnings.size() - kShownWarnings) +
           " more warnings</summary><ul class=\"warnings\">";
      for (std::size_t i = kShownWarnings; i < data.warnings.size(); ++i)
        h += "<li>warning: " + escape_html(data.warnings[i]) + "</li>";
      h += "</ul></details>\n";
    }
  }
  h += "</section>\n";

  if (!data.not_converged.rows.empty()) {
    h += "<section id=\"not-converged\"><h2>Why it did not converge</h2>\n";
    h += "<p class=\"note\">The rows and bounds the last relaxed NLP left most violated where IPOPT stopped "
         "(when it failed), and the complementarity pairs with the largest products at the returned point "
         "(result.json: solver.largest_violations, solver.largest_pairs).</p>\n";
    h += table_html(data.not_converged, "events", 100);
    h += "</section>\n";
  }
  if (data.validation) h += validation_html(*data.validation);

  if (data.draw && !data.time.empty()) {
    const DrawData& d = *data.draw;
    const View& v = data.view;
    const double duration = data.time.back() - data.time.front();
    const double speed = default_speed(duration);
    h += "<section id=\"animation\"><h2>Animation</h2>\n<p class=\"note\">The motion in physical time " +
         std::string("(jumps are instantaneous; faint lines are the paths of the points). ") +
         "Play, or drag the slider.</p>\n";
    h += "<div class=\"anim-box\"><svg xmlns=\"http://www.w3.org/2000/svg\" id=\"stasis-anim\" "
         "class=\"stasis-anim\" width=\"" +
         px(v.width) + "\" height=\"" + px(v.height) + "\" viewBox=\"0 0 " + px(v.width) + " " +
         px(v.height) + "\">" + scene(d, v, 0, true) + "</svg></div>\n";
    h += "<div class=\"controls\"><button id=\"anim-play\" type=\"button\">&#9654; Play</button>"
         "<input id=\"anim-scrub\" type=\"range\" min=\"0\" max=\"1000\" step=\"1\" value=\"0\" "
         "aria-label=\"time\">"
         "<span id=\"anim-time\">t = " +
         escape_html(format_number(data.time.front(), 4)) +
         "</span>"
         "<label>speed <select id=\"anim-speed\">";
    for (double s : {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0})
      h += "<option value=\"" + format_number(s, 3) + "\"" + (s == speed ? " selected" : "") + ">" +
           format_number(s, 3) + "×</option>";
    h += "</select></label><label><input id=\"anim-trace\" type=\"checkbox\" checked> paths</label></div>\n";
    // Frame data for the script.
    std::string js = "{\"t\":[";
    for (std::size_t k = 0; k < data.time.size(); ++k) js += (k ? "," : "") + json_number(data.time[k]);
    js += "],\"x\":[";
    for (std::size_t i = 0; i < d.names.size(); ++i) {
      js += i ? ",[" : "[";
      for (std::size_t k = 0; k < d.x[i].size(); ++k) js += (k ? "," : "") + json_number(d.x[i][k]);
      js += "]";
    }
    js += "],\"z\":[";
    for (std::size_t i = 0; i < d.names.size(); ++i) {
      js += i ? ",[" : "[";
      for (std::size_t k = 0; k < d.z[i].size(); ++k) js += (k ? "," : "") + json_number(d.z[i][k]);
      js += "]";
    }
    js += "],\"links\":[";
    for (std::size_t j = 0; j < d.links.size(); ++j)
      js +=
          (j ? ",[" : "[") + std::to_string(d.links[j].first) + "," + std::to_string(d.links[j].second) + "]";
    js += "],\"view\":{\"x0\":" + json_number(v.x0) + ",\"z0\":" + json_number(v.z0) +
          ",\"s\":" + json_number(v.scale) + ",\"h\":" + json_number(v.height) + "}}";
    h += "<script type=\"application/json\" id=\"stasis-frames\">" + js + "</script>\n";
    if (!data.key_frames.empty()) {
      h += "<h2 id=\"filmstrip\">Key frames</h2>\n<div class=\"filmstrip\">\n";
      for (const auto& f : data.key_frames) {
        const std::string caption = "t = " + format_number(f.time, 6) + " · " + f.label;
        h += "<figure>" + render_frame_svg(d, v, f.index, caption) + "<figcaption>" + escape_html(caption) +
             "</figcaption></figure>\n";
      }
      h += "</div>\n";
    }
    h += "</section>\n";
  }

  for (const auto& g : data.groups) {
    h += "<section id=\"" + escape_html(g.id) + "\"><h2>" + escape_html(g.title) + "</h2>\n";
    if (!g.note.empty()) h += "<p class=\"note\">" + escape_html(g.note) + "</p>\n";
    h += "<div class=\"plots\">\n";
    for (const auto& p : g.plots) h += render_svg(p);
    h += "</div></section>\n";
  }

  if (!data.events.rows.empty()) {
    h += "<section id=\"events\"><h2>Events</h2>\n";
    h += table_html(data.events, "events", 300);
    h += "</section>\n";
  }
  if (!data.variables.rows.empty()) {
    h += "<section id=\"variables\"><h2>Variables</h2>\n";
    h += table_html(data.variables, "variables", 2000);
    h += "</section>\n";
  }
  h += "<footer>Written by stasis " + escape_html(version()) +
       " from result.json; self-contained (no network). Rebuild with <code>stasis report "
       "DIR</code>.</footer>\n";
  h += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace stasis::report
