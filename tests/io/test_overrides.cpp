// Command-line overrides (-o dotted.path=value) applied to the YAML tree before interpretation.
#include <gtest/gtest.h>

#include "io_test_support.hpp"

#include <limits>
#include <string>

#include "stasis/error.hpp"
#include "stasis/io/problem_file.hpp"

namespace {

using stasis::Error;
using stasis::io::MpccFile;
using stasis::io::read_mpcc_string;


const std::string kProblem = R"(kind: mpcc
parameters: {a: 2}
variables:
  x1: {lower: 0, start: 0}
  x2: {lower: 0}
  y:
objective: "(x1 - a)^2 + x2"
constraints:
  - "x1 + x2 <= 4"
  - {expr: "x1 - y", lower: -1, upper: 1}
complementarity:
  - [x1, x2]
options: {sigma0: 1}
)";

MpccFile read(const std::vector<std::string>& overrides) {
  return read_mpcc_string(kProblem, "p.yaml", overrides);
}

std::string override_error(const std::vector<std::string>& overrides, const std::string& yaml = kProblem) {
  try {
    read_mpcc_string(yaml, "p.yaml", overrides);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(Overrides, ReplaceExistingValues) {
  const MpccFile f = read({"options.sigma0=0.5", "variables.x1.start=2", "parameters.a=3"});
  EXPECT_EQ(f.options.sigma0, 0.5);
  EXPECT_EQ(f.variables[0].start, 2);
  EXPECT_EQ(f.parameters[0].second, 3);
  EXPECT_DOUBLE_EQ(stasis::sym::evaluate(f.objective, {f.variables[0].symbol, f.variables[1].symbol}, {0, 0}),
                   9);
}

TEST(Overrides, AddSchemaKeys) {
  const MpccFile f = read({"variables.x2.upper=3", "variables.y.lower=-5", "options.kappa=0.2",
                           "options.ipopt.max_iter=100", "constraints.1.upper=2"});
  EXPECT_EQ(f.variables[1].upper, 3);
  EXPECT_EQ(f.variables[2].lower, -5);  // `y:` was empty in the file
  EXPECT_EQ(f.options.kappa, 0.2);
  EXPECT_EQ(f.options.ipopt.at("max_iter"), "100");
  EXPECT_EQ(f.constraints[1].upper, 2);
}

TEST(Overrides, CreateMissingSections) {
  const std::string no_options = "kind: mpcc\nvariables: {x: {}}\nobjective: x^2\n";
  const MpccFile f =
      read_mpcc_string(no_options, "p.yaml", {"options.ipopt.mu_strategy=adaptive", "options.sigma0=2"});
  EXPECT_EQ(f.options.ipopt.at("mu_strategy"), "adaptive");
  EXPECT_EQ(f.options.sigma0, 2);
}

TEST(Overrides, ListElementsAndWholeValues) {
  const MpccFile f = read({"constraints.0=x1 + x2 <= 5", "complementarity.0=[x2, x1]", "objective=x1"});
  EXPECT_EQ(f.constraints[0].upper, 5);
  EXPECT_EQ(f.constraints[0].text, "x1 + x2 <= 5");
  EXPECT_TRUE(stasis::sym::is_same(f.complementarity[0].G, f.variables[1].symbol));
  EXPECT_EQ(f.objective_text, "x1");
}

TEST(Overrides, LaterOverridesWin) {
  const MpccFile f = read({"options.sigma0=0.5", "options.sigma0=0.25"});
  EXPECT_EQ(f.options.sigma0, 0.25);
}

TEST(Overrides, UnknownKeysAreReportedAsComingFromTheCommandLine) {
  std::string m = override_error({"options.sigmaa=0.5"});
  EXPECT_STARTS_WITH(
      m,
      "command line (-o options.sigmaa=0.5): error: unknown key 'sigmaa' in options; did you mean "
      "'sigma0'?");
  m = override_error({"objectve=x1"});
  EXPECT_STARTS_WITH(
      m,
      "command line (-o objectve=x1): error: unknown key 'objectve' in the mpcc problem; did you "
      "mean 'objective'?");
  m = override_error({"variables.x1.lowr=1"});
  EXPECT_STARTS_WITH(m, "command line (-o variables.x1.lowr=1): error: unknown key 'lowr' in variable 'x1'");
  // A user-chosen name must exist: a typo must not add a variable or parameter.
  m = override_error({"variables.x3.start=1"});
  EXPECT_STARTS_WITH(
      m,
      "command line (-o variables.x3.start=1): error: unknown key 'x3' in 'variables'; did you "
      "mean 'x1'?");
  m = override_error({"parameters.b=1"});
  EXPECT_STARTS_WITH(m, "command line (-o parameters.b=1): error: unknown key 'b' in 'parameters'");
  m = override_error({"simulate.steps=200"});
  EXPECT_STARTS_WITH(m,
                     "command line (-o simulate.steps=200): error: unknown key 'simulate' in the top level");
}

TEST(Overrides, BadPathsAndValues) {
  EXPECT_STARTS_WITH(override_error({"sigma0"}), "command line (-o sigma0): error: expected key=value");
  EXPECT_STARTS_WITH(override_error({"=1"}), "command line (-o =1): error: expected key=value");
  EXPECT_STARTS_WITH(override_error({"options..sigma0=1"}),
                     "command line (-o options..sigma0=1): error: empty name");
  EXPECT_STARTS_WITH(
      override_error({"constraints.7=x1 <= 1"}),
      "command line (-o constraints.7=x1 <= 1): error: 'constraints' is a list of 2, expected an "
      "index 0 to 2 - 1");
  EXPECT_STARTS_WITH(override_error({"objective.x=1"}),
                     "command line (-o objective.x=1): error: 'objective' is a single value, not a map");
  EXPECT_STARTS_WITH(override_error({"options.sigma0=[1"}),
                     "command line (-o options.sigma0=[1): error: the value is not valid YAML");
  // Errors inside an overriding value point at the override, with the expression shown.
  const std::string m = override_error({"variables.x1.start=2*b"});
  EXPECT_STARTS_WITH(m, "command line (-o variables.x1.start=2*b): error: unknown name 'b'");
  EXPECT_CONTAINS(m, "\n    2*b\n      ^");
  EXPECT_STARTS_WITH(override_error({"variables.x1.upper=-1"}),
                     "p.yaml:4:3: error: variable 'x1': lower bound 0 > upper bound -1");
  EXPECT_STARTS_WITH(override_error({"options.relaxation=nonsense"}),
                     "command line (-o options.relaxation=nonsense): error: option 'relaxation': ");
}

}  // namespace
