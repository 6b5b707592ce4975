// FESD transcription of a DCS into an MPCC (fesd.md §2–§4, M-new semantics unless noted).
#include "stasis/discretize/fesd.hpp"

#include <cmath>
#include <limits>

#include "stasis/error.hpp"
#include "stasis/sym/matrix.hpp"

namespace stasis::discretize {

namespace {

using mpcc::Index;
constexpr double kInf = std::numeric_limits<double>::infinity();

sym::Vector concat(std::initializer_list<sym::Vector> parts) {
  sym::Vector r;
  for (const auto& p : parts) r.insert(r.end(), p.begin(), p.end());
  return r;
}

sym::Vector sum_of(const std::vector<sym::Vector>& vs, std::size_t n) {
  sym::Vector s(n, sym::Expr(0.0));
  for (const auto& v : vs)
    for (std::size_t i = 0; i < n; ++i) s[i] = s[i] + v[i];
  return s;
}

std::vector<Index> range(Index first, std::size_t n) {
  std::vector<Index> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = first + static_cast<Index>(i);
  return r;
}

void append(std::vector<Index>& a, const std::vector<Index>& b) { a.insert(a.end(), b.begin(), b.end()); }

// Symbols of one finite element, local to its block kind.
struct FeSymbols {
  sym::Vector x_prev, lambda_prev, u, X_end, Z_end;
  sym::Expr h, T_final;
  std::vector<sym::Vector> X, Z, V;  // per stage point m = 1..n_s (X empty in differential rep.)
  std::vector<sym::Expr> X_expr_dummy;
};

}  // namespace

Transcription transcribe(const reformulate::Dcs& dcs, const OcpSpec& ocp, const Options& opt) {
  opt.validate();
  if (ocp.stages < 1) throw Error("ocp: stages must be at least 1");
  if (!(ocp.horizon > 0) || !std::isfinite(ocp.horizon)) throw Error("ocp: horizon must be positive and finite");
  const std::size_t n_x = dcs.n_x(), n_u = dcs.n_u(), n_z = dcs.n_z(), n_c = dcs.n_comp();
  const int N = ocp.stages, N_FE = opt.elements, n_s = opt.stages;
  auto check_size = [](const std::vector<double>& v, std::size_t n, const char* what) {
    if (!v.empty() && v.size() != n)
      throw Error(std::string("ocp: ") + what + " has " + std::to_string(v.size()) + " entries, expected " +
                  std::to_string(n));
  };
  check_size(ocp.u_lower, n_u, "controls' lower bounds");
  check_size(ocp.u_upper, n_u, "controls' upper bounds");
  check_size(ocp.u_start, n_u, "controls' start values");
  check_size(ocp.x_lower, n_x, "states' lower bounds");
  check_size(ocp.x_upper, n_x, "states' upper bounds");
  if (ocp.path_lower.size() != ocp.path.size() || ocp.path_upper.size() != ocp.path.size())
    throw Error("ocp: path constraint bounds do not match the path constraints");
  if (ocp.terminal_lower.size() != ocp.terminal.size() || ocp.terminal_upper.size() != ocp.terminal.size())
    throw Error("ocp: terminal constraint bounds do not match the terminal constraints");
  if (ocp.path_G.size() != ocp.path_H.size()) throw Error("ocp: path complementarity G and H differ in size");
  if (ocp.clock >= static_cast<int>(dcs.n_x())) throw Error("ocp: clock state index out of range");
  if (ocp.clock >= 0 && !(0 < ocp.speed_of_time_lower && ocp.speed_of_time_lower <= ocp.speed_of_time_start &&
                          ocp.speed_of_time_start <= ocp.speed_of_time_upper))
    throw Error("speed of time: need 0 < lower <= start <= upper, got lower " + std::to_string(ocp.speed_of_time_lower) +
                ", start " + std::to_string(ocp.speed_of_time_start) + ", upper " +
                std::to_string(ocp.speed_of_time_upper));
  if (ocp.time_optimal && !(ocp.final_time_lower <= ocp.horizon && ocp.horizon <= ocp.final_time_upper))
    throw Error("ocp: the horizon (the initial guess of the final time) must lie within final_time bounds [" +
                std::to_string(ocp.final_time_lower) + ", " + std::to_string(ocp.final_time_upper) + "]");

  Transcription tr;
  tr.tableau = butcher_tableau(opt.scheme, n_s);
  tr.representation = opt.effective_representation();
  const bool integral = tr.representation == Representation::Integral;
  const bool rbp = !tr.tableau.last_node_is_end;
  tr.rbp = rbp;
  tr.n_x = n_x;
  tr.n_u = n_u;
  tr.n_z = n_z;
  tr.n_boundary_z = dcs.boundary_z.size();
  CollocationMatrices col;
  if (integral) col = collocation_matrices(opt.scheme, n_s);
  const ButcherTableau& bt = tr.tableau;

  // Where the complementarity λ's live inside z, and which z exist at an FE end (rbp schemes).
  std::vector<int> lambda_in_z(n_c), lambda_in_zb(n_c);
  for (std::size_t i = 0; i < n_c; ++i) {
    lambda_in_z[i] = -1;
    for (std::size_t j = 0; j < n_z; ++j)
      if (sym::is_same(dcs.comp_lambda[i], dcs.z[j])) lambda_in_z[i] = static_cast<int>(j);
    if (lambda_in_z[i] < 0) throw Error("to_dcs: complementarity multiplier is not an algebraic variable");
    lambda_in_zb[i] = -1;
    for (std::size_t j = 0; j < dcs.boundary_z.size(); ++j)
      if (dcs.boundary_z[j] == lambda_in_z[i]) lambda_in_zb[i] = static_cast<int>(j);
  }
  sym::Vector z_boundary;
  for (int j : dcs.boundary_z) z_boundary.push_back(dcs.z[static_cast<std::size_t>(j)]);

  const sym::Vector model_xuz = concat({dcs.x, dcs.u, dcs.z});
  auto at_point = [&](const sym::Vector& e, const sym::Vector& X, const sym::Vector& u, const sym::Vector& Z) {
    return sym::substitute(e, model_xuz, concat({X, u, Z}));
  };
  const sym::Vector model_xu_zb = concat({dcs.x, dcs.u, z_boundary});
  auto at_boundary = [&](const sym::Vector& e, const sym::Vector& X, const sym::Vector& u, const sym::Vector& Zb) {
    return sym::substitute(e, model_xu_zb, concat({X, u, Zb}));
  };
  const sym::Vector model_xu = concat({dcs.x, dcs.u});
  auto at_state = [&](const sym::Vector& e, const sym::Vector& X, const sym::Vector& u) {
    return sym::substitute(e, model_xu, concat({X, u}));
  };

  mpcc::Problem& P = tr.problem;
  IndexMap& map = tr.map;
  const double stage_length = ocp.horizon / N;
  const double h0 = stage_length / N_FE;
  map.param_h0 = P.add_parameter("h0", h0);
  map.param_stage_length = P.add_parameter("stage_length", stage_length);
  map.param_rho_h = P.add_parameter("rho_h", opt.step_penalty);

  // ---- global variables -----------------------------------------------------------------------
  if (ocp.time_optimal) {
    map.final_time = P.add_variable("T_final", ocp.final_time_lower, ocp.final_time_upper, ocp.horizon);
    sym::Expr T = sym::Expr::symbol("T_final");
    mpcc::BlockModel m;
    m.name = "final_time_cost";
    m.variables = {T};
    m.objective = T;
    P.add_block(P.add_block_kind(m), {map.final_time});
  }

  // ---- initial point (0, 0, n_s) ---------------------------------------------------------------
  auto x_lo = [&](std::size_t i) { return ocp.x_lower.empty() ? -kInf : ocp.x_lower[i]; };
  auto x_up = [&](std::size_t i) { return ocp.x_upper.empty() ? kInf : ocp.x_upper[i]; };
  map.x0 = static_cast<Index>(P.n_variables());
  for (std::size_t i = 0; i < n_x; ++i) {
    bool is_free = !ocp.x0_free.empty() && ocp.x0_free[i];
    double lo = is_free ? (ocp.x0_lower.empty() ? -kInf : ocp.x0_lower[i]) : dcs.x0[i];
    double up = is_free ? (ocp.x0_upper.empty() ? kInf : ocp.x0_upper[i]) : dcs.x0[i];
    P.add_variable("x0." + dcs.state_names[i], lo, up, dcs.x0[i]);
  }
  auto add_u = [&](int k) {
    Index first = static_cast<Index>(P.n_variables());
    for (std::size_t i = 0; i < n_u; ++i)
      P.add_variable("u" + std::to_string(k) + "." + dcs.control_names[i], ocp.u_lower.empty() ? -kInf : ocp.u_lower[i],
                     ocp.u_upper.empty() ? kInf : ocp.u_upper[i], ocp.u_start.empty() ? 0.0 : ocp.u_start[i]);
    return first;
  };
  auto add_z = [&](const std::string& prefix) {
    Index first = static_cast<Index>(P.n_variables());
    for (std::size_t j = 0; j < n_z; ++j)
      P.add_variable(prefix + "." + dcs.z_names[j], dcs.z_lower[j], dcs.z_upper[j], dcs.z_start[j]);
    return first;
  };
  auto add_zb = [&](const std::string& prefix) {
    Index first = static_cast<Index>(P.n_variables());
    for (int j : dcs.boundary_z)
      P.add_variable(prefix + "." + dcs.z_names[static_cast<std::size_t>(j)], dcs.z_lower[static_cast<std::size_t>(j)],
                     dcs.z_upper[static_cast<std::size_t>(j)], dcs.z_start[static_cast<std::size_t>(j)]);
    return first;
  };
  auto add_x = [&](const std::string& prefix, bool bounded) {
    Index first = static_cast<Index>(P.n_variables());
    for (std::size_t i = 0; i < n_x; ++i)
      P.add_variable(prefix + "." + dcs.state_names[i], bounded ? x_lo(i) : -kInf, bounded ? x_up(i) : kInf,
                     dcs.x0[i]);
    return first;
  };

  map.u.resize(static_cast<std::size_t>(N));
  map.u[0] = add_u(1);
  map.z0 = add_z("z0");
  {
    sym::Vector x0s = sym::symbols("x0", n_x), us = sym::symbols("u", n_u), zs = sym::symbols("z0", n_z);
    mpcc::BlockModel m;
    m.name = "initial_point";
    m.variables = concat({x0s, us, zs});
    m.constraints = at_point(dcs.g_alg, x0s, us, zs);
    m.G = at_point(dcs.comp_lambda, x0s, us, zs);
    m.H = at_point(dcs.comp_theta, x0s, us, zs);
    m.nonnegativity_implied = true;
    std::vector<Index> vars = range(map.x0, n_x);
    append(vars, range(map.u[0], n_u));
    append(vars, range(map.z0, n_z));
    P.add_block(P.add_block_kind(m), vars, {}, {}, {}, "initial point");
  }

  // ---- the finite-element block kind -----------------------------------------------------------
  const bool fesd = opt.fesd;
  const bool tf = ocp.time_optimal;
  const bool frozen = ocp.clock >= 0;            // time-freezing: speed of time, clock constraints
  const bool physical_steps = tf && !frozen;     // time-optimal with physical step lengths
  FeSymbols S;
  S.x_prev = sym::symbols("x_prev", n_x);
  S.lambda_prev = sym::symbols("lambda_prev", n_c);
  S.u = sym::symbols("u", n_u);
  S.h = sym::Expr::symbol("h");
  S.T_final = sym::Expr::symbol("T_final");
  sym::Expr h0_sym = sym::Expr::symbol("h0"), rho_h = sym::Expr::symbol("rho_h");
  // The element length: a variable (FESD), fixed (standard), or T_final/(N·N_FE) (standard, time-optimal).
  sym::Expr h = fesd ? S.h : (physical_steps ? S.T_final * (1.0 / (N * N_FE)) : h0_sym);
  sym::Expr sot = frozen ? sym::Expr::symbol("s") : sym::Expr(1.0);
  for (int m = 0; m < n_s; ++m) {
    if (integral)
      S.X.push_back(sym::symbols("X" + std::to_string(m + 1), n_x));
    else
      S.V.push_back(sym::symbols("V" + std::to_string(m + 1), n_x));
    S.Z.push_back(sym::symbols("Z" + std::to_string(m + 1), n_z));
  }
  const bool end_state_variable = rbp || !integral;
  if (end_state_variable) S.X_end = sym::symbols("X_end", n_x);
  if (rbp) S.Z_end = sym::symbols("Z_end", dcs.boundary_z.size());

  mpcc::BlockModel fe;
  fe.name = "finite_element";
  fe.nonnegativity_implied = true;
  fe.variables = concat({S.x_prev, S.lambda_prev, S.u});
  if (fesd) fe.variables.push_back(S.h);
  if (physical_steps && !fesd) fe.variables.push_back(S.T_final);
  if (frozen) fe.variables.push_back(sot);
  for (int m = 0; m < n_s; ++m) {
    fe.variables = concat({fe.variables, integral ? S.X[static_cast<std::size_t>(m)] : S.V[static_cast<std::size_t>(m)],
                           S.Z[static_cast<std::size_t>(m)]});
  }
  fe.variables = concat({fe.variables, S.X_end, S.Z_end});
  fe.parameters = {h0_sym, rho_h};

  // Stage states (variables in the integral form, expressions in the differential form).
  std::vector<sym::Vector> Xs(static_cast<std::size_t>(n_s));
  if (integral) {
    Xs = S.X;
  } else {
    for (int m = 0; m < n_s; ++m) {
      sym::Vector Xm = S.x_prev;
      for (int r = 0; r < n_s; ++r) {
        double a = bt.A[static_cast<std::size_t>(m)][static_cast<std::size_t>(r)];
        if (a == 0.0) continue;
        for (std::size_t i = 0; i < n_x; ++i) Xm[i] = Xm[i] + h * a * S.V[static_cast<std::size_t>(r)][i];
      }
      Xs[static_cast<std::size_t>(m)] = Xm;
    }
  }
  // Where the algebraic equations (the LP conditions that select θ) of each stage point are
  // evaluated. nosnoc uses the stage state X_m throughout. A stage whose node is an element
  // boundary (c_m = 0 or c_m = 1) but whose stage state is not that boundary's state (Lobatto IIIC:
  // X_1 = x_prev + h Σ a_1r v_r with a_1r ≠ 0; Heun and RK4: X_{n_s} = x_prev + h v_{n_s−1} ≠ x_end)
  // lies off the boundary by the stage error. When FESD puts a switch on that boundary, that point
  // can fall on the wrong side of the switching surface, so its λ disagrees with the active set of
  // the rest of the element and cross complementarity has no solution (IPOPT: infeasible as σ → 0).
  // Such stage points belong to the boundary time, so their LP is evaluated at the boundary state
  // (x_prev or the element-end state): then λ_{n,1} = λ_{n,0} and λ_{n,n_s} is the element-end λ,
  // as for Lobatto IIIA and explicit RK's first stage, where X_m is that state exactly.
  std::vector<sym::Vector> Xalg = Xs;
  if (!integral) {
    for (int m = 0; m < n_s; ++m) {
      const auto mi = static_cast<std::size_t>(m);
      bool row_zero = true, row_is_b = true;
      for (int r = 0; r < n_s; ++r) {
        const double a = bt.A[mi][static_cast<std::size_t>(r)];
        row_zero = row_zero && a == 0.0;
        row_is_b = row_is_b && std::fabs(a - bt.b[static_cast<std::size_t>(r)]) <= 1e-14;
      }
      if (bt.c[mi] == 0.0 && !row_zero) Xalg[mi] = S.x_prev;
      else if (std::fabs(bt.c[mi] - 1.0) <= 1e-12 && !row_is_b && end_state_variable) Xalg[mi] = S.X_end;
    }
  }
  // Dynamics, algebraic equations, quadrature.
  sym::Expr cost(0.0);
  std::vector<std::string> names;
  for (int m = 0; m < n_s; ++m) {
    const auto mi = static_cast<std::size_t>(m);
    sym::Vector f = at_point(dcs.f, Xs[mi], S.u, S.Z[mi]);
    if (frozen)
      for (auto& fi : f) fi = sot * fi;  // ẏ = s f: every component, clock and auxiliary fields included
    if (integral) {
      // h f(X_m) − Σ_j C[j][m] X_j = 0 with X_0 = x_prev (fesd.md §2.2)
      for (std::size_t i = 0; i < n_x; ++i) {
        sym::Expr r = h * f[i] - col.C[0][mi + 1] * S.x_prev[i];
        for (int j = 1; j <= n_s; ++j) r = r - col.C[static_cast<std::size_t>(j)][mi + 1] * S.X[static_cast<std::size_t>(j - 1)][i];
        fe.constraints.push_back(r);
        names.push_back("collocation stage " + std::to_string(m + 1) + ", state " + dcs.state_names[i]);
      }
    } else {
      for (std::size_t i = 0; i < n_x; ++i) {
        fe.constraints.push_back(f[i] - S.V[mi][i]);
        names.push_back("stage derivative " + std::to_string(m + 1) + ", state " + dcs.state_names[i]);
      }
    }
    sym::Vector g = at_point(dcs.g_alg, Xalg[mi], S.u, S.Z[mi]);
    for (std::size_t i = 0; i < g.size(); ++i) {
      fe.constraints.push_back(g[i]);
      names.push_back("algebraic equation " + std::to_string(i) + " at stage " + std::to_string(m + 1));
    }
    if (!ocp.running_cost.is_zero()) {
      // RK quadrature with the weights b (= B[1:] of the integral form for n_s >= 2). nosnoc's
      // integral form uses B also for Radau n_s = 1, which halves the cost (fesd.md §2.2 quirk);
      // the RK weight b = 1 is the correct one.
      sym::Expr L = at_state({ocp.running_cost}, Xs[mi], S.u)[0];
      // f already carries s; with time-freezing the physical form weights by dt/dτ = s·(clock rate).
      sym::Expr rate = !frozen ? sym::Expr(1.0)
                               : (ocp.running_cost_time == OcpSpec::RunningCost::Physical
                                      ? f[static_cast<std::size_t>(ocp.clock)]
                                      : sot);
      cost = cost + bt.b[mi] * h * rate * L;
    }
  }
  // FE end.
  if (integral && rbp) {
    for (std::size_t i = 0; i < n_x; ++i) {
      sym::Expr r = S.X_end[i] - col.D[0] * S.x_prev[i];
      for (int j = 1; j <= n_s; ++j) r = r - col.D[static_cast<std::size_t>(j)] * S.X[static_cast<std::size_t>(j - 1)][i];
      fe.constraints.push_back(r);
      names.push_back("element end, state " + dcs.state_names[i]);
    }
  } else if (!integral) {
    for (std::size_t i = 0; i < n_x; ++i) {
      sym::Expr e = S.x_prev[i];
      for (int m = 0; m < n_s; ++m) e = e + h * bt.b[static_cast<std::size_t>(m)] * S.V[static_cast<std::size_t>(m)][i];
      fe.constraints.push_back(S.X_end[i] - e);
      names.push_back("element end, state " + dcs.state_names[i]);
    }
  }
  if (rbp) {
    sym::Vector g = at_boundary(dcs.g_boundary, S.X_end, S.u, S.Z_end);
    for (std::size_t i = 0; i < g.size(); ++i) {
      fe.constraints.push_back(g[i]);
      names.push_back("algebraic equation " + std::to_string(i) + " at the element end");
    }
  }
  fe.constraint_names = names;
  // Complementarity (fesd.md §3.3): Λ = (λ_prev, λ_1..λ_{m_end}), Θ_m.
  std::vector<sym::Vector> Lambda{S.lambda_prev}, Theta;
  for (int m = 0; m < n_s; ++m) {
    Lambda.push_back(at_point(dcs.comp_lambda, Xalg[static_cast<std::size_t>(m)], S.u, S.Z[static_cast<std::size_t>(m)]));
    Theta.push_back(at_point(dcs.comp_theta, Xalg[static_cast<std::size_t>(m)], S.u, S.Z[static_cast<std::size_t>(m)]));
  }
  if (rbp) Lambda.push_back(at_boundary(dcs.comp_lambda, S.X_end, S.u, S.Z_end));
  auto add_pairs = [&](const sym::Vector& G, const sym::Vector& H, const std::string& what) {
    for (std::size_t i = 0; i < n_c; ++i) {
      fe.G.push_back(G[i]);
      fe.H.push_back(H[i]);
      fe.pair_names.push_back(what + ", component " + std::to_string(i) + " (" + dcs.comp_lambda[i].str() + " ⟂ " +
                              dcs.comp_theta[i].str() + ")");
    }
  };
  if (!fesd) {
    for (int m = 0; m < n_s; ++m)
      add_pairs(Lambda[static_cast<std::size_t>(m) + 1], Theta[static_cast<std::size_t>(m)],
                "stage " + std::to_string(m + 1));
  } else {
    // spurious_switches: ignore — the cross pairs (λ of one point, θ of another) weighted by the
    // relevance at θ's point, so a sign change that does not change the field may fall inside the
    // element; the pairs of one point (λ_m ⟂ θ_m) stay as they are and keep α determined.
    const bool weigh = opt.spurious_switches == SpuriousSwitches::Ignore && !dcs.comp_relevance.empty();
    std::vector<sym::Vector> Weighted = Theta;
    if (weigh)
      for (std::size_t m = 0; m < Theta.size(); ++m) {
        const sym::Vector r = at_point(dcs.comp_relevance, Xalg[m], S.u, S.Z[m]);
        for (std::size_t i = 0; i < n_c; ++i) Weighted[m][i] = Theta[m][i] * r[i];
      }
    // Θ paired with the λ of point mp (0 = element start, m + 1 = stage point m).
    auto theta_for = [&](std::size_t mp, std::size_t m) -> const sym::Vector& {
      return weigh && mp != m + 1 ? Weighted[m] : Theta[m];
    };
    switch (opt.cross_complementarity) {
      case CrossComplementarity::StageStage:
        for (std::size_t mp = 0; mp < Lambda.size(); ++mp)
          for (std::size_t m = 0; m < Theta.size(); ++m)
            add_pairs(Lambda[mp], theta_for(mp, m),
                      "λ point " + std::to_string(mp) + " ⟂ θ stage " + std::to_string(m + 1));
        break;
      case CrossComplementarity::FeStage:
        for (std::size_t mp = 0; mp < Lambda.size(); ++mp) {
          std::vector<sym::Vector> parts;
          for (std::size_t m = 0; m < Theta.size(); ++m) parts.push_back(theta_for(mp, m));
          add_pairs(Lambda[mp], sum_of(parts, n_c), "λ point " + std::to_string(mp) + " ⟂ Σθ");
        }
        break;
      case CrossComplementarity::StageFe: {
        sym::Vector lambda_sum = sum_of(Lambda, n_c);
        for (std::size_t m = 0; m < Theta.size(); ++m)
          add_pairs(lambda_sum, Theta[m], "Σλ ⟂ θ stage " + std::to_string(m + 1));
        break;
      }
      case CrossComplementarity::FeFe:
        add_pairs(sum_of(Lambda, n_c), sum_of(Theta, n_c), "Σλ ⟂ Σθ");
        break;
    }
  }
  // Sliding-mode exit conditions (stasis extension, off by default; docs/guide-pss.md). Leaving a
  // sliding mode is not pinned by cross complementarity: every λ is already zero on the surface.
  // Two inequalities per element and component close the gap:
  //  (1) the polynomial through (0, 0) and the element's later λ nodes (c_m, λ_m) does not start
  //      decreasing: Σ_{j>=1} ℓ'_j(0) λ_j >= 0 (with λ_0 = 0 this is λ̇(t_n^+) >= 0: a region
  //      that is inactive after a boundary where its λ vanishes must not be re-entered at once);
  //  (2) the polynomial through the element's θ stage values, extrapolated to its end, is >= 0
  //      (θ of a sliding mode reaches 0 at the exit, not beyond); not needed when a stage is at 1.
  std::vector<double> fe_row_lower(fe.constraints.size(), 0.0), fe_row_upper(fe.constraints.size(), 0.0);
  if (fesd && opt.exit_conditions) {
    auto lagrange_d0 = [](const std::vector<double>& nd, std::size_t j) {  // ℓ'_j(0) on nodes nd
      double sum = 0.0;
      for (std::size_t m = 0; m < nd.size(); ++m) {
        if (m == j) continue;
        double term = 1.0 / (nd[j] - nd[m]);
        for (std::size_t k = 0; k < nd.size(); ++k)
          if (k != j && k != m) term *= (0.0 - nd[k]) / (nd[j] - nd[k]);
        sum += term;
      }
      return sum;
    };
    auto lagrange_at = [](const std::vector<double>& nd, std::size_t j, double t) {
      double v = 1.0;
      for (std::size_t k = 0; k < nd.size(); ++k)
        if (k != j) v *= (t - nd[k]) / (nd[j] - nd[k]);
      return v;
    };
    // λ nodes: 0 (λ_prev), the distinct stage nodes, 1 (the end λ) for rbp schemes.
    std::vector<double> lnodes{0.0};
    std::vector<std::size_t> lidx{0};
    auto known = [](const std::vector<double>& nd, double c) {
      for (double x : nd)
        if (std::fabs(x - c) <= 1e-12) return true;
      return false;
    };
    for (int m = 0; m < n_s; ++m)
      if (!known(lnodes, bt.c[static_cast<std::size_t>(m)])) {
        lnodes.push_back(bt.c[static_cast<std::size_t>(m)]);
        lidx.push_back(static_cast<std::size_t>(m) + 1);
      }
    if (rbp && !known(lnodes, 1.0)) {
      lnodes.push_back(1.0);
      lidx.push_back(Lambda.size() - 1);
    }
    std::vector<double> tnodes;
    std::vector<std::size_t> tidx;
    for (int m = 0; m < n_s; ++m)
      if (!known(tnodes, bt.c[static_cast<std::size_t>(m)])) {
        tnodes.push_back(bt.c[static_cast<std::size_t>(m)]);
        tidx.push_back(static_cast<std::size_t>(m));
      }
    const bool theta_extrapolated = tnodes.size() > 1 && !known(tnodes, 1.0);
    for (std::size_t i = 0; i < n_c; ++i) {
      if (lnodes.size() > 1) {
        sym::Expr slope(0.0);
        for (std::size_t j = 1; j < lnodes.size(); ++j) slope = slope + lagrange_d0(lnodes, j) * Lambda[lidx[j]][i];
        fe.constraints.push_back(slope);
        fe.constraint_names.push_back("exit condition: λ slope at the element start, component " + std::to_string(i));
        fe_row_lower.push_back(0.0);
        fe_row_upper.push_back(kInf);
      }
      if (theta_extrapolated) {
        sym::Expr end(0.0);
        for (std::size_t j = 0; j < tnodes.size(); ++j) end = end + lagrange_at(tnodes, j, 1.0) * Theta[tidx[j]][i];
        fe.constraints.push_back(end);
        fe.constraint_names.push_back("exit condition: θ extrapolated to the element end, component " +
                                      std::to_string(i));
        fe_row_lower.push_back(0.0);
        fe_row_upper.push_back(kInf);
      }
    }
  }
  // Direction guards (model::DirectionGuard; step DCS, FESD): an element that starts on the
  // positive side of the guarded switching function (λp_prev > 0) keeps the guarded vector within
  // 90° of its start at every stage point: λp_prev · d(x_prev)ᵀ d(X_m) >= 0. Spatial friction:
  // a slip element cannot pass through the stick disc ‖v_t‖ < ε_t between two stage points (none
  // of which lies inside it, so cross complementarity sees no switch) and stop inside the element;
  // the stop becomes a switch at an element boundary.
  if (fesd && dcs.mode == reformulate::DcsMode::Step && !dcs.guard_switching.empty()) {
    const std::size_t n_alpha = n_c / 2;  // comp_lambda = [λn; λp]
    for (std::size_t g = 0; g < dcs.guard_switching.size(); ++g) {
      const sym::Expr lp = S.lambda_prev[n_alpha + static_cast<std::size_t>(dcs.guard_switching[g])];
      const sym::Vector d0 = at_state(dcs.guard_direction[g], S.x_prev, S.u);
      for (int m = 0; m < n_s; ++m) {
        const sym::Vector dm = at_state(dcs.guard_direction[g], Xs[static_cast<std::size_t>(m)], S.u);
        fe.constraints.push_back(lp * sym::dot(d0, dm));
        fe.constraint_names.push_back("direction guard " + std::to_string(g) + " (switching function " +
                                      std::to_string(dcs.guard_switching[g]) + ") at stage " +
                                      std::to_string(m + 1));
        fe_row_lower.push_back(0.0);
        fe_row_upper.push_back(kInf);
      }
    }
  }
  const bool fe_inequalities = fe.constraints.size() > names.size();
  fe.objective = cost;
  const int fe_kind = P.add_block_kind(fe);
  int alpha_kind = -1;
  if (!ocp.alpha_penalty.empty() && dcs.mode == reformulate::DcsMode::Step) {
    const std::size_t n_alpha = dcs.switching.size();
    if (ocp.alpha_penalty.size() != n_alpha)
      throw Error("ocp: alpha_penalty has " + std::to_string(ocp.alpha_penalty.size()) + " weights for " +
                  std::to_string(n_alpha) + " switching functions");
    mpcc::BlockModel m;
    m.name = "alpha_regularization";
    sym::Expr pen(0.0);
    for (int st = 0; st < n_s; ++st) {
      sym::Vector a = sym::symbols("alpha" + std::to_string(st), n_alpha);
      m.variables.insert(m.variables.end(), a.begin(), a.end());
      for (std::size_t j = 0; j < n_alpha; ++j)
        if (ocp.alpha_penalty[j] != 0.0) pen = pen + ocp.alpha_penalty[j] * a[j];
    }
    m.objective = pen;
    m.objective_is_regularization = true;
    alpha_kind = P.add_block_kind(m);
  }
  int mean_kind = -1;
  if (fesd && opt.step_equilibration == StepEquilibration::HeuristicMean) {
    // fesd.md §3.4 heuristic_mean: ρ_h (h0 − h)², a method term kept out of the user's objective
    mpcc::BlockModel m;
    m.name = "step_equilibration_mean";
    m.variables = {S.h};
    m.parameters = {h0_sym, rho_h};
    if (physical_steps) {
      // Time-optimal with physical steps: the nominal step follows the final time, T_f/(N·N_FE);
      // nosnoc's h0 = T/(N·N_FE) from the initial guess T biases T_f towards that guess.
      m.variables.push_back(S.T_final);
      m.objective = rho_h * sq(S.T_final * (1.0 / (N * N_FE)) - S.h);
    } else {
      m.objective = rho_h * sq(h0_sym - S.h);
    }
    m.objective_is_regularization = true;
    mean_kind = P.add_block_kind(m);
  }

  // ---- step equilibration between neighbouring elements of one stage (fesd.md §3.4) ------------
  const bool pairwise_equilibration = fesd && opt.step_equilibration != StepEquilibration::None &&
                                      opt.step_equilibration != StepEquilibration::HeuristicMean && N_FE > 1;
  int eq_kind = -1;
  std::vector<double> eq_row_lower, eq_row_upper;  // empty = equalities
  std::size_t eq_local_extra = 0;                  // linear_complementarity: its own variables per boundary
  if (pairwise_equilibration) {
    sym::Expr hb = sym::Expr::symbol("h_prev"), hf = sym::Expr::symbol("h");
    std::vector<sym::Vector> Zb, Zf;
    for (int m = 0; m < n_s; ++m) {
      Zb.push_back(sym::symbols("Zb" + std::to_string(m + 1), n_z));
      Zf.push_back(sym::symbols("Zf" + std::to_string(m + 1), n_z));
    }
    sym::Vector Zbe = rbp ? sym::symbols("Zb_end", dcs.boundary_z.size()) : sym::Vector{};
    sym::Vector Zfe = rbp ? sym::symbols("Zf_end", dcs.boundary_z.size()) : sym::Vector{};
    // λ and θ values only depend on z (not on x or u), so states and controls are irrelevant here.
    sym::Vector zero_x(n_x, sym::Expr(0.0)), zero_u(n_u, sym::Expr(0.0));
    auto lambdas = [&](const std::vector<sym::Vector>& Z, const sym::Vector& Ze) {
      std::vector<sym::Vector> L;
      for (const auto& z : Z) L.push_back(at_point(dcs.comp_lambda, zero_x, zero_u, z));
      if (rbp) L.push_back(at_boundary(dcs.comp_lambda, zero_x, zero_u, Ze));
      return L;
    };
    auto thetas = [&](const std::vector<sym::Vector>& Z) {
      std::vector<sym::Vector> T;
      for (const auto& z : Z) T.push_back(at_point(dcs.comp_theta, zero_x, zero_u, z));
      return T;
    };
    std::vector<sym::Vector> Lb = lambdas(Zb, Zbe), Lf = lambdas(Zf, Zfe);
    // M-new: σ^{λ,B} = Σ_{m=1}^{m_end} λ_{n−1,m};  σ^{λ,F} = λ_{n−1,m_end} + Σ_{m=1}^{m_end} λ_{n,m}
    sym::Vector sigma_lb = sum_of(Lb, n_c);
    sym::Vector sigma_lf = sum_of(Lf, n_c);
    for (std::size_t i = 0; i < n_c; ++i) sigma_lf[i] = sigma_lf[i] + Lb.back()[i];
    sym::Vector upsilon;
    // The two families whose backward/forward sums enter υ: (λ, θ) Stewart, (λn, λp) Heaviside.
    sym::Vector famA_B, famA_F, famC_B, famC_F;
    // Stewart: υ = π^λ + π^θ. The step form reads (λn, λp) only ([FESD-H]), or with
    // switch_indicator multipliers_and_alpha the same two families as Stewart with (λ, θ) =
    // ([λn; λp], [α; 1 − α]) (nosnoc M-legacy), so that a sliding mode that goes on is no switch.
    if (dcs.mode == reformulate::DcsMode::Stewart || opt.switch_indicator == SwitchIndicator::MultipliersAndAlpha) {
      sym::Vector sigma_tb = sum_of(thetas(Zb), n_c), sigma_tf = sum_of(thetas(Zf), n_c);
      famA_B = sigma_lb;
      famA_F = sigma_lf;
      famC_B = sigma_tb;
      famC_F = sigma_tf;
      for (std::size_t i = 0; i < n_c; ++i)
        upsilon.push_back(sigma_lb[i] * sigma_lf[i] + sigma_tb[i] * sigma_tf[i]);
    } else {
      // [FESD-H] p.16: υ = π^{λn} + π^{λp} (α sums are not used); comp_lambda = [λn; λp]
      const std::size_t n_alpha = n_c / 2;
      for (std::size_t i = 0; i < n_alpha; ++i) {
        upsilon.push_back(sigma_lb[i] * sigma_lf[i] + sigma_lb[n_alpha + i] * sigma_lf[n_alpha + i]);
        famA_B.push_back(sigma_lb[i]);
        famA_F.push_back(sigma_lf[i]);
        famC_B.push_back(sigma_lb[n_alpha + i]);
        famC_F.push_back(sigma_lf[n_alpha + i]);
      }
    }
    sym::Expr eta(1.0);
    for (const auto& v : upsilon) eta = eta * v;
    sym::Expr dh = hf - hb;
    mpcc::BlockModel se;
    se.name = "step_equilibration";
    se.variables = {hb, hf};
    for (const auto& z : Zb) se.variables = concat({se.variables, z});
    se.variables = concat({se.variables, Zbe});
    for (const auto& z : Zf) se.variables = concat({se.variables, z});
    se.variables = concat({se.variables, Zfe});
    se.parameters = {rho_h};
    se.objective_is_regularization = true;
    switch (opt.step_equilibration) {
      case StepEquilibration::HeuristicDiff: se.objective = rho_h * sq(dh); break;
      case StepEquilibration::L2Relaxed: se.objective = rho_h * eta * sq(dh); break;
      case StepEquilibration::L2RelaxedScaled:
        se.objective = rho_h * tanh(eta / opt.step_equilibration_sigma) * sq(dh);
        break;
      case StepEquilibration::Direct:
        se.constraints = {eta * dh};
        se.constraint_names = {"step equilibration η·Δh = 0"};
        break;
      case StepEquilibration::LinearComplementarity: {
        // M-new linear_complementarity (fesd.md §3.4): π̂ encodes "either sum nonzero" (OR), B = max
        // via its KKT conditions, η̂ = min(π̂_A, π̂_C), ν̂ > 0 iff some component switches, and
        // |Δh| <= (M/h0) ν̂ with M = T/N, so steps may change only at switches.
        const std::size_t nv = famA_B.size();
        sym::Vector pA = sym::symbols("pi_A", nv), pC = sym::symbols("pi_C", nv), Bm = sym::symbols("B", nv);
        sym::Vector muA = sym::symbols("mu_A", nv), muC = sym::symbols("mu_C", nv), et = sym::symbols("eta_hat", nv);
        sym::Expr nu = sym::Expr::symbol("nu_hat"), h0s = sym::Expr::symbol("h0"), Ls = sym::Expr::symbol("stage_length");
        se.variables = concat({se.variables, pA, pC, Bm, muA, muC, et, {nu}});
        se.parameters = {rho_h, h0s, Ls};
        sym::Expr sum_eta(0.0);
        for (std::size_t i = 0; i < nv; ++i) {
          // rows >= 0
          for (const sym::Expr& r :
               {pA[i] - famA_F[i], pA[i] - famA_B[i], famA_F[i] + famA_B[i] - pA[i], pC[i] - famC_F[i],
                pC[i] - famC_B[i], famC_F[i] + famC_B[i] - pC[i], Bm[i] - pA[i], Bm[i] - pC[i], pC[i] - et[i],
                pA[i] - et[i], et[i] - pC[i] - pA[i] + Bm[i], nu - et[i]})
            se.constraints.push_back(r);
          se.constraints.push_back(1.0 - muA[i] - muC[i]);  // equality (bounds set below)
          se.G.push_back(Bm[i] - pA[i]);
          se.H.push_back(muA[i]);
          se.G.push_back(Bm[i] - pC[i]);
          se.H.push_back(muC[i]);
          sum_eta = sum_eta + et[i];
        }
        se.constraints.push_back(sum_eta - nu);
        se.constraints.push_back(Ls / h0s * nu - dh);
        se.constraints.push_back(Ls / h0s * nu + dh);
        se.nonnegativity_implied = true;  // G >= 0 are rows of this block, H are variables >= 0
        for (std::size_t i = 0; i < nv; ++i) {
          for (int r = 0; r < 12; ++r) {
            eq_row_lower.push_back(0.0);
            eq_row_upper.push_back(kInf);
          }
          eq_row_lower.push_back(0.0);
          eq_row_upper.push_back(0.0);
        }
        for (int r = 0; r < 3; ++r) {
          eq_row_lower.push_back(0.0);
          eq_row_upper.push_back(kInf);
        }
        se.constraint_names.assign(se.constraints.size(), "linear complementarity step equilibration");
        eq_local_extra = 6 * nv + 1;
        break;
      }
      case StepEquilibration::DirectComplementarity: {
        sym::Expr dp = sym::Expr::symbol("dh_plus"), dm = sym::Expr::symbol("dh_minus");
        se.variables.push_back(dp);
        se.variables.push_back(dm);
        se.constraints = {dh - dp + dm};
        se.constraint_names = {"Δh = Δ⁺ − Δ⁻"};
        se.G = {eta, eta};
        se.H = {dp, dm};
        se.pair_names = {"η ⟂ Δ⁺", "η ⟂ Δ⁻"};
        se.nonnegativity_implied = true;  // η is a product of sums of nonnegative variables
        break;
      }
      default: break;
    }
    eq_kind = P.add_block_kind(se);
  }

  // ---- grid row per stage: Σ_n h_{k,n} = T/N (or T_final/N) ------------------------------------
  int grid_kind = -1;
  if (fesd) {
    sym::Vector hs = sym::symbols("h", static_cast<std::size_t>(N_FE));
    sym::Expr L = sym::Expr::symbol("stage_length"), T = sym::Expr::symbol("T_final");
    sym::Expr sum(0.0);
    for (const auto& x : hs) sum = sum + x;
    mpcc::BlockModel g;
    g.name = "stage_grid";
    g.variables = hs;
    if (physical_steps) {
      g.variables.push_back(T);
      g.constraints = {sum - T * (1.0 / N)};
    } else {
      g.parameters = {L};
      g.constraints = {sum - L};
    }
    g.constraint_names = {"sum of element lengths = stage length"};
    grid_kind = P.add_block_kind(g);
  }

  // ---- path constraints, path complementarity, terminal conditions ------------------------------
  // The path constraints in groups of equal placement (OcpSpec::path_at per row, else
  // Options::path_at), one block kind per group (Dense: also one per interior point θ_j, the rows
  // at the collocation polynomial's value there, Σ_a l_a(θ_j) X_a over the nodes (0, c_1, ...,
  // c_s) with X_0 the element's start).
  struct PathGroup {
    PathAt at;
    int kind = -1;
    std::vector<int> dense_kinds;
    std::vector<double> lower, upper;
  };
  std::vector<PathGroup> path_groups;
  int path_comp_kind = -1;
  sym::Vector px = sym::symbols("x", n_x), pu = sym::symbols("u", n_u);
  for (PathAt at : {PathAt::StageEnds, PathAt::Elements, PathAt::StagePoints, PathAt::Dense}) {
    PathGroup g{at, -1, {}, {}, {}};
    sym::Vector rows;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < ocp.path.size(); ++i) {
      const PathAt row_at = i < ocp.path_at.size() && ocp.path_at[i] ? *ocp.path_at[i] : opt.path_at;
      if (row_at != at) continue;
      rows.push_back(ocp.path[i]);
      g.lower.push_back(ocp.path_lower[i]);
      g.upper.push_back(ocp.path_upper[i]);
      names.push_back(i < ocp.path_names.size() ? ocp.path_names[i] : "path constraint " + std::to_string(i));
    }
    if (rows.empty()) continue;
    if ((at == PathAt::StagePoints || at == PathAt::Dense) && !integral)
      throw Error(std::string("path constraint '") + names.front() + "' at " + to_string(at) +
                  " needs stage states as variables: use representation: integral with radau_iia or gauss_legendre");
    mpcc::BlockModel m;
    m.name = std::string("path_constraints_") + to_string(at);
    m.variables = concat({px, pu});
    m.constraints = at_state(rows, px, pu);
    m.constraint_names = names;
    g.kind = P.add_block_kind(m);
    if (at == PathAt::Dense) {
      std::vector<sym::Vector> Xn{px};
      for (int mi = 1; mi <= n_s; ++mi) Xn.push_back(sym::symbols("X" + std::to_string(mi), n_x));
      for (int j = 1; j <= kDensePathPoints; ++j) {
        const double theta = static_cast<double>(j) / (kDensePathPoints + 1);
        const std::vector<double> l = lagrange_basis(col.tau, theta);
        sym::Vector x_theta(n_x, sym::Expr(0.0));
        for (std::size_t a = 0; a < l.size(); ++a)
          for (std::size_t i = 0; i < n_x; ++i) x_theta[i] = x_theta[i] + l[a] * Xn[a][i];
        mpcc::BlockModel d;
        d.name = "path_constraints_inside_" + std::to_string(j);
        for (const sym::Vector& X : Xn) d.variables.insert(d.variables.end(), X.begin(), X.end());
        d.variables.insert(d.variables.end(), pu.begin(), pu.end());
        d.constraints = at_state(rows, x_theta, pu);
        d.constraint_names = names;
        g.dense_kinds.push_back(P.add_block_kind(d));
      }
    }
    path_groups.push_back(std::move(g));
  }
  if (!ocp.path_G.empty()) {
    mpcc::BlockModel m;
    m.name = "path_complementarity";
    m.variables = concat({px, pu});
    m.G = at_state(ocp.path_G, px, pu);
    m.H = at_state(ocp.path_H, px, pu);
    path_comp_kind = P.add_block_kind(m);
  }

