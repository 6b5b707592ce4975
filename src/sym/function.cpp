// Compilation of expression graphs into a register-machine program, and its evaluation.
//
// The program is a sequence of *runs*: groups of mutually independent operations with the same
// opcode. The scheduler builds them greedily from the set of ready nodes (all arguments computed),
// always emitting the largest group of one opcode, so one dispatch executes a tight loop of many
// operations with no dependency between them (no branch misprediction per operation, full use of
// the CPU's out-of-order execution). Registers are then assigned by liveness in the scheduled order
// (linear scan), so the work array stays small; constants that appear as an operand of + - * / are
// folded into the operation as an immediate instead of occupying a register.
//
// The operations and their order of arguments are those of the expression graph, so every value is
// computed bit for bit as sym::apply / sym::evaluate computes it.
#include "stasis/sym/function.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "node.hpp"
#include "stasis/error.hpp"

namespace stasis::sym {

namespace {

// Opcodes: the elementary operations of Op (same numbering) plus loads and constant-operand forms.
enum Code : std::uint8_t {
  kLoadInput = 200,  // operands: dst, input vector, element
  kLoadConst,        // dst, immediate
  kAddC,             // dst, a, immediate: a + imm
  kMulC,             // a * imm
  kRSubC,            // imm - a
  kDivC,             // a / imm
  kRDivC,            // imm / a
  kMulAdd,           // dst, x, a, b: x + a*b  (a product used once, fused into its sum)
  kMulSubR,          // x - a*b
  kMulSubL,          // a*b - x
};

// The product of a fused multiply-add is rounded before the sum, exactly as the two separate
// operations; the empty asm keeps the compiler from contracting them into one FMA instruction.
inline double rounded(double x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(x));
#endif
  return x;
}

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint8_t code_of(Op op) { return static_cast<std::uint8_t>(op); }

bool const_operand_form(Op op, int position, Code& code) {
  switch (op) {
    case Op::Add: code = kAddC; return true;
    case Op::Mul: code = kMulC; return true;
    case Op::Sub: code = position == 1 ? kAddC : kRSubC; return true;  // a - c = a + (-c)
    case Op::Div: code = position == 1 ? kDivC : kRDivC; return true;
    default: return false;
  }
}

bool has_immediate(std::uint8_t code) {
  return code == kLoadConst || code == kAddC || code == kMulC || code == kRSubC || code == kDivC ||
         code == kRDivC || code == code_of(Op::PowConst);
}

}  // namespace

