// The accounting of one ElasticQuota (design.md §4, read side): its bounds and what is used in it,
// itself and below it, as the debug API's elasticquota page, the visibility API's quotas and the
// usage metrics show them. Immutable once built. The quota's units are on the page of the queue
// label of the same name (queue_page.hpp).
#pragma once

#include <optional>
#include <string>

#include "actors/core/scheduler.hpp"

namespace koordq::actors::pages {

struct QuotaAccount {
  std::string name;
  std::string namespace_;
  std::optional<int64_t> creation_timestamp;
  std::string parent;  // "" = the root
  schema::ResourceList min_raw, max_raw;
  schema::ResourceVector min, max;
  QuotaUsage usage;

  bool operator==(const QuotaAccount&) const = default;
};

// The account of the known quota `name`.
QuotaAccount build_quota_account(const Scheduler& s, const std::string& name);

}  // namespace koordq::actors::pages
