// bench_sym — the symbolic engine on one time-frozen FESD element of a planar two-link leg with a
// foot contact, against a hand-written double evaluation of the same residual in the same run.
//
// Model (time-freezing of a complementarity Lagrangian system, inelastic impact, no friction):
//   q = (x_base, z_base, φ_hip, φ_knee), v = q', clock t: state x = (q, v, t) ∈ R⁹.
//   Base point mass m0; thigh (m1, l1, I1) and shank (m2, l2, I2) with centres at mid-length.
//   M(q) closed form; Coriolis C(q,v)v = Σ m_i J_iᵀ (J̇_i v) with J_i = ∂p_i/∂q (sym::jacobian);
//   gravity G = ∇V (sym::gradient); torques u on the two joints.
//   Foot gap f_c(q) = foot height, normal n = ∇f_c (sym::gradient).
//   ODE field      f_ode = (v, M⁻¹(Bu - Cv - G), 1)
//   auxiliary field f_aux = (0, a_n M⁻¹ n, 0)          (clock frozen), M⁻¹[.,.] by sym::solve_spd
//   switching functions c(x) = (f_c(q), nᵀv); Heaviside step form with α ∈ [0,1]²:
//   f(x, α) = (1 - γ) f_ode + γ f_aux, γ = (1 - α_1)(1 - α_2) (auxiliary region: gap and normal
//   velocity negative).
// One finite element, Radau IIA with n_s = 2 in integral form:
//   X_k - x0 - h Σ_j a_kj f(X_j, α_j) = 0           (18 rows)
//   c(X_k) - λp_k + λn_k = 0                         ( 4 rows)
// Variables (differentiated): X_1, X_2, α_1, α_2, λp_1, λp_2, λn_1, λn_2, h = 31;
// parameters: x0 (9, the previous element's end) and u (2).
//
// Timed per NLP iteration for 100 elements: residual + Jacobian (jacobian_sparse) + Lagrangian
// Hessian (hessian_lower with 22 multipliers), three compiled sym::Functions evaluated with one
// work array, against the hand-written double residual of the same 100 elements; the ratio is
// printed. Also: a fused Function (g, J, H in one program), construction times, instruction counts,
// nnz, work sizes, and a correctness check (sym vs plain residual, sym Jacobian vs FD of plain,
// Hessian vs FD of the Lagrangian gradient).
//
// History on this machine (2 shared cores; ratios from one run each): the first engine (one
// instruction per dispatch, adjoints with Neg nodes and seed-dependent divisions) took 2.27 ms
// = 113x with 9827 instructions; run-batched dispatch brought it to 0.74 ms (38x), sign-carrying
// adjoints with shared partials to 0.61 ms (32x, 8750 instructions), fused multiply-adds to
// 0.49-0.54 ms (26x, 6454 instructions). `bench_sym --quick` runs one short batch for profiling.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "stasis/sym.hpp"

namespace sym = stasis::sym;
using sym::Expr;
using sym::Matrix;
using sym::Vector;

