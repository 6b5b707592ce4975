#pragma once
// Pieces shared by the NLPs the mpcc layer builds from an mpcc::Problem (the relaxed NLP of the
// homotopy and the branch NLP of polishing); internal to the layer.
#include "stasis/mpcc/problem.hpp"
#include "stasis/nlp/problem.hpp"

namespace stasis::mpcc::detail {

/// Index of e among variables if e is one of those symbols, else -1.
int local_index_of(const sym::Vector& variables, const sym::Expr& e);

/// Adds the MPCC's variables (bounds, starts) and parameters to nlp, in the same order, so that
/// the NLP's first n_variables() / n_parameters() are the MPCC's.
void add_variables_and_parameters(const Problem& problem, nlp::Problem& nlp);

/// An NLP block kind with m's variables, parameters and constraint rows (rows without names get
/// "row i"); objective and further rows are the caller's.
nlp::BlockModel block_rows(const BlockModel& m, const std::string& name);

}  // namespace stasis::mpcc::detail
