#pragma once
#include <string>

namespace stasis {
/// The library's version, "MAJOR.MINOR.PATCH".
std::string version();
}  // namespace stasis
