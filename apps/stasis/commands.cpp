// The CLI verbs: read, build, solve, report progress, write results.
#include "commands.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"
#include "stasis/io/mpcc_build.hpp"
#include "stasis/io/results.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/ocp/time_frozen.hpp"
#include "stasis/sim/integrator.hpp"
#include "stasis/sim/physical.hpp"
#include "stasis/io/problem_file.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/report/report.hpp"

namespace stasis::cli {

namespace {

std::string default_out_dir(const std::string& file) {
  return (std::filesystem::path("out") / std::filesystem::path(file).stem()).string();
}

void print_step_header() {
  fmt::print("{:>4}  {:>9}  {:>9}  {:>14}  {:>5}  {:<34} {:>8}\n", "step", "sigma", "residual", "objective", "iter",
             "status", "time");
}

// Phase-1 steps are numbered i0, i1, ...
std::string step_label(const mpcc::StepStats& s) {
  return s.initialization ? fmt::format("i{}", s.step) : std::to_string(s.step);
}

void print_step(const mpcc::StepStats& s) {
  // A polishing solve has no σ: its row says "polish" there; a step of the ℓ1-penalty finish shows
  // its σ_p as "p1.00e-02".
  fmt::print("{:>4}  {:>9}  {:>9.2e}  {:>14.7e}  {:>5}  {:<34} {:>7.3f}s\n", step_label(s),
             s.polish ? std::string("polish") : fmt::format("{}{:.2e}", s.penalty ? "p" : "", s.sigma), s.residual, s.objective, s.iterations,
             nlp::to_string(s.status), s.wall_time_s);
  std::fflush(stdout);
}

// ", shifting qx by 1 per repetition" for initialization.shift; "" for none.
std::string shift_text(const std::vector<std::pair<std::string, double>>& shift) {
  std::string out;
  for (const auto& [name, value] : shift) out += fmt::format("{}{} by {:g}", out.empty() ? "" : ", ", name, value);
  return out.empty() ? out : ", shifting " + out + " per repetition";
}

// Impacts, lift-offs and touchdowns without an impact in time order, then the flight phases
// (time-frozen results).
void print_contact_events(const sim::PhysicalTrajectory& p) {
  std::vector<std::pair<double, std::string>> lines;
  for (const auto& imp : p.impacts)
    lines.emplace_back(imp.time, fmt::format("impact at t = {:.10g}: contact {}{}", imp.time,
                                             imp.contacts.empty() ? -1 : imp.contacts[0],
                                             imp.impulse.empty() ? std::string()
                                                                 : fmt::format(", impulse {:.6g}", imp.impulse[0])));
  for (const auto& l : p.liftoffs)
    lines.emplace_back(l.time, fmt::format("lift-off at t = {:.10g}: contact {}", l.time, l.contact));
  for (const auto& l : p.touchdowns)
    lines.emplace_back(l.time, fmt::format("touchdown without impact at t = {:.10g}: contact {}", l.time, l.contact));
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [t, line] : lines) fmt::print("{}\n", line);
  if (!p.flight_phases.empty()) {
    std::string phases;
    for (const auto& [start, end] : p.flight_phases)
      phases += fmt::format("{}[{:.6g}, {:.6g}]", phases.empty() ? "" : ", ", start, end);
    fmt::print("flight phases (no contact force): {}\n", phases);
  }
}

void require_kind(const std::string& file, const std::string& expected) {
  std::string kind = io::read_kind(file);
  if (kind != expected)
    throw Error(file + ": this file has kind '" + kind + "'; use 'stasis " +
                (kind == "ocp" ? std::string("solve") : kind) + "' for it");
}

// Time-frozen OCPs: speed-of-time bounds that cannot be met on their face (ocp::check_speed_of_time),
// reported like the reader's errors, with the file's name in front.
void check_speed_of_time(const io::OcpFile& file) {
  if (!file.time_freezing) return;
  try {
    ocp::check_speed_of_time(file.time_freezing->frozen, file.ocp);
  } catch (const Error& e) {
    throw Error(file.path + ": error: " + e.what());
  }
}

// Where a homotopy that did not converge left its residual: the pairs with the largest products,
// with the block they belong to (an mpcc file has one block, named after its objective).
void print_largest_pairs(const mpcc::Result& r, bool with_block = true) {
  if (r.largest_pairs.empty()) return;
  fmt::print("largest complementarity products (result.json: solver.largest_pairs):\n");
  for (const auto& p : r.largest_pairs)
    fmt::print("  {:.2e} = G {:.3e} * H {:.3e}  {}{}\n", p.product(), p.G, p.H,
               with_block ? p.block + ": " : std::string(), p.pair);
}

// What kept the last relaxed NLP infeasible when it failed: the rows and bounds violated most where
// IPOPT stopped.
void print_largest_violations(const mpcc::Result& r, bool with_block = true) {
  if (r.largest_violations.empty()) return;
  fmt::print("largest constraint violations where the last NLP stopped (result.json: solver.largest_violations):\n");
  for (const auto& v : r.largest_violations)
    fmt::print("  {:.2e}  {}{} = {:.6g} (bounds [{:.6g}, {:.6g}])\n", v.violation(),
               with_block ? v.block + ": " : std::string(), v.what, v.value, v.lower, v.upper);
}

// DIR/report.html next to result.json; failing here does not fail the run (its results are written).
void write_report_for(const std::string& dir, bool quiet) {
  try {
    const std::string path = report::write_report(dir);
    if (!quiet) fmt::print("wrote {}\n", path);
  } catch (const std::exception& e) {
    fmt::print(stderr, "warning: report.html not written: {}\n", e.what());
  }
}

}  // namespace

