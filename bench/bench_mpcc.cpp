// bench_mpcc — the homotopy solver on every examples/mpcc/*.yaml (small MPCCs from the literature
// with derived solutions), under several homotopy settings in the same run: each file is read with
// io::read_mpcc_file, built with io::build_mpcc and solved with mpcc::Homotopy.
//
// Settings (rows; each starts from the file's own `options:`):
//   default       the file's options (preset default): IPOPT's cold start of the duals, one warm
//                 retry of a failed step, restart from the last good iterate after a failure
//   nosnoc        mpcc::apply_preset(o, "nosnoc"), then the file's complementarity_tol and
//                 sigma_final again (zero initial multipliers with warm_start_init_point, continue
//                 from a failed iterate; fesd.md §5.4–5.5). The preset also resets relaxation,
//                 σ0, κ, ... to nosnoc's values, which every example states explicitly anyway.
//   def+superlin  default, update = SigmaUpdate::Superlinear: σ ← max(σ_N, min(κσ, σ^1.5))
//   def+warm      default, warm_start_duals = true
//   def+sup+warm  both; nos+superlin, nos+warm, nos+sup+warm: the same on top of the nosnoc preset
//
// Every solve is repeated in interleaved rounds (as many as fit in ~30 s, at most 30) re-using the
// built Homotopy; the best wall time is reported, iteration counts come from the first round.
// Accuracy: the objective against the known optimum f* (from the files' derivations) and the
// complementarity residual; "ok?" = converged and |f − f*| <= |f_nosnoc − f*| + 1e-6 (1 + |f*|), i.e.
// at least as accurate as the nosnoc preset (|f − f_nosnoc| <= 1e-6 (1 + |f_nosnoc|) if f* is unknown).
// The totals also give the cost per relaxed NLP and per IPOPT iteration and the evaluation share of
// the first round (mpcc::Result::evaluation_time_s / wall_time_s). Nothing here asserts on time.
//
// `bench_mpcc --quick`: one round.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "stasis/io/mpcc_build.hpp"
#include "stasis/io/problem_file.hpp"
#include "stasis/mpcc/homotopy.hpp"
#include "stasis/mpcc/options.hpp"

using namespace stasis;

namespace {

using bench::seconds_since;
using bench::Setting;
using Clock = bench::Clock;

std::vector<Setting> settings(const mpcc::HomotopyOptions& file_options) {
  mpcc::HomotopyOptions def = file_options;
  mpcc::HomotopyOptions nos = file_options;
  mpcc::apply_preset(nos, "nosnoc");
  nos.complementarity_tol = file_options.complementarity_tol;
  nos.sigma_final = file_options.sigma_final;
  return bench::homotopy_settings(def, nos);
}
using bench::kNosnoc;

/// Known optima, derived in the example files' headers.
const std::map<std::string, double> kOptimum = {
    {"bard1", 17.0}, {"not_s_stationary", 0.0}, {"ralph2", 0.0}, {"ralph_example", 0.0}, {"scholtes5", 1.0}};

struct Row {
  std::string name;
  std::unique_ptr<mpcc::Homotopy> homotopy;
  double construction_s = 0.0;
  double solve_s = 1e300;
  mpcc::Result first;
  bool same = false;
};

struct Example {
  std::string name;
  io::MpccFile file;
  std::unique_ptr<mpcc::Problem> problem;  // the Homotopy keeps a reference
  std::vector<Row> rows;
  double optimum = NAN;
};

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const int max_rounds = quick ? 1 : 30;
  const double budget_s = 30.0;
  auto t_all = Clock::now();
  const std::filesystem::path dir = std::filesystem::path(STASIS_SOURCE_DIR) / "examples" / "mpcc";
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  std::printf("bench_mpcc: homotopy settings on every %s/*.yaml (%zu files), in one run\n", dir.string().c_str(),
              paths.size());

  std::vector<Example> examples;
  for (const auto& path : paths) {
    Example ex;
    ex.file = io::read_mpcc_file(path.string());
    ex.name = path.stem().string();
    ex.problem = std::make_unique<mpcc::Problem>(io::build_mpcc(ex.file));
    if (auto it = kOptimum.find(ex.name); it != kOptimum.end()) ex.optimum = it->second;
    for (const Setting& s : settings(ex.file.options)) {
      Row row;
      row.name = s.name;
      auto t0 = Clock::now();
      row.homotopy = std::make_unique<mpcc::Homotopy>(*ex.problem, s.options);
      row.construction_s = seconds_since(t0);
      ex.rows.push_back(std::move(row));
    }
    examples.push_back(std::move(ex));
  }

  // Interleaved rounds: load drifts on the shared machine hit every setting alike.
  int rounds = 0;
  double round_s = 0.0;
  while (rounds < max_rounds && (rounds == 0 || seconds_since(t_all) + round_s < budget_s)) {
    auto t_round = Clock::now();
    for (Example& ex : examples)
      for (Row& row : ex.rows) {
        mpcc::Result r = row.homotopy->solve();
        row.solve_s = std::min(row.solve_s, r.wall_time_s);
        if (rounds == 0) {
          row.first = std::move(r);
        } else if (r.nlp_iterations != row.first.nlp_iterations) {
          std::printf("  note: %s / %s: %d IPOPT iterations in round %d, %d in the first\n", ex.name.c_str(),
                      row.name.c_str(), r.nlp_iterations, rounds + 1, row.first.nlp_iterations);
        }
      }
    round_s = std::max(round_s, seconds_since(t_round));
    ++rounds;
  }
  std::printf("  %d round(s) of every solve; wall times are the best of them; con us = construction\n", rounds);
  std::printf("  ok? = converged and |f - f*| no worse than the nosnoc preset's (+1e-6); t/nos, it/nos = ratios to the\n"
              "  nosnoc row\n");