Function::Function(std::string name, std::vector<Vector> inputs, std::vector<Vector> outputs)
    : name_(std::move(name)), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {
  // Where each input symbol lives.
  std::unordered_map<const Node*, std::pair<std::uint32_t, std::uint32_t>> input_of;
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    for (std::size_t j = 0; j < inputs_[i].size(); ++j) {
      const Expr& s = inputs_[i][j];
      if (!s.is_symbol())
        throw Error("sym::Function '" + name_ + "': input " + std::to_string(i) + " element " + std::to_string(j) +
                    " is '" + s.str() + "', not a symbol");
      if (!input_of.emplace(s.node(), std::make_pair(std::uint32_t(i), std::uint32_t(j))).second)
        throw Error("sym::Function '" + name_ + "': symbol '" + s.name() + "' appears twice among the inputs");
    }

  std::vector<const Node*> roots;
  for (const auto& o : outputs_)
    for (const auto& e : o) roots.push_back(e.node());
  const std::vector<const Node*> order = detail::topological_order(roots);
  const std::size_t n_nodes = order.size();
  std::unordered_map<const Node*, std::size_t> position;
  position.reserve(n_nodes);
  for (std::size_t p = 0; p < n_nodes; ++p) position.emplace(order[p], p);

  // Which nodes need a register, which constant operands become immediates, and the opcode of
  // every node that is computed.
  std::vector<bool> needs_register(n_nodes, false);
  std::vector<std::uint8_t> folded(n_nodes, 0);  // bit i: argument i is an immediate constant
  std::vector<std::uint8_t> code(n_nodes, 0);
  std::vector<double> imm(n_nodes, 0.0);
  for (std::size_t p = 0; p < n_nodes; ++p) {
    const Node* n = order[p];
    if (n->op == Op::Symbol && !input_of.count(n))
      throw Error("sym::Function '" + name_ + "': an output depends on symbol '" + *n->name +
                  "', which is not among the inputs");
    if (n->op != Op::Constant) needs_register[p] = true;
    code[p] = n->op == Op::Symbol ? static_cast<std::uint8_t>(kLoadInput) : code_of(n->op);
    imm[p] = n->value;  // PowConst exponent
    for (int i = 0; i < n->nargs; ++i) {
      const Node* arg = n->args[i];
      Code c = kAddC;
      const bool other_is_register = n->nargs == 2 && n->args[1 - i]->op != Op::Constant;
      if (arg->op == Op::Constant && other_is_register && const_operand_form(n->op, i, c)) {
        folded[p] |= static_cast<std::uint8_t>(1u << i);
        code[p] = c;
        imm[p] = (n->op == Op::Sub && i == 1) ? -arg->value : arg->value;
        continue;
      }
      needs_register[position.at(arg)] = true;
    }
  }
  for (std::size_t p = 0; p < n_nodes; ++p)
    if (needs_register[p] && order[p]->op == Op::Constant) {
      code[p] = kLoadConst;
      imm[p] = order[p]->value;
    }

  // Fuse a product used only by one sum or difference into it (x + a*b, x - a*b, a*b - x).
  std::vector<std::uint32_t> use_count(n_nodes, 0);
  for (std::size_t p = 0; p < n_nodes; ++p) {
    if (!needs_register[p] || order[p]->op == Op::Symbol || order[p]->op == Op::Constant) continue;
    const Node* n = order[p];
    for (int i = 0; i < n->nargs; ++i)
      if (!(folded[p] & (1u << i))) ++use_count[position.at(n->args[i])];
  }
  for (const Node* r : roots) use_count[position.at(r)] += 1000;  // outputs are never fused away
  std::vector<std::array<std::uint32_t, 3>> fused_args(n_nodes, {kNone, kNone, kNone});
  for (std::size_t p = 0; p < n_nodes; ++p) {
    const Node* n = order[p];
    if (!needs_register[p] || (n->op != Op::Add && n->op != Op::Sub) || folded[p]) continue;
    if (n->args[0] == n->args[1]) continue;
    for (int i = 1; i >= 0; --i) {
      const std::size_t m = position.at(n->args[i]);
      if (code[m] != code_of(Op::Mul) || use_count[m] != 1) continue;
      const auto x = static_cast<std::uint32_t>(position.at(n->args[1 - i]));
      const auto a = static_cast<std::uint32_t>(position.at(order[m]->args[0]));
      const auto b = static_cast<std::uint32_t>(position.at(order[m]->args[1]));
      code[p] = n->op == Op::Add ? kMulAdd : (i == 1 ? kMulSubR : kMulSubL);
      fused_args[p] = {x, a, b};
      needs_register[m] = false;
      break;
    }
  }

  // Register arguments of each computed node (distinct, in argument order) and their users.
  std::vector<std::array<std::uint32_t, 3>> reg_args(n_nodes, {kNone, kNone, kNone});
  std::vector<std::uint32_t> pending(n_nodes, 0);  // register arguments not yet scheduled
  std::vector<std::vector<std::uint32_t>> users(n_nodes);
  for (std::size_t p = 0; p < n_nodes; ++p) {
    if (!needs_register[p]) continue;
    const Node* n = order[p];
    if (n->op == Op::Symbol || n->op == Op::Constant) continue;
    const bool fused = fused_args[p][0] != kNone;
    for (int i = 0; i < (fused ? 3 : n->nargs); ++i) {
      if (!fused && (folded[p] & (1u << i))) continue;
      const auto q = fused ? fused_args[p][static_cast<std::size_t>(i)]
                           : static_cast<std::uint32_t>(position.at(n->args[i]));
      reg_args[p][static_cast<std::size_t>(i)] = q;
      bool seen_before = false;
      for (int k = 0; k < i; ++k) seen_before = seen_before || reg_args[p][static_cast<std::size_t>(k)] == q;
      if (seen_before) continue;
      ++pending[p];
      users[q].push_back(static_cast<std::uint32_t>(p));
    }
  }

  // Schedule: repeatedly emit, as one run, every ready node of the opcode with the most ready nodes.
  std::array<std::vector<std::uint32_t>, 256> ready;
  for (std::size_t p = 0; p < n_nodes; ++p)
    if (needs_register[p] && pending[p] == 0) ready[code[p]].push_back(static_cast<std::uint32_t>(p));
  std::vector<std::uint32_t> schedule;  // node positions in execution order
  std::vector<std::pair<std::uint8_t, std::uint32_t>> run_list;
  for (;;) {
    std::size_t best = 0, best_size = 0;
    for (std::size_t c = 0; c < ready.size(); ++c)
      if (ready[c].size() > best_size) {
        best = c;
        best_size = ready[c].size();
      }
    if (best_size == 0) break;
    std::vector<std::uint32_t> batch;
    batch.swap(ready[best]);
    std::sort(batch.begin(), batch.end());
    run_list.emplace_back(static_cast<std::uint8_t>(best), static_cast<std::uint32_t>(batch.size()));
    for (std::uint32_t p : batch) {
      schedule.push_back(p);
      for (std::uint32_t u : users[p])
        if (--pending[u] == 0) ready[code[u]].push_back(u);
    }
  }

  // Liveness in the scheduled order and linear-scan register assignment.
  const auto kForever = static_cast<std::uint32_t>(schedule.size());
  std::vector<std::uint32_t> slot(n_nodes, kNone);  // position in the schedule
  for (std::size_t s = 0; s < schedule.size(); ++s) slot[schedule[s]] = static_cast<std::uint32_t>(s);
  std::vector<std::uint32_t> last_use(n_nodes, 0);
  for (std::uint32_t p : schedule)
    for (std::uint32_t q : reg_args[p])
      if (q != kNone) last_use[q] = std::max(last_use[q], slot[p]);
  for (const Node* r : roots) {
    const std::size_t q = position.at(r);
    if (needs_register[q]) last_use[q] = kForever;
  }
  std::vector<std::uint32_t> reg(n_nodes, kNone);
  std::vector<std::uint32_t> free_list;
  std::uint32_t n_registers = 0;
  for (std::size_t s = 0; s < schedule.size(); ++s) {
    const std::uint32_t p = schedule[s];
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t q = reg_args[p][static_cast<std::size_t>(i)];
      bool seen_before = false;
      for (int k = 0; k < i; ++k) seen_before = seen_before || reg_args[p][static_cast<std::size_t>(k)] == q;
      if (q != kNone && !seen_before && last_use[q] == s) free_list.push_back(reg[q]);
    }
    if (!free_list.empty()) {
      reg[p] = free_list.back();
      free_list.pop_back();
    } else {
      reg[p] = n_registers++;
    }
  }
  work_size_ = n_registers;

  // Emit the runs.
  std::size_t s = 0;
  for (const auto& [c, count] : run_list) {
    runs_.push_back(Run{c, count});
    for (std::uint32_t k = 0; k < count; ++k, ++s) {
      const std::uint32_t p = schedule[s];
      operands_.push_back(reg[p]);
      if (c == kLoadInput) {
        auto [i, j] = input_of.at(order[p]);
        operands_.push_back(i);
        operands_.push_back(j);
        continue;
      }
      for (std::uint32_t q : reg_args[p])
        if (q != kNone) operands_.push_back(reg[q]);
      if (has_immediate(c)) {
        operands_.push_back(static_cast<std::uint32_t>(immediates_.size()));
        immediates_.push_back(imm[p]);
      }
    }
  }
  instruction_count_ = schedule.size();

  for (std::size_t i = 0; i < outputs_.size(); ++i)
    for (std::size_t j = 0; j < outputs_[i].size(); ++j) {
      const Node* n = outputs_[i][j].node();
      Store st{};
      st.output = static_cast<std::uint32_t>(i);
      st.element = static_cast<std::uint32_t>(j);
      if (n->op == Op::Constant) {
        st.is_constant = true;
        st.value = n->value;
      } else {
        st.src = reg[position.at(n)];
      }
      stores_.push_back(st);
    }
}

