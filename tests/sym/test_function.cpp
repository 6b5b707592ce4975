// sym::Function: allocation-free evaluation, thread safety, symbolic call, substitution,
// free_symbols and the error cases of the sym API.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <thread>

#include "stasis/error.hpp"
#include "sym_test_support.hpp"

// ---- allocation counter: global operator new/delete replaced for the whole test executable -----
// Counting is active only inside an AllocationWindow; outside it the replacements just forward to
// malloc/free.
namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
void* counted_alloc(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* counted_aligned_alloc(std::size_t n, std::align_val_t al) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(al);
  const std::size_t size = ((n ? n : 1) + a - 1) / a * a;
  if (void* p = std::aligned_alloc(a, size)) return p;
  throw std::bad_alloc();
}
struct AllocationWindow {
  AllocationWindow() {
    g_allocations = 0;
    g_counting = true;
  }
  ~AllocationWindow() { g_counting = false; }
  long count() const { return g_allocations.load(); }
};
}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t n, std::align_val_t a) { return counted_aligned_alloc(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_aligned_alloc(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

using namespace symtest;
using stasis::Error;
using sym::Matrix;
using sym::Vector;

/// A large function: value, gradient and Hessian of a dense nonlinear coupling of n inputs with
/// every kind of instruction (immediates, transcendental ops, if_else, fmin, comparisons).
struct Large {
  Vector x;
  sym::Function F;
  std::size_t n_out = 0;
};
Large make_large(std::size_t n) {
  Large L;
  L.x = sym::symbols("x", n);
  const Vector& x = L.x;
  Expr f = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i; j < n; ++j) {
      Expr t = sym::sin(x[i] * x[j] + 0.1 * static_cast<double>(j)) / (1.5 + sym::sq(x[j]));
      if ((i + j) % 3 == 0) t = t * sym::exp(0.2 * x[i]) - sym::atan2(x[j], 2.0 + sym::sq(x[i]));
      if ((i + j) % 5 == 0) t = sym::if_else(x[i] < x[j], t, sym::fmin(t, 2.0 * x[j]));
      if ((i + j) % 7 == 0)
        t = t + sym::pow(1.0 + sym::sq(x[i]), 0.5 + 0.1 * static_cast<double>(j)) -
            3.0 / (2.0 + sym::cos(x[j]));
      f = f + t;
    }
  Vector g = sym::gradient(f, x);
  sym::SparseMatrix H = sym::hessian_lower(f, x);
  L.F = sym::Function("large", {x}, {{f}, g, H.values});
  L.n_out = 3;
  return L;
}

// Function::eval performs no heap allocation (global operator new counted during the calls) for a
// function of several thousand instructions; eval writes exactly what operator() returns.
TEST(SymFunction, EvalOfALargeFunctionPerformsNoHeapAllocation) {
  Large L = make_large(12);
  const sym::Function& F = L.F;
  ASSERT_GT(F.instruction_count(), 2000u);
  std::vector<double> x(12), work(F.work_size()), f(F.size_out(0)), g(F.size_out(1)), h(F.size_out(2));
  std::mt19937_64 rng(5);
  for (auto& v : x) v = std::uniform_real_distribution<double>(-1, 1)(rng);
  const double* in[] = {x.data()};
  double* out[] = {f.data(), g.data(), h.data()};
  long allocations = 0;
  {
    AllocationWindow window;
    for (int rep = 0; rep < 100; ++rep) F.eval(in, out, work.data());
    double* partial[] = {f.data(), nullptr, h.data()};  // skipped output
    F.eval(in, partial, work.data());
    allocations = window.count();
  }
  EXPECT_EQ(allocations, 0) << "Function::eval allocated";
  auto ref = F({x});
  EXPECT_EQ(ref[0], f);
  EXPECT_EQ(ref[1], g);
  EXPECT_EQ(ref[2], h);
  // and the compiled program computes exactly what the reference interpreter computes
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t i = 0; i < F.size_out(j); ++i)
      EXPECT_EQ(ref[j][i], sym::evaluate(F.symbolic_outputs()[j][i], L.x, x)) << "output " << j << "," << i;
  // The counter itself works: a vector allocation inside a window is seen.
  {
    AllocationWindow window;
    std::vector<double>* v = new std::vector<double>(10);
    delete v;
    EXPECT_GE(window.count(), 2);
  }
}

// Two threads evaluate the same Function with their own work arrays 400 times each over 50 input
// points; every result is bit-identical to the single-threaded evaluation.
TEST(SymFunction, ConcurrentEvaluationWithSeparateWorkArraysIsBitIdentical) {
  Large L = make_large(10);
  const sym::Function& F = L.F;
  const std::size_t n_points = 50;
  std::mt19937_64 rng(9);
  std::vector<std::vector<double>> points(n_points);
  for (auto& p : points) p = uniform(rng, 10, -1.5, 1.5);
  std::size_t out_size = 0;
  for (std::size_t j = 0; j < F.n_out(); ++j) out_size += F.size_out(j);
  auto run = [&](std::size_t p, std::vector<double>& work, double* dst) {
    const double* in[] = {points[p].data()};
    double* out[] = {dst, dst + F.size_out(0), dst + F.size_out(0) + F.size_out(1)};
    F.eval(in, out, work.data());
  };
  std::vector<double> reference(n_points * out_size);
  {
    std::vector<double> work(F.work_size());
    for (std::size_t p = 0; p < n_points; ++p) run(p, work, reference.data() + p * out_size);
  }
  const int reps = 400;
  std::vector<std::vector<double>> results(2, std::vector<double>(n_points * out_size));
  std::atomic<int> mismatches{0};
  auto worker = [&](int t) {
    std::vector<double> work(F.work_size());
    for (int r = 0; r < reps; ++r) {
      for (std::size_t p = 0; p < n_points; ++p) {
        std::size_t q = (t == 0) ? p : n_points - 1 - p;  // different order per thread
        run(q, work, results[t].data() + q * out_size);
      }
      if (std::memcmp(results[t].data(), reference.data(), reference.size() * sizeof(double)) != 0)
        ++mismatches;
    }
  };
  std::thread t0(worker, 0), t1(worker, 1);
  t0.join();
  t1.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// The work array is all the state: reusing one array for different functions and inputs, or
// evaluating into outputs that alias nothing, gives the same numbers as fresh arrays.
TEST(SymFunction, WorkArrayCarriesNoStateBetweenCalls) {
  Large A = make_large(6), B = make_large(7);
  std::vector<double> work(std::max(A.F.work_size(), B.F.work_size()), std::nan(""));
  std::mt19937_64 rng(2);
  for (int rep = 0; rep < 20; ++rep) {
    auto xa = uniform(rng, 6, -1, 1), xb = uniform(rng, 7, -1, 1);
    std::vector<double> fa(1), ga(6), ha(A.F.size_out(2));
    const double* in[] = {xa.data()};
    double* out[] = {fa.data(), ga.data(), ha.data()};
    A.F.eval(in, out, work.data());
    auto ref = A.F({xa});
    EXPECT_EQ(ref[0], fa);
    EXPECT_EQ(ref[1], ga);
    EXPECT_EQ(ref[2], ha);
    std::vector<double> fb(1);
    const double* inb[] = {xb.data()};
    double* outb[] = {fb.data(), nullptr, nullptr};
    B.F.eval(inb, outb, work.data());
    EXPECT_EQ(B.F({xb})[0], fb);
  }
}

// Outputs that are inputs, constants, or the same node twice; a function with no outputs; an
// input that no output uses.
TEST(SymFunction, DegenerateOutputsAndUnusedInputs) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y"), u = Expr::symbol("unused");
  sym::Function F("deg", {{x, y}, {u}}, {{x, 2.5, x * y, x * y, Expr(0.0)}, {}});
  auto r = F({{3.0, -2.0}, {100.0}});
  EXPECT_EQ(r[0], (std::vector<double>{3.0, 2.5, -6.0, -6.0, 0.0}));
  EXPECT_TRUE(r[1].empty());
  sym::Function E("empty", {{x}}, {});
  EXPECT_EQ(E.n_out(), 0u);
  EXPECT_TRUE(E({{1.0}}).empty());
  sym::Function C("constants_only", {}, {{1.0, -2.0}});
  EXPECT_EQ(C({})[0], (std::vector<double>{1.0, -2.0}));
  EXPECT_EQ(C.work_size(), 0u);
}

// substitute(): the substituted expression evaluates like the original evaluated at the
// substituted values (1e-15 relative; exact in practice); simultaneous substitution (swap).
TEST(SymFunction, SubstituteEqualsEvaluationAtSubstitutedValues) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y"), u = Expr::symbol("u"), v = Expr::symbol("v");
  Vector e = {sym::sin(x) * y + sym::exp(x - y), sym::atan2(y, x) + sym::sq(x * y),
              sym::if_else(x < y, x, y * 2.0)};
  Vector s = sym::substitute(e, {x, y}, {sym::cos(u) + v, u * v});
  std::mt19937_64 rng(4);
  for (int p = 0; p < 20; ++p) {
    auto uv = uniform(rng, 2, -1.5, 1.5);
    const double xv = std::cos(uv[0]) + uv[1], yv = uv[0] * uv[1];
    for (std::size_t i = 0; i < e.size(); ++i) {
      const double a = sym::evaluate(s[i], {u, v}, uv), b = sym::evaluate(e[i], {x, y}, {xv, yv});
      EXPECT_TRUE(close(a, b, 1e-15, std::fabs(b))) << s[i] << ": " << a << " vs " << b;
    }
  }
  // simultaneous: x -> y, y -> x
  Expr swapped = sym::substitute(x - 2.0 * y, {x, y}, {y, x});
  EXPECT_EQ(sym::evaluate(swapped, {x, y}, {1.0, 10.0}), 10.0 - 2.0);
  // substituting a symbol by itself or into an expression without it leaves it unchanged
  EXPECT_TRUE(sym::is_same(sym::substitute(e[0], {u}, {x}), e[0]));
  EXPECT_TRUE(sym::is_same(sym::substitute(e[0], {x}, {x}), e[0]));
  // a substitution that makes a term fold away (x -> 0)
  EXPECT_TRUE(sym::substitute(x * y, {x}, {Expr(0.0)}).is_zero());
  // a bare symbol as the expression
  EXPECT_TRUE(sym::is_same(sym::substitute(x, {x}, {u}), u));
}

