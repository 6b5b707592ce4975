// The `initialization:` options of ocp files: table, parsing and checks.
#include <cmath>

#include "stasis/error.hpp"
#include "stasis/ocp/solver.hpp"
#include "../util/option_parsing.hpp"

namespace stasis::ocp {

const char* to_string(InitializationOptions::Method method) {
  switch (method) {
    case InitializationOptions::Method::Smoothed: return "smoothed";
    case InitializationOptions::Method::Relaxed: return "relaxed";
    case InitializationOptions::Method::Repeat: return "repeat";
    case InitializationOptions::Method::Nominal: break;
  }
  return "nominal";
}

namespace {

// "[5, 6, 7]", "5,6,7" or "" -> {5, 6, 7}.
std::vector<int> parse_index_list(const std::string& option, const std::string& text) {
  std::string t;
  for (char c : text)
    if (c != '[' && c != ']' && c != ' ') t += c;
  std::vector<int> out;
  std::size_t start = 0;
  while (start < t.size()) {
    std::size_t end = t.find(',', start);
    if (end == std::string::npos) end = t.size();
    const int i = util::parse_int(option, t.substr(start, end - start));
    if (i < 0) throw Error("option '" + option + "': position " + std::to_string(i) + " is negative");
    out.push_back(i);
    start = end + 1;
  }
  return out;
}

// "qx=1, qz=0.5" or "" -> {{"qx", 1}, {"qz", 0.5}} (problem files give a mapping {qx: 1}).
std::vector<std::pair<std::string, double>> parse_shift(const std::string& text) {
  std::vector<std::pair<std::string, double>> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item;
    for (char c : text.substr(start, end - start))
      if (c != ' ' && c != '{' && c != '}') item += c;
    start = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find_first_of("=:");
    if (eq == std::string::npos || eq == 0)
      throw Error("option 'shift': '" + item + "' is not 'state=value' (e.g. shift: {qx: 1})");
    out.emplace_back(item.substr(0, eq), util::parse_number("shift", item.substr(eq + 1)));
  }
  return out;
}

std::vector<InitializationOptionInfo> make_table() {
  using O = InitializationOptions;
  std::vector<InitializationOptionInfo> t;
  auto num = [&t](const char* name, double O::*field, const char* def, const char* doc) {
    t.push_back({name, def, doc, [field, name](O& o, const std::string& v) { o.*field = util::parse_number(name, v); }});
  };
  t.push_back({"method", "nominal",
               "start of the homotopy: nominal (states at x0, controls at their start values), smoothed "
               "(phase 1: standard time stepping with G·H = σ from the nominal guess, then the homotopy "
               "from its solution; set homotopy.sigma0 near sigma_final), relaxed (phase 1: the homotopy "
               "itself without omit_path_constraints, from the nominal guess; then the homotopy with them "
               "from its solution; set homotopy.sigma0 below sigma_final) or repeat (the solution of a shorter "
               "problem of the same model, `problem`, repeated to fill the horizon: its stages, then those from "
               "from_stage on again and again with the states of `shift` moved per repetition; the homotopy "
               "from there)",
               [](O& o, const std::string& v) {
                 if (v == "nominal") o.method = O::Method::Nominal;
                 else if (v == "smoothed") o.method = O::Method::Smoothed;
                 else if (v == "relaxed") o.method = O::Method::Relaxed;
                 else if (v == "repeat") o.method = O::Method::Repeat;
                 else throw Error("option 'method': unknown value '" + v +
                                  "'; allowed: nominal, smoothed, relaxed, repeat");
               }});
  num("sigma0", &O::sigma0, "0.01", "first σ of phase 1 (> 0)");
  num("kappa", &O::kappa, "0.1", "phase-1 σ update factor in (0, 1): σ ← κσ");
  num("sigma_final", &O::sigma_final, "1e-06", "last σ of phase 1 (> 0, <= sigma0)");
  t.push_back({"max_iter", "0", "IPOPT iteration limit per phase-1 step; 0 = homotopy.max_iter",
               [](O& o, const std::string& v) { o.max_iter = util::parse_int("max_iter", v); }});
  num("tol", &O::tol, "0", "IPOPT tol (and dual_inf_tol, compl_inf_tol) of the phase-1 steps; 0 = homotopy.tol");
  t.push_back({"warm_first_iter", "0",
               "homotopy.warm_first_iter of the phase-1 steps (0 = none; the homotopy's own does not carry over)",
               [](O& o, const std::string& v) { o.warm_first_iter = util::parse_int("warm_first_iter", v); }});
  t.push_back({"relaxation", "homotopy",
               "relaxation of the relaxed phase 1: homotopy (the same as homotopy.relaxation), "
               "scholtes_ineq, scholtes_eq or ell1_penalty (the smoothed phase 1 always uses G·H = σ)",
               [](O& o, const std::string& v) {
                 if (v == "homotopy") {
                   o.relaxation.reset();
                   return;
                 }
                 mpcc::HomotopyOptions h;  // the homotopy's own parser for the other names
                 try {
                   mpcc::set_option(h, "relaxation", v);
                 } catch (const Error&) {
                   throw Error("option 'relaxation': unknown value '" + v +
                               "'; allowed: homotopy, scholtes_ineq, scholtes_eq, ell1_penalty");
                 }
                 o.relaxation = h.relaxation;
               }});
  t.push_back({"omit_path_constraints", "[]",
               "positions (0-based) in ocp.constraints.path of the constraints phase 1 leaves out, e.g. "
               "obstacles the nominal guess cannot get around; the homotopy has them all",
               [](O& o, const std::string& v) { o.omit_path_constraints = parse_index_list("omit_path_constraints", v); }});
  t.push_back({"problem", "-",
               "method repeat: the shorter problem's file (kind ocp, the same model, discretization and "
               "control stage length; a path relative to the file naming it), solved first from its own "
               "initialization",
               [](O& o, const std::string& v) { o.problem = v; }});
  t.push_back({"from_stage", "0",
               "method repeat: the first stage (0-based) of the shorter problem that is repeated after its "
               "last; the stages before it (e.g. a start from rest) appear once",
               [](O& o, const std::string& v) { o.from_stage = util::parse_int("from_stage", v); }});
  t.push_back({"shift", "{}",
               "method repeat: states moved per repetition, e.g. {qx: 1} (the distance one repetition "
               "covers); time-frozen models' clock moves by the repeated stages' length by itself",
               [](O& o, const std::string& v) { o.shift = parse_shift(v); }});
  return t;
}

}  // namespace

