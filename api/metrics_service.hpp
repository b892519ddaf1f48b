// The metrics listener (behaviour.md §15.1): GET /metrics in the Prometheus text format 0.0.4,
// /healthz and /readyz. Every replica serves it from process start. The probes are answered on
// the I/O thread, /metrics on a worker thread of its own; neither asks the router (the live state
// is the read side's latest publication), and the families projected from the decision state are
// rendered once per applied revision.
#pragma once

#include <functional>
#include <memory>
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
  LivePages live;                                         // the pages the queueing families project
  std::function<bool()> leader;                           // koordq_leader; the queueing families only then
  std::function<JournalGauges()> journal;                 // the koordq_journal_* gauges and counters
  std::function<std::optional<std::string>()> not_ready;  // /readyz: why not ready yet
};

class MetricsService : public HttpService {
 public:
  explicit MetricsService(MetricsContext context) : context_(std::move(context)) {}

  HttpResponse handle(const HttpRequest& request, const PeerIdentity& peer) override;
  HttpResponse limit_exceeded(ServerLimit limit) override;
  // /metrics is rendered on the server's worker thread: /healthz and /readyz never wait behind it.
  bool answered_aside(const HttpRequest& request) const override;

  // The /metrics body.
  std::string render();

 private:
  // The families projected from the decision state, rendered once per applied revision (and
  // leadership): scrapes at the same revision share them.
  struct StateFamilies {
    uint64_t revision = 0;
    bool leader = false;
    prometheus::MetricFamily e2e_latency;
    std::vector<WrittenFamily> written;
    std::string queueing;
  };
  std::shared_ptr<const StateFamilies> state_families(const actors::pages::ReadPages& p, bool leader);

  MetricsContext context_;
  std::mutex memory_mu_;
  SeriesMemory series_;                        // under memory_mu_
  std::shared_ptr<const StateFamilies> last_;  // under memory_mu_
};

}  // namespace koordq::api
