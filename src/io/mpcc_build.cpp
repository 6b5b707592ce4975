// kind: mpcc files -> mpcc::Problem, and their result.json.
#include "stasis/io/mpcc_build.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "stasis/error.hpp"
#include "stasis/nlp/ipopt_solver.hpp"

namespace stasis::io {

mpcc::Problem build_mpcc(const MpccFile& file) {
  mpcc::Problem p;
  mpcc::BlockModel m;
  m.name = file.name.empty() ? "problem" : file.name;
  std::vector<mpcc::Index> indices;
  for (const MpccVariable& v : file.variables) {
    indices.push_back(p.add_variable(v.name, v.lower, v.upper, v.start));
    m.variables.push_back(v.symbol);
  }
  m.objective = file.objective;
  std::vector<double> lower, upper;
  for (const MpccConstraint& c : file.constraints) {
    m.constraints.push_back(c.expr);
    m.constraint_names.push_back("'" + c.text + "' (" + to_string(c.where) + ")");
    lower.push_back(c.lower);
    upper.push_back(c.upper);
  }
  for (const MpccPair& pr : file.complementarity) {
    m.G.push_back(pr.G);
    m.H.push_back(pr.H);
    m.pair_names.push_back("'" + pr.text + "' (" + to_string(pr.where) + ")");
  }
  // The objective is named by the kind in messages: make it quote the file.
  m.name = "objective '" + file.objective_text + "' (" + to_string(file.objective_where) + ")";
  p.add_block(p.add_block_kind(m), indices, {}, lower, upper, m.name);
  return p;
}

namespace {
nlohmann::json number(double v) {
  if (std::isfinite(v)) return v;
  return nullptr;  // JSON has no NaN/Inf
}
}  // namespace

std::string mpcc_result_json(const MpccFile& file, const mpcc::Result& r) {
  using nlohmann::json;
  json j;
  bool failed = r.steps.empty() || (!nlp::is_success(r.last_status) && r.last_status != nlp::Status::MaxIterations &&
                                    r.last_status != nlp::Status::MaxTime && !r.converged);
  j["status"] = r.converged ? "converged" : (failed ? "failed" : "not_converged");
  j["message"] = r.message;
  j["objective"] = number(r.objective);
  j["complementarity_residual"] = number(r.residual);
  json vars = json::object();
  for (std::size_t i = 0; i < file.variables.size() && i < r.w.size(); ++i) vars[file.variables[i].name] = number(r.w[i]);
  j["variables"] = vars;
  json steps = json::array();
  for (const auto& s : r.steps)
    steps.push_back({{"sigma", number(s.sigma)},
                     {"residual", number(s.residual)},
                     {"objective", number(s.objective)},
                     {"iterations", s.iterations},
                     {"status", nlp::to_string(s.status)},
                     {"wall_time_s", s.wall_time_s}});
  j["solver"] = {{"nlp_iterations", r.nlp_iterations},
                 {"nlp_solves", r.nlp_solves},
                 {"wall_time_s", r.wall_time_s},
                 {"evaluation_time_s", r.evaluation_time_s},
                 {"initial_residual", number(r.initial_residual)},
                 {"homotopy", steps}};
  return j.dump(2) + "\n";
}

void write_text_file(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) throw Error("cannot create directory '" + p.parent_path().string() + "': " + ec.message());
  std::ofstream out(path);
  if (!out) throw Error("cannot write '" + path + "'");
  out << text;
  if (!out) throw Error("error while writing '" + path + "'");
}

}  // namespace stasis::io
