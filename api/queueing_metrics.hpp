// The queueing families of behaviour.md §15.2 (leader only) as a projection of the decision state:
// gauges computed from the state (they cannot drift) and the journaled counters and histograms
// (§15.4), with the series lifecycle of §15.4. Pure: the only memory kept between scrapes is which
// series have been shown, since a shown series stays (at 0 when nothing counts) until its quota
// goes, or until its namespace has had no QueueUnit for 5 minutes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <prometheus/metric_family.h>

#include "actors/core/scheduler.hpp"

namespace koordq::api {

// The series shown so far, by the label that ends them.
struct SeriesMemory {
  std::map<std::string, std::set<std::string>> quota_resources;      // dequeued_quota_usage_by_quota
  std::map<std::string, std::set<std::string>> namespace_resources;  // dequeued_quota_usage_by_namespace
  std::map<std::string, std::set<std::string>> namespace_types;      // queueunits_by_job_type
};

// The leader's families; a family without series is left out.
std::vector<prometheus::MetricFamily> queueing_families(const actors::Scheduler& s, SeriesMemory& memory);
// job_scheduling_e2e_latency, served by every replica (empty on a follower, which decides nothing).
prometheus::MetricFamily e2e_latency_family(const actors::Scheduler& s);

}  // namespace koordq::api
