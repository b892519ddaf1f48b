// The journaled metric state (behaviour.md §15.2–§15.4): the queueing counters and the two
// histograms are folded from records, so a replay gives the same values and counts nothing twice;
// objects first seen in a relist count only when created after the journal's last record.
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

schema::QueueUnit job(const std::string& name, const std::string& phase = "", int64_t created = 0,
                      const std::string& ns = "default", const std::string& kind = "PyTorchJob") {
  auto u = unit(name, "q", "1", 0, created, ns);
  u.status.phase = phase;
  if (!kind.empty()) u.spec.consumer_ref = schema::ConsumerRef{"kubeflow.org/v1", kind, name, "", "uid-job"};
  return u;
}

uint64_t coming(const actors::Scheduler& s, const std::string& ns, const std::string& type, const std::string& st) {
  const auto it = s.metrics().coming.find({ns, type, st});
  return it == s.metrics().coming.end() ? 0 : it->second;
}

uint64_t attempts(const actors::Scheduler& s, const std::string& queue, const std::string& result) {
  const auto it = s.metrics().attempts.find({queue, result});
  return it == s.metrics().attempts.end() ? 0 : it->second;
}

TEST(SchedulerMetrics, histogram_buckets_follow_the_spec_bounds) {
  const auto wait = actors::QueueingMetrics::admission_wait_histogram();
  const std::vector<int64_t> wait_bounds = {1, 2, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240};
  ASSERT_EQ(wait.bounds.size(), wait_bounds.size());
  EXPECT_EQ(wait.bounds[1], 2'500'000'000);
  for (size_t i = 2; i < wait_bounds.size(); ++i) EXPECT_EQ(wait.bounds[i], wait_bounds[i] * kSec);
  const auto e2e = actors::QueueingMetrics::e2e_histogram();
  ASSERT_EQ(e2e.bounds.size(), 13u);
  EXPECT_EQ(e2e.bounds.front(), kMs);
  EXPECT_EQ(e2e.bounds.back(), 16'777'216 * kMs);

  struct Row {
    int64_t value;
    size_t bucket;
  };
  for (const auto& row : std::vector<Row>{
           {-5, 0}, {0, 0}, {kSec, 0}, {kSec + 1, 1}, {2'500'000'000, 1}, {10240 * kSec, 13}, {10240 * kSec + 1, 14}}) {
    auto h = actors::QueueingMetrics::admission_wait_histogram();
    h.observe(row.value);
    EXPECT_EQ(h.counts[row.bucket], 1u) << row.value;
    EXPECT_EQ(h.count, 1u);
    EXPECT_EQ(h.sum, std::max<int64_t>(row.value, 0));
    EXPECT_EQ(h.cumulative(row.bucket), 1u);
    if (row.bucket > 0) {
      EXPECT_EQ(h.cumulative(row.bucket - 1), 0u);
    }
  }
}

TEST(SchedulerMetrics, a_unit_entering_a_phase_is_counted_by_namespace_type_and_effective_phase) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "0"}}));
  d.input(queue("q"));
  auto u = job("a");
  d.input(u);  // new: enters Enqueued
  EXPECT_EQ(coming(d.s, "default", "PyTorchJob", "Enqueued"), 1u);
  u.status.phase = "Enqueued";  // "" → Enqueued is no transition
  u.metadata.resource_version = "101";
  d.input(u);
  EXPECT_EQ(coming(d.s, "default", "PyTorchJob", "Enqueued"), 1u);
  u.status.phase = "Running";
  u.metadata.resource_version = "102";
  d.input(u);
  u.status.phase = "Running";
  u.status.message = "still";
  u.metadata.resource_version = "103";
  d.input(u);
  EXPECT_EQ(coming(d.s, "default", "PyTorchJob", "Running"), 1u);
  u.status.phase = "Bogus";  // unknown: SchedFailed
  u.metadata.resource_version = "104";
  d.input(u);
  EXPECT_EQ(coming(d.s, "default", "PyTorchJob", "SchedFailed"), 1u);
  d.input(job("plain", "", 0, "default", ""));  // no consumerRef.kind: not counted
  EXPECT_EQ(d.s.metrics().coming.size(), 3u);
  d.input(u, true);  // a deletion enters no phase
  EXPECT_EQ(d.s.metrics().coming.size(), 3u);
}

