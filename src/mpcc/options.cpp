// The documented option table of the homotopy solver, parsing and presets.
#include "stasis/mpcc/options.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "stasis/error.hpp"
#include "../util/option_parsing.hpp"

namespace stasis::mpcc {

const char* to_string(Relaxation r) {
  switch (r) {
    case Relaxation::ScholtesIneq: return "scholtes_ineq";
    case Relaxation::ScholtesEq: return "scholtes_eq";
    case Relaxation::Ell1Penalty: return "ell1_penalty";
  }
  return "?";
}
const char* to_string(Steering s) {
  switch (s) {
    case Steering::Direct: return "direct";
    case Steering::EllInf: return "ell_inf";
    case Steering::Ell1: return "ell_1";
  }
  return "?";
}
const char* to_string(SigmaUpdate u) { return u == SigmaUpdate::Linear ? "linear" : "superlinear"; }

namespace {

using util::parse_bool;
using util::parse_int;
using util::parse_number;

template <class E>
E parse_enum(const std::string& name, const std::string& v, std::initializer_list<std::pair<const char*, E>> values) {
  std::string allowed;
  for (const auto& [text, e] : values) {
    if (v == text) return e;
    allowed += (allowed.empty() ? "" : ", ") + std::string(text);
  }
  throw Error("option '" + name + "': unknown value '" + v + "'; allowed: " + allowed);
}

std::vector<OptionInfo> make_table() {
  using O = HomotopyOptions;
  std::vector<OptionInfo> t;
  auto num = [&t](const char* name, double O::*field, const char* def, const char* doc) {
    t.push_back({name, def, doc, [field, name](O& o, const std::string& v) { o.*field = parse_number(name, v); }});
  };
  t.push_back({"relaxation", "scholtes_ineq",
               "how each pair 0 <= G ⟂ H >= 0 is relaxed: scholtes_ineq (G·H <= σ), scholtes_eq (G·H = σ), "
               "ell1_penalty (objective + Σ G·H / σ, no rows)",
               [](O& o, const std::string& v) {
                 o.relaxation = parse_enum<Relaxation>("relaxation", v,
                                                       {{"scholtes_ineq", Relaxation::ScholtesIneq},
                                                        {"scholtes_eq", Relaxation::ScholtesEq},
                                                        {"ell1_penalty", Relaxation::Ell1Penalty}});
               }});
  t.push_back({"steering", "direct",
               "homotopy steering: direct (σ in the relaxed rows), ell_inf (one elastic variable s, objective + s/σ), "
               "ell_1 (one elastic variable per pair, objective + Σ s_i/σ)",
               [](O& o, const std::string& v) {
                 o.steering = parse_enum<Steering>(
                     "steering", v, {{"direct", Steering::Direct}, {"ell_inf", Steering::EllInf}, {"ell_1", Steering::Ell1}});
               }});
  num("sigma0", &O::sigma0, "1", "initial relaxation parameter σ0 (> 0)");
  num("kappa", &O::kappa, "0.1", "σ update factor κ in (0, 1): σ ← κσ");
  t.push_back({"update", "linear", "σ update rule: linear (σ ← κσ) or superlinear (σ ← max(σ_N, min(κσ, σ^exponent)))",
               [](O& o, const std::string& v) {
                 o.update = parse_enum<SigmaUpdate>("update", v,
                                                    {{"linear", SigmaUpdate::Linear}, {"superlinear", SigmaUpdate::Superlinear}});
               }});
  num("exponent", &O::exponent, "1.5", "exponent of the superlinear σ update (> 1)");
  num("complementarity_tol", &O::complementarity_tol, "1e-9",
      "converged when max_i G_i·H_i is below this and the last NLP succeeded");
  num("sigma_final", &O::sigma_final, "1e-9", "smallest σ; the effective value is min(0.1·complementarity_tol, sigma_final)");
  t.push_back({"max_steps", "0", "maximum number of homotopy steps; 0 = enough to reach σ_N: ceil(|log(σ_N/σ0)/log κ|) + 1 (nosnoc preset: without the + 1)",
               [](O& o, const std::string& v) { o.max_steps = parse_int("max_steps", v); }});
  num("elastic_min", &O::elastic_min, "0", "lower bound of the elastic variables (steering ell_inf/ell_1)");
  num("elastic_max", &O::elastic_max, "10", "upper bound of the elastic variables");
  num("elastic_start", &O::elastic_start, "1", "start value of the elastic variables at every solve");
  t.push_back({"objective_scaling_direct", "true",
               "steering objective: f + s/σ (true) or σ·f + s (false)",
               [](O& o, const std::string& v) { o.objective_scaling_direct = parse_bool("objective_scaling_direct", v); }});
  t.push_back({"warm_start_duals", "false",
               "start each homotopy step from the previous step's multipliers too",
               [](O& o, const std::string& v) { o.warm_start_duals = parse_bool("warm_start_duals", v); }});
  t.push_back({"warm_first_iter", "0",
               "without warm_start_duals: try each step after the first from the previous step's multipliers "
               "with at most this many IPOPT iterations (going on from where it stopped if it runs out of them) "
               "before the start from zero multipliers (0 = no such try)",
               [](O& o, const std::string& v) { o.warm_first_iter = parse_int("warm_first_iter", v); }});
  t.push_back({"linear_solver", "mumps",
               "IPOPT's linear solver: mumps (Debian's IPOPT), or ma27/ma57/ma86/ma97 when HSL is installed",
               [](O& o, const std::string& v) { o.linear_solver = v; }});
  t.push_back({"max_iter", "500", "IPOPT iteration limit per homotopy step",
               [](O& o, const std::string& v) { o.max_iter = parse_int("max_iter", v); }});
  num("tol", &O::tol, "1e-12", "IPOPT tol, dual_inf_tol and compl_inf_tol of each relaxed NLP");
  num("acceptable_tol", &O::acceptable_tol, "1e-6", "IPOPT acceptable_tol");
  num("timeout", &O::timeout_s, "0",
      "time limit of the whole homotopy in seconds (0 = none): checked on wall time between steps and passed to "
      "IPOPT as max_cpu_time for the remaining time");
  t.push_back({"polish", "false",
               "active-set polishing: after a successful step with residual <= polish_threshold, solve the MPCC "
               "restricted to the branch that step identifies (the smaller side of each pair fixed at 0); stop if "
               "that NLP succeeds with the residual below complementarity_tol, else go on with the homotopy",
               [](O& o, const std::string& v) { o.polish = parse_bool("polish", v); }});
  num("polish_threshold", &O::polish_threshold, "1e-3",
      "largest complementarity residual of a step from which polishing is tried (> 0)");
  t.push_back({"penalty_finish", "false",
               "ℓ1-penalty finish: after a successful step with residual <= penalty_finish_threshold, go on from "
               "its point with the ℓ1 penalty (objective + Σ G·H/σ_p, no complementarity rows), σ_p from "
               "penalty_finish_sigma0 by kappa; stop if that reaches complementarity_tol, else go on with the "
               "homotopy",
               [](O& o, const std::string& v) { o.penalty_finish = parse_bool("penalty_finish", v); }});
  num("penalty_finish_threshold", &O::penalty_finish_threshold, "1e-8",
      "largest complementarity residual of a step from which the ℓ1-penalty finish starts (> 0)");
  num("penalty_finish_sigma0", &O::penalty_finish_sigma0, "0.01",
      "first σ_p of the ℓ1-penalty finish (penalty weight 1/σ_p; >= 0; 0 = the σ of the step it starts from)");
  t.push_back({"preset", "default",
               "default (stasis's settings) or nosnoc (nosnoc's homotopy and IPOPT settings exactly); the preset is "
               "applied first, then the other options",
               [](O& o, const std::string& v) {
                 if (v != "default" && v != "nosnoc")
                   throw Error("option 'preset': unknown value '" + v + "'; allowed: default, nosnoc");
                 o.preset = v;
               }});
  t.push_back({"print_level", "0", "IPOPT print_level (0-12); the CLI's --verbose sets 5",
               [](O& o, const std::string& v) { o.print_level = parse_int("print_level", v); }});
  t.push_back({"ipopt.NAME", "-", "any IPOPT option, passed verbatim, e.g. ipopt.mu_strategy: monotone",
               [](O&, const std::string&) {}});
  return t;
}

}  // namespace

const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> table = make_table();
  return table;
}

