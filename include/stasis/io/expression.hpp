#pragma once
// Expression strings of problem files ("(x1 - 1)^2 + sin(t)") parsed into sym::Expr
// (PROBLEM_FORMAT.md: + - * / ^, unary minus, parentheses, numbers, names, pi, the listed
// functions, x[i] indexing). Errors are stasis::Error with "file:line:column: error: ..." and the
// offending part of the expression underlined.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"

namespace stasis::io {

/// A position in a problem file; 1-based. line == 0: unknown (only `file` is meaningful, e.g. a
/// command-line override); column == 0: the whole line.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

/// "file:line:col", "file:line" or "file" depending on what is known.
std::string to_string(const SourceLocation& where);

/// "<where>: error: <message>", the prefix every problem-file error starts with.
std::string error_message(const SourceLocation& where, const std::string& message);

/// Maps a character offset within an expression string to its position in the source (a YAML
/// scalar may be quoted or span several lines, so this is not always a plain column shift).
using Locator = std::function<SourceLocation(std::size_t offset)>;

/// A locator for text that starts at `where`: offsets move the column, newlines the line.
Locator text_locator(const std::string& text, const SourceLocation& where);

/// Names visible to expressions: scalars (symbols, parameter constants, definitions) and vectors
/// (indexable as name[i], 0-based). Reserved names (functions, pi, inf) cannot be defined.
class Scope {
 public:
  /// Throws stasis::Error if the name is not an identifier, is reserved or is already defined.
  void define(const std::string& name, sym::Expr value);
  void define_vector(const std::string& name, sym::Vector values);

  bool contains(const std::string& name) const;
  /// nullptr if `name` is not a scalar of this scope.
  const sym::Expr* find(const std::string& name) const;
  /// nullptr if `name` is not a vector of this scope.
  const sym::Vector* find_vector(const std::string& name) const;
  /// Every defined name, in definition order.
  const std::vector<std::string>& names() const { return order_; }

 private:
  void check_new_name(const std::string& name) const;

  std::map<std::string, sym::Expr> scalars_;
  std::map<std::string, sym::Vector> vectors_;
  std::vector<std::string> order_;
};

/// True for [A-Za-z_][A-Za-z0-9_]*.
bool is_identifier(const std::string& name);
/// Names with a fixed meaning in expressions: the functions, `pi` and `inf`.
bool is_reserved_name(const std::string& name);
/// The functions expressions may call, in the documented order.
const std::vector<std::string>& function_names();

/// The candidate closest to `name` by edit distance if that distance is at most 2 (and smaller
/// than both lengths, so that "a" does not suggest "b"); empty if none is close.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);
/// "; did you mean 'x'?" or "" (for appending to a message).
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

/// Parse a whole expression; `where` is the position of its first character.
sym::Expr parse_expression(const std::string& text, const Scope& scope, const SourceLocation& where);
/// Parse a whole expression; `locate` maps offsets within `text` to source positions.
sym::Expr parse_expression(const std::string& text, const Scope& scope, const Locator& locate);
/// Parse text[begin, end) as one expression; offsets given to `locate` are relative to `text`.
sym::Expr parse_expression(const std::string& text, std::size_t begin, std::size_t end, const Scope& scope,
                           const Locator& locate);

/// A constraint string: lower <= expr <= upper (bounds may be infinite).
struct Relation {
  sym::Expr expr;
  double lower = 0.0;
  double upper = 0.0;
};

/// Parse "a <= b", "a >= b", "a == b" or a chain "lo <= e <= hi" / "hi >= e >= lo" (lo, hi
/// constant). "a <= b" is expr = a - b with upper bound 0, unless one side is a constant: then the
/// other side stays alone and the constant becomes the bound ("x1 + x2 <= 4" -> x1 + x2 <= 4), which
/// keeps linear rows readable and single-variable bounds recognizable. Throws stasis::Error for a
/// missing or strict comparison, non-constant chain ends, or a constraint that is constant.
Relation parse_relation(const std::string& text, const Scope& scope, const Locator& locate);

}  // namespace stasis::io
