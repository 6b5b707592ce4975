// kind: mpcc reader: the example files, the format's features, and one test per error case.
#include <gtest/gtest.h>

#include "io_test_support.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <string>

#include "stasis/error.hpp"
#include "stasis/io/problem_file.hpp"

namespace {

using stasis::Error;
using stasis::io::MpccFile;
using stasis::io::read_mpcc_file;
using stasis::io::read_mpcc_string;
namespace sym = stasis::sym;

constexpr double kInf = std::numeric_limits<double>::infinity();


std::string example(const std::string& name) {
  return std::string(STASIS_SOURCE_DIR) + "/examples/mpcc/" + name;
}

// The message of the error reading `yaml` throws.
std::string read_error(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    read_mpcc_string(yaml, "p.yaml", overrides);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << yaml;
  return "";
}

// Values of the variables by name, in declaration order of the file.
std::vector<double> point(const MpccFile& f, const std::map<std::string, double>& values) {
  std::vector<double> x;
  for (const auto& v : f.variables) {
    const auto it = values.find(v.name);
    if (it == values.end()) ADD_FAILURE() << "no value for " << v.name;
    x.push_back(it == values.end() ? 0.0 : it->second);
  }
  return x;
}

sym::Vector symbols(const MpccFile& f) {
  sym::Vector s;
  for (const auto& v : f.variables) s.push_back(v.symbol);
  return s;
}

// Checks that `x` is feasible for the file's problem and has objective f_star: this verifies the
// known solutions written in the examples' headers.
void expect_solution(const MpccFile& f, const std::map<std::string, double>& values, double f_star) {
  const std::vector<double> x = point(f, values);
  const sym::Vector s = symbols(f);
  constexpr double tol = 1e-12;
  EXPECT_NEAR(sym::evaluate(f.objective, s, x), f_star, tol) << f.path;
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_GE(x[i], f.variables[i].lower - tol) << f.variables[i].name;
    EXPECT_LE(x[i], f.variables[i].upper + tol) << f.variables[i].name;
  }
  for (const auto& c : f.constraints) {
    const double g = sym::evaluate(c.expr, s, x);
    EXPECT_GE(g, c.lower - tol) << c.text;
    EXPECT_LE(g, c.upper + tol) << c.text;
  }
  for (const auto& p : f.complementarity) {
    const double G = sym::evaluate(p.G, s, x), H = sym::evaluate(p.H, s, x);
    EXPECT_GE(G, -tol) << p.text;
    EXPECT_GE(H, -tol) << p.text;
    EXPECT_NEAR(G * H, 0.0, tol) << p.text;
  }
}

TEST(MpccExamples, RalphExample) {
  const MpccFile f = read_mpcc_file(example("ralph_example.yaml"));
  EXPECT_EQ(f.name, "ralph_example");
  ASSERT_EQ(f.variables.size(), 2u);
  EXPECT_EQ(f.variables[0].name, "x1");
  EXPECT_EQ(f.variables[0].lower, 0);
  EXPECT_EQ(f.variables[0].upper, kInf);
  EXPECT_EQ(f.constraints.size(), 0u);
  EXPECT_EQ(f.complementarity.size(), 1u);
  ASSERT_EQ(f.parameters.size(), 1u);
  EXPECT_EQ(f.parameters[0].first, "p");
  expect_solution(f, {{"x1", 1}, {"x2", 0}}, 0.0);
  EXPECT_DOUBLE_EQ(sym::evaluate(f.objective, symbols(f), {0, 2}), 1 + 8 + 4);
  EXPECT_EQ(f.options.relaxation, stasis::mpcc::Relaxation::ScholtesIneq);
  EXPECT_EQ(f.options.complementarity_tol, 1e-9);
}

