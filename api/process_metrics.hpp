// The process-local families of behaviour.md §15.2: measured by this process, never journaled,
// starting from zero at every start (§15.4). A prometheus-cpp registry; safe from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "api/time_travel.hpp"

namespace koordq::api {

// The journal archive's progress (behaviour.md §26), read at every scrape.
struct ArchiveGauges {
  uint64_t archived_seq = 0;
  uint64_t lag_records = 0;
  double lag_seconds = 0;  // age of the oldest record not yet archived; 0 when none waits
  uint64_t segments = 0;
  uint64_t bytes = 0;
  uint64_t records = 0;
  std::map<std::string, uint64_t> failures;  // by kind
};

class ProcessMetrics {
 public:
  ProcessMetrics(const std::string& version, const std::string& revision);

  // One quota check (a queue's turn in a round), wall-clock seconds.
  void observe_algorithm_latency(double seconds);
  // One request to the API server; `code` the decimal status or "<error>".
  void observe_request(const std::string& method, const std::string& host, const std::string& code, double seconds);
  // One durable group of the journal writer.
  void observe_sync(size_t records, int64_t sync_nanos);
  void count_quarantine();
  void count_relist(const std::string& resource);  // queueunits, queues, elasticquotas
  void observe_time_travel(TimeTravelResult result, std::optional<double> seconds);

  // Where the archive families come from (serve --archive-url); unset: none.
  void set_archive_source(std::function<ArchiveGauges()> source);

  // The registry's families that have series.
  std::vector<prometheus::MetricFamily> collect() const;
  // Histogram bounds of §15.3.
  static std::vector<double> algorithm_latency_bounds();
  static std::vector<double> rest_client_bounds();
  static std::vector<double> fsync_batch_bounds();
  static std::vector<double> fsync_duration_bounds();
  static std::vector<double> time_travel_bounds();

 private:
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  prometheus::Histogram& algorithm_latency_;
  prometheus::Family<prometheus::Histogram>& request_duration_;
  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Histogram& fsync_batch_;
  prometheus::Histogram& fsync_duration_;
  prometheus::Counter& quarantines_;
  prometheus::Family<prometheus::Counter>& relists_;
  prometheus::Family<prometheus::Counter>& time_travel_queries_;
  prometheus::Histogram& time_travel_duration_;
  mutable std::mutex archive_mu_;
  std::function<ArchiveGauges()> archive_source_;  // under archive_mu_
};

}  // namespace koordq::api
