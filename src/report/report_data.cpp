// result.json -> the report's plots and tables (see stasis/report/report.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "stasis/error.hpp"
#include "stasis/report/report.hpp"

namespace stasis::report {

namespace {

using nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Reads fields of result.json with errors that name the file and the field.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw Error(source_ + ": field '" + field + "' " + message);
  }

  static const char* type_name(const json& j) {
    if (j.is_null()) return "null";
    if (j.is_boolean()) return "a boolean";
    if (j.is_number()) return "a number";
    if (j.is_string()) return "a string";
    if (j.is_array()) return "a list";
    return "an object";
  }

  // The member `key` of `obj` if present (and not null), else nullptr.
  static const json* find(const json& obj, const std::string& key) {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return nullptr;
    return &*it;
  }

  double number(const json& j, const std::string& field) const {
    if (j.is_null()) return kNaN;  // written for values that are not finite
    if (!j.is_number()) fail(field, std::string("is ") + type_name(j) + ", expected a number");
    return j.get<double>();
  }

  std::optional<double> optional_number(const json& obj, const std::string& key,
                                        const std::string& field) const {
    const json* j = find(obj, key);
    if (!j) return std::nullopt;
    return number(*j, field);
  }

  std::vector<double> numbers(const json& j, const std::string& field) const {
    if (!j.is_array()) fail(field, std::string("is ") + type_name(j) + ", expected a list of numbers");
    std::vector<double> v;
    v.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i)
      v.push_back(number(j[i], field + "[" + std::to_string(i) + "]"));
    return v;
  }

  const json& object(const json& j, const std::string& field) const {
    if (!j.is_object()) fail(field, std::string("is ") + type_name(j) + ", expected an object");
    return j;
  }

  const json& array(const json& j, const std::string& field) const {
    if (!j.is_array()) fail(field, std::string("is ") + type_name(j) + ", expected a list");
    return j;
  }

  std::string text(const json& j, const std::string& field) const {
    if (j.is_string()) return j.get<std::string>();
    if (j.is_number() || j.is_boolean()) return j.dump();
    fail(field, std::string("is ") + type_name(j) + ", expected a string");
  }

  // Named columns {name: [numbers]} with `size` entries each (0: any).
  std::vector<std::pair<std::string, std::vector<double>>> columns(const json& j, const std::string& field,
                                                                   std::size_t size,
                                                                   const std::string& size_of) const {
    object(j, field);
    std::vector<std::pair<std::string, std::vector<double>>> result;
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string f = field + "." + it.key();
      std::vector<double> v = numbers(it.value(), f);
      if (size > 0 && v.size() != size)
        fail(f, "has " + std::to_string(v.size()) + " values, but '" + size_of + "' has " +
                    std::to_string(size));
      result.emplace_back(it.key(), std::move(v));
    }
    return result;
  }

 private:
  std::string source_;
};

std::string seconds(double s) { return format_number(s, 4) + " s"; }

struct EventInfo {
  double time = kNaN;
  std::string kind;
  std::string label;  // for tooltips and the filmstrip
};

// "q = 1.2, v = -3" from {"q": 1.2, "v": -3}, or "regions 0 1" for switch events.
std::string state_text(const json& j) {
  if (!j.is_object()) return j.is_null() ? "" : j.dump();
  std::string s;
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string v;
    if (it.value().is_number())
      v = format_number(it.value().get<double>(), 6);
    else if (it.value().is_array()) {
      for (const auto& e : it.value())
        v += (v.empty() ? "" : " ") + (e.is_number() ? format_number(e.get<double>(), 6) : e.dump());
      v = "[" + v + "]";
    } else if (it.value().is_null())
      v = "nan";
    else
      v = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    s += (s.empty() ? "" : ", ") + it.key() + " = " + v;
  }
  return s;
}

std::string list_text(const json& j) {
  if (!j.is_array()) return j.is_number() ? format_number(j.get<double>(), 6) : j.dump();
  std::string s;
  for (const auto& e : j)
    s += (s.empty() ? "" : " ") + (e.is_number() ? format_number(e.get<double>(), 6) : e.dump());
  return s;
}

std::string stage_list(const std::vector<int>& stages) {
  std::string s;
  for (int k : stages) s += (s.empty() ? "" : ", ") + std::to_string(k);
  return s;
}

// "frozen_stages": a list of 0-based stage indices.
std::vector<int> read_frozen_stages(const Reader& rd, const json& j) {
  rd.array(j, "frozen_stages");
  std::vector<int> stages;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number_integer() || j[i].get<long long>() < 0)
      rd.fail("frozen_stages[" + std::to_string(i) + "]",
              std::string("is ") + (j[i].is_number() ? j[i].dump() : Reader::type_name(j[i])) +
                  ", expected a stage index >= 0");
    stages.push_back(j[i].get<int>());
  }
  return stages;
}

