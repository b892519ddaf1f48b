// The metrics listener (behaviour.md §15.1): GET /metrics in the Prometheus text format 0.0.4,
// /healthz and /readyz. Every replica serves it from process start.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "api/http_server.hpp"
#include "api/process_metrics.hpp"
#include "api/queueing_metrics.hpp"
#include "api/time_travel.hpp"

namespace koordq::api {

struct JournalGauges {
  double appended_records = 0;
  double appended_bytes = 0;
  double last_sequence = 0;
  double ingest_lag_seconds = 0;
};

struct MetricsContext {
  ProcessMetrics* process = nullptr;
  LiveStateRead live;                                     // the state the queueing families project
  std::function<bool()> leader;                           // koordq_leader; the queueing families only then
  std::function<JournalGauges()> journal;                 // the koordq_journal_* gauges and counters
  std::function<std::optional<std::string>()> not_ready;  // /readyz: why not ready yet
};

class MetricsService : public HttpService {
 public:
  explicit MetricsService(MetricsContext context) : context_(std::move(context)) {}

  HttpResponse handle(const HttpRequest& request, const PeerIdentity& peer) override;
  HttpResponse limit_exceeded(ServerLimit limit) override;

  // The /metrics body.
  std::string render();

 private:
  MetricsContext context_;
  std::mutex memory_mu_;
  SeriesMemory series_;
  size_t queueing_size_ = 0;  // of the last scrape's queueing families, reserved for the next
};

}  // namespace koordq::api
