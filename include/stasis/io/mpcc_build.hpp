#pragma once
// From a parsed `kind: mpcc` file to an mpcc::Problem; writing text files.
#include <string>

#include "stasis/io/problem_file.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/mpcc/problem.hpp"

namespace stasis::io {

/// One block holding the objective, every constraint and every pair of the file; constraint and
/// pair names are the expressions as written, so solver messages quote the user's text.
mpcc::Problem build_mpcc(const MpccFile& file);

/// Writes text to path (through path + ".part", renamed over it, so the file is never seen half
/// written), creating parent directories; throws stasis::Error with the path on failure.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace stasis::io
