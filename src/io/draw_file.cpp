// The `draw:` section of simulate / ocp problem files and the "draw" block of result.json.
#include "draw_file.hpp"

#include <algorithm>
#include <cmath>

#include "file_schema.hpp"
#include "stasis/error.hpp"
#include "stasis/sym/function.hpp"

namespace stasis::io {

namespace {

using detail::find_entry;
using detail::MapEntry;
using detail::YamlDocument;

const std::vector<std::string> kDrawKeys = {"points", "links", "ground", "obstacles"};

std::string names_text(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// [a, b] of two constants.
void constant_pair(const YamlDocument& doc, const YAML::Node& node, const SourceLocation& at,
                   const Scope& scope, const std::string& what, double out[2]) {
  if (!node || !node.IsSequence() || node.size() != 2)
    doc.fail(node ? doc.where(node) : at, what + " must be a list [x, z] of two numbers");
  for (std::size_t i = 0; i < 2; ++i) {
    const YAML::Node item = node[i];
    out[i] = doc.constant(item, doc.where(item), scope, (i == 0 ? "x of " : "z of ") + what);
    if (!std::isfinite(out[i]))
      doc.fail(doc.where(item), (i == 0 ? "x of " : "z of ") + what + " is not finite, expected a number");
  }
}

// {from: [x, z], to: [x, z]}
void read_segment(const YamlDocument& doc, const MapEntry& e, const Scope& scope, const std::string& what,
                  double from[2], double to[2]) {
  const std::vector<MapEntry> fields = doc.entries(e.value, what);
  doc.check_keys(fields, {"from", "to"}, what);
  const MapEntry* f = find_entry(fields, "from");
  const MapEntry* t = find_entry(fields, "to");
  if (!f || !t) doc.fail(e.value_where, what + " needs 'from: [x, z]' and 'to: [x, z]'");
  constant_pair(doc, f->value, f->value_where, scope, "'from' of " + what, from);
  constant_pair(doc, t->value, t->value_where, scope, "'to' of " + what, to);
}

DrawPoint read_point(const YamlDocument& doc, const MapEntry& e, const Scope& scope) {
  DrawPoint p;
  p.name = e.key;
  p.where = e.key_where;
  const std::string what = "draw point '" + e.key + "'";
  YAML::Node at = e.value;
  SourceLocation at_where = e.value_where;
  if (e.value && e.value.IsMap()) {
    const std::vector<MapEntry> fields = doc.entries(e.value, what);
    doc.check_keys(fields, {"at", "radius"}, what);
    const MapEntry* a = find_entry(fields, "at");
    if (!a) doc.fail(e.value_where, what + ": missing key 'at', expected at: [x, z]");
    at = a->value;
    at_where = a->value_where;
    if (const MapEntry* r = find_entry(fields, "radius")) {
      p.radius = doc.constant(r->value, r->value_where, scope, "radius of " + what);
      if (!(p.radius >= 0.0) || !std::isfinite(p.radius))
        doc.fail(r->value_where,
                 "radius of " + what + " is " + detail::num(p.radius) + ", expected a number >= 0");
    }
  }
  if (!at || !at.IsSequence() || at.size() != 2)
    doc.fail(
        at ? doc.where(at) : at_where,
        what + " must be a list [x, z] of two expressions (horizontal, vertical) or {at: [x, z], radius: r}");
  p.x = doc.expression(at[0], doc.where(at[0]), scope, "x of " + what);
  p.z = doc.expression(at[1], doc.where(at[1]), scope, "z of " + what);
  return p;
}

}  // namespace

namespace detail {

DrawSpec read_draw(const YamlDocument& doc, const MapEntry& section, const Scope& scope,
                   const std::vector<std::string>& states, const std::vector<std::string>& controls) {
  DrawSpec spec;
  spec.where = section.key_where;
  const std::vector<MapEntry> entries = doc.entries(section.value, "draw");
  doc.check_keys(entries, kDrawKeys, "draw");

  const MapEntry* points = find_entry(entries, "points");
  if (!points)
    doc.fail(section.key_where, "draw: missing key 'points', expected points: {name: [x, z], ...}");
  const std::vector<MapEntry> point_entries = doc.entries(points->value, "draw.points");
  if (point_entries.empty())
    doc.fail(points->value_where, "draw.points is empty, expected at least one point {name: [x, z]}");
  std::vector<std::string> point_names;
  for (const auto& e : point_entries) {
    spec.points.push_back(read_point(doc, e, scope));
    point_names.push_back(e.key);
  }

  // What the points depend on: states (result columns) or time; never controls.
  sym::Vector exprs;
  for (const auto& p : spec.points) {
    exprs.push_back(p.x);
    exprs.push_back(p.z);
  }
  for (const auto& s : sym::free_symbols(exprs)) {
    const std::string& name = s.name();
    const bool is_state = std::find(states.begin(), states.end(), name) != states.end();
    if (!is_state && name != "t") {
      // Find the point that uses it, to say where.
      SourceLocation where = spec.where;
      for (const auto& p : spec.points)
        if (sym::depends_on(p.x, s) || sym::depends_on(p.z, s)) {
          where = p.where;
          break;
        }
      const bool is_control = std::find(controls.begin(), controls.end(), name) != controls.end();
      doc.fail(where, "draw point depends on " + std::string(is_control ? "the control '" : "'") + name +
                          "', expected expressions of the states (" + names_text(states) +
                          "), parameters, definitions and t");
    }
    spec.inputs.push_back(name);
    spec.input_symbols.push_back(s);
  }

  if (const MapEntry* links = find_entry(entries, "links")) {
    if (links->value && !links->value.IsNull()) {
      if (!links->value.IsSequence())
        doc.fail(links->value_where, "draw.links must be a list of pairs [a, b] of point names");
      for (std::size_t i = 0; i < links->value.size(); ++i) {
        const YAML::Node link = links->value[i];
        const std::string what = "link " + std::to_string(i) + " of draw.links";
        if (!link.IsSequence() || link.size() != 2)
          doc.fail(doc.where(link), what + " must be a pair [a, b] of point names");
        std::size_t ends[2];
        for (std::size_t j = 0; j < 2; ++j) {
          const std::string name = doc.scalar(link[j], doc.where(link[j]), "a point of " + what);
          const auto it = std::find(point_names.begin(), point_names.end(), name);
          if (it == point_names.end()) {
            const std::string suggestion = did_you_mean(name, point_names);
            doc.fail(doc.where(link[j]), "unknown point '" + name + "' in " + what +
                                             (suggestion.empty() ? ";" : suggestion) +
                                             " points: " + names_text(point_names));
          }
          ends[j] = static_cast<std::size_t>(it - point_names.begin());
        }
        if (ends[0] == ends[1])
          doc.fail(doc.where(link), what + " joins point '" + point_names[ends[0]] + "' to itself");
        spec.links.emplace_back(ends[0], ends[1]);
      }
    }
  }

  if (const MapEntry* ground = find_entry(entries, "ground")) {
    const auto read_one = [&](const YAML::Node& node, const SourceLocation& at, const std::string& what) {
      DrawGround g;
      if (node && node.IsMap()) {
        MapEntry e;
        e.value = node;
        e.value_where = at;
        e.key_where = at;
        g.horizontal = false;
        read_segment(doc, e, scope, what, g.from, g.to);
      } else {
        g.height = doc.constant(node, at, scope, what);
        if (!std::isfinite(g.height)) doc.fail(at, what + " is not finite, expected a height");
      }
      spec.ground.push_back(g);
    };
    if (ground->value && ground->value.IsSequence()) {
      for (std::size_t i = 0; i < ground->value.size(); ++i) {
        const YAML::Node item = ground->value[i];
        read_one(item, doc.where(item), "line " + std::to_string(i) + " of draw.ground");
      }
    } else {
      read_one(ground->value, ground->value_where, "draw.ground");
    }
  }

  if (const MapEntry* obstacles = find_entry(entries, "obstacles")) {
    if (obstacles->value && !obstacles->value.IsNull()) {
      if (!obstacles->value.IsSequence())
        doc.fail(obstacles->value_where,
                 "draw.obstacles must be a list of {ellipse: {center: [x, z], axes: [a, b]}} or "
                 "{line: {from: [x, z], to: [x, z]}}");
      for (std::size_t i = 0; i < obstacles->value.size(); ++i) {
        const YAML::Node item = obstacles->value[i];
        const std::string what = "obstacle " + std::to_string(i) + " of draw.obstacles";
        const std::vector<MapEntry> kinds = doc.entries(item, what);
        doc.check_keys(kinds, {"ellipse", "line"}, what);
        if (kinds.size() != 1)
          doc.fail(doc.where(item), what + " must have exactly one of 'ellipse', 'line'");
        DrawObstacle o;
        if (kinds[0].key == "line") {
          o.kind = DrawObstacle::Kind::Line;
          read_segment(doc, kinds[0], scope, what, o.from, o.to);
        } else {
          o.kind = DrawObstacle::Kind::Ellipse;
          const std::vector<MapEntry> fields = doc.entries(kinds[0].value, what);
          doc.check_keys(fields, {"center", "axes"}, what);
          const MapEntry* c = find_entry(fields, "center");
          const MapEntry* a = find_entry(fields, "axes");
          if (!c || !a)
            doc.fail(kinds[0].value_where, what + " needs 'center: [x, z]' and 'axes: [a, b]' (semi-axes)");
          constant_pair(doc, c->value, c->value_where, scope, "'center' of " + what, o.center);
          constant_pair(doc, a->value, a->value_where, scope, "'axes' of " + what, o.axes);
          if (!(o.axes[0] > 0.0) || !(o.axes[1] > 0.0))
            doc.fail(a->value_where, "'axes' of " + what + " must be positive semi-axes");
        }
        spec.obstacles.push_back(o);
      }
    }
  }
  return spec;
}

namespace {
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
nlohmann::json pair_json(const double v[2]) { return nlohmann::json::array({number(v[0]), number(v[1])}); }
}  // namespace

nlohmann::json draw_json(const DrawSpec& spec, const DrawFrames& frames) {
  using nlohmann::json;
  json points = json::object();
  for (std::size_t i = 0; i < spec.points.size(); ++i) {
    json xs = json::array(), zs = json::array();
    for (double v : frames.x[i]) xs.push_back(number(v));
    for (double v : frames.z[i]) zs.push_back(number(v));
    json p = {{"x", xs}, {"z", zs}};
    if (spec.points[i].radius > 0.0) p["radius"] = spec.points[i].radius;
    points[spec.points[i].name] = p;
  }
  json order = json::array();
  for (const auto& p : spec.points) order.push_back(p.name);
  json links = json::array();
  for (const auto& [a, b] : spec.links) links.push_back({spec.points[a].name, spec.points[b].name});
  json ground = json::array();
  for (const auto& g : spec.ground)
    ground.push_back(g.horizontal ? json{{"z", g.height}}
                                  : json{{"from", pair_json(g.from)}, {"to", pair_json(g.to)}});
  json obstacles = json::array();
  for (const auto& o : spec.obstacles)
    obstacles.push_back(
        o.kind == DrawObstacle::Kind::Line
            ? json{{"line", {{"from", pair_json(o.from)}, {"to", pair_json(o.to)}}}}
            : json{{"ellipse", {{"center", pair_json(o.center)}, {"axes", pair_json(o.axes)}}}});
  return {
      {"points", points}, {"order", order}, {"links", links}, {"ground", ground}, {"obstacles", obstacles}};
}

nlohmann::json draw_json(const DrawSpec& spec, const std::vector<double>& time,
                         const std::vector<std::string>& state_names,
                         const std::vector<std::vector<double>>& states) {
  return draw_json(spec, evaluate_draw(spec, time, state_names, states));
}

}  // namespace detail

DrawFrames evaluate_draw(const DrawSpec& spec, const std::vector<double>& time,
                         const std::vector<std::string>& state_names,
                         const std::vector<std::vector<double>>& states) {
  if (states.size() != time.size())
    throw Error("draw: " + std::to_string(states.size()) + " state rows for " + std::to_string(time.size()) +
                " time points");
  // Where each input comes from: a state column, or (-1) the time.
  std::vector<long> column;
  for (const auto& name : spec.inputs) {
    const auto it = std::find(state_names.begin(), state_names.end(), name);
    if (it != state_names.end())
      column.push_back(static_cast<long>(it - state_names.begin()));
    else if (name == "t")
      column.push_back(-1);
    else
      throw Error("draw: the points depend on '" + name +
                  "', which is not a state of the result (states: " + names_text(state_names) + ")");
  }
  sym::Vector outputs;
  for (const auto& p : spec.points) {
    outputs.push_back(p.x);
    outputs.push_back(p.z);
  }
  const sym::Function f("draw", {spec.input_symbols}, {outputs});
  std::vector<double> in(spec.inputs.size()), out(outputs.size()), work(f.work_size());
  DrawFrames frames;
  frames.x.assign(spec.points.size(), std::vector<double>(time.size()));
  frames.z = frames.x;
  for (std::size_t k = 0; k < time.size(); ++k) {
    for (std::size_t j = 0; j < column.size(); ++j) {
      const long c = column[j];
      in[j] = c < 0 ? time[k]
                    : (static_cast<std::size_t>(c) < states[k].size() ? states[k][static_cast<std::size_t>(c)]
                                                                      : std::nan(""));
    }
    const double* ins[] = {in.data()};
    double* outs[] = {out.data()};
    f.eval(ins, outs, work.data());
    for (std::size_t i = 0; i < spec.points.size(); ++i) {
      frames.x[i][k] = out[2 * i];
      frames.z[i][k] = out[2 * i + 1];
    }
  }
  return frames;
}

}  // namespace stasis::io