  const std::size_t n_set = examples.front().rows.size();
  std::vector<double> total_t(n_set, 0.0), total_con(n_set, 0.0);
  std::vector<int> total_it(n_set, 0), total_nlp(n_set, 0), n_conv(n_set, 0), n_same(n_set, 0);
  std::vector<double> first_eval(n_set, 0.0), first_wall(n_set, 0.0);
  for (Example& ex : examples) {
    const Row& ref = ex.rows[kNosnoc];
    const double f_ref = ref.first.objective;
    std::printf("\n%s: %zu variables, %zu pairs, comp_tol %.0e; f* = %s\n", ex.name.c_str(),
                ex.problem->n_variables(), ex.problem->n_pairs(), ex.file.options.complementarity_tol,
                std::isnan(ex.optimum) ? "unknown" : std::to_string(ex.optimum).c_str());
    std::printf("  %-13s %7s %8s %5s %8s %4s %16s %9s %9s %5s %6s %6s\n", "setting", "con us", "solve us", "NLPs",
                "IPOPT it", "conv", "objective", "|f - f*|", "residual", "ok?", "t/nos", "it/nos");
    for (std::size_t k = 0; k < n_set; ++k) {
      Row& row = ex.rows[k];
      const mpcc::Result& r = row.first;
      // As accurate as nosnoc: against f* when it is known (a setting that ends at a smaller σ may be
      // closer to f* than nosnoc, e.g. f = -2 sqrt(σ) on not_s_stationary), else against nosnoc's f.
      if (std::isnan(ex.optimum))
        row.same = r.converged && std::fabs(r.objective - f_ref) <= 1e-6 * (1 + std::fabs(f_ref));
      else
        row.same = r.converged && std::fabs(r.objective - ex.optimum) <=
                                      std::fabs(f_ref - ex.optimum) + 1e-6 * (1 + std::fabs(ex.optimum));
      std::printf("  %-13s %7.0f %8.0f %5d %8d %4s %16.9e %9.1e %9.1e %5s %6.2f %6.2f\n", row.name.c_str(),
                  1e6 * row.construction_s, 1e6 * row.solve_s, r.nlp_solves, r.nlp_iterations,
                  r.converged ? "yes" : "NO", r.objective, std::fabs(r.objective - ex.optimum), r.residual,
                  row.same ? "yes" : "NO", row.solve_s / ref.solve_s,
                  static_cast<double>(r.nlp_iterations) / std::max(1, ref.first.nlp_iterations));
      total_t[k] += row.solve_s;
      total_con[k] += row.construction_s;
      first_eval[k] += r.evaluation_time_s;
      first_wall[k] += r.wall_time_s;
      total_it[k] += r.nlp_iterations;
      total_nlp[k] += r.nlp_solves;
      n_conv[k] += r.converged ? 1 : 0;
      n_same[k] += row.same ? 1 : 0;
    }
  }

  std::printf("\ntotals over %zu examples:\n", examples.size());
  std::printf("  %-13s %8s %8s %8s %5s %7s %7s %5s %5s %5s %6s %6s\n", "setting", "con us", "solve us", "IPOPT it",
              "NLPs", "us/NLP", "us/it", "eval%", "conv", "ok", "t/nos", "it/nos");
  std::size_t best = kNosnoc;
  const int n_ex = static_cast<int>(examples.size());
  for (std::size_t k = 0; k < n_set; ++k) {
    std::printf("  %-13s %8.0f %8.0f %8d %5d %7.0f %7.0f %5.1f %2d/%-2d %2d/%-2d %6.2f %6.2f\n",
                examples.front().rows[k].name.c_str(), 1e6 * total_con[k], 1e6 * total_t[k], total_it[k], total_nlp[k],
                1e6 * total_t[k] / std::max(1, total_nlp[k]), 1e6 * total_t[k] / std::max(1, total_it[k]),
                100.0 * first_eval[k] / first_wall[k], n_conv[k], n_ex, n_same[k], n_ex, total_t[k] / total_t[kNosnoc],
                static_cast<double>(total_it[k]) / total_it[kNosnoc]);
    if (n_same[k] == n_ex && total_t[k] < total_t[best]) best = k;
  }
  std::printf("\nbench_mpcc run time %.1f s\n", seconds_since(t_all));
  std::printf(
      "SUMMARY bench_mpcc: %d examples; fastest setting at least as accurate as nosnoc on all: %s, %.0f us vs nosnoc %.0f us "
      "(%.2fx), %d vs %d IPOPT iterations; default = %.2fx nosnoc's time, %d/%d converged\n",
      n_ex, examples.front().rows[best].name.c_str(), 1e6 * total_t[best], 1e6 * total_t[kNosnoc],
      total_t[best] / total_t[kNosnoc], total_it[best], total_it[kNosnoc], total_t[0] / total_t[kNosnoc], n_conv[0],
      n_ex);
  return 0;
}