TEST(MpccExamples, NotSStationary) {
  const MpccFile f = read_mpcc_file(example("not_s_stationary.yaml"));
  ASSERT_EQ(f.variables.size(), 3u);
  ASSERT_EQ(f.constraints.size(), 2u);
  EXPECT_EQ(f.complementarity.size(), 1u);
  for (const auto& v : f.variables) {  // the pair alone implies x1, x2 >= 0
    EXPECT_EQ(v.lower, -kInf);
    EXPECT_EQ(v.upper, kInf);
  }
  EXPECT_EQ(f.constraints[0].lower, 0);  // 4*x1 - x3 >= 0
  EXPECT_EQ(f.constraints[0].upper, kInf);
  expect_solution(f, {{"x1", 0}, {"x2", 0}, {"x3", 0}}, 0.0);
  // The relaxed minimizers (s, s, 4s) of the header comment: feasible for the inequalities, f = -2s.
  const double s = 0.01;
  EXPECT_NEAR(sym::evaluate(f.objective, symbols(f), {s, s, 4 * s}), -2 * s, 1e-15);
}

TEST(MpccExamples, Bard1) {
  const MpccFile f = read_mpcc_file(example("bard1.yaml"));
  ASSERT_EQ(f.variables.size(), 5u);
  EXPECT_EQ(f.constraints.size(), 1u);
  EXPECT_EQ(f.complementarity.size(), 3u);
  EXPECT_EQ(f.definitions.size(), 3u);
  EXPECT_EQ(f.parameters.size(), 2u);
  EXPECT_EQ(f.constraints[0].lower, 0);
  EXPECT_EQ(f.constraints[0].upper, 0);
  expect_solution(f, {{"x", 1}, {"y", 0}, {"l1", 3.5}, {"l2", 0}, {"l3", 0}}, 17.0);
  // The other candidates of the header's case analysis are feasible with the stated objectives.
  expect_solution(f, {{"x", 5}, {"y", 2}, {"l1", 0}, {"l2", 0}, {"l3", 5.5}}, 25.0);
  expect_solution(f, {{"x", 16.0 / 9}, {"y", 7.0 / 3}, {"l1", 0}, {"l2", 0}, {"l3", 0}}, 3442.0 / 81);
}

TEST(MpccExamples, Ralph2) {
  const MpccFile f = read_mpcc_file(example("ralph2.yaml"));
  ASSERT_EQ(f.variables.size(), 2u);
  EXPECT_EQ(f.complementarity.size(), 1u);
  EXPECT_EQ(f.variables[0].start, 1);
  expect_solution(f, {{"x", 0}, {"y", 0}}, 0.0);
  const double sigma = 1e-4, r = std::sqrt(sigma);  // relaxed minimizer of the header comment
  EXPECT_NEAR(sym::evaluate(f.objective, symbols(f), {r, r}), -2 * sigma, 1e-15);
}

TEST(MpccExamples, Scholtes5) {
  const MpccFile f = read_mpcc_file(example("scholtes5.yaml"));
  ASSERT_EQ(f.variables.size(), 3u);
  EXPECT_EQ(f.complementarity.size(), 2u);
  ASSERT_EQ(f.vector_parameters.size(), 1u);
  EXPECT_EQ(f.vector_parameters[0].second, (std::vector<double>{1, 2, -1}));
  expect_solution(f, {{"z1", 1}, {"z2", 2}, {"z3", 0}}, 1.0);
}

