#pragma once
// Helpers shared by the tests of the file readers (tests/io): string assertions for error messages
// and the message of a simulate/ocp text that must be rejected.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stasis/error.hpp"
#include "stasis/io/model_file.hpp"

#define EXPECT_CONTAINS(str, part) EXPECT_NE((str).find(part), std::string::npos) << (str)
#define EXPECT_STARTS_WITH(str, prefix) \
  EXPECT_EQ((str).substr(0, std::string(prefix).size()), prefix) << (str)

namespace io_test {

/// The error message of reading `yaml` as a kind: simulate file named p.yaml; a test failure if it
/// is accepted.
inline std::string simulate_error(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    stasis::io::read_simulate_string(yaml, "p.yaml", overrides);
  } catch (const stasis::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << yaml;
  return "";
}

/// The same for a kind: ocp file.
inline std::string ocp_error(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    stasis::io::read_ocp_string(yaml, "p.yaml", overrides);
  } catch (const stasis::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << yaml;
  return "";
}

}  // namespace io_test