TEST(SchedulerMetrics, attempts_admission_wait_and_e2e_latency_count_when_the_round_is_applied) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(queue("q"));
  d.at(1000 * kSec);
  const auto created = 1000 * kSec - 3 * kSec;  // waited 3 s: bucket le=5
  d.input(job("a", "", created));
  EXPECT_EQ(attempts(d.s, "q", "scheduled"), 1u);
  const auto& wait = d.s.metrics().admission_wait.at("q");
  EXPECT_EQ(wait.count, 1u);
  EXPECT_EQ(wait.counts[2], 1u);
  EXPECT_EQ(wait.sum, 3 * kSec);
  EXPECT_EQ(d.s.metrics().e2e_latency.count, 1u);
  EXPECT_EQ(d.s.metrics().e2e_latency.sum, 3 * kSec);
  d.at(d.time + 20 * kMs);
  d.input(job("b", "", created));  // does not fit
  EXPECT_EQ(attempts(d.s, "q", "unschedulable"), 1u);
  EXPECT_EQ(d.s.metrics().admission_wait.at("q").count, 1u);
  EXPECT_EQ(d.s.metrics().e2e_latency.count, 1u);
}

TEST(SchedulerMetrics, a_top_up_is_no_admission_wait_and_only_the_first_dequeued_is_an_e2e_latency) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "10"}}));
  d.input(queue("q"));
  auto u = half_admitted_workers(job("a", "Running", 0));
  ASSERT_EQ(of_kind(d.input(u), DecisionKind::kAdmit).size(), 1u);
  EXPECT_EQ(attempts(d.s, "q", "scheduled"), 1u);
  EXPECT_TRUE(d.s.metrics().admission_wait.empty());
  EXPECT_EQ(d.s.metrics().e2e_latency.count, 0u);
}

TEST(SchedulerMetrics, the_admission_wait_counts_from_the_last_re_enqueue) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "10"}}));
  d.input(queue("q", "Priority"));
  auto u = job("a", "TimeoutBackoff", 0);
  d.input(u);
  d.at(d.time + 30 * kSec);
  u.status.phase = "Enqueued";
  u.metadata.resource_version = "101";
  const int64_t requeued = d.time;
  d.input(u);  // admitted in this round: waited 0 s since the re-enqueue
  EXPECT_EQ(d.s.units().at("default/a").enqueued_at, requeued);
  const auto& wait = d.s.metrics().admission_wait.at("q");
  EXPECT_EQ(wait.count, 1u);
  EXPECT_EQ(wait.sum, 0);
}

TEST(SchedulerMetrics, a_deleted_queue_takes_its_series_along) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(queue("q"));
  d.input(job("a"));
  ASSERT_EQ(attempts(d.s, "q", "scheduled"), 1u);
  d.input(queue("q"), true);
  EXPECT_TRUE(d.s.metrics().attempts.empty());
  EXPECT_TRUE(d.s.metrics().admission_wait.empty());
  EXPECT_EQ(d.s.metrics().e2e_latency.count, 1u);  // label-free: stays
}

// Units without a quota label: no other deadline than the namespaces'.
schema::QueueUnit unlabelled(const std::string& name, const std::string& ns) {
  auto u = job(name, "", 0, ns);
  u.metadata.labels.clear();
  return u;
}

TEST(SchedulerMetrics, namespace_series_go_after_five_minutes_without_units) {
  SchedulerDriver d;
  const auto u = unlabelled("a", "team");
  d.input(u);
  d.input(unlabelled("b", "other"));
  ASSERT_EQ(coming(d.s, "team", "PyTorchJob", "Enqueued"), 1u);
  const int64_t gone = d.time;
  d.input(u, true);
  EXPECT_EQ(d.s.metrics().namespace_empty_since.at("team"), gone);
  EXPECT_EQ(d.s.next_deadline(), gone + 300 * kSec);
  d.tick(gone + 300 * kSec - 1);
  EXPECT_EQ(coming(d.s, "team", "PyTorchJob", "Enqueued"), 1u);
  d.tick(gone + 300 * kSec);
  EXPECT_EQ(coming(d.s, "team", "PyTorchJob", "Enqueued"), 0u);
  EXPECT_EQ(coming(d.s, "other", "PyTorchJob", "Enqueued"), 1u);
  EXPECT_FALSE(d.s.metrics().namespace_empty_since.count("team"));

  // A unit arriving in time keeps them.
  d.input(unlabelled("b", "other"), true);
  d.at(d.time + 100 * kSec);
  d.input(unlabelled("c", "other"));
  d.tick(d.time + 300 * kSec);
  EXPECT_EQ(coming(d.s, "other", "PyTorchJob", "Enqueued"), 2u);
}

