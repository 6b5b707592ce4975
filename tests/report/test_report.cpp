// The HTML report (stasis/report/report.hpp, svg.hpp): nice ticks and number formatting, HTML
// escaping, downsampling, SVG structure (jumps, events, shaded bands); the report of a real run
// (bouncing ball: a vertical jump segment at the first impact; animation data and key frames; the
// time-optimal bounce OCP: the validation section); frozen control stages; results without time
// series (mpcc) or with missing fields; and clear errors for bad input, from the library and from
// `stasis report DIR` (exit code 2).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/ocp/time_frozen.hpp"
#include "stasis/report/report.hpp"
#include "stasis/report/svg.hpp"

namespace {

namespace fs = std::filesystem;
using namespace stasis::report;
using stasis::Error;

#define EXPECT_CONTAINS(str, part) EXPECT_NE((str).find(part), std::string::npos) << (str).substr(0, 3000)
#define EXPECT_NOT_CONTAINS(str, part) EXPECT_EQ((str).find(part), std::string::npos) << (part)

struct CliRun {
  int exit_code;
  std::string output;
};

// The stasis CLI with `args`; stdout and stderr together.
CliRun cli(const std::string& args) {
  CliRun r{0, ""};
  FILE* pipe = popen((std::string(STASIS_CLI) + " " + args + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string temp_dir(const std::string& name) {
  // One per process: ctest runs the tests of this file in parallel processes.
  const fs::path p =
      fs::temp_directory_path() / ("stasis_test_report_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

const PlotGroup* group(const ReportData& d, const std::string& id) {
  for (const auto& g : d.groups)
    if (g.id == id) return &g;
  return nullptr;
}

const Plot* plot(const PlotGroup& g, const std::string& title) {
  for (const auto& p : g.plots)
    if (p.title == title) return &p;
  return nullptr;
}

// The data-t values of the <line class="jump"> elements of an SVG.
std::vector<double> jump_times(const std::string& svg) {
  std::vector<double> t;
  const std::regex re("<line class=\"jump\" data-t=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    t.push_back(std::stod((*it)[1].str()));
  return t;
}

// The bouncing ball up to t = 3 (one impact at t = 1.4278); written once for all tests.
const std::string& bouncing_ball_dir() {
  static const std::string dir = [] {
    const std::string d = temp_dir("bouncing_ball");
    const CliRun r = cli(
        "simulate " + std::string(STASIS_SOURCE_DIR) +
        "/examples/time_freezing/bouncing_ball.yaml -o simulate.horizon=3 -o simulate.steps=12 -q --out " +
        d);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return d;
  }();
  return dir;
}

// The time-optimal bounce (examples/time_freezing/time_optimal_bounce.yaml) with 5 stages: a
// time-frozen OCP whose result.json has `frozen_stages` and `validation` (about 1 s); written once.
const std::string& bounce_ocp_dir() {
  static const std::string dir = [] {
    const std::string d = temp_dir("bounce_ocp");
    const CliRun r = cli("solve " + std::string(STASIS_SOURCE_DIR) +
                         "/examples/time_freezing/time_optimal_bounce.yaml -o ocp.stages=5 -q --out " + d);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return d;
  }();
  return dir;
}

const Check* check(const ValidationData& v, const std::string& name) {
  for (const auto& c : v.checks)
    if (c.name == name) return &c;
  return nullptr;
}

std::string summary_value(const ReportData& d, const std::string& field) {
  for (const auto& [k, v] : d.summary)
    if (k == field) return v;
  return "(no " + field + ")";
}

}  // namespace

// ---- the plotting layer ----

// The report re-checks result.json's validation figures with its own limits; they must be the
// verdict's (ocp::ValidationOptions' defaults, validation.passed), or the two would disagree.
TEST(Report, ValidationLimitsAreTheVerdictsTolerances) {
  const stasis::ocp::ValidationOptions defaults;
  EXPECT_EQ(kDeviationLimit, defaults.deviation_tolerance);
  EXPECT_EQ(kViolationLimit, defaults.constraint_tolerance);
  EXPECT_EQ(kViolationLimit, defaults.gap_tolerance);
}

// validation.tolerances (the problem's ocp.validation) replace the default limits: a gap violation
// of 4.1e-3 passes a declared 5e-3 and fails the default 1e-6; the note names the limits used.
TEST(Report, ValidationUsesTheProblemsTolerances) {
  nlohmann::json j = {{"status", "converged"}, {"message", "ok"}, {"objective", 1.0}, {"final_time", 1.0},
                      {"time", {0, 1}}, {"states", {{"q", {1, 0}}}},
                      {"validation",
                       {{"resimulated", true}, {"final_state_deviation", 2e-3}, {"max_gap_violation", 4.1e-3},
                        {"max_path_violation", 0}, {"message", "m"}}}};
  const ReportData strict = report_data(j.dump(), "result.json", "strict");
  ASSERT_TRUE(strict.validation.has_value());
  ASSERT_NE(check(*strict.validation, "max gap violation"), nullptr);
  EXPECT_EQ(check(*strict.validation, "max gap violation")->verdict, Check::Verdict::Fail);
  EXPECT_EQ(check(*strict.validation, "max gap violation")->limit, "≤ 1e-6");
  EXPECT_CONTAINS(report_html(strict), "a gap violation at most 1e-6, a path violation at most 1e-6 (docs/report.md)");

  j["validation"]["tolerances"] = {{"gap", 5e-3}, {"constraints", 1e-6}, {"deviation", 2.5e-3}};
  const ReportData declared = report_data(j.dump(), "result.json", "declared");
  const Check* gap = check(*declared.validation, "max gap violation");
  ASSERT_NE(gap, nullptr);
  EXPECT_EQ(gap->verdict, Check::Verdict::Pass);
  EXPECT_EQ(gap->limit, "≤ 0.005");
  EXPECT_EQ(check(*declared.validation, "final state deviation")->verdict, Check::Verdict::Pass);  // 2e-3 <= 2.5e-3
  EXPECT_TRUE(declared.validation->failures.empty()) << ::testing::PrintToString(declared.validation->failures);
  EXPECT_CONTAINS(report_html(declared), "A deviation passes at most 0.0025, a gap violation at most 0.005, a path "
                                         "violation at most 1e-6 (the problem's ocp.validation)");
}

TEST(Svg, NiceTicksAndLabels) {
  EXPECT_EQ(nice_ticks(0, 15, 6), (std::vector<double>{0, 2.5, 5, 7.5, 10, 12.5, 15}));
  EXPECT_EQ(nice_ticks(-1.2, 1.2, 5), (std::vector<double>{-1, -0.5, 0, 0.5, 1}));
  const auto t = nice_ticks(0.1, 0.3, 4);
  EXPECT_EQ(tick_labels(t, false), (std::vector<std::string>{"0.10", "0.15", "0.20", "0.25", "0.30"}));
  EXPECT_EQ(tick_labels(nice_ticks(0, 15, 6), false).at(1), "2.5");
  EXPECT_EQ(tick_labels(nice_ticks(1e-7, 5e-7, 4), false).at(0), "1e-7");
  EXPECT_EQ(log_ticks(1e-10, 1), (std::vector<double>{1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1}));
  EXPECT_EQ(tick_labels({1e-5, 1e-3, 1, 100}, true), (std::vector<std::string>{"1e-5", "0.001", "1", "100"}));
  EXPECT_EQ(nice_ticks(2, 2), std::vector<double>{2});
}

TEST(Svg, CompactNumbersAndEscaping) {
  EXPECT_EQ(format_number(1.5e-9, 3), "1.5e-9");
  EXPECT_EQ(format_number(12.3456789, 4), "12.35");
  EXPECT_EQ(format_number(2e20), "2e20");
  EXPECT_EQ(format_number(-0.0), "0");
  EXPECT_EQ(format_number(NAN), "nan");
  EXPECT_EQ(escape_html("<a href=\"x\">Tom & 'Jerry'</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
}

TEST(Svg, DownsamplingKeepsEndsAndExtremes) {
  std::vector<double> x, y;
  for (int k = 0; k < 100000; ++k) {
    x.push_back(k * 1e-3);
    y.push_back(std::sin(k * 1e-3));
  }
  y[54321] = 7.0;  // a spike must survive
  const auto keep = downsample_indices(x, y, 1000);
  EXPECT_LE(keep.size(), 1100u);
  EXPECT_EQ(keep.front(), 0u);
  EXPECT_EQ(keep.back(), x.size() - 1);
  EXPECT_NE(std::find(keep.begin(), keep.end(), 54321u), keep.end());
  EXPECT_TRUE(std::is_sorted(keep.begin(), keep.end()));
  EXPECT_EQ(downsample_indices({0, 1, 2}, {0, 1, 2}, 1000).size(), 3u);

  Plot p;
  p.title = "long";
  p.series.push_back({"y", x, y, SeriesStyle::Line, false});
  const std::string svg = render_svg(p);
  EXPECT_LT(svg.size(), 60000u);  // not 100000 points
}

TEST(Svg, JumpsEventsBandsAndLegend) {
  Plot p;
  p.title = "v <m/s>";
  p.x_label = "time t";
  p.series.push_back({"v", {0, 1, 1, 2}, {-1, -2, 1.8, 0}, SeriesStyle::Line, false});
  p.series.push_back({"u", {0, 1, 2}, {1, 0}, SeriesStyle::Step, false});
  p.events.push_back({1.0, "impact", "impact at t = 1"});
  p.shaded.push_back({0.5, 0.75});
  const auto jumps = jumps_of(p.series[0]);
  ASSERT_EQ(jumps.size(), 1u);
  EXPECT_EQ(jumps[0].x, 1.0);
  EXPECT_EQ(jumps[0].y_before, -2.0);
  EXPECT_EQ(jumps[0].y_after, 1.8);
  const std::string svg = render_svg(p);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_CONTAINS(svg, "class=\"stasis-plot\"");
  EXPECT_EQ(jump_times(svg), std::vector<double>{1.0});
  EXPECT_CONTAINS(svg, "data-y0=\"-2\" data-y1=\"1.8\"");
  EXPECT_CONTAINS(svg, "<line class=\"event impact\" data-t=\"1\"");
  EXPECT_CONTAINS(svg, "<rect class=\"shade\" data-t0=\"0.5\" data-t1=\"0.75\"");
  EXPECT_CONTAINS(svg, "v &lt;m/s&gt;");  // the title, escaped
  EXPECT_NOT_CONTAINS(svg, "<m/s>");
  EXPECT_CONTAINS(svg, "class=\"legend\"");
  EXPECT_EQ(count(svg, "<polyline"), 3u);  // two pieces of v, one step line

  Plot log;
  log.title = "log";
  log.log_y = true;
  log.series.push_back({"r", {1, 2, 3, 4}, {1, 0, -1, 1e-9}, SeriesStyle::Line, false});
  const std::string lsvg = render_svg(log);
  EXPECT_CONTAINS(lsvg, "data-log=\"y\"");
  EXPECT_CONTAINS(lsvg, ">1e-9<");

  Plot empty;
  empty.title = "nothing";
  EXPECT_CONTAINS(render_svg(empty), "no data");
}

TEST(Svg, HatchedBands) {
  Plot p;
  p.title = "per stage";
  p.series.push_back({"u", {0, 1, 2, 3}, {1, 5, 2}, SeriesStyle::Step, false});
  p.shaded.push_back({1, 2});
  p.shaded_label = "frozen stage";
  const std::string plain = render_svg(p);
  EXPECT_CONTAINS(plain, "<rect class=\"shade\" data-t0=\"1\" data-t1=\"2\"");
  EXPECT_NOT_CONTAINS(plain, "class=\"hatch\"");
  p.hatched = true;
  const std::string svg = render_svg(p);
  EXPECT_CONTAINS(svg, "<rect class=\"shade\" data-t0=\"1\" data-t1=\"2\"");
  EXPECT_CONTAINS(svg, "<g class=\"hatch\" data-t0=\"1\" data-t1=\"2\"");
  EXPECT_GE(count(svg, "<line x1="), 10u);  // the hatch lines (and the legend's)
  EXPECT_CONTAINS(svg, ">frozen stage<");
}

// ---- the report of real runs ----

TEST(Report, BouncingBallHasAJumpSegmentAtTheFirstImpact) {
  const std::string dir = bouncing_ball_dir();
  ASSERT_TRUE(fs::exists(dir + "/report.html")) << "simulate writes report.html";
  const nlohmann::json result = nlohmann::json::parse(read_text(dir + "/result.json"));
  ASSERT_FALSE(result["events"].empty());
  const double t_impact = result["events"][0]["time"].get<double>();
  EXPECT_NEAR(t_impact, 1.4278431229, 1e-4);
  ASSERT_TRUE(result.contains("draw"));
  EXPECT_EQ(result["draw"]["points"]["ball"]["z"].size(), result["time"].size());
  EXPECT_EQ(result["draw"]["points"]["ball"]["z"], result["states"]["q"]);

  const ReportData d = report_data(read_text(dir + "/result.json"), dir + "/result.json", "bouncing ball");
  EXPECT_EQ(d.kind, "time-frozen simulation");
  const PlotGroup* physical = group(d, "physical");
  ASSERT_NE(physical, nullptr);
  const Plot* v = plot(*physical, "v");
  ASSERT_NE(v, nullptr);
  const auto jumps = jumps_of(v->series.at(0));
  ASSERT_EQ(jumps.size(), 1u);
  EXPECT_NEAR(jumps[0].x, t_impact, 1e-9);
  EXPECT_LT(jumps[0].y_before, -13.9);
  EXPECT_GT(jumps[0].y_after, 12.5);
  ASSERT_EQ(v->events.size(), 1u);
  EXPECT_EQ(v->events[0].kind, "impact");
  const std::vector<double> svg_jumps = jump_times(render_svg(*v));
  ASSERT_EQ(svg_jumps.size(), 1u);
  EXPECT_NEAR(svg_jumps[0], t_impact, 1e-9);

  // Numerical time: the clock with one frozen phase; speed of time; homotopy; impulses.
  const PlotGroup* numerical = group(d, "numerical");
  ASSERT_NE(numerical, nullptr);
  const Plot* clock = plot(*numerical, "clock t(τ)");
  ASSERT_NE(clock, nullptr);
  ASSERT_EQ(clock->shaded.size(), 1u);
  const auto& tau = result["numerical"]["time"];
  const auto& clk = result["numerical"]["clock"];
  for (std::size_t k = 0; k < tau.size(); ++k) {  // the clock stands at the impact time in the band
    if (tau[k].get<double>() >= clock->shaded[0].first && tau[k].get<double>() <= clock->shaded[0].second) {
      EXPECT_NEAR(clk[k].get<double>(), t_impact, 1e-9) << k;
    }
  }
  EXPECT_NE(group(d, "speed_of_time"), nullptr);
  EXPECT_NE(group(d, "homotopy"), nullptr);
  const PlotGroup* contact = group(d, "contact");
  ASSERT_NE(contact, nullptr);
  EXPECT_NE(plot(*contact, "normal impulses at impacts"), nullptr);

  // Animation: the drawing, key frames at start, impact and end.
  ASSERT_TRUE(d.draw.has_value());
  EXPECT_EQ(d.draw->names, std::vector<std::string>{"ball"});
  ASSERT_EQ(d.key_frames.size(), 3u);
  EXPECT_EQ(d.key_frames[0].label, "start");
  EXPECT_NEAR(d.key_frames[1].time, t_impact, 1e-9);
  EXPECT_EQ(d.key_frames[2].label, "end");

  const std::string html = read_text(dir + "/report.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_CONTAINS(html, "<body data-status=\"loading\"");
  EXPECT_CONTAINS(html, "window.onerror");
  EXPECT_CONTAINS(html, "id=\"stasis-frames\"");
  EXPECT_CONTAINS(html, "id=\"anim-pt-0\"");
  EXPECT_CONTAINS(html, "id=\"anim-play\"");
  EXPECT_CONTAINS(html, "id=\"anim-scrub\"");
  EXPECT_EQ(count(html, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"stasis-frame\""), 3u);
  EXPECT_GE(count(html, "class=\"stasis-plot\""), 6u);
  EXPECT_EQ(jump_times(html).size(), 1u) << "one jump: v at the impact (q is continuous)";
  // Self-contained: nothing is loaded from elsewhere.
  EXPECT_NOT_CONTAINS(html, "src=\"http");
  EXPECT_NOT_CONTAINS(html, "href=\"http");
  EXPECT_NOT_CONTAINS(html, "<link");
  EXPECT_NOT_CONTAINS(html, "@import");
}

TEST(Report, CommandRebuildsTheReport) {
  const std::string dir = bouncing_ball_dir();
  fs::remove(dir + "/report.html");
  const CliRun r = cli("report " + dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_CONTAINS(r.output, "report.html");
  EXPECT_TRUE(fs::exists(dir + "/report.html"));
}

TEST(Report, OcpResultHasControlsAsSteps) {
  const std::string text = R"({
    "status": "converged", "message": "ok", "objective": 1.5, "final_time": 2.0,
    "complementarity_residual": 1e-10,
    "time": [0, 1, 2], "states": {"x": [0, 1, 4]},
    "control_time": [0, 1], "controls": {"u": [1, -1]},
    "events": [{"time": 1, "kind": "switch", "switching": [0], "before": {"regions": [0]}, "after": {"regions": [1]},
                "state": {"x": 1}}],
    "solver": {"nlp_iterations": 10, "nlp_solves": 2, "wall_time_s": 0.5, "construction_time_s": 0.1,
               "homotopy": [{"sigma": 1, "residual": 0.1, "iterations": 5}, {"sigma": 0.1, "residual": 1e-11, "iterations": 5}]}
  })";
  const ReportData d = report_data(text, "result.json", "ocp");
  EXPECT_EQ(d.kind, "ocp");
  const PlotGroup* controls = group(d, "controls");
  ASSERT_NE(controls, nullptr);
  const Series& u = controls->plots.at(0).series.at(0);
  EXPECT_EQ(u.style, SeriesStyle::Step);
  EXPECT_EQ(u.x, (std::vector<double>{0, 1, 2}));  // ends at the final time
  const PlotGroup* homotopy = group(d, "homotopy");
  ASSERT_NE(homotopy, nullptr);
  EXPECT_TRUE(homotopy->plots.at(0).log_y);
  bool has_objective = false, has_construction = false;
  for (const auto& [k, v] : d.summary) {
    has_objective = has_objective || (k == "objective" && v == "1.5");
    has_construction = has_construction || (k == "construction time" && v == "0.1 s");
  }
  EXPECT_TRUE(has_objective);
  EXPECT_TRUE(has_construction);
  // Switch events have no contact or impulse: those columns are left out.
  EXPECT_EQ(d.events.header, (std::vector<std::string>{"time", "kind", "before", "after", "details"}));
  const std::string html = report_html(d);
  EXPECT_NOT_CONTAINS(html, "id=\"stasis-frames\"");  // no draw block, no animation
  EXPECT_CONTAINS(html, "data-status=\"loading\"");
}

// A real time-frozen OCP: the validation section shows every figure of result.json's
// `validation` block with its verdict against the limits, the message and the deviation per stage;
// the summary says whether it passed and that no stage is frozen.
TEST(Report, TimeFrozenOcpHasAValidationSection) {
  const std::string dir = bounce_ocp_dir();
  const std::string text = read_text(dir + "/result.json");
  const nlohmann::json result = nlohmann::json::parse(text);
  ASSERT_TRUE(result.contains("validation"));
  ASSERT_TRUE(result.contains("frozen_stages"));
  const nlohmann::json& v = result["validation"];
  const double final_dev = v["final_state_deviation"].get<double>();
  const double stage_dev = v["max_deviation_at_stage_ends"].get<double>();

  const ReportData d = report_data(text, dir + "/result.json", "bounce");
  EXPECT_EQ(d.kind, "ocp");
  ASSERT_TRUE(d.frozen_stages.has_value());
  EXPECT_TRUE(d.frozen_stages->empty());
  EXPECT_EQ(summary_value(d, "frozen stages"), "none");
  ASSERT_TRUE(d.validation.has_value());
  const ValidationData& val = *d.validation;
  EXPECT_EQ(val.message, v["message"].get<std::string>());
  const Check* resim = check(val, "re-simulated to the end");
  ASSERT_NE(resim, nullptr);
  EXPECT_EQ(resim->verdict, Check::Verdict::Pass);
  const Check* fin = check(val, "final state deviation");
  ASSERT_NE(fin, nullptr);
  EXPECT_EQ(fin->value, format_number(final_dev, 3));
  EXPECT_EQ(fin->limit, "≤ 1e-3");
  EXPECT_EQ(fin->verdict, final_dev <= kDeviationLimit ? Check::Verdict::Pass : Check::Verdict::Fail);
  const Check* ends = check(val, "max deviation at stage ends");
  ASSERT_NE(ends, nullptr);
  EXPECT_EQ(ends->value, format_number(stage_dev, 3));
  const Check* gap = check(val, "max gap violation");
  ASSERT_NE(gap, nullptr);
  EXPECT_EQ(gap->limit, "≤ 1e-6");
  EXPECT_EQ(gap->verdict, Check::Verdict::Pass);  // the bounce never enters the wall
  ASSERT_NE(check(val, "max path violation"), nullptr);
  ASSERT_NE(check(val, "max path violation between points"), nullptr);  // Radau IIA: points_between 4
  ASSERT_NE(check(val, "integrator steps"), nullptr);
  EXPECT_EQ(check(val, "integrator steps")->value,
            "4 (1 per control stage, a stage joined with the next at a jump sharing them)");
  // Stage 2 (the jump on its end) is re-simulated in one step with stage 3
  // (tests/cli/test_cli_time_frozen_ocp.cpp).
  ASSERT_NE(check(val, "stages joined with the next at a jump"), nullptr);
  EXPECT_EQ(check(val, "stages joined with the next at a jump")->value,
            "2 (0-based): one integrator step with the stage after, compared where the jump is over");
  // That step stops at residual 8.7e-9, above the integrator's 1e-9 (validation.stages_above_step_tolerance).
  ASSERT_NE(check(val, "steps stopped above their complementarity tolerance"), nullptr);
  EXPECT_EQ(check(val, "steps stopped above their complementarity tolerance")->value,
            "2 (0-based): within the validation's step tolerance, taken as converged");
  // Stages 2 and 3 are reproduced by the integrator: the row passes. Where a stage is taken from
  // the OCP's motion (as stage 2 was before the pull of its speed of time towards the OCP's, the
  // same result.json with stages_from_ocp = [2]) it fails, as validation.passed does.
  const Check* own = check(val, "stages not reproduced by the integrator");
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->value, "none");
  EXPECT_EQ(own->verdict, Check::Verdict::Pass);
  nlohmann::json taken = result;
  taken["validation"]["stages_from_ocp"] = {2};
  taken["validation"]["ocp_stage_violation"] = 1.04e-8;
  taken["validation"]["passed"] = false;
  taken["validation"]["failures"] = {
      "stage(s) 2 not reproduced by the integrator (the OCP's motion solves the step too)"};
  const ReportData dt = report_data(taken.dump(), dir + "/result.json", "bounce");
  ASSERT_TRUE(dt.validation.has_value());
  const Check* taken_row = check(*dt.validation, "stages not reproduced by the integrator");
  ASSERT_NE(taken_row, nullptr);
  EXPECT_EQ(taken_row->value.rfind("2 (0-based): the OCP's motion solves the step to ", 0), 0u) << taken_row->value;
  EXPECT_EQ(taken_row->verdict, Check::Verdict::Fail);
  EXPECT_FALSE(dt.validation->passed);
  // validation.stages_painleve: an information row (none here, the bounce has no friction; one
  // in the modified copy), not part of the verdict.
  EXPECT_EQ(check(val, "stages with Painlevé impacts or sliding"), nullptr);
  taken["validation"]["stages_painleve"] = {2, 3};
  const ReportData dp = report_data(taken.dump(), dir + "/result.json", "bounce");
  const Check* painleve = check(*dp.validation, "stages with Painlevé impacts or sliding");
  ASSERT_NE(painleve, nullptr);
  EXPECT_EQ(painleve->value, "2, 3 (0-based): the rigid contact problem has no unique solution there");
  EXPECT_EQ(painleve->verdict, Check::Verdict::Info);
  EXPECT_EQ(dp.validation->failures, dt.validation->failures);
  // validation.stages_from_ocp_guess: an information row when there are any (reproduced stages).
  EXPECT_EQ(check(val, "stages reproduced from the OCP's motion as the guess"), nullptr);
  nlohmann::json guessed = result;
  guessed["validation"]["stages_from_ocp_guess"] = {3};
  const ReportData dg = report_data(guessed.dump(), dir + "/result.json", "bounce");
  const Check* guess_row = check(*dg.validation, "stages reproduced from the OCP's motion as the guess");
  ASSERT_NE(guess_row, nullptr);
  EXPECT_EQ(guess_row->value, "3 (0-based): the integrator's own guesses found another solution or none");
  EXPECT_EQ(guess_row->verdict, Check::Verdict::Info);
  EXPECT_EQ(dg.validation->passed, val.passed);
  const bool passed = v["stages_from_ocp"].empty() && final_dev <= kDeviationLimit && stage_dev <= kDeviationLimit &&
                      v["max_gap_violation"].get<double>() <= kViolationLimit &&
                      v["max_path_violation"].get<double>() <= kViolationLimit &&
                      v["max_path_violation_between_points"].get<double>() <= kViolationLimit;
  EXPECT_EQ(val.passed, passed);
  EXPECT_EQ(val.passed, v["passed"].get<bool>());  // the report's verdict is result.json's
  EXPECT_EQ(summary_value(d, "validation").rfind(passed ? "passed" : "failed: ", 0), 0u) << summary_value(d, "validation");
  ASSERT_TRUE(val.stage_plot.has_value());
  ASSERT_EQ(val.stage_plot->series.at(0).y.size(), 5u);
  EXPECT_EQ(val.stage_plot->series.at(0).y[4], v["stage_end_deviation"][4].get<double>());
  EXPECT_TRUE(val.stage_plot->log_y);

  const std::string html = read_text(dir + "/report.html");  // written by stasis solve
  EXPECT_CONTAINS(html, "<a href=\"#validation\">validation</a>");
  EXPECT_CONTAINS(html, "<section id=\"validation\"><h2>Validation</h2>");
  EXPECT_CONTAINS(html, "<th>final state deviation</th><td>" + format_number(final_dev, 3) + "</td><td>≤ 1e-3</td>");
  EXPECT_CONTAINS(html, "<th>max deviation at stage ends</th><td>" + format_number(stage_dev, 3) + "</td>");
  EXPECT_CONTAINS(html, escape_html(v["message"].get<std::string>()));
  EXPECT_CONTAINS(html, "aria-label=\"deviation at the end of each control stage\" data-log=\"y\"");
  EXPECT_CONTAINS(html, passed ? "class=\"validation-verdict check-pass\"" : "class=\"validation-verdict check-fail\"");
  EXPECT_CONTAINS(html, final_dev <= kDeviationLimit ? "class=\"row-pass\"><th>final state deviation"
                                                     : "class=\"row-fail\"><th>final state deviation");
  EXPECT_CONTAINS(html, "<tr><th>frozen stages</th><td>none</td></tr>");
  EXPECT_NOT_CONTAINS(html, "controls per stage");  // only with frozen stages
  EXPECT_NOT_CONTAINS(html, "class=\"hatch\"");

  // Older results, simulations, ocp.validate: false: without the blocks the sections are left out.
  nlohmann::json older = result;
  older.erase("validation");
  const ReportData no_validation = report_data(older.dump(), "result.json", "bounce");
  EXPECT_FALSE(no_validation.validation.has_value());
  EXPECT_EQ(summary_value(no_validation, "validation"), "(no validation)");
  older.erase("frozen_stages");
  const std::string old_html = report_html(report_data(older.dump(), "result.json", "bounce"));
  EXPECT_NOT_CONTAINS(old_html, "id=\"validation\"");
  EXPECT_NOT_CONTAINS(old_html, "frozen stages");
  EXPECT_CONTAINS(old_html, "<section id=\"controls\">");
  EXPECT_NOT_CONTAINS(report_html(report_data(read_text(bouncing_ball_dir() + "/result.json"), "r.json", "ball")),
                      "id=\"validation\"");
}

// A hand-made result with a frozen stage (time_freezing.clock_constraints: terminal lets the
// optimizer stop the clock for a stage): the stage is named in the summary and the controls note,
// left out of the physical-time plot (marked by a line at its clock value), hatched in the plot per
// stage and in the deviation plot; failed checks are red with the reason.
TEST(Report, FrozenStagesAreMarkedInTheControls) {
  const std::string text = R"({
    "status": "converged", "message": "ok", "objective": 2.0, "final_time": 1.0,
    "time": [0, 0.5, 0.5, 1], "states": {"q": [1, 0, 0, 0.5], "v": [-2, -2, 0, 1]},
    "control_time": [0, 0.5, 0.5], "controls": {"u": [1, 40, 2]},
    "frozen_stages": [1],
    "validation": {"resimulated": true, "simulation_converged": false, "steps": 6, "steps_per_stage": 2,
      "horizon": 1.0, "final_state_deviation": 2.5e-4, "max_deviation_at_stage_ends": 2.5e-4,
      "stage_end_deviation": [1e-9, null, 2.5e-4], "simulated_final_state": {"q": 0.50025, "v": 1.0},
      "max_gap_violation": 0, "max_path_violation": 10, "path_violation_where": "control u on stage 1",
      "points_between": 4, "max_path_violation_between_points": 0.5,
      "path_violation_between_where": "path constraint hole in element 2 at t = 0.25",
      "message": "re-simulated <6> steps", "wall_time_s": 0.25}
  })";
  const ReportData d = report_data(text, "result.json", "frozen");
  ASSERT_TRUE(d.frozen_stages.has_value());
  EXPECT_EQ(*d.frozen_stages, std::vector<int>{1});
  EXPECT_EQ(summary_value(d, "frozen stages").rfind("1 (0-based): the clock stands still there", 0), 0u);
  const PlotGroup* controls = group(d, "controls");
  ASSERT_NE(controls, nullptr);
  EXPECT_CONTAINS(controls->note, "Stage 1 (0-based) is frozen");
  const Plot* u = plot(*controls, "u");
  ASSERT_NE(u, nullptr);
  ASSERT_EQ(u->series.at(0).y.size(), 3u);
  EXPECT_TRUE(std::isnan(u->series[0].y[1]));  // no physical time: left out
  EXPECT_EQ(u->series[0].y[2], 2.0);
  bool marked = false;
  for (const auto& e : u->events) marked = marked || (e.kind == "frozen-stage" && e.x == 0.5);
  EXPECT_TRUE(marked);
  const Plot* per_stage = plot(*controls, "controls per stage (frozen stages hatched)");
  ASSERT_NE(per_stage, nullptr);
  EXPECT_TRUE(per_stage->hatched);
  EXPECT_EQ(per_stage->shaded, (std::vector<std::pair<double, double>>{{1.0, 2.0}}));
  EXPECT_EQ(per_stage->series.at(0).y, (std::vector<double>{1, 40, 2}));  // every stage's value
  EXPECT_EQ(per_stage->series.at(0).x, (std::vector<double>{0, 1, 2, 3}));

  ASSERT_TRUE(d.validation.has_value());
  const ValidationData& v = *d.validation;
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(check(v, "every integrator step converged")->verdict, Check::Verdict::Fail);
  EXPECT_EQ(check(v, "final state deviation")->verdict, Check::Verdict::Pass);  // 2.5e-4 <= 1e-3
  EXPECT_EQ(check(v, "max path violation")->value, "10 (control u on stage 1)");
  EXPECT_EQ(check(v, "max path violation")->verdict, Check::Verdict::Fail);
  EXPECT_EQ(check(v, "re-simulated final state")->value, "q = 0.50025, v = 1");
  EXPECT_EQ(check(v, "integrator steps")->value, "6 (2 per control stage)");
  EXPECT_EQ(check(v, "max path violation between points")->value,
            "0.5 (path constraint hole in element 2 at t = 0.25)");
  EXPECT_EQ(v.failures, (std::vector<std::string>{"every integrator step converged: no", "max path violation 10 > 1e-6",
                                                  "max path violation between points 0.5 > 1e-6"}));
  ASSERT_TRUE(v.stage_plot.has_value());
  EXPECT_TRUE(std::isnan(v.stage_plot->series.at(0).y[1]));  // null: a frozen stage
  EXPECT_EQ(v.stage_plot->shaded, (std::vector<std::pair<double, double>>{{0.5, 1.5}}));

  const std::string html = report_html(d);
  EXPECT_CONTAINS(html, "class=\"hatch\"");
  EXPECT_CONTAINS(html, "<line class=\"event frozen-stage\" data-t=\"0.5\"");
  EXPECT_CONTAINS(html, "failed: every integrator step converged: no; max path violation 10 &gt; 1e-6; max path "
                       "violation between points 0.5 &gt; 1e-6");
  EXPECT_CONTAINS(html, "<td class=\"check-fail\">failed: every integrator step converged");  // summary
  EXPECT_CONTAINS(html, "class=\"row-fail\"><th>max path violation</th><td>10 (control u on stage 1)</td>");
  EXPECT_CONTAINS(html, "class=\"row-pass\"><th>final state deviation</th><td>0.00025</td>");
  EXPECT_CONTAINS(html, "re-simulated &lt;6&gt; steps");
  EXPECT_NOT_CONTAINS(html, "<6>");

  // Not finite (null) figures are "n/a", neither pass nor fail; all-zero deviations use a linear axis.
  const ReportData na = report_data(
      R"({"validation": {"resimulated": false, "final_state_deviation": null, "stage_end_deviation": [0, null],
                         "message": "step 1 cannot hold a jump"}})",
      "result.json", "na");
  ASSERT_TRUE(na.validation.has_value());
  EXPECT_EQ(check(*na.validation, "final state deviation")->verdict, Check::Verdict::NotAvailable);
  EXPECT_EQ(na.validation->failures, std::vector<std::string>{"re-simulated to the end: no"});
  ASSERT_TRUE(na.validation->stage_plot.has_value());
  EXPECT_FALSE(na.validation->stage_plot->log_y);
  EXPECT_CONTAINS(report_html(na), "<td class=\"check-na\">n/a</td>");
}

TEST(Report, MpccResultHasNoTimeSeries) {
  const std::string text =
      R"({"complementarity_residual": 2.96e-10, "message": "complementarity residual 2.96e-10 <= 1.00e-09",
    "objective": 8.77e-20, "status": "converged", "variables": {"x1": 1.0, "x2": 2.96e-10},
    "solver": {"homotopy": [{"iterations": 18, "objective": 0, "residual": 5.8e-07, "sigma": 1.0, "status": "Solve_Succeeded",
               "wall_time_s": 0.007}], "initial_residual": 0.0, "nlp_iterations": 86, "nlp_solves": 10, "wall_time_s": 0.037}})";
  const ReportData d = report_data(text, "result.json", "mpcc");
  EXPECT_EQ(d.kind, "mpcc");
  EXPECT_EQ(group(d, "physical"), nullptr);
  EXPECT_NE(group(d, "homotopy"), nullptr);
  ASSERT_EQ(d.variables.rows.size(), 2u);
  EXPECT_EQ(d.variables.rows[1][1], "2.96e-10");
  const std::string html = report_html(d);
  EXPECT_CONTAINS(html, "<section id=\"variables\">");
  EXPECT_NOT_CONTAINS(html, "id=\"animation\"");

  // The bare minimum: an empty object still gives a page.
  EXPECT_CONTAINS(report_html(report_data("{}", "result.json", "empty")), "<h1>stasis report: empty</h1>");
}