// Function::call (symbolic) gives expressions whose values equal evaluating the function at the
// arguments' values (1e-15 relative).
TEST(SymFunction, SymbolicCallEqualsNumericEvaluationAtArgumentValues) {
  Vector a = sym::symbols("a", 2);
  Expr b = Expr::symbol("b");
  sym::Function F("F", {a, {b}},
                  {{a[0] * b + sym::sin(a[1]), sym::sqrt(1.0 + sym::sq(a[0] - b))}, {a[1] / b}});
  Expr s = Expr::symbol("s"), t = Expr::symbol("t");
  auto out = F.call({{s * t, sym::exp(t)}, {2.0 + s}});
  ASSERT_EQ(out.size(), 2u);
  std::mt19937_64 rng(6);
  for (int p = 0; p < 20; ++p) {
    auto st = uniform(rng, 2, -1, 1);
    auto num = F({{st[0] * st[1], std::exp(st[1])}, {2.0 + st[0]}});
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t i = 0; i < out[j].size(); ++i) {
        const double v = sym::evaluate(out[j][i], {s, t}, st);
        EXPECT_TRUE(close(v, num[j][i], 1e-15, std::fabs(num[j][i]))) << out[j][i];
      }
  }
}

// free_symbols lists the symbols an expression depends on, in creation order, without the ones
// folded away; depends_on agrees.
TEST(SymFunction, FreeSymbolsInCreationOrderAndDependsOn) {
  Expr c = Expr::symbol("c"), a = Expr::symbol("a"), b = Expr::symbol("b"), unused = Expr::symbol("z");
  Vector fs = sym::free_symbols({b * sym::sin(a), c + 1.0, unused * 0.0});
  ASSERT_EQ(fs.size(), 3u);
  EXPECT_TRUE(sym::is_same(fs[0], c));
  EXPECT_TRUE(sym::is_same(fs[1], a));
  EXPECT_TRUE(sym::is_same(fs[2], b));
  EXPECT_TRUE(sym::free_symbols({Expr(3.0)}).empty());
  EXPECT_TRUE(sym::depends_on(b * sym::sin(a), a));
  EXPECT_FALSE(sym::depends_on(b * sym::sin(a), c));
  EXPECT_TRUE(sym::depends_on(if_else(a < b, 0.0, c), c));
  // symbols with the same name are distinct
  Expr a2 = Expr::symbol("a");
  EXPECT_FALSE(sym::is_same(a, a2));
  EXPECT_EQ(sym::free_symbols({a + a2}).size(), 2u);
}

