// How a unit's admission moves under `replay --what-if` (behaviour.md §24.3): its what-if time
// from the recorded one and the two model runs, the class of the change, and the median run time
// that stands in for a unit admitted only in the what-if.
#include <algorithm>

#include "replay/what_if.hpp"

namespace koordq::replay {

std::optional<int64_t> what_if_admission(const std::optional<int64_t>& recorded, const std::optional<int64_t>& baseline,
                                         const std::optional<int64_t>& changed, int64_t created) {
  std::optional<int64_t> out;
  if (baseline == changed) {
    out = recorded;
  } else if (changed && baseline && recorded) {
    out = *recorded + (*changed - *baseline);
  } else if (changed && !baseline) {
    out = changed;
  }
  if (out) out = std::max(*out, created);
  return out;
}

AdmissionChange classify_admission(const std::optional<int64_t>& recorded, const std::optional<int64_t>& what_if) {
  if (!recorded && !what_if) return AdmissionChange::never_admitted;
  if (!recorded) return AdmissionChange::newly_admitted;
  if (!what_if) return AdmissionChange::no_longer_admitted;
  if (*what_if < *recorded) return AdmissionChange::earlier;
  if (*what_if > *recorded) return AdmissionChange::later;
  return AdmissionChange::unchanged;
}

std::optional<int64_t> median_run_time(std::vector<int64_t> run_times) {
  if (run_times.empty()) return std::nullopt;
  std::sort(run_times.begin(), run_times.end());
  const size_t mid = run_times.size() / 2;
  if (run_times.size() % 2 == 1) return run_times[mid];
  return run_times[mid - 1] + (run_times[mid] - run_times[mid - 1]) / 2;
}

}  // namespace koordq::replay
