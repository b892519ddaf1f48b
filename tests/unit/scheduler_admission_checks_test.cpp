// Admission checks (behaviour.md §10), one row per rule: which checks apply, what an admission
// from Enqueued writes, the verdicts on a Reserved unit, and a Reserved unit's list following
// changes of its Queue's checks and of its own labels.
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

constexpr char kRemoved[] = "AdmisssionCheck is removed from queue";

schema::AdmissionCheckState check(const std::string& name, const std::string& state, const std::string& message = "") {
  schema::AdmissionCheckState c;
  c.name = name;
  c.state = state;
  c.last_transition_time = 7 * kSec;
  c.message = message;
  c.pod_set_updates_json = "[]";
  return c;
}

schema::QueueAdmissionCheck queue_check(const std::string& name, std::optional<schema::LabelSelector> s = {}) {
  return {name, std::move(s)};
}

schema::Queue queue_with(std::vector<schema::QueueAdmissionCheck> checks) {
  auto q = queue("q");
  q.spec.admission_checks = std::move(checks);
  return q;
}

schema::QueueUnit reserved(std::vector<schema::AdmissionCheckState> checks, schema::StringMap labels = {}) {
  auto u = unit("job", "q", "1");
  for (const auto& [k, v] : labels) u.metadata.labels[k] = v;
  u.spec.queue = "q";  // written with the reservation
  u.status.phase = "Reserved";
  u.status.message = "Reserved resources success, waiting admission checks to be ready";
  u.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 0, std::nullopt}};
  u.status.admission_checks = std::move(checks);
  return u;
}

// The decisions about `job` in the round after it is first seen.
std::vector<actors::Decision> first_round(const schema::Queue& q, const schema::QueueUnit& u, SchedulerDriver& d) {
  d.input(quota("q", "", {{"cpu", "10"}}));
  d.input(q);
  std::vector<actors::Decision> out;
  for (auto& x : d.input(u)) {
    if (std::holds_alternative<actors::UnitRef>(x.target)) out.push_back(std::move(x));
  }
  return out;
}

TEST(SchedulerAdmissionChecks, a_check_applies_when_its_selector_matches_the_unit_labels) {
  using Req = schema::LabelSelectorRequirement;
  struct Row {
    const char* what;
    std::optional<schema::LabelSelector> selector;
    bool applies;
  };
  const schema::StringMap labels = {{"team", "a"}, {"gpu", "true"}};
  const std::vector<Row> rows = {
      {"absent selector", std::nullopt, true},
      {"empty selector", schema::LabelSelector{}, true},
      {"matchLabels match", schema::LabelSelector{{{"team", "a"}}, {}}, true},
      {"matchLabels differ", schema::LabelSelector{{{"team", "b"}}, {}}, false},
      {"matchLabels missing", schema::LabelSelector{{{"zone", "x"}}, {}}, false},
      {"In", schema::LabelSelector{{}, {Req{"team", "In", {"b", "a"}}}}, true},
      {"In, not listed", schema::LabelSelector{{}, {Req{"team", "In", {"b"}}}}, false},
      {"In, no label", schema::LabelSelector{{}, {Req{"zone", "In", {"x"}}}}, false},
      {"NotIn", schema::LabelSelector{{}, {Req{"team", "NotIn", {"b"}}}}, true},
      {"NotIn, listed", schema::LabelSelector{{}, {Req{"team", "NotIn", {"a"}}}}, false},
      {"NotIn, no label", schema::LabelSelector{{}, {Req{"zone", "NotIn", {"x"}}}}, true},
      {"Exists", schema::LabelSelector{{}, {Req{"gpu", "Exists", {}}}}, true},
      {"Exists, no label", schema::LabelSelector{{}, {Req{"zone", "Exists", {}}}}, false},
      {"DoesNotExist", schema::LabelSelector{{}, {Req{"zone", "DoesNotExist", {}}}}, true},
      {"DoesNotExist, label", schema::LabelSelector{{}, {Req{"gpu", "DoesNotExist", {}}}}, false},
      {"all of them",
       schema::LabelSelector{{{"team", "a"}}, {Req{"gpu", "Exists", {}}, Req{"zone", "DoesNotExist", {}}}}, true},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.what);
    auto u = unit("job", "q", "1");
    u.metadata.labels.insert(labels.begin(), labels.end());
    const auto applicable = actors::applicable_checks(queue_with({queue_check("c", row.selector)}), u);
    EXPECT_EQ(applicable.size(), row.applies ? 1u : 0u);
  }
}