TEST(MpccReader, FormatDocumentExample) {
  // The kind: mpcc example of PROBLEM_FORMAT.md, verbatim.
  const std::string yaml = R"(kind: mpcc
parameters: {a: 2.0}                 # optional named constants
variables:                           # ordered; each: lower, upper, start (defaults -inf, inf, 0)
  x1: {lower: 0, start: 0}
  x2: {lower: 0}
  y: {}
objective: "(x1 - 1)^2 + x2^3 + x2^2"
constraints:                         # "a <= b", "a >= b", "a == b", or {expr, lower, upper}
  - "x1 + x2 <= 4"
  - {expr: "x1 - y", lower: -1, upper: 1}
complementarity:                     # each pair: 0 <= G ⟂ H >= 0 (G, H expressions)
  - ["x1", "x2"]
options: {relaxation: scholtes_ineq, sigma0: 1, kappa: 0.1, complementarity_tol: 1e-9}
)";
  const MpccFile f = read_mpcc_string(yaml, "format.yaml");
  EXPECT_EQ(f.path, "format.yaml");
  ASSERT_EQ(f.variables.size(), 3u);
  EXPECT_EQ(f.variables[2].name, "y");
  EXPECT_EQ(f.variables[2].lower, -kInf);
  EXPECT_EQ(f.variables[2].upper, kInf);
  EXPECT_EQ(f.variables[2].start, 0);
  EXPECT_EQ(f.variables[2].where.line, 6);
  EXPECT_EQ(f.variables[2].where.column, 3);
  ASSERT_EQ(f.constraints.size(), 2u);
  EXPECT_TRUE(sym::is_same(f.constraints[0].expr, f.variables[0].symbol + f.variables[1].symbol));
  EXPECT_EQ(f.constraints[0].lower, -kInf);
  EXPECT_EQ(f.constraints[0].upper, 4);
  EXPECT_EQ(f.constraints[0].text, "x1 + x2 <= 4");
  EXPECT_EQ(f.constraints[0].where.line, 9);
  EXPECT_EQ(f.constraints[1].lower, -1);
  EXPECT_EQ(f.constraints[1].upper, 1);
  EXPECT_EQ(f.constraints[1].text, "-1 <= x1 - y <= 1");
  ASSERT_EQ(f.complementarity.size(), 1u);
  EXPECT_TRUE(sym::is_same(f.complementarity[0].G, f.variables[0].symbol));
  EXPECT_TRUE(sym::is_same(f.complementarity[0].H, f.variables[1].symbol));
  EXPECT_EQ(f.objective_text, "(x1 - 1)^2 + x2^3 + x2^2");
  EXPECT_EQ(f.objective_where.line, 7);
  EXPECT_EQ(f.options.sigma0, 1);
  EXPECT_EQ(f.options.kappa, 0.1);
}

TEST(MpccReader, JsonIsAccepted) {
  const MpccFile f = read_mpcc_string(
      R"({"kind": "mpcc", "variables": {"a": {"lower": 0}, "b": {"lower": 0}}, "objective": "a + b",
          "complementarity": [["a", "b"]]})",
      "p.json");
  EXPECT_EQ(f.variables.size(), 2u);
  EXPECT_EQ(f.complementarity.size(), 1u);
}

TEST(MpccReader, ParametersDefinitionsAndBounds) {
  const MpccFile f = read_mpcc_string(R"(kind: mpcc
name: features
description: every feature at once
parameters:
  a: 2
  b: "3*a + 1"            # expressions of earlier parameters
  c: [1, "a", "b^2"]
  big: inf
variables:
  x: {lower: "-a", upper: "b", start: "a/2"}
  y: {lower: -inf, upper: .inf, start: 1}
  z: {lower: 1}            # default start moves into the bounds
  w: {upper: "-c[1]"}
definitions:
  d: "x + y"
  e: "d^2 + c[2]"
objective: "e + sin(pi*z) - w"
constraints:
  - "d <= b"
  - "0 <= x*y <= big"
  - "x >= y"
  - "a*x == 1"
  - {expr: "z", upper: 5}
  - {expr: "w"}
complementarity:
  - ["x + 1", "y"]
  - [d, "c[0]*z"]
)",
                                      "p.yaml");
  EXPECT_EQ(f.name, "features");
  EXPECT_EQ(f.description, "every feature at once");
  ASSERT_EQ(f.parameters.size(), 3u);
  EXPECT_EQ(f.parameters[1].second, 7);
  EXPECT_EQ(f.parameters[2].second, kInf);
  EXPECT_EQ(f.vector_parameters[0].second, (std::vector<double>{1, 2, 49}));
  ASSERT_EQ(f.variables.size(), 4u);
  EXPECT_EQ(f.variables[0].lower, -2);
  EXPECT_EQ(f.variables[0].upper, 7);
  EXPECT_EQ(f.variables[0].start, 1);
  EXPECT_EQ(f.variables[1].lower, -kInf);
  EXPECT_EQ(f.variables[1].upper, kInf);
  EXPECT_EQ(f.variables[2].start, 1);
  EXPECT_EQ(f.variables[3].upper, -2);
  EXPECT_EQ(f.variables[3].start, -2);
  ASSERT_EQ(f.definitions.size(), 2u);
  const sym::Vector s = symbols(f);
  const std::vector<double> x = {1, 2, 0.5, -3};
  EXPECT_DOUBLE_EQ(sym::evaluate(f.objective, s, x), 9 + 49 + 1 + 3);
  ASSERT_EQ(f.constraints.size(), 6u);
  EXPECT_EQ(f.constraints[0].upper, 7);
  EXPECT_EQ(f.constraints[1].lower, 0);
  EXPECT_EQ(f.constraints[1].upper, kInf);
  EXPECT_DOUBLE_EQ(sym::evaluate(f.constraints[2].expr, s, x), -1);  // x - y
  EXPECT_EQ(f.constraints[2].lower, 0);
  EXPECT_EQ(f.constraints[3].lower, 1);
  EXPECT_EQ(f.constraints[3].upper, 1);
  EXPECT_EQ(f.constraints[4].text, "z <= 5");
  EXPECT_EQ(f.constraints[5].lower, -kInf);
  EXPECT_EQ(f.constraints[5].text, "w");
  ASSERT_EQ(f.complementarity.size(), 2u);
  EXPECT_EQ(f.complementarity[1].text, "[d, c[0]*z]");
  EXPECT_DOUBLE_EQ(sym::evaluate(f.complementarity[1].G, s, x), 3);
}

