// result.json and CSV writers for simulations and optimal control.
#include "stasis/io/results.hpp"

#include <algorithm>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <unordered_map>
#include <nlohmann/json.hpp>

#include "draw_file.hpp"
#include "stasis/error.hpp"
#include "stasis/nlp/ipopt_solver.hpp"

namespace stasis::io {

namespace {
using nlohmann::json;

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json numbers(const std::vector<double>& values) {
  json a = json::array();
  for (double v : values) a.push_back(number(v));
  return a;
}

// What kept a failed relaxed NLP infeasible (mpcc::StepStats::largest_violations).
json violations_json(const std::vector<mpcc::ViolationValue>& violations) {
  json a = json::array();
  for (const auto& v : violations)
    a.push_back({{"block", v.block},
                 {"constraint", v.what},
                 {"value", number(v.value)},
                 {"lower", number(v.lower)},
                 {"upper", number(v.upper)},
                 {"violation", number(v.violation())}});
  return a;
}

json homotopy_steps(const mpcc::Result& r) {
  json steps = json::array();
  for (const auto& s : r.steps) {
    json step = {{"sigma", number(s.sigma)},
                 {"residual", number(s.residual)},
                 {"objective", number(s.objective)},
                 {"iterations", s.iterations},
                 {"status", nlp::to_string(s.status)},
                 {"wall_time_s", s.wall_time_s}};
    if (s.polish) step["polish"] = true;
    if (s.penalty) step["penalty"] = true;
    if (!s.largest_violations.empty()) step["largest_violations"] = violations_json(s.largest_violations);
    steps.push_back(step);
  }
  return steps;
}

// States by name (the time state, if any, is the time axis, not a state).
json states_json(const model::Pss& m, const std::vector<std::vector<double>>& states) {
  json j = json::object();
  for (std::size_t i = 0; i < m.state_names.size(); ++i) {
    if (static_cast<int>(i) == m.time_state) continue;
    json col = json::array();
    for (const auto& x : states) col.push_back(number(x[i]));
    j[m.state_names[i]] = col;
  }
  return j;
}

json events_json(const model::Pss& m, const std::vector<sim::Event>& events) {
  json a = json::array();
  for (const auto& e : events) {
    json state = json::object();
    for (std::size_t i = 0; i < m.state_names.size() && i < e.state.size(); ++i)
      if (static_cast<int>(i) != m.time_state) state[m.state_names[i]] = number(e.state[i]);
    a.push_back({{"time", number(e.time)},
                 {"kind", "switch"},
                 {"switching", e.switching},
                 {"before", {{"regions", e.before}}},
                 {"after", {{"regions", e.after}}},
                 {"state", state}});
  }
  return a;
}

// Where a homotopy that did not converge left its residual (mpcc::Result::largest_pairs).
json largest_pairs_json(const mpcc::Result& r) {
  json a = json::array();
  for (const auto& p : r.largest_pairs)
    a.push_back({{"block", p.block}, {"pair", p.pair}, {"G", number(p.G)}, {"H", number(p.H)},
                 {"product", number(p.product())}});
  return a;
}

std::string status_of(bool converged, bool any_success) {
  return converged ? "converged" : (any_success ? "not_converged" : "failed");
}


// status, message and residual of a simulation (both kinds)
void simulation_header(json& j, const sim::Result& r) {
  bool any = false;
  for (const auto& s : r.step_results) any = any || nlp::is_success(s.last_status);
  j["status"] = status_of(r.converged, any);
  j["message"] = r.message;
  j["complementarity_residual"] = number(r.max_residual);
}

// per-step statistics and the solver totals of a simulation
json simulation_solver(const sim::Result& r) {
  json steps = json::array();
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const auto& s = r.steps[i];
    json step = {{"time", s.time},
                 {"converged", s.converged},
                 {"homotopy_steps", s.homotopy_steps},
                 {"iterations", s.iterations},
                 {"residual", number(s.residual)},
                 {"wall_time_s", s.wall_time_s},
                 {"homotopy", homotopy_steps(r.step_results[i])}};
    if (i < r.speed_of_time.size()) step["speed_of_time"] = number(r.speed_of_time[i]);
    if (!r.step_results[i].largest_pairs.empty()) step["largest_pairs"] = largest_pairs_json(r.step_results[i]);
    steps.push_back(step);
  }
  return {{"nlp_iterations", r.nlp_iterations},
          {"wall_time_s", r.solve_time_s},
          {"construction_time_s", r.construction_time_s},
          {"steps", steps}};
}

// The fields of a time-frozen run (simulation or OCP), time_freezing.md §4: physical `time` and
// `states` (clock removed; a jump = two equal consecutive times), `numerical` (every element
// boundary in numerical time with the clock, states and the speed of time per step or stage),
// impact `events`, `contact_forces`, `warnings` and `draw` at the physical points.
void time_frozen_fields(json& j, const model::Pss& pss, const TimeFreezingFile& tf,
                        const std::vector<double>& numerical_time,
                        const std::vector<std::vector<double>>& numerical_states,
                        const std::vector<double>& speed_of_time, const sim::PhysicalTrajectory& p,
                        const std::optional<DrawSpec>& draw) {
  j["time"] = p.time;
  json states = json::object();
  for (std::size_t i = 0; i < p.state_names.size(); ++i) {
    json col = json::array();
    for (const auto& x : p.states) col.push_back(number(x[i]));
    states[p.state_names[i]] = col;
  }
  j["states"] = states;
  json num_states = json::object();
  json clock = json::array();
  for (std::size_t i = 0; i < pss.state_names.size(); ++i) {
    if (static_cast<int>(i) == pss.clock) continue;
    json col = json::array();
    for (const auto& y : numerical_states) col.push_back(number(y[i]));
    num_states[pss.state_names[i]] = col;
  }
  for (const auto& y : numerical_states) clock.push_back(number(y[static_cast<std::size_t>(pss.clock)]));
  j["numerical"] = {
      {"time", numerical_time}, {"clock", clock}, {"states", num_states}, {"speed_of_time", numbers(speed_of_time)}};
  json events = json::array();
  const auto& names = tf.frozen.contact_names;
  for (const auto& imp : p.impacts) {
    json before = json::object(), after = json::object();
    for (std::size_t i = 0; i < p.state_names.size(); ++i) {
      before[p.state_names[i]] = number(imp.before[i]);
      after[p.state_names[i]] = number(imp.after[i]);
    }
    json e = {{"time", number(imp.time)},
              {"kind", "impact"},
              {"before", before},
              {"after", after},
              {"frozen_duration", number(imp.numerical_duration)}};
    if (imp.contacts.size() == 1) {
      e["contact"] = imp.contacts[0];
      e["impulse"] = number(imp.impulse[0]);
    } else {
      e["contacts"] = imp.contacts;
      json imps = json::array();
      for (double v : imp.impulse) imps.push_back(number(v));
      e["impulse"] = imps;
    }
    if (!names.empty() && imp.contacts.size() == 1 && static_cast<std::size_t>(imp.contacts[0]) < names.size())
      e["contact_name"] = names[static_cast<std::size_t>(imp.contacts[0])];
    events.push_back(e);
  }
  for (const auto& [kind, changes] : {std::pair{"liftoff", &p.liftoffs}, std::pair{"touchdown", &p.touchdowns}})
    for (const sim::ContactChange& l : *changes) {
      json e = {{"time", number(l.time)}, {"kind", kind}, {"contact", l.contact}};
      if (static_cast<std::size_t>(l.contact) < names.size())
        e["contact_name"] = names[static_cast<std::size_t>(l.contact)];
      events.push_back(e);
    }
  std::stable_sort(events.begin(), events.end(),
                   [](const json& a, const json& b) { return a["time"].get<double>() < b["time"].get<double>(); });
  j["events"] = events;
  if (!p.contact_force.empty()) {
    json flights = json::array();
    for (const auto& [start, end] : p.flight_phases) flights.push_back({number(start), number(end)});
    j["flight_phases"] = flights;
    json forces = json::array();
    for (const auto& f : p.contact_force) {
      json row = json::array();
      for (double v : f) row.push_back(number(v));
      forces.push_back(row);
    }
    j["contact_forces"] = {{"time", p.force_time}, {"normal", forces}};
  }
  j["warnings"] = p.warnings;
  if (draw) j["draw"] = detail::draw_json(*draw, p.time, p.state_names, p.states);
}

}  // namespace