const std::vector<InitializationOptionInfo>& initialization_option_table() {
  static const std::vector<InitializationOptionInfo> table = make_table();
  return table;
}

void set_initialization_option(InitializationOptions& options, const std::string& name, const std::string& value) {
  util::set_from_table(initialization_option_table(), "initialization", options, name, value);
}

void InitializationOptions::validate() const {
  const auto positive = [](const char* name, double v) {
    if (!(v > 0.0) || !std::isfinite(v))
      throw Error(std::string("option '") + name + "' must be a finite number > 0");
  };
  positive("sigma0", sigma0);
  positive("sigma_final", sigma_final);
  if (sigma_final > sigma0)
    throw Error("option 'sigma_final' (" + std::to_string(sigma_final) + ") must not exceed sigma0 (" +
                std::to_string(sigma0) + ")");
  if (!(kappa > 0.0 && kappa < 1.0)) throw Error("option 'kappa' must lie in (0, 1)");
  if (max_iter < 0) throw Error("option 'max_iter' must be >= 0 (0 = homotopy.max_iter)");
  if (warm_first_iter < 0) throw Error("option 'warm_first_iter' must be >= 0 (0 = none)");
  if (from_stage < 0) throw Error("option 'from_stage' must be >= 0");
  for (const auto& [name, value] : shift)
    if (!std::isfinite(value)) throw Error("option 'shift': the shift of '" + name + "' must be finite");
  if (method == Method::Repeat && problem.empty())
    throw Error("option 'problem' must name the shorter problem's file for method repeat");
  if (!(tol >= 0.0) || !std::isfinite(tol)) throw Error("option 'tol' must be a finite number >= 0 (0 = homotopy.tol)");
}

}  // namespace stasis::ocp