void Function::eval(const double* const* in, double* const* out, double* w) const {
  const std::uint32_t* o = operands_.data();
  const double* imm = immediates_.data();
  // One tight loop per run; `f` computes the operation from its operand values.
  auto unary = [&](std::uint32_t n, auto f) {
    for (std::uint32_t k = 0; k < n; ++k, o += 2) w[o[0]] = f(w[o[1]]);
  };
  auto binary = [&](std::uint32_t n, auto f) {
    for (std::uint32_t k = 0; k < n; ++k, o += 3) w[o[0]] = f(w[o[1]], w[o[2]]);
  };
  auto with_imm = [&](std::uint32_t n, auto f) {
    for (std::uint32_t k = 0; k < n; ++k, o += 3) w[o[0]] = f(w[o[1]], imm[o[2]]);
  };
  for (const Run& run : runs_) {
    const std::uint32_t n = run.count;
    switch (run.code) {
      case kLoadInput:
        for (std::uint32_t k = 0; k < n; ++k, o += 3) w[o[0]] = in[o[1]][o[2]];
        break;
      case kLoadConst:
        for (std::uint32_t k = 0; k < n; ++k, o += 2) w[o[0]] = imm[o[1]];
        break;
      case kAddC: with_imm(n, [](double a, double c) { return a + c; }); break;
      case kMulC: with_imm(n, [](double a, double c) { return a * c; }); break;
      case kRSubC: with_imm(n, [](double a, double c) { return c - a; }); break;
      case kDivC: with_imm(n, [](double a, double c) { return a / c; }); break;
      case kRDivC: with_imm(n, [](double a, double c) { return c / a; }); break;
      case code_of(Op::PowConst): with_imm(n, [](double a, double c) { return std::pow(a, c); }); break;
      case kMulAdd:
        for (std::uint32_t k = 0; k < n; ++k, o += 4) w[o[0]] = w[o[1]] + rounded(w[o[2]] * w[o[3]]);
        break;
      case kMulSubR:
        for (std::uint32_t k = 0; k < n; ++k, o += 4) w[o[0]] = w[o[1]] - rounded(w[o[2]] * w[o[3]]);
        break;
      case kMulSubL:
        for (std::uint32_t k = 0; k < n; ++k, o += 4) w[o[0]] = rounded(w[o[2]] * w[o[3]]) - w[o[1]];
        break;
      case code_of(Op::Add): binary(n, [](double a, double b) { return a + b; }); break;
      case code_of(Op::Sub): binary(n, [](double a, double b) { return a - b; }); break;
      case code_of(Op::Mul): binary(n, [](double a, double b) { return a * b; }); break;
      case code_of(Op::Div): binary(n, [](double a, double b) { return a / b; }); break;
      case code_of(Op::Pow):
      case code_of(Op::Atan2):
      case code_of(Op::Fmin):
      case code_of(Op::Fmax):
      case code_of(Op::Lt):
      case code_of(Op::Le):
      case code_of(Op::Eq):
      case code_of(Op::Ne):
      case code_of(Op::And):
      case code_of(Op::Or): {
        const Op op = static_cast<Op>(run.code);
        binary(n, [op](double a, double b) { return apply(op, a, b); });
        break;
      }
      case code_of(Op::Neg): unary(n, [](double a) { return -a; }); break;
      case code_of(Op::Sq): unary(n, [](double a) { return a * a; }); break;
      case code_of(Op::Sqrt): unary(n, [](double a) { return std::sqrt(a); }); break;
      case code_of(Op::Exp): unary(n, [](double a) { return std::exp(a); }); break;
      case code_of(Op::Log): unary(n, [](double a) { return std::log(a); }); break;
      case code_of(Op::Sin): unary(n, [](double a) { return std::sin(a); }); break;
      case code_of(Op::Cos): unary(n, [](double a) { return std::cos(a); }); break;
      case code_of(Op::IfElse):
        for (std::uint32_t k = 0; k < n; ++k, o += 4) w[o[0]] = w[o[1]] != 0.0 ? w[o[2]] : w[o[3]];
        break;
      default: {  // the other unary operations
        const Op op = static_cast<Op>(run.code);
        unary(n, [op](double a) { return apply(op, a); });
      }
    }
  }
  for (const Store& st : stores_) {
    double* dst = out[st.output];
    if (dst) dst[st.element] = st.is_constant ? st.value : w[st.src];
  }
}

