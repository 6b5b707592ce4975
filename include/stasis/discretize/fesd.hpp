#pragma once
// discretize::transcribe — FESD (finite elements with switch detection) direct transcription of a
// DCS into an MPCC (fesd.md §2–§4), and standard time stepping with `fesd = false`.
//
// Variables and rows are emitted control stage by control stage and finite element by finite
// element, so the KKT matrix is nearly block-banded. Each finite element is one instance of a
// compiled block kind shared by all elements.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stasis/discretize/butcher.hpp"
#include "stasis/mpcc/problem.hpp"
#include "stasis/reformulate/dcs.hpp"

namespace stasis::discretize {

enum class Representation { Integral, Differential };
enum class CrossComplementarity { StageStage, FeStage, StageFe, FeFe };
/// fesd.md §3.4. direct_complementarity (nosnoc_py's DIRECT_COMPLEMENTARITY, in split form):
/// Δh = Δ⁺ − Δ⁻ with η ⟂ Δ⁺, η ⟂ Δ⁻ relaxed by the homotopy like every other pair, so that step
/// lengths may change exactly where η → 0 (a switch) while σ > 0. nosnoc's `direct` equality
/// η·Δh = 0 admits Δh ≠ 0 only once η is exactly zero, which an interior-point path never
/// reaches from equal steps (see docs).
enum class StepEquilibration {
  None,
  HeuristicMean,
  HeuristicDiff,
  L2Relaxed,
  L2RelaxedScaled,
  Direct,
  DirectComplementarity,
  LinearComplementarity
};
/// Where path constraints hold. Dense: every element end and kDensePathPoints equally spaced
/// points θ = j/(kDensePathPoints + 1) inside every element, on its collocation polynomial through
/// the element's start state and stage values (integral representation), so that a constraint
/// cannot be violated unseen between two element ends (e.g. a foot crossing a hole within one
/// element); ocp::validate checks the same points.
enum class PathAt { StageEnds, Elements, StagePoints, Dense };
constexpr int kDensePathPoints = 4;
/// A sign change of a switching function that does not change the field (reformulate::Dcs::
/// comp_relevance is 0 there): Detect puts it at an element boundary like every switch (nosnoc);
/// Ignore weights the cross complementarity by the relevance, so it may fall inside an element.
enum class SpuriousSwitches { Detect, Ignore };
/// What the switch indicator η of the pairwise step equilibration (fesd.md §3.4) reads in the
/// step DCS. Multipliers ([FESD-H], nosnoc M-new): υ from the λn and λp sums only, so a sliding
/// mode (c = 0, both multipliers 0) counts as a switch and leaves the element lengths free.
/// MultipliersAndAlpha (nosnoc M-legacy): the α and 1 − α sums enter as θ does in the Stewart
/// form, so only an element boundary where a side is entered or left is a switch; a sliding mode
/// that goes on (a foot in stance) ties the lengths. The Stewart form always uses its θ sums.
enum class SwitchIndicator { Multipliers, MultipliersAndAlpha };

const char* to_string(Representation);
const char* to_string(CrossComplementarity);
const char* to_string(StepEquilibration);
const char* to_string(PathAt);
const char* to_string(SpuriousSwitches);
const char* to_string(SwitchIndicator);

/// The `discretization:` options (PROBLEM_FORMAT.md), nosnoc M-new defaults (fesd.md §5.8).
struct Options {
  Scheme scheme = Scheme::RadauIIA;
  int stages = 2;                 ///< RK stages n_s
  int elements = 2;               ///< finite elements per control stage (or integrator step)
  bool fesd = true;               ///< false: standard time stepping (fixed h, stage-wise complementarity)
  reformulate::DcsMode dcs = reformulate::DcsMode::Stewart;
  Representation representation = Representation::Integral;
  CrossComplementarity cross_complementarity = CrossComplementarity::FeStage;
  StepEquilibration step_equilibration = StepEquilibration::HeuristicMean;
  double step_bounds = 1.0;       ///< γ_h: h ∈ [(1−γ_h) h0, (1+γ_h) h0]
  double step_penalty = 1.0;      ///< ρ_h
  double step_equilibration_sigma = 0.1;  ///< σ of l2_relaxed_scaled
  SwitchIndicator switch_indicator = SwitchIndicator::Multipliers;  ///< η of the step DCS (see the enum)
  PathAt path_at = PathAt::StageEnds;
  /// stasis extension: conditions that pin the exit from a sliding mode (docs/guide-pss.md).
  bool exit_conditions = false;
  /// stasis extension (docs/guide-cls.md "Spurious switches"): time-freezing models in the lifted
  /// step form; needs cross_complementarity fe_stage or stage_stage.
  SpuriousSwitches spurious_switches = SpuriousSwitches::Detect;

