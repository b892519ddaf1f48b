// Decisions, rounds and outcomes ↔ record.capnp: lossless for every kind and every optional field,
// and an Error (never a crash) for what a newer binary may write.
#include "actors/wire/decision_wire.hpp"

#include <algorithm>
#include <functional>

#include <capnp/message.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "actors/core/scheduler.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

constexpr int64_t kNow = 1'776'000'000'000'000'000;

Decision round_trip(const Decision& d) {
  capnp::MallocMessageBuilder message;
  write_decision(message.initRoot<wire::Decision>(), d);
  auto back = read_decision(message.getRoot<wire::Decision>().asReader());
  if (!back.ok()) throw std::runtime_error(back.message());
  return std::move(back).value();
}

Outcome round_trip(const Outcome& o) {
  capnp::MallocMessageBuilder message;
  write_outcome(message.initRoot<wire::Outcome>(), o, "the API server's text");
  auto back = read_outcome(message.getRoot<wire::Outcome>().asReader());
  if (!back.ok()) throw std::runtime_error(back.message());
  return std::move(back).value();
}

// Outcome has no operator==; every field counts.
bool same(const Outcome& a, const Outcome& b) {
  return a.decision_seq == b.decision_seq && a.decision_index == b.decision_index && a.write_kind == b.write_kind &&
         a.write_index == b.write_index && a.result == b.result && a.http_code == b.http_code &&
         a.resource_version == b.resource_version && a.target == b.target;
}

UnitRef unit_ref(const std::string& name) {
  return {"team-a", name, "uid-" + name, "quota-a", "queue-a"};
}

schema::Admission admission(const std::string& name, int64_t replicas) {
  schema::Admission a;
  a.name = name;
  a.replicas = replicas;
  a.running = 1;
  a.resources = schema::ResourceList{{"cpu", "2"}, {"memory", "4Gi"}};
  a.reclaim_state = schema::ReclaimState{3};
  return a;
}

StatusPatch full_status_patch() {
  StatusPatch p;
  p.resource_version = "48213";
  p.phase = "Dequeued";
  p.message = "Dequeued because schedule successfully";
  p.attempts = 3;
  p.last_update_time = kNow;
  p.last_allocate_time = kNow - 1;
  p.admissions = std::vector<schema::Admission>{admission("worker", 4), admission("ps", 1)};
  schema::AdmissionCheckState check;
  check.name = "provisioning";
  check.state = "Pending";
  check.last_transition_time = kNow;
  check.message = "waiting";
  check.pod_set_updates_json = R"([{"name":"worker"}])";
  p.admission_checks = std::vector<schema::AdmissionCheckState>{check};
  return p;
}

// Every field set, the queue write as given.
Decision full_decision(DecisionKind kind, QueueWrite write = QueueDelete{}) {
  Decision d;
  d.target = unit_ref("job-1");
  d.kind = kind;
  d.reason = "limited quotaName:quota-a, limited resKey:cpu,; preempt succeed";
  d.status_patch = full_status_patch();
  d.spec_queue_patch = "queue-a";
  d.events = {
      KubeEvent{{"QueueUnit", "scheduling.x-k8s.io/v1alpha1", "team-a", "job-1", "uid-job-1"},
                true,
                "FailedScheduling",
                "日本語 \"quoted\""},
      KubeEvent{
          {"PyTorchJob", "kubeflow.org/v1", "team-a", "job-1", "uid-job"}, false, "Scheduled", "dequeue success"}};
  d.queue_write = std::move(write);
  d.victims = {Victim{unit_ref("victim-1"), 2}, Victim{unit_ref("victim-2"), 0}};
  d.quota_check = {QuotaCheckStep{"quota-a", "cpu", 1000, 2000, 4000, true},
                   QuotaCheckStep{"quota-root", "nvidia.com/gpu", 8, 1, 8, false}};
  return d;
}

