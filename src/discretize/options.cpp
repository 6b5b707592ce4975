// The documented `discretization:` options.
#include <cstdlib>

#include "stasis/discretize/fesd.hpp"
#include "stasis/error.hpp"
#include "../util/option_parsing.hpp"

namespace stasis::discretize {

const char* to_string(Representation r) { return r == Representation::Integral ? "integral" : "differential"; }
const char* to_string(CrossComplementarity c) {
  switch (c) {
    case CrossComplementarity::StageStage: return "stage_stage";
    case CrossComplementarity::FeStage: return "fe_stage";
    case CrossComplementarity::StageFe: return "stage_fe";
    case CrossComplementarity::FeFe: return "fe_fe";
  }
  return "?";
}
const char* to_string(StepEquilibration s) {
  switch (s) {
    case StepEquilibration::None: return "none";
    case StepEquilibration::HeuristicMean: return "heuristic_mean";
    case StepEquilibration::HeuristicDiff: return "heuristic_diff";
    case StepEquilibration::L2Relaxed: return "l2_relaxed";
    case StepEquilibration::L2RelaxedScaled: return "l2_relaxed_scaled";
    case StepEquilibration::Direct: return "direct";
    case StepEquilibration::DirectComplementarity: return "direct_complementarity";
    case StepEquilibration::LinearComplementarity: return "linear_complementarity";
  }
  return "?";
}
const char* to_string(PathAt p) {
  switch (p) {
    case PathAt::StageEnds: return "stage_ends";
    case PathAt::Elements: return "elements";
    case PathAt::StagePoints: return "stage_points";
    case PathAt::Dense: return "dense";
  }
  return "?";
}
const char* to_string(SpuriousSwitches s) { return s == SpuriousSwitches::Ignore ? "ignore" : "detect"; }
const char* to_string(SwitchIndicator s) {
  return s == SwitchIndicator::MultipliersAndAlpha ? "multipliers_and_alpha" : "multipliers";
}

namespace {

using util::parse_bool;
using util::parse_int;
using util::parse_number;

template <class E>
E parse_enum(const std::string& name, const std::string& v, std::initializer_list<E> values) {
  std::string allowed;
  for (E e : values) {
    if (v == to_string(e)) return e;
    allowed += (allowed.empty() ? "" : ", ") + std::string(to_string(e));
  }
  throw Error("option '" + name + "': unknown value '" + v + "'; allowed: " + allowed);
}

std::vector<OptionInfo> make_table() {
  using O = Options;
  std::vector<OptionInfo> t;
  t.push_back({"scheme", "radau_iia",
               "Runge-Kutta scheme: radau_iia (1-9 stages), gauss_legendre (1-9), lobatto_iiia, lobatto_iiic (2-5), "
               "explicit_rk (1-4)",
               [](O& o, const std::string& v) { o.scheme = scheme_from_string(v); }});
  t.push_back({"stages", "2", "Runge-Kutta stages n_s",
               [](O& o, const std::string& v) { o.stages = parse_int("stages", v); }});
  t.push_back({"elements", "2", "finite elements per control stage (or per simulation step)",
               [](O& o, const std::string& v) { o.elements = parse_int("elements", v); }});
  t.push_back({"fesd", "true",
               "finite elements with switch detection (step lengths are variables); false = standard time stepping",
               [](O& o, const std::string& v) { o.fesd = parse_bool("fesd", v); }});
  t.push_back({"dcs", "stewart", "complementarity form of the Filippov system: stewart (θ, λ, μ) or step (α, λn, λp)",
               [](O& o, const std::string& v) {
                 if (v == "stewart") o.dcs = reformulate::DcsMode::Stewart;
                 else if (v == "step" || v == "heaviside") o.dcs = reformulate::DcsMode::Step;
                 else throw Error("option 'dcs': unknown value '" + v + "'; allowed: stewart, step");
               }});
  t.push_back({"representation", "integral",
               "integral (collocation, Radau IIA and Gauss-Legendre only) or differential (stage derivatives); "
               "Lobatto and explicit schemes always use differential",
               [](O& o, const std::string& v) {
                 o.representation = parse_enum("representation", v, {Representation::Integral, Representation::Differential});
               }});
  t.push_back({"cross_complementarity", "fe_stage",
               "cross complementarity: stage_stage, fe_stage, stage_fe, fe_fe (fesd.md §3.3)",
               [](O& o, const std::string& v) {
                 o.cross_complementarity =
                     parse_enum("cross_complementarity", v,
                                {CrossComplementarity::StageStage, CrossComplementarity::FeStage,
                                 CrossComplementarity::StageFe, CrossComplementarity::FeFe});
               }});
  t.push_back({"step_equilibration", "heuristic_mean",
               "step equilibration: none, heuristic_mean, heuristic_diff, l2_relaxed, l2_relaxed_scaled, direct, "
               "direct_complementarity, linear_complementarity (fesd.md §3.4)",
               [](O& o, const std::string& v) {
                 o.step_equilibration = parse_enum(
                     "step_equilibration", v,
                     {StepEquilibration::None, StepEquilibration::HeuristicMean, StepEquilibration::HeuristicDiff,
                      StepEquilibration::L2Relaxed, StepEquilibration::L2RelaxedScaled, StepEquilibration::Direct,
                      StepEquilibration::DirectComplementarity, StepEquilibration::LinearComplementarity});
               }});
  t.push_back({"step_bounds", "1", "γ_h in [0, 1]: element lengths lie in [(1-γ_h) h0, (1+γ_h) h0]",
               [](O& o, const std::string& v) { o.step_bounds = parse_number("step_bounds", v); }});
  t.push_back({"step_penalty", "1", "ρ_h, weight of the step equilibration",
               [](O& o, const std::string& v) { o.step_penalty = parse_number("step_penalty", v); }});
  t.push_back({"step_equilibration_sigma", "0.1", "σ of l2_relaxed_scaled: weight tanh(η/σ)",
               [](O& o, const std::string& v) { o.step_equilibration_sigma = parse_number("step_equilibration_sigma", v); }});
  t.push_back({"switch_indicator", "multipliers",
               "what η of the pairwise step equilibration (l2_relaxed, l2_relaxed_scaled, direct, "
               "direct_complementarity, linear_complementarity) reads in dcs: step: multipliers (the λn, λp sums; "
               "[FESD-H], nosnoc's default: a sliding mode counts as a switch, its element lengths stay free) or "
               "multipliers_and_alpha (also the α, 1-α sums, nosnoc's legacy form: a sliding mode that goes on, "
               "e.g. a foot in stance, ties the lengths; not with linear_complementarity); dcs: stewart always reads "
               "its θ sums",
               [](O& o, const std::string& v) {
                 o.switch_indicator = parse_enum("switch_indicator", v,
                                                 {SwitchIndicator::Multipliers, SwitchIndicator::MultipliersAndAlpha});
               }});
  t.push_back({"exit_conditions", "false",
               "stasis extension: per element, λ must not start decreasing from a zero and θ extrapolated to the "
               "element end must be >= 0, which pins the exit from a sliding mode (FESD alone does not)",
               [](O& o, const std::string& v) { o.exit_conditions = parse_bool("exit_conditions", v); }});
  t.push_back({"spurious_switches", "detect",
               "stasis extension for time-freezing models (dcs: step, lifted): detect (every sign change of a "
               "switching function at an element boundary, nosnoc) or ignore (one that does not change the field, "
               "e.g. a foot's normal velocity at the top of a flight, may fall inside an element; fe_stage or "
               "stage_stage cross complementarity)",
               [](O& o, const std::string& v) {
                 o.spurious_switches =
                     parse_enum("spurious_switches", v, {SpuriousSwitches::Detect, SpuriousSwitches::Ignore});
               }});
  t.push_back({"path_at", "stage_ends",
               "where path constraints hold: stage_ends, elements (every element end), stage_points (every RK stage "
               "point; integral representation) or dense (every element end and 4 equally spaced points inside "
               "every element on its collocation polynomial; integral representation)",
               [](O& o, const std::string& v) {
                 o.path_at = parse_enum("path_at", v,
                                        {PathAt::StageEnds, PathAt::Elements, PathAt::StagePoints, PathAt::Dense});
               }});
  return t;
}

}  // namespace

const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> table = make_table();
  return table;
}