int run_report(const std::string& dir) {
  fmt::print("wrote {}\n", report::write_report(dir));
  return 0;
}

int run_mpcc(const CommonOptions& o) {
  require_kind(o.file, "mpcc");
  io::MpccFile file = io::read_mpcc_file(o.file, o.overrides);
  if (o.verbose) file.options.print_level = 5;
  mpcc::Problem problem = io::build_mpcc(file);
  mpcc::Homotopy homotopy(problem, file.options);
  if (!o.quiet) {
    fmt::print("stasis mpcc {}: {} variables, {} constraints, {} complementarity pairs\n", o.file,
               problem.n_variables(), problem.n_constraints(), problem.n_pairs());
    fmt::print("homotopy: relaxation {}, steering {}, sigma0 {:g}, kappa {:g}, tolerance {:g}, at most {} steps\n",
               mpcc::to_string(file.options.relaxation), mpcc::to_string(file.options.steering), file.options.sigma0,
               file.options.kappa, file.options.complementarity_tol, homotopy.max_steps());
    print_step_header();
    homotopy.on_step = print_step;
  }
  mpcc::Result r = homotopy.solve();
  std::string dir = o.out_dir.empty() ? default_out_dir(o.file) : o.out_dir;
  std::string out = (std::filesystem::path(dir) / "result.json").string();
  io::write_text_file(out, io::mpcc_result_json(file, r));

  fmt::print("{}: {} (residual {:.2e}, objective {:.10g}) after {} NLP solves, {} IPOPT iterations, {:.3f} s\n",
             r.converged ? "converged" : "NOT converged", r.message, r.residual, r.objective, r.nlp_solves,
             r.nlp_iterations, r.wall_time_s);
  print_largest_pairs(r, false);
  print_largest_violations(r, false);
  if (!o.quiet) {
    std::string values;
    for (std::size_t i = 0; i < file.variables.size(); ++i)
      values += fmt::format("{}{} = {:.10g}", i ? ", " : "", file.variables[i].name, r.w[i]);
    fmt::print("solution: {}\nwrote {}\n", values, out);
  }
  write_report_for(dir, o.quiet);
  return r.converged ? 0 : 1;
}

