// The metrics families (behaviour.md §15): exact names, types, labels and buckets, the series
// lifecycle of §15.4, and the families a fresh replica serves.
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include "api/metrics_service.hpp"
#include "api/process_metrics.hpp"
#include "api/queueing_metrics.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

std::set<std::string> family_names(const std::string& text) {
  std::set<std::string> names;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# TYPE ", 0) == 0) names.insert(line.substr(7, line.find(' ', 7) - 7));
  }
  return names;
}

std::string serialize(const std::vector<prometheus::MetricFamily>& families) {
  return prometheus::TextSerializer().Serialize(families);
}

TEST(Metrics, a_fresh_replica_serves_exactly_the_label_free_families) {
  api::ProcessMetrics process("0.1.0", "unknown");
  api::MetricsContext context;
  context.process = &process;
  context.leader = [] { return false; };
  api::MetricsService service(context);
  const std::string text = service.render();
  const std::set<std::string> expected = {"job_scheduling_algorithm_latency",
                                          "job_scheduling_e2e_latency",
                                          "process_cpu_seconds_total",
                                          "process_resident_memory_bytes",
                                          "process_start_time_seconds",
                                          "process_open_fds",
                                          "koordq_journal_appended_records_total",
                                          "koordq_journal_appended_bytes_total",
                                          "koordq_journal_fsync_batch_records",
                                          "koordq_journal_fsync_duration_seconds",
                                          "koordq_journal_last_sequence",
                                          "koordq_journal_ingest_lag_seconds",
                                          "koordq_journal_quarantines_total",
                                          "koordq_last_applied_sequence",
                                          "koordq_leader",
                                          "koordq_build_info",
                                          "koordq_timetravel_query_duration_seconds"};
  EXPECT_EQ(family_names(text), expected) << text;
  EXPECT_NE(text.find("koordq_build_info{revision=\"unknown\",version=\"0.1.0\"} 1"), std::string::npos);
  EXPECT_NE(text.find("koordq_leader 0"), std::string::npos);
}

TEST(Metrics, histogram_buckets_follow_the_spec) {
  EXPECT_EQ(api::ProcessMetrics::algorithm_latency_bounds().size(), 15u);
  EXPECT_DOUBLE_EQ(api::ProcessMetrics::algorithm_latency_bounds().back(), 163.84);
  EXPECT_DOUBLE_EQ(api::ProcessMetrics::fsync_duration_bounds().back(), 1.6384);
  EXPECT_DOUBLE_EQ(api::ProcessMetrics::fsync_batch_bounds().back(), 1024);
  EXPECT_DOUBLE_EQ(api::ProcessMetrics::time_travel_bounds().back(), 16.384);
  EXPECT_EQ(api::ProcessMetrics::rest_client_bounds().size(), 12u);
  actors::Scheduler s;
  const prometheus::MetricFamily e2e = api::e2e_latency_family(s);
  ASSERT_EQ(e2e.metric.size(), 1u);
  const auto& buckets = e2e.metric[0].histogram.bucket;
  ASSERT_EQ(buckets.size(), 14u);  // 13 bounds + Inf
  EXPECT_DOUBLE_EQ(buckets[0].upper_bound, 1);
  EXPECT_DOUBLE_EQ(buckets[12].upper_bound, 16777216);
}

// prometheus-cpp keeps a registered series' labels in name order; Prometheus ignores the order.
TEST(Metrics, labelled_process_families_appear_with_their_first_observation) {
  api::ProcessMetrics process("0.1.0", "abc");
  std::set<std::string> before = family_names(serialize(process.collect()));
  EXPECT_FALSE(before.count("koordq_relists_total"));
  EXPECT_FALSE(before.count("rest_client_requests_total"));
  EXPECT_FALSE(before.count("koordq_timetravel_queries_total"));
  process.count_relist("queueunits");
  process.observe_request("GET", "127.0.0.1:6443", "200", 0.01);
  process.observe_time_travel(api::TimeTravelResult::kMiss, 0.02);
  process.observe_time_travel(api::TimeTravelResult::kThrottled, std::nullopt);
  const std::string text = serialize(process.collect());
  EXPECT_NE(text.find("koordq_relists_total{resource=\"queueunits\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("rest_client_requests_total{code=\"200\",host=\"127.0.0.1:6443\",method=\"GET\"} 1"),
            std::string::npos);
  EXPECT_NE(
      text.find("rest_client_request_duration_seconds_bucket{host=\"127.0.0.1:6443\",verb=\"GET\",le=\"0.025\"} 1"),
      std::string::npos);
  EXPECT_NE(text.find("koordq_timetravel_queries_total{result=\"throttled\"} 1"), std::string::npos);
  EXPECT_NE(text.find("koordq_timetravel_query_duration_seconds_count 1"), std::string::npos);
}

class QueueingMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    d.input(quota("team-a", "", {{"cpu", "4"}, {"memory", "8Gi"}}));
    d.input(queue("team-a"));
    auto small = unit("small", "team-a", "1500m");
    small.spec.consumer_ref = schema::ConsumerRef{"batch/v1", "Job", "small", "default", "uid-j"};
    d.input(small);
    d.input(unit("big", "team-a", "8"));
    d.run_until(d.time + 5 * kSec);
  }
  std::string render() { return serialize(api::queueing_families(d.s, memory)); }
  SchedulerDriver d;
  api::SeriesMemory memory;
};