TEST(MpccReader, OptionsIncludingIpopt) {
  const MpccFile f = read_mpcc_string(R"(kind: mpcc
variables: {x: {}}
objective: "x^2"
options:
  sigma0: 0.5
  ipopt: {mu_strategy: adaptive, max_cpu_time: 10}
)",
                                      "p.yaml");
  EXPECT_EQ(f.options.sigma0, 0.5);
  EXPECT_EQ(f.options.ipopt.at("mu_strategy"), "adaptive");
  EXPECT_EQ(f.options.ipopt.at("max_cpu_time"), "10");
}

// ---- error cases: each names the key or name and its line ----

TEST(MpccReaderErrors, UnknownTopLevelKey) {
  const std::string m = read_error("kind: mpcc\nvariables: {x: {}}\nobjectve: x\n");
  EXPECT_STARTS_WITH(
      m, "p.yaml:3:1: error: unknown key 'objectve' in the mpcc problem; did you mean 'objective'?");
  EXPECT_CONTAINS(m, "valid keys: kind, name, description, parameters, definitions, variables, objective");
}

TEST(MpccReaderErrors, UnknownKeyInVariable) {
  const std::string m = read_error("kind: mpcc\nvariables:\n  x: {lowr: 0}\nobjective: x\n");
  EXPECT_STARTS_WITH(m, "p.yaml:3:7: error: unknown key 'lowr' in variable 'x'; did you mean 'lower'?");
  EXPECT_CONTAINS(m, "valid keys: lower, upper, start");
}

TEST(MpccReaderErrors, UnknownKeyInConstraintMap) {
  const std::string m =
      read_error("kind: mpcc\nvariables: {x: {}}\nobjective: x\nconstraints:\n  - {expr: x, uper: 1}\n");
  EXPECT_STARTS_WITH(m, "p.yaml:5:15: error: unknown key 'uper' in constraint 0; did you mean 'upper'?");
}

TEST(MpccReaderErrors, UnknownOption) {
  const std::string m = read_error("kind: mpcc\nvariables: {x: {}}\nobjective: x\noptions:\n  sigmo0: 1\n");
  EXPECT_STARTS_WITH(m, "p.yaml:5:3: error: unknown key 'sigmo0' in options; did you mean 'sigma0'?");
}

TEST(MpccReaderErrors, InvalidOptionValueGetsTheLine) {
  const std::string m =
      read_error("kind: mpcc\nvariables: {x: {}}\nobjective: x\noptions:\n  relaxation: scholtes_inq\n");
  EXPECT_STARTS_WITH(m, "p.yaml:5:15: error: option 'relaxation': ");
}

