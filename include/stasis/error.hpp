#pragma once
// The one exception type stasis throws for anything a user can get wrong.
#include <stdexcept>
#include <string>

namespace stasis {

/// Thrown on invalid input or a failed precondition. The message says what was wrong, where
/// (file:line:column, model item or option name) and, where possible, how to fix it.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace stasis
