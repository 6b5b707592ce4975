// The documentation stays true to the code: docs/options.md is exactly what `stasis options
// --markdown` prints (so a new or changed option fails here until the page is regenerated), the
// guides mention every option (and docs/guide-cls.md, guide-jump.md every key of their models and
// of time_freezing:), relative links and example paths in README.md and docs/*.md exist, and the
// C++ programs shown in the docs compile and run against the library. The problem files and
// command lines shown in the docs are run by test_docs_examples.cpp.
#include <gtest/gtest.h>

#include "cli_support.hpp"

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "stasis/discretize/fesd.hpp"
#include "stasis/mpcc/options.hpp"
#include "stasis/ocp/solver.hpp"

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

// README.md and every docs/*.md, as paths relative to the source directory.
std::vector<std::string> doc_files() {
  std::vector<std::string> files{"README.md"};
  for (const auto& e : fs::directory_iterator(source("docs")))
    if (e.path().extension() == ".md") files.push_back("docs/" + e.path().filename().string());
  return files;
}

const char* kRegenerate =
    "docs/options.md is generated from the option tables (mpcc::option_table(), "
    "discretize::option_table()). Regenerate it from the source directory with\n"
    "    build/bin/stasis options --markdown > docs/options.md\n"
    "and, for a new option, explain it in the guide of its section (docs/guide-mpcc.md, "
    "docs/guide-pss.md or docs/guide-ocp.md).";

}  // namespace

TEST(Docs, OptionsPageIsGeneratedFromTheOptionTables) {
  CliRun r = shell(std::string(STASIS_CLI) + " options --markdown");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string page = read_file(source("docs/options.md"));
  ASSERT_FALSE(page.empty()) << "docs/options.md is missing or empty.\n" << kRegenerate;
  if (page == r.output) return;
  const std::vector<std::string> want = lines_of(r.output), have = lines_of(page);
  std::size_t i = 0;
  while (i < want.size() && i < have.size() && want[i] == have[i]) ++i;
  ADD_FAILURE() << "docs/options.md differs from `stasis options --markdown` at line " << i + 1 << ":\n"
                << "  generated: " << (i < want.size() ? want[i] : "<end of output>") << "\n"
                << "  the page:  " << (i < have.size() ? have[i] : "<end of file>") << "\n"
                << kRegenerate;
}

TEST(Docs, OptionsCommandListsEveryOptionWithItsDefault) {
  CliRun r = shell(std::string(STASIS_CLI) + " options");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const auto& o : stasis::mpcc::option_table()) {
    EXPECT_NE(r.output.find("  " + o.name + " "), std::string::npos) << o.name;
    EXPECT_NE(r.output.find(o.description.substr(0, 20)), std::string::npos) << o.name;
  }
  for (const auto& o : stasis::discretize::option_table()) {
    EXPECT_NE(r.output.find("  " + o.name + " "), std::string::npos) << o.name;
    EXPECT_NE(r.output.find(o.description.substr(0, 20)), std::string::npos) << o.name;
  }
  for (const auto& o : stasis::ocp::initialization_option_table()) {
    EXPECT_NE(r.output.find("  " + o.name + " "), std::string::npos) << o.name;
    EXPECT_NE(r.output.find(o.description.substr(0, 20)), std::string::npos) << o.name;
  }
}