TEST(MpccReaderErrors, VariableLowerAboveUpper) {
  const std::string m =
      read_error("kind: mpcc\nvariables:\n  x: {}\n  y: {lower: 2, upper: 1}\nobjective: x\n");
  EXPECT_STARTS_WITH(m, "p.yaml:4:3: error: variable 'y': lower bound 2 > upper bound 1");
}

TEST(MpccReaderErrors, InfiniteWrongWayBounds) {
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables:\n  y: {lower: inf}\nobjective: y\n"),
                     "p.yaml:3:3: error: variable 'y': lower bound is +inf");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables:\n  y: {upper: -.inf}\nobjective: y\n"),
                     "p.yaml:3:3: error: variable 'y': upper bound is -inf");
}

TEST(MpccReaderErrors, ConstraintLowerAboveUpper) {
  const std::string m = read_error(
      "kind: mpcc\nvariables: {x: {}}\nobjective: x\nconstraints:\n  - \"x <= 1\"\n"
      "  - {expr: \"x^2\", lower: 3, upper: 2}\n");
  EXPECT_STARTS_WITH(m, "p.yaml:6:5: error: constraint '3 <= x^2 <= 2': lower bound 3 > upper bound 2");
  const std::string chained =
      read_error("kind: mpcc\nvariables: {x: {}}\nobjective: x\nconstraints:\n  - \"3 <= x <= 2\"\n");
  EXPECT_STARTS_WITH(chained, "p.yaml:5:5: error: constraint '3 <= x <= 2': lower bound 3 > upper bound 2");
}

TEST(MpccReaderErrors, DuplicateVariable) {
  const std::string m =
      read_error("kind: mpcc\nvariables:\n  x: {}\n  y: {}\n  x: {lower: 0}\nobjective: x\n");
  EXPECT_STARTS_WITH(m, "p.yaml:5:3: error: duplicate key 'x' in variables (first at line 3)");
}

TEST(MpccReaderErrors, NameClashes) {
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nparameters: {x: 1}\nvariables:\n  x: {}\nobjective: x\n"),
                     "p.yaml:4:3: error: variable 'x' is already declared as a parameter at p.yaml:2:14");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x: {}}\ndefinitions: {x: \"2\"}\nobjective: x\n"),
                     "p.yaml:3:15: error: definition 'x' is already declared as a variable");
}

TEST(MpccReaderErrors, ReservedVariableNames) {
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables:\n  sin: {}\nobjective: 1\n"),
                     "p.yaml:3:3: error: variable name 'sin' is reserved (a function)");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables:\n  pi: {}\nobjective: 1\n"),
                     "p.yaml:3:3: error: variable name 'pi' is reserved (a constant)");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables:\n  x-1: {}\nobjective: 1\n"),
                     "p.yaml:3:3: error: variable name 'x-1' is not a valid name");
}

TEST(MpccReaderErrors, NonConstantBound) {
  const std::string m = read_error("kind: mpcc\nvariables:\n  x: {}\n  y: {lower: \"2*x\"}\nobjective: x\n");
  EXPECT_STARTS_WITH(
      m, "p.yaml:4:14: error: lower bound of variable 'y' must be a constant, but '2*x' depends on x");
}

TEST(MpccReaderErrors, StartOutsideBounds) {
  const std::string m =
      read_error("kind: mpcc\nvariables:\n  x: {lower: 0, upper: 1, start: 2}\nobjective: x\n");
  EXPECT_STARTS_WITH(m, "p.yaml:3:34: error: start of variable 'x' is 2, outside its bounds [0, 1]");
}

TEST(MpccReaderErrors, ParameterOrder) {
  // Parameters may use earlier parameters only.
  const std::string m =
      read_error("kind: mpcc\nparameters:\n  a: \"b + 1\"\n  b: 2\nvariables: {x: {}}\nobjective: x\n");
  EXPECT_STARTS_WITH(m, "p.yaml:3:7: error: unknown name 'b'");
  const std::string v = read_error("kind: mpcc\nparameters:\n  a: \"x\"\nvariables: {x: {}}\nobjective: x\n");
  EXPECT_STARTS_WITH(v, "p.yaml:3:7: error: unknown name 'x'");
}