std::string simulation_result_json(const SimulateFile& file, const sim::Result& r) {
  json j;
  simulation_header(j, r);
  j["time"] = r.time;
  j["states"] = states_json(file.model.pss, r.states);
  j["element_length"] = r.element_length;
  j["events"] = events_json(file.model.pss, r.events);
  j["solver"] = simulation_solver(r);
  if (file.draw) j["draw"] = detail::draw_json(*file.draw, r.time, file.model.pss.state_names, r.states);
  return j.dump(2) + "\n";
}

std::string time_frozen_simulation_result_json(const SimulateFile& file, const sim::Result& r,
                                               const sim::PhysicalTrajectory& p) {
  json j;
  simulation_header(j, r);
  time_frozen_fields(j, file.model.pss, *file.time_freezing, r.time, r.states, r.speed_of_time, p, file.draw);
  j["solver"] = simulation_solver(r);
  return j.dump(2) + "\n";
}

std::string physical_trajectory_csv(const sim::PhysicalTrajectory& p) {
  std::string s = "time";
  for (const auto& n : p.state_names) s += "," + n;
  s += "\n";
  char buf[64];
  for (std::size_t k = 0; k < p.time.size(); ++k) {
    std::snprintf(buf, sizeof buf, "%.17g", p.time[k]);
    s += buf;
    for (double v : p.states[k]) {
      std::snprintf(buf, sizeof buf, ",%.17g", v);
      s += buf;
    }
    s += "\n";
  }
  return s;
}