TEST(SchedulerAdmissionChecks, an_admission_from_enqueued_resets_the_applicable_and_retires_the_others) {
  SchedulerDriver d;
  auto u = unit("job", "q", "1");
  u.status.admission_checks = {check("a", "Ready", "old"), check("gone", "Rejected")};
  const auto ds = first_round(queue_with({queue_check("a"), queue_check("b")}), u, d);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].kind, DecisionKind::kReserve);
  const auto& checks = *ds[0].status_patch->admission_checks;
  ASSERT_EQ(checks.size(), 3u);
  for (int i : {0, 1}) {
    EXPECT_EQ(checks[i].name, i == 0 ? "a" : "b");
    EXPECT_EQ(checks[i].state, "Pending");
    EXPECT_EQ(checks[i].message, "");
    EXPECT_EQ(checks[i].last_transition_time, d.time);
    EXPECT_EQ(checks[i].pod_set_updates_json, "[]");
  }
  EXPECT_EQ(checks[2].name, "gone");
  EXPECT_EQ(checks[2].state, "Ready");
  EXPECT_EQ(checks[2].message, kRemoved);
}

TEST(SchedulerAdmissionChecks, a_top_up_never_goes_through_admission_checks) {
  SchedulerDriver d;
  auto u = half_admitted_workers(unit("job", "q", "1"));
  u.spec.queue = "q";
  u.status.phase = "Running";
  const auto ds = first_round(queue_with({queue_check("a")}), u, d);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].kind, DecisionKind::kAdmit);
  EXPECT_FALSE(ds[0].status_patch->phase.has_value());
  EXPECT_FALSE(ds[0].status_patch->admission_checks.has_value());
}

struct VerdictRow {
  const char* what;
  std::vector<schema::QueueAdmissionCheck> queue_checks;
  std::vector<schema::AdmissionCheckState> unit_checks;
  std::optional<DecisionKind> kind;                              // std::nullopt: no decision
  std::optional<std::vector<schema::AdmissionCheckState>> list;  // the admissionChecks written
};

TEST(SchedulerAdmissionChecks, a_reserved_unit_gets_the_verdict_of_its_applicable_checks) {
  const auto selected = schema::LabelSelector{{{"gpu", "true"}}, {}};
  const auto now_pending = [](const std::string& name) {
    auto c = check(name, "Pending");
    c.last_transition_time = 1000 * kSec;  // the driver's now
    return c;
  };
  const std::vector<VerdictRow> rows = {
      {"pending", {queue_check("a")}, {check("a", "Pending")}, std::nullopt, std::nullopt},
      {"one of two ready",
       {queue_check("a"), queue_check("b")},
       {check("a", "Ready"), check("b", "Pending")},
       std::nullopt,
       std::nullopt},
      {"all ready",
       {queue_check("a"), queue_check("b")},
       {check("a", "Ready"), check("b", "Ready")},
       DecisionKind::kAdmissionChecksReady,
       std::nullopt},
      {"rejected", {queue_check("a")}, {check("a", "Rejected")}, DecisionKind::kAdmissionCheckFailed, std::nullopt},
      {"retry", {queue_check("a")}, {check("a", "Retry")}, DecisionKind::kAdmissionCheckFailed, std::nullopt},
      {"rejected beside ready",
       {queue_check("a"), queue_check("b")},
       {check("a", "Ready"), check("b", "Rejected")},
       DecisionKind::kAdmissionCheckFailed,
       std::nullopt},
      {"a retired entry stays retired",
       {queue_check("a")},
       {check("a", "Rejected"), check("b", "Ready", kRemoved)},
       DecisionKind::kAdmissionCheckFailed,
       std::nullopt},
      {"a new queue check is appended pending",
       {queue_check("a"), queue_check("b")},
       {check("a", "Pending")},
       DecisionKind::kAdmissionChecksUpdated,
       std::vector{check("a", "Pending"), now_pending("b")}},
      {"a removed queue check is set ready",
       {queue_check("a")},
       {check("a", "Pending"), check("b", "Pending")},
       DecisionKind::kAdmissionChecksUpdated,
       std::vector{check("a", "Pending"), check("b", "Ready", kRemoved)}},
      {"a removed rejected check fails nobody",
       {queue_check("a")},
       {check("a", "Ready"), check("b", "Rejected")},
       DecisionKind::kAdmissionChecksReady,
       std::vector{check("a", "Ready"), check("b", "Ready", kRemoved)}},
      {"every check removed",
       {},
       {check("a", "Pending")},
       DecisionKind::kAdmissionChecksReady,
       std::vector{check("a", "Ready", kRemoved)}},
      {"a check no longer selecting the unit",
       {queue_check("a", selected)},
       {check("a", "Rejected")},
       DecisionKind::kAdmissionChecksReady,
       std::vector{check("a", "Ready", kRemoved)}},
      {"a rejection beside a new check",
       {queue_check("a"), queue_check("b")},
       {check("a", "Rejected")},
       DecisionKind::kAdmissionCheckFailed,
       std::vector{check("a", "Rejected"), now_pending("b")}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.what);
    SchedulerDriver d;
    const auto ds = first_round(queue_with(row.queue_checks), reserved(row.unit_checks), d);
    if (!row.kind) {
      EXPECT_TRUE(ds.empty());
      continue;
    }
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].kind, *row.kind);
    const auto& p = *ds[0].status_patch;
    EXPECT_EQ(p.last_update_time, d.time);
    EXPECT_EQ(p.admission_checks, row.list);
    EXPECT_FALSE(p.attempts.has_value());  // not an attempt (§9)
    switch (*row.kind) {
      case DecisionKind::kAdmissionChecksReady:
        EXPECT_EQ(p.phase, "Dequeued");
        EXPECT_EQ(p.message, "all admission checks success");
        ASSERT_EQ(ds[0].events.size(), 1u);
        EXPECT_EQ(ds[0].events[0].reason, "Scheduled");
        EXPECT_EQ(ds[0].events[0].message, "dequeue success");
        break;
      case DecisionKind::kAdmissionCheckFailed:
        EXPECT_EQ(p.phase, "TimeoutBackoff");
        EXPECT_EQ(p.message, "admission check failed");
        EXPECT_EQ(p.admissions, std::vector<schema::Admission>{});
        EXPECT_TRUE(ds[0].events.empty());
        break;
      default:
        EXPECT_FALSE(p.phase.has_value());
        EXPECT_FALSE(p.message.has_value());
        EXPECT_FALSE(p.admissions.has_value());
        EXPECT_TRUE(ds[0].events.empty());
        break;
    }
  }
}

