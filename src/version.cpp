#include "stasis/version.hpp"

namespace stasis {
std::string version() { return STASIS_VERSION; }
}  // namespace stasis