std::string impacts_csv(const sim::PhysicalTrajectory& p) {
  std::string s = "time,kind,contact,impulse,numerical_duration";
  for (const auto& n : p.state_names) s += "," + n + "_before";
  for (const auto& n : p.state_names) s += "," + n + "_after";
  s += "\n";
  // Rows in time order: impacts (one row per contact of the jump), lift-offs and touchdowns
  // without an impact (no impulse or states: the contact opens or closes without a jump).
  std::vector<std::pair<double, std::string>> rows;
  char buf[64];
  auto add = [&](std::string& row, double v) {
    std::snprintf(buf, sizeof buf, ",%.17g", v);
    row += buf;
  };
  auto time_text = [&](double t) {
    std::snprintf(buf, sizeof buf, "%.17g", t);
    return std::string(buf);
  };
  for (const sim::Impact& imp : p.impacts) {
    for (std::size_t c = 0; c < std::max<std::size_t>(imp.contacts.size(), 1); ++c) {
      std::string row = time_text(imp.time) + ",impact";
      if (c < imp.contacts.size()) {
        row += "," + std::to_string(imp.contacts[c]);
        add(row, imp.impulse[c]);
      } else {
        row += ",,";
      }
      add(row, imp.numerical_duration);
      for (double v : imp.before) add(row, v);
      for (double v : imp.after) add(row, v);
      rows.emplace_back(imp.time, row + "\n");
    }
  }
  for (const auto& [kind, changes] : {std::pair{",liftoff,", &p.liftoffs}, std::pair{",touchdown,", &p.touchdowns}})
    for (const sim::ContactChange& l : *changes)
      rows.emplace_back(l.time, time_text(l.time) + kind + std::to_string(l.contact) + ",," +
                                    std::string(2 * p.state_names.size(), ',') + "\n");
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& r : rows) s += r.second;
  return s;
}