int run_simulate(const CommonOptions& o) {
  require_kind(o.file, "simulate");
  io::SimulateFile file = io::read_simulate_file(o.file, o.overrides);
  if (o.verbose) file.homotopy.print_level = 5;
  const sim::Options so = io::integrator_options(file);
  if (file.time_freezing) sim::check_steps_hold_jumps(file.time_freezing->frozen, so);
  reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, so.discretization.dcs);
  sim::Integrator integrator(dcs, so);
  if (!o.quiet) {
    fmt::print("stasis simulate {}: {} states, {} regions, {} steps of {:g} ({} elements, {} {} stages, {})\n", o.file,
               dcs.n_x(), dcs.theta.size(), so.steps, so.horizon / so.steps, so.discretization.elements,
               discretize::to_string(so.discretization.scheme), so.discretization.stages,
               so.discretization.fesd ? "FESD" : "standard time stepping");
    integrator.on_step = [](const sim::StepInfo& s) {
      fmt::print("step {:>5}/{:<5} t = {:<12.6g} homotopy steps {:>2}  residual {:.2e}  iterations {:>4}  {}\n",
                 s.step + 1, s.steps, s.time, s.homotopy_steps, s.residual, s.iterations,
                 s.converged ? "" : "NOT converged");
      std::fflush(stdout);
    };
  }
  sim::Result r = integrator.simulate();
  std::string dir = o.out_dir.empty() ? default_out_dir(o.file) : o.out_dir;
  namespace fs = std::filesystem;
  if (file.time_freezing) {
    sim::PhysicalTrajectory p = sim::recover_physical(file.time_freezing->frozen, r, so.controls);
    if (!r.converged)
      for (std::size_t i = 0; i < r.steps.size(); ++i)
        if (!r.steps[i].converged) {
          std::string hint = sim::diagnose_failed_step(file.time_freezing->frozen, so, r.states[i * so.discretization.elements]);
          if (!hint.empty()) r.message += "; " + hint;
          break;
        }
    io::write_text_file((fs::path(dir) / "result.json").string(),
                        io::time_frozen_simulation_result_json(file, r, p));
    io::write_text_file((fs::path(dir) / "trajectory.csv").string(), io::physical_trajectory_csv(p));
    io::write_text_file((fs::path(dir) / "events.csv").string(), io::impacts_csv(p));
    io::write_text_file((fs::path(dir) / "numerical.csv").string(),
                        io::trajectory_csv(file.model.pss, r.time, r.states));
    fmt::print("{}: {}; {} impacts; max residual {:.2e}; {} IPOPT iterations; {:.3f} s (construction {:.3f} s)\n",
               r.converged ? "converged" : "NOT converged", r.message, p.impacts.size(), r.max_residual,
               r.nlp_iterations, r.solve_time_s, r.construction_time_s);
    for (const auto& w : p.warnings) fmt::print("warning: {}\n", w);
    if (!o.quiet) {
      print_contact_events(p);
      std::string values;
      for (std::size_t i = 0; i < p.state_names.size(); ++i)
        values += fmt::format("{}{} = {:.10g}", i ? ", " : "", p.state_names[i], p.states.back()[i]);
      fmt::print("final state at t = {:g}: {}\nwrote {}/result.json, trajectory.csv (physical time), numerical.csv, events.csv\n",
                 p.time.back(), values, dir);
    }
    write_report_for(dir, o.quiet);
    return r.converged ? 0 : 1;
  }
  io::write_text_file((fs::path(dir) / "result.json").string(), io::simulation_result_json(file, r));
  io::write_text_file((fs::path(dir) / "trajectory.csv").string(),
                      io::trajectory_csv(file.model.pss, r.time, r.states));
  io::write_text_file((fs::path(dir) / "events.csv").string(), io::events_csv(r.events));
  fmt::print("{}: {}; {} switch events; max residual {:.2e}; {} IPOPT iterations; {:.3f} s (construction {:.3f} s)\n",
             r.converged ? "converged" : "NOT converged", r.message, r.events.size(), r.max_residual,
             r.nlp_iterations, r.solve_time_s, r.construction_time_s);
  if (!o.quiet) {
    const auto& x = r.states.back();
    std::string values;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (static_cast<int>(i) != file.model.pss.time_state)
        values += fmt::format("{}{} = {:.10g}", values.empty() ? "" : ", ", file.model.pss.state_names[i], x[i]);
    fmt::print("final state at t = {:g}: {}\nwrote {}/result.json, trajectory.csv, events.csv\n", r.time.back(), values,
               dir);
  }
  write_report_for(dir, o.quiet);
  return r.converged ? 0 : 1;
}