  /// Throws stasis::Error naming the option when a value is out of range or a combination is not
  /// available (e.g. the integral representation with a Lobatto scheme is switched to
  /// differential instead, as nosnoc does — that is not an error).
  void validate() const;
  /// The representation actually used (Lobatto and explicit schemes force differential).
  Representation effective_representation() const;
};

struct OptionInfo {
  std::string name, default_value, description;
  std::function<void(Options&, const std::string&)> set;
};
const std::vector<OptionInfo>& option_table();
void set_option(Options& options, const std::string& name, const std::string& value);

/// What to transcribe: horizon, control grid, bounds, costs and constraints. Expressions may use
/// the DCS's states and controls.
struct OcpSpec {
  double horizon = 1.0;
  int stages = 1;  ///< control stages N (piecewise-constant controls on an equidistant grid)
  std::vector<double> u_lower, u_upper, u_start;  ///< size n_u (empty = unbounded, start 0)
  std::vector<double> x_lower, x_upper;           ///< state box (empty = unbounded)
  sym::Expr running_cost{0.0};                    ///< Lagrange term, integrated with the RK weights
  sym::Expr terminal_cost{0.0};                   ///< Mayer term at the final state
  sym::Vector path;                               ///< path constraints lower <= g(x, u) <= upper
  std::vector<double> path_lower, path_upper;
  std::vector<std::string> path_names;
  /// Where each path constraint holds (empty, or nullopt for a row: Options::path_at), e.g. an
  /// obstacle at PathAt::Dense and the other rows at the stage ends.
  std::vector<std::optional<PathAt>> path_at;
  sym::Vector terminal;                           ///< terminal constraints on x(T)
  std::vector<double> terminal_lower, terminal_upper;
  std::vector<std::string> terminal_names;
  /// Relaxation of the terminal constraints (fesd.md §4.5): none, or slacks penalized with weight
  /// ρ_T: ell_1 (one slack s_i >= 0 per row, lower − s_i <= g_i <= upper + s_i, ρ Σ s_i), ell_2 (free
  /// s_i, lower <= g_i + s_i <= upper, ρ Σ s_i²), ell_inf (one shared s >= 0, ρ s). The penalty is
  /// a method term, not part of the reported objective.
  enum class TerminalRelaxation { None, Ell1, Ell2, EllInf } terminal_relaxation = TerminalRelaxation::None;
  double terminal_relaxation_weight = 100.0;
  sym::Vector path_G, path_H;                     ///< path complementarity 0 <= G ⟂ H >= 0 at stage points
  /// Initial state: fixed to the DCS's x0 unless x0_free[i] (then within [x0_lower, x0_upper]).
  std::vector<bool> x0_free;
  std::vector<double> x0_lower, x0_upper;
  /// Time-optimal: the physical final time T_f is a variable in [final_time_lower,
  /// final_time_upper] (start `horizon`) added to the objective; the step lengths are physical
  /// and each control stage lasts T_f/N (fesd.md §4.6, "no SOT, time-optimal").
  bool time_optimal = false;
  double final_time_lower = 0.0, final_time_upper = 100.0;

