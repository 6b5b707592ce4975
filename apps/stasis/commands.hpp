#pragma once
#include <string>
#include <vector>

namespace stasis::cli {

struct CommonOptions {
  std::string file;
  std::vector<std::string> overrides;
  std::string out_dir;
  std::string start_file;  ///< solve --start: an earlier run's start.json
  bool quiet = false;
  bool verbose = false;
};

int run_mpcc(const CommonOptions& options);
int run_check(const CommonOptions& options);
int run_simulate(const CommonOptions& options);
int run_solve(const CommonOptions& options);
/// `stasis report DIR`: (re)writes DIR/report.html from DIR/result.json.
int run_report(const std::string& dir);
/// `stasis options`: every homotopy and discretization option (plain text, or docs/options.md).
int run_options(bool markdown);

}  // namespace stasis::cli