std::vector<std::vector<double>> Function::operator()(const std::vector<std::vector<double>>& in) const {
  if (in.size() != inputs_.size())
    throw Error("sym::Function '" + name_ + "': called with " + std::to_string(in.size()) + " inputs, expects " +
                std::to_string(inputs_.size()));
  std::vector<const double*> ip(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].size() != inputs_[i].size())
      throw Error("sym::Function '" + name_ + "': input " + std::to_string(i) + " has " +
                  std::to_string(in[i].size()) + " elements, expects " + std::to_string(inputs_[i].size()));
    ip[i] = in[i].data();
  }
  std::vector<std::vector<double>> res(outputs_.size());
  std::vector<double*> op(outputs_.size());
  for (std::size_t j = 0; j < outputs_.size(); ++j) {
    res[j].assign(outputs_[j].size(), 0.0);
    op[j] = res[j].data();
  }
  std::vector<double> work(work_size_);
  eval(ip.data(), op.data(), work.data());
  return res;
}

std::vector<Vector> Function::call(const std::vector<Vector>& args) const {
  if (args.size() != inputs_.size())
    throw Error("sym::Function '" + name_ + "': symbolic call with " + std::to_string(args.size()) +
                " arguments, expects " + std::to_string(inputs_.size()));
  Vector from, to;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].size() != inputs_[i].size())
      throw Error("sym::Function '" + name_ + "': argument " + std::to_string(i) + " has " +
                  std::to_string(args[i].size()) + " elements, expects " + std::to_string(inputs_[i].size()));
    from.insert(from.end(), inputs_[i].begin(), inputs_[i].end());
    to.insert(to.end(), args[i].begin(), args[i].end());
  }
  std::vector<Vector> res;
  res.reserve(outputs_.size());
  for (const auto& o : outputs_) res.push_back(substitute(o, from, to));
  return res;
}

}  // namespace stasis::sym