void set_option(HomotopyOptions& options, const std::string& name, const std::string& value) {
  if (name.rfind("ipopt.", 0) == 0 && name.size() > 6) {
    options.ipopt[name.substr(6)] = value;
    return;
  }
  for (const auto& info : option_table())
    if (info.name == name && name != "ipopt.NAME") {
      info.set(options, value);
      if (name == "preset") apply_preset(options, value);
      return;
    }
  std::string names;
  for (const auto& info : option_table()) names += (names.empty() ? "" : ", ") + info.name;
  throw Error("unknown homotopy option '" + name + "'; valid options: " + names);
}

void apply_preset(HomotopyOptions& o, const std::string& preset) {
  if (preset == "nosnoc") {
    // nosnoc M-new reg_homotopy defaults (fesd.md §5.4, §5.5, §5.8).
    o.relaxation = Relaxation::ScholtesIneq;
    o.steering = Steering::Direct;
    o.sigma0 = 1.0;
    o.kappa = 0.1;
    o.update = SigmaUpdate::Linear;
    o.exponent = 1.5;
    o.complementarity_tol = 1e-9;
    o.sigma_final = 1e-9;
    o.max_steps = 0;
    o.elastic_min = 0.0;
    o.elastic_max = 10.0;
    o.elastic_start = 1.0;
    o.objective_scaling_direct = true;
    o.warm_start_duals = false;
    o.warm_first_iter = 0;
    o.linear_solver = "mumps";
    o.max_iter = 500;
    o.tol = 1e-12;
    o.acceptable_tol = 1e-6;
    o.polish = false;
    o.penalty_finish = false;
    o.preset = "nosnoc";
  } else if (preset == "default") {
    HomotopyOptions d;
    o.update = d.update;
    o.warm_start_duals = d.warm_start_duals;
    o.warm_first_iter = d.warm_first_iter;
    o.preset = "default";
  } else {
    throw Error("unknown preset '" + preset + "'; allowed: default, nosnoc");
  }
}