  /// Time-freezing (time_freezing.md §3): the index of the clock state. Then every control stage
  /// gets a speed-of-time variable s_k in [speed_of_time_lower, speed_of_time_upper] that scales the
  /// whole field (ẏ = s_k f), the numerical grid is fixed (Σ_n h_{k,n} = T/N) and the clock meets
  /// the physical grid: t(end of stage k) = t0 + (k+1) T/N (stagewise) or only t_N = t0 + T
  /// (terminal); T is T_final when time-optimal.
  int clock = -1;
  double speed_of_time_lower = 1.0, speed_of_time_upper = 25.0, speed_of_time_start = 1.0;
  double speed_of_time_penalty = 0.0;  ///< ρ_sot Σ (s_k − s_ref)²
  /// s_ref of the penalty (1: nosnoc's ρ_sot Σ (s_k − 1)²); a parameter (IndexMap::
  /// param_speed_of_time_reference), so sim::Options::step_speed_of_time can change it per step.
  double speed_of_time_reference = 1.0;
  /// Heaviside form only: weights w_j of a regularization Σ_stage points w_j α_j (a method term).
  /// Time-freezing uses it on the gap's α: while the gap is exactly zero (a frozen inelastic jump
  /// and the contact phase after it) α_gap is undetermined and the contact phase would otherwise
  /// be produced by α_gap alone, so that the jump end is no element boundary; with the weight the
  /// contact phase uses the normal-velocity α, which cross complementarity separates from the jump.
  std::vector<double> alpha_penalty;
  enum class ClockConstraints { Stagewise, Terminal } clock_constraints = ClockConstraints::Stagewise;
  /// Running cost over physical time (paper eq. 29: weighted by dt/dτ = s·t', the clock's rate) or
  /// nosnoc's numerical form (weighted by s only, so it also accrues while the clock is frozen).
  enum class RunningCost { Physical, Numerical } running_cost_time = RunningCost::Physical;
};

/// Where everything is in the MPCC's variable vector.
struct FiniteElementIndex {
  mpcc::Index h = -1;                 ///< step length variable (-1 without FESD)
  std::vector<mpcc::Index> X;         ///< first index of each stage state X_m, m = 1..n_s (-1 if not a variable)
  std::vector<mpcc::Index> Z;         ///< first index of the algebraics at each stage point m = 1..n_s
  std::vector<mpcc::Index> V;         ///< differential representation: stage derivatives
  mpcc::Index x_end = -1;             ///< first index of the FE-end state
  mpcc::Index z_end = -1;             ///< boundary algebraics (rbp schemes), first index
  /// Parameter: heuristic_mean's nominal length of this element (h0 unless changed, e.g. by
  /// sim::Options::step_nominal_lengths); -1 unless step_equilibration is heuristic_mean.
  mpcc::Index param_h_nominal = -1;
};

struct IndexMap {
  mpcc::Index x0 = -1, z0 = -1;
  mpcc::Index final_time = -1;
  std::vector<mpcc::Index> u;              ///< first index of u_k per stage
  std::vector<mpcc::Index> speed_of_time;  ///< s_k per stage (time-freezing), else empty
  std::vector<std::vector<FiniteElementIndex>> fe;  ///< [stage][element]
  mpcc::Index param_h0 = -1;               ///< nominal step length h0 = T/(N·N_FE) (parameter)
  mpcc::Index param_stage_length = -1;     ///< T/N (parameter)
  mpcc::Index param_rho_h = -1;            ///< ρ_h (parameter)
  /// s_ref of the speed-of-time penalty (parameter; -1 without the penalty).
  mpcc::Index param_speed_of_time_reference = -1;
};

struct Transcription {
  mpcc::Problem problem;
  IndexMap map;
  ButcherTableau tableau;
  Representation representation = Representation::Integral;
  bool rbp = false;  ///< FE-end variables exist (last node is not the end)
  std::size_t n_x = 0, n_u = 0, n_z = 0;
  std::size_t n_boundary_z = 0;  ///< size of each z_end block (rbp schemes): Dcs::boundary_z.size()
};

Transcription transcribe(const reformulate::Dcs& dcs, const OcpSpec& ocp, const Options& options);

/// Copies a solution of one transcription into a start point of another of the same DCS, OCP and
/// grid (stages, elements, scheme): initial states and algebraics, final time, controls, speeds of
/// time, every element's stage, end and boundary values and, when both are FESD, its step length.
/// Everything else in `to_w` (the step lengths of a FESD target of a time-stepping source, method
/// variables such as lifted or slack variables) keeps its value. Used to start FESD
/// from a standard time-stepping solution (ocp::InitializationOptions). Throws stasis::Error if the
/// two grids differ.
void transfer_solution(const Transcription& from, const std::vector<double>& from_w, const Transcription& to,
                       std::vector<double>& to_w);

/// Copies stage `stage` of a solution into a start point of a one-stage transcription of the same
/// DCS with the same elements per stage and scheme (sim::Integrator's step): the stage's initial
/// state, control, speed of time and every element's step length, stage, end and boundary values.
/// time_scale: the target's numerical length of the stage over the source's (an integrator step as
/// long in numerical time as the stage is in physical time); the step lengths are multiplied by
/// it, the speed of time and the stage derivatives divided, so the motion is the same.
/// ocp::validate checks an OCP stage's motion against an integrator step with it. Throws
/// stasis::Error if the target is not such a stage.
void transfer_stage(const Transcription& from, const std::vector<double>& from_w, std::size_t stage,
                    const Transcription& to, std::vector<double>& to_w, double time_scale = 1.0);

/// Copies stage `stage` of a solution into stage `to_stage` of a start point of another
/// transcription of the same DCS with the same elements per stage and scheme, adding
/// `state_shift` (size n_x, or empty for none) to every state value of the stage: its stage and
/// end values and, for to_stage 0, the initial state. The control, speed of time, algebraics, stage
/// derivatives and step lengths are copied as they are; for to_stage 0 also the algebraics at the
/// stage start (a later target stage starts where the one before it ends). Used to start a long
/// horizon from a short one's solution repeated (ocp::repeat_solution). Throws stasis::Error if the
/// stages differ.
void repeat_stage(const Transcription& from, const std::vector<double>& from_w, std::size_t stage,
                  const Transcription& to, std::vector<double>& to_w, std::size_t to_stage,
                  const std::vector<double>& state_shift = {});

/// The physical time grid (FE boundaries, starting at 0) of a solution w.
std::vector<double> time_grid(const Transcription& t, const std::vector<double>& w, const OcpSpec& ocp,
                              const Options& options);

}  // namespace stasis::discretize