TEST(DecisionWire, every_decision_kind_round_trips_with_every_field_set) {
  for (uint16_t k = 0; k <= static_cast<uint16_t>(DecisionKind::kInvalidQuantities); ++k) {
    const Decision d = full_decision(static_cast<DecisionKind>(k));
    EXPECT_EQ(round_trip(d), d) << decision_kind_name(d.kind);
  }
}

TEST(DecisionWire, a_decision_with_every_optional_absent_round_trips) {
  Decision d;
  d.target = QueueRef{"queue-a"};
  d.kind = DecisionKind::kAddQueueFail;
  EXPECT_EQ(round_trip(d), d);
}

TEST(DecisionWire, present_but_empty_values_stay_distinct_from_absent_ones) {
  Decision d = full_decision(DecisionKind::kAdmissionCheckFailed);
  d.spec_queue_patch = "";
  d.status_patch = StatusPatch{};
  d.status_patch->phase = "";
  d.status_patch->message = "";
  d.status_patch->attempts = 0;
  d.status_patch->last_update_time = 0;
  d.status_patch->last_allocate_time = 0;
  d.status_patch->admissions = std::vector<schema::Admission>{};
  d.status_patch->admission_checks = std::vector<schema::AdmissionCheckState>{};
  const Decision back = round_trip(d);
  EXPECT_EQ(back, d);
  EXPECT_TRUE(back.spec_queue_patch.has_value());
  EXPECT_TRUE(back.status_patch->admissions.has_value());
}

TEST(DecisionWire, each_status_patch_key_round_trips_alone) {
  const StatusPatch full = full_status_patch();
  const std::vector<std::function<void(StatusPatch&)>> set_one = {
      [&](StatusPatch& p) { p.phase = full.phase; },
      [&](StatusPatch& p) { p.message = full.message; },
      [&](StatusPatch& p) { p.attempts = full.attempts; },
      [&](StatusPatch& p) { p.last_update_time = full.last_update_time; },
      [&](StatusPatch& p) { p.last_allocate_time = full.last_allocate_time; },
      [&](StatusPatch& p) { p.admissions = full.admissions; },
      [&](StatusPatch& p) { p.admission_checks = full.admission_checks; },
  };
  for (size_t i = 0; i < set_one.size(); ++i) {
    Decision d;
    d.target = unit_ref("job-1");
    d.kind = DecisionKind::kFail;
    d.status_patch = StatusPatch{};
    d.status_patch->resource_version = "7";
    set_one[i](*d.status_patch);
    EXPECT_EQ(round_trip(d), d) << "key " << i;
  }
}

TEST(DecisionWire, every_queue_write_round_trips) {
  schema::QueueItemDetails details;
  details.active = {schema::QueueItem{"job-1", "team-a", 5, 1}, schema::QueueItem{"job-2", "team-b", std::nullopt, 2}};
  details.backoff = {schema::QueueItem{"job-3", "team-a", -1, 3}};
  schema::Queue created;
  created.metadata.name = "quota-a";
  created.metadata.namespace_ = "koord-queue";
  created.metadata.labels = {{"koord-queue/queue-policy", "Block"}};
  created.spec.queue_policy = "Block";
  QueuePatch patch;
  patch.queue_policy = "Priority";
  patch.labels = {{"team", "a"}, {"gone", std::nullopt}};
  patch.annotations = {{"koord-queue/max-depth", "10"}, {"empty", ""}, {"removed", std::nullopt}};
  const std::vector<QueueWrite> writes = {
      details,
      schema::QueueItemDetails{},
      UsageAnnotations{{"alibabacloud.com/queue-used", R"({"cpu":2000})"}},
      UsageAnnotations{},
      created,
      patch,
      QueuePatch{},
      QueueDelete{},
  };
  for (size_t i = 0; i < writes.size(); ++i) {
    Decision d;
    d.target = QueueRef{"quota-a"};
    d.kind = DecisionKind::kPublishQueueItems;
    d.queue_write = writes[i];
    EXPECT_EQ(round_trip(d), d) << "write " << i;
  }
}

