#pragma once
// Helpers of the end-to-end CLI tests: run a command, read its output files.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace cli_test {

struct CliRun {
  int exit_code;
  std::string output;
};

/// Runs a shell command; captures stdout (stderr only if the command redirects it).
inline CliRun shell(const std::string& cmd) {
  CliRun r{0, ""};
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs the stasis CLI with `args`; stdout and stderr together.
inline CliRun run(const std::string& args) { return shell(std::string(STASIS_CLI) + " " + args + " 2>&1"); }

/// A fresh (removed) directory path under the system's temporary directory.
inline std::string temp_dir(const std::string& name) {
  auto p = std::filesystem::temp_directory_path() / ("stasis_test_" + name);
  std::filesystem::remove_all(p);
  return p.string();
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace cli_test