TEST_F(QueueingMetricsTest, gauges_project_the_state) {
  const std::string text = render();
  EXPECT_NE(text.find("queueunits_in_active_queue{queue=\"team-a\"}"), std::string::npos) << text;
  EXPECT_NE(text.find("queueunits_in_backoff_queue{queue=\"team-a\"}"), std::string::npos);
  EXPECT_NE(text.find("dequeued_quota_usage_by_quota{quota=\"team-a\",resource=\"cpu\"} 1500"), std::string::npos);
  // A resource in max is shown at 0.
  EXPECT_NE(text.find("dequeued_quota_usage_by_quota{quota=\"team-a\",resource=\"memory\"} 0"), std::string::npos);
  EXPECT_NE(text.find("dequeued_quota_usage_by_namespace{namespace=\"default\",resource=\"cpu\"} 1.5"),
            std::string::npos);
  EXPECT_NE(text.find("queueunits_by_job_type{namespace=\"default\",type=\"Job\"} 1"), std::string::npos);
  EXPECT_NE(text.find("job_schedule_attempts{queue=\"team-a\",result=\"scheduled\"} 1"), std::string::npos);
  EXPECT_NE(text.find("job_schedule_attempts{queue=\"team-a\",result=\"unschedulable\"}"), std::string::npos);
  // Created at 0, admitted at about 1000 s: the wait is counted in seconds.
  EXPECT_NE(text.find("koordq_admission_wait_seconds_bucket{queue=\"team-a\",le=\"640\"} 0"), std::string::npos);
  EXPECT_NE(text.find("koordq_admission_wait_seconds_bucket{queue=\"team-a\",le=\"1280\"} 1"), std::string::npos);
  EXPECT_NE(text.find("# TYPE job_schedule_attempts counter"), std::string::npos);
  EXPECT_EQ(text.find("job_scheduling_e2e_latency"), std::string::npos) << "served by every replica, not here";
}

TEST_F(QueueingMetricsTest, series_of_a_deleted_queue_and_quota_go_with_them) {
  render();
  d.input(queue("team-a"), true);
  std::string text = render();
  EXPECT_EQ(text.find("queue=\"team-a\""), std::string::npos) << text;
  d.input(quota("team-a", "", {{"cpu", "4"}, {"memory", "8Gi"}}), true);
  text = render();
  EXPECT_EQ(text.find("quota=\"team-a\""), std::string::npos) << text;
  EXPECT_TRUE(memory.quota_resources.empty());
}

// §15.4: a namespace's series stay, at 0, while it has units or for 5 minutes after its last one.
TEST_F(QueueingMetricsTest, namespace_series_stay_at_zero_until_the_namespace_is_empty_for_five_minutes) {
  render();
  d.input(unit("small", "team-a", "1500m"), true);  // the namespace's only Job, holding its cpu
  std::string text = render();
  EXPECT_NE(text.find("queueunits_by_job_type{namespace=\"default\",type=\"Job\"} 0"), std::string::npos) << text;
  EXPECT_NE(text.find("dequeued_quota_usage_by_namespace{namespace=\"default\",resource=\"cpu\"} 0"),
            std::string::npos);
  d.input(unit("big", "team-a", "8"), true);  // the namespace is empty from now on
  d.run_until(d.time + 4 * 60 * kSec, kSec);
  text = render();
  EXPECT_NE(text.find("queueunits_by_job_type{namespace=\"default\",type=\"Job\"} 0"), std::string::npos) << text;
  d.run_until(d.time + 61 * kSec, kSec);
  text = render();
  EXPECT_EQ(text.find("namespace=\"default\""), std::string::npos) << text;
  EXPECT_TRUE(memory.namespace_resources.empty());
  EXPECT_TRUE(memory.namespace_types.empty());
}

TEST(QueueingMetricsEmpty, a_state_without_objects_has_no_queueing_series) {
  actors::Scheduler s;
  api::SeriesMemory memory;
  EXPECT_TRUE(api::queueing_families(s, memory).empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
