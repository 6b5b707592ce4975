#pragma once
// Parsing of option values given as text (problem files, -o overrides), shared by the option
// tables of every layer. Errors name the option and the rejected text.
#include <string>

#include "stasis/error.hpp"

namespace stasis::util {

/// A number; also accepts inf, +inf, -inf, .inf and -.inf (case-insensitive).
double parse_number(const std::string& option, const std::string& value);
int parse_int(const std::string& option, const std::string& value);
/// true/yes/on/1 or false/no/off/0.
bool parse_bool(const std::string& option, const std::string& value);

/// Sets option `name` through its row of an option table (rows with `name` and `set`); an unknown
/// name throws "unknown <section> option 'name'; valid options: a, b, ...".
template <class Table, class Options>
void set_from_table(const Table& table, const std::string& section, Options& options, const std::string& name,
                    const std::string& value) {
  std::string names;
  for (const auto& row : table) {
    if (row.name == name) {
      row.set(options, value);
      return;
    }
    names += (names.empty() ? "" : ", ") + row.name;
  }
  throw Error("unknown " + section + " option '" + name + "'; valid options: " + names);
}

}  // namespace stasis::util