// The "validation" block of a time-frozen OCP result: its figures checked against the limits of
// report.hpp, and the deviation at every stage end as a plot (frozen stages hatched).
ValidationData read_validation(const Reader& rd, const json& v, const std::vector<int>& frozen) {
  rd.object(v, "validation");
  ValidationData d;
  using V = Check::Verdict;
  const auto fail = [&](const std::string& why) { d.failures.push_back(why); };
  const auto flag = [&](const std::string& key, const std::string& name) {
    const json* b = Reader::find(v, key);
    if (!b) return;
    if (!b->is_boolean())
      rd.fail("validation." + key, std::string("is ") + Reader::type_name(*b) + ", expected true or false");
    const bool yes = b->get<bool>();
    d.checks.push_back({name, yes ? "yes" : "no", "yes", yes ? V::Pass : V::Fail});
    if (!yes) fail(name + ": no");
  };
  const auto limited = [&](const std::string& key, const std::string& name, double limit,
                           const std::string& where) {
    const std::optional<double> x = rd.optional_number(v, key, "validation." + key);
    const json* present = v.is_object() && v.contains(key) ? &v.at(key) : nullptr;
    if (!x && !present) return;
    const double value = x.value_or(kNaN);  // null: not finite, or not computed
    const std::string lim = "≤ " + limit_text(limit);
    if (!std::isfinite(value)) {
      d.checks.push_back({name, "n/a", lim, V::NotAvailable});
      return;
    }
    std::string text = format_number(value, 3);
    if (!where.empty() && value > 0.0) text += " (" + where + ")";
    const bool ok = value <= limit;
    d.checks.push_back({name, text, lim, ok ? V::Pass : V::Fail});
    if (!ok) fail(name + " " + format_number(value, 3) + " > " + limit_text(limit));
  };
  const auto info = [&](const std::string& name, const std::string& value) {
    d.checks.push_back({name, value, "", V::Info});
  };

  flag("resimulated", "re-simulated to the end");
  flag("simulation_converged", "every integrator step converged");
  // Stages re-simulated in one step with the stage after them (ocp::Validation::
  // stages_joined_across_jumps; absent from older result files).
  // A list of 0-based stages in validation.KEY (empty when absent, as in older result files).
  const auto stages_of = [&](const std::string& key) {
    std::vector<int> stages;
    if (const json* list = Reader::find(v, key))
      for (double k : rd.numbers(*list, "validation." + key)) stages.push_back(static_cast<int>(k));
    return stages;
  };
  const std::vector<int> joined = stages_of("stages_joined_across_jumps");
  if (const json* steps = Reader::find(v, "steps")) {
    std::string text = format_number(rd.number(*steps, "validation.steps"), 12);
    if (const auto per = rd.optional_number(v, "steps_per_stage", "validation.steps_per_stage"))
      text += " (" + format_number(*per, 12) + " per control stage" +
              (joined.empty() ? std::string() : ", a stage joined with the next at a jump sharing them") + ")";
    info("integrator steps", text);
  }
  if (!joined.empty())
    info("stages joined with the next at a jump",
         stage_list(joined) + " (0-based): one integrator step with the stage after, compared where the jump is over");
  // Steps taken as converged above the integrator's tolerance (ocp::Validation::
  // stages_above_step_tolerance; absent from older result files).
  if (const std::vector<int> above = stages_of("stages_above_step_tolerance"); !above.empty())
    info("steps stopped above their complementarity tolerance",
         stage_list(above) + " (0-based): within the validation's step tolerance, taken as converged");
  // Stages reproduced only from the OCP's motion as the step's initial guess (ocp::Validation::
  // stages_from_ocp_guess; absent from older result files).
  if (const std::vector<int> guessed = stages_of("stages_from_ocp_guess"); !guessed.empty())
    info("stages reproduced from the OCP's motion as the guess",
         stage_list(guessed) + " (0-based): the integrator's own guesses found another solution or none");
  if (const auto h = rd.optional_number(v, "horizon", "validation.horizon"))
    info("physical time simulated", format_number(*h, 10));
  // Stages the integrator did not reproduce by itself (the OCP's motion solves their step too):
  // a failure of the verdict (ocp::Validation::stages_from_ocp).
  if (Reader::find(v, "stages_from_ocp") != nullptr) {
    const std::vector<int> stages = stages_of("stages_from_ocp");
    std::string text = stages.empty() ? "none" : stage_list(stages) + " (0-based): the OCP's motion solves the step";
    if (const auto x = rd.optional_number(v, "ocp_stage_violation", "validation.ocp_stage_violation");
        x && !stages.empty())
      text += " to " + format_number(*x, 3);
    d.checks.push_back({"stages not reproduced by the integrator", text, "none", stages.empty() ? V::Pass : V::Fail});
    if (!stages.empty()) fail("stages not reproduced by the integrator: " + stage_list(stages));
  }
  // Stages holding impacts or sliding in Painlevé configurations (ocp::Validation::stages_painleve):
  // where the rigid contact problem has no unique solution; an explanation, not part of the verdict.
  if (const std::vector<int> painleve = stages_of("stages_painleve"); !painleve.empty())
    info("stages with Painlevé impacts or sliding",
         stage_list(painleve) + " (0-based): the rigid contact problem has no unique solution there");
  // The problem's own limits (ocp.validation); results without them use the defaults.
  if (const json* t = Reader::find(v, "tolerances")) {
    rd.object(*t, "validation.tolerances");
    d.deviation_limit = rd.optional_number(*t, "deviation", "validation.tolerances.deviation").value_or(kDeviationLimit);
    d.gap_limit = rd.optional_number(*t, "gap", "validation.tolerances.gap").value_or(kViolationLimit);
    d.violation_limit =
        rd.optional_number(*t, "constraints", "validation.tolerances.constraints").value_or(kViolationLimit);
  }
  limited("final_state_deviation", "final state deviation", d.deviation_limit, "");
  limited("max_deviation_at_stage_ends", "max deviation at stage ends", d.deviation_limit, "");
  limited("max_gap_violation", "max gap violation", d.gap_limit, "");
  std::string where;
  if (const json* w = Reader::find(v, "path_violation_where"))
    where = rd.text(*w, "validation.path_violation_where");
  limited("max_path_violation", "max path violation", d.violation_limit, where);
  if (rd.optional_number(v, "points_between", "validation.points_between").value_or(0.0) > 0.0) {
    std::string between;
    if (const json* w = Reader::find(v, "path_violation_between_where"))
      between = rd.text(*w, "validation.path_violation_between_where");
    limited("max_path_violation_between_points", "max path violation between points", d.violation_limit, between);
  }
  if (const json* fs = Reader::find(v, "simulated_final_state")) {
    rd.object(*fs, "validation.simulated_final_state");
    if (!fs->empty()) info("re-simulated final state", state_text(*fs));
  }
  if (const auto w = rd.optional_number(v, "wall_time_s", "validation.wall_time_s"))
    info("wall time", seconds(*w));
  if (const json* m = Reader::find(v, "message")) d.message = rd.text(*m, "validation.message");
  d.passed = d.failures.empty();

  if (const json* sd = Reader::find(v, "stage_end_deviation")) {
    const std::vector<double> dev = rd.numbers(*sd, "validation.stage_end_deviation");
    if (!dev.empty()) {
      Plot p;
      p.title = "deviation at the end of each control stage";
      p.x_label = "control stage (0-based)";
      bool positive = false;
      for (double x : dev) positive = positive || (std::isfinite(x) && x > 0.0);
      p.log_y = positive;
      std::vector<double> k;
      for (std::size_t i = 0; i < dev.size(); ++i) k.push_back(static_cast<double>(i));
      p.series.push_back({"|x_sim − x_ocp|", k, dev, SeriesStyle::Line, true});
      p.series.push_back({"limit " + limit_text(d.deviation_limit),
                          {-0.5, static_cast<double>(dev.size()) - 0.5},
                          {d.deviation_limit, d.deviation_limit},
                          SeriesStyle::Line,
                          false,
                          true});
      p.x_extent = {-0.5, static_cast<double>(dev.size()) - 0.5};
      for (int f : frozen) p.shaded.emplace_back(f - 0.5, f + 0.5);
      p.shaded_label = "frozen stage";
      p.hatched = true;
      d.stage_plot = std::move(p);
    }
  }
  return d;
}