void set_option(Options& options, const std::string& name, const std::string& value) {
  util::set_from_table(option_table(), "discretization", options, name, value);
}

Representation Options::effective_representation() const {
  if (scheme == Scheme::RadauIIA || scheme == Scheme::GaussLegendre) return representation;
  return Representation::Differential;
}

void Options::validate() const {
  if (stages < min_stages(scheme) || stages > max_stages(scheme))
    throw Error("option 'stages': " + std::string(to_string(scheme)) + " takes " + std::to_string(min_stages(scheme)) +
                " to " + std::to_string(max_stages(scheme)) + " stages, not " + std::to_string(stages));
  if (elements < 1) throw Error("option 'elements' must be at least 1, not " + std::to_string(elements));
  if (!(step_bounds >= 0.0 && step_bounds <= 1.0))
    throw Error("option 'step_bounds' (γ_h) must lie in [0, 1], not " + std::to_string(step_bounds));
  if (!(step_penalty >= 0.0)) throw Error("option 'step_penalty' must be >= 0");
  if (!(step_equilibration_sigma > 0.0)) throw Error("option 'step_equilibration_sigma' must be > 0");
  if (spurious_switches == SpuriousSwitches::Ignore && cross_complementarity != CrossComplementarity::FeStage &&
      cross_complementarity != CrossComplementarity::StageStage)
    throw Error(std::string("option 'spurious_switches: ignore' weights the cross complementarity of each stage "
                            "point's θ, which cross_complementarity ") +
                to_string(cross_complementarity) + " sums: use fe_stage or stage_stage");
  if (switch_indicator == SwitchIndicator::MultipliersAndAlpha && dcs == reformulate::DcsMode::Step &&
      step_equilibration == StepEquilibration::LinearComplementarity)
    throw Error("option 'switch_indicator: multipliers_and_alpha' is not available with step_equilibration "
                "linear_complementarity in dcs: step (its relaxed problems end infeasible on a sliding mode); use "
                "direct, direct_complementarity, l2_relaxed or l2_relaxed_scaled, or dcs: stewart");
  if ((path_at == PathAt::StagePoints || path_at == PathAt::Dense) &&
      effective_representation() != Representation::Integral)
    throw Error(std::string("option 'path_at: ") + to_string(path_at) +
                "' needs stage states as variables: use representation: integral with radau_iia or gauss_legendre");
}

}  // namespace stasis::discretize