// Every misuse throws stasis::Error (never aborts) with a message naming the problem.
TEST(SymFunction, MisuseThrowsStasisError) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y"), z = Expr::symbol("z");
  // Function construction
  EXPECT_THROW(sym::Function("f", {{x}}, {{x * y}}), Error);          // output depends on a non-input
  EXPECT_THROW(sym::Function("f", {{x, y}, {x}}, {{x * y}}), Error);  // duplicate input symbol
  EXPECT_THROW(sym::Function("f", {{x, x}}, {{x}}), Error);           // duplicate within one input
  EXPECT_THROW(sym::Function("f", {{x, x + y}}, {{x}}), Error);       // non-symbol input
  EXPECT_THROW(sym::Function("f", {{x, Expr(1.0)}}, {{x}}), Error);   // constant input
  try {
    sym::Function("residual", {{x}}, {{x * y}});
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'y'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("residual"), std::string::npos) << e.what();
  }
  // Function evaluation and call with wrong sizes
  sym::Function F("f", {{x, y}, {z}}, {{x * y * z}});
  EXPECT_THROW(F({{1.0, 2.0}}), Error);              // missing input
  EXPECT_THROW(F({{1.0}, {3.0}}), Error);            // short input
  EXPECT_THROW(F({{1.0, 2.0, 5.0}, {3.0}}), Error);  // long input
  EXPECT_THROW(F.call({{x, y}}), Error);             // missing argument
  EXPECT_THROW(F.call({{x}, {z}}), Error);           // short argument
  // substitute / evaluate
  EXPECT_THROW(sym::substitute(x * y, {x, y}, {Expr(1.0)}), Error);
  EXPECT_THROW(sym::substitute(x * y, {x * y}, {Expr(1.0)}), Error);
  EXPECT_THROW(sym::evaluate(x * y, {x}, {1.0, 2.0}), Error);
  EXPECT_THROW(sym::evaluate(x * y, {x}, {1.0}), Error);  // no value for y
  // derivatives
  EXPECT_THROW(sym::gradient(x * y, {x, x * y}), Error);
  EXPECT_THROW(sym::jacobian_sparse({x * y}, {Expr(2.0)}), Error);
  EXPECT_THROW(sym::hessian_lower(x * y, {x + 1.0}), Error);
  EXPECT_THROW(sym::hessian_lower({x, y}, {z}, {x, y}), Error);  // weights size
  // node accessors
  EXPECT_THROW((x + y).constant_value(), Error);
  EXPECT_THROW(Expr(1.0).name(), Error);
  EXPECT_THROW((x + y).arg(2), Error);
  EXPECT_THROW(x.arg(0), Error);
  // matrices
  Matrix A(2, 3), B(2, 2);
  EXPECT_THROW(A * A, Error);
  EXPECT_THROW(A + B, Error);
  EXPECT_THROW(A - B, Error);
  EXPECT_THROW(A.as_vector(), Error);
  EXPECT_THROW(sym::cholesky(A), Error);
  EXPECT_THROW(sym::solve_spd(B, Vector{x, y, z}), Error);
  EXPECT_THROW(sym::solve_spd(Matrix{{x, y, z}, {y, x, z}}, Vector{x, y}), Error);  // not square
  EXPECT_THROW((Matrix{{x, y}, {z}}), Error);                                       // ragged literal
  EXPECT_THROW(sym::dot({x, y}, {x}), Error);
  EXPECT_THROW(Vector({x, y}) + Vector({x}), Error);
  EXPECT_THROW(Vector({x, y}) - Vector({x}), Error);
}

}  // namespace
