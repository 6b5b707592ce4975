#pragma once
// Helpers shared by bench_fesd and bench_mpcc: wall and CPU clocks, and the homotopy settings both
// compare (the rows of their tables).
#include <time.h>

#include <chrono>
#include <string>
#include <vector>

#include "stasis/mpcc/options.hpp"

namespace bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// CPU time of the process in seconds.
inline double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Setting {
  std::string name;
  stasis::mpcc::HomotopyOptions options;
};

/// The compared homotopy settings from the two bases `def` (stasis's defaults) and `nos` (the
/// nosnoc preset), each alone and with the superlinear σ update and/or warm-started duals.
inline std::vector<Setting> homotopy_settings(const stasis::mpcc::HomotopyOptions& def,
                                              const stasis::mpcc::HomotopyOptions& nos) {
  auto with = [](stasis::mpcc::HomotopyOptions o, bool superlinear, bool warm) {
    if (superlinear) o.update = stasis::mpcc::SigmaUpdate::Superlinear;
    if (warm) o.warm_start_duals = true;
    return o;
  };
  return {{"default", def},
          {"nosnoc", nos},
          {"def+superlin", with(def, true, false)},
          {"def+warm", with(def, false, true)},
          {"def+sup+warm", with(def, true, true)},
          {"nos+superlin", with(nos, true, false)},
          {"nos+warm", with(nos, false, true)},
          {"nos+sup+warm", with(nos, true, true)}};
}
/// Index of the nosnoc row, the reference of the comparisons.
constexpr std::size_t kNosnoc = 1;

}  // namespace bench