// A run that did not converge says why, first the violations, then the pairs (values of
// CliMpcc.FailedRunNamesItsLargestViolations' file); an infinite bound (null) reads -inf/inf; a
// converged run has no such section (MpccResultHasNoTimeSeries' text has neither list).
TEST(Report, NotConvergedRunSaysWhy) {
  const std::string text = R"J({"status": "not_converged", "solver": {
    "largest_violations": [{"block": "b", "constraint": "'x + y <= -1' (f.yaml:8:5)", "value": 1e-15,
                             "lower": null, "upper": -1, "violation": 1}],
    "largest_pairs": [{"block": "b", "pair": "[x, y]", "G": 0.5, "H": 2, "product": 1}]}})J";
  const ReportData d = report_data(text, "result.json", "x");
  ASSERT_EQ(d.not_converged.rows.size(), 2u);
  EXPECT_EQ(d.not_converged.rows[0],
            (std::vector<std::string>{"violated by 1", "b", "'x + y <= -1' (f.yaml:8:5)", "1e-15 (bounds [-inf, -1])"}));
  EXPECT_EQ(d.not_converged.rows[1], (std::vector<std::string>{"product 1", "b", "[x, y]", "G 0.5 · H 2"}));
  const std::string html = report_html(d);
  EXPECT_CONTAINS(html, "<section id=\"not-converged\"><h2>Why it did not converge</h2>");
  EXPECT_CONTAINS(html, "&#39;x + y &lt;= -1&#39;");
  EXPECT_NOT_CONTAINS(report_html(report_data(R"({"status": "converged", "solver": {}})", "result.json", "x")),
                      "not-converged");
  try {
    report_data(R"({"solver": {"largest_pairs": [{"G": "a"}]}})", "result.json", "x");
    ADD_FAILURE() << "a malformed entry must be an error";
  } catch (const Error& e) {
    EXPECT_CONTAINS(std::string(e.what()), "solver.largest_pairs[0].G");
  }
}

