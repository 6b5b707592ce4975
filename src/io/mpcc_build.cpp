// kind: mpcc files -> mpcc::Problem; writing text files.
#include "stasis/io/mpcc_build.hpp"

#include <filesystem>
#include <fstream>

#include "stasis/error.hpp"

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

void write_text_file(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) throw Error("cannot create directory '" + p.parent_path().string() + "': " + ec.message());
  // Written beside and renamed over the target, so that a reader (or a run stopped while writing
  // a checkpoint) never sees half a file.
  const std::string part = path + ".part";
  {
    std::ofstream out(part);
    if (!out) throw Error("cannot write '" + part + "'");
    out << text;
    out.close();
    if (!out) throw Error("error while writing '" + part + "'");
  }
  fs::rename(part, path, ec);
  if (ec) throw Error("cannot rename '" + part + "' to '" + path + "': " + ec.message());
}

}  // namespace stasis::io
