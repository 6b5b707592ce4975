// Pieces shared by the relaxed and the branch NLP of an MPCC.
#include "nlp_blocks.hpp"

namespace stasis::mpcc::detail {

int local_index_of(const sym::Vector& variables, const sym::Expr& e) {
  if (!e.is_symbol()) return -1;
  for (std::size_t i = 0; i < variables.size(); ++i)
    if (sym::is_same(variables[i], e)) return static_cast<int>(i);
  return -1;
}

void add_variables_and_parameters(const Problem& problem, nlp::Problem& nlp) {
  for (std::size_t i = 0; i < problem.n_variables(); ++i)
    nlp.add_variable(problem.variable_names[i], problem.lower()[i], problem.upper()[i], problem.start()[i]);
  for (std::size_t i = 0; i < problem.n_parameters(); ++i)
    nlp.add_parameter(problem.parameter_names[i], problem.parameter_values()[i]);
}

nlp::BlockModel block_rows(const BlockModel& m, const std::string& name) {
  nlp::BlockModel r;
  r.name = name;
  r.variables = m.variables;
  r.parameters = m.parameters;
  r.constraints = m.constraints;
  r.constraint_names = m.constraint_names;
  if (r.constraint_names.empty())
    for (std::size_t i = 0; i < m.constraints.size(); ++i) r.constraint_names.push_back("row " + std::to_string(i));
  return r;
}

}  // namespace stasis::mpcc::detail