int run_solve(const CommonOptions& o) {
  require_kind(o.file, "ocp");
  io::OcpFile file = io::read_ocp_file(o.file, o.overrides);
  if (o.verbose) file.homotopy.print_level = 5;
  ocp::Options oo{file.discretization, file.homotopy, file.initialization};
  check_speed_of_time(file);
  reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, oo.discretization.dcs);
  ocp::Solver solver(dcs, file.ocp, oo);
  const auto& P = solver.transcription().problem;
  if (!o.quiet) {
    fmt::print("stasis solve {}: {} states, {} controls, {} stages x {} elements ({} {} stages, {}){}\n", o.file,
               dcs.n_x(), dcs.n_u(), file.ocp.stages, oo.discretization.elements,
               discretize::to_string(oo.discretization.scheme), oo.discretization.stages,
               oo.discretization.fesd ? "FESD" : "standard time stepping",
               file.ocp.time_optimal ? ", time-optimal" : "");
    fmt::print("MPCC: {} variables, {} constraints, {} complementarity pairs\n", P.n_variables(), P.n_constraints(),
               P.n_pairs());
    const ocp::InitializationOptions& init = oo.initialization;
    if (init.method == ocp::InitializationOptions::Method::Repeat && o.start_file.empty())
      fmt::print("initialization: {} solved first, then repeated from its stage {}{}; its steps i0, i1, ...\n",
                 init.problem, init.from_stage, shift_text(init.shift));
    else if (init.method != ocp::InitializationOptions::Method::Nominal && o.start_file.empty())
      fmt::print("initialization: {}σ from {:g} to {:g}{}), steps i0, i1, ...\n",
                 init.method == ocp::InitializationOptions::Method::Smoothed
                     ? "smoothed standard time stepping (G·H = σ, "
                     : "the relaxed homotopy (",
                 init.sigma0, init.sigma_final,
                 init.omit_path_constraints.empty()
                     ? std::string()
                     : fmt::format(", without {} path constraint(s)", init.omit_path_constraints.size()));
  }
  // The shorter problem of a repeated start, read and checked before anything is solved.
  std::optional<io::RepeatedProblem> repeated;
  if (oo.initialization.method == ocp::InitializationOptions::Method::Repeat && o.start_file.empty())
    repeated = io::read_repeated_problem(file, solver);
  const io::MpccSize size{P.n_variables(), P.n_constraints(), P.n_pairs()};
  // start.json keeps the multipliers under these keys, so that a start for a changed problem keeps
  // those of the rows it still has.
  const std::vector<std::string> multiplier_keys = io::multiplier_keys(solver.homotopy().relaxed());
  std::vector<double> start;
  std::optional<nlp::Multipliers> start_duals;
  if (!o.start_file.empty()) {
    io::MpccStart s = io::read_mpcc_start_file(o.start_file, size);
    start = std::move(s.w);
    const bool has_duals = s.multipliers.has_value();
    std::optional<io::MatchedMultipliers> matched =
        io::match_multipliers(s, multiplier_keys, solver.homotopy().relaxed().n_variables());
    if (matched) start_duals = std::move(matched->multipliers);
    else if (has_duals) start_duals = std::move(s.multipliers);  // the homotopy says it cannot use them
    if (!o.quiet) {
      fmt::print("start: the MPCC point of {}{} (no initialization; the homotopy from σ = {:g})\n", o.start_file,
                 has_duals ? " and its multipliers" : "", oo.homotopy.sigma0);
      if (matched && matched->by_key)
        fmt::print("start: the constraints differ from the start's: {} of {} constraint multipliers matched by name, "
                   "the other rows start at 0\n",
                   matched->matched, matched->rows);
      if (std::isfinite(s.origin.sigma))
        fmt::print("start: {} solved at σ = {:g}{}{}\n", s.origin.final ? "the point of a finished run," : "a checkpoint,",
                   s.origin.sigma, s.origin.step.empty() ? "" : " (step " + s.origin.step + ")",
                   s.origin.sigma != oo.homotopy.sigma0
                       ? fmt::format("; -o homotopy.sigma0={:g} resumes there", s.origin.sigma)
                       : std::string());
    }
  }
  // The file's parameter continuation (docs/guide-ocp.md "Parameter continuation"); a --start
  // replaces it.
  std::vector<io::ContinuationStage> continuation;
  if (file.continuation && start.empty()) {
    const io::ParameterContinuation& c = *file.continuation;
    const std::size_t n = c.values.size() + 1;
    io::ContinuationCallbacks callbacks;
    if (!o.quiet) {
      callbacks.on_stage = [&](std::size_t i, double value) {
        fmt::print("continuation {}/{}: {} = {:g} (until residual {:g})\n", i + 1, n, c.parameter, value,
                   c.tolerance);
        if (i == 0) print_step_header();
      };
      callbacks.on_step = print_step;
    }
    continuation = io::solve_continuation(
        file,
        [&](const std::vector<std::string>& extra) {
          std::vector<std::string> overrides = o.overrides;
          overrides.insert(overrides.end(), extra.begin(), extra.end());
          io::OcpFile f = io::read_ocp_file(o.file, overrides);
          if (o.verbose) f.homotopy.print_level = 5;
          return f;
        },
        callbacks);
    start = continuation.back().result.w;
    if (!o.quiet)
      fmt::print("continuation {}/{}: {} as in the file, from σ = {:g}\n", n, n, c.parameter, oo.homotopy.sigma0);
  }
  if (!o.quiet) {
    if (continuation.empty()) print_step_header();
    solver.on_step = print_step;
  }
  namespace fs = std::filesystem;
  const std::string dir = o.out_dir.empty() ? default_out_dir(o.file) : o.out_dir;
  const std::string start_path = (fs::path(dir) / "start.json").string();
  // A checkpoint after every relaxed NLP that solved: a run stopped midway (hours, for the
  // hopper) can be resumed from its last step with --start. One that cannot be written does not
  // stop the run: one warning, then no more tries.
  bool checkpoints = true;
  solver.on_checkpoint = [&](const mpcc::StepStats& st, const std::vector<double>& w, const nlp::Multipliers& m) {
    if (!checkpoints) return;
    try {
      io::write_text_file(start_path,
                          io::mpcc_start_json(o.file, size, w, P.variable_names, &m,
                                              io::StartOrigin{st.sigma, step_label(st), false}, &multiplier_keys));
    } catch (const Error& e) {
      checkpoints = false;
      fmt::print(stderr, "warning: no checkpoints: {}\n", e.what());
    }
  };
  ocp::Result r = !start.empty() ? solver.solve_from(start, start_duals ? &*start_duals : nullptr)
                  : repeated     ? solver.solve_repeating(*repeated->solver)
                                 : solver.solve();
  repeated.reset();  // the shorter problem's solver is done with: its memory for the validation
  if (start_duals && !r.homotopy.duals0_used && !o.quiet)
    fmt::print("note: the multipliers of {} belong to another relaxed NLP (other constraints or options): the first "
               "step started without them\n",
               o.start_file);
  const io::SolveTotals total = io::totals(r, continuation);
  // The σ and step the multipliers belong to.
  io::StartOrigin origin;
  if (r.homotopy.multipliers_step >= 0) {
    const mpcc::StepStats& st = r.homotopy.steps[static_cast<std::size_t>(r.homotopy.multipliers_step)];
    origin.sigma = st.sigma;
    origin.step = step_label(st);
  }
  io::write_text_file(start_path, io::mpcc_start_json(o.file, size, r.w, P.variable_names, &r.homotopy.multipliers,
                                                      origin, &multiplier_keys));
  if (file.time_freezing) {
    // Physical time (the clock), impacts and sanity checks; then the re-simulation check.
    const reformulate::TimeFrozenModel& model = file.time_freezing->frozen;
    // A failed solve: do the speed-of-time bounds or the clock constraints explain it?
    const ocp::SpeedOfTimeDiagnosis diagnosis = ocp::diagnose_speed_of_time(model, solver, r);
    const std::string solver_message = r.message;
    if (!diagnosis.empty()) r.message += "; " + diagnosis.message;
    const ocp::PhysicalResult p = ocp::recover_physical(model, r);
    std::optional<ocp::Validation> v;
    if (file.validate_steps_per_stage > 0) {
      if (!o.quiet)
        fmt::print("validation: re-simulating the optimal controls ({} control stages, {} integrator step(s) each)\n",
                   file.ocp.stages, file.validate_steps_per_stage);
      ocp::ValidationOptions vo = file.validation;  // the file's tolerances
      vo.steps_per_stage = file.validate_steps_per_stage;
      vo.transcription = &solver.transcription();
      if (!o.quiet)
        vo.on_segment = [](const ocp::ValidationSegment& seg) {
          const std::string stages = seg.stages == 1 ? fmt::format("stage {}", seg.first_stage)
                                                     : fmt::format("stages {}-{}", seg.first_stage, seg.last_stage);
          fmt::print("validation: {:<12} {:<14} deviation {:.2e}  residual {:.1e}  {:.1f}s{}\n", stages,
                     seg.converged ? "converged" : "NOT converged", seg.deviation, seg.residual, seg.wall_time_s,
                     seg.how.empty() ? std::string() : " (" + seg.how + ")");
          std::fflush(stdout);
        };
      // The other form of the step DCS (lifted or dense; inelastic cls models only, the others
      // are not lifted) as a second integrator for the stages the file's form does not
      // reproduce (ocp::ValidationOptions::alternative_model).
      std::optional<reformulate::TimeFrozenModel> other_form;
      if (oo.discretization.dcs == reformulate::DcsMode::Step && file.time_freezing->is_cls() && !model.elastic) {
        reformulate::TimeFreezingOptions other = file.time_freezing->options;
        other.lifting = !other.lifting;
        other_form = file.time_freezing->reformulated(other);
        vo.alternative_model = &*other_form;
      }
      v = ocp::validate(model, file.ocp, oo, r, p, vo);
    }
    io::write_text_file((fs::path(dir) / "result.json").string(),
                        io::time_frozen_ocp_result_json(file, r, p, v, diagnosis, continuation));
    io::write_text_file((fs::path(dir) / "trajectory.csv").string(), io::physical_trajectory_csv(p.trajectory));
    io::write_text_file((fs::path(dir) / "events.csv").string(), io::impacts_csv(p.trajectory));
    io::write_text_file((fs::path(dir) / "numerical.csv").string(),
                        io::trajectory_csv(file.model.pss, r.time, r.states));
    fmt::print(
        "{}: {} (objective {:.10g}, final time {:.10g}, residual {:.2e}); {} impacts; after {} NLP solves, "
        "{} IPOPT iterations, {:.3f} s (construction {:.3f} s)\n",
        r.converged ? "converged" : "NOT converged", solver_message, r.objective, p.final_time, r.residual,
        p.trajectory.impacts.size(), total.nlp_solves, total.nlp_iterations, total.wall_time_s, r.construction_time_s);
    if (!diagnosis.empty()) fmt::print("diagnosis: {}\n", diagnosis.message);
    print_largest_pairs(r.homotopy);
    print_largest_violations(r.homotopy);
    for (const auto& w : p.trajectory.warnings) fmt::print("warning: {}\n", w);
    if (v && !v->passed)
      fmt::print("warning: validation failed: {} (result.json: validation)\n", fmt::join(v->failures, "; "));
    if (!p.frozen_stages.empty())
      fmt::print("warning: the clock does not advance in stage(s) {} (0-based): their controls have no physical "
                 "meaning\n",
                 fmt::join(p.frozen_stages, ", "));
    if (!o.quiet) {
      if (v) fmt::print("validation: {} ({:.3f} s)\n", v->message, v->wall_time_s);
      print_contact_events(p.trajectory);
      fmt::print("wrote {}/result.json, trajectory.csv (physical time), numerical.csv, events.csv\n", dir);
    }
    write_report_for(dir, o.quiet);
    return r.converged ? 0 : 1;
  }
  io::write_text_file((fs::path(dir) / "result.json").string(), io::ocp_result_json(file, r, continuation));
  io::write_text_file((fs::path(dir) / "trajectory.csv").string(),
                      io::trajectory_csv(file.model.pss, r.time, r.states));
  io::write_text_file((fs::path(dir) / "events.csv").string(), io::events_csv(r.events));
  fmt::print("{}: {} (objective {:.10g}, final time {:.10g}, residual {:.2e}) after {} NLP solves, {} IPOPT "
             "iterations, {:.3f} s (construction {:.3f} s)\n",
             r.converged ? "converged" : "NOT converged", r.message, r.objective, r.final_time, r.residual,
             total.nlp_solves, total.nlp_iterations, total.wall_time_s, r.construction_time_s);
  print_largest_pairs(r.homotopy);
  print_largest_violations(r.homotopy);
  if (!o.quiet) fmt::print("wrote {}/result.json, trajectory.csv, events.csv\n", dir);
  write_report_for(dir, o.quiet);
  return r.converged ? 0 : 1;
}