TEST(SchedulerAdmissionChecks, a_queue_checks_change_while_reserved_is_written_once) {
  SchedulerDriver d;
  auto u = reserved({check("a", "Pending")});
  ASSERT_TRUE(first_round(queue_with({queue_check("a")}), u, d).empty());
  auto q = queue_with({queue_check("a"), queue_check("b")});
  q.metadata.resource_version = "2";
  const auto decided = d.input(q);
  const uint64_t round_seq = d.last_round_seq;
  const auto round = of_kind(decided, DecisionKind::kAdmissionChecksUpdated);
  ASSERT_EQ(round.size(), 1u);
  // Not again while the write is in flight, nor once it landed and was seen.
  EXPECT_TRUE(of_kind(d.tick(d.time + kSec), DecisionKind::kAdmissionChecksUpdated).empty());
  actors::Outcome landed;
  landed.decision_seq = round_seq;
  landed.target = round[0]->target;
  landed.resource_version = "101";
  d.s.apply_outcome(landed);
  u.status = actors::merged(u.status, *round[0]->status_patch);
  u.metadata.resource_version = "101";
  EXPECT_TRUE(of_kind(d.input(u), DecisionKind::kAdmissionChecksUpdated).empty());
  // The unit's Ready for both dequeues it.
  for (auto& c : u.status.admission_checks) c.state = "Ready";
  u.metadata.resource_version = "102";
  EXPECT_EQ(of_kind(d.input(u), DecisionKind::kAdmissionChecksReady).size(), 1u);
}

TEST(SchedulerAdmissionChecks, a_failed_update_is_decided_again) {
  SchedulerDriver d;
  const auto ds = first_round(queue_with({queue_check("a"), queue_check("b")}), reserved({check("a", "Pending")}), d);
  ASSERT_EQ(ds.size(), 1u);
  d.outcome(ds[0], actors::OutcomeResult::kConflict);
  EXPECT_EQ(of_kind(d.tick(d.time + kSec), DecisionKind::kAdmissionChecksUpdated).size(), 1u);
}

TEST(SchedulerAdmissionChecks, a_label_change_of_a_reserved_unit_reevaluates_which_checks_apply) {
  SchedulerDriver d;
  const auto selected = schema::LabelSelector{{{"gpu", "true"}}, {}};
  auto u = reserved({check("a", "Ready"), check("g", "Pending")}, {{"gpu", "true"}});
  ASSERT_TRUE(first_round(queue_with({queue_check("a"), queue_check("g", selected)}), u, d).empty());
  u.metadata.labels.erase("gpu");
  u.metadata.resource_version = "101";
  const auto decided = d.input(u);
  const auto ready = of_kind(decided, DecisionKind::kAdmissionChecksReady);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0]->status_patch->admission_checks,
            (std::vector{check("a", "Ready"), check("g", "Ready", kRemoved)}));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