TEST(MpccReaderErrors, ExpressionColumnsInQuotedAndPlainScalars) {
  // Plain scalar: the offset adds to the value's column.
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: x1 + x2\n"),
                     "p.yaml:3:17: error: unknown name 'x2'; did you mean 'x1'?");
  // Double-quoted: one more for the quote.
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: \"x1 + x2\"\n"),
                     "p.yaml:3:18: error: unknown name 'x2'");
  // Single-quoted: the doubled quote itself is the offending character.
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: 'x1 + ''a'' + x2'\n"),
                     "p.yaml:3:18: error: unexpected character '''");
  // Double-quoted with an escape (\t: two characters in the file, one in the value) before the error.
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: \"x1 + \\t + foo\"\n"),
                     "p.yaml:3:23: error: unknown name 'foo'");
  // Single-quoted, folded over two lines.
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: 'x1 +\n   x1 * foo'\n"),
                     "p.yaml:4:9: error: unknown name 'foo'");
  // Flow sequence element.
  EXPECT_STARTS_WITH(
      read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: x1\ncomplementarity:\n  - [x1, \"2*x1 +\"]\n"),
      "p.yaml:5:17: error: unexpected end of expression");
  // Constraint string: the column of the right-hand side's error.
  EXPECT_STARTS_WITH(
      read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: x1\nconstraints:\n  - \"x1 <= 2 + foo\"\n"),
      "p.yaml:5:16: error: unknown name 'foo'");
}

TEST(MpccReaderErrors, ExpressionLinesInMultiLineScalars) {
  // Literal block scalar: the error is on the second line of the block.
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: |\n  x1^2\n    + bar\n"),
                     "p.yaml:5:7: error: unknown name 'bar'");
  // Folded plain scalar over two lines.
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x1: {}}\nobjective: x1 +\n  2 * bar\n"),
                     "p.yaml:4:7: error: unknown name 'bar'");
}

TEST(MpccReaderErrors, YamlSyntaxError) {
  const std::string m = read_error("kind: mpcc\nvariables: {x: {}\nobjective: x\n");
  EXPECT_STARTS_WITH(m, "p.yaml:");
  EXPECT_CONTAINS(m, "error: invalid YAML");
  const std::string bad_indent = read_error("kind: mpcc\nvariables:\n  x: {}\n y: {}\nobjective: x\n");
  EXPECT_STARTS_WITH(bad_indent, "p.yaml:4:");
}

TEST(MpccReaderErrors, MissingAndWrongKind) {
  EXPECT_STARTS_WITH(read_error("variables: {x: {}}\nobjective: x\n"),
                     "p.yaml:1:1: error: missing key 'kind'");
  EXPECT_STARTS_WITH(read_error("kind: ocp\nvariables: {x: {}}\nobjective: x\n"),
                     "p.yaml:1:7: error: kind is 'ocp', expected 'mpcc'");
  EXPECT_STARTS_WITH(read_error(""), "p.yaml:1:1: error: the file is empty");
  EXPECT_STARTS_WITH(read_error("- 1\n- 2\n"), "p.yaml:1:1: error: the problem file must be a map");
}

TEST(MpccReaderErrors, MissingSections) {
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nobjective: 1\n"), "p.yaml:1:1: error: missing key 'variables'");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {}\nobjective: 1\n"),
                     "p.yaml:2:1: error: no variables declared");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x: {}}\n"),
                     "p.yaml:1:1: error: missing key 'objective'");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x: {}}\nobjective:\n"),
                     "p.yaml:3:1: error: missing value for 'objective'");
}

