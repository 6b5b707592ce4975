// Assembly of an NLP from compiled blocks, and allocation-free evaluation.
#include "stasis/nlp/problem.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "stasis/error.hpp"
#include "stasis/sym/derivatives.hpp"

namespace stasis::nlp {

namespace {

struct Instance {
  int kind;
  std::vector<Index> variables, parameters;
  Index first_row;
  std::string label;
  Index jac_offset = 0;
  std::vector<Index> hess_position;  // global Hessian slot of each local nonzero
};

std::string fmt_double(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

struct Problem::Impl {
  std::vector<std::string> var_names, par_names;
  std::vector<double> lbw, ubw, w0, par;
  std::vector<double> lbg, ubg;
  std::vector<BlockKind> kinds;
  std::vector<Instance> instances;
  std::vector<int> row_owner;  // instance of each row
  bool finalized = false;
  std::vector<Index> jac_rows, jac_cols, hess_rows, hess_cols;
  std::size_t max_work = 0, max_w = 0, max_p = 0, max_g = 0, max_grad = 0, max_jac = 0, max_hess = 0;

  void require_open() const {
    if (finalized) throw Error("nlp::Problem: cannot add to a finalized problem");
  }
  void require_final() const {
    if (!finalized) throw Error("nlp::Problem: call finalize() before evaluating");
  }
};

Problem::Problem() : impl_(std::make_unique<Impl>()) {}
Problem::~Problem() = default;
Problem::Problem(Problem&&) noexcept = default;
Problem& Problem::operator=(Problem&&) noexcept = default;

Index Problem::add_variables(const std::string& name, std::size_t n, double lower, double upper, double start) {
  impl_->require_open();
  Index first = static_cast<Index>(impl_->lbw.size());
  for (std::size_t i = 0; i < n; ++i) {
    impl_->var_names.push_back(n == 1 ? name : name + "[" + std::to_string(i) + "]");
    impl_->lbw.push_back(lower);
    impl_->ubw.push_back(upper);
    impl_->w0.push_back(start);
  }
  return first;
}

Index Problem::add_variable(const std::string& name, double lower, double upper, double start) {
  return add_variables(name, 1, lower, upper, start);
}

Index Problem::add_parameter(const std::string& name, double value) {
  impl_->require_open();
  impl_->par_names.push_back(name);
  impl_->par.push_back(value);
  return static_cast<Index>(impl_->par.size() - 1);
}

int Problem::add_block_kind(const BlockModel& m) {
  impl_->require_open();
  BlockKind k;
  k.name = m.name;
  k.n_variables = m.variables.size();
  k.n_parameters = m.parameters.size();
  k.n_constraints = m.constraints.size();
  k.has_objective = !m.objective.is_zero();
  k.constraint_names = m.constraint_names;
  if (!k.constraint_names.empty() && k.constraint_names.size() != k.n_constraints)
    throw Error("nlp block kind '" + m.name + "': " + std::to_string(k.constraint_names.size()) +
                " constraint names for " + std::to_string(k.n_constraints) + " rows");
  k.variable_symbols = m.variables;
  k.parameter_symbols = m.parameters;
  k.symbolic_objective = {m.objective};
  k.symbolic_constraints = m.constraints;

  // First derivatives.
  sym::Vector grad = sym::gradient(m.objective, m.variables);
  sym::Vector grad_nz;
  for (std::size_t j = 0; j < grad.size(); ++j)
    if (!grad[j].is_zero()) {
      k.grad_index.push_back(static_cast<int>(j));
      grad_nz.push_back(grad[j]);
    }
  sym::SparseMatrix J = sym::jacobian_sparse(m.constraints, m.variables);
  k.jac_row = J.row;
  k.jac_col = J.col;

  // Hessian of the block Lagrangian σ_f f + λᵀ g.
  sym::Expr sigma_f = sym::Expr::symbol(m.name + ".obj_factor");
  sym::Vector lambda = sym::symbols(m.name + ".lambda", m.constraints.size());
  sym::Expr lagrangian = k.has_objective ? sigma_f * m.objective : sym::Expr(0.0);
  for (std::size_t i = 0; i < m.constraints.size(); ++i) lagrangian = lagrangian + lambda[i] * m.constraints[i];
  sym::SparseMatrix H = sym::hessian_lower(lagrangian, m.variables);
  k.hess_row = H.row;
  k.hess_col = H.col;

  try {
    k.values = sym::Function(m.name + ".values", {m.variables, m.parameters}, {{m.objective}, m.constraints});
    k.derivatives = sym::Function(m.name + ".derivatives", {m.variables, m.parameters}, {grad_nz, J.values});
    k.hessian = sym::Function(m.name + ".hessian", {m.variables, m.parameters, {sigma_f}, lambda}, {H.values});
  } catch (const Error& e) {
    throw Error("nlp block kind '" + m.name + "': " + e.what());
  }
  impl_->kinds.push_back(std::move(k));
  return static_cast<int>(impl_->kinds.size() - 1);
}

const BlockKind& Problem::block_kind(int kind) const { return impl_->kinds.at(static_cast<std::size_t>(kind)); }

Index Problem::add_block(int kind, const std::vector<Index>& variables, const std::vector<Index>& parameters,
                         const std::vector<double>& row_lower, const std::vector<double>& row_upper,
                         const std::string& label) {
  impl_->require_open();
  if (kind < 0 || static_cast<std::size_t>(kind) >= impl_->kinds.size())
    throw Error("nlp::Problem::add_block: unknown block kind " + std::to_string(kind));
  const BlockKind& k = impl_->kinds[static_cast<std::size_t>(kind)];
  auto where = "nlp block '" + (label.empty() ? k.name : label) + "'";
  if (variables.size() != k.n_variables)
    throw Error(where + ": " + std::to_string(variables.size()) + " variables given, kind '" + k.name +
                "' has " + std::to_string(k.n_variables));
  if (parameters.size() != k.n_parameters)
    throw Error(where + ": " + std::to_string(parameters.size()) + " parameters given, kind '" + k.name +
                "' has " + std::to_string(k.n_parameters));
  std::unordered_set<Index> seen;
  for (Index v : variables) {
    if (v < 0 || static_cast<std::size_t>(v) >= impl_->lbw.size())
      throw Error(where + ": variable index " + std::to_string(v) + " out of range");
    if (!seen.insert(v).second)
      throw Error(where + ": variable '" + impl_->var_names[static_cast<std::size_t>(v)] + "' is used twice");
  }
  for (Index p : parameters)
    if (p < 0 || static_cast<std::size_t>(p) >= impl_->par.size())
      throw Error(where + ": parameter index " + std::to_string(p) + " out of range");
  if (!row_lower.empty() && row_lower.size() != k.n_constraints)
    throw Error(where + ": " + std::to_string(row_lower.size()) + " lower row bounds for " +
                std::to_string(k.n_constraints) + " rows");
  if (!row_upper.empty() && row_upper.size() != k.n_constraints)
    throw Error(where + ": " + std::to_string(row_upper.size()) + " upper row bounds for " +
                std::to_string(k.n_constraints) + " rows");
  Instance inst;
  inst.kind = kind;
  inst.variables = variables;
  inst.parameters = parameters;
  inst.first_row = static_cast<Index>(impl_->lbg.size());
  inst.label = label.empty() ? k.name : label;
  for (std::size_t i = 0; i < k.n_constraints; ++i) {
    impl_->lbg.push_back(row_lower.empty() ? 0.0 : row_lower[i]);
    impl_->ubg.push_back(row_upper.empty() ? 0.0 : row_upper[i]);
    impl_->row_owner.push_back(static_cast<int>(impl_->instances.size()));
  }
  impl_->instances.push_back(std::move(inst));
  return impl_->instances.back().first_row;
}

void Problem::finalize() {
  Impl& d = *impl_;
  d.require_open();
  const std::uint64_t n = d.lbw.size();
  std::unordered_map<std::uint64_t, Index> hess_slot;
  for (Instance& inst : d.instances) {
    const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
    inst.jac_offset = static_cast<Index>(d.jac_rows.size());
    for (std::size_t e = 0; e < k.jac_row.size(); ++e) {
      d.jac_rows.push_back(inst.first_row + k.jac_row[e]);
      d.jac_cols.push_back(inst.variables[static_cast<std::size_t>(k.jac_col[e])]);
    }
    inst.hess_position.resize(k.hess_row.size());
    for (std::size_t e = 0; e < k.hess_row.size(); ++e) {
      Index r = inst.variables[static_cast<std::size_t>(k.hess_row[e])];
      Index c = inst.variables[static_cast<std::size_t>(k.hess_col[e])];
      if (r < c) std::swap(r, c);
      std::uint64_t key = static_cast<std::uint64_t>(r) * n + static_cast<std::uint64_t>(c);
      auto [it, inserted] = hess_slot.emplace(key, static_cast<Index>(d.hess_rows.size()));
      if (inserted) {
        d.hess_rows.push_back(r);
        d.hess_cols.push_back(c);
      }
      inst.hess_position[e] = it->second;
    }
    d.max_work = std::max({d.max_work, k.values.work_size(), k.derivatives.work_size(), k.hessian.work_size()});
    d.max_w = std::max(d.max_w, k.n_variables);
    d.max_p = std::max(d.max_p, k.n_parameters);
    d.max_g = std::max(d.max_g, k.n_constraints);
    d.max_grad = std::max(d.max_grad, k.grad_index.size());
    d.max_jac = std::max(d.max_jac, k.jac_row.size());
    d.max_hess = std::max(d.max_hess, k.hess_row.size());
  }
  d.finalized = true;
}

bool Problem::finalized() const { return impl_->finalized; }
std::size_t Problem::n_variables() const { return impl_->lbw.size(); }
std::size_t Problem::n_constraints() const { return impl_->lbg.size(); }
std::size_t Problem::n_parameters() const { return impl_->par.size(); }
std::size_t Problem::n_blocks() const { return impl_->instances.size(); }
const std::string& Problem::variable_name(Index i) const { return impl_->var_names.at(static_cast<std::size_t>(i)); }
const std::string& Problem::parameter_name(Index i) const { return impl_->par_names.at(static_cast<std::size_t>(i)); }

std::string Problem::constraint_description(Index row) const {
  const Impl& d = *impl_;
  const Instance& inst = d.instances.at(static_cast<std::size_t>(d.row_owner.at(static_cast<std::size_t>(row))));
  const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
  std::size_t local = static_cast<std::size_t>(row - inst.first_row);
  std::string s = "block '" + inst.label + "'";
  if (inst.label != k.name) s += " (" + k.name + ")";
  s += ", row " + std::to_string(local);
  if (!k.constraint_names.empty()) s += ": " + k.constraint_names[local];
  return s;
}

std::string Problem::constraint_key(Index row) const {
  const Impl& d = *impl_;
  const Instance& inst = d.instances.at(static_cast<std::size_t>(d.row_owner.at(static_cast<std::size_t>(row))));
  const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
  const std::size_t local = static_cast<std::size_t>(row - inst.first_row);
  return inst.label + " (" + k.name + "): " +
         (k.constraint_names.empty() ? "row " + std::to_string(local) : k.constraint_names[local]);
}

std::vector<double>& Problem::variable_lower() { return impl_->lbw; }
std::vector<double>& Problem::variable_upper() { return impl_->ubw; }
std::vector<double>& Problem::start() { return impl_->w0; }
std::vector<double>& Problem::constraint_lower() { return impl_->lbg; }
std::vector<double>& Problem::constraint_upper() { return impl_->ubg; }
const std::vector<double>& Problem::variable_lower() const { return impl_->lbw; }
const std::vector<double>& Problem::variable_upper() const { return impl_->ubw; }
const std::vector<double>& Problem::start() const { return impl_->w0; }
const std::vector<double>& Problem::constraint_lower() const { return impl_->lbg; }
const std::vector<double>& Problem::constraint_upper() const { return impl_->ubg; }
std::vector<double>& Problem::parameters() { return impl_->par; }
const std::vector<double>& Problem::parameters() const { return impl_->par; }
void Problem::set_parameter(Index i, double value) { impl_->par.at(static_cast<std::size_t>(i)) = value; }

void Problem::check_bounds() const {
  const Impl& d = *impl_;
  for (std::size_t i = 0; i < d.lbw.size(); ++i) {
    if (std::isnan(d.lbw[i]) || std::isnan(d.ubw[i]))
      throw Error("variable '" + d.var_names[i] + "' has a NaN bound");
    if (d.lbw[i] > d.ubw[i])
      throw Error("variable '" + d.var_names[i] + "': lower bound " + fmt_double(d.lbw[i]) +
                  " is greater than upper bound " + fmt_double(d.ubw[i]));
    if (!std::isfinite(d.w0[i]))
      throw Error("variable '" + d.var_names[i] + "': start value " + fmt_double(d.w0[i]) + " is not finite");
  }
  for (std::size_t r = 0; r < d.lbg.size(); ++r) {
    if (std::isnan(d.lbg[r]) || std::isnan(d.ubg[r]))
      throw Error("constraint " + constraint_description(static_cast<Index>(r)) + " has a NaN bound");
    if (d.lbg[r] > d.ubg[r])
      throw Error("constraint " + constraint_description(static_cast<Index>(r)) + ": lower bound " +
                  fmt_double(d.lbg[r]) + " is greater than upper bound " + fmt_double(d.ubg[r]));
  }
  for (std::size_t p = 0; p < d.par.size(); ++p)
    if (!std::isfinite(d.par[p]))
      throw Error("parameter '" + d.par_names[p] + "' has the non-finite value " + fmt_double(d.par[p]));
}

void Problem::check_finite_at(const double* w) const {
  const Impl& d = *impl_;
  d.require_final();
  auto ws = make_workspace();
  for (const Instance& inst : d.instances) {
    const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
    for (std::size_t i = 0; i < k.n_variables; ++i) ws->local_w[i] = w[inst.variables[i]];
    for (std::size_t i = 0; i < k.n_parameters; ++i) ws->local_p[i] = d.par[static_cast<std::size_t>(inst.parameters[i])];
    const double* in[2] = {ws->local_w.data(), ws->local_p.data()};
    double* out[2] = {ws->out_f.data(), ws->out_g.data()};
    k.values.eval(in, out, ws->work.data());
    auto values_at = [&]() {
      std::string s;
      for (std::size_t i = 0; i < k.n_variables && i < 12; ++i)
        s += (i ? ", " : "") + d.var_names[static_cast<std::size_t>(inst.variables[i])] + " = " +
             fmt_double(ws->local_w[i]);
      return s;
    };
    if (k.has_objective && !std::isfinite(ws->out_f[0]))
      throw Error("the objective term of block '" + inst.label + "' is " + fmt_double(ws->out_f[0]) +
                  " at the start point (" + values_at() + "); change the start values or the model");
    for (std::size_t r = 0; r < k.n_constraints; ++r)
      if (!std::isfinite(ws->out_g[r]))
        throw Error("constraint " + constraint_description(inst.first_row + static_cast<Index>(r)) + " is " +
                    fmt_double(ws->out_g[r]) + " at the start point (" + values_at() +
                    "); change the start values or the model");
    double* dout[2] = {ws->out_grad.data(), ws->out_jac.data()};
    k.derivatives.eval(in, dout, ws->work.data());
    for (std::size_t e = 0; e < k.grad_index.size(); ++e)
      if (!std::isfinite(ws->out_grad[e]))
        throw Error("the derivative of the objective term of block '" + inst.label + "' with respect to '" +
                    d.var_names[static_cast<std::size_t>(inst.variables[static_cast<std::size_t>(k.grad_index[e])])] +
                    "' is not finite at the start point (" + values_at() + ")");
    for (std::size_t e = 0; e < k.jac_row.size(); ++e)
      if (!std::isfinite(ws->out_jac[e]))
        throw Error("the derivative of constraint " +
                    constraint_description(inst.first_row + static_cast<Index>(k.jac_row[e])) +
                    " with respect to '" +
                    d.var_names[static_cast<std::size_t>(inst.variables[static_cast<std::size_t>(k.jac_col[e])])] +
                    "' is not finite at the start point (" + values_at() + ")");
  }
}

std::unique_ptr<Workspace> Problem::make_workspace() const {
  const Impl& d = *impl_;
  d.require_final();
  auto ws = std::make_unique<Workspace>();
  ws->work.assign(std::max<std::size_t>(d.max_work, 1), 0.0);
  ws->local_w.assign(std::max<std::size_t>(d.max_w, 1), 0.0);
  ws->local_p.assign(std::max<std::size_t>(d.max_p, 1), 0.0);
  ws->local_mult.assign(std::max<std::size_t>(d.max_g, 1), 0.0);
  ws->out_f.assign(1, 0.0);
  ws->out_g.assign(std::max<std::size_t>(d.max_g, 1), 0.0);
  ws->out_grad.assign(std::max<std::size_t>(d.max_grad, 1), 0.0);
  ws->out_jac.assign(std::max<std::size_t>(d.max_jac, 1), 0.0);
  ws->out_hess.assign(std::max<std::size_t>(d.max_hess, 1), 0.0);
  return ws;
}

namespace {
inline void gather(const Instance& inst, const BlockKind& k, const double* w, const std::vector<double>& par,
                   Workspace& ws) {
  double* lw = ws.local_w.data();
  for (std::size_t i = 0; i < k.n_variables; ++i) lw[i] = w[inst.variables[i]];
  double* lp = ws.local_p.data();
  for (std::size_t i = 0; i < k.n_parameters; ++i) lp[i] = par[static_cast<std::size_t>(inst.parameters[i])];
}
}  // namespace

double Problem::eval_f_g(const double* w, double* g, Workspace& ws) const {
  const Impl& d = *impl_;
  double f = 0.0;
  for (const Instance& inst : d.instances) {
    const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
    gather(inst, k, w, d.par, ws);
    const double* in[2] = {ws.local_w.data(), ws.local_p.data()};
    double* out[2] = {ws.out_f.data(), g ? g + inst.first_row : nullptr};
    k.values.eval(in, out, ws.work.data());
    f += ws.out_f[0];
  }
  return f;
}

double Problem::eval_f(const double* w, Workspace& ws) const {
  const Impl& d = *impl_;
  double f = 0.0;
  for (const Instance& inst : d.instances) {
    const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
    if (!k.has_objective) continue;
    gather(inst, k, w, d.par, ws);
    const double* in[2] = {ws.local_w.data(), ws.local_p.data()};
    double* out[2] = {ws.out_f.data(), nullptr};
    k.values.eval(in, out, ws.work.data());
    f += ws.out_f[0];
  }
  return f;
}

void Problem::eval_g(const double* w, double* g, Workspace& ws) const {
  const Impl& d = *impl_;
  for (const Instance& inst : d.instances) {
    const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
    if (k.n_constraints == 0) continue;
    gather(inst, k, w, d.par, ws);
    const double* in[2] = {ws.local_w.data(), ws.local_p.data()};
    double* out[2] = {nullptr, g + inst.first_row};
    k.values.eval(in, out, ws.work.data());
  }
}

void Problem::eval_grad_jac(const double* w, double* grad, double* jac, Workspace& ws) const {
  const Impl& d = *impl_;
  if (grad) std::fill(grad, grad + d.lbw.size(), 0.0);
  for (const Instance& inst : d.instances) {
    const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
    bool want_grad = grad && !k.grad_index.empty();
    bool want_jac = jac && !k.jac_row.empty();
    if (!want_grad && !want_jac) continue;
    gather(inst, k, w, d.par, ws);
    const double* in[2] = {ws.local_w.data(), ws.local_p.data()};
    double* out[2] = {want_grad ? ws.out_grad.data() : nullptr, want_jac ? jac + inst.jac_offset : nullptr};
    k.derivatives.eval(in, out, ws.work.data());
    if (want_grad)
      for (std::size_t e = 0; e < k.grad_index.size(); ++e)
        grad[inst.variables[static_cast<std::size_t>(k.grad_index[e])]] += ws.out_grad[e];
  }
}

void Problem::eval_hessian(const double* w, double obj_factor, const double* lambda, double* hess,
                           Workspace& ws) const {
  const Impl& d = *impl_;
  std::fill(hess, hess + d.hess_rows.size(), 0.0);
  for (const Instance& inst : d.instances) {
    const BlockKind& k = d.kinds[static_cast<std::size_t>(inst.kind)];
    if (k.hess_row.empty()) continue;
    gather(inst, k, w, d.par, ws);
    const double* in[4] = {ws.local_w.data(), ws.local_p.data(), &obj_factor,
                           lambda ? lambda + inst.first_row : ws.local_mult.data()};
    double* out[1] = {ws.out_hess.data()};
    k.hessian.eval(in, out, ws.work.data());
    for (std::size_t e = 0; e < inst.hess_position.size(); ++e) hess[inst.hess_position[e]] += ws.out_hess[e];
  }
}

std::size_t Problem::jacobian_nnz() const { return impl_->jac_rows.size(); }
const std::vector<Index>& Problem::jacobian_rows() const { return impl_->jac_rows; }
const std::vector<Index>& Problem::jacobian_cols() const { return impl_->jac_cols; }
std::size_t Problem::hessian_nnz() const { return impl_->hess_rows.size(); }
const std::vector<Index>& Problem::hessian_rows() const { return impl_->hess_rows; }
const std::vector<Index>& Problem::hessian_cols() const { return impl_->hess_cols; }

std::vector<std::string> numbered_keys(std::vector<std::string> keys) {
  std::unordered_map<std::string, int> seen;
  for (std::string& key : keys) {
    const int n = ++seen[key];
    if (n > 1) key += " #" + std::to_string(n);
  }
  return keys;
}

std::vector<std::ptrdiff_t> match_keys(const std::vector<std::string>& from, const std::vector<std::string>& to) {
  std::unordered_map<std::string, std::ptrdiff_t> position;
  for (std::size_t i = 0; i < from.size(); ++i) position.emplace(from[i], static_cast<std::ptrdiff_t>(i));
  std::vector<std::ptrdiff_t> match(to.size(), -1);
  for (std::size_t i = 0; i < to.size(); ++i)
    if (const auto it = position.find(to[i]); it != position.end()) match[i] = it->second;
  return match;
}

}  // namespace stasis::nlp
