// Active regions, switch events and consistent algebraics from a discrete solution.
#include "stasis/sim/modes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stasis::sim {

ModeMonitor::ModeMonitor(const reformulate::Dcs& dcs)
    : dcs_(dcs),
      theta_("theta", {dcs.z}, {dcs.theta}),
      switching_("switching", {dcs.x, dcs.u}, {dcs.switching}),
      lifted_(reformulate::lifted_function(dcs)),
      accelerations_("accelerations", {dcs.x, dcs.u, dcs.z}, {dcs.acceleration_definitions}),
      theta_values_(dcs.theta.size()),
      switching_values_(dcs.switching.size()),
      acceleration_values_(dcs.accelerations.size()),
      work_(std::max({theta_.work_size(), switching_.work_size(), accelerations_.work_size(), std::size_t{1}})) {}

std::vector<double> ModeMonitor::mean_theta(const std::vector<double>& w, const std::vector<mpcc::Index>& Z) {
  std::vector<double> mean(theta_values_.size(), 0.0);
  for (mpcc::Index at : Z) {
    const double* in[1] = {w.data() + at};
    double* out[1] = {theta_values_.data()};
    theta_.eval(in, out, work_.data());
    for (std::size_t i = 0; i < mean.size(); ++i) mean[i] += theta_values_[i] / static_cast<double>(Z.size());
  }
  return mean;
}

std::vector<int> ModeMonitor::active(const std::vector<double>& mean_theta) {
  std::vector<int> a;
  for (std::size_t i = 0; i < mean_theta.size(); ++i)
    if (mean_theta[i] > 1e-4) a.push_back(static_cast<int>(i));
  return a;
}

const std::vector<double>& ModeMonitor::switching(const std::vector<double>& x, const std::vector<double>& u) {
  const double* in[2] = {x.data(), u.data()};
  double* out[1] = {switching_values_.data()};
  switching_.eval(in, out, work_.data());
  return switching_values_;
}

Event ModeMonitor::event(double time, const std::vector<double>& x, const std::vector<double>& u,
                         std::vector<int> before, std::vector<int> after) {
  Event e;
  e.time = time;
  e.before = std::move(before);
  e.after = std::move(after);
  e.state = x;
  const std::vector<double>& sw = switching(x, u);
  double smallest = std::numeric_limits<double>::infinity();
  for (double v : sw) smallest = std::min(smallest, std::fabs(v));
  for (std::size_t j = 0; j < sw.size(); ++j)
    if (std::fabs(sw[j]) <= std::max(1e-6, 10 * smallest)) e.switching.push_back(static_cast<int>(j));
  return e;
}

std::vector<double> ModeMonitor::consistent_algebraics(const std::vector<double>& x, const std::vector<double>& u) {
  std::vector<double> z = reformulate::consistent_algebraics(dcs_, switching(x, u), &lifted_);
  if (!dcs_.accelerations.empty()) {
    const double* in[3] = {x.data(), u.data(), z.data()};
    double* out[1] = {acceleration_values_.data()};
    accelerations_.eval(in, out, work_.data());
    for (std::size_t k = 0; k < dcs_.accelerations.size(); ++k)
      z[static_cast<std::size_t>(dcs_.accelerations[k])] = acceleration_values_[k];
  }
  return z;
}

}  // namespace stasis::sim