TEST(MpccReaderErrors, WrongShapes) {
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: [x, y]\nobjective: x\n"),
                     "p.yaml:2:12: error: variables must be a map");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x: 1}\nobjective: x\n"),
                     "p.yaml:2:16: error: variable 'x' must be a map");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x: {}}\nobjective: [x]\n"),
                     "p.yaml:3:12: error: 'objective' must be a single value, not a list");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x: {}}\nobjective: x\nconstraints: {a: x}\n"),
                     "p.yaml:4:14: error: constraints must be a list");
  EXPECT_STARTS_WITH(read_error("kind: mpcc\nvariables: {x: {}}\nobjective: x\nconstraints:\n  - [x, 1]\n"),
                     "p.yaml:5:5: error: constraint 0 must be a string");
  EXPECT_STARTS_WITH(
      read_error("kind: mpcc\nvariables: {x: {}}\nobjective: x\nconstraints:\n  - {lower: 1}\n"),
      "p.yaml:5:5: error: constraint 0: missing key 'expr'");
}

TEST(MpccReaderErrors, ComplementarityPairs) {
  EXPECT_STARTS_WITH(
      read_error("kind: mpcc\nvariables: {x: {}, y: {}}\nobjective: x\ncomplementarity:\n  - [x, y, x]\n"),
      "p.yaml:5:5: error: complementarity pair 0 must be a list [G, H] of two expressions");
  EXPECT_STARTS_WITH(
      read_error(
          "kind: mpcc\nvariables: {x: {}, y: {}}\nobjective: x\ncomplementarity:\n  - [x, y]\n  - x\n"),
      "p.yaml:6:5: error: complementarity pair 1 must be a list [G, H]");
  EXPECT_STARTS_WITH(
      read_error("kind: mpcc\nvariables: {x: {}, y: {}}\nobjective: x\ncomplementarity:\n  - [1, 2]\n"),
      "p.yaml:5:5: error: complementarity pair 0 [1, 2] is constant");
}

TEST(MpccReaderErrors, ConstraintWithoutVariables) {
  EXPECT_STARTS_WITH(
      read_error(
          "kind: mpcc\nparameters: {a: 1}\nvariables: {x: {}}\nobjective: x\nconstraints: [\"a <= 2\"]\n"),
      "p.yaml:5:16: error: the constraint compares two constants");
}

TEST(MpccReaderErrors, UnreadableFile) {
  try {
    read_mpcc_file("/nonexistent/dir/problem.yaml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_CONTAINS(std::string(e.what()), "/nonexistent/dir/problem.yaml");
  }
}

// ---- read_kind ----

class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      // A random part keeps parallel test runs (ctest -j, several build trees) apart.
      : path_(std::filesystem::temp_directory_path() /
              ("stasis_io_test_" + std::to_string(std::random_device{}()) + "_" + name)) {
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

TEST(ReadKind, KnownKinds) {
  EXPECT_EQ(stasis::io::read_kind(example("ralph_example.yaml")), "mpcc");
  TempFile ocp("ocp.yaml", "# comment\nkind: ocp\nmodel: {}\n");
  EXPECT_EQ(stasis::io::read_kind(ocp.path()), "ocp");
}

TEST(ReadKind, MissingOrUnknown) {
  TempFile missing("missing.yaml", "variables: {}\n");
  try {
    stasis::io::read_kind(missing.path());
    FAIL();
  } catch (const Error& e) {
    EXPECT_STARTS_WITH(std::string(e.what()), missing.path() + ":1:1: error: missing key 'kind'");
    EXPECT_CONTAINS(std::string(e.what()), "mpcc, simulate, ocp");
  }
  TempFile typo("typo.yaml", "\nkind: mpc\n");
  try {
    stasis::io::read_kind(typo.path());
    FAIL();
  } catch (const Error& e) {
    EXPECT_STARTS_WITH(std::string(e.what()),
                       typo.path() + ":2:7: error: unknown kind 'mpc'; did you mean 'mpcc'?");
  }
  TempFile syntax("syntax.yaml", "kind: [mpcc\n");
  EXPECT_THROW(stasis::io::read_kind(syntax.path()), Error);
  EXPECT_THROW(stasis::io::read_kind("/nonexistent/x.yaml"), Error);
}

}  // namespace
