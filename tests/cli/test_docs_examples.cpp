// Every example in the docs is run (README.md and docs/*.md):
//
// - every problem file shown inline (a ```yaml block with a top-level `kind:` line) is written to a
//   temporary directory, as NAME.yaml after its `name:` key (the docs refer to `first.yaml`,
//   `tracking.yaml`, ...; without a name: DOC_LINE.yaml), and solved with the verb of its kind
//   (`stasis mpcc`, `simulate` or `solve`), which must succeed (exit code 0). A file that a
//   command line of the docs runs (below) is only checked here, since that test solves it;
// - every command line that runs the CLI (`build/bin/stasis VERB ...` in ```sh/```bash blocks, or
//   after a `$ ` prompt in plain blocks) is run in that directory, where `examples` is the source
//   tree's examples directory, as when run from the repository root. Its exit code must be 2 if
//   the output shown below it is an error (`stasis: ...`, which must then appear verbatim), 1 if
//   it shows `NOT converged`, else 0. The output shown for `stasis check` must be exactly what it
//   prints; for the other verbs the first progress line (`stasis solve FILE: sizes ...`), when
//   shown, must match and a shown `converged:` summary must be a `converged:` summary. Lines with
//   placeholders (`stasis mpcc FILE [--out DIR]`) are usage, not commands, and are left out.
//
// A comment `<!-- docs-test: check only (why) -->` on the line before a block runs `stasis check`
// (with the same file and -o overrides) instead of solving: for examples that take more than a few
// seconds, so that this test stays well under a minute; the reason is in the comment, and a
// `stasis check` still proves that the file and the overrides are valid. `<!-- docs-test: skip
// (why) -->` leaves a block out (templates with `{...}`). Each marker must give its reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace cli_test;
namespace fs = std::filesystem;

std::string source(const std::string& relative) { return std::string(STASIS_SOURCE_DIR) + "/" + relative; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string rtrim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// README.md and every docs/*.md, relative to the source directory, in a fixed order.
std::vector<std::string> doc_files() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(source("docs")))
    if (e.path().extension() == ".md") files.push_back("docs/" + e.path().filename().string());
  std::sort(files.begin(), files.end());
  files.insert(files.begin(), "README.md");
  return files;
}

// A fenced code block and the docs-test marker on the line before it (if any).
struct Block {
  std::string file;
  int line = 0;      // of the opening fence, 1-based
  std::string lang;  // "yaml", "sh", "" ...
  std::vector<std::string> lines;
  std::string marker;  // "check only (...)", "skip (...)" or ""
  std::string where() const { return file + ":" + std::to_string(line); }
  bool check_only() const { return starts_with(marker, "check only"); }
  bool skip() const { return starts_with(marker, "skip"); }
};

std::vector<Block> blocks_of(const std::string& file) {
  std::vector<Block> blocks;
  const std::vector<std::string> lines = lines_of(read_file(source(file)));
  const std::string marker = "<!-- docs-test: ";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!starts_with(lines[i], "```")) continue;
    Block b;
    b.file = file;
    b.line = static_cast<int>(i) + 1;
    b.lang = rtrim(lines[i].substr(3));
    if (i > 0 && starts_with(lines[i - 1], marker)) {
      const std::string& m = lines[i - 1];
      b.marker = m.substr(marker.size(), m.find(" -->") - marker.size());
    }
    for (++i; i < lines.size() && !starts_with(lines[i], "```"); ++i) b.lines.push_back(lines[i]);
    blocks.push_back(std::move(b));
  }
  return blocks;
}

std::vector<Block> all_blocks() {
  std::vector<Block> all;
  for (const auto& f : doc_files())
    for (auto& b : blocks_of(f)) all.push_back(std::move(b));
  return all;
}

// ---- inline problem files ----

struct InlineProblem {
  Block block;
  std::string kind;  // mpcc, simulate, ocp
  std::string file;  // NAME.yaml
  std::string text;
};

