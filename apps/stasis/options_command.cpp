// `stasis options [--markdown]`: every option of the `homotopy:` / `options:` section
// (mpcc::option_table()) and of the `discretization:` section (discretize::option_table()) with its
// default and meaning. --markdown prints the docs page docs/options.md exactly; the test
// tests/cli/test_docs.cpp fails when that page differs from this output.
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "commands.hpp"
#include "stasis/discretize/fesd.hpp"
#include "stasis/mpcc/options.hpp"
#include "stasis/ocp/solver.hpp"

namespace stasis::cli {

namespace {

struct Row {
  std::string name, default_value, description;
};

std::vector<Row> homotopy_rows() {
  std::vector<Row> rows;
  for (const auto& o : mpcc::option_table()) rows.push_back({o.name, o.default_value, o.description});
  return rows;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The value of a homotopy option as text, for the options a preset may change.
const std::map<std::string, std::function<std::string(const mpcc::HomotopyOptions&)>>& homotopy_getters() {
  using O = mpcc::HomotopyOptions;
  static const std::map<std::string, std::function<std::string(const O&)>> getters = {
      {"relaxation", [](const O& o) { return std::string(mpcc::to_string(o.relaxation)); }},
      {"steering", [](const O& o) { return std::string(mpcc::to_string(o.steering)); }},
      {"sigma0", [](const O& o) { return number_text(o.sigma0); }},
      {"kappa", [](const O& o) { return number_text(o.kappa); }},
      {"update", [](const O& o) { return std::string(mpcc::to_string(o.update)); }},
      {"exponent", [](const O& o) { return number_text(o.exponent); }},
      {"complementarity_tol", [](const O& o) { return number_text(o.complementarity_tol); }},
      {"sigma_final", [](const O& o) { return number_text(o.sigma_final); }},
      {"max_steps", [](const O& o) { return std::to_string(o.max_steps); }},
      {"elastic_min", [](const O& o) { return number_text(o.elastic_min); }},
      {"elastic_max", [](const O& o) { return number_text(o.elastic_max); }},
      {"elastic_start", [](const O& o) { return number_text(o.elastic_start); }},
      {"objective_scaling_direct", [](const O& o) { return std::string(o.objective_scaling_direct ? "true" : "false"); }},
      {"warm_start_duals", [](const O& o) { return std::string(o.warm_start_duals ? "true" : "false"); }},
      {"linear_solver", [](const O& o) { return o.linear_solver; }},
      {"max_iter", [](const O& o) { return std::to_string(o.max_iter); }},
      {"tol", [](const O& o) { return number_text(o.tol); }},
      {"acceptable_tol", [](const O& o) { return number_text(o.acceptable_tol); }},
      {"timeout", [](const O& o) { return number_text(o.timeout_s); }},
      {"print_level", [](const O& o) { return std::to_string(o.print_level); }},
  };
  return getters;
}

// The options `preset: nosnoc` sets to another value than the defaults: "name: value, ...".
std::string nosnoc_differences() {
  mpcc::HomotopyOptions defaults, nosnoc;
  mpcc::apply_preset(nosnoc, "nosnoc");
  std::string out;
  for (const auto& o : mpcc::option_table()) {
    const auto it = homotopy_getters().find(o.name);
    if (it == homotopy_getters().end()) continue;
    const std::string v = it->second(nosnoc);
    if (v != it->second(defaults)) out += (out.empty() ? "" : ", ") + std::string("`") + o.name + ": " + v + "`";
  }
  return out;
}

std::vector<Row> initialization_rows() {
  std::vector<Row> rows;
  for (const auto& o : ocp::initialization_option_table()) rows.push_back({o.name, o.default_value, o.description});
  return rows;
}

std::vector<Row> discretization_rows() {
  std::vector<Row> rows;
  for (const auto& o : discretize::option_table()) rows.push_back({o.name, o.default_value, o.description});
  return rows;
}

// Remarks on options whose place in a problem file is not simply `section.name`.
std::string placement_note(const std::string& name) {
  if (name == "path_at") return "written as `at:` under `ocp.constraints` in problem files";
  if (name == "ipopt.NAME") return "also as a nested map `ipopt: {NAME: value}`";
  return "";
}

std::string plain_note(std::string note) {
  std::string out;
  for (char c : note)
    if (c != '`') out += c;
  return out;
}

std::string shown_default(const std::string& d) { return d == "-" ? "none" : d; }

// Number of characters of UTF-8 text (the descriptions use σ, ⟂, ...).
std::size_t width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// Wraps text at spaces to lines of at most `columns` characters, each prefixed by `indent`.
std::string wrap(const std::string& text, std::size_t columns, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && width(line) + 1 + width(word) > columns) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

// A markdown table cell: `|` would end the cell.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string plain_section(const std::string& title, const std::vector<Row>& rows) {
  std::string out = title + "\n\n";
  for (const Row& r : rows) {
    std::string head = "  " + r.name;
    head += std::string(head.size() < 30 ? 30 - head.size() : 1, ' ');
    out += head + "default: " + shown_default(r.default_value) + "\n";
    out += wrap(r.description, 90, "      ");
    const std::string note = placement_note(r.name);
    if (!note.empty()) out += wrap("(" + plain_note(note) + ")", 90, "      ");
  }
  return out;
}

std::string markdown_table(const std::vector<Row>& rows) {
  std::string out = "| option | default | meaning |\n|---|---|---|\n";
  for (const Row& r : rows) {
    std::string meaning = cell(r.description);
    const std::string note = placement_note(r.name);
    if (!note.empty()) meaning += " (" + cell(note) + ")";
    out += "| `" + r.name + "` | " + (r.default_value == "-" ? "none" : "`" + r.default_value + "`") + " | " +
           meaning + " |\n";
  }
  return out;
}

std::string options_text() {
  std::string out;
  out += plain_section(
      "Homotopy options: section 'homotopy:' of simulate and ocp files, 'options:' of mpcc files",
      homotopy_rows());
  out += "\n";
  out += plain_section("Discretization options: section 'discretization:' of simulate and ocp files",
                       discretization_rows());
  out += "\n";
  out += plain_section("Initialization options: section 'initialization:' of ocp files", initialization_rows());
  out +=
      "\nEvery option is optional. Override any of them on the command line, e.g.\n"
      "  -o homotopy.sigma0=0.5   -o options.kappa=0.05 (mpcc files)   -o discretization.stages=3\n"
      "The same list as a web page: docs/options.md (stasis options --markdown).\n";
  return out;
}

std::string options_markdown() {
  std::string out;
  out +=
      "# Options\n"
      "\n"
      "<!-- Generated by `stasis options --markdown` from mpcc::option_table(),\n"
      "     discretize::option_table() and ocp::initialization_option_table(); do not edit by\n"
      "     hand. Regenerate with\n"
      "     build/bin/stasis options --markdown > docs/options.md -->\n"
      "\n"
      "Every option of the option sections of a problem file, with its default and meaning.\n"
      "This page is generated from the option tables of the library, so it lists exactly what the\n"
      "reader accepts; `stasis options` prints the same list in the terminal.\n"
      "\n"
      "Every option is optional. Give it in the problem file or override it on the command line\n"
      "with `-o SECTION.NAME=VALUE`, for example `-o homotopy.sigma0=0.5`, `-o options.kappa=0.05`\n"
      "(mpcc files) or `-o discretization.stages=3`. An unknown name or an invalid value is an\n"
      "error that names the option, its line in the file and the allowed values.\n"
      "\n"
      "## Homotopy options\n"
      "\n"
      "Section `homotopy:` of `kind: simulate` and `kind: ocp` files, section `options:` of\n"
      "`kind: mpcc` files. How they act: [guide-mpcc.md](guide-mpcc.md).\n"
      "\n";
  out += markdown_table(homotopy_rows());
  out +=
      "\n"
      "`preset` is applied first, wherever it stands in the section; the other options given\n"
      "then refine it.\n"
      "\n"
      "## Discretization options\n"
      "\n"
      "Section `discretization:` of `kind: simulate` and `kind: ocp` files. How they act:\n"
      "[guide-pss.md](guide-pss.md) and [guide-ocp.md](guide-ocp.md).\n"
      "\n";
  out += markdown_table(discretization_rows());
  out +=
      "\n"
      "## Initialization options\n"
      "\n"
      "Section `initialization:` of `kind: ocp` files: where the homotopy starts. How they act:\n"
      "[guide-ocp.md](guide-ocp.md#initialization-a-smoothed-phase-1).\n"
      "\n";
  out += markdown_table(initialization_rows());
  out +=
      "\n"
      "The default values are nosnoc's (the current MATLAB version)" +
      (nosnoc_differences().empty()
           ? std::string(", and `preset: nosnoc` keeps them")
           : " except for the homotopy options that `preset: nosnoc` sets to nosnoc's values: " +
                 nosnoc_differences()) +
      ". `preset: nosnoc` also continues after a failed relaxed NLP as nosnoc does: see\n"
      "[guide-mpcc.md, Differences from nosnoc](guide-mpcc.md#differences-from-nosnoc).\n"
      "References such as \"fesd.md §3.3\" name sections of the implementation spec the code\n"
      "follows, which is kept with the project's design notes, not in this repository;\n"
      "[guide-pss.md](guide-pss.md) and [theory.md](theory.md) explain the same in their own words.\n";
  return out;
}

}  // namespace

int run_options(bool markdown) {
  const std::string text = markdown ? options_markdown() : options_text();
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace stasis::cli
