#pragma once
// Private to src/io: pieces of the `model:` readers shared by the pss reader (model_file.cpp) and
// the cls / jump readers with the `time_freezing:` section (cls_file.cpp).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "file_schema.hpp"
#include "stasis/io/model_file.hpp"
#include "yaml_document.hpp"

namespace stasis::io::detail {

/// Everything the model section declares, for the rest of the file.
struct ModelScope {
  explicit ModelScope(const YamlDocument& doc) : names(doc) {}
  Names names;
  Scope scope;
  sym::Expr time;  ///< what `t` means: a fresh symbol, or the clock state
  bool time_is_clock = false;
  /// The states of the model (without an added physical-time state `t`; with the clock `t`, last,
  /// for cls / jump models once they are built).
  std::vector<std::string> states;
};

std::string join(const std::vector<std::string>& names);
/// "1 entry", "3 entries".
std::string counted(std::size_t n, const std::string& one, const std::string& many);
/// "1 state", "3 states".
std::string plural(std::size_t n, const std::string& word);
/// The position of `name` in `names`, or names.size() if it is not there.
std::size_t index_of(const std::vector<std::string>& names, const std::string& name);

/// A list of names (states: [x, v]); null = empty.
std::vector<std::pair<std::string, SourceLocation>> name_list(const YamlDocument& doc, const MapEntry& e,
                                                              const std::string& what);

/// A non-empty list of expressions; `size` > 0: it must have exactly that many (`size_what` says why).
sym::Vector expression_list(const YamlDocument& doc, const YAML::Node& node, const SourceLocation& at,
                            const Scope& scope, const std::string& what, std::size_t size = 0,
                            const std::string& size_what = "");

/// `x0:` as a list in the order of `states` or a map {state: value} naming every state. `owner`
/// names the model in messages ("the pss model"); `owner_where` is used when x0 is missing.
std::vector<double> read_initial_state(const YamlDocument& doc, const MapEntry* x0,
                                       const SourceLocation& owner_where, const std::string& owner,
                                       const std::vector<std::string>& states, const Scope& scope);

/// `model: {cls: ...}` or `model: {jump: ...}` (`kind` is that entry) with the top level's
/// `time_freezing:` section (`section`, may be null): reads the model, builds the time-frozen
/// PSS into `model.pss` and fills `out`. `simulate`: the file is a kind: simulate (ocp-only
/// time-freezing keys are rejected). `name` is the file's `name:` (may be empty). Afterwards
/// ms.states = the PSS's state names (clock `t` last) and `t` is the clock in ms.scope.
/// `stewart`: the file asks for dcs: stewart (the inelastic Cls is then reformulated without lifting).
void read_time_frozen_model(const YamlDocument& doc, const MapEntry& kind, const MapEntry* section,
                            bool simulate, bool stewart, const std::string& name, ModelScope& ms,
                            PssModelFile& model, TimeFreezingFile& out);

/// kind: simulate with a time-frozen model whose jumps have a known length (elastic cls, jump
/// model with the built-in spring-damper): throws, located at `steps`, if a step cannot hold a
/// jump, i.e. speed_of_time.upper * h < h + tau_jump with h = horizon / steps.
void check_steps_hold_jumps(const YamlDocument& doc, const TimeFreezingFile& tf, double horizon, int steps,
                            const MapEntry& steps_entry);

}  // namespace stasis::io::detail