// Usage annotations are written in the bytewise order of their names, as the map they once were;
// of duplicate names the first wins; a name that is none of the six fails the decision.
TEST(DecisionWire, usage_annotations_are_the_six_names_in_bytewise_order) {
  Decision d;
  d.target = QueueRef{"quota-a"};
  d.kind = DecisionKind::kQueueUsageAnnotations;
  d.queue_write = UsageAnnotations{{"alibabacloud.com/queue-used", "{}"},
                                   {"alibabacloud.com/queue-children-guaranteed-used", R"({"cpu":1})"},
                                   {"alibabacloud.com/queue-self-used", R"({"cpu":2})"}};
  capnp::MallocMessageBuilder message;
  auto out = message.initRoot<wire::Decision>();
  write_decision(out, d);
  std::vector<std::string> names;
  for (auto e : out.asReader().getQueueWrite().getValue().getUsageAnnotations()) names.push_back(e.getKey());
  EXPECT_EQ(names, (std::vector<std::string>{"alibabacloud.com/queue-children-guaranteed-used",
                                             "alibabacloud.com/queue-self-used", "alibabacloud.com/queue-used"}));

  auto entries = out.getQueueWrite().getValue().initUsageAnnotations(2);
  entries[0].setKey("alibabacloud.com/queue-used");
  entries[0].setValue("first");
  entries[1].setKey("alibabacloud.com/queue-used");
  entries[1].setValue("second");
  auto back = read_decision(out.asReader());
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(std::get<UsageAnnotations>(*back->queue_write).at("alibabacloud.com/queue-used"), "first");

  out.getQueueWrite().getValue().initUsageAnnotations(1)[0].setKey("example.com/other");
  back = read_decision(out.asReader());
  ASSERT_FALSE(back.ok());
  EXPECT_THAT(back.message(), ::testing::HasSubstr("usage annotation \"example.com/other\" is none of the six"));
}

TEST(DecisionWire, a_round_keeps_its_decisions_in_order) {
  const std::vector<Decision> decisions = {full_decision(DecisionKind::kFail),
                                           full_decision(DecisionKind::kPreempt, QueuePatch{}),
                                           full_decision(DecisionKind::kAdmit)};
  auto body = make_round_body(41, decisions);
  testing::RecordChain chain;
  const auto stored = chain.append(*body, kNow);
  EXPECT_EQ(stored.kind(), journal::RecordKind::kRound);
  EXPECT_EQ(stored.reader().getBody().getRound().getBasis(), 41u);
  auto back = read_round(stored.reader().getBody().getRound());
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(*back, decisions);
}

TEST(DecisionWire, the_fold_reads_a_round_without_its_events_quota_check_steps_and_unit_reasons) {
  Decision queue_decision;
  queue_decision.target = QueueRef{"queue-a"};
  queue_decision.kind = DecisionKind::kInvalidRefreshInterval;
  queue_decision.reason = "invalid refresh interval 5x";  // a Queue's reason is kept
  const std::vector<Decision> decisions = {full_decision(DecisionKind::kFail),
                                           full_decision(DecisionKind::kPreempt, QueuePatch{}),
                                           full_decision(DecisionKind::kAdmit), queue_decision};
  auto body = make_round_body(41, decisions);
  auto kept = read_round_kept(body->record().asReader().getBody().getRound());
  ASSERT_TRUE(kept.ok()) << kept.message();
  std::vector<Decision> expected = decisions;
  for (auto& d : expected) {
    if (std::holds_alternative<QueueRef>(d.target)) continue;
    ASSERT_FALSE(d.events.empty());
    d.events.clear();
    d.quota_check.clear();
    d.reason.clear();
  }
  EXPECT_EQ(*kept, expected);
}