// Intervals of tau where the clock does not advance.
std::vector<std::pair<double, double>> frozen_intervals(const std::vector<double>& tau,
                                                        const std::vector<double>& clock) {
  std::vector<std::pair<double, double>> out;
  const std::size_t n = std::min(tau.size(), clock.size());
  if (n < 2) return out;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t k = 0; k < n; ++k)
    if (std::isfinite(clock[k])) {
      lo = std::min(lo, clock[k]);
      hi = std::max(hi, clock[k]);
    }
  if (!(lo <= hi)) return out;
  const double tol = 1e-7 * std::max(1.0, hi - lo);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (!std::isfinite(clock[k]) || !std::isfinite(clock[k + 1])) continue;
    if (std::fabs(clock[k + 1] - clock[k]) > tol || !(tau[k + 1] > tau[k])) continue;
    if (!out.empty() && out.back().second == tau[k])
      out.back().second = tau[k + 1];
    else
      out.emplace_back(tau[k], tau[k + 1]);
  }
  return out;
}

void read_draw(const Reader& rd, const json& j, std::size_t n_time, ReportData& data) {
  rd.object(j, "draw");
  DrawData d;
  const json* points = Reader::find(j, "points");
  if (!points) rd.fail("draw", "has no 'points'");
  rd.object(*points, "draw.points");
  std::vector<std::string> order;
  if (const json* o = Reader::find(j, "order")) {
    rd.array(*o, "draw.order");
    for (std::size_t i = 0; i < o->size(); ++i) order.push_back(rd.text((*o)[i], "draw.order"));
  } else {
    for (auto it = points->begin(); it != points->end(); ++it) order.push_back(it.key());
  }
  for (const auto& name : order) {
    const std::string field = "draw.points." + name;
    const json* p = Reader::find(*points, name);
    if (!p) rd.fail("draw.order", "names the point '" + name + "', which draw.points does not have");
    rd.object(*p, field);
    const json* x = Reader::find(*p, "x");
    const json* z = Reader::find(*p, "z");
    if (!x || !z) rd.fail(field, "needs 'x' and 'z' lists");
    std::vector<double> xs = rd.numbers(*x, field + ".x"), zs = rd.numbers(*z, field + ".z");
    if (xs.size() != n_time || zs.size() != n_time)
      rd.fail(field, "has " + std::to_string(xs.size()) + " x and " + std::to_string(zs.size()) +
                         " z values, but 'time' has " + std::to_string(n_time));
    d.names.push_back(name);
    d.x.push_back(std::move(xs));
    d.z.push_back(std::move(zs));
    const std::optional<double> r = rd.optional_number(*p, "radius", field + ".radius");
    d.radius.push_back(r && std::isfinite(*r) && *r > 0.0 ? *r : 0.0);
  }
  const auto index = [&](const json& name, const std::string& field) {
    const std::string s = rd.text(name, field);
    const auto it = std::find(d.names.begin(), d.names.end(), s);
    if (it == d.names.end()) rd.fail(field, "names the point '" + s + "', which draw.points does not have");
    return static_cast<std::size_t>(it - d.names.begin());
  };
  if (const json* links = Reader::find(j, "links")) {
    rd.array(*links, "draw.links");
    for (std::size_t i = 0; i < links->size(); ++i) {
      const std::string field = "draw.links[" + std::to_string(i) + "]";
      const json& l = (*links)[i];
      if (!l.is_array() || l.size() != 2) rd.fail(field, "must be a pair of point names");
      d.links.emplace_back(index(l[0], field), index(l[1], field));
    }
  }
  const auto pair = [&](const json& obj, const std::string& key, const std::string& field) {
    const json* p = Reader::find(obj, key);
    if (!p) rd.fail(field, "has no '" + key + "'");
    const std::vector<double> v = rd.numbers(*p, field + "." + key);
    if (v.size() != 2) rd.fail(field + "." + key, "must be a pair [x, z]");
    return std::array<double, 2>{v[0], v[1]};
  };
  if (const json* ground = Reader::find(j, "ground")) {
    const json list = ground->is_array() ? *ground : json::array({*ground});
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = "draw.ground[" + std::to_string(i) + "]";
      const json& g = list[i];
      if (g.is_number()) {
        d.ground_heights.push_back(g.get<double>());
      } else if (const json* h = Reader::find(g, "z")) {
        d.ground_heights.push_back(rd.number(*h, field + ".z"));
      } else {
        rd.object(g, field);
        const auto a = pair(g, "from", field), b = pair(g, "to", field);
        d.ground_segments.push_back({a[0], a[1], b[0], b[1]});
      }
    }
  }
  if (const json* obstacles = Reader::find(j, "obstacles")) {
    rd.array(*obstacles, "draw.obstacles");
    for (std::size_t i = 0; i < obstacles->size(); ++i) {
      const std::string field = "draw.obstacles[" + std::to_string(i) + "]";
      const json& o = (*obstacles)[i];
      if (const json* e = Reader::find(o, "ellipse")) {
        const auto c = pair(*e, "center", field + ".ellipse"), a = pair(*e, "axes", field + ".ellipse");
        d.ellipses.push_back({c[0], c[1], a[0], a[1]});
      } else if (const json* l = Reader::find(o, "line")) {
        const auto a = pair(*l, "from", field + ".line"), b = pair(*l, "to", field + ".line");
        d.lines.push_back({a[0], a[1], b[0], b[1]});
      } else {
        rd.fail(field, "must be {ellipse: ...} or {line: ...}");
      }
    }
  }
  data.draw = std::move(d);
}