namespace {

// status, message, objective, residual, controls and solver statistics of an OCP (both kinds).
json ocp_common(const OcpFile& file, const ocp::Result& r, const std::vector<ContinuationStage>& continuation) {
  json j;
  j["status"] = status_of(r.converged, !r.homotopy.steps.empty() && nlp::is_success(r.homotopy.last_status));
  j["message"] = r.message;
  j["objective"] = number(r.objective);
  j["complementarity_residual"] = number(r.residual);
  json controls = json::object();
  for (std::size_t i = 0; i < file.control_names.size(); ++i) {
    json col = json::array();
    for (const auto& u : r.controls) col.push_back(number(u[i]));
    controls[file.control_names[i]] = col;
  }
  j["controls"] = controls;
  json stages = json::array();
  for (const ContinuationStage& c : continuation)
    stages.push_back({{"value", c.value},
                      {"status", c.result.converged ? "converged" : "not_converged"},
                      {"complementarity_residual", number(c.result.residual)},
                      {"objective", number(c.result.objective)},
                      {"nlp_iterations", c.result.nlp_iterations()},
                      {"nlp_solves", c.result.nlp_solves()},
                      {"wall_time_s", c.result.solve_time_s}});
  const SolveTotals total = totals(r, continuation);
  j["solver"] = {{"nlp_iterations", total.nlp_iterations},
                 {"nlp_solves", total.nlp_solves},
                 {"wall_time_s", total.wall_time_s},
                 {"construction_time_s", r.construction_time_s},
                 {"evaluation_time_s", r.homotopy.evaluation_time_s + r.initialization.evaluation_time_s},
                 {"homotopy", homotopy_steps(r.homotopy)}};
  if (!r.homotopy.largest_pairs.empty()) j["solver"]["largest_pairs"] = largest_pairs_json(r.homotopy);
  if (!r.homotopy.largest_violations.empty())
    j["solver"]["largest_violations"] = violations_json(r.homotopy.largest_violations);
  if (!continuation.empty())
    j["solver"]["continuation"] = {{"parameter", file.continuation ? file.continuation->parameter : std::string()},
                                   {"stages", stages}};
  if (!r.initialization.steps.empty())
    j["solver"]["initialization"] = {{"method", ocp::to_string(file.initialization.method)},
                                     {"nlp_iterations", r.initialization.nlp_iterations},
                                     {"nlp_solves", r.initialization.nlp_solves},
                                     {"wall_time_s", r.initialization.wall_time_s},
                                     {"steps", homotopy_steps(r.initialization)}};
  if (!r.initialization.steps.empty() && file.initialization.method == ocp::InitializationOptions::Method::Repeat) {
    // The shorter problem's own verdict: its solution is what was repeated.
    json& init = j["solver"]["initialization"];
    init["problem"] = file.initialization.problem;
    init["from_stage"] = file.initialization.from_stage;
    init["status"] = r.initialization.converged ? "converged" : "not_converged";
    init["complementarity_residual"] = number(r.initialization.residual);
    init["objective"] = number(r.initialization.objective);
  }
  return j;
}

}  // namespace

std::string mpcc_result_json(const MpccFile& file, const mpcc::Result& r) {
  json j;
  bool failed = r.steps.empty() || (!nlp::is_success(r.last_status) && r.last_status != nlp::Status::MaxIterations &&
                                    r.last_status != nlp::Status::MaxTime && !r.converged);
  j["status"] = r.converged ? "converged" : (failed ? "failed" : "not_converged");
  j["message"] = r.message;
  j["objective"] = number(r.objective);
  j["complementarity_residual"] = number(r.residual);
  json vars = json::object();
  for (std::size_t i = 0; i < file.variables.size() && i < r.w.size(); ++i) vars[file.variables[i].name] = number(r.w[i]);
  j["variables"] = vars;
  j["solver"] = {{"nlp_iterations", r.nlp_iterations},
                 {"nlp_solves", r.nlp_solves},
                 {"wall_time_s", r.wall_time_s},
                 {"evaluation_time_s", r.evaluation_time_s},
                 {"initial_residual", number(r.initial_residual)},
                 {"homotopy", homotopy_steps(r)}};
  if (!r.largest_pairs.empty()) j["solver"]["largest_pairs"] = largest_pairs_json(r);
  if (!r.largest_violations.empty()) j["solver"]["largest_violations"] = violations_json(r.largest_violations);
  return j.dump(2) + "\n";
}

std::string ocp_result_json(const OcpFile& file, const ocp::Result& r,
                            const std::vector<ContinuationStage>& continuation) {
  json j = ocp_common(file, r, continuation);
  j["final_time"] = number(r.final_time);
  j["time"] = r.time;
  j["states"] = states_json(file.model.pss, r.states);
  j["control_time"] = r.control_time;
  j["events"] = events_json(file.model.pss, r.events);
  if (file.draw) j["draw"] = detail::draw_json(*file.draw, r.time, file.model.pss.state_names, r.states);
  return j.dump(2) + "\n";
}

