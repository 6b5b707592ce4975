#include "option_parsing.hpp"

#include <cctype>
#include <cstdlib>
#include <limits>

#include "stasis/error.hpp"

namespace stasis::util {

double parse_number(const std::string& name, const std::string& v) {
  std::string s = v;
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "inf" || s == "+inf" || s == ".inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf" || s == "-.inf") return -std::numeric_limits<double>::infinity();
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') throw Error("option '" + name + "': '" + v + "' is not a number");
  return d;
}

int parse_int(const std::string& name, const std::string& v) {
  char* end = nullptr;
  long i = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') throw Error("option '" + name + "': '" + v + "' is not an integer");
  return static_cast<int>(i);
}

bool parse_bool(const std::string& name, const std::string& v) {
  if (v == "true" || v == "yes" || v == "on" || v == "1") return true;
  if (v == "false" || v == "no" || v == "off" || v == "0") return false;
  throw Error("option '" + name + "': '" + v + "' is not a boolean (true or false)");
}

}  // namespace stasis::util