// The picture's extent with equal scales, at most 720 x 360 pixels, at least 260 x 170.
View make_view(const DrawData& d) {
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, zlo = xlo, zhi = -xlo;
  const auto add = [&](double x, double z) {
    if (std::isfinite(x)) {
      xlo = std::min(xlo, x);
      xhi = std::max(xhi, x);
    }
    if (std::isfinite(z)) {
      zlo = std::min(zlo, z);
      zhi = std::max(zhi, z);
    }
  };
  for (std::size_t i = 0; i < d.names.size(); ++i)
    for (std::size_t k = 0; k < d.x[i].size(); ++k) {
      add(d.x[i][k] - d.radius[i], d.z[i][k] - d.radius[i]);
      add(d.x[i][k] + d.radius[i], d.z[i][k] + d.radius[i]);
    }
  for (const auto& s : d.ground_segments) {
    add(s[0], s[1]);
    add(s[2], s[3]);
  }
  for (const auto& e : d.ellipses) {
    add(e[0] - e[2], e[1] - e[3]);
    add(e[0] + e[2], e[1] + e[3]);
  }
  for (const auto& l : d.lines) {
    add(l[0], l[1]);
    add(l[2], l[3]);
  }
  for (double h : d.ground_heights) add(kNaN, h);
  if (!(xlo <= xhi)) xlo = xhi = 0.0;
  if (!(zlo <= zhi)) zlo = zhi = 0.0;
  double span = std::max({xhi - xlo, zhi - zlo, 1e-9});
  if (span <= 1e-9) span = 1.0;
  const double margin = 0.06 * span;
  xlo -= margin;
  xhi += margin;
  zlo -= margin;
  zhi += margin;
  constexpr double kMaxW = 720, kMaxH = 360, kMinW = 260, kMinH = 170;
  const double scale = std::min(kMaxW / (xhi - xlo), kMaxH / (zhi - zlo));
  View v;
  v.scale = scale;
  double w = (xhi - xlo) * scale, h = (zhi - zlo) * scale;
  if (w < kMinW) {
    const double extra = (kMinW - w) / scale;
    xlo -= extra / 2;
    w = kMinW;
  }
  if (h < kMinH) {
    const double extra = (kMinH - h) / scale;
    zlo -= extra * 0.3;  // more room above than below (the ground is usually below)
    h = kMinH;
  }
  v.x0 = xlo;
  v.z0 = zlo;
  v.width = std::round(w);
  v.height = std::round(h);
  return v;
}

// Key frames: start, end and the events, at most 8 of them: the impacts first (the jumps are what
// a reader looks for), then the other events (lift-offs, touchdowns, switches) evenly chosen in
// the places left; 10 at most in all.
std::vector<KeyFrame> key_frames(const std::vector<double>& time, const std::vector<EventInfo>& events) {
  std::vector<KeyFrame> frames;
  const std::size_t n = time.size();
  if (n == 0) return frames;
  std::vector<const EventInfo*> chosen, impacts, others;
  for (const auto& e : events)
    if (std::isfinite(e.time)) (e.kind == "impact" ? impacts : others).push_back(&e);
  constexpr std::size_t kMaxEvents = 8;
  // `count` of `from`, evenly spread (first and last included).
  auto pick = [&chosen](const std::vector<const EventInfo*>& from, std::size_t count) {
    if (from.size() <= count) {
      chosen.insert(chosen.end(), from.begin(), from.end());
      return;
    }
    for (std::size_t i = 0; i < count; ++i)
      chosen.push_back(from[count == 1 ? 0 : i * (from.size() - 1) / (count - 1)]);
  };
  pick(impacts, kMaxEvents);
  pick(others, kMaxEvents - chosen.size());
  frames.push_back({0, time[0], "start"});
  for (const EventInfo* e : chosen) {
    const double tol = 1e-9 * (1.0 + std::fabs(e->time));
    std::size_t k = 0;
    while (k < n && !(time[k] >= e->time - tol)) ++k;
    if (k >= n) k = n - 1;
    frames.push_back({k, time[k], e->label});
  }
  frames.push_back({n - 1, time[n - 1], "end"});
  std::stable_sort(frames.begin(), frames.end(),
                   [](const KeyFrame& a, const KeyFrame& b) { return a.index < b.index; });
  // One frame per index (the first label wins, except that an event beats start/end).
  std::vector<KeyFrame> unique;
  for (const auto& f : frames) {
    if (!unique.empty() && unique.back().index == f.index) {
      if (unique.back().label == "start" || unique.back().label == "end") unique.back().label = f.label;
      continue;
    }
    unique.push_back(f);
  }
  return unique;
}

// One row per entry of result.json's list `key` in `solver`: cells from `row` (entry, its field path).
template <class Row>
void entries(const Reader& rd, const json& solver, const char* key, Table& t, Row&& row) {
  const json* v = Reader::find(solver, key);
  if (!v) return;
  const std::string field = std::string("solver.") + key;
  rd.array(*v, field);
  for (std::size_t i = 0; i < v->size(); ++i) {
    const std::string f = field + "[" + std::to_string(i) + "]";
    t.rows.push_back(row(rd.object((*v)[i], f), f));
  }
}

// Why a run did not converge (solver.largest_violations, solver.largest_pairs of result.json).
void not_converged_table(const Reader& rd, const json& solver, Table& t) {
  t.header = {"", "where", "what", "value"};
  const auto text = [&](const json& e, const std::string& f, const char* key) {
    const json* x = Reader::find(e, key);
    return x ? rd.text(*x, f + "." + key) : std::string();
  };
  // result.json writes a non-finite number as null (an infinite bound): `missing` stands for it.
  const auto num = [&](const json& e, const std::string& f, const char* key, const char* missing = "?") {
    const auto x = rd.optional_number(e, key, f + "." + key);
    if (!x) return std::string(missing);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", *x);
    return std::string(buf);
  };
  entries(rd, solver, "largest_violations", t, [&](const json& e, const std::string& f) {
    return std::vector<std::string>{"violated by " + num(e, f, "violation"), text(e, f, "block"),
                                    text(e, f, "constraint"),
                                    num(e, f, "value") + " (bounds [" + num(e, f, "lower", "-inf") + ", " +
                                        num(e, f, "upper", "inf") + "])"};
  });
  entries(rd, solver, "largest_pairs", t, [&](const json& e, const std::string& f) {
    return std::vector<std::string>{"product " + num(e, f, "product"), text(e, f, "block"), text(e, f, "pair"),
                                    "G " + num(e, f, "G") + " · H " + num(e, f, "H")};
  });
}

}  // namespace

