// The queueing families of behaviour.md §15.2 (leader only) as a projection of the read pages
// (actors/pages/read_pages.hpp; the overloads on a whole state build its pages first):
// gauges computed from the state (they cannot drift) and the journaled counters and histograms
// (§15.4), with the series lifecycle of §15.4. Pure: the only memory kept between scrapes is which
// series have been shown, since a shown series stays (at 0 when nothing counts) until its quota
// goes, or until its namespace has had no QueueUnit for 5 minutes.
//
// One projection, two outputs: prometheus-cpp MetricFamily values (`koordq at`, tests), and the
// text format written directly (`/metrics`), which is the same bytes as prometheus-cpp's
// TextSerializer on those values at a fraction of the cost (BENCHMARKS.md "Serving surfaces").
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

#include "actors/core/scheduler.hpp"
#include "actors/pages/read_pages.hpp"

namespace koordq::api {

// The series shown so far, by the label that ends them.
struct SeriesMemory {
  using Shown = std::map<std::string, std::set<std::string, std::less<>>, std::less<>>;
  Shown quota_resources;      // dequeued_quota_usage_by_quota
  Shown namespace_resources;  // dequeued_quota_usage_by_namespace
  Shown namespace_types;      // queueunits_by_job_type
};

// The leader's families; a family without series is left out.
std::vector<prometheus::MetricFamily> queueing_families(const actors::pages::ReadPages& p, SeriesMemory& memory);
std::vector<prometheus::MetricFamily> queueing_families(const actors::Scheduler& s, SeriesMemory& memory);

// A family written in the text format: its name and its lines, out[begin, end).
struct WrittenFamily {
  std::string_view name;  // a string literal
  size_t begin = 0;
  size_t end = 0;
};
// The same families in the text format 0.0.4, appended to `out`, in the order of the returned list
// (not sorted by name); byte for byte what prometheus-cpp's TextSerializer writes of
// `queueing_families` for the same state and memory.
std::vector<WrittenFamily> write_queueing_families(const actors::pages::ReadPages& p, SeriesMemory& memory,
                                                   std::string& out);
std::vector<WrittenFamily> write_queueing_families(const actors::Scheduler& s, SeriesMemory& memory, std::string& out);

// One exposition sorted by family name: the written families (their lines in `text`) merged with
// `families`, which prometheus-cpp's TextSerializer writes.
std::string merged_exposition(std::vector<WrittenFamily> written, const std::string& text,
                              std::vector<prometheus::MetricFamily> families);

// job_scheduling_e2e_latency, served by every replica (empty on a follower, which decides nothing).
prometheus::MetricFamily e2e_latency_family(const actors::QueueingMetrics& m);
prometheus::MetricFamily e2e_latency_family(const actors::Scheduler& s);

}  // namespace koordq::api
