#pragma once
// Result files of `simulate` and `solve` runs: result.json (PROBLEM_FORMAT.md) and trajectory CSV.
#include <string>

#include "stasis/io/model_file.hpp"
#include "stasis/ocp/solver.hpp"
#include "stasis/sim/integrator.hpp"

namespace stasis::io {

std::string simulation_result_json(const SimulateFile& file, const sim::Result& result);
std::string ocp_result_json(const OcpFile& file, const ocp::Result& result);
/// time and every state, one row per finite-element boundary.
std::string trajectory_csv(const model::Pss& model, const std::vector<double>& time,
                           const std::vector<std::vector<double>>& states);
/// time, kind, switching functions, regions before and after.
std::string events_csv(const std::vector<sim::Event>& events);

}  // namespace stasis::io