std::string time_frozen_ocp_result_json(const OcpFile& file, const ocp::Result& r,
                                        const ocp::PhysicalResult& p,
                                        const std::optional<ocp::Validation>& validation,
                                        const ocp::SpeedOfTimeDiagnosis& diagnosis,
                                        const std::vector<ContinuationStage>& continuation) {
  json j = ocp_common(file, r, continuation);
  time_frozen_fields(j, file.model.pss, *file.time_freezing, r.time, r.states, r.speed_of_time, p.trajectory,
                     file.draw);
  j["final_time"] = number(p.final_time);
  j["control_time"] = p.control_time;
  j["frozen_stages"] = p.frozen_stages;
  if (validation) {
    const ocp::Validation& v = *validation;
    json final_state = json::object();
    if (v.simulated_final_state.size() == p.trajectory.state_names.size())
      for (std::size_t i = 0; i < p.trajectory.state_names.size(); ++i)
        final_state[p.trajectory.state_names[i]] = number(v.simulated_final_state[i]);
    json not_reproduced = json::array();
    for (const ocp::Validation::StageMismatch& m : v.not_reproduced)
      not_reproduced.push_back({{"stage", m.stage},
                                {"integrator_converged", m.integrator_converged},
                                {"integrator_deviation", number(m.integrator_deviation)},
                                {"ocp_element_lengths", numbers(m.ocp_element_lengths)},
                                {"integrator_element_lengths", numbers(m.integrator_element_lengths)}});
    j["validation"] = {{"resimulated", v.resimulated},
                       {"simulation_converged", v.simulation_converged},
                       {"steps", v.steps},
                       {"steps_per_stage", v.steps_per_stage},
                       {"horizon", number(v.horizon)},
                       {"final_state_deviation", number(v.final_state_deviation)},
                       {"max_deviation_at_stage_ends", number(v.max_deviation_at_stage_ends)},
                       {"stage_end_deviation", numbers(v.stage_end_deviation)},
                       {"simulated_final_state", final_state},
                       {"max_gap_violation", number(v.max_gap_violation)},
                       {"max_path_violation", number(v.max_path_violation)},
                       {"path_violation_where", v.path_violation_where},
                       {"stages_from_ocp", v.stages_from_ocp},
                       {"stages_by_alternative_form", v.stages_by_alternative_form},
                       {"stages_resynchronized", v.stages_resynchronized},
                       {"stages_from_ocp_guess", v.stages_from_ocp_guess},
                       {"stages_at_ocp_speed_of_time", v.stages_at_ocp_speed_of_time},
                       {"stages_joined_across_jumps", v.stages_joined_across_jumps},
                       {"stages_joined_step_failed", v.stages_joined_step_failed},
                       {"stages_above_step_tolerance", v.stages_above_step_tolerance},
                       {"stages_painleve", v.stages_painleve},
                       {"ocp_stage_violation", number(v.ocp_stage_violation)},
                       {"not_reproduced", not_reproduced},
                       {"points_between", v.points_between},
                       {"max_path_violation_between_points", number(v.max_path_violation_between_points)},
                       {"path_violation_between_where", v.path_violation_between_where},
                       {"passed", v.passed},
                       {"tolerances",
                        {{"gap", number(v.gap_tolerance)},
                         {"constraints", number(v.constraint_tolerance)},
                         {"deviation", number(v.deviation_tolerance)}}},
                       {"failures", v.failures},
                       {"message", v.message},
                       {"wall_time_s", v.wall_time_s}};
  }
  if (!diagnosis.empty()) {
    j["speed_of_time_diagnosis"] = {{"stages", diagnosis.stages},
                                    {"stages_at_bound", diagnosis.stages_at_bound},
                                    {"clock_violated", diagnosis.clock_violated},
                                    {"max_clock_violation", number(diagnosis.max_clock_violation)},
                                    {"speed_of_time", numbers(diagnosis.speed_of_time)},
                                    {"bound", diagnosis.bound},
                                    {"key", diagnosis.key},
                                    {"bound_value", number(diagnosis.bound_value)},
                                    {"needed", number(diagnosis.needed)},
                                    {"frozen_time", number(diagnosis.frozen_time)},
                                    {"message", diagnosis.message}};
  }
  return j.dump(2) + "\n";
}

