// Expression parser: precedence, functions, numbers, indexing, error positions, fuzzing.
#include <gtest/gtest.h>

#include "io_test_support.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>

#include "stasis/error.hpp"
#include "stasis/io/expression.hpp"

namespace {

using stasis::Error;
using stasis::io::parse_expression;
using stasis::io::parse_relation;
using stasis::io::Scope;
using stasis::io::SourceLocation;
namespace sym = stasis::sym;

constexpr double kInf = std::numeric_limits<double>::infinity();

class ExpressionTest : public ::testing::Test {
 protected:
  ExpressionTest() {
    scope.define("x", x);
    scope.define("y", y);
    scope.define("alpha", alpha);
    scope.define("n", sym::Expr(3.0));
    scope.define_vector("v", {sym::Expr(10.0), sym::Expr(20.0), x});
  }

  sym::Expr parse(const std::string& text) const { return parse_expression(text, scope, where); }

  double eval(const std::string& text, double xv = 0.7, double yv = -1.3, double av = 2.5) const {
    return sym::evaluate(parse(text), {x, y, alpha}, {xv, yv, av});
  }

  // The message of the stasis::Error that parsing `text` throws (fails the test if none).
  std::string error(const std::string& text) const {
    try {
      parse(text);
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "no error for '" << text << "'";
    return "";
  }

  std::string relation_error(const std::string& text) const {
    try {
      parse_relation(text, scope, stasis::io::text_locator(text, where));
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "no error for '" << text << "'";
    return "";
  }

  sym::Expr x = sym::Expr::symbol("x");
  sym::Expr y = sym::Expr::symbol("y");
  sym::Expr alpha = sym::Expr::symbol("alpha");
  Scope scope;
  SourceLocation where{"p.yaml", 3, 10};
};

TEST_F(ExpressionTest, PrecedenceAndAssociativity) {
  EXPECT_DOUBLE_EQ(eval("-x^2", 3), -9);
  EXPECT_DOUBLE_EQ(eval("(-x)^2", 3), 9);
  EXPECT_DOUBLE_EQ(eval("-2^2"), -4);
  EXPECT_DOUBLE_EQ(eval("2^3^2"), 512);
  EXPECT_DOUBLE_EQ(eval("(2^3)^2"), 64);
  EXPECT_DOUBLE_EQ(eval("2^-1"), 0.5);
  EXPECT_DOUBLE_EQ(eval("2^-1^2"), 0.5);  // 2^(-(1^2))
  EXPECT_DOUBLE_EQ(eval("1 - 2 - 3"), -4);
  EXPECT_DOUBLE_EQ(eval("8 / 4 / 2"), 1);
  EXPECT_DOUBLE_EQ(eval("2*3 + 4*5"), 26);
  EXPECT_DOUBLE_EQ(eval("2 + 3*4^2"), 50);
  EXPECT_DOUBLE_EQ(eval("2*-x", 1.5), -3);
  EXPECT_DOUBLE_EQ(eval("x - -y", 1, 2), 3);
  EXPECT_DOUBLE_EQ(eval("--x", 1.25), 1.25);
  EXPECT_DOUBLE_EQ(eval("+x", 1.25), 1.25);
  EXPECT_DOUBLE_EQ(eval("-x*y", 2, 3), -6);
  EXPECT_DOUBLE_EQ(eval("x^y", 2, 3), 8);
  EXPECT_DOUBLE_EQ(eval("x^2^y", 2, 2), 16);
  EXPECT_DOUBLE_EQ(eval("(x + y) * (x - y)", 3, 2), 5);
  EXPECT_DOUBLE_EQ(eval("  alpha\t*\n x ", 2, 0, 4), 8);
}

TEST_F(ExpressionTest, Numbers) {
  EXPECT_DOUBLE_EQ(eval("1e-3"), 1e-3);
  EXPECT_DOUBLE_EQ(eval("2E+2"), 200);
  EXPECT_DOUBLE_EQ(eval(".5"), 0.5);
  EXPECT_DOUBLE_EQ(eval("1."), 1.0);
  EXPECT_DOUBLE_EQ(eval("12.25e1"), 122.5);
  EXPECT_DOUBLE_EQ(eval("007"), 7);
  EXPECT_DOUBLE_EQ(eval("1e-400"), 0.0);  // underflow is harmless
  EXPECT_DOUBLE_EQ(eval("pi"), std::numbers::pi);
  EXPECT_EQ(eval("inf"), kInf);
  EXPECT_EQ(eval("-inf"), -kInf);
  EXPECT_TRUE(parse("2*3 + n").is_constant());
  EXPECT_DOUBLE_EQ(parse("2*3 + n").constant_value(), 9);
}

TEST_F(ExpressionTest, EveryFunction) {
  const double a = 0.3, b = -0.8;
  EXPECT_DOUBLE_EQ(eval("sin(x)", a), std::sin(a));
  EXPECT_DOUBLE_EQ(eval("cos(x)", a), std::cos(a));
  EXPECT_DOUBLE_EQ(eval("tan(x)", a), std::tan(a));
  EXPECT_DOUBLE_EQ(eval("asin(x)", a), std::asin(a));
  EXPECT_DOUBLE_EQ(eval("acos(x)", a), std::acos(a));
  EXPECT_DOUBLE_EQ(eval("atan(x)", a), std::atan(a));
  EXPECT_DOUBLE_EQ(eval("atan2(y, x)", a, b), std::atan2(b, a));
  EXPECT_DOUBLE_EQ(eval("sinh(x)", a), std::sinh(a));
  EXPECT_DOUBLE_EQ(eval("cosh(x)", a), std::cosh(a));
  EXPECT_DOUBLE_EQ(eval("tanh(x)", a), std::tanh(a));
  EXPECT_DOUBLE_EQ(eval("exp(x)", a), std::exp(a));
  EXPECT_DOUBLE_EQ(eval("log(x)", a), std::log(a));
  EXPECT_DOUBLE_EQ(eval("sqrt(x)", a), std::sqrt(a));
  EXPECT_DOUBLE_EQ(eval("abs(y)", a, b), 0.8);
  EXPECT_DOUBLE_EQ(eval("min(x, y)", a, b), b);
  EXPECT_DOUBLE_EQ(eval("max(x, y)", a, b), a);
  EXPECT_DOUBLE_EQ(eval("min(x, y, -5, alpha)", a, b, 1), -5);
  EXPECT_DOUBLE_EQ(eval("max(x, y, 7, alpha)", a, b, 1), 7);
  EXPECT_DOUBLE_EQ(eval("sign(y)", a, b), -1);
  EXPECT_DOUBLE_EQ(eval("sign(x)", a, b), 1);
  EXPECT_DOUBLE_EQ(eval("sign(x)", 0.0, b), 0);
  EXPECT_DOUBLE_EQ(eval("exp(log(sqrt(x^2)))", 2), 2);
  EXPECT_DOUBLE_EQ(eval("-sin(x)^2", a), -std::sin(a) * std::sin(a));
}

TEST_F(ExpressionTest, Indexing) {
  EXPECT_DOUBLE_EQ(eval("v[0]"), 10);
  EXPECT_DOUBLE_EQ(eval("v[1]"), 20);
  EXPECT_DOUBLE_EQ(eval("v[2]", 4), 4);
  EXPECT_DOUBLE_EQ(eval("v[1 + 1]", 4), 4);
  EXPECT_DOUBLE_EQ(eval("v[n - 1]^2", 3), 9);
  EXPECT_DOUBLE_EQ(eval("-v[0]^2"), -100);
  EXPECT_DOUBLE_EQ(eval("v[v[0] - 9] / 2"), 10);
}

TEST_F(ExpressionTest, ErrorsPointAtTheOffendingCharacter) {
  // where = p.yaml:3:10, so offset k is column 10 + k.
  std::string m = error("x + foo");
  EXPECT_STARTS_WITH(m, "p.yaml:3:14: error: unknown name 'foo'");
  m = error("x + alpah");
  EXPECT_STARTS_WITH(m, "p.yaml:3:14: error: unknown name 'alpah'; did you mean 'alpha'?");
  m = error("2 * (x + 1");
  EXPECT_STARTS_WITH(m, "p.yaml:3:20: error: unexpected end of expression, expected ')'");
  m = error("x + 1)");
  EXPECT_STARTS_WITH(m,
                     "p.yaml:3:15: error: unexpected ')', expected an operator or the end of the expression");
  m = error("x y");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: unexpected name 'y'");
  EXPECT_CONTAINS(m, "a product needs '*'");
  m = error("2x");
  EXPECT_STARTS_WITH(m, "p.yaml:3:11: error: unexpected name 'x'");
  m = error("x +");
  EXPECT_STARTS_WITH(m, "p.yaml:3:13: error: unexpected end of expression, expected a number, a name or '('");
  m = error("");
  EXPECT_STARTS_WITH(m, "p.yaml:3:10: error: empty expression");
  m = error("   ");
  EXPECT_STARTS_WITH(m, "p.yaml:3:13: error: empty expression");
  m = error("x ** 2");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: '**' is not an operator, expected '^'");
  m = error("1e+");
  EXPECT_STARTS_WITH(m, "p.yaml:3:13: error: malformed number '1e+', expected digits in the exponent");
  m = error("1e999");
  EXPECT_STARTS_WITH(m, "p.yaml:3:10: error: number '1e999' is too large");
  m = error("x $ y");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: unexpected character '$'");
  m = error("x \xe2\x88\x92 y");  // U+2212 minus sign
  EXPECT_STARTS_WITH(m,
                     "p.yaml:3:12: error: unexpected character '\xe2\x88\x92' (a Unicode dash; write '-')");
  m = error("x < y");
  EXPECT_CONTAINS(m, "comparisons belong only at the top level of a constraint");
  // The message shows the expression with a caret under the offending character.
  m = error("x + foo");
  EXPECT_CONTAINS(m, "\n    x + foo\n        ^");
}

TEST_F(ExpressionTest, FunctionErrors) {
  std::string m = error("atan2(x)");
  EXPECT_STARTS_WITH(m, "p.yaml:3:10: error: wrong number of arguments for 'atan2': got 1, expected 2");
  m = error("1 + sin(x, y)");
  EXPECT_STARTS_WITH(m, "p.yaml:3:14: error: wrong number of arguments for 'sin': got 2, expected 1");
  m = error("min(x)");
  EXPECT_STARTS_WITH(m, "p.yaml:3:10: error: wrong number of arguments for 'min': got 1, expected 2 or more");
  m = error("cos()");
  EXPECT_STARTS_WITH(m, "p.yaml:3:10: error: wrong number of arguments for 'cos': got 0, expected 1");
  m = error("sin x");
  EXPECT_STARTS_WITH(m, "p.yaml:3:14: error: unexpected name 'x', expected '(' after the function 'sin'");
  m = error("sinn(x)");
  EXPECT_STARTS_WITH(m, "p.yaml:3:10: error: unknown function 'sinn'; did you mean 'sin'?");
  m = error("x(2)");
  EXPECT_STARTS_WITH(m, "p.yaml:3:11: error: 'x' is not a function");
  m = error("atan2(x y)");
  EXPECT_STARTS_WITH(
      m, "p.yaml:3:18: error: unexpected name 'y', expected ',' or ')' in the arguments of 'atan2'");
}

TEST_F(ExpressionTest, IndexErrors) {
  std::string m = error("v[3]");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: index 3 is out of range for 'v' of length 3");
  m = error("v[-1]");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: index -1 is out of range for 'v'");
  m = error("v[0.5]");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: the index of 'v' is 0.5, expected an integer");
  m = error("v[x]");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: the index of 'v' depends on a variable");
  m = error("2*v");
  EXPECT_STARTS_WITH(m, "p.yaml:3:12: error: 'v' is a vector of length 3, expected an index: v[0] ... v[2]");
  m = error("x[0]");
  EXPECT_STARTS_WITH(m, "p.yaml:3:11: error: 'x' is a scalar and cannot be indexed");
  m = error("w[0]");
  EXPECT_STARTS_WITH(m, "p.yaml:3:10: error: unknown name 'w'");
  m = error("v[1");
  EXPECT_STARTS_WITH(m, "p.yaml:3:13: error: unexpected end of expression, expected ']'");
}

TEST_F(ExpressionTest, MultiLineTextMovesTheLine) {
  const std::string m = error("x +\n  y + foo");
  EXPECT_STARTS_WITH(m, "p.yaml:4:7: error: unknown name 'foo'");
  EXPECT_CONTAINS(m, "\n      y + foo\n          ^");
}

TEST_F(ExpressionTest, UnknownLineGivesOnlyTheFile) {
  try {
    parse_expression("zz", scope, SourceLocation{"command line (-o a=zz)", 0, 0});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STARTS_WITH(std::string(e.what()), "command line (-o a=zz): error: unknown name 'zz'");
  }
}

TEST_F(ExpressionTest, DeepNestingIsAnErrorNotACrash) {
  const std::string parens = std::string(100000, '(') + "x" + std::string(100000, ')');
  EXPECT_CONTAINS(error(parens), "nested too deeply");
  EXPECT_CONTAINS(error(std::string(100000, '-') + "x"), "nested too deeply");
  std::string powers = "x";
  for (int i = 0; i < 5000; ++i) powers += "^x";
  EXPECT_CONTAINS(error(powers), "nested too deeply");
  std::string calls;
  for (int i = 0; i < 5000; ++i) calls += "sin(";
  EXPECT_CONTAINS(error(calls + "x"), "nested too deeply");
  // Moderate nesting is fine.
  EXPECT_DOUBLE_EQ(eval(std::string(50, '(') + "x" + std::string(50, ')'), 2), 2);
}

TEST_F(ExpressionTest, ScopeRules) {
  Scope s;
  s.define("a", sym::Expr(1.0));
  EXPECT_TRUE(s.contains("a"));
  EXPECT_FALSE(s.contains("b"));
  EXPECT_THROW(s.define("a", sym::Expr(2.0)), Error);
  EXPECT_THROW(s.define("sin", sym::Expr(2.0)), Error);
  EXPECT_THROW(s.define("pi", sym::Expr(2.0)), Error);
  EXPECT_THROW(s.define("inf", sym::Expr(2.0)), Error);
  EXPECT_THROW(s.define("2a", sym::Expr(2.0)), Error);
  EXPECT_THROW(s.define_vector("a", {}), Error);
  s.define_vector("b", {sym::Expr(1.0)});
  EXPECT_EQ(s.names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_NE(s.find_vector("b"), nullptr);
  EXPECT_EQ(s.find("b"), nullptr);
  EXPECT_TRUE(stasis::io::is_reserved_name("atan2"));
  EXPECT_FALSE(stasis::io::is_reserved_name("t"));
  EXPECT_EQ(stasis::io::closest_name("objectve", {"objective", "options"}), "objective");
  EXPECT_EQ(stasis::io::closest_name("z", {"x"}), "");  // a one-letter name suggests nothing
  EXPECT_EQ(stasis::io::closest_name("abcdef", {"x1", "x2"}), "");
}

TEST_F(ExpressionTest, Relations) {
  const auto rel = [&](const std::string& text) {
    return parse_relation(text, scope, stasis::io::text_locator(text, where));
  };
  const auto value = [&](const sym::Expr& e, double xv, double yv) {
    return sym::evaluate(e, {x, y, alpha}, {xv, yv, 0.0});
  };
  auto r = rel("x + y <= 4");  // constant side becomes the bound, expression side stays alone
  EXPECT_TRUE(sym::is_same(r.expr, x + y));
  EXPECT_EQ(r.lower, -kInf);
  EXPECT_EQ(r.upper, 4);
  r = rel("4 >= x");
  EXPECT_TRUE(sym::is_same(r.expr, x));
  EXPECT_EQ(r.lower, -kInf);
  EXPECT_EQ(r.upper, 4);
  r = rel("2*n <= x");
  EXPECT_TRUE(sym::is_same(r.expr, x));
  EXPECT_EQ(r.lower, 6);
  EXPECT_EQ(r.upper, kInf);
  r = rel("x >= -1");
  EXPECT_EQ(r.lower, -1);
  EXPECT_EQ(r.upper, kInf);
  r = rel("x^2 == 2");
  EXPECT_EQ(r.lower, 2);
  EXPECT_EQ(r.upper, 2);
  r = rel("x <= y");  // both sides variable: a - b <= 0
  EXPECT_DOUBLE_EQ(value(r.expr, 5, 2), 3);
  EXPECT_EQ(r.lower, -kInf);
  EXPECT_EQ(r.upper, 0);
  r = rel("x >= y^2");
  EXPECT_DOUBLE_EQ(value(r.expr, 5, 2), 1);
  EXPECT_EQ(r.lower, 0);
  EXPECT_EQ(r.upper, kInf);
  r = rel("sin(x) == y");
  EXPECT_EQ(r.lower, 0);
  EXPECT_EQ(r.upper, 0);
  r = rel("-1 <= x - y <= 1");
  EXPECT_DOUBLE_EQ(value(r.expr, 5, 2), 3);
  EXPECT_EQ(r.lower, -1);
  EXPECT_EQ(r.upper, 1);
  r = rel("n >= x >= -inf");
  EXPECT_EQ(r.lower, -kInf);
  EXPECT_EQ(r.upper, 3);
  r = rel("min(x, (y)) <= v[1]");
  EXPECT_EQ(r.upper, 20);
}

TEST_F(ExpressionTest, RelationErrors) {
  EXPECT_STARTS_WITH(relation_error("x < 1"),
                     "p.yaml:3:12: error: strict comparison '<' is not supported, expected '<='");
  EXPECT_STARTS_WITH(relation_error("x = 1"), "p.yaml:3:12: error: '=' is not a comparison, expected '=='");
  EXPECT_STARTS_WITH(relation_error("x != 1"), "p.yaml:3:12: error: '!=' cannot be a constraint");
  EXPECT_STARTS_WITH(relation_error(" x + 1"), "p.yaml:3:11: error: missing comparison");
  EXPECT_STARTS_WITH(relation_error("1 <= 2"), "p.yaml:3:10: error: the constraint compares two constants");
  EXPECT_STARTS_WITH(relation_error("x - x <= y - y"),
                     "p.yaml:3:10: error: the constraint compares two constants");
  EXPECT_STARTS_WITH(relation_error("0 <= x >= 1"),
                     "p.yaml:3:17: error: a chained comparison mixes '<=' and '>='");
  EXPECT_STARTS_WITH(relation_error("0 == x == 1"), "p.yaml:3:17: error: a chained comparison mixes");
  EXPECT_STARTS_WITH(relation_error("y <= x <= 1"),
                     "p.yaml:3:10: error: the ends of a chained comparison must be");
  EXPECT_STARTS_WITH(relation_error("0 <= x <= y"),
                     "p.yaml:3:20: error: the ends of a chained comparison must be");
  EXPECT_STARTS_WITH(relation_error("0 <= 1 <= 2"), "p.yaml:3:15: error: the middle of a chained comparison");
  EXPECT_STARTS_WITH(relation_error("0 <= x <= 1 <= 2"), "p.yaml:3:22: error: too many comparisons");
  EXPECT_STARTS_WITH(relation_error("x <= "), "p.yaml:3:15: error: empty expression");
  EXPECT_STARTS_WITH(relation_error("x <= y + foo"), "p.yaml:3:19: error: unknown name 'foo'");
}

// Random input must give a value or a stasis::Error: never a crash, a hang or another exception.
TEST_F(ExpressionTest, FuzzNeverCrashes) {
  std::mt19937 rng(12345);
  const std::vector<std::string> atoms = {
      "x",   "y",    "v",     "alpha", "n",    "pi",  "inf",  "1",    "0",  "2.5", "1e-3", ".5", "1e",
      "+",   "-",    "*",     "/",     "^",    "(",   ")",    "[",    "]",  ",",   " ",    "\n", "sin",
      "min", "max",  "atan2", "sign",  "sqrt", "log", "<=",   ">=",   "==", "<",   "=",    "!",  "**",
      "e",   "\xe2", "\x88",  "\t",    "\0",   "foo", "v[0]", "v[9]", "xx", "#",   "'",    "\"", "1e999"};
  std::uniform_int_distribution<std::size_t> pick(0, atoms.size() - 1);
  std::uniform_int_distribution<int> length(0, 24);
  std::uniform_int_distribution<int> byte(0, 255);
  int parsed = 0, rejected = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string text;
    if (iter % 4 == 0) {
      for (int k = length(rng); k > 0; --k) text += static_cast<char>(byte(rng));
    } else {
      for (int k = length(rng); k > 0; --k) text += atoms[pick(rng)];
    }
    try {
      const sym::Expr e = parse(text);
      (void)e;
      ++parsed;
    } catch (const Error& e) {
      EXPECT_STARTS_WITH(std::string(e.what()), "p.yaml:");
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception for '" << text << "': " << e.what();
    }
    try {
      parse_relation(text, scope, stasis::io::text_locator(text, where));
    } catch (const Error&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception in parse_relation for '" << text << "': " << e.what();
    }
  }
  EXPECT_GT(parsed, 100);  // the generator does produce valid expressions too
  EXPECT_GT(rejected, 100);
}

}  // namespace