// Every option is explained (not only listed) in a guide or the problem-format reference.
TEST(Docs, GuidesMentionEveryOption) {
  std::string guides;
  for (const char* f : {"docs/guide-mpcc.md", "docs/guide-pss.md", "docs/guide-ocp.md", "docs/guide-cls.md",
                        "docs/guide-jump.md", "docs/problem-format.md"})
    guides += read_file(source(f));
  ASSERT_FALSE(guides.empty());
  auto mentioned = [&](const std::string& name) { return guides.find("`" + name) != std::string::npos; };
  for (const auto& o : stasis::mpcc::option_table())
    EXPECT_TRUE(mentioned(o.name == "ipopt.NAME" ? "ipopt" : o.name))
        << "homotopy option '" << o.name << "' is not mentioned (as `" << o.name
        << "`) in docs/guide-mpcc.md, guide-pss.md, guide-ocp.md or problem-format.md";
  for (const auto& o : stasis::discretize::option_table())
    EXPECT_TRUE(mentioned(o.name == "path_at" ? "at" : o.name))
        << "discretization option '" << o.name << "' is not mentioned (as `" << o.name
        << "`) in docs/guide-pss.md, guide-ocp.md or problem-format.md";
  for (const auto& o : stasis::ocp::initialization_option_table())
    EXPECT_TRUE(mentioned(o.name)) << "initialization option '" << o.name << "' is not mentioned (as `" << o.name
                                   << "`) in docs/guide-ocp.md";
}

// Every key of the cls and jump models and of the time_freezing section is explained in
// docs/guide-cls.md or docs/guide-jump.md. The keys are the reader's own: an unknown key added with
// -o makes it list the valid ones.
TEST(Docs, ClsAndJumpGuidesExplainEveryKey) {
  const std::string cls = read_file(source("docs/guide-cls.md")), jump = read_file(source("docs/guide-jump.md"));
  ASSERT_FALSE(cls.empty());
  ASSERT_FALSE(jump.empty());
  struct Section {
    const char* example;   // a file with that kind of model
    const char* override;  // adds an unknown key to the section
    const std::string* guide;
  };
  const std::string both = cls + jump;
  const Section sections[] = {
      {"push_block.yaml", "model.cls.bogus_key=1", &cls},
      {"push_block.yaml", "model.cls.energy.bogus_key=1", &cls},
      {"push_block.yaml", "model.cls.contacts.0.bogus_key=1", &cls},
      {"push_block.yaml", "time_freezing.bogus_key=1", &cls},
      {"push_block.yaml", "time_freezing.speed_of_time.bogus_key=1", &both},
      {"bouncing_ball.yaml", "model.jump.bogus_key=1", &jump},
      {"bouncing_ball.yaml", "model.jump.auxiliary.bogus_key=1", &jump},
  };
  for (const Section& sec : sections) {
    SCOPED_TRACE(sec.override);
    const CliRun r = shell(std::string(STASIS_CLI) + " check " + source("examples/time_freezing/") + sec.example +
                           " -o " + sec.override + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    const std::size_t at = r.output.find("valid keys: ");
    ASSERT_NE(at, std::string::npos) << r.output;
    std::istringstream keys(r.output.substr(at + 12));
    int n = 0;
    for (std::string key; std::getline(keys, key, ',');) {
      key.erase(0, key.find_first_not_of(" "));
      key.erase(key.find_last_not_of(" \n") + 1);
      ++n;
      EXPECT_NE(sec.guide->find("`" + key + "`"), std::string::npos)
          << "the key '" << key << "' is not explained (as `" << key << "`) in the guide";
    }
    EXPECT_GE(n, 2) << r.output;
  }
}

namespace {

// GitHub's anchor of a heading: lower case, spaces to '-', punctuation other than '-' and '_'
// dropped ("## Overrides with `-o`" -> "overrides-with--o").
std::string anchor_of(const std::string& heading) {
  std::string a;
  for (unsigned char c : heading) {
    if (c == ' ')
      a += '-';
    else if (std::isalnum(c) || c == '-' || c == '_' || c >= 0x80)
      a += static_cast<char>(std::tolower(c));
  }
  return a;
}

// The anchors of every heading of a markdown file (outside code blocks).
std::set<std::string> anchors_of(const std::string& path) {
  std::set<std::string> anchors;
  bool code = false;
  for (const std::string& line : lines_of(read_file(path))) {
    if (line.rfind("```", 0) == 0) code = !code;
    if (code || line.empty() || line[0] != '#') continue;
    const std::size_t text = line.find_first_not_of('#');
    if (text == std::string::npos || line[text] != ' ') continue;
    anchors.insert(anchor_of(line.substr(text + 1)));
  }
  return anchors;
}

}  // namespace

// Relative links [text](path#anchor) and example paths (examples/.../*.yaml) must exist.
TEST(Docs, LinksAndExamplePathsExist) {
  const std::regex link(R"(\]\(([^)\s]+)\))");
  const std::regex example(R"(examples/[A-Za-z0-9_/]+\.(yaml|cpp))");
  for (const std::string& file : doc_files()) {
    SCOPED_TRACE(file);
    const std::string text = read_file(source(file));
    const fs::path dir = fs::path(source(file)).parent_path();
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
      std::string target = (*it)[1].str();
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
      const std::size_t hash = target.find('#');
      const std::string anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
      const fs::path path = hash == 0 ? fs::path(source(file)) : dir / target.substr(0, hash);
      EXPECT_TRUE(fs::exists(path)) << "broken link to '" << target << "'";
      if (!anchor.empty() && fs::exists(path) && path.extension() == ".md") {
        EXPECT_TRUE(anchors_of(path.string()).count(anchor)) << "no heading for the anchor in '" << target << "'";
      }
    }
    for (std::sregex_iterator it(text.begin(), text.end(), example), end; it != end; ++it)
      EXPECT_TRUE(fs::exists(source((*it)[0].str()))) << "no such example: " << (*it)[0].str();
  }
}

