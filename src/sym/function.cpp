// Compilation of expression graphs into a register-machine instruction list, and its evaluation.
//
// Registers are recycled by liveness, so the work array stays small (it fits in L1 for the
// element-sized functions stasis builds); constants that appear as an operand of + - * / are
// folded into the instruction as an immediate instead of occupying a register.
#include "stasis/sym/function.hpp"

#include <cmath>
#include <limits>
#include <unordered_map>

#include "node.hpp"
#include "stasis/error.hpp"

namespace stasis::sym {

namespace {

// Opcodes: the elementary operations of Op (same numbering for the shared ones) plus loads and
// constant-operand forms.
enum Code : std::uint8_t {
  kLoadInput = 200,
  kLoadConst,
  kAddC,   // a + imm
  kMulC,   // a * imm
  kRSubC,  // imm - a
  kDivC,   // a / imm
  kRDivC,  // imm / a
};

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

bool const_operand_form(Op op, int position, Code& code) {
  switch (op) {
    case Op::Add: code = kAddC; return true;
    case Op::Mul: code = kMulC; return true;
    case Op::Sub: code = position == 1 ? kAddC : kRSubC; return true;  // a - c = a + (-c)
    case Op::Div: code = position == 1 ? kDivC : kRDivC; return true;
    default: return false;
  }
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
  std::vector<const Node*> order = detail::topological_order(roots);
  std::unordered_map<const Node*, std::size_t> position;
  position.reserve(order.size());
  for (std::size_t p = 0; p < order.size(); ++p) position.emplace(order[p], p);

  // Which nodes need a register, and the last instruction that reads it.
  const std::size_t kForever = order.size();
  std::vector<std::size_t> last_use(order.size(), 0);
  std::vector<bool> needs_register(order.size(), false);
  std::vector<std::uint8_t> folded(order.size(), 0);  // bit i: argument i is an immediate constant
  for (std::size_t p = 0; p < order.size(); ++p) {
    const Node* n = order[p];
    if (n->op == Op::Symbol && !input_of.count(n))
      throw Error("sym::Function '" + name_ + "': an output depends on symbol '" + *n->name +
                  "', which is not among the inputs");
    if (n->op != Op::Constant) needs_register[p] = true;
    for (int i = 0; i < n->nargs; ++i) {
      std::size_t q = position.at(n->args[i]);
      Code c = kAddC;
      bool other_is_register = n->nargs == 2 && n->args[1 - i]->op != Op::Constant;
      if (order[q]->op == Op::Constant && other_is_register && const_operand_form(n->op, i, c)) {
        folded[p] |= static_cast<std::uint8_t>(1u << i);
        continue;
      }
      needs_register[q] = true;
      last_use[q] = std::max(last_use[q], p);
    }
  }
  for (const auto& o : outputs_)
    for (const auto& e : o) {
      std::size_t q = position.at(e.node());
      if (order[q]->op != Op::Constant) last_use[q] = kForever;
    }

  // Linear-scan register allocation in topological order.
  std::vector<std::uint32_t> reg(order.size(), kNone);
  std::vector<std::uint32_t> free_list;
  std::uint32_t n_registers = 0;
  auto release_if_dead = [&](std::size_t q, std::size_t p) {
    if (reg[q] != kNone && last_use[q] == p) free_list.push_back(reg[q]);
  };
  for (std::size_t p = 0; p < order.size(); ++p) {
    if (!needs_register[p]) continue;
    const Node* n = order[p];
    Instruction ins{};
    ins.a = ins.b = ins.c = kNone;
    if (n->op == Op::Symbol) {
      auto [i, j] = input_of.at(n);
      ins.code = kLoadInput;
      ins.a = i;
      ins.b = j;
    } else if (n->op == Op::Constant) {
      ins.code = kLoadConst;
      ins.imm = n->value;
    } else {
      ins.code = static_cast<std::uint8_t>(n->op);
      ins.imm = n->value;  // PowConst exponent
      std::uint32_t* slots[3] = {&ins.a, &ins.b, &ins.c};
      for (int i = 0; i < n->nargs; ++i) {
        std::size_t q = position.at(n->args[i]);
        if (folded[p] & (1u << i)) {  // constant operand folded into the instruction
          Code c = kAddC;
          const_operand_form(n->op, i, c);
          ins.code = c;
          ins.imm = (n->op == Op::Sub && i == 1) ? -order[q]->value : order[q]->value;
        } else {
          *slots[i] = reg[q];
        }
      }
      if (ins.code == kAddC || ins.code == kMulC || ins.code == kRSubC || ins.code == kDivC || ins.code == kRDivC) {
        // the register operand goes to slot a whichever side it came from
        if (ins.a == kNone) ins.a = ins.b;
        ins.b = kNone;
      }
      for (int i = 0; i < n->nargs; ++i) {
        std::size_t q = position.at(n->args[i]);
        bool seen_before = false;
        for (int k = 0; k < i; ++k) seen_before = seen_before || n->args[k] == n->args[i];
        if (!seen_before && !(folded[p] & (1u << i))) release_if_dead(q, p);
      }
    }
    if (!free_list.empty()) {
      reg[p] = free_list.back();
      free_list.pop_back();
    } else {
      reg[p] = n_registers++;
    }
    ins.dst = reg[p];
    code_.push_back(ins);
  }
  work_size_ = n_registers;

  for (std::size_t i = 0; i < outputs_.size(); ++i)
    for (std::size_t j = 0; j < outputs_[i].size(); ++j) {
      const Node* n = outputs_[i][j].node();
      std::size_t q = position.at(n);
      Store s{};
      s.output = static_cast<std::uint32_t>(i);
      s.element = static_cast<std::uint32_t>(j);
      if (n->op == Op::Constant) {
        s.is_constant = true;
        s.value = n->value;
      } else {
        s.src = reg[q];
      }
      stores_.push_back(s);
    }
}

void Function::eval(const double* const* in, double* const* out, double* w) const {
  for (const Instruction& ins : code_) {
    double r;
    switch (ins.code) {
      case kLoadInput: r = in[ins.a][ins.b]; break;
      case kLoadConst: r = ins.imm; break;
      case kAddC: r = w[ins.a] + ins.imm; break;
      case kMulC: r = w[ins.a] * ins.imm; break;
      case kRSubC: r = ins.imm - w[ins.a]; break;
      case kDivC: r = w[ins.a] / ins.imm; break;
      case kRDivC: r = ins.imm / w[ins.a]; break;
      case static_cast<std::uint8_t>(Op::Add): r = w[ins.a] + w[ins.b]; break;
      case static_cast<std::uint8_t>(Op::Sub): r = w[ins.a] - w[ins.b]; break;
      case static_cast<std::uint8_t>(Op::Mul): r = w[ins.a] * w[ins.b]; break;
      case static_cast<std::uint8_t>(Op::Div): r = w[ins.a] / w[ins.b]; break;
      case static_cast<std::uint8_t>(Op::Neg): r = -w[ins.a]; break;
      case static_cast<std::uint8_t>(Op::Sq): r = w[ins.a] * w[ins.a]; break;
      case static_cast<std::uint8_t>(Op::Sqrt): r = std::sqrt(w[ins.a]); break;
      case static_cast<std::uint8_t>(Op::Exp): r = std::exp(w[ins.a]); break;
      case static_cast<std::uint8_t>(Op::Log): r = std::log(w[ins.a]); break;
      case static_cast<std::uint8_t>(Op::Sin): r = std::sin(w[ins.a]); break;
      case static_cast<std::uint8_t>(Op::Cos): r = std::cos(w[ins.a]); break;
      case static_cast<std::uint8_t>(Op::IfElse): r = w[ins.a] != 0.0 ? w[ins.b] : w[ins.c]; break;
      default: {
        Op op = static_cast<Op>(ins.code);
        double a = ins.a != kNone ? w[ins.a] : 0.0;
        double b = ins.b != kNone ? w[ins.b] : 0.0;
        r = apply(op, a, b, 0.0, ins.imm);
      }
    }
    w[ins.dst] = r;
  }
  for (const Store& s : stores_) {
    double* o = out[s.output];
    if (o) o[s.element] = s.is_constant ? s.value : w[s.src];
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
