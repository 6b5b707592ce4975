#pragma once
// Private to src/io: schema pieces shared by the problem-file readers of every kind (mpcc,
// simulate, ocp): the one namespace of declared names, bounds checks, parameters and definitions,
// constraints "a <= b" / {expr, lower, upper}, complementarity pairs and the homotopy options map.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "stasis/io/expression.hpp"
#include "stasis/mpcc/options.hpp"
#include "yaml_document.hpp"

namespace stasis::io::detail {

/// Shortest text that reads back as the same double ("inf", "-inf" for infinities).
std::string num(double v);

/// The entry with this key, or nullptr.
const MapEntry* find_entry(const std::vector<MapEntry>& entries, const std::string& key);

/// Where an options validate() message belongs: the value of the (last) entry whose option it
/// names ("option 'key'"), else `fallback`.
SourceLocation named_option_location(const std::string& message, const std::vector<MapEntry>& entries,
                                     const SourceLocation& fallback);

/// Every name a file declares (parameters, variables, states, controls, definitions) shares one
/// scope; this checks that a new name is an identifier, not reserved and not declared before.
class Names {
 public:
  explicit Names(const YamlDocument& doc) : doc_(doc) {}

  /// A name no declaration may take; `why` completes "... is reserved: <why>".
  void reserve(const std::string& name, const std::string& why) { reserved_[name] = why; }
  /// `kind` names the declaration in messages ("parameter", "state", ...).
  void check(const std::string& name, const SourceLocation& where, const std::string& kind);
  void check(const MapEntry& e, const std::string& kind) { check(e.key, e.key_where, kind); }
  /// The declaration kind of `name` ("state", ...), or "" if it is not declared.
  std::string kind_of(const std::string& name) const;

 private:
  const YamlDocument& doc_;
  std::map<std::string, std::pair<std::string, SourceLocation>> declared_;
  std::map<std::string, std::string> reserved_;
};

/// Throws unless lower <= upper, lower < +inf and upper > -inf.
void check_bounds(const YamlDocument& doc, const SourceLocation& where, const std::string& what, double lower,
                  double upper);

/// `parameters:` — name: constant, or name: [constants] (a vector, indexable as name[i]).
void read_parameters(const YamlDocument& doc, const MapEntry& section, Names& names, Scope& scope,
                     std::vector<std::pair<std::string, double>>& scalars,
                     std::vector<std::pair<std::string, std::vector<double>>>& vectors);

/// `definitions:` — name: expression, or name: [expressions], in order, each usable by later ones.
void read_definitions(const YamlDocument& doc, const MapEntry& section, Names& names, Scope& scope,
                      std::vector<std::pair<std::string, sym::Expr>>& scalars);

/// An integer-valued constant (e.g. `steps: 20`).
int integer(const YamlDocument& doc, const YAML::Node& node, const SourceLocation& where, const Scope& scope,
            const std::string& what);
/// true/false (also yes/no, on/off, as YAML 1.1 spells them).
bool boolean(const YamlDocument& doc, const YAML::Node& node, const SourceLocation& where,
             const std::string& what);

/// lower <= expr <= upper, with the text as written and where it was written.
struct ConstraintText {
  sym::Expr expr;
  double lower = 0.0;
  double upper = 0.0;
  std::string text;
  SourceLocation where;
  std::string at;           ///< the map form's `at` (allow_at only), empty if not given
  SourceLocation at_where;
};
/// A list item "a <= b" (a relation, see parse_relation) or {expr, lower, upper} (and `at` if
/// allow_at: a path constraint's placement). `what` names it in messages ("constraint 0").
ConstraintText read_constraint(const YamlDocument& doc, const YAML::Node& item, const std::string& what,
                               const Scope& scope, bool allow_at = false);

/// 0 <= G ⟂ H >= 0 from a list item [G, H].
struct PairText {
  sym::Expr G, H;
  std::string text;
  SourceLocation where;
};
PairText read_pair(const YamlDocument& doc, const YAML::Node& item, const std::string& what,
                   const Scope& scope);

/// A map of homotopy (mpcc) options: `preset` first, then the rest in file order; a nested
/// `ipopt:` map (or flat `ipopt.NAME` keys) sets IPOPT options; then validated. `what` is the
/// section's name in messages ("options", "homotopy").
void read_homotopy_options(const YamlDocument& doc, const MapEntry& section, const std::string& what,
                           mpcc::HomotopyOptions& options);

}  // namespace stasis::io::detail
