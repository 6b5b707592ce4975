#pragma once
// sym::Function — a compiled program (runs of independent register-machine operations) evaluating
// several output vectors from several input vectors. Immutable after construction; evaluation
// needs a caller-owned work array of work_size() doubles, performs no heap allocation and is safe
// to call concurrently from several threads as long as each thread uses its own work array
// (Crocoddyl's model/data split).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "stasis/sym/expr.hpp"

namespace stasis::sym {

class Function {
 public:
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
  /// Number of operations of the compiled program (loads, arithmetic, elementary functions).
  std::size_t instruction_count() const { return instruction_count_; }
  /// Number of runs (groups of independent operations of one kind, dispatched together).
  std::size_t run_count() const { return runs_.size(); }

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
  // The program: runs of independent operations with the same opcode, executed in order; each run
  // reads its operands (register numbers, input coordinates or immediate indices, a fixed number
  // per opcode) from operands_ in sequence.
  struct Run {
    std::uint8_t code;
    std::uint32_t count;
  };
  std::vector<Run> runs_;
  std::vector<std::uint32_t> operands_;
  std::vector<double> immediates_;
  std::size_t instruction_count_ = 0;
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