std::vector<InlineProblem> inline_problems() {
  std::vector<InlineProblem> problems;
  const std::regex kind_re(R"(^kind:\s*([a-z]+)\s*$)"), name_re(R"(^name:\s*([A-Za-z0-9_]+)\s*$)");
  for (const Block& b : all_blocks()) {
    if (b.lang != "yaml") continue;
    InlineProblem p;
    p.block = b;
    std::string name;
    for (const auto& l : b.lines) {
      std::smatch m;
      if (std::regex_match(l, m, kind_re)) p.kind = m[1];
      if (std::regex_match(l, m, name_re)) name = m[1];
      p.text += l + "\n";
    }
    if (p.kind.empty()) continue;  // a fragment (a model, a section), not a problem file
    if (name.empty()) name = fs::path(b.file).stem().string() + "_" + std::to_string(b.line);
    p.file = name + ".yaml";
    problems.push_back(std::move(p));
  }
  return problems;
}

// A fresh directory for this process with `examples` linking to the source tree's, holding every
// inline problem file.
std::string work_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("stasis_test_docs_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::error_code ec;
  fs::create_directory_symlink(source("examples"), dir / "examples", ec);
  std::map<std::string, std::string> written;
  for (const InlineProblem& p : inline_problems()) {
    if (p.block.skip()) continue;
    const auto it = written.find(p.file);
    if (it != written.end() && it->second != p.text)
      ADD_FAILURE() << p.block.where() << ": a different problem named " << p.file
                    << " is shown elsewhere in the docs; give one of them another name:";
    written[p.file] = p.text;
    std::ofstream(dir / p.file, std::ios::binary) << p.text;
  }
  return dir.string();
}

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

CliRun run_in(const std::string& dir, const std::vector<std::string>& args) {
  std::string cmd = "cd " + quoted(dir) + " && " + quoted(STASIS_CLI);
  for (const auto& a : args) cmd += " " + quoted(a);
  return shell(cmd + " 2>&1");
}

// ---- command lines ----

// Splits a command line like a shell (single and double quotes; `#` starts a comment).
std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  char quote = 0;
  for (char c : line) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        w += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(w);
      w.clear();
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;
    } else {
      w += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(w);
  return words;
}

struct Command {
  Block block;
  std::string text;                   // as shown
  std::vector<std::string> args;      // after `stasis`
  std::vector<std::string> expected;  // the output shown below it (plain blocks)
};

const std::set<std::string> kVerbs = {"mpcc", "simulate", "solve", "check", "report", "options"};

std::vector<Command> commands() {
  std::vector<Command> out;
  for (const Block& b : all_blocks()) {
    if (b.skip()) continue;
    const bool shell_block = b.lang == "sh" || b.lang == "bash";
    if (!shell_block && !b.lang.empty() && b.lang != "console") continue;
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
      std::string line = b.lines[i];
      const bool prompt = starts_with(line, "$ ");
      if (prompt)
        line = line.substr(2);
      else if (!shell_block)
        continue;  // output, not a command
      // A trailing backslash continues the command on the next line.
      while (!line.empty() && line.back() == '\\' && i + 1 < b.lines.size()) {
        line.pop_back();
        line += " " + b.lines[++i];
      }
      const std::vector<std::string> words = split_words(line);
      if (words.size() < 2 || (words[0] != "build/bin/stasis" && words[0] != "stasis") || !kVerbs.count(words[1]))
        continue;
      // Usage lines: placeholders (FILE, DIR) and optional parts ([--out DIR]).
      bool placeholder = false;
      for (const auto& w : words)
        placeholder = placeholder || w.find('[') == 0 ||
                      (w.size() > 1 && std::all_of(w.begin(), w.end(), [](char c) { return std::isupper(c); }));
      if (placeholder) continue;
      Command c{b, line, std::vector<std::string>(words.begin() + 1, words.end()), {}};
      if (prompt)
        for (std::size_t j = i + 1; j < b.lines.size() && !starts_with(b.lines[j], "$ "); ++j)
          c.expected.push_back(rtrim(b.lines[j]));
      out.push_back(std::move(c));
    }
  }
  return out;
}

// `stasis check FILE -o ...` for a command: the file and the overrides, nothing else.
std::vector<std::string> as_check(const std::vector<std::string>& args) {
  std::vector<std::string> check{"check"};
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-o" || a == "--option") {
      check.push_back(a);
      if (i + 1 < args.size()) check.push_back(args[++i]);
    } else if (a == "--out") {
      ++i;
    } else if (a == "-q" || a == "--quiet" || a == "-v" || a == "--verbose") {
    } else {
      check.push_back(a);
    }
  }
  return check;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

}  // namespace

