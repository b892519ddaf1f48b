#include "api/metrics_service.hpp"

#include "api/kube_status.hpp"
#include "api/metric_family_builder.hpp"
#include "api/process_stats.hpp"

namespace koordq::api {
namespace {

namespace http = boost::beast::http;
using prometheus::MetricType;

HttpResponse text_response(http::status status, std::string body,
                           std::string_view content_type = "text/plain; charset=utf-8") {
  HttpResponse response(status, 11);
  response.set(http::field::content_type, boost::beast::string_view(content_type.data(), content_type.size()));
  response.body() = std::move(body);
  return response;
}

prometheus::MetricFamily single(const char* name, const char* help, MetricType type, double value) {
  FamilyBuilder family(name, help, type);
  family.sample({}, value);
  return family.take();
}

}  // namespace

std::shared_ptr<const MetricsService::StateFamilies> MetricsService::state_families(const actors::pages::ReadPages& p,
                                                                                    bool leader) {
  const uint64_t revision = p.revision;
  std::lock_guard lock(memory_mu_);
  if (last_ && last_->revision == revision && last_->leader == leader) return last_;
  auto rendered = std::make_shared<StateFamilies>();
  rendered->revision = revision;
  rendered->leader = leader;
  rendered->e2e_latency = e2e_latency_family(*actors::pages::every_page(p).metrics);
  if (leader) {
    rendered->queueing.reserve(last_ ? last_->queueing.size() : 0);
    rendered->written = write_queueing_families(p, series_, rendered->queueing);
  }
  last_ = std::move(rendered);
  return last_;
}

std::string MetricsService::render() {
  std::vector<prometheus::MetricFamily> families = context_.process->collect();
  const bool leader = context_.leader && context_.leader();
  uint64_t applied = 0;
  // The queueing families are written as text directly (thousands of series); the others go
  // through prometheus-cpp's serializer. Both are merged in family-name order.
  std::shared_ptr<const StateFamilies> from_state;
  if (context_.live) {
    if (const auto pages = context_.live()) {
      applied = pages->revision;
      from_state = state_families(*pages, leader);
    }
  }
  static const std::string kNoText;
  std::vector<WrittenFamily> written;
  if (from_state) {
    families.push_back(from_state->e2e_latency);
    written = from_state->written;
  } else {
    families.push_back(e2e_latency_family(actors::QueueingMetrics()));  // before the journal is open
  }
  if (auto stats = read_process_stats()) {
    families.push_back(single("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.",
                              MetricType::Counter, stats->cpu_seconds));
    families.push_back(single("process_resident_memory_bytes", "Resident memory size in bytes.", MetricType::Gauge,
                              stats->resident_bytes));
    families.push_back(single("process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
                              MetricType::Gauge, stats->start_time_seconds));
    families.push_back(
        single("process_open_fds", "Number of open file descriptors.", MetricType::Gauge, stats->open_fds));
  }
  const JournalGauges journal = context_.journal ? context_.journal() : JournalGauges{};
  families.push_back(single("koordq_journal_appended_records_total", "Records appended to the journal by this process.",
                            MetricType::Counter, journal.appended_records));
  families.push_back(single("koordq_journal_appended_bytes_total", "Bytes appended to the journal by this process.",
                            MetricType::Counter, journal.appended_bytes));
  families.push_back(single("koordq_journal_last_sequence", "Sequence of the last durable journal record.",
                            MetricType::Gauge, journal.last_sequence));
  families.push_back(single("koordq_journal_ingest_lag_seconds",
                            "Age of the oldest received event not yet durable; 0 when none is pending.",
                            MetricType::Gauge, journal.ingest_lag_seconds));
  families.push_back(single("koordq_last_applied_sequence", "Sequence of the last record applied to the live state.",
                            MetricType::Gauge, static_cast<double>(applied)));
  families.push_back(single("koordq_leader", "1 while this replica leads, else 0.", MetricType::Gauge, leader ? 1 : 0));
  return merged_exposition(std::move(written), from_state ? from_state->queueing : kNoText, std::move(families));
}

HttpResponse MetricsService::handle(const HttpRequest& request, const PeerIdentity&) {
  const std::string_view target(request.target().data(), request.target().size());
  const std::string_view path = target.substr(0, target.find('?'));
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    return text_response(http::status::method_not_allowed, "405 method not allowed");
  }
  if (path == "/metrics") {
    return text_response(http::status::ok, render(), "text/plain; version=0.0.4; charset=utf-8");
  }
  if (path == "/healthz") return text_response(http::status::ok, "ok");
  if (path == "/readyz") {
    if (context_.not_ready) {
      if (auto reason = context_.not_ready()) return text_response(http::status::service_unavailable, *reason);
    }
    return text_response(http::status::ok, "ok");
  }
  return text_response(http::status::not_found, "404 page not found");
}

bool MetricsService::answered_aside(const HttpRequest& request) const {
  const std::string_view target(request.target().data(), request.target().size());
  return target.substr(0, target.find('?')) == "/metrics";
}

HttpResponse MetricsService::limit_exceeded(ServerLimit limit) {
  const ApiError error = limit_error(limit);
  return text_response(static_cast<http::status>(error.code), error.message);
}

}  // namespace koordq::api
