// Active-set polishing: the MPCC restricted to the branch a relaxed solution identifies.
#include "polish.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "nlp_blocks.hpp"
#include "stasis/sym/derivatives.hpp"

namespace stasis::mpcc::detail {

Polisher::Polisher(const Problem& problem) : problem_(problem) {
  add_variables_and_parameters(problem, nlp_);

  std::vector<int> nlp_kinds;
  for (const CompiledKind& ck : problem.kinds()) {
    const BlockModel& m = ck.model;
    nlp::BlockModel r = block_rows(m, m.name + ".branch");
    r.objective = m.objective;
    Kind k;
    k.n_model_rows = m.constraints.size();
    int n_extra = 0;
    for (std::size_t i = 0; i < m.G.size(); ++i) {
      for (int side = 0; side < 2; ++side) {
        const sym::Expr& e = side == 0 ? m.G[i] : m.H[i];
        Side s;
        s.local_variable = local_index_of(m.variables, e);
        if (s.local_variable < 0) {
          s.row = n_extra++;
          r.constraints.push_back(e);
          const std::string pair = m.pair_names.empty() ? "pair " + std::to_string(i) : m.pair_names[i];
          r.constraint_names.push_back(std::string(side == 0 ? "G" : "H") + " of " + pair);
          // Without the implied nonnegativity the side's row carries G >= 0 (H >= 0) itself.
          k.free_lower.push_back(m.nonnegativity_implied ? -kInf : 0.0);
          k.free_upper.push_back(kInf);
          sym::Vector grad = sym::gradient(e, m.variables);
          s.is_affine = true;
          for (std::size_t j = 0; j < grad.size() && s.is_affine; ++j) {
            if (grad[j].is_zero()) continue;
            if (!grad[j].is_constant()) {
              s.is_affine = false;
              break;
            }
            s.affine.emplace_back(static_cast<int>(j), grad[j].constant_value());
          }
          if (!s.is_affine) s.affine.clear();
        }
        k.sides.push_back(std::move(s));
      }
    }
    nlp_kinds.push_back(nlp_.add_block_kind(r));
    kinds_.push_back(std::move(k));
  }
  for (const BlockInstance& b : problem.blocks()) {
    const Kind& k = kinds_[static_cast<std::size_t>(b.kind)];
    std::vector<double> lo = b.row_lower, up = b.row_upper;
    lo.insert(lo.end(), k.free_lower.begin(), k.free_lower.end());
    up.insert(up.end(), k.free_upper.begin(), k.free_upper.end());
    first_row_.push_back(nlp_.add_block(nlp_kinds[static_cast<std::size_t>(b.kind)], b.variables, b.parameters, lo, up, b.label));
  }
  nlp_.finalize();
}

nlp::SolveResult Polisher::run(nlp::IpoptSolver& ipopt, const std::vector<double>& w, const std::vector<double>& lower,
                            const std::vector<double>& upper, const std::vector<double>& parameters) {
  const std::size_t n_w = problem_.n_variables();
  std::copy(lower.begin(), lower.begin() + static_cast<std::ptrdiff_t>(n_w), nlp_.variable_lower().begin());
  std::copy(upper.begin(), upper.begin() + static_cast<std::ptrdiff_t>(n_w), nlp_.variable_upper().begin());
  std::copy(parameters.begin(), parameters.end(), nlp_.parameters().begin());
  // Every side row starts free (or >= 0); the branch below fixes some of them.
  for (std::size_t bi = 0; bi < problem_.blocks().size(); ++bi) {
    const Kind& k = kinds_[static_cast<std::size_t>(problem_.blocks()[bi].kind)];
    for (std::size_t j = 0; j < k.free_lower.size(); ++j) {
      const std::size_t row = static_cast<std::size_t>(first_row_[bi]) + k.n_model_rows + j;
      nlp_.constraint_lower()[row] = k.free_lower[j];
      nlp_.constraint_upper()[row] = k.free_upper[j];
    }
  }

  std::vector<double> G, H;
  problem_.pair_values(w, G, H, &parameters);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> fixed(n_w, nan);  // value each fixed variable takes
  auto can_fix = [&](std::size_t v, double value) {
    if (value < nlp_.variable_lower()[v] || value > nlp_.variable_upper()[v]) return false;
    return std::isnan(fixed[v]) || fixed[v] == value;
  };
  std::size_t pair = 0;
  for (std::size_t bi = 0; bi < problem_.blocks().size(); ++bi) {
    const BlockInstance& b = problem_.blocks()[bi];
    const Kind& k = kinds_[static_cast<std::size_t>(b.kind)];
    auto row_of = [&](const Side& s) {
      return static_cast<std::size_t>(first_row_[bi]) + k.n_model_rows + static_cast<std::size_t>(s.row);
    };
    for (std::size_t i = 0; i < k.sides.size() / 2; ++i, ++pair) {
      const bool g_side = G[pair] <= H[pair];
      const Side& s = k.sides[2 * i + (g_side ? 0 : 1)];
      const double value = g_side ? G[pair] : H[pair];
      if (s.row < 0) {
        // A plain variable: fix it at 0; if its bounds exclude 0 the branch is infeasible.
        auto v = static_cast<std::size_t>(b.variables[static_cast<std::size_t>(s.local_variable)]);
        if (can_fix(v, 0.0)) {
          fixed[v] = 0.0;
          continue;
        }
        nlp::SolveResult infeasible;
        infeasible.status = nlp::Status::Infeasible;
        infeasible.message = "polishing: variable '" + problem_.variable_names[v] + "' cannot be fixed at 0";
        return infeasible;
      }
      // Affine and >= 0 by the bounds: its minimum over the box is value + Σ a_j (b_j − w_j),
      // attained only with every variable at its bound b_j.
      bool by_bounds = s.is_affine && !s.affine.empty();
      double minimum = value, scale = std::fabs(value);
      for (const auto& [local, a] : s.affine) {
        if (!by_bounds) break;
        auto v = static_cast<std::size_t>(b.variables[static_cast<std::size_t>(local)]);
        const double bound = a > 0 ? nlp_.variable_lower()[v] : nlp_.variable_upper()[v];
        if (!std::isfinite(bound) || !can_fix(v, bound)) by_bounds = false;
        minimum += a * (bound - w[v]);
        scale += std::fabs(a * bound) + std::fabs(a * w[v]);
      }
      if (by_bounds && std::fabs(minimum) <= 1e-12 * (1.0 + scale)) {
        for (const auto& [local, a] : s.affine) {
          auto v = static_cast<std::size_t>(b.variables[static_cast<std::size_t>(local)]);
          fixed[v] = a > 0 ? nlp_.variable_lower()[v] : nlp_.variable_upper()[v];
        }
      } else {
        nlp_.constraint_lower()[row_of(s)] = 0.0;
        nlp_.constraint_upper()[row_of(s)] = 0.0;
      }
    }
  }
  for (std::size_t v = 0; v < n_w; ++v)
    if (!std::isnan(fixed[v])) nlp_.variable_lower()[v] = nlp_.variable_upper()[v] = fixed[v];
  std::vector<double> w0(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(n_w));
  for (std::size_t v = 0; v < n_w; ++v) w0[v] = std::clamp(w0[v], nlp_.variable_lower()[v], nlp_.variable_upper()[v]);
  return ipopt.solve(nlp_, w0, nullptr);
}

}  // namespace stasis::mpcc::detail