TEST(DecisionWire, the_fold_fails_on_an_unknown_event_type_as_the_whole_reader_does) {
  auto body = make_round_body(3, {full_decision(DecisionKind::kAdmit), full_decision(DecisionKind::kFail)});
  body->record().getBody().getRound().getDecisions()[1].getEvents()[1].setType(static_cast<wire::KubeEvent::Type>(9));
  const auto round = body->record().asReader().getBody().getRound();
  auto kept = read_round_kept(round);
  ASSERT_FALSE(kept.ok());
  EXPECT_EQ(kept.message(), "decision 1: event 1: unknown event type 9");
  EXPECT_EQ(read_round(round).message(), kept.message());
}

TEST(DecisionWire, an_empty_round_reads_as_no_decisions) {
  auto body = make_round_body(7, {});
  auto back = read_round(body->record().asReader().getBody().getRound());
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->empty());
}

TEST(DecisionWire, an_unknown_decision_kind_is_an_error) {
  capnp::MallocMessageBuilder message;
  auto d = message.initRoot<wire::Decision>();
  write_decision(d, full_decision(DecisionKind::kAdmit));
  d.setKind(static_cast<wire::Decision::Kind>(200));
  auto back = read_decision(d.asReader());
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.message(), "unknown decision kind 200");
}

TEST(DecisionWire, an_unknown_event_type_is_an_error_naming_the_event) {
  capnp::MallocMessageBuilder message;
  auto d = message.initRoot<wire::Decision>();
  write_decision(d, full_decision(DecisionKind::kFail));
  d.getEvents()[1].setType(static_cast<wire::KubeEvent::Type>(9));
  auto back = read_decision(d.asReader());
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.message(), "event 1: unknown event type 9");
}

TEST(DecisionWire, a_round_names_the_decision_that_does_not_decode) {
  auto body = make_round_body(3, {full_decision(DecisionKind::kAdmit), full_decision(DecisionKind::kFail)});
  body->record().getBody().getRound().getDecisions()[1].setKind(static_cast<wire::Decision::Kind>(77));
  auto back = read_round(body->record().asReader().getBody().getRound());
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.message(), "decision 1: unknown decision kind 77");
}

TEST(DecisionWire, a_decision_over_malformed_bytes_is_an_error_not_a_crash) {
  // The root Decision has one data word and one pointer (its target), which points far outside
  // the three-word segment.
  const uint64_t root = (uint64_t{1} << 48) | (uint64_t{1} << 32);
  const uint64_t target = (uint64_t{1} << 32) | (uint64_t{0x100000} << 2);
  alignas(capnp::word) const uint64_t words[3] = {root, 0, target};
  const kj::ArrayPtr<const capnp::word> segment(reinterpret_cast<const capnp::word*>(words), 3);
  capnp::SegmentArrayMessageReader reader(kj::arrayPtr(&segment, 1));
  auto back = read_decision(reader.getRoot<wire::Decision>());
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.message().rfind("malformed decision: ", 0), 0u) << back.message();
}

TEST(OutcomeWire, every_result_and_write_kind_round_trips) {
  for (auto result : {OutcomeResult::kSuccess, OutcomeResult::kConflict, OutcomeResult::kNotFound,
                      OutcomeResult::kError, OutcomeResult::kUnknown}) {
    for (auto kind : {WriteKind::kStatusPatch, WriteKind::kSpecQueuePatch, WriteKind::kQueueWrite, WriteKind::kEvent}) {
      Outcome o;
      o.decision_seq = 1234;
      o.decision_index = 5;
      o.write_kind = kind;
      o.write_index = 2;
      o.result = result;
      o.http_code = 409;
      o.resource_version = "98765";
      o.target = unit_ref("job-1");
      EXPECT_TRUE(same(round_trip(o), o));
      o.target = QueueRef{"queue-a"};
      EXPECT_TRUE(same(round_trip(o), o));
    }
  }
}

TEST(OutcomeWire, the_outcome_body_carries_the_api_servers_message) {
  Outcome o;
  o.result = OutcomeResult::kError;
  o.http_code = 422;
  o.target = unit_ref("job-1");
  auto body = make_outcome_body(o, "admission webhook denied");
  const auto out = body->record().asReader().getBody().getOutcome();
  EXPECT_EQ(std::string(out.getMessage().cStr()), "admission webhook denied");
  auto back = read_outcome(out);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(same(*back, o));
}