std::string trajectory_csv(const model::Pss& m, const std::vector<double>& time,
                           const std::vector<std::vector<double>>& states) {
  std::string s = "time";
  for (std::size_t i = 0; i < m.state_names.size(); ++i)
    if (static_cast<int>(i) != m.time_state) s += "," + m.state_names[i];
  s += "\n";
  char buf[64];
  for (std::size_t k = 0; k < time.size(); ++k) {
    std::snprintf(buf, sizeof buf, "%.17g", time[k]);
    s += buf;
    for (std::size_t i = 0; i < states[k].size(); ++i) {
      if (static_cast<int>(i) == m.time_state) continue;
      std::snprintf(buf, sizeof buf, ",%.17g", states[k][i]);
      s += buf;
    }
    s += "\n";
  }
  return s;
}

std::string events_csv(const std::vector<sim::Event>& events) {
  std::string s = "time,kind,switching,regions_before,regions_after\n";
  auto list = [](const std::vector<int>& v) {
    std::string r;
    for (std::size_t i = 0; i < v.size(); ++i) r += (i ? " " : "") + std::to_string(v[i]);
    return r;
  };
  char buf[64];
  for (const auto& e : events) {
    std::snprintf(buf, sizeof buf, "%.17g", e.time);
    s += std::string(buf) + ",switch," + list(e.switching) + "," + list(e.before) + "," + list(e.after) + "\n";
  }
  return s;
}

std::string mpcc_start_json(const std::string& problem_file, const MpccSize& size, const std::vector<double>& w,
                            const std::vector<std::string>& variable_names, const nlp::Multipliers* multipliers,
                            const StartOrigin& origin, const std::vector<std::string>* constraint_keys) {
  json j;
  j["format"] = "stasis MPCC start";
  j["problem"] = problem_file;
  j["n_variables"] = size.variables;
  j["n_constraints"] = size.constraints;
  j["n_pairs"] = size.pairs;
  j["w"] = numbers(w);
  // The names let a user build a start for a changed grid (e.g. more stages) from this one.
  if (variable_names.size() == w.size()) j["variable_names"] = variable_names;
  if (multipliers != nullptr && !multipliers->z_lower.empty()) {
    j["multipliers"] = {{"constraints", numbers(multipliers->lambda_g)},
                        {"lower_bounds", numbers(multipliers->z_lower)},
                        {"upper_bounds", numbers(multipliers->z_upper)}};
    if (constraint_keys != nullptr && constraint_keys->size() == multipliers->lambda_g.size())
      j["multipliers"]["constraint_keys"] = *constraint_keys;
  }
  if (std::isfinite(origin.sigma)) j["sigma"] = origin.sigma;
  if (!origin.step.empty()) j["step"] = origin.step;
  j["final"] = origin.final;
  return j.dump() + "\n";
}

std::vector<double> read_mpcc_start(const std::string& path, const MpccSize& size) {
  return read_mpcc_start_file(path, size).w;
}

