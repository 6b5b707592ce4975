// MPCC problem assembly and the evaluation of its own objective and complementarity residual.
#include "stasis/mpcc/problem.hpp"

#include <algorithm>
#include <unordered_set>

#include "stasis/error.hpp"

namespace stasis::mpcc {

Index Problem::add_variables(const std::string& name, std::size_t n, double lower, double upper, double start) {
  Index first = static_cast<Index>(lower_.size());
  for (std::size_t i = 0; i < n; ++i) {
    variable_names.push_back(n == 1 ? name : name + "[" + std::to_string(i) + "]");
    lower_.push_back(lower);
    upper_.push_back(upper);
    start_.push_back(start);
  }
  return first;
}

Index Problem::add_variable(const std::string& name, double lower, double upper, double start) {
  return add_variables(name, 1, lower, upper, start);
}

Index Problem::add_parameter(const std::string& name, double value) {
  parameter_names.push_back(name);
  parameter_values_.push_back(value);
  return static_cast<Index>(parameter_values_.size() - 1);
}

int Problem::add_block_kind(const BlockModel& model) {
  if (model.G.size() != model.H.size())
    throw Error("mpcc block kind '" + model.name + "': " + std::to_string(model.G.size()) + " G expressions but " +
                std::to_string(model.H.size()) + " H expressions");
  if (!model.pair_names.empty() && model.pair_names.size() != model.G.size())
    throw Error("mpcc block kind '" + model.name + "': pair_names has " + std::to_string(model.pair_names.size()) +
                " entries for " + std::to_string(model.G.size()) + " pairs");
  CompiledKind k;
  k.model = model;
  try {
    k.evaluate =
        sym::Function(model.name + ".mpcc", {model.variables, model.parameters}, {{model.objective}, model.G, model.H});
  } catch (const Error& e) {
    throw Error("mpcc block kind '" + model.name + "': " + e.what());
  }
  kinds_.push_back(std::move(k));
  return static_cast<int>(kinds_.size() - 1);
}

int Problem::add_block(int kind, const std::vector<Index>& variables, const std::vector<Index>& parameters,
                       const std::vector<double>& row_lower, const std::vector<double>& row_upper,
                       const std::string& label) {
  if (kind < 0 || static_cast<std::size_t>(kind) >= kinds_.size())
    throw Error("mpcc::Problem::add_block: unknown block kind " + std::to_string(kind));
  const BlockModel& m = kinds_[static_cast<std::size_t>(kind)].model;
  std::string where = "mpcc block '" + (label.empty() ? m.name : label) + "'";
  if (variables.size() != m.variables.size())
    throw Error(where + ": " + std::to_string(variables.size()) + " variables given, kind has " +
                std::to_string(m.variables.size()));
  if (parameters.size() != m.parameters.size())
    throw Error(where + ": " + std::to_string(parameters.size()) + " parameters given, kind has " +
                std::to_string(m.parameters.size()));
  std::unordered_set<Index> seen;
  for (Index v : variables) {
    if (v < 0 || static_cast<std::size_t>(v) >= lower_.size())
      throw Error(where + ": variable index " + std::to_string(v) + " out of range");
    if (!seen.insert(v).second) throw Error(where + ": variable '" + variable_names[static_cast<std::size_t>(v)] +
                                            "' is used twice");
  }
  for (Index p : parameters)
    if (p < 0 || static_cast<std::size_t>(p) >= parameter_values_.size())
      throw Error(where + ": parameter index " + std::to_string(p) + " out of range");
  if ((!row_lower.empty() && row_lower.size() != m.constraints.size()) ||
      (!row_upper.empty() && row_upper.size() != m.constraints.size()))
    throw Error(where + ": row bounds do not match its " + std::to_string(m.constraints.size()) + " rows");
  BlockInstance b{kind, variables, parameters, row_lower, row_upper, label.empty() ? m.name : label};
  if (b.row_lower.empty()) b.row_lower.assign(m.constraints.size(), 0.0);
  if (b.row_upper.empty()) b.row_upper.assign(m.constraints.size(), 0.0);
  blocks_.push_back(std::move(b));
  return static_cast<int>(blocks_.size() - 1);
}

std::size_t Problem::n_constraints() const {
  std::size_t n = 0;
  for (const auto& b : blocks_) n += kinds_[static_cast<std::size_t>(b.kind)].model.constraints.size();
  return n;
}

std::size_t Problem::n_pairs() const {
  std::size_t n = 0;
  for (const auto& b : blocks_) n += kinds_[static_cast<std::size_t>(b.kind)].model.G.size();
  return n;
}

namespace {
template <class F>
void for_each_block(const Problem& p, const std::vector<double>& w, const std::vector<double>* parameters, F&& f) {
  const std::vector<double>& par = parameters ? *parameters : p.parameter_values();
  std::vector<double> lw, lp, out_f(1), G, H, work;
  for (const auto& b : p.blocks()) {
    const CompiledKind& k = p.kinds()[static_cast<std::size_t>(b.kind)];
    lw.resize(b.variables.size());
    lp.resize(b.parameters.size());
    for (std::size_t i = 0; i < lw.size(); ++i) lw[i] = w[static_cast<std::size_t>(b.variables[i])];
    for (std::size_t i = 0; i < lp.size(); ++i)
      lp[i] = par[static_cast<std::size_t>(b.parameters[i])];
    G.resize(k.model.G.size());
    H.resize(k.model.H.size());
    work.resize(k.evaluate.work_size());
    const double* in[2] = {lw.data(), lp.data()};
    double* out[3] = {out_f.data(), G.data(), H.data()};
    k.evaluate.eval(in, out, work.data());
    f(out_f[0], G, H);
  }
}
}  // namespace

double Problem::objective(const std::vector<double>& w, const std::vector<double>* parameters) const {
  double f = 0.0;
  std::size_t b = 0;
  for_each_block(*this, w, parameters, [&](double fb, const auto&, const auto&) {
    const BlockInstance& inst = blocks_[b++];
    if (!kinds_[static_cast<std::size_t>(inst.kind)].model.objective_is_regularization) f += fb;
  });
  return f;
}

double Problem::complementarity_residual(const std::vector<double>& w,
                                         const std::vector<double>* parameters) const {
  double r = 0.0;
  for_each_block(*this, w, parameters, [&](double, const std::vector<double>& G, const std::vector<double>& H) {
    for (std::size_t i = 0; i < G.size(); ++i) r = std::max(r, G[i] * H[i]);
  });
  return r;
}

void Problem::pair_values(const std::vector<double>& w, std::vector<double>& G_all, std::vector<double>& H_all,
                          const std::vector<double>* parameters) const {
  G_all.clear();
  H_all.clear();
  for_each_block(*this, w, parameters, [&](double, const std::vector<double>& G, const std::vector<double>& H) {
    G_all.insert(G_all.end(), G.begin(), G.end());
    H_all.insert(H_all.end(), H.begin(), H.end());
  });
}

std::vector<PairValue> Problem::largest_products(const std::vector<double>& w, std::size_t count,
                                                const std::vector<double>* parameters) const {
  std::vector<PairValue> top;
  if (count == 0) return top;
  std::size_t b = 0;
  for_each_block(*this, w, parameters, [&](double, const std::vector<double>& G, const std::vector<double>& H) {
    const BlockInstance& inst = blocks_[b];
    const BlockModel& model = kinds_[static_cast<std::size_t>(inst.kind)].model;
    for (std::size_t i = 0; i < G.size(); ++i) {
      const double product = G[i] * H[i];
      if (!(product > 0.0) || (top.size() == count && product <= top.back().product())) continue;
      PairValue v{inst.label.empty() ? "block " + std::to_string(b) : inst.label,
                  i < model.pair_names.size() ? model.pair_names[i] : "pair " + std::to_string(i), G[i], H[i]};
      const auto at = std::upper_bound(top.begin(), top.end(), product,
                                       [](double p, const PairValue& x) { return p > x.product(); });
      top.insert(at, std::move(v));
      if (top.size() > count) top.pop_back();
    }
    ++b;
  });
  return top;
}

double ViolationValue::violation() const { return std::max({lower - value, value - upper, 0.0}); }

std::vector<ViolationValue> Problem::largest_violations(const std::vector<double>& w, std::size_t count,
                                                        const std::vector<double>* parameters) const {
  std::vector<ViolationValue> top;
  if (count == 0) return top;
  // Names are built only for an entry that makes the list (most rows hold).
  const auto offer = [&](double value, double lower, double upper, auto&& block, auto&& what) {
    ViolationValue v{{}, {}, value, lower, upper};
    const double x = v.violation();
    if (!(x > 0.0) || (top.size() == count && x <= top.back().violation())) return;
    v.block = block();
    v.what = what();
    const auto at = std::upper_bound(top.begin(), top.end(), x,
                                     [](double a, const ViolationValue& b) { return a > b.violation(); });
    top.insert(at, std::move(v));
    if (top.size() > count) top.pop_back();
  };
  for (std::size_t i = 0; i < w.size() && i < lower_.size(); ++i)
    offer(w[i], lower_[i], upper_[i], [] { return std::string("variables"); },
          [&] { return i < variable_names.size() ? variable_names[i] : "variable " + std::to_string(i); });
  const std::vector<double>& par = parameters ? *parameters : parameter_values_;
  std::vector<sym::Function> rows(kinds_.size());
  std::vector<bool> compiled(kinds_.size(), false);
  std::vector<double> lw, lp, values, G, H, work;
  for (const BlockInstance& inst : blocks_) {
    const auto kind = static_cast<std::size_t>(inst.kind);
    const BlockModel& m = kinds_[kind].model;
    if (!compiled[kind]) {
      rows[kind] = sym::Function(m.name + ".rows", {m.variables, m.parameters}, {m.constraints, m.G, m.H});
      compiled[kind] = true;
    }
    lw.resize(inst.variables.size());
    lp.resize(inst.parameters.size());
    for (std::size_t i = 0; i < lw.size(); ++i) lw[i] = w[static_cast<std::size_t>(inst.variables[i])];
    for (std::size_t i = 0; i < lp.size(); ++i) lp[i] = par[static_cast<std::size_t>(inst.parameters[i])];
    values.resize(m.constraints.size());
    G.resize(m.G.size());
    H.resize(m.H.size());
    work.resize(rows[kind].work_size());
    const double* in[2] = {lw.data(), lp.data()};
    double* out[3] = {values.data(), G.data(), H.data()};
    rows[kind].eval(in, out, work.data());
    const auto label = [&] { return inst.label; };
    for (std::size_t i = 0; i < values.size(); ++i)
      offer(values[i], inst.row_lower[i], inst.row_upper[i], label,
            [&] { return i < m.constraint_names.size() ? m.constraint_names[i] : "row " + std::to_string(i); });
    // Implied nonnegativity: G and H are bounded variables, reported with the bounds above.
    for (std::size_t i = 0; i < G.size() && !m.nonnegativity_implied; ++i) {
      const auto pair = [&] { return i < m.pair_names.size() ? m.pair_names[i] : "pair " + std::to_string(i); };
      offer(G[i], 0.0, kInf, label, [&] { return "G >= 0 of " + pair(); });
      offer(H[i], 0.0, kInf, label, [&] { return "H >= 0 of " + pair(); });
    }
  }
  return top;
}

}  // namespace stasis::mpcc