TEST(OutcomeWire, unknown_results_and_write_kinds_are_errors) {
  capnp::MallocMessageBuilder message;
  auto o = message.initRoot<wire::Outcome>();
  write_outcome(o, Outcome{});
  o.setResult(static_cast<wire::Outcome::Result>(12));
  EXPECT_EQ(read_outcome(o.asReader()).message(), "unknown outcome result 12");
  o.setResult(wire::Outcome::Result::SUCCESS);
  o.setWriteKind(static_cast<wire::Outcome::WriteKind>(8));
  EXPECT_EQ(read_outcome(o.asReader()).message(), "unknown outcome write kind 8");
}

TEST(InputBodies, role_relist_and_tick_bodies_carry_their_fields) {
  auto role = make_role_body(RoleEvent::kAcquired, "koordq-0", 4);
  const auto r = role->record().asReader().getBody().getRole();
  EXPECT_EQ(r.getEvent(), wire::Role::Event::ACQUIRED);
  EXPECT_EQ(std::string(r.getIdentity().cStr()), "koordq-0");
  EXPECT_EQ(r.getLeaseTransitions(), 4);
  EXPECT_EQ(make_role_body(RoleEvent::kLost, "koordq-0", 5)->record().asReader().getBody().getRole().getEvent(),
            wire::Role::Event::LOST);

  auto relist = make_relist_body(RelistPhase::kEnd, schema::ObjectKind::kElasticQuota, "777");
  const auto l = relist->record().asReader().getBody().getRelist();
  EXPECT_EQ(l.getPhase(), wire::Relist::Phase::END);
  EXPECT_EQ(l.getResource(), wire::Resource::ELASTIC_QUOTAS);
  EXPECT_EQ(std::string(l.getResourceVersion().cStr()), "777");

  EXPECT_EQ(make_tick_body()->kind(), journal::RecordKind::kTick);
}

// The fold applies rounds as read_round_kept gives them, without the reasons of unit decisions:
// what a decision's apply records must not come from its reason. An invalidQuantities report folded
// from its record is not reported again (on a real API server it was, every round).
TEST(RoundWire, an_invalid_quantities_report_folded_from_its_record_is_not_decided_again) {
  Scheduler s;
  s.advance_to(1'000'000'000);
  schema::ElasticQuota quota;
  quota.metadata.name = "team-a";
  quota.metadata.namespace_ = "default";
  quota.metadata.uid = "uid-quota";
  quota.spec.max = {{"cpu", "4"}};
  s.apply_object(schema::WatchedObject(quota), false);
  schema::Queue queue;
  queue.metadata.name = "team-a";
  queue.metadata.namespace_ = "koord-queue";
  queue.metadata.uid = "uid-queue";
  s.apply_object(schema::WatchedObject(queue), false);
  schema::QueueUnit unit;
  unit.metadata.name = "bad";
  unit.metadata.namespace_ = "default";
  unit.metadata.uid = "uid-bad";
  unit.metadata.resource_version = "100";
  unit.metadata.labels["quota.scheduling.koordinator.sh/name"] = "team-a";
  unit.spec.resource = {{"cpu", "abc"}};
  s.apply_object(schema::WatchedObject(unit), false);

  const auto decisions = s.decide();
  ASSERT_EQ(std::count_if(decisions.begin(), decisions.end(),
                          [](const Decision& d) { return d.kind == DecisionKind::kInvalidQuantities; }),
            1);
  auto body = make_round_body(3, decisions);
  auto kept = read_round_kept(body->record().asReader().getBody().getRound());
  ASSERT_TRUE(kept.ok()) << kept.message();
  s.apply_round(4, std::move(kept).value());
  const auto again = s.decide();
  EXPECT_TRUE(std::none_of(again.begin(), again.end(),
                           [](const Decision& d) { return d.kind == DecisionKind::kInvalidQuantities; }));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
