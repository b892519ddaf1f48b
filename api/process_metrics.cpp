#include "api/process_metrics.hpp"

#include <cmath>

#include "api/metric_family_builder.hpp"

namespace koordq::api {
namespace {

std::vector<double> doubling(double first, int steps) {
  std::vector<double> bounds;
  for (int k = 0; k < steps; ++k) bounds.push_back(first * std::ldexp(1.0, k));
  return bounds;
}

}  // namespace

std::vector<double> ProcessMetrics::algorithm_latency_bounds() {
  return doubling(0.01, 15);
}
std::vector<double> ProcessMetrics::rest_client_bounds() {
  return {0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60};
}
std::vector<double> ProcessMetrics::fsync_batch_bounds() {
  return doubling(1, 11);
}
std::vector<double> ProcessMetrics::fsync_duration_bounds() {
  return doubling(0.0001, 15);
}
std::vector<double> ProcessMetrics::time_travel_bounds() {
  return doubling(0.001, 15);
}

ProcessMetrics::ProcessMetrics(const std::string& version, const std::string& revision)
    : algorithm_latency_(prometheus::BuildHistogram()
                             .Name("job_scheduling_algorithm_latency")
                             .Help("Wall time of one quota check in milliseconds.")
                             .Register(*registry_)
                             .Add({}, algorithm_latency_bounds())),
      request_duration_(prometheus::BuildHistogram()
                            .Name("rest_client_request_duration_seconds")
                            .Help("Latency of requests to the API server, by verb and host.")
                            .Register(*registry_)),
      requests_(prometheus::BuildCounter()
                    .Name("rest_client_requests_total")
                    .Help("Requests to the API server, by status code, method and host.")
                    .Register(*registry_)),
      fsync_batch_(prometheus::BuildHistogram()
                       .Name("koordq_journal_fsync_batch_records")
                       .Help("Records made durable per fsync of the journal.")
                       .Register(*registry_)
                       .Add({}, fsync_batch_bounds())),
      fsync_duration_(prometheus::BuildHistogram()
                          .Name("koordq_journal_fsync_duration_seconds")
                          .Help("Duration of each fsync of the journal.")
                          .Register(*registry_)
                          .Add({}, fsync_duration_bounds())),
      quarantines_(prometheus::BuildCounter()
                       .Name("koordq_journal_quarantines_total")
                       .Help("Corrupt journals this process moved aside.")
                       .Register(*registry_)
                       .Add({})),
      relists_(prometheus::BuildCounter()
                   .Name("koordq_relists_total")
                   .Help("LISTs of a watched resource made by this process.")
                   .Register(*registry_)),
      time_travel_queries_(prometheus::BuildCounter()
                               .Name("koordq_timetravel_queries_total")
                               .Help("Visibility and debug API requests carrying asOf or revision, by result.")
                               .Register(*registry_)),
      time_travel_duration_(prometheus::BuildHistogram()
                                .Name("koordq_timetravel_query_duration_seconds")
                                .Help("Seconds from receipt of a time-travel request to the end of its answer.")
                                .Register(*registry_)
                                .Add({}, time_travel_bounds())) {
  prometheus::BuildGauge()
      .Name("koordq_build_info")
      .Help("The release version and source revision of this binary.")
      .Register(*registry_)
      .Add({{"version", version}, {"revision", revision}})
      .Set(1);
}

void ProcessMetrics::observe_algorithm_latency(double seconds) {
  algorithm_latency_.Observe(seconds * 1000.0);
}

void ProcessMetrics::observe_request(const std::string& method, const std::string& host, const std::string& code,
                                     double seconds) {
  request_duration_.Add({{"verb", method}, {"host", host}}, rest_client_bounds()).Observe(seconds);
  requests_.Add({{"code", code}, {"method", method}, {"host", host}}).Increment();
}

void ProcessMetrics::observe_sync(size_t records, int64_t sync_nanos) {
  fsync_batch_.Observe(static_cast<double>(records));
  fsync_duration_.Observe(static_cast<double>(sync_nanos) / 1e9);
}

void ProcessMetrics::count_quarantine() {
  quarantines_.Increment();
}

void ProcessMetrics::count_relist(const std::string& resource) {
  relists_.Add({{"resource", resource}}).Increment();
}

void ProcessMetrics::observe_time_travel(TimeTravelResult result, std::optional<double> seconds) {
  time_travel_queries_.Add({{"result", std::string(to_string(result))}}).Increment();
  if (seconds) time_travel_duration_.Observe(*seconds);
}

void ProcessMetrics::set_archive_source(std::function<ArchiveGauges()> source) {
  std::lock_guard lock(archive_mu_);
  archive_source_ = std::move(source);
}

std::vector<prometheus::MetricFamily> ProcessMetrics::collect() const {
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  std::erase_if(families, [](const prometheus::MetricFamily& f) { return f.metric.empty(); });
  std::function<ArchiveGauges()> archive;
  {
    std::lock_guard lock(archive_mu_);
    archive = archive_source_;
  }
  if (archive) {
    const ArchiveGauges a = archive();
    using prometheus::MetricType;
    auto one = [&](const char* name, const char* help, MetricType type, double value) {
      families.push_back(FamilyBuilder(name, help, type).sample({}, value).take());
    };
    one("koordq_archive_archived_seq", "The journal seq up to which the archive holds every record.", MetricType::Gauge,
        static_cast<double>(a.archived_seq));
    one("koordq_archive_lag_records", "Durable journal records not yet in the archive.", MetricType::Gauge,
        static_cast<double>(a.lag_records));
    one("koordq_archive_lag_seconds", "Age of the oldest durable record not yet in the archive (0 when none).",
        MetricType::Gauge, a.lag_seconds);
    one("koordq_archive_segments_total", "Segments uploaded to the archive by this process.", MetricType::Counter,
        static_cast<double>(a.segments));
    one("koordq_archive_uploaded_bytes_total", "Object bytes uploaded to the archive by this process.",
        MetricType::Counter, static_cast<double>(a.bytes));
    one("koordq_archive_uploaded_records_total", "Journal records uploaded to the archive by this process.",
        MetricType::Counter, static_cast<double>(a.records));
    FamilyBuilder failures("koordq_archive_failures_total",
                           "Failed archive attempts by this process, by kind (an S3 error kind, or journal).",
                           MetricType::Counter);
    for (const auto& [kind, n] : a.failures) failures.sample({{"kind", kind}}, static_cast<double>(n));
    if (!failures.empty()) families.push_back(failures.take());
  }
  return families;
}

}  // namespace koordq::api