ReportData report_data(const std::string& text, const std::string& source, const std::string& title) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(source + ": not valid JSON: " + e.what());
  }
  if (!j.is_object())
    throw Error(source + ": expected a JSON object (a stasis result), found " + Reader::type_name(j));
  try {
    const Reader rd(source);
    ReportData data;
    data.title = title;
    const json* solver = Reader::find(j, "solver");
    if (solver) rd.object(*solver, "solver");
    const json* numerical = Reader::find(j, "numerical");
    if (numerical) rd.object(*numerical, "numerical");
    if (solver) not_converged_table(rd, *solver, data.not_converged);
    const bool has_time = Reader::find(j, "time") != nullptr;
    if (Reader::find(j, "variables") && !has_time)
      data.kind = "mpcc";
    else if (Reader::find(j, "control_time") || Reader::find(j, "controls"))
      data.kind = "ocp";
    else if (numerical)
      data.kind = "time-frozen simulation";
    else if (has_time)
      data.kind = "simulation";
    else
      data.kind = "result";

    // ---- summary ----
    auto& sum = data.summary;
    sum.emplace_back("kind", data.kind);
    if (const json* s = Reader::find(j, "status")) sum.emplace_back("status", rd.text(*s, "status"));
    if (const json* s = Reader::find(j, "message")) sum.emplace_back("message", rd.text(*s, "message"));
    if (const auto v = rd.optional_number(j, "objective", "objective"))
      sum.emplace_back("objective", format_number(*v, 10));
    if (const auto v = rd.optional_number(j, "final_time", "final_time"))
      sum.emplace_back("final time", format_number(*v, 10));
    if (const auto v = rd.optional_number(j, "complementarity_residual", "complementarity_residual"))
      sum.emplace_back("complementarity residual", format_number(*v, 3));
    if (solver) {
      if (const auto v = rd.optional_number(*solver, "nlp_iterations", "solver.nlp_iterations"))
        sum.emplace_back("NLP iterations", format_number(*v, 12));
      if (const auto v = rd.optional_number(*solver, "nlp_solves", "solver.nlp_solves"))
        sum.emplace_back("NLP solves", format_number(*v, 12));
      if (const json* steps = Reader::find(*solver, "steps")) {
        rd.array(*steps, "solver.steps");
        std::size_t converged = 0;
        for (const auto& s : *steps)
          if (const json* c = Reader::find(s, "converged"); c && c->is_boolean() && c->get<bool>())
            ++converged;
        sum.emplace_back("integrator steps",
                         std::to_string(steps->size()) + " (" + std::to_string(converged) + " converged)");
      }
      if (const auto v = rd.optional_number(*solver, "wall_time_s", "solver.wall_time_s"))
        sum.emplace_back("wall time", seconds(*v));
      if (const auto v = rd.optional_number(*solver, "construction_time_s", "solver.construction_time_s"))
        sum.emplace_back("construction time", seconds(*v));
      if (const auto v = rd.optional_number(*solver, "evaluation_time_s", "solver.evaluation_time_s"))
        sum.emplace_back("evaluation time", seconds(*v));
      if (const auto v = rd.optional_number(*solver, "initial_residual", "solver.initial_residual"))
        sum.emplace_back("initial residual", format_number(*v, 3));
    }

    // ---- physical time series ----
    std::vector<double> time;
    if (const json* t = Reader::find(j, "time")) time = rd.numbers(*t, "time");
    data.time = time;
    if (!time.empty())
      sum.emplace_back("time points", std::to_string(time.size()) + ", t from " +
                                          format_number(time.front(), 6) + " to " +
                                          format_number(time.back(), 6));

    // ---- events ----
    std::vector<EventInfo> events;
    std::vector<std::string> contact_names;
    struct Impulse {
      double time;
      int contact;
      double value;
    };
    std::vector<Impulse> impulses;
    if (const json* ev = Reader::find(j, "events")) {
      rd.array(*ev, "events");
      data.events.header = {"time", "kind", "contact", "impulse", "before", "after", "details"};
      std::map<std::string, int> count;
      for (std::size_t i = 0; i < ev->size(); ++i) {
        const std::string field = "events[" + std::to_string(i) + "]";
        const json& e = rd.object((*ev)[i], field);
        EventInfo info;
        if (const json* t = Reader::find(e, "time")) info.time = rd.number(*t, field + ".time");
        info.kind = Reader::find(e, "kind") ? rd.text(e["kind"], field + ".kind") : "event";
        ++count[info.kind];
        std::vector<int> contacts;
        if (const json* c = Reader::find(e, "contact"); c && c->is_number_integer())
          contacts.push_back(c->get<int>());
        if (const json* c = Reader::find(e, "contacts"); c && c->is_array())
          for (const auto& x : *c)
            if (x.is_number_integer()) contacts.push_back(x.get<int>());
        std::string contact;
        if (const json* n = Reader::find(e, "contact_name"); n && n->is_string()) {
          contact = n->get<std::string>();
          if (contacts.size() == 1 && contacts[0] >= 0) {
            const auto c = static_cast<std::size_t>(contacts[0]);
            if (contact_names.size() <= c) contact_names.resize(c + 1);
            contact_names[c] = contact;
          }
        } else {
          for (int c : contacts) contact += (contact.empty() ? "" : " ") + std::to_string(c);
        }
        std::string impulse;
        if (const json* imp = Reader::find(e, "impulse")) {
          impulse = list_text(*imp);
          std::vector<double> values;
          if (imp->is_array())
            values = rd.numbers(*imp, field + ".impulse");
          else
            values.push_back(rd.number(*imp, field + ".impulse"));
          for (std::size_t c = 0; c < values.size(); ++c)
            impulses.push_back(
                {info.time, c < contacts.size() ? contacts[c] : static_cast<int>(c), values[c]});
        }
        std::string details;
        if (const json* s = Reader::find(e, "switching")) details += "switching " + list_text(*s);
        if (const json* s = Reader::find(e, "state"))
          details += (details.empty() ? "" : "; ") + state_text(*s);
        if (const json* f = Reader::find(e, "frozen_duration"))
          details += (details.empty() ? "" : "; ") + std::string("frozen for τ = ") +
                     format_number(rd.number(*f, field + ".frozen_duration"), 4);
        const json* before = Reader::find(e, "before");
        const json* after = Reader::find(e, "after");
        data.events.rows.push_back({format_number(info.time, 10), info.kind, contact, impulse,
                                    before ? state_text(*before) : "", after ? state_text(*after) : "",
                                    details});
        info.label = info.kind + (contact.empty() ? "" : " (" + contact + ")");
        events.push_back(info);
      }
      // Leave out the columns that are empty in every row (e.g. contact and impulse of switch events).
      for (std::size_t c = data.events.header.size(); c-- > 0;) {
        bool empty = true;
        for (const auto& row : data.events.rows) empty = empty && row[c].empty();
        if (!empty || data.events.rows.empty()) continue;
        data.events.header.erase(data.events.header.begin() + static_cast<long>(c));
        for (auto& row : data.events.rows) row.erase(row.begin() + static_cast<long>(c));
      }
      std::string counts;
      for (const auto& [k, c] : count) counts += (counts.empty() ? "" : ", ") + std::to_string(c) + " " + k;
      sum.emplace_back("events", counts.empty() ? "none" : counts);
    }
    std::vector<EventMark> marks;
    for (const auto& e : events)
      marks.push_back({e.time, e.kind, e.label + " at t = " + format_number(e.time, 10)});

    if (const json* w = Reader::find(j, "warnings")) {
      rd.array(*w, "warnings");
      for (std::size_t i = 0; i < w->size(); ++i) data.warnings.push_back(rd.text((*w)[i], "warnings"));
      sum.emplace_back("warnings", std::to_string(data.warnings.size()));
    }

    // ---- time-frozen OCP: frozen stages and the re-simulation check ----
    if (const json* fs = Reader::find(j, "frozen_stages")) {
      data.frozen_stages = read_frozen_stages(rd, *fs);
      const auto& f = *data.frozen_stages;
      sum.emplace_back("frozen stages",
                       f.empty() ? "none"
                                 : stage_list(f) + " (0-based): the clock stands still there, so their "
                                                   "controls act on no physical time and have no physical "
                                                   "meaning");
    }
    if (const json* v = Reader::find(j, "validation")) {
      data.validation = read_validation(rd, *v, data.frozen_stages.value_or(std::vector<int>{}));
      std::string text = data.validation->passed ? "passed" : "failed: ";
      for (std::size_t i = 0; i < data.validation->failures.size(); ++i)
        text += (i ? "; " : "") + data.validation->failures[i];
      sum.emplace_back("validation", text);
    }

    const std::string phys_label = numerical ? "physical time t" : "time t";
    if (const json* st = Reader::find(j, "states"); st && !time.empty()) {
      PlotGroup g{"physical", numerical ? "States against physical time" : "States", "", {}};
      bool jumps = false;
      for (std::size_t k = 0; k + 1 < time.size(); ++k) jumps = jumps || time[k] == time[k + 1];
      if (jumps)
        g.note =
            "Dashed vertical segments are jumps (two values at one time); dashed lines across a plot mark "
            "events.";
      else if (!marks.empty())
        g.note = "Dashed lines across a plot mark events.";
      for (auto& [name, values] : rd.columns(*st, "states", time.size(), "time")) {
        Plot p;
        p.title = name;
        p.x_label = phys_label;
        p.series.push_back({name, time, values, SeriesStyle::Line, false});
        p.events = marks;
        g.plots.push_back(std::move(p));
      }
      if (!g.plots.empty()) data.groups.push_back(std::move(g));
    }

    // ---- numerical time ----
    if (numerical) {
      const json* tau_j = Reader::find(*numerical, "time");
      if (tau_j) {
        const std::vector<double> tau = rd.numbers(*tau_j, "numerical.time");
        std::vector<double> clock;
        if (const json* c = Reader::find(*numerical, "clock")) {
          clock = rd.numbers(*c, "numerical.clock");
          if (clock.size() != tau.size())
            rd.fail("numerical.clock", "has " + std::to_string(clock.size()) +
                                           " values, but 'numerical.time' has " + std::to_string(tau.size()));
        }
        const auto frozen = frozen_intervals(tau, clock);
        PlotGroup g{"numerical", "Against numerical time τ", "", {}};
        g.note =
            "Shaded: frozen phases, where the clock (physical time) stands still and the auxiliary dynamics "
            "carry out the jump (" +
            std::to_string(frozen.size()) + " phase" + (frozen.size() == 1 ? "" : "s") + ").";
        if (!clock.empty()) {
          Plot p;
          p.title = "clock t(τ)";
          p.x_label = "numerical time τ";
          p.series.push_back({"t", tau, clock, SeriesStyle::Line, false});
          p.shaded = frozen;
          g.plots.push_back(std::move(p));
        }
        if (const json* st = Reader::find(*numerical, "states"))
          for (auto& [name, values] : rd.columns(*st, "numerical.states", tau.size(), "numerical.time")) {
            Plot p;
            p.title = name + " (numerical time)";
            p.x_label = "numerical time τ";
            p.series.push_back({name, tau, values, SeriesStyle::Line, false});
            p.shaded = frozen;
            g.plots.push_back(std::move(p));
          }
        if (!g.plots.empty()) data.groups.push_back(std::move(g));
      }
    }

    // ---- controls ----
    if (const json* ct = Reader::find(j, "control_time"); ct && Reader::find(j, "controls")) {
      std::vector<double> tc = rd.numbers(*ct, "control_time");
      double end = kNaN;
      if (const auto v = rd.optional_number(j, "final_time", "final_time")) end = *v;
      if (!std::isfinite(end) && !time.empty()) end = time.back();
      std::vector<double> x = tc;
      if (std::isfinite(end) && (x.empty() || end > x.back())) x.push_back(end);
      PlotGroup g{"controls", "Controls", "Piecewise constant on each control stage.", {}};
      // Frozen stages (time-frozen OCPs) last no physical time: left out of the plots against
      // physical time (marked there by a line at their clock value) and hatched in a plot per stage.
      std::vector<int> frozen;
      for (int k : data.frozen_stages.value_or(std::vector<int>{}))
        if (k >= 0 && static_cast<std::size_t>(k) < tc.size()) frozen.push_back(k);
      std::vector<EventMark> control_marks = marks;
      for (int k : frozen)
        control_marks.push_back({tc[static_cast<std::size_t>(k)], "frozen-stage",
                                 "frozen stage " + std::to_string(k) + " at t = " +
                                     format_number(tc[static_cast<std::size_t>(k)], 10)});
      Plot per_stage;
      per_stage.title = "controls per stage (frozen stages hatched)";
      per_stage.x_label = "control stage (0-based)";
      for (int k : frozen) per_stage.shaded.emplace_back(k, k + 1);
      per_stage.shaded_label = "frozen stage";
      per_stage.hatched = true;
      std::vector<double> stage_x;
      for (std::size_t k = 0; k <= tc.size(); ++k) stage_x.push_back(static_cast<double>(k));
      for (auto& [name, values] : rd.columns(j["controls"], "controls", tc.size(), "control_time")) {
        per_stage.series.push_back({name, stage_x, values, SeriesStyle::Step, false});
        for (int k : frozen) values[static_cast<std::size_t>(k)] = kNaN;
        Plot p;
        p.title = name;
        p.x_label = phys_label;
        p.series.push_back({name, x, values, SeriesStyle::Step, false});
        p.events = control_marks;
        g.plots.push_back(std::move(p));
      }
      if (!frozen.empty() && !g.plots.empty()) {
        g.note += " Stage" + std::string(frozen.size() == 1 ? " " : "s ") + stage_list(frozen) +
                  " (0-based) " + (frozen.size() == 1 ? "is" : "are") +
                  " frozen: the clock stands still there, so " + (frozen.size() == 1 ? "its" : "their") +
                  " controls act on no physical time and have no physical meaning. They are left out of the "
                  "plots against physical time (a line marks where) and hatched in the plot per stage.";
        g.plots.push_back(std::move(per_stage));
      }
      if (!g.plots.empty()) data.groups.push_back(std::move(g));
    }

    // ---- contact forces and impulses ----
    {
      PlotGroup g{"contact", "Contact forces and impulses", "", {}};
      const auto contact_label = [&](std::size_t c) {
        return c < contact_names.size() && !contact_names[c].empty() ? contact_names[c]
                                                                     : "contact " + std::to_string(c);
      };
      if (const json* cf = Reader::find(j, "contact_forces")) {
        rd.object(*cf, "contact_forces");
        const json* t = Reader::find(*cf, "time");
        const json* normal = Reader::find(*cf, "normal");
        if (t && normal) {
          const std::vector<double> ft = rd.numbers(*t, "contact_forces.time");
          rd.array(*normal, "contact_forces.normal");
          if (normal->size() != ft.size())
            rd.fail("contact_forces.normal", "has " + std::to_string(normal->size()) +
                                                 " rows, but 'contact_forces.time' has " +
                                                 std::to_string(ft.size()));
          std::size_t n_contacts = 0;
          std::vector<std::vector<double>> rows;
          for (std::size_t k = 0; k < normal->size(); ++k) {
            const json& row = (*normal)[k];
            rows.push_back(row.is_array()
                               ? rd.numbers(row, "contact_forces.normal[" + std::to_string(k) + "]")
                               : std::vector<double>{rd.number(row, "contact_forces.normal")});
            n_contacts = std::max(n_contacts, rows.back().size());
          }
          Plot p;
          p.title = "normal contact force λn";
          p.x_label = phys_label;
          for (std::size_t c = 0; c < n_contacts; ++c) {
            std::vector<double> v;
            for (const auto& r : rows) v.push_back(c < r.size() ? r[c] : kNaN);
            p.series.push_back({contact_label(c), ft, v, SeriesStyle::Line, false});
          }
          p.events = marks;
          if (n_contacts > 0) g.plots.push_back(std::move(p));
        }
      }
      if (!impulses.empty()) {
        Plot p;
        p.title = "normal impulses at impacts";
        p.x_label = phys_label;
        std::map<int, Series> by_contact;
        for (const auto& imp : impulses) {
          Series& s = by_contact[imp.contact];
          s.label = contact_label(static_cast<std::size_t>(std::max(imp.contact, 0)));
          s.style = SeriesStyle::Stem;
          s.x.push_back(imp.time);
          s.y.push_back(imp.value);
        }
        for (auto& [c, s] : by_contact) p.series.push_back(std::move(s));
        if (!time.empty()) p.x_extent = {time.front(), time.back()};  // the plot spans the whole run
        g.plots.push_back(std::move(p));
      }
      if (!g.plots.empty()) data.groups.push_back(std::move(g));
    }

    // ---- speed of time ----
    {
      std::vector<double> sot, step_end;
      bool have_ends = true;
      if (numerical)
        if (const json* s = Reader::find(*numerical, "speed_of_time"))
          sot = rd.numbers(*s, "numerical.speed_of_time");
      if (solver)
        if (const json* steps = Reader::find(*solver, "steps")) {
          rd.array(*steps, "solver.steps");
          const bool from_steps = sot.empty();
          for (std::size_t k = 0; k < steps->size(); ++k) {
            const json& s = (*steps)[k];
            const std::string field = "solver.steps[" + std::to_string(k) + "]";
            if (from_steps)
              if (const auto v = rd.optional_number(s, "speed_of_time", field + ".speed_of_time"))
                sot.push_back(*v);
            const auto t = rd.optional_number(s, "time", field + ".time");
            if (t)
              step_end.push_back(*t);
            else
              have_ends = false;
          }
        }
      if (!sot.empty()) {
        std::vector<double> x;
        std::string label = phys_label;
        if (have_ends && step_end.size() == sot.size()) {
          x.push_back(time.empty() ? 0.0 : time.front());
          x.insert(x.end(), step_end.begin(), step_end.end());
        } else {
          for (std::size_t k = 0; k <= sot.size(); ++k) x.push_back(static_cast<double>(k));
          label = "integrator step";
        }
        PlotGroup g{
            "speed_of_time",
            "Speed of time",
            "s per integrator step: numerical time runs s times faster than the clock would in free flight; "
            "steps holding a jump need s > 1.",
            {}};
        Plot p;
        p.title = "speed of time s";
        p.x_label = label;
        p.series.push_back({"s", x, sot, SeriesStyle::Step, false});
        if (label == phys_label) p.events = marks;
        g.plots.push_back(std::move(p));
        data.groups.push_back(std::move(g));
      }
    }

    // ---- homotopy ----
    if (solver) {
      PlotGroup g{"homotopy", "Homotopy", "", {}};
      const auto records = [&](const json& list, const std::string& field, std::vector<double>& sigma,
                               std::vector<double>& residual, std::vector<double>& iterations) {
        rd.array(list, field);
        for (std::size_t k = 0; k < list.size(); ++k) {
          const std::string f = field + "[" + std::to_string(k) + "]";
          const json& r = rd.object(list[k], f);
          sigma.push_back(rd.optional_number(r, "sigma", f + ".sigma").value_or(kNaN));
          residual.push_back(rd.optional_number(r, "residual", f + ".residual").value_or(kNaN));
          iterations.push_back(rd.optional_number(r, "iterations", f + ".iterations").value_or(kNaN));
        }
      };
      std::vector<double> sigma, residual, iterations;
      if (const json* h = Reader::find(*solver, "homotopy")) {
        records(*h, "solver.homotopy", sigma, residual, iterations);
        g.note = "σ (relaxation) and the complementarity residual after each homotopy step.";
      } else if (const json* steps = Reader::find(*solver, "steps")) {
        std::vector<double> last_residual, ends, step_iterations;
        for (std::size_t k = 0; k < steps->size(); ++k) {
          const json& s = (*steps)[k];
          const std::string field = "solver.steps[" + std::to_string(k) + "]";
          if (const json* h = Reader::find(s, "homotopy"))
            records(*h, field + ".homotopy", sigma, residual, iterations);
          ends.push_back(rd.optional_number(s, "time", field + ".time").value_or(static_cast<double>(k + 1)));
          last_residual.push_back(rd.optional_number(s, "residual", field + ".residual").value_or(kNaN));
          step_iterations.push_back(
              rd.optional_number(s, "iterations", field + ".iterations").value_or(kNaN));
        }
        g.note =
            "σ and the complementarity residual after each homotopy step, all integrator steps one after "
            "the other; then the final residual and the IPOPT iterations of each integrator step.";
        if (!ends.empty()) {
          Plot r;
          r.title = "final residual per integrator step";
          r.x_label = phys_label + " (end of step)";
          r.log_y = true;
          r.series.push_back({"residual", ends, last_residual, SeriesStyle::Line, true});
          Plot it;
          it.title = "IPOPT iterations per integrator step";
          it.x_label = phys_label + " (end of step)";
          it.series.push_back({"iterations", ends, step_iterations, SeriesStyle::Line, true});
          it.events = marks;
          g.plots.push_back(std::move(r));
          g.plots.push_back(std::move(it));
        }
      }
      if (!sigma.empty()) {
        std::vector<double> x;
        for (std::size_t k = 0; k < sigma.size(); ++k) x.push_back(static_cast<double>(k + 1));
        Plot p;
        p.title = "homotopy: σ and complementarity residual";
        p.x_label = "homotopy step";
        p.log_y = true;
        const bool few = sigma.size() <= 60;
        p.series.push_back({"σ", x, sigma, SeriesStyle::Line, few, true});
        p.series.push_back({"residual", x, residual, SeriesStyle::Line, few});
        g.plots.insert(g.plots.begin(), std::move(p));
        if (Reader::find(*solver, "homotopy")) {
          Plot it;
          it.title = "IPOPT iterations per homotopy step";
          it.x_label = "homotopy step";
          it.series.push_back({"iterations", x, iterations, SeriesStyle::Line, few});
          g.plots.push_back(std::move(it));
        }
      }
      if (!g.plots.empty()) data.groups.push_back(std::move(g));
    }

    // ---- mpcc variables ----
    if (const json* vars = Reader::find(j, "variables")) {
      rd.object(*vars, "variables");
      data.variables.header = {"variable", "value"};
      for (auto it = vars->begin(); it != vars->end(); ++it)
        data.variables.rows.push_back(
            {it.key(), it.value().is_array()
                           ? list_text(it.value())
                           : format_number(rd.number(it.value(), "variables." + it.key()), 10)});
    }

    // ---- drawing ----
    if (const json* d = Reader::find(j, "draw"); d && !time.empty()) {
      read_draw(rd, *d, time.size(), data);
      data.view = make_view(*data.draw);
      data.key_frames = key_frames(time, events);
    }
    return data;
  } catch (const json::exception& e) {
    throw Error(source + ": unexpected content: " + e.what());
  }
}

std::string write_report(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error(dir + ": " + (fs::exists(dir, ec) ? "not a directory" : "no such directory") +
                ", expected a result directory written by stasis simulate, solve or mpcc (--out DIR)");
  const fs::path in = fs::path(dir) / "result.json";
  if (!fs::exists(in, ec))
    throw Error(in.string() +
                ": not found, expected the result.json that stasis simulate, solve or mpcc writes");
  std::ifstream file(in, std::ios::binary);
  if (!file) throw Error(in.string() + ": cannot read");
  std::ostringstream text;
  text << file.rdbuf();
  if (!file && !file.eof()) throw Error(in.string() + ": cannot read");
  std::string title = fs::path(dir).lexically_normal().filename().string();
  if (title.empty() || title == ".")
    title = fs::absolute(fs::path(dir), ec).lexically_normal().parent_path().filename().string();
  const ReportData data = report_data(text.str(), in.string(), title);
  const fs::path out = fs::path(dir) / "report.html";
  std::ofstream o(out, std::ios::binary | std::ios::trunc);
  if (!o) throw Error(out.string() + ": cannot write the report");
  o << report_html(data);
  o.close();
  if (!o) throw Error(out.string() + ": cannot write the report");
  return out.string();
}

}  // namespace stasis::report