namespace {

// ---- model constants ------------------------------------------------------------------------
constexpr double m0 = 2.0, m1 = 1.0, m2 = 0.6, l1 = 0.5, l2 = 0.55;
constexpr double a1 = 0.5 * l1, a2 = 0.5 * l2;
constexpr double I1 = m1 * l1 * l1 / 12.0, I2 = m2 * l2 * l2 / 12.0;
constexpr double grav = 9.81, a_n = 100.0;
constexpr double mt = m0 + m1 + m2;
constexpr int nx = 9, ns = 2, nc = 2;
constexpr double radau[2][2] = {{5.0 / 12.0, -1.0 / 12.0}, {3.0 / 4.0, 1.0 / 4.0}};
constexpr int n_var = ns * nx + ns * nc * 3 + 1;  // 31
constexpr int n_par = nx + 2;                     // 11
constexpr int n_res = ns * nx + ns * nc;          // 22

// Variable layout: X_1 (9), X_2 (9), α (2 per stage), λp (2 per stage), λn (2 per stage), h.
constexpr int idx_X(int k) { return k * nx; }
constexpr int idx_alpha(int k) { return ns * nx + k * nc; }
constexpr int idx_lp(int k) { return ns * nx + ns * nc + k * nc; }
constexpr int idx_ln(int k) { return ns * nx + 2 * ns * nc + k * nc; }
constexpr int idx_h = ns * nx + 3 * ns * nc;

// ---- symbolic model -------------------------------------------------------------------------
struct Field {
  Vector f;  // 9
  Vector c;  // 2
};

Field field_sym(const Vector& x, const Vector& alpha, const Vector& u) {
  Vector q(x.begin(), x.begin() + 4), v(x.begin() + 4, x.begin() + 8);
  const Expr s1 = sym::sin(q[2]), c1 = sym::cos(q[2]), s12 = sym::sin(q[2] + q[3]),
             c12 = sym::cos(q[2] + q[3]);
  const Expr cp2 = sym::cos(q[3]);
  // mass matrix, closed form
  Matrix M(4, 4);
  M(0, 0) = mt;
  M(1, 1) = mt;
  M(0, 2) = M(2, 0) = m1 * a1 * c1 + m2 * (l1 * c1 + a2 * c12);
  M(0, 3) = M(3, 0) = m2 * a2 * c12;
  M(1, 2) = M(2, 1) = m1 * a1 * s1 + m2 * (l1 * s1 + a2 * s12);
  M(1, 3) = M(3, 1) = m2 * a2 * s12;
  M(2, 2) = m1 * a1 * a1 + m2 * (l1 * l1 + a2 * a2 + 2.0 * l1 * a2 * cp2) + I1 + I2;
  M(2, 3) = M(3, 2) = m2 * (a2 * a2 + l1 * a2 * cp2) + I2;
  M(3, 3) = m2 * a2 * a2 + I2;
  // centre-of-mass positions, their Jacobians (symbolic), and J̇ v (closed form)
  Vector p1 = {q[0] + a1 * s1, q[1] - a1 * c1};
  Vector p2 = {q[0] + l1 * s1 + a2 * s12, q[1] - l1 * c1 - a2 * c12};
  Matrix J1 = sym::jacobian(p1, q), J2 = sym::jacobian(p2, q);
  const Expr w1 = sym::sq(v[2]), w12 = sym::sq(v[2] + v[3]);
  Vector b1 = {-(a1 * w1) * s1, a1 * w1 * c1};
  Vector b2 = {-(l1 * w1) * s1 - a2 * w12 * s12, l1 * w1 * c1 + a2 * w12 * c12};
  Vector Cv = m1 * (J1.transpose() * b1) + m2 * (J2.transpose() * b2);
  // gravity from the potential
  Expr V = grav * (m0 * q[1] + m1 * p1[1] + m2 * p2[1]);
  Vector G = sym::gradient(V, q);
  Vector F = Vector{0.0, 0.0, u[0], u[1]} - Cv - G;
  // contact
  Expr gap = q[1] - l1 * c1 - l2 * c12;
  Vector n = sym::gradient(gap, q);
  Matrix rhs(4, 2);
  for (int i = 0; i < 4; ++i) {
    rhs(i, 0) = F[i];
    rhs(i, 1) = n[i];
  }
  Matrix sol = sym::solve_spd(M, rhs);
  const Expr vn = sym::dot(n, v);
  const Expr gamma = (1.0 - alpha[0]) * (1.0 - alpha[1]);
  const Expr ode = 1.0 - gamma;
  Field out;
  out.f.resize(nx);
  for (int i = 0; i < 4; ++i) out.f[i] = ode * v[i];
  for (int i = 0; i < 4; ++i) out.f[4 + i] = ode * sol(i, 0) + gamma * (a_n * sol(i, 1));
  out.f[8] = ode;
  out.c = {gap, vn};
  return out;
}

struct Element {
  Vector w, p, mu;  // variables, parameters, multipliers
  Vector residual;
};

Element element_sym() {
  Element e;
  e.w = sym::symbols("w", n_var);
  e.p = sym::symbols("p", n_par);
  e.mu = sym::symbols("mu", n_res);
  Vector x0(e.p.begin(), e.p.begin() + nx), u(e.p.begin() + nx, e.p.end());
  const Expr h = e.w[idx_h];
  std::vector<Field> fk;
  for (int k = 0; k < ns; ++k) {
    Vector X(e.w.begin() + idx_X(k), e.w.begin() + idx_X(k) + nx);
    Vector alpha(e.w.begin() + idx_alpha(k), e.w.begin() + idx_alpha(k) + nc);
    fk.push_back(field_sym(X, alpha, u));
  }
  for (int k = 0; k < ns; ++k)
    for (int i = 0; i < nx; ++i) {
      Expr s = 0.0;
      for (int j = 0; j < ns; ++j) s = s + radau[k][j] * fk[j].f[i];
      e.residual.push_back(e.w[idx_X(k) + i] - x0[i] - h * s);
    }
  for (int k = 0; k < ns; ++k)
    for (int i = 0; i < nc; ++i) e.residual.push_back(fk[k].c[i] - e.w[idx_lp(k) + i] + e.w[idx_ln(k) + i]);
  return e;
}

// ---- the same residual, hand-written in double ----------------------------------------------
inline void field_plain(const double* x, const double* alpha, const double* u, double* f, double* c) {
  const double* v = x + 4;
  const double s1 = std::sin(x[2]), c1 = std::cos(x[2]), s12 = std::sin(x[2] + x[3]),
               c12 = std::cos(x[2] + x[3]);
  const double cp2 = std::cos(x[3]);
  double M[4][4];
  M[0][0] = mt;
  M[1][1] = mt;
  M[0][1] = M[1][0] = 0.0;
  M[0][2] = M[2][0] = m1 * a1 * c1 + m2 * (l1 * c1 + a2 * c12);
  M[0][3] = M[3][0] = m2 * a2 * c12;
  M[1][2] = M[2][1] = m1 * a1 * s1 + m2 * (l1 * s1 + a2 * s12);
  M[1][3] = M[3][1] = m2 * a2 * s12;
  M[2][2] = m1 * a1 * a1 + m2 * (l1 * l1 + a2 * a2 + 2.0 * l1 * a2 * cp2) + I1 + I2;
  M[2][3] = M[3][2] = m2 * (a2 * a2 + l1 * a2 * cp2) + I2;
  M[3][3] = m2 * a2 * a2 + I2;
  // Jacobians of the centres of mass
  const double J1[2][4] = {{1, 0, a1 * c1, 0}, {0, 1, a1 * s1, 0}};
  const double J2[2][4] = {{1, 0, l1 * c1 + a2 * c12, a2 * c12}, {0, 1, l1 * s1 + a2 * s12, a2 * s12}};
  const double w1 = v[2] * v[2], w12 = (v[2] + v[3]) * (v[2] + v[3]);
  const double b1[2] = {-(a1 * w1) * s1, a1 * w1 * c1};
  const double b2[2] = {-(l1 * w1) * s1 - a2 * w12 * s12, l1 * w1 * c1 + a2 * w12 * c12};
  const double G[4] = {0.0, grav * mt, grav * (m1 * a1 * s1 + m2 * (l1 * s1 + a2 * s12)),
                       grav * m2 * a2 * s12};
  double rhs[2][4];  // F and n
  const double n[4] = {0.0, 1.0, l1 * s1 + l2 * s12, l2 * s12};
  for (int i = 0; i < 4; ++i) {
    const double cv = m1 * (J1[0][i] * b1[0] + J1[1][i] * b1[1]) + m2 * (J2[0][i] * b2[0] + J2[1][i] * b2[1]);
    const double bu = i >= 2 ? u[i - 2] : 0.0;
    rhs[0][i] = bu - cv - G[i];
    rhs[1][i] = n[i];
  }
  // unpivoted Cholesky M = L Lᵀ and two solves
  double L[4][4] = {};
  for (int j = 0; j < 4; ++j) {
    double d = M[j][j];
    for (int k = 0; k < j; ++k) d -= L[j][k] * L[j][k];
    L[j][j] = std::sqrt(d);
    for (int i = j + 1; i < 4; ++i) {
      double s = M[i][j];
      for (int k = 0; k < j; ++k) s -= L[i][k] * L[j][k];
      L[i][j] = s / L[j][j];
    }
  }
  double sol[2][4];
  for (int r = 0; r < 2; ++r) {
    double y[4];
    for (int i = 0; i < 4; ++i) {
      double s = rhs[r][i];
      for (int k = 0; k < i; ++k) s -= L[i][k] * y[k];
      y[i] = s / L[i][i];
    }
    for (int i = 3; i >= 0; --i) {
      double s = y[i];
      for (int k = i + 1; k < 4; ++k) s -= L[k][i] * sol[r][k];
      sol[r][i] = s / L[i][i];
    }
  }
  const double gap = x[1] - l1 * c1 - l2 * c12;
  const double vn = n[0] * v[0] + n[1] * v[1] + n[2] * v[2] + n[3] * v[3];
  const double gamma = (1.0 - alpha[0]) * (1.0 - alpha[1]);
  const double ode = 1.0 - gamma;
  for (int i = 0; i < 4; ++i) f[i] = ode * v[i];
  for (int i = 0; i < 4; ++i) f[4 + i] = ode * sol[0][i] + gamma * (a_n * sol[1][i]);
  f[8] = ode;
  c[0] = gap;
  c[1] = vn;
}

void residual_plain(const double* w, const double* p, double* r) {
  const double* x0 = p;
  const double* u = p + nx;
  const double h = w[idx_h];
  double f[ns][nx], c[ns][nc];
  for (int k = 0; k < ns; ++k) field_plain(w + idx_X(k), w + idx_alpha(k), u, f[k], c[k]);
  for (int k = 0; k < ns; ++k)
    for (int i = 0; i < nx; ++i) {
      double s = 0.0;
      for (int j = 0; j < ns; ++j) s += radau[k][j] * f[j][i];
      r[k * nx + i] = w[idx_X(k) + i] - x0[i] - h * s;
    }
  for (int k = 0; k < ns; ++k)
    for (int i = 0; i < nc; ++i) r[ns * nx + k * nc + i] = c[k][i] - w[idx_lp(k) + i] + w[idx_ln(k) + i];
}

// ---- inputs for 100 elements ----------------------------------------------------------------
struct Data {
  std::vector<double> w, p, mu;
};

std::vector<Data> make_inputs(int n_el, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto U = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  auto state = [&](double* x) {
    x[0] = U(-1, 1);
    x[1] = U(0.7, 1.2);
    x[2] = U(-0.5, 0.5);
    x[3] = U(0.2, 1.2);
    for (int i = 4; i < 8; ++i) x[i] = U(-1.5, 1.5);
    x[8] = U(0, 2);
  };
  std::vector<Data> d(static_cast<std::size_t>(n_el));
  for (auto& e : d) {
    e.w.resize(n_var);
    e.p.resize(n_par);
    e.mu.resize(n_res);
    for (int k = 0; k < ns; ++k) state(&e.w[idx_X(k)]);
    for (int k = 0; k < ns; ++k)
      for (int i = 0; i < nc; ++i) {
        e.w[static_cast<std::size_t>(idx_alpha(k) + i)] = U(0, 1);
        e.w[static_cast<std::size_t>(idx_lp(k) + i)] = U(0, 1);
        e.w[static_cast<std::size_t>(idx_ln(k) + i)] = U(0, 1);
      }
    e.w[idx_h] = U(0.01, 0.05);
    state(e.p.data());
    e.p[nx] = U(-5, 5);
    e.p[nx + 1] = U(-5, 5);
    for (auto& m : e.mu) m = U(-1, 1);
  }
  return d;
}

/// Histogram of the operations of the graph reachable from `roots` (what the compiled program runs).
std::string op_mix(const Vector& roots) {
  std::vector<const sym::Node*> stack;
  std::unordered_set<const sym::Node*> seen;
  std::map<std::string, int> count;
  for (const Expr& r : roots)
    if (seen.insert(r.node()).second) stack.push_back(r.node());
  while (!stack.empty()) {
    Expr e(stack.back());
    stack.pop_back();
    if (e.op() != sym::Op::Constant) ++count[sym::op_name(e.op())];
    for (int i = 0; i < e.num_args(); ++i)
      if (seen.insert(e.arg(i).node()).second) stack.push_back(e.arg(i).node());
  }
  std::vector<std::pair<int, std::string>> sorted;
  for (auto& [k, v] : count) sorted.emplace_back(v, k);
  std::sort(sorted.rbegin(), sorted.rend());
  std::string out;
  for (auto& [v, k] : sorted) out += k + " " + std::to_string(v) + ", ";
  return out;
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline void barrier() { asm volatile("" ::: "memory"); }

/// Best (minimum) over `batches` of the mean time of `reps` calls of body(), in seconds.
template <class F>
double best_time(int batches, int reps, F&& body) {
  double best = 1e300;
  for (int b = 0; b < batches; ++b) {
    auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) {
      body();
      barrier();
    }
    best = std::min(best, seconds_since(t0) / reps);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int n_el = 100;
  // --quick: one short batch of each timing (for profiling under perf / callgrind)
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const int batches = quick ? 1 : 15;
  std::printf("bench_sym: time-frozen FESD element of a planar two-link leg with foot contact\n");
  std::printf("  Radau IIA n_s = 2, step (Heaviside) form with 2 switching functions; %d elements\n", n_el);

  // ---- construction ----
  auto t0 = Clock::now();
  Element el = element_sym();
  const double t_model = seconds_since(t0);
  t0 = Clock::now();
  sym::SparseMatrix J = sym::jacobian_sparse(el.residual, el.w);
  const double t_jac = seconds_since(t0);
  t0 = Clock::now();
  sym::SparseMatrix H = sym::hessian_lower(el.residual, el.mu, el.w);
  const double t_hess = seconds_since(t0);
  t0 = Clock::now();
  sym::Function Fg("g", {el.w, el.p}, {el.residual});
  sym::Function FJ("jac_g", {el.w, el.p}, {J.values});
  sym::Function FH("hess_l", {el.w, el.p, el.mu}, {H.values});
  const double t_compile = seconds_since(t0);
  t0 = Clock::now();
  sym::Function Ffused("g_jac_hess", {el.w, el.p, el.mu}, {el.residual, J.values, H.values});
  const double t_compile_fused = seconds_since(t0);

  std::printf("\nproblem: %d variables, %d parameters, %d residuals, %d multipliers\n", n_var, n_par, n_res,
              n_res);
  std::printf("  nnz(J) = %zu, nnz(lower H) = %zu\n", J.nnz(), H.nnz());
  std::printf("construction (symbolic + compile): %.1f ms total\n",
              1e3 * (t_model + t_jac + t_hess + t_compile + t_compile_fused));
  std::printf(
      "  model %.2f ms, jacobian_sparse %.2f ms, hessian_lower %.2f ms, compile g/J/H %.2f ms, "
      "compile fused %.2f ms\n",
      1e3 * t_model, 1e3 * t_jac, 1e3 * t_hess, 1e3 * t_compile, 1e3 * t_compile_fused);
  std::printf("  expression pool: %zu nodes\n", sym::pool_size());
  std::printf("compiled functions (instructions / runs / work doubles):\n");
  std::printf("  g      %6zu / %5zu / %5zu\n", Fg.instruction_count(), Fg.run_count(), Fg.work_size());
  std::printf("  J      %6zu / %5zu / %5zu\n", FJ.instruction_count(), FJ.run_count(), FJ.work_size());
  std::printf("  H      %6zu / %5zu / %5zu\n", FH.instruction_count(), FH.run_count(), FH.work_size());
  std::printf("  g+J+H  %6zu                 (sum of the three)\n",
              Fg.instruction_count() + FJ.instruction_count() + FH.instruction_count());
  std::printf("  fused  %6zu / %5zu / %5zu   (one program for g, J, H)\n", Ffused.instruction_count(),
              Ffused.run_count(), Ffused.work_size());
  std::printf("graph op mix (before fusion) g: %s\n", op_mix(el.residual).c_str());
  std::printf("graph op mix (before fusion) J: %s\n", op_mix(J.values).c_str());
  std::printf("graph op mix (before fusion) H: %s\n", op_mix(H.values).c_str());

  // ---- data ----
  std::vector<Data> data = make_inputs(n_el, 42);
  std::vector<double> work(std::max({Fg.work_size(), FJ.work_size(), FH.work_size(), Ffused.work_size()}));
  std::vector<std::vector<double>> g_out(n_el, std::vector<double>(n_res)),
      J_out(n_el, std::vector<double>(J.nnz())), H_out(n_el, std::vector<double>(H.nnz())),
      plain_out(n_el, std::vector<double>(n_res));

  auto eval_sym = [&]() {
    for (int e = 0; e < n_el; ++e) {
      const Data& d = data[static_cast<std::size_t>(e)];
      const double* in[] = {d.w.data(), d.p.data(), d.mu.data()};
      double* og[] = {g_out[static_cast<std::size_t>(e)].data()};
      double* oJ[] = {J_out[static_cast<std::size_t>(e)].data()};
      double* oH[] = {H_out[static_cast<std::size_t>(e)].data()};
      Fg.eval(in, og, work.data());
      FJ.eval(in, oJ, work.data());
      FH.eval(in, oH, work.data());
    }
  };
  auto eval_fused = [&]() {
    for (int e = 0; e < n_el; ++e) {
      const Data& d = data[static_cast<std::size_t>(e)];
      const double* in[] = {d.w.data(), d.p.data(), d.mu.data()};
      double* o[] = {g_out[static_cast<std::size_t>(e)].data(), J_out[static_cast<std::size_t>(e)].data(),
                     H_out[static_cast<std::size_t>(e)].data()};
      Ffused.eval(in, o, work.data());
    }
  };
  auto eval_g_only = [&]() {
    for (int e = 0; e < n_el; ++e) {
      const Data& d = data[static_cast<std::size_t>(e)];
      const double* in[] = {d.w.data(), d.p.data()};
      double* og[] = {g_out[static_cast<std::size_t>(e)].data()};
      Fg.eval(in, og, work.data());
    }
  };
  auto eval_plain = [&]() {
    for (int e = 0; e < n_el; ++e) {
      const Data& d = data[static_cast<std::size_t>(e)];
      residual_plain(d.w.data(), d.p.data(), plain_out[static_cast<std::size_t>(e)].data());
    }
  };

  // ---- correctness ----
  eval_sym();
  eval_plain();
  double max_res_diff = 0, max_res = 0;
  for (int e = 0; e < n_el; ++e)
    for (int i = 0; i < n_res; ++i) {
      max_res_diff = std::max(max_res_diff, std::fabs(g_out[e][i] - plain_out[e][i]));
      max_res = std::max(max_res, std::fabs(plain_out[e][i]));
    }
  // Jacobian vs central FD of the plain residual on a few elements
  double max_jac_err = 0, max_jac = 0;
  for (int e = 0; e < 5; ++e) {
    Data d = data[static_cast<std::size_t>(e)];
    std::vector<double> dense(static_cast<std::size_t>(n_res * n_var), 0.0);
    for (std::size_t k = 0; k < J.nnz(); ++k)
      dense[static_cast<std::size_t>(J.row[k] * n_var + J.col[k])] = J_out[e][k];
    for (int j = 0; j < n_var; ++j) {
      const double hstep = 1e-6 * (1 + std::fabs(d.w[j]));
      std::vector<double> rp(n_res), rm(n_res);
      Data dp = d, dm = d;
      dp.w[j] += hstep;
      dm.w[j] -= hstep;
      residual_plain(dp.w.data(), dp.p.data(), rp.data());
      residual_plain(dm.w.data(), dm.p.data(), rm.data());
      for (int i = 0; i < n_res; ++i) {
        const double fd = (rp[i] - rm[i]) / (2 * hstep);
        max_jac_err = std::max(max_jac_err, std::fabs(fd - dense[static_cast<std::size_t>(i * n_var + j)]));
        max_jac = std::max(max_jac, std::fabs(fd));
      }
    }
  }
  // Lagrangian Hessian vs central FD of μᵀJ (compiled Jacobian) on a few elements
  double max_hess_err = 0, max_hess = 0;
  for (int e = 0; e < 3; ++e) {
    const Data& d = data[static_cast<std::size_t>(e)];
    std::vector<double> Hd(static_cast<std::size_t>(n_var * n_var), 0.0);
    for (std::size_t k = 0; k < H.nnz(); ++k) {
      Hd[static_cast<std::size_t>(H.row[k] * n_var + H.col[k])] = H_out[e][k];
      Hd[static_cast<std::size_t>(H.col[k] * n_var + H.row[k])] = H_out[e][k];
    }
    auto grad_lagrangian = [&](const std::vector<double>& wv) {
      std::vector<double> jv(J.nnz()), gl(n_var, 0.0);
      const double* in[] = {wv.data(), d.p.data()};
      double* out[] = {jv.data()};
      FJ.eval(in, out, work.data());
      for (std::size_t k = 0; k < J.nnz(); ++k)
        gl[static_cast<std::size_t>(J.col[k])] += d.mu[J.row[k]] * jv[k];
      return gl;
    };
    for (int j = 0; j < n_var; ++j) {
      const double hstep = 1e-5 * (1 + std::fabs(d.w[j]));
      std::vector<double> wp = d.w, wm = d.w;
      wp[j] += hstep;
      wm[j] -= hstep;
      auto gp = grad_lagrangian(wp), gm = grad_lagrangian(wm);
      for (int i = 0; i < n_var; ++i) {
        const double fd = (gp[i] - gm[i]) / (2 * hstep);
        max_hess_err = std::max(max_hess_err, std::fabs(fd - Hd[static_cast<std::size_t>(i * n_var + j)]));
        max_hess = std::max(max_hess, std::fabs(fd));
      }
    }
  }
  std::printf("\ncheck: max |g_sym - g_plain| = %.2e (max |g| = %.2e)\n", max_res_diff, max_res);
  std::printf("       max |J_sym - FD(g_plain)| = %.2e (max |J| = %.2e)\n", max_jac_err, max_jac);
  std::printf("       max |H_sym - FD(mu^T J_sym)| = %.2e (max |H| = %.2e)\n", max_hess_err, max_hess);

  // ---- timing ----
  const double t_plain = best_time(batches, quick ? 20 : 2000, eval_plain);
  const double t_g = best_time(batches, quick ? 3 : 300, eval_g_only);
  const double t_sym = best_time(batches, quick ? 3 : 60, eval_sym);
  const double t_fused = best_time(batches, quick ? 3 : 60, eval_fused);
  const double total_instr =
      static_cast<double>(Fg.instruction_count() + FJ.instruction_count() + FH.instruction_count());

  std::printf("\ntiming per NLP iteration (%d elements; best of %d batches):\n", n_el, batches);
  std::printf("  plain double residual          %9.1f us   (%6.0f ns per element)\n", 1e6 * t_plain,
              1e9 * t_plain / n_el);
  std::printf("  sym residual only              %9.1f us   (%6.0f ns per element)  ratio %5.1fx\n", 1e6 * t_g,
              1e9 * t_g / n_el, t_g / t_plain);
  std::printf("  sym g + J + H (3 functions)    %9.3f ms   (%6.2f us per element)  ratio %5.1fx\n",
              1e3 * t_sym, 1e6 * t_sym / n_el, t_sym / t_plain);
  std::printf("  sym g + J + H (fused)          %9.3f ms   (%6.2f us per element)  ratio %5.1fx\n",
              1e3 * t_fused, 1e6 * t_fused / n_el, t_fused / t_plain);
  std::printf("  interpreter speed              %9.2f ns per instruction (3 functions)\n",
              1e9 * t_sym / (n_el * total_instr));
  std::printf("\nRATIO sym(g+J+H) / plain(g) = %.1fx  (prototype reference: ~60x, 1.8-2.0 ms)\n",
              t_sym / t_plain);
  return 0;
}
