// The queueing families of behaviour.md §15.2 (leader only) as a projection of the decision state:
// gauges computed from the state (they cannot drift) and the journaled counters and histograms
// (§15.4), with the series lifecycle of §15.4. Pure: the only memory kept between scrapes is which
// resources a quota's usage series has shown, since a shown series stays until its quota goes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <prometheus/metric_family.h>

#include "actors/core/scheduler.hpp"

namespace koordq::api {

// quota → resources whose dequeued_quota_usage_by_quota series has been shown.
using QuotaSeriesMemory = std::map<std::string, std::set<std::string>>;

// The leader's families; a family without series is left out.
std::vector<prometheus::MetricFamily> queueing_families(const actors::Scheduler& s, QuotaSeriesMemory& memory);
// job_scheduling_e2e_latency, served by every replica (empty on a follower, which decides nothing).
prometheus::MetricFamily e2e_latency_family(const actors::Scheduler& s);

}  // namespace koordq::api