MpccStart read_mpcc_start_file(const std::string& path, const MpccSize& size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the start file (give the start.json of an earlier `stasis solve`)");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw Error(path + ": not a start file: " + e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != "stasis MPCC start" || !j.contains("w") ||
      !j["w"].is_array())
    throw Error(path + ": not a start file (expected the start.json that `stasis solve` writes)");
  const json& values = j["w"];
  const std::size_t pairs =
      j.contains("n_pairs") && j["n_pairs"].is_number_unsigned() ? j["n_pairs"].get<std::size_t>() : 0;
  if (values.size() != size.variables || pairs != size.pairs)
    throw Error(path + ": the start has " + std::to_string(values.size()) + " variables and " +
                std::to_string(pairs) + " complementarity pairs, this problem's MPCC has " +
                std::to_string(size.variables) + " and " + std::to_string(size.pairs) +
                ": a start must come from the same model with the same stages and discretization (bounds, costs, "
                "parameters and path constraints may differ)");
  // A JSON array of finite numbers (a NaN is written as null): the entries, or an error naming one.
  auto finite_numbers = [&](const json& array, const std::string& what) {
    std::vector<double> v(array.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!array[i].is_number() || !std::isfinite(array[i].get<double>()))
        throw Error(path + ": entry " + std::to_string(i) + " of " + what + " is not a finite number");
      v[i] = array[i].get<double>();
    }
    return v;
  };
  MpccStart start{finite_numbers(values, "w"), std::nullopt, {}, {}};
  // The origin (optional: older files have none).
  if (j.contains("sigma")) {
    if (!j["sigma"].is_number() || !(j["sigma"].get<double>() >= 0) || !std::isfinite(j["sigma"].get<double>()))
      throw Error(path + ": `sigma` must be a finite number >= 0 (the σ the point was solved at); delete it if unknown");
    start.origin.sigma = j["sigma"].get<double>();
  }
  if (j.contains("step")) {
    if (!j["step"].is_string()) throw Error(path + ": `step` must be a string (a step label such as \"5\" or \"i3\")");
    start.origin.step = j["step"].get<std::string>();
  }
  if (j.contains("final")) {
    if (!j["final"].is_boolean()) throw Error(path + ": `final` must be true or false");
    start.origin.final = j["final"].get<bool>();
  }
  if (j.contains("multipliers")) {
    const json& m = j["multipliers"];
    auto read = [&](const std::string& key) {
      if (!m.is_object() || !m.contains(key) || !m[key].is_array())
        throw Error(path + ": `multipliers` must have the arrays constraints, lower_bounds and upper_bounds (`" + key +
                    "` is missing or not an array); delete `multipliers` to start from the point alone");
      return finite_numbers(m[key], "multipliers." + key);
    };
    start.multipliers = nlp::Multipliers{read("constraints"), read("lower_bounds"), read("upper_bounds")};
    if (m.contains("constraint_keys")) {
      const json& keys = m["constraint_keys"];
      if (!keys.is_array() || keys.size() != start.multipliers->lambda_g.size())
        throw Error(path + ": `multipliers.constraint_keys` must be an array with one entry per entry of "
                           "`multipliers.constraints` (" +
                    std::to_string(start.multipliers->lambda_g.size()) +
                    "); delete it to use the multipliers only for the same relaxed NLP");
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (!keys[i].is_string())
          throw Error(path + ": entry " + std::to_string(i) + " of multipliers.constraint_keys is not a string");
        start.constraint_keys.push_back(keys[i].get<std::string>());
      }
    }
  }
  return start;
}

std::vector<std::string> multiplier_keys(const nlp::Problem& relaxed) {
  // A problem file's constraint is named "'TEXT' (FILE:LINE:COLUMN)" (model_file.cpp).
  static const std::regex position(R"( \([^()]*:[0-9]+(:[0-9]+)?\)$)");
  std::vector<std::string> keys(relaxed.n_constraints());
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = std::regex_replace(relaxed.constraint_key(static_cast<nlp::Index>(i)), position, "");
  return nlp::numbered_keys(std::move(keys));
}

std::optional<MatchedMultipliers> match_multipliers(const MpccStart& start, const std::vector<std::string>& keys,
                                                    std::size_t n_variables) {
  if (!start.multipliers || start.multipliers->z_lower.size() != n_variables ||
      start.multipliers->z_upper.size() != n_variables)
    return std::nullopt;
  const nlp::Multipliers& given = *start.multipliers;
  MatchedMultipliers r{given, keys.size(), keys.size(), false};
  const bool same_rows =
      start.constraint_keys.empty() ? given.lambda_g.size() == keys.size() : start.constraint_keys == keys;
  if (same_rows) return r;
  if (start.constraint_keys.empty()) return std::nullopt;
  const std::vector<std::ptrdiff_t> row = nlp::match_keys(start.constraint_keys, keys);
  r.multipliers.lambda_g.assign(keys.size(), 0.0);
  r.matched = 0;
  r.by_key = true;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] < 0) continue;
    r.multipliers.lambda_g[i] = given.lambda_g[static_cast<std::size_t>(row[i])];
    ++r.matched;
  }
  if (r.matched == 0) return std::nullopt;
  return r;
}

}  // namespace stasis::io
