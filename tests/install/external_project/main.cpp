// Uses an installed stasis: checks its version, compiles and differentiates an expression, and
// solves a small MPCC read from YAML text with the IPOPT homotopy (so the program links every
// library stasis depends on). Exit code 0 when every result matches the value worked out by hand.
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "stasis/io/mpcc_build.hpp"
#include "stasis/io/problem_file.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/sym.hpp"
#include "stasis/version.hpp"

#ifndef EXPECTED_STASIS_VERSION
#error "compile with -DEXPECTED_STASIS_VERSION='\"MAJOR.MINOR.PATCH\"'"
#endif

using namespace stasis;

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

}  // namespace

int main() try {
  // 1. The library's version is the one the package (CMake or pkg-config) announced.
  check(version() == EXPECTED_STASIS_VERSION,
        "stasis::version() = " + version() + ", expected " + EXPECTED_STASIS_VERSION);

  // 2. f(x, y) = x sin(y) + exp(x y) and its gradient, compiled into one Function.
  sym::Expr x = sym::Expr::symbol("x"), y = sym::Expr::symbol("y");
  sym::Expr f = x * sin(y) + exp(x * y);
  sym::Function fun("f_and_gradient", {{x, y}}, {{f}, sym::gradient(f, {x, y})});
  const double xv = 0.5, yv = 2.0;
  const std::vector<std::vector<double>> out = fun({{xv, yv}});
  const double e = std::exp(xv * yv);
  check(near(out[0][0], xv * std::sin(yv) + e, 1e-12), "f(0.5, 2) = " + std::to_string(out[0][0]));
  check(near(out[1][0], std::sin(yv) + yv * e, 1e-12) && near(out[1][1], xv * std::cos(yv) + xv * e, 1e-12),
        "gradient of f at (0.5, 2)");

  // 3. min (x1 - 1)^2 + x2^3 + x2^2  s.t.  0 <= x1 ⟂ x2 >= 0: the solution is (1, 0), f* = 0.
  const char* yaml = R"(
kind: mpcc
variables:
  x1: {lower: 0, start: 0}
  x2: {lower: 0, start: 0}
objective: "(x1 - 1)^2 + x2^3 + x2^2"
complementarity:
  - [x1, x2]
options: {complementarity_tol: 1e-9}
)";
  const io::MpccFile file = io::read_mpcc_string(yaml, "consumer.yaml");
  const mpcc::Problem problem = io::build_mpcc(file);
  mpcc::Homotopy homotopy(problem, file.options);
  const mpcc::Result r = homotopy.solve();
  check(r.converged, "MPCC homotopy: " + r.message);
  check(r.w.size() == 2 && near(r.w[0], 1.0, 1e-6) && near(r.w[1], 0.0, 1e-6) && near(r.objective, 0.0, 1e-8),
        "MPCC solution (" + std::to_string(r.w.at(0)) + ", " + std::to_string(r.w.at(1)) + ")");

  std::puts(failures == 0 ? "stasis consumer: all checks passed" : "stasis consumer: checks FAILED");
  return failures == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