  // ---- emit stages and elements ----------------------------------------------------------------
  map.fe.assign(static_cast<std::size_t>(N), std::vector<FiniteElementIndex>(static_cast<std::size_t>(N_FE)));
  std::vector<Index> x_prev = range(map.x0, n_x);
  std::vector<Index> lambda_prev(n_c);
  for (std::size_t i = 0; i < n_c; ++i) lambda_prev[i] = map.z0 + lambda_in_z[i];
  const double h_lo = physical_steps ? (1.0 - opt.step_bounds) * ocp.final_time_lower / (N * N_FE)
                                     : (1.0 - opt.step_bounds) * h0;
  const double h_up = physical_steps ? (1.0 + opt.step_bounds) * ocp.final_time_upper / (N * N_FE)
                                     : (1.0 + opt.step_bounds) * h0;
  // Clock constraints and the speed-of-time regularizer (time_freezing.md §3.2, §3.4).
  int clock_kind = -1, sot_penalty_kind = -1;
  if (frozen) {
    sym::Expr t_end = sym::Expr::symbol("t_end"), t0 = sym::Expr::symbol("t0"), T = sym::Expr::symbol("T_final");
    sym::Expr fraction = sym::Expr::symbol("stage_fraction"), horizon = sym::Expr::symbol("horizon");
    mpcc::BlockModel m;
    m.name = "clock";
    m.variables = {t_end, t0};
    if (tf) m.variables.push_back(T);
    m.parameters = {fraction, horizon};
    m.constraints = {t_end - t0 - fraction * (tf ? T : horizon)};
    // Stagewise: one row per stage k (the physical control grid); terminal: k = N only. The block's
    // label names the stage.
    m.constraint_names = {std::string("clock = t0 + (k/N)·") + (tf ? "T_final" : "horizon")};
    clock_kind = P.add_block_kind(m);
    if (ocp.speed_of_time_penalty > 0) {
      sym::Expr sk = sym::Expr::symbol("s"), rho = sym::Expr::symbol("rho_sot"), s_ref = sym::Expr::symbol("s_ref");
      mpcc::BlockModel pm;
      pm.name = "speed_of_time_penalty";
      pm.variables = {sk};
      pm.parameters = {rho, s_ref};
      pm.objective = rho * sq(sk - s_ref);
      pm.objective_is_regularization = true;
      sot_penalty_kind = P.add_block_kind(pm);
    }
  }
  const Index param_horizon = frozen ? P.add_parameter("horizon", ocp.horizon) : -1;
  const Index param_rho_sot = sot_penalty_kind >= 0 ? P.add_parameter("rho_sot", ocp.speed_of_time_penalty) : -1;
  if (sot_penalty_kind >= 0)
    map.param_speed_of_time_reference = P.add_parameter("s_ref", ocp.speed_of_time_reference);
  if (frozen) map.speed_of_time.resize(static_cast<std::size_t>(N));
  for (int k = 0; k < N; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    if (k > 0) map.u[ku] = add_u(k + 1);
    if (frozen) {
      map.speed_of_time[ku] = P.add_variable("s" + std::to_string(k + 1), ocp.speed_of_time_lower,
                                             ocp.speed_of_time_upper, ocp.speed_of_time_start);
      if (sot_penalty_kind >= 0)
        P.add_block(sot_penalty_kind, {map.speed_of_time[ku]}, {param_rho_sot, map.param_speed_of_time_reference}, {},
                    {}, "speed of time penalty");
    }
    std::vector<Index> hs;
    for (int n = 0; n < N_FE; ++n) {
      const auto nu = static_cast<std::size_t>(n);
      FiniteElementIndex& I = map.fe[ku][nu];
      const std::string tag = "fe" + std::to_string(k) + "." + std::to_string(n);
      std::vector<Index> vars = x_prev;
      append(vars, lambda_prev);
      append(vars, range(map.u[ku], n_u));
      if (fesd) {
        I.h = P.add_variable(tag + ".h", std::max(h_lo, 0.0), h_up, h0);
        if (mean_kind >= 0) I.param_h_nominal = P.add_parameter(tag + ".h_nominal", h0);
        vars.push_back(I.h);
        hs.push_back(I.h);
      }
      if (physical_steps && !fesd) vars.push_back(map.final_time);
      if (frozen) vars.push_back(map.speed_of_time[ku]);
      for (int m = 0; m < n_s; ++m) {
        const std::string st = tag + ".stage" + std::to_string(m + 1);
        if (integral) {
          Index X = add_x(st, true);
          I.X.push_back(X);
          append(vars, range(X, n_x));
        } else {
          Index V = static_cast<Index>(P.n_variables());
          P.add_variables(st + ".v", n_x, -kInf, kInf, 0.0);
          I.V.push_back(V);
          I.X.push_back(-1);
          append(vars, range(V, n_x));
        }
        Index Z = add_z(st);
        I.Z.push_back(Z);
        append(vars, range(Z, n_z));
      }
      if (end_state_variable) {
        I.x_end = add_x(tag + ".end", true);
        append(vars, range(I.x_end, n_x));
      } else {
        I.x_end = I.X.back();
      }
      if (rbp) {
        I.z_end = add_zb(tag + ".end");
        append(vars, range(I.z_end, dcs.boundary_z.size()));
      }
      P.add_block(fe_kind, vars, {map.param_h0, map.param_rho_h}, fe_inequalities ? fe_row_lower : std::vector<double>{},
                  fe_inequalities ? fe_row_upper : std::vector<double>{}, "stage " + std::to_string(k + 1) +
                                                                             ", element " + std::to_string(n + 1));
      if (alpha_kind >= 0) {
        std::vector<Index> av;
        for (Index Zm : I.Z) append(av, range(Zm, dcs.switching.size()));  // α are the first entries of z
        P.add_block(alpha_kind, av, {}, {}, {}, "alpha regularization " + tag);
      }
      if (mean_kind >= 0)
        P.add_block(mean_kind, physical_steps ? std::vector<Index>{I.h, map.final_time} : std::vector<Index>{I.h},
                    {I.param_h_nominal, map.param_rho_h}, {}, {}, "step penalty " + tag);
      // step equilibration with the previous element of this stage
      if (pairwise_equilibration && n > 0) {
        const FiniteElementIndex& B = map.fe[ku][nu - 1];
        std::vector<Index> ev{B.h, I.h};
        for (Index z : B.Z) append(ev, range(z, n_z));
        if (rbp) append(ev, range(B.z_end, dcs.boundary_z.size()));
        for (Index z : I.Z) append(ev, range(z, n_z));
        if (rbp) append(ev, range(I.z_end, dcs.boundary_z.size()));
        std::vector<Index> eq_params{map.param_rho_h};
        if (opt.step_equilibration == StepEquilibration::DirectComplementarity) {
          ev.push_back(P.add_variable(tag + ".dh_plus", 0.0, kInf, 0.0));
          ev.push_back(P.add_variable(tag + ".dh_minus", 0.0, kInf, 0.0));
        }
        if (opt.step_equilibration == StepEquilibration::LinearComplementarity) {
          const std::size_t nv = (eq_local_extra - 1) / 6;
          // π̂_A, π̂_C, B free; μ_A, μ_C, η̂ >= 0; ν̂ >= 0
          for (const char* name : {"pi_A", "pi_C", "B"})
            for (std::size_t i = 0; i < nv; ++i) ev.push_back(P.add_variable(tag + "." + name, -kInf, kInf, 1.0));
          for (const char* name : {"mu_A", "mu_C"})
            for (std::size_t i = 0; i < nv; ++i) ev.push_back(P.add_variable(tag + "." + name, 0.0, kInf, 0.5));
          for (std::size_t i = 0; i < nv; ++i) ev.push_back(P.add_variable(tag + ".eta_hat", 0.0, kInf, 1.0));
          ev.push_back(P.add_variable(tag + ".nu_hat", 0.0, kInf, 1.0));
          eq_params = {map.param_rho_h, map.param_h0, map.param_stage_length};
        }
        P.add_block(eq_kind, ev, eq_params, eq_row_lower, eq_row_upper, "step equilibration " + tag);
      }
      // path constraints at every element end / stage point / point inside the element
      for (const PathGroup& g : path_groups) {
        if (g.at == PathAt::Elements || g.at == PathAt::Dense) {
          std::vector<Index> pv = range(I.x_end, n_x);
          append(pv, range(map.u[ku], n_u));
          P.add_block(g.kind, pv, {}, g.lower, g.upper, "path constraints at " + tag);
        }
        for (std::size_t j = 0; j < g.dense_kinds.size(); ++j) {
          std::vector<Index> pv = x_prev;
          for (Index X : I.X) append(pv, range(X, n_x));
          append(pv, range(map.u[ku], n_u));
          P.add_block(g.dense_kinds[j], pv, {}, g.lower, g.upper,
                      "path constraints inside " + tag + " at " + std::to_string(j + 1) + "/" +
                          std::to_string(kDensePathPoints + 1));
        }
        if (g.at == PathAt::StagePoints)
          for (int m = 0; m < n_s; ++m) {
            std::vector<Index> pv = range(I.X[static_cast<std::size_t>(m)], n_x);
            append(pv, range(map.u[ku], n_u));
            P.add_block(g.kind, pv, {}, g.lower, g.upper, "path constraints at " + tag + " stage " + std::to_string(m + 1));
          }
      }
      if (path_comp_kind >= 0) {
        if (integral) {
          for (int m = 0; m < n_s; ++m) {
            std::vector<Index> pv = range(I.X[static_cast<std::size_t>(m)], n_x);
            append(pv, range(map.u[ku], n_u));
            P.add_block(path_comp_kind, pv, {}, {}, {}, "path complementarity at " + tag);
          }
        } else {
          std::vector<Index> pv = range(I.x_end, n_x);
          append(pv, range(map.u[ku], n_u));
          P.add_block(path_comp_kind, pv, {}, {}, {}, "path complementarity at " + tag);
        }
      }
      x_prev = range(I.x_end, n_x);
      for (std::size_t i = 0; i < n_c; ++i)
        lambda_prev[i] = rbp ? I.z_end + lambda_in_zb[i] : I.Z.back() + lambda_in_z[i];
    }
    if (fesd) {
      std::vector<Index> gv = hs;
      if (physical_steps) gv.push_back(map.final_time);
      P.add_block(grid_kind, gv, physical_steps ? std::vector<Index>{} : std::vector<Index>{map.param_stage_length},
                  {}, {}, "grid of stage " + std::to_string(k + 1));
    }
    const bool clock_here = ocp.clock_constraints == OcpSpec::ClockConstraints::Stagewise || k == N - 1;
    if (frozen && clock_here) {
      std::vector<Index> cv{x_prev[static_cast<std::size_t>(ocp.clock)], map.x0 + ocp.clock};
      if (tf) cv.push_back(map.final_time);
      Index fraction = P.add_parameter("stage_fraction_" + std::to_string(k + 1), double(k + 1) / N);
      P.add_block(clock_kind, cv, {fraction, param_horizon}, {}, {}, "clock at the end of stage " + std::to_string(k + 1));
    }
    for (const PathGroup& g : path_groups)
      if (g.at == PathAt::StageEnds) {
        std::vector<Index> pv = x_prev;
        append(pv, range(map.u[ku], n_u));
        P.add_block(g.kind, pv, {}, g.lower, g.upper, "path constraints at the end of stage " + std::to_string(k + 1));
      }
  }
  // Terminal cost and constraints on the last FE-end state.
  using TR = OcpSpec::TerminalRelaxation;
  const bool relax = ocp.terminal_relaxation != TR::None && !ocp.terminal.empty();
  if (!ocp.terminal_cost.is_zero() || (!ocp.terminal.empty() && !relax)) {
    sym::Vector xs = sym::symbols("x", n_x);
    mpcc::BlockModel m;
    m.name = "terminal";
    m.variables = xs;
    sym::Vector zu(n_u, sym::Expr(0.0));
    m.objective = at_state({ocp.terminal_cost}, xs, zu)[0];
    if (!relax) {
      m.constraints = at_state(ocp.terminal, xs, zu);
      m.constraint_names = ocp.terminal_names.empty()
                               ? std::vector<std::string>(ocp.terminal.size(), "terminal constraint")
                               : ocp.terminal_names;
    }
    P.add_block(P.add_block_kind(m), x_prev, {}, relax ? std::vector<double>{} : ocp.terminal_lower,
                relax ? std::vector<double>{} : ocp.terminal_upper, "terminal conditions");
  }
  if (relax) {
    // fesd.md §4.5: slack variables, penalty ρ_T (a method term, kept out of the reported objective)
    const std::size_t nt = ocp.terminal.size();
    sym::Vector xs = sym::symbols("x", n_x);
    sym::Vector zu(n_u, sym::Expr(0.0));
    sym::Vector g = at_state(ocp.terminal, xs, zu);
    sym::Expr rho = sym::Expr::symbol("rho_terminal");
    const bool shared = ocp.terminal_relaxation == TR::EllInf;
    sym::Vector slack = sym::symbols("terminal_slack", shared ? 1 : nt);
    mpcc::BlockModel m;
    m.name = "relaxed_terminal";
    m.variables = concat({xs, slack});
    m.parameters = {rho};
    m.objective_is_regularization = true;
    std::vector<double> lo, up;
    std::vector<std::string> names;
    sym::Expr penalty(0.0);
    for (std::size_t i = 0; i < nt; ++i) {
      const std::string name = ocp.terminal_names.empty() ? "terminal constraint" : ocp.terminal_names[i];
      const sym::Expr& s = slack[shared ? 0 : i];
      if (ocp.terminal_relaxation == TR::Ell2) {
        m.constraints.push_back(g[i] + s);
        lo.push_back(ocp.terminal_lower[i]);
        up.push_back(ocp.terminal_upper[i]);
        names.push_back(name + " (relaxed)");
      } else {
        m.constraints.push_back(g[i] + s);  // >= lower
        lo.push_back(ocp.terminal_lower[i]);
        up.push_back(kInf);
        m.constraints.push_back(g[i] - s);  // <= upper
        lo.push_back(-kInf);
        up.push_back(ocp.terminal_upper[i]);
        names.push_back(name + " (relaxed, lower)");
        names.push_back(name + " (relaxed, upper)");
      }
    }
    for (const auto& s : slack) penalty = penalty + (ocp.terminal_relaxation == TR::Ell2 ? sq(s) : s);
    m.objective = rho * penalty;
    m.constraint_names = names;
    std::vector<Index> vars = x_prev;
    const double slack_lower = ocp.terminal_relaxation == TR::Ell2 ? -kInf : 0.0;
    Index first = static_cast<Index>(P.n_variables());
    P.add_variables("terminal_slack", slack.size(), slack_lower, kInf, 0.0);
    append(vars, range(first, slack.size()));
    Index rho_p = P.add_parameter("rho_terminal", ocp.terminal_relaxation_weight);
    P.add_block(P.add_block_kind(m), vars, {rho_p}, lo, up, "relaxed terminal conditions");
  }
  return tr;
}

std::vector<double> time_grid(const Transcription& t, const std::vector<double>& w, const OcpSpec& ocp,
                              const Options& options) {
  std::vector<double> grid{0.0};
  const int N = ocp.stages, N_FE = options.elements;
  double T = ocp.time_optimal ? w[static_cast<std::size_t>(t.map.final_time)] : ocp.horizon;
  double now = 0.0;
  for (int k = 0; k < N; ++k)
    for (int n = 0; n < N_FE; ++n) {
      const FiniteElementIndex& I = t.map.fe[static_cast<std::size_t>(k)][static_cast<std::size_t>(n)];
      double h = I.h >= 0 ? w[static_cast<std::size_t>(I.h)] : T / (N * N_FE);
      now += h;
      grid.push_back(now);
    }
  return grid;
}

}  // namespace stasis::discretize
