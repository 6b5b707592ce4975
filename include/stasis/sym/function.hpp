#pragma once
// sym::Function — a compiled instruction list evaluating several output vectors from several
// input vectors. Immutable after construction; evaluation needs a caller-owned work array of
// work_size() doubles, performs no heap allocation and is safe to call concurrently from several
// threads as long as each thread uses its own work array (Crocoddyl's model/data split).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"

namespace stasis::sym {

class Function {
 public:
  /// One step of the compiled program (opcodes are internal to the implementation).
  struct Instruction {
    std::uint8_t code;
    std::uint32_t dst;
    std::uint32_t a, b, c;
    double imm;  // constant operand or exponent
  };

  Function() = default;
  /// inputs: vectors of distinct symbols; outputs: expressions of those symbols only.
  /// Throws stasis::Error if an output depends on a symbol that is not an input.
  Function(std::string name, std::vector<Vector> inputs, std::vector<Vector> outputs);

  const std::string& name() const { return name_; }
  std::size_t n_in() const { return inputs_.size(); }
  std::size_t n_out() const { return outputs_.size(); }
  std::size_t size_in(std::size_t i) const { return inputs_[i].size(); }
  std::size_t size_out(std::size_t i) const { return outputs_[i].size(); }
  /// Doubles of scratch memory one evaluation needs.
  std::size_t work_size() const { return work_size_; }
  std::size_t instruction_count() const { return code_.size(); }

  /// in[i] points to size_in(i) doubles (may be null if size_in(i) == 0); out[j] to size_out(j)
  /// doubles, or null to skip that output. work: work_size() doubles. No allocation.
  void eval(const double* const* in, double* const* out, double* work) const;

  /// Convenience evaluation (allocates; for tests and one-off use).
  std::vector<std::vector<double>> operator()(const std::vector<std::vector<double>>& in) const;

  /// Symbolic call: the outputs with the inputs replaced by `args` (substitution).
  std::vector<Vector> call(const std::vector<Vector>& args) const;

  const std::vector<Vector>& symbolic_inputs() const { return inputs_; }
  const std::vector<Vector>& symbolic_outputs() const { return outputs_; }

 private:
  std::string name_;
  std::vector<Vector> inputs_, outputs_;
  std::vector<Instruction> code_;
  // output (vector, element) <- register or constant
  struct Store {
    std::uint32_t output, element, src;
    bool is_constant;
    double value;
  };
  std::vector<Store> stores_;
  std::size_t work_size_ = 0;
};

}  // namespace stasis::sym