int run_check(const CommonOptions& o) {
  std::string kind = io::read_kind(o.file);
  if (kind == "simulate") {
    io::SimulateFile file = io::read_simulate_file(o.file, o.overrides);
    reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, file.discretization.dcs);
    sim::Integrator integrator(dcs, io::integrator_options(file));
    const auto& P = integrator.transcription().problem;
    fmt::print("{}: kind simulate, OK\n  model: {} states, {} controls, {} regions ({} form)\n", o.file, dcs.n_x(),
               dcs.n_u(), dcs.theta.size(), reformulate::to_string(dcs.mode));
    fmt::print("  one step: MPCC with {} variables, {} constraints, {} complementarity pairs; {} steps\n",
               P.n_variables(), P.n_constraints(), P.n_pairs(), file.steps);
    return 0;
  }
  if (kind == "ocp") {
    io::OcpFile file = io::read_ocp_file(o.file, o.overrides);
    check_speed_of_time(file);
    reformulate::Dcs dcs = reformulate::to_dcs(file.model.pss, file.discretization.dcs);
    ocp::Solver solver(dcs, file.ocp, {file.discretization, file.homotopy, file.initialization});
    const auto& P = solver.transcription().problem;
    if (file.initialization.method == ocp::InitializationOptions::Method::Repeat)
      (void)io::read_repeated_problem(file, solver);  // its file read and its layout checked
    fmt::print("{}: kind ocp, OK\n  model: {} states, {} controls, {} regions ({} form)\n", o.file, dcs.n_x(),
               dcs.n_u(), dcs.theta.size(), reformulate::to_string(dcs.mode));
    fmt::print("  MPCC: {} variables, {} constraints, {} complementarity pairs\n", P.n_variables(),
               P.n_constraints(), P.n_pairs());
    return 0;
  }
  io::MpccFile file = io::read_mpcc_file(o.file, o.overrides);
  mpcc::Problem problem = io::build_mpcc(file);
  mpcc::Homotopy homotopy(problem, file.options);  // builds and compiles the relaxed NLP
  nlp::Problem& nlp = homotopy.relaxed();
  nlp.check_bounds();
  std::vector<double> w = nlp.start();
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::clamp(w[i], nlp.variable_lower()[i], nlp.variable_upper()[i]);
  nlp.check_finite_at(w.data());
  fmt::print("{}: kind mpcc, OK\n", o.file);
  fmt::print("  variables {}, constraints {}, complementarity pairs {}\n", problem.n_variables(),
             problem.n_constraints(), problem.n_pairs());
  fmt::print("  relaxed NLP: {} variables, {} rows, Jacobian nnz {}, Hessian nnz {}\n", nlp.n_variables(),
             nlp.n_constraints(), nlp.jacobian_nnz(), nlp.hessian_nnz());
  fmt::print("  start point: objective {:.10g}, complementarity residual {:.3e}\n", problem.objective(problem.start()),
             problem.complementarity_residual(problem.start()));
  return 0;
}

}  // namespace stasis::cli
