#pragma once
// Problem-file readers (PROBLEM_FORMAT.md). Every error is a stasis::Error whose message starts
// with "file:line:column: error:" (or "command line (-o ...): error:" for an override) and names the
// offending key, name or constraint.
#include <string>
#include <utility>
#include <vector>

#include "stasis/io/expression.hpp"
#include "stasis/mpcc/options.hpp"
#include "stasis/sym/expr.hpp"

namespace stasis::io {

struct MpccVariable {
  std::string name;
  double lower = 0.0;
  double upper = 0.0;
  double start = 0.0;  ///< given, or 0 moved into [lower, upper]
  sym::Expr symbol;
  SourceLocation where;
};

/// lower <= expr <= upper.
struct MpccConstraint {
  sym::Expr expr;
  double lower = 0.0;
  double upper = 0.0;
  std::string text;  ///< as written ("x1 + x2 <= 4"), or "lo <= expr <= hi" for the map form
  SourceLocation where;
};

/// 0 <= G ⟂ H >= 0.
struct MpccPair {
  sym::Expr G, H;
  std::string text;  ///< "[G, H]" as written
  SourceLocation where;
};

struct MpccFile {
  std::string path;                                        ///< display name of the file
  std::string name;                                        ///< optional `name:`
  std::string description;                                 ///< optional `description:`
  std::vector<std::pair<std::string, double>> parameters;  ///< scalar parameters, in order
  std::vector<std::pair<std::string, std::vector<double>>> vector_parameters;  ///< list-valued parameters
  std::vector<MpccVariable> variables;
  std::vector<std::pair<std::string, sym::Expr>> definitions;  ///< named expressions, in order
  sym::Expr objective;
  std::string objective_text;
  SourceLocation objective_where;
  std::vector<MpccConstraint> constraints;
  std::vector<MpccPair> complementarity;
  /// From `options:` via mpcc::set_option (`preset` first, then the rest in file order; a nested
  /// `ipopt:` map sets "ipopt.NAME"), then validated.
  mpcc::HomotopyOptions options;
};

/// Reads a `kind: mpcc` file. `overrides` are "-o" arguments "dotted.path=value" (value parsed as
/// YAML) applied to the YAML tree before it is interpreted, e.g. "options.sigma0=0.5",
/// "variables.x1.start=2", "options.ipopt.max_iter=100", "constraints.0=x1 <= 3".
MpccFile read_mpcc_file(const std::string& path, const std::vector<std::string>& overrides = {});
/// Same, from text; `display_name` stands for the file name in messages.
MpccFile read_mpcc_string(const std::string& yaml_text, const std::string& display_name,
                          const std::vector<std::string>& overrides = {});

/// The problem kinds a file may declare.
const std::vector<std::string>& problem_kinds();
/// The `kind:` of a problem file (one of problem_kinds()); throws if it is missing or unknown.
std::string read_kind(const std::string& path);

}  // namespace stasis::io
