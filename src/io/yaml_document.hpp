#pragma once
// Private to src/io: a loaded YAML problem file that knows where every node came from (file
// position or a command-line override), plus the schema helpers every problem kind needs
// (ordered map entries, unknown-key errors, expressions and constants read from scalars).
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "stasis/io/expression.hpp"

namespace stasis::io::detail {

/// One key: value pair of a YAML map, in file order.
struct MapEntry {
  std::string key;
  YAML::Node value;
  SourceLocation key_where;    ///< the key in the file, or the override that added it
  SourceLocation value_where;  ///< the value; the key's position when the value is empty
};

class YamlDocument {
 public:
  /// Throws stasis::Error for an unreadable file or a YAML syntax error (with file:line:col).
  static YamlDocument from_file(const std::string& path);
  static YamlDocument from_string(std::string text, std::string display_name);

  const std::string& display_name() const { return name_; }
  const YAML::Node& root() const { return root_; }

  /// Applies `-o a.b.c=value` (value parsed as YAML). `sections` are dotted patterns ('*' matches
  /// any one name, "" is the top level) of maps whose keys come from the schema: those maps may be
  /// created and given new keys, which the reader then validates like keys written in the file. Keys
  /// of any other map (user-chosen names: variables, parameters, ...) must already exist, so a typo
  /// in a name cannot silently add an entry.
  void apply_overrides(const std::vector<std::string>& overrides, const std::vector<std::string>& sections);

  /// Where a node starts (its override when it came from `-o`).
  SourceLocation where(const YAML::Node& node) const;
  /// Maps offsets within a scalar's value to file positions (quotes, escapes, folded lines).
  /// The locator refers to this document's text: use it while the document lives, unmoved.
  Locator locator(const YAML::Node& scalar) const;

  /// The entries of a map in file order; a null node is an empty map. Throws if `map` is not a map
  /// or repeats a key. `what` names the map in messages ("variables", "the mpcc problem").
  std::vector<MapEntry> entries(const YAML::Node& map, const std::string& what) const;
  /// Throws for the first key not in `allowed`, with a suggestion and the list of valid keys.
  void check_keys(const std::vector<MapEntry>& entries, const std::vector<std::string>& allowed,
                  const std::string& what) const;

  /// The text of a scalar; throws if the node is empty, a list or a map.
  std::string scalar(const YAML::Node& node, const SourceLocation& where, const std::string& what) const;
  /// An expression string (or number) parsed in `scope`.
  sym::Expr expression(const YAML::Node& node, const SourceLocation& where, const Scope& scope,
                       const std::string& what) const;
  /// An expression that must fold to a constant (numbers, inf, YAML's .inf, parameters).
  double constant(const YAML::Node& node, const SourceLocation& where, const Scope& scope,
                  const std::string& what) const;

  [[noreturn]] void fail(const SourceLocation& where, const std::string& message) const;

 private:
  struct OverrideNode {
    YAML::Node node;
    std::string arg;
  };
  struct OverrideKey {
    YAML::Node map;
    std::string key;
    std::string arg;
  };

  void apply_override(const std::string& arg, const std::vector<std::vector<std::string>>& sections);
  void remember_override_nodes(const YAML::Node& node, const std::string& arg);
  const std::string* override_of(const YAML::Node& node) const;

  std::string text_;
  std::string name_;
  YAML::Node root_;
  std::vector<OverrideNode> override_nodes_;
  std::vector<OverrideKey> override_keys_;
};

/// The location used for anything that came from `-o arg`.
SourceLocation override_location(const std::string& arg);

}  // namespace stasis::io::detail