// The C++ programs of the docs (a ```cpp block right after a line `<!-- compiled: NAME -->`)
// compile against the library and run. Skipped when no compiler or no static library is found.
TEST(Docs, CppProgramsInTheDocsCompileAndRun) {
  const fs::path lib = fs::path(STASIS_CLI).parent_path().parent_path() / "lib" / "libstasis.a";
  if (!fs::exists(lib)) GTEST_SKIP() << "no " << lib;
  if (shell("command -v c++ >/dev/null 2>&1 && pkg-config --exists ipopt && echo yes").output != "yes\n")
    GTEST_SKIP() << "no C++ compiler or no pkg-config entry for ipopt";
  const std::string marker = "<!-- compiled: ";
  int programs = 0;
  for (const std::string& file : doc_files()) {
    const std::vector<std::string> lines = lines_of(read_file(source(file)));
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind(marker, 0) != 0) continue;
      const std::string name = lines[i].substr(marker.size(), lines[i].find(" -->") - marker.size());
      SCOPED_TRACE(file + ": " + name);
      std::size_t j = i + 1;
      while (j < lines.size() && lines[j].rfind("```cpp", 0) != 0) ++j;
      ASSERT_LT(j, lines.size()) << "no ```cpp block after the marker";
      std::string code;
      for (++j; j < lines.size() && lines[j].rfind("```", 0) != 0; ++j) code += lines[j] + "\n";
      const fs::path dir = fs::temp_directory_path() / "stasis_test_docs";
      fs::create_directories(dir);
      const fs::path src = dir / name, exe = dir / fs::path(name).stem();
      std::ofstream(src) << code;
      const std::string compile = "c++ -std=c++20 -Wall -Wextra -Werror -I" + source("include") + " " + src.string() +
                                  " " + lib.string() + " $(pkg-config --libs ipopt) -lyaml-cpp -o " + exe.string() +
                                  " 2>&1";
      CliRun c = shell(compile);
      ASSERT_EQ(c.exit_code, 0) << compile << "\n" << c.output;
      // Run in the temporary directory (programs may write files there), where `examples` is the
      // source tree's examples directory, as when run from the repository root.
      std::error_code ec;
      // A link left by another source tree (a removed clone) would dangle: link afresh.
      fs::remove(dir / "examples", ec);
      fs::create_directory_symlink(source("examples"), dir / "examples", ec);
      CliRun r = shell("cd " + dir.string() + " && " + exe.string() + " 2>&1");
      EXPECT_EQ(r.exit_code, 0) << r.output;
      ++programs;
    }
  }
  EXPECT_GE(programs, 1) << "expected at least one `<!-- compiled: NAME -->` C++ program in the docs";
}