TEST(Report, TextFromTheResultIsEscaped) {
  const std::string text = R"({"status": "failed", "message": "<script>alert(1)</script> & 'x'",
    "time": [0, 1], "states": {"a<b": [0, 1]}, "warnings": ["gap < 0 at \"t = 1\""],
    "events": [{"time": 0.5, "kind": "<img>", "state": {"a<b": 0.5}}]})";
  const std::string html = report_html(report_data(text, "result.json", "x</title><script>"));
  EXPECT_NOT_CONTAINS(html, "<script>alert");
  EXPECT_NOT_CONTAINS(html, "<img>");
  EXPECT_NOT_CONTAINS(html, "x</title><script>");
  EXPECT_CONTAINS(html, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;x&#39;");
  EXPECT_CONTAINS(html, "a&lt;b");
  EXPECT_CONTAINS(html, "gap &lt; 0 at &quot;t = 1&quot;");
  EXPECT_CONTAINS(html, "class=\"status-failed\"");
  EXPECT_EQ(count(html, "<script"), 2u);  // the error hook and the player, nothing from the data
}

// Many warnings (the hopper's gap check gives 48) must not push the plots off the first screen:
// the first 5 are listed, the rest fold into a <details> element, and none is lost.
TEST(Report, ManyWarningsFoldAfterTheFirstFive) {
  std::string list;
  for (int i = 0; i < 8; ++i) list += (i ? ", " : "") + std::string("\"w") + std::to_string(i) + "\"";
  const std::string html =
      report_html(report_data("{\"time\": [0, 1], \"warnings\": [" + list + "]}", "result.json", "w"));
  for (int i = 0; i < 8; ++i) EXPECT_CONTAINS(html, "<li>warning: w" + std::to_string(i) + "</li>");
  EXPECT_CONTAINS(html, "<summary>3 more warnings</summary>");
  EXPECT_LT(html.find("w4</li>"), html.find("<details"));
  EXPECT_GT(html.find("w5</li>"), html.find("<details"));
  const std::string few = report_html(report_data(R"({"time": [0, 1], "warnings": ["a", "b"]})", "result.json", "w"));
  EXPECT_NOT_CONTAINS(few, "<details");
}

