// `replay --what-if KEY=VALUE` settings (behaviour.md §24.3). Each holds from the start of the
// replay, as if the object had carried it all along.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/result.hpp"

namespace koordq::cmd {

struct OversellRateChange {
  int64_t rate_ppm = 0;
  friend bool operator==(const OversellRateChange&, const OversellRateChange&) = default;
};

struct PodInitialBackoffChange {
  int64_t seconds = 0;
  friend bool operator==(const PodInitialBackoffChange&, const PodInitialBackoffChange&) = default;
};

struct PodMaxBackoffChange {
  int64_t seconds = 0;
  friend bool operator==(const PodMaxBackoffChange&, const PodMaxBackoffChange&) = default;
};

struct QueuePolicyChange {
  std::string queue;
  std::string policy;  // a spec.queuePolicy value; empty means Priority
  friend bool operator==(const QueuePolicyChange&, const QueuePolicyChange&) = default;
};

struct QueueAnnotationChange {
  std::string queue;
  std::string key;
  std::optional<std::string> value;  // nullopt removes the annotation
  friend bool operator==(const QueueAnnotationChange&, const QueueAnnotationChange&) = default;
};

struct QuotaMaxChange {
  std::string quota;
  std::string resource;
  std::optional<std::string> quantity;  // as written (a valid quantity); nullopt removes the resource
  friend bool operator==(const QuotaMaxChange&, const QuotaMaxChange&) = default;
};

struct WhatIfChange {
  std::string key;    // as given; a removal keeps its trailing `-`
  std::string value;  // as given; empty for a removal
  std::variant<OversellRateChange, PodInitialBackoffChange, PodMaxBackoffChange, QueuePolicyChange,
               QueueAnnotationChange, QuotaMaxChange>
      change;
};

// One --what-if argument. Errors are the specified messages: `unknown what-if key "<k>"` and
// `invalid what-if value "<v>" for <k>` (a known key without `=`, other than a removal, is an
// invalid value "").
Result<WhatIfChange> parse_what_if(std::string_view argument);

// behaviour.md §21: the maximum backoff is at least the initial one. `initial_nanos` and
// `max_nanos` are the settings the changes leave alone (std::nullopt: not known yet, nothing to
// check unless both are changed); a later change of a key wins. The Error is the invalid-value
// message for the maximum when it is changed, else for the initial one.
Status check_backoff_order(const std::vector<WhatIfChange>& changes,
                           std::optional<int64_t> initial_nanos = std::nullopt,
                           std::optional<int64_t> max_nanos = std::nullopt);

}  // namespace koordq::cmd