void HomotopyOptions::validate() const {
  auto bad = [](const std::string& name, const std::string& why) { throw Error("option '" + name + "' " + why); };
  if (!(sigma0 > 0) || !std::isfinite(sigma0)) bad("sigma0", "must be a positive finite number");
  if (!(kappa > 0 && kappa < 1)) bad("kappa", "must lie in (0, 1)");
  if (!(exponent > 1)) bad("exponent", "must be greater than 1");
  if (!(complementarity_tol > 0)) bad("complementarity_tol", "must be positive");
  if (!(sigma_final > 0)) bad("sigma_final", "must be positive");
  if (max_steps < 0) bad("max_steps", "must be >= 0 (0 = automatic)");
  if (!(elastic_min <= elastic_start && elastic_start <= elastic_max))
    bad("elastic_start", "must lie in [elastic_min, elastic_max]");
  if (max_iter < 0) bad("max_iter", "must be >= 0");
  if (warm_first_iter < 0) bad("warm_first_iter", "must be >= 0 (0 = no first try from the previous multipliers)");
  if (!(tol > 0)) bad("tol", "must be positive");
  if (!(acceptable_tol > 0)) bad("acceptable_tol", "must be positive");
  if (timeout_s < 0) bad("timeout", "must be >= 0");
  if (!(polish_threshold > 0)) bad("polish_threshold", "must be positive");
  if (!(penalty_finish_threshold > 0)) bad("penalty_finish_threshold", "must be positive");
  if (!(penalty_finish_sigma0 >= 0) || !std::isfinite(penalty_finish_sigma0))
    bad("penalty_finish_sigma0", "must be a finite number >= 0 (0 = the σ of the step the finish starts from)");
  if (relaxation == Relaxation::Ell1Penalty && steering != Steering::Direct)
    bad("steering", "must be direct with relaxation ell1_penalty (the penalty has no relaxed rows to steer)");
}

}  // namespace stasis::mpcc