// A namespace is empty only when its last unit goes, whatever the namespaces ordered around it
// ("team-a" < "team" < "teamb" as unit keys) and wherever the deleted unit sits among its own.
TEST(SchedulerMetrics, a_namespace_is_empty_only_when_its_last_unit_goes) {
  SchedulerDriver d;
  d.input(unlabelled("z", "team-a"));
  d.input(unlabelled("a", "teamb"));
  const auto first = unlabelled("a", "team"), middle = unlabelled("m", "team"), last = unlabelled("z", "team");
  d.input(first);
  d.input(middle);
  d.input(last);
  d.input(middle, true);  // units of the namespace on both sides
  EXPECT_FALSE(d.s.metrics().namespace_empty_since.count("team"));
  d.input(first, true);  // the namespace's other unit after it, "team-a"'s before it
  EXPECT_FALSE(d.s.metrics().namespace_empty_since.count("team"));
  d.input(unlabelled("b", "team"));
  d.input(last, true);  // the namespace's other unit before it, "teamb"'s after it
  EXPECT_FALSE(d.s.metrics().namespace_empty_since.count("team"));
  const int64_t gone = d.time;
  d.input(unlabelled("b", "team"), true);
  EXPECT_EQ(d.s.metrics().namespace_empty_since.at("team"), gone);
  EXPECT_FALSE(d.s.metrics().namespace_empty_since.count("team-a"));
  EXPECT_FALSE(d.s.metrics().namespace_empty_since.count("teamb"));
}

TEST(SchedulerMetrics, objects_first_seen_in_a_relist_count_only_when_created_after_the_journals_last_record) {
  struct Row {
    const char* what;
    bool journal_had_records;
    int64_t created;  // relative to the last record before the config record
    bool counted;
  };
  const std::vector<Row> rows = {
      {"created while koordq was down", true, 60 * kSec, true},
      {"existed before", true, -60 * kSec, false},
      {"created at the last record", true, 0, false},
      {"empty journal: existed before start", false, -60 * kSec, false},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.what);
    actors::Scheduler s;
    const int64_t last = 1000 * kSec;
    if (row.journal_had_records) {
      s.advance_to(last);
      s.apply_object(queue("q"), false);
    }
    const int64_t start = last + 120 * kSec;
    s.advance_to(start);
    s.apply_config();
    s.advance_to(start + kMs);
    s.apply_relist(schema::ObjectKind::kQueueUnit, true);
    s.apply_object(job("a", "Running", (row.journal_had_records ? last : start) + row.created), false);
    s.apply_relist(schema::ObjectKind::kQueueUnit, false);
    EXPECT_EQ(coming(s, "default", "PyTorchJob", "Running"), row.counted ? 1u : 0u);
    // Outside a relist every new unit counts.
    s.apply_object(job("b", "Running", 0), false);
    EXPECT_EQ(coming(s, "default", "PyTorchJob", "Running"), row.counted ? 2u : 1u);
  }
}

TEST(SchedulerMetrics, a_phase_change_seen_in_a_relist_is_a_transition) {
  actors::Scheduler s;
  s.advance_to(1000 * kSec);
  auto u = job("a", "Enqueued", 0);
  s.apply_object(u, false);
  s.advance_to(2000 * kSec);
  s.apply_config();
  s.apply_relist(schema::ObjectKind::kQueueUnit, true);
  u.status.phase = "Succeed";
  u.metadata.resource_version = "200";
  s.apply_object(u, false);
  EXPECT_EQ(coming(s, "default", "PyTorchJob", "Succeed"), 1u);
}

TEST(SchedulerMetrics, role_changes_keep_the_counters) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(queue("q"));
  d.input(job("a"));
  const auto before = d.s.metrics();
  d.s.apply_role_acquired();
  EXPECT_EQ(d.s.metrics(), before);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
