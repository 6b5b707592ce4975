#pragma once
// Parsing of option values given as text (problem files, -o overrides), shared by the option
// tables of every layer. Errors name the option and the rejected text.
#include <string>

namespace stasis::util {

/// A number; also accepts inf, +inf, -inf, .inf and -.inf (case-insensitive).
double parse_number(const std::string& option, const std::string& value);
int parse_int(const std::string& option, const std::string& value);
/// true/yes/on/1 or false/no/off/0.
bool parse_bool(const std::string& option, const std::string& value);

}  // namespace stasis::util