TEST(Report, MalformedInputGivesClearErrors) {
  const auto message = [](const std::string& text) {
    try {
      report_data(text, "dir/result.json", "x");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_CONTAINS(message("{\"time\": [1, 2"), "dir/result.json: not valid JSON");
  EXPECT_CONTAINS(message("[1, 2]"), "dir/result.json: expected a JSON object");
  EXPECT_CONTAINS(message("{\"time\": \"soon\"}"), "field 'time' is a string, expected a list of numbers");
  EXPECT_CONTAINS(message("{\"time\": [0, 1], \"states\": {\"x\": [0]}}"),
                  "field 'states.x' has 1 values, but 'time' has 2");
  EXPECT_CONTAINS(message("{\"time\": [0, \"a\"]}"), "field 'time[1]' is a string");
  EXPECT_CONTAINS(message("{\"solver\": {\"homotopy\": 3}}"),
                  "field 'solver.homotopy' is a number, expected a list");
  EXPECT_CONTAINS(message("{\"time\": [0], \"draw\": {\"points\": {\"p\": {\"x\": [0], \"z\": [0]}}, "
                          "\"links\": [[\"p\", \"q\"]]}}"),
                  "names the point 'q'");
  EXPECT_CONTAINS(message("{\"time\": [0, 1], \"draw\": {\"points\": {\"p\": {\"x\": [0], \"z\": [0]}}}}"),
                  "field 'draw.points.p' has 1 x and 1 z values, but 'time' has 2");
  EXPECT_CONTAINS(message("{\"validation\": 3}"), "field 'validation' is a number, expected an object");
  EXPECT_CONTAINS(message("{\"validation\": {\"resimulated\": \"yes\"}}"),
                  "field 'validation.resimulated' is a string, expected true or false");
  EXPECT_CONTAINS(message("{\"validation\": {\"stage_end_deviation\": [1, \"x\"]}}"),
                  "field 'validation.stage_end_deviation[1]' is a string");
  EXPECT_CONTAINS(message("{\"frozen_stages\": [0, \"a\"]}"),
                  "field 'frozen_stages[1]' is a string, expected a stage index >= 0");
  EXPECT_CONTAINS(message("{\"frozen_stages\": 2}"), "field 'frozen_stages' is a number, expected a list");
  // null stands for a value that is not finite
  EXPECT_EQ(message("{\"time\": [0, 1], \"states\": {\"x\": [0, null]}}"), "(no error)");
}

TEST(Report, BadDirectoryGivesClearErrorsAndExitCode2) {
  EXPECT_THROW(write_report("/nonexistent/stasis/dir"), Error);
  const std::string empty = temp_dir("empty");
  try {
    write_report(empty);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_CONTAINS(std::string(e.what()), empty + "/result.json: not found");
  }

  CliRun r = cli("report /nonexistent/stasis/dir");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_CONTAINS(r.output, "/nonexistent/stasis/dir: no such directory");
  r = cli("report " + empty);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_CONTAINS(r.output, "result.json: not found");
  const std::string bad = temp_dir("bad");
  write_text(bad + "/result.json", "{\"status\": \"converged\", \"time\": [0, 1,");
  r = cli("report " + bad);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_CONTAINS(r.output, bad + "/result.json: not valid JSON");
  EXPECT_NOT_CONTAINS(r.output, "internal error");
  EXPECT_FALSE(fs::exists(bad + "/report.html"));
  r = cli("report");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}