// The markers are well formed and give their reasons; the docs have examples to run at all.
TEST(DocsExamples, MarkersGiveReasons) {
  int markers = 0;
  for (const Block& b : all_blocks()) {
    if (b.marker.empty()) continue;
    ++markers;
    EXPECT_TRUE(b.check_only() || b.skip()) << b.where() << ": unknown docs-test marker '" << b.marker
                                            << "', expected 'check only (why)' or 'skip (why)'";
    EXPECT_NE(b.marker.find('('), std::string::npos) << b.where() << ": the marker gives no reason: " << b.marker;
  }
  EXPECT_GE(markers, 1);
  EXPECT_GE(inline_problems().size(), 8u);
  EXPECT_GE(commands().size(), 15u);
}

// Every problem file shown inline runs (or, when a command line of the docs runs it or it is
// marked, passes `stasis check`).
TEST(DocsExamples, InlineProblemFilesRun) {
  const std::string dir = work_dir("inline");
  std::set<std::string> run_by_commands;
  for (const Command& c : commands())
    for (const auto& a : c.args)
      if (a.size() > 5 && a.compare(a.size() - 5, 5, ".yaml") == 0 && !starts_with(a, "examples/"))
        run_by_commands.insert(a);
  int solved = 0;
  for (const InlineProblem& p : inline_problems()) {
    SCOPED_TRACE(p.block.where() + " (" + p.file + ")");
    if (p.block.skip()) continue;
    const bool check = p.block.check_only() || run_by_commands.count(p.file);
    const std::string verb = check ? "check" : p.kind == "ocp" ? "solve" : p.kind;
    std::vector<std::string> args{verb, p.file};
    if (!check) args.insert(args.end(), {"-q", "--out", "out/inline_" + fs::path(p.file).stem().string()});
    const CliRun r = run_in(dir, args);
    EXPECT_EQ(r.exit_code, 0) << "stasis " << joined(args) << "\n" << r.output;
    if (!check) ++solved;
  }
  EXPECT_GE(solved, 5);
}

// Every command line shown runs as the docs say.
TEST(DocsExamples, CommandLinesRun) {
  const std::string dir = work_dir("commands");
  std::map<std::string, CliRun> done;  // the same command shown twice runs once
  int run = 0;
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.block.where() + ": " + c.text);
    const std::vector<std::string> args = c.block.check_only() ? as_check(c.args) : c.args;
    const std::string key = joined(args);
    if (!done.count(key)) {
      done[key] = run_in(dir, args);
      ++run;
    }
    const CliRun& r = done[key];
    if (c.block.check_only()) {
      EXPECT_EQ(r.exit_code, 0) << "stasis " << key << "\n" << r.output;
      continue;
    }
    std::string error;
    bool not_converged = false, converged = false;
    for (const auto& l : c.expected) {
      if (starts_with(l, "stasis: ") && error.empty()) error = l;
      not_converged = not_converged || starts_with(l, "NOT converged");
      converged = converged || starts_with(l, "converged:");
    }
    const int expected_code = !error.empty() ? 2 : not_converged ? 1 : 0;
    EXPECT_EQ(r.exit_code, expected_code) << "stasis " << key << "\n" << r.output;
    const std::vector<std::string> actual = [&] {
      std::vector<std::string> v;
      for (const auto& l : lines_of(r.output)) v.push_back(rtrim(l));
      return v;
    }();
    if (!error.empty()) {
      EXPECT_NE(std::find(actual.begin(), actual.end(), error), actual.end())
          << "the docs show the error\n  " << error << "\nbut stasis prints\n"
          << r.output;
    }
    if (converged) {
      bool found = false;
      for (const auto& l : actual) found = found || starts_with(l, "converged:");
      EXPECT_TRUE(found) << "the docs show a converged run, stasis prints\n" << r.output;
    }
    if (c.args[0] == "check" && !c.expected.empty() && error.empty()) {
      EXPECT_EQ(actual, c.expected) << "the output of stasis check differs from the docs";
    }
    if (!c.expected.empty() && starts_with(c.expected[0], "stasis " + c.args[0] + " ")) {
      ASSERT_FALSE(actual.empty());
      EXPECT_EQ(actual[0], c.expected[0]) << "the first progress line differs from the docs";
    }
  }
  EXPECT_GE(run, 10);
}
