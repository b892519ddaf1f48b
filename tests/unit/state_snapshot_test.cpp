// State snapshots (actors/wire/state_snapshot.hpp, state_restore.hpp): a state with something in
// every field survives encode → decode exactly and re-encodes to the same bytes; bad bytes, other
// decision-logic versions and other configurations are Errors; restoring from a real journal (a
// snapshot plus the records after it) is the full replay.
#include "actors/wire/state_snapshot.hpp"

#include <cstddef>
#include <functional>
#include <future>
#include <iostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <capnp/message.h>
#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "journal/watch_record.hpp"
#include "replay/state_diff.hpp"
#include "schema/snapshot.capnp.h"
#include "schema/state.capnp.h"
#include "schema/wire_message.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

using actors::DecisionKind;
using actors::Phase;

// --- every field is in the snapshot ----------------------------------------------------------------

// The number of fields of an aggregate: the most initializers it accepts.
struct AnyField {
  template <class T>
  operator T&() const;  // NOLINT: converts to every member type, never called
};

template <class T, std::size_t... I>
constexpr bool initializable_with(std::index_sequence<I...>) {
  return requires {
    T{((void)I, AnyField{})...};
  };
}

template <class T, std::size_t N = 0>
constexpr std::size_t field_count() {
  if constexpr (N > 64) {
    return N;
  } else if constexpr (initializable_with<T>(std::make_index_sequence<N + 1>{})) {
    return field_count<T, N + 1>();
  } else {
    return N;
  }
}

// A field added to a state struct must be added to state.capnp and actors/wire/state_fields.cpp
// (and to replay/state_diff.cpp); then raise the count here.
// UnitState's last two fields (`indexed_in`, `queue`) are derived: a restore rebuilds them.
static_assert(field_count<actors::UnitState>() == 32, "UnitState changed: snapshot the new field");
// QueueState's last four fields (`housekeeping`, `not_waiting`, `backoff`, `timer`) are derived
// indexes, not snapshotted: decoding rebuilds them (Scheduler::rebuild_indexes), and state_diff
// compares them.
static_assert(field_count<actors::QueueState>() == 23, "QueueState changed: snapshot the new field");
static_assert(field_count<actors::QueueSettings>() == 8, "QueueSettings changed: snapshot the new field");
static_assert(field_count<actors::QuotaInfo>() == 12, "QuotaInfo changed: snapshot the new field");
static_assert(field_count<actors::QuotaUsage>() == 4, "QuotaUsage changed: snapshot the new field");
static_assert(field_count<actors::OrderKey>() == 3, "OrderKey changed: snapshot the new field");
static_assert(field_count<actors::DecisionConfig>() == 7, "DecisionConfig changed: snapshot the new field");
static_assert(field_count<actors::QueueItems>() == 3, "QueueItems changed: snapshot the new field");
static_assert(field_count<actors::AutoQueue>() == 5, "AutoQueue changed: snapshot the new field");
static_assert(field_count<actors::Histogram>() == 4, "Histogram changed: snapshot the new field");
static_assert(field_count<actors::QueueingMetrics>() == 5, "QueueingMetrics changed: snapshot the new field");
// Scheduler and QuotaTree are classes: their size stands in for the count (x86-64, libstdc++).
// Scheduler's last three members (`queue_timers_`, `unmapped_pending_`, `execution_limited_`,
// 48 bytes each) are derived indexes: decoding rebuilds them, and state_diff compares them.
// QuotaTree's last three members (`children_`, `paths_`, `usage_paths_`) are derived the same way
// (QuotaTree::reindex); the first two are compared through QuotaTree's operator==, the third
// points into the tree's own usage entries.
static_assert(sizeof(actors::Scheduler) == 1000, "Scheduler changed: snapshot and copy the new member");
static_assert(sizeof(actors::QuotaTree) == 336, "QuotaTree changed: snapshot the new member");

// --- a driver that journals what it does ------------------------------------------------------------

constexpr char kUuid[] = "00000000-0000-4000-8000-0000000000aa";

// Inputs and rounds as records, folded with apply_record the way the router does: into an
// in-memory chain, or into a real journal when one is given.
class RecordedRun {
 public:
  // With a journal, its record clock reads `*clock`, which follows `time`.
  explicit RecordedRun(actors::DecisionConfig config = {}, journal::Journal* journal = nullptr,
                       int64_t* clock = nullptr)
      : live(std::move(config)), journal_(journal), clock_(clock), chain_(kUuid) {}

  std::vector<actors::Decision> input(const schema::WatchedObject& o, bool deleted = false) {
    schema::WatchEvent event;
    event.type = deleted ? schema::WatchEventType::kDeleted : schema::WatchEventType::kModified;
    event.object = o;
    append(journal::make_watch_body(event, schema::RawObjectMode::kOff));
    return round();
  }
  std::vector<actors::Decision> tick(int64_t t) {
    time = t;
    append(actors::make_tick_body());
    return round();
  }
  // The answer to the status write of `d`, decided by the round record `round_seq`.
  std::vector<actors::Decision> outcome(const actors::Decision& d, uint64_t round_seq, actors::OutcomeResult result,
                                        const std::string& rv = "") {
    actors::Outcome o;
    o.decision_seq = round_seq;
    o.target = d.target;
    o.result = result;
    o.http_code = result == actors::OutcomeResult::kSuccess ? 200 : 409;
    o.resource_version = rv;
    append(actors::make_outcome_body(o));
    return round();
  }
  void role_acquired() {
    append(actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", ++lease_transitions_));
    round();
  }
  std::vector<actors::Decision> round() {
    const uint64_t basis = last_seq();
    auto decisions = live.decide();
    append(actors::make_round_body(basis, decisions));
    last_round_seq = last_seq();
    return decisions;
  }

  uint64_t last_seq() const { return records.empty() ? 0 : records.back().seq(); }
  int64_t last_time() const { return records.empty() ? 0 : records.back().time(); }

  actors::Scheduler live;
  int64_t time = 1000 * kSec;
  uint64_t last_round_seq = 0;
  std::vector<journal::StoredRecord> records;

 private:
  void append(std::unique_ptr<journal::CapnpRecordBody> body) {
    journal::StoredRecord stored =
        journal_ == nullptr ? chain_.append(*body, time) : append_to_journal(std::move(body));
    const auto applied = actors::apply_record(live, stored);
    if (!applied.ok()) throw std::runtime_error(applied.message());
    records.push_back(std::move(stored));
  }

  journal::StoredRecord append_to_journal(std::unique_ptr<journal::CapnpRecordBody> body) {
    *clock_ = time;
    std::promise<Result<journal::AppendedRecord>> done;
    journal_->writer().append(std::move(body), [&](const Result<journal::AppendedRecord>& r) { done.set_value(r); });
    const auto appended = done.get_future().get();
    if (!appended.ok()) throw std::runtime_error(appended.message());
    auto stored = journal_->reader().get(appended->seq);
    if (!stored.ok() || !stored->has_value()) throw std::runtime_error("appended record not readable");
    return std::move(**stored);
  }

  journal::Journal* journal_;
  int64_t* clock_;
  RecordChain chain_;
  int32_t lease_transitions_ = 0;
};

const schema::StringMap kPreemptive = {{"koord-queue/wait-for-pods-running", "true"},
                                       {"koord-queue/enable-queueunit-preemption", "true"}};

schema::QueueUnit observed(const std::string& name, const std::string& quota_label, const std::string& phase,
                           int64_t created, const std::string& cpu = "1") {
  schema::QueueUnit u = unit(name, quota_label, cpu, 0, created);
  u.status.phase = phase;
  if (phase == "Reserved" || phase == "Dequeued" || phase == "Running" || phase == "SchedReady") {
    u.status.admissions = {
        {std::string(actors::kDefaultPodSet), 1, std::nullopt, phase == "Running" ? 1 : 0, std::nullopt}};
  }
  return u;
}

schema::QueueUnit admitted(const std::string& name, const std::string& quota_label, int32_t priority, int64_t replicas,
                           int64_t running, int64_t created) {
  schema::QueueUnit u = unit(name, quota_label, "1", priority, created);
  u.spec.resource.clear();
  u.spec.request.clear();
  schema::PodSet ps;
  ps.name = "worker";
  ps.count = replicas;
  ps.containers.push_back({"main", {{"cpu", "1"}}, {}});
  u.spec.pod_set.push_back(ps);
  u.status.phase = running == replicas ? "Running" : "Dequeued";
  u.status.admissions = {{"worker", replicas, std::nullopt, running, std::nullopt}};
  u.status.last_allocate_time = 0;
  return u;
}

// Part 1: quotas (one name twice), queues of each policy, units observed in every phase.
void build_part1(RecordedRun& r) {
  r.input(quota("main", "", {{"cpu", "8"}, {"memory", "16Gi"}}, 10));
  auto twin = quota("main", "", {{"cpu", "1"}}, 20);
  twin.metadata.namespace_ = "other";
  twin.metadata.uid = "uid-quota-main-other";
  r.input(twin);  // name collision: the older one in "default" counts
  r.input(quota("child", "main", {{"cpu", "4"}}, 30));
  r.input(quota("blocky", "", {{"cpu", "2"}}, 40));
  r.input(quota("pre", "", {{"cpu", "4"}}, 50));
  r.input(quota("orphan", "", {{"cpu", "3"}}, 60));  // no queue
  r.input(queue("main", "Priority", {{"koord-queue/queue-items-refresh-interval", "soon"}}));
  r.input(queue("child", "Priority", {{"koord-queue/max-depth", "5"}}));
  r.input(queue("blocky", "Block"));
  r.input(queue("pre", "Priority", kPreemptive));
  r.input(queue("weird", "Fifo"));
  r.input(quota("checked", "", {{"cpu", "2"}}, 70));
  auto checked = queue("checked");
  checked.spec.admission_checks.push_back(schema::QueueAdmissionCheck{"provisioning", {}});
  r.input(checked);
  r.time += 20 * kMs;
  int64_t created = 100;
  for (const char* phase : {"Reserved", "Dequeued", "Running", "Succeed", "Failed", "TimeoutBackoff", "SchedReady",
                            "SchedSucceed", "SchedFailed", "Bogus"}) {
    const bool reserved = std::string(phase) == "Reserved";
    auto u = observed(std::string("p-") + phase, reserved ? "checked" : "child", phase, ++created);
    if (reserved) u.status.admission_checks.push_back({"provisioning", "Pending", 0, "", ""});
    r.input(u);
  }
}

// Part 2: pending and landed writes, backoff, a block, a preemption round, unmapped units.
void build_part2(RecordedRun& r) {
  r.time += 20 * kMs;
  auto fits = r.input(unit("fits", "main", "1", 3, 200));  // admitted: a pending status
  const uint64_t fits_round = r.last_round_seq;
  const auto admits = of_kind(fits, DecisionKind::kAdmit);
  if (admits.size() != 1) throw std::runtime_error("fits was not admitted");
  const actors::Decision admit = *admits[0];
  r.time += 20 * kMs;
  auto landed = unit("landed", "main", "1", 2, 201);
  auto landed_round = r.input(landed);
  const auto landed_admits = of_kind(landed_round, DecisionKind::kAdmit);
  if (landed_admits.size() != 1) throw std::runtime_error("landed was not admitted");
  r.time += 20 * kMs;
  r.outcome(*landed_admits[0], r.last_round_seq, actors::OutcomeResult::kSuccess, "900");  // landed, not yet seen
  landed.spec.active = false;  // a newer decision over the landed write: deactivation
  r.time += 20 * kMs;
  r.input(landed);
  r.time += 20 * kMs;
  r.input(unit("too-big", "main", "50", 1, 202));  // fails: backoff
  r.time += 20 * kMs;
  r.input(unit("block-big", "blocky", "5", 0, 203));  // Block policy: blocks the quota
  r.input(unit("block-next", "blocky", "1", 0, 204));
  r.time += 20 * kMs;
  r.input(admitted("low1", "pre", 1, 2, 0, 205));
  r.input(admitted("low2", "pre", 2, 2, 0, 206));
  r.time += 20 * kMs;
  r.input(unit("urgent", "pre", "2", 10, 207));  // preempts low1
  r.input(unit("no-label", "", "1", 0, 208));
  r.input(unit("ghost-wait", "ghost", "1", 0, 209));  // labelled with a quota without queue
  r.input(admitted("ghost-holds", "ghost", 0, 1, 1, 210));
  r.input(admitted("orphan-holds", "orphan", 0, 1, 1, 211));
  r.input(unit("other-ns", "child", "1", 0, 212, "team-b"));
  r.time += 20 * kMs;
  r.outcome(admit, fits_round, actors::OutcomeResult::kSuccess, "901");
  r.tick(r.time + 5 * kSec);
}

// Part 3: time passes (queue not found, backoff expiry, republish), a leader change, deletions.
void build_part3(RecordedRun& r) {
  r.tick(r.time + 11 * kSec);
  r.role_acquired();
  r.time += 20 * kMs;
  r.input(unit("no-label", "", "1", 0, 208), true);
  r.input(quota("child", "main", {{"cpu", "6"}}, 30));
  r.tick(r.time + 200 * kSec);
}

std::string snapshot_of(const actors::Scheduler& s, uint64_t seq = 42, int64_t time = 7) {
  return actors::encode_state_snapshot(s, seq, time, kUuid);
}

// The snapshot bytes with `edit` applied to the message, re-encoded canonically.
std::string edited(const std::string& bytes, const std::function<void(wire::Snapshot::Builder)>& edit) {
  auto message = wire::FlatMessage::open_segment(bytes);
  if (!message) throw std::runtime_error(message.message());
  capnp::MallocMessageBuilder copy;
  copy.setRoot(message->root<wire::Snapshot>());
  auto root = copy.getRoot<wire::Snapshot>();
  edit(root);
  const auto words = capnp::canonicalize(root.asReader());
  return std::string(reinterpret_cast<const char*>(words.asBytes().begin()), words.asBytes().size());
}

// --- round trip --------------------------------------------------------------------------------------

TEST(StateSnapshot, a_state_with_every_field_in_use_round_trips_exactly) {
  RecordedRun r;
  build_part1(r);
  build_part2(r);
  const actors::Scheduler& s = r.live;

  // The state really has something in each place the snapshot must carry.
  std::set<Phase> phases;
  bool pending = false, landed = false, backoff = false, unmapped = false, deactivation = false, event_due = false,
       spec_queue_sent = false;
  for (const auto& [key, u] : s.units()) {
    phases.insert(u.phase);
    pending |= u.pending_status.has_value();
    landed |= u.landed_status.has_value();
    backoff |= u.backoff_until.has_value();
    unmapped |= u.unmapped_since.has_value();
    deactivation |= u.deactivation_due || u.landed_status.has_value();
    event_due |= u.phase_event_due.has_value();
    spec_queue_sent |= !u.spec_queue_sent.empty() && u.spec_queue_sent_seq > 0;
  }
  std::string seen;
  for (const Phase p : phases) seen += std::string(actors::phase_name(p)) + " ";
  EXPECT_EQ(phases.size(), 10u) << seen;
  EXPECT_TRUE(pending);
  EXPECT_TRUE(landed);
  EXPECT_TRUE(backoff);
  EXPECT_TRUE(unmapped);
  EXPECT_TRUE(deactivation);
  EXPECT_TRUE(spec_queue_sent);
  EXPECT_FALSE(s.queues().at("blocky").blocked.empty());
  EXPECT_FALSE(s.queues().at("pre").victims.empty());
  EXPECT_TRUE(s.queues().at("main").last_published.has_value());
  EXPECT_FALSE(s.queues().at("main").invalid_interval_reported.empty());
  EXPECT_FALSE(s.queues().at("weird").add_queue_fail_reported.empty());
  EXPECT_FALSE(s.quotas().ignored().empty());
  EXPECT_GT(s.quotas().usage("ghost").count + s.quotas().usage("orphan").count, 0);
  EXPECT_FALSE(s.auto_queues().empty());
  EXPECT_FALSE(s.metrics().attempts.empty());
  EXPECT_FALSE(s.metrics().admission_wait.empty());
  EXPECT_GT(s.metrics().e2e_latency.count, 0u);
  EXPECT_TRUE(std::any_of(s.queues().begin(), s.queues().end(),
                          [](const auto& q) { return q.second.usage_written.has_value(); }));

  const std::string bytes = snapshot_of(s);
  auto restored = actors::decode_state_snapshot(bytes, s.config());
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_EQ(restored->seq, 42u);
  EXPECT_EQ(restored->time, 7);
  EXPECT_EQ(restored->journal_uuid, kUuid);
  EXPECT_EQ(restored->decision_logic_version, actors::kDecisionLogicVersion);
  const auto differences = state_differences(restored->scheduler, s);
  EXPECT_TRUE(differences.empty()) << describe_differences(differences);
  EXPECT_EQ(snapshot_of(restored->scheduler), bytes);
  EXPECT_EQ(restored->scheduler.decide(), s.decide());
  EXPECT_EQ(restored->scheduler.next_deadline(), s.next_deadline());
  EXPECT_EQ(restored->scheduler.round_trees(), s.round_trees());

  const double per_unit = static_cast<double>(bytes.size()) / static_cast<double>(s.units().size());
  std::cout << "snapshot: " << bytes.size() << " bytes, " << s.units().size() << " units, " << s.queues().size()
            << " queues, " << s.quotas().objects().size() << " quota objects: " << per_unit << " bytes per unit\n";
  RecordProperty("snapshot_bytes", static_cast<int>(bytes.size()));
  RecordProperty("units", static_cast<int>(s.units().size()));
}

TEST(StateSnapshot, the_empty_state_round_trips) {
  actors::DecisionConfig config;
  config.queue_namespace = "queues";
  actors::Scheduler empty(config);
  const std::string bytes = actors::encode_state_snapshot(empty, 0, 0, "");
  auto restored = actors::decode_state_snapshot(bytes, config);
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_TRUE(state_differences(restored->scheduler, empty).empty());
  EXPECT_EQ(actors::encode_state_snapshot(restored->scheduler, 0, 0, ""), bytes);
}

TEST(StateSnapshot, a_restored_state_goes_on_exactly_like_the_replayed_one) {
  RecordedRun r;
  build_part1(r);
  build_part2(r);
  const size_t cut = r.records.size();
  build_part3(r);

  actors::Scheduler replayed;
  for (size_t i = 0; i < cut; ++i) ASSERT_TRUE(actors::apply_record(replayed, r.records[i]).ok());
  auto restored = actors::decode_state_snapshot(snapshot_of(replayed, cut, r.records[cut - 1].time()), {});
  ASSERT_TRUE(restored.ok()) << restored.message();
  actors::Scheduler s = std::move(restored->scheduler);
  for (size_t i = cut; i < r.records.size(); ++i) {
    ASSERT_TRUE(actors::apply_record(replayed, r.records[i]).ok());
    ASSERT_TRUE(actors::apply_record(s, r.records[i]).ok());
    const auto differences = state_differences(s, replayed);
    ASSERT_TRUE(differences.empty()) << "after record " << r.records[i].seq() << ": "
                                     << describe_differences(differences);
    ASSERT_EQ(snapshot_of(s), snapshot_of(replayed));
  }
  EXPECT_TRUE(state_differences(s, r.live).empty());
}

// --- bad bytes --------------------------------------------------------------------------------------

TEST(StateSnapshot, empty_garbage_and_truncated_bytes_are_errors) {
  RecordedRun r;
  build_part1(r);
  build_part2(r);
  const std::string bytes = snapshot_of(r.live);

  EXPECT_FALSE(actors::decode_state_snapshot("", {}).ok());
  EXPECT_FALSE(actors::decode_state_snapshot("not a snapshot", {}).ok());
  EXPECT_FALSE(actors::decode_state_snapshot(std::string(64, '\xff'), {}).ok());
  const auto garbage = actors::decode_state_snapshot(std::string(80, '\x07'), {});
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.message().find("state snapshot"), std::string::npos) << garbage.message();

  // Every shorter prefix fails, whether or not it is a whole number of words.
  for (size_t n = 0; n < bytes.size(); n += (n < 256 ? 1 : 61)) {
    const auto truncated = actors::decode_state_snapshot(std::string_view(bytes).substr(0, n), {});
    EXPECT_FALSE(truncated.ok()) << "a prefix of " << n << " of " << bytes.size() << " bytes decoded";
  }
}

TEST(StateSnapshot, flipped_bytes_never_crash) {
  RecordedRun r;
  build_part1(r);
  const std::string bytes = snapshot_of(r.live);
  size_t errors = 0;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ (0x5a + i % 7));
    const auto result = actors::decode_state_snapshot(damaged, r.live.config());
    if (!result.ok()) ++errors;
  }
  EXPECT_GT(errors, 0u);
}

TEST(StateSnapshot, a_newer_major_schema_version_is_refused) {
  const std::string bytes = edited(snapshot_of(actors::Scheduler()), [](auto s) { s.setSchemaMajor(2); });
  const auto result = actors::decode_state_snapshot(bytes, {});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("schema version 2.0"), std::string::npos) << result.message();
}

TEST(StateSnapshot, a_newer_minor_schema_version_is_read) {
  const std::string bytes = edited(snapshot_of(actors::Scheduler()), [](auto s) { s.setSchemaMinor(9); });
  EXPECT_TRUE(actors::decode_state_snapshot(bytes, {}).ok());
}

TEST(StateSnapshot, another_decision_logic_version_is_refused) {
  const std::string bytes = edited(snapshot_of(actors::Scheduler()),
                                   [](auto s) { s.setDecisionLogicVersion(actors::kDecisionLogicVersion + 1); });
  const auto result = actors::decode_state_snapshot(bytes, {});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("decision logic v" + std::to_string(actors::kDecisionLogicVersion + 1)),
            std::string::npos)
      << result.message();
}

TEST(StateSnapshot, a_state_folded_under_another_configuration_is_refused) {
  actors::DecisionConfig other;
  other.oversell_rate_ppm = 1'500'000;
  const auto result = actors::decode_state_snapshot(snapshot_of(actors::Scheduler(other)), {});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("another decision configuration"), std::string::npos) << result.message();
}

TEST(StateSnapshot, a_part_that_does_not_decode_is_an_error_naming_it) {
  RecordedRun r;
  build_part1(r);
  const std::string bytes = snapshot_of(r.live);
  auto replace_part = [&](const std::string& actor, const std::function<void(wire::Snapshot::Part::Builder)>& f) {
    return edited(bytes, [&](wire::Snapshot::Builder s) {
      for (auto part : s.getParts()) {
        if (std::string(part.getActor().cStr()) == actor) f(part);
      }
    });
  };
  const std::string garbage(40, '\x13');
  const kj::ArrayPtr<const kj::byte> garbage_bytes(reinterpret_cast<const kj::byte*>(garbage.data()), garbage.size());

  for (const char* actor : {"router", "queue/main", "quota/main"}) {
    const auto result = actors::decode_state_snapshot(
        replace_part(actor, [&](auto part) { part.setPayload(garbage_bytes); }), r.live.config());
    ASSERT_FALSE(result.ok()) << actor;
    EXPECT_NE(result.message().find(actor), std::string::npos) << result.message();
  }
  const auto truncated = actors::decode_state_snapshot(
      replace_part("queue/main",
                   [](auto part) {
                     const auto p = part.getPayload();
                     const std::string half(reinterpret_cast<const char*>(p.begin()), p.size() / 2);
                     part.setPayload(
                         kj::ArrayPtr<const kj::byte>(reinterpret_cast<const kj::byte*>(half.data()), half.size()));
                   }),
      r.live.config());
  EXPECT_FALSE(truncated.ok());

  const auto unknown = actors::decode_state_snapshot(
      replace_part("quota/orphan", [](auto part) { part.setActor("mystery/x"); }), r.live.config());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("unknown part mystery/x"), std::string::npos) << unknown.message();

  const auto incremental = actors::decode_state_snapshot(
      replace_part("queue/main", [](auto part) { part.setIncremental(true); }), r.live.config());
  ASSERT_FALSE(incremental.ok());
  EXPECT_NE(incremental.message().find("incremental"), std::string::npos) << incremental.message();

  const auto misnamed = actors::decode_state_snapshot(
      replace_part("queue/main", [](auto part) { part.setActor("queue/elsewhere"); }), r.live.config());
  ASSERT_FALSE(misnamed.ok());
  EXPECT_NE(misnamed.message().find("holds queue main"), std::string::npos) << misnamed.message();

  const auto no_router = actors::decode_state_snapshot(
      replace_part("router", [](auto part) { part.setActor("queue/router"); }), r.live.config());
  EXPECT_FALSE(no_router.ok());
}

// The snapshot with the payload of the queue part `actor` edited.
std::string queue_part_edited(const std::string& bytes, const std::string& actor,
                              const std::function<void(wire::state::QueuePart::Builder)>& edit) {
  return edited(bytes, [&](wire::Snapshot::Builder s) {
    for (auto part : s.getParts()) {
      if (std::string(part.getActor().cStr()) != actor) continue;
      const auto p = part.getPayload();
      auto payload =
          wire::FlatMessage::open_segment(std::string_view(reinterpret_cast<const char*>(p.begin()), p.size()));
      if (!payload) throw std::runtime_error(payload.message());
      capnp::MallocMessageBuilder copy;
      copy.setRoot(payload->root<wire::state::QueuePart>());
      auto root = copy.getRoot<wire::state::QueuePart>();
      edit(root);
      const auto words = capnp::canonicalize(root.asReader());
      part.setPayload(words.asBytes());
    }
  });
}

TEST(StateSnapshot, a_member_that_is_no_unit_and_a_unit_in_two_parts_are_refused) {
  RecordedRun r;
  build_part1(r);
  build_part2(r);
  const std::string bytes = snapshot_of(r.live);
  ASSERT_TRUE(actors::decode_state_snapshot(bytes, r.live.config()).ok());
  const auto& members = r.live.queues().at("child").members;
  ASSERT_GE(members.size(), 2u);

  // A member between two real ones, and one after the last.
  for (const std::string& ghost : {*members.begin() + "~ghost", std::string("zzz/ghost")}) {
    const auto result =
        actors::decode_state_snapshot(queue_part_edited(bytes, "queue/child",
                                                        [&](auto q) {
                                                          std::set<std::string> keys(members.begin(), members.end());
                                                          keys.insert(ghost);
                                                          auto list = q.initMembers(keys.size());
                                                          unsigned i = 0;
                                                          for (const auto& k : keys) list.set(i++, k);
                                                        }),
                                      r.live.config());
    ASSERT_FALSE(result.ok()) << ghost;
    EXPECT_NE(result.message().find("queue child lists member " + ghost + ", which is no unit"), std::string::npos)
        << result.message();
  }

  // The units of queue "child" listed by queue "main" too.
  const auto twice =
      actors::decode_state_snapshot(queue_part_edited(bytes, "queue/main",
                                                      [&](auto q) {
                                                        auto message = wire::FlatMessage::open_segment(bytes);
                                                        for (auto part : message->root<wire::Snapshot>().getParts()) {
                                                          if (std::string(part.getActor().cStr()) != "queue/child")
                                                            continue;
                                                          const auto p = part.getPayload();
                                                          auto child = wire::FlatMessage::open_segment(std::string_view(
                                                              reinterpret_cast<const char*>(p.begin()), p.size()));
                                                          q.setUnits(child->root<wire::state::QueuePart>().getUnits());
                                                        }
                                                      }),
                                    r.live.config());
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.message().find("duplicate unit " + *members.begin()), std::string::npos) << twice.message();
}

TEST(StateSnapshot, usage_annotations_other_than_the_six_or_twice_are_refused) {
  RecordedRun r;
  build_part1(r);
  const std::string bytes = snapshot_of(r.live);
  const auto with_usage = [&](std::vector<std::pair<std::string, std::string>> entries) {
    return actors::decode_state_snapshot(queue_part_edited(bytes, "queue/child",
                                                           [&](auto q) {
                                                             auto list = q.getUsageWritten().initValue(entries.size());
                                                             for (unsigned i = 0; i < entries.size(); ++i) {
                                                               list[i].setKey(entries[i].first);
                                                               list[i].setValue(entries[i].second);
                                                             }
                                                           }),
                                         r.live.config());
  };
  const auto kept = with_usage({{"alibabacloud.com/queue-used", R"({"cpu":1000})"}});
  ASSERT_TRUE(kept.ok()) << kept.message();
  EXPECT_EQ(kept->scheduler.queues().at("child").usage_written->at("alibabacloud.com/queue-used"), R"({"cpu":1000})");

  const auto other = with_usage({{"example.com/other", "{}"}});
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.message().find("usage annotation example.com/other is none of the six"), std::string::npos)
      << other.message();
  const auto twice = with_usage({{"alibabacloud.com/queue-used", "{}"}, {"alibabacloud.com/queue-used", "{}"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.message().find("duplicate usage annotation alibabacloud.com/queue-used"), std::string::npos)
      << twice.message();
}

// --- restore from a journal ----------------------------------------------------------------------------

class JournalRestore : public ::testing::Test {
 protected:
  void SetUp() override {
    journal::JournalOptions options;
    options.dir = dir_.path();
    options.new_uuid = kUuid;
    options.clock = &clock_;
    auto opened = journal::Journal::open(options);
    ASSERT_TRUE(opened.ok()) << opened.message();
    journal_ = std::move(opened).value();
  }

  // The full replay of records 1..seq.
  actors::Scheduler replay(uint64_t seq) {
    actors::Scheduler s;
    auto cursor = journal_->reader().cursor(1, seq);
    while (true) {
      auto next = cursor.next();
      if (!next.ok()) throw std::runtime_error(next.message());
      if (!next->has_value()) break;
      const auto applied = actors::apply_record(s, **next);
      if (!applied.ok()) throw std::runtime_error(applied.message());
    }
    return s;
  }

  void snapshot(RecordedRun& r) {
    ASSERT_TRUE(actors::write_state_snapshot(*journal_, r.live, r.last_seq(), r.last_time(), journal_->uuid()).ok());
  }

  TempDir dir_;
  int64_t now_ = 1000 * kSec;  // the record clock; RecordedRun sets it
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
  std::unique_ptr<journal::Journal> journal_;
};

TEST_F(JournalRestore, a_snapshot_plus_the_records_after_it_is_the_full_replay_at_every_seq) {
  RecordedRun r({}, journal_.get(), &now_);
  build_part1(r);
  snapshot(r);
  const uint64_t first_snapshot = r.last_seq();
  r.time += kSec;
  build_part2(r);
  snapshot(r);
  const uint64_t second_snapshot = r.last_seq();
  r.time += kSec;
  build_part3(r);
  const uint64_t last = r.last_seq();
  EXPECT_EQ(journal_->reader().snapshots().size(), 2u);

  for (uint64_t target = 0; target <= last + 3; ++target) {
    auto restored = actors::restore_state(journal_->reader(), target, {});
    ASSERT_TRUE(restored.ok()) << restored.message();
    EXPECT_EQ(restored->seq, std::min(target, last));
    const std::optional<uint64_t> expected_snapshot =
        target >= second_snapshot  ? std::optional<uint64_t>(second_snapshot)
        : target >= first_snapshot ? std::optional<uint64_t>(first_snapshot)
                                   : std::nullopt;
    EXPECT_EQ(restored->snapshot_seq, expected_snapshot) << "target " << target;
    const auto differences = state_differences(restored->scheduler, replay(target));
    ASSERT_TRUE(differences.empty()) << "target " << target << ": " << describe_differences(differences);
  }
  auto at_end = actors::restore_state(journal_->reader(), last, {});
  ASSERT_TRUE(at_end.ok());
  EXPECT_TRUE(state_differences(at_end->scheduler, r.live).empty());
  EXPECT_EQ(at_end->applied_records, last - second_snapshot);
}

TEST_F(JournalRestore, an_unusable_snapshot_falls_back_to_an_older_one_or_the_empty_state) {
  RecordedRun r({}, journal_.get(), &now_);
  build_part1(r);
  snapshot(r);
  const uint64_t good = r.last_seq();
  r.time += kSec;
  build_part2(r);
  const uint64_t garbage_at = r.last_seq();
  ASSERT_TRUE(journal_->put_snapshot(garbage_at, "garbage!").ok());
  build_part3(r);
  const uint64_t last = r.last_seq();
  // Taken under another configuration: refused, like the garbage.
  actors::DecisionConfig other;
  other.max_backoff_nanos = 60 * kSec;
  ASSERT_TRUE(
      actors::write_state_snapshot(*journal_, actors::Scheduler(other), last, r.last_time(), journal_->uuid()).ok());

  auto restored = actors::restore_state(journal_->reader(), last, {});
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_EQ(restored->snapshot_seq, std::optional<uint64_t>(good));
  EXPECT_TRUE(state_differences(restored->scheduler, r.live).empty());

  // Only unusable snapshots: the fold starts from the empty state.
  auto early = actors::restore_state(journal_->reader(), good - 1, {});
  ASSERT_TRUE(early.ok()) << early.message();
  EXPECT_FALSE(early->snapshot_seq.has_value());
  EXPECT_TRUE(state_differences(early->scheduler, replay(good - 1)).empty());
}

TEST_F(JournalRestore, a_snapshot_of_another_journal_is_not_used) {
  RecordedRun r({}, journal_.get(), &now_);
  build_part1(r);
  ASSERT_TRUE(actors::write_state_snapshot(*journal_, r.live, r.last_seq(), r.last_time(),
                                           "00000000-0000-4000-8000-0000000000bb")
                  .ok());
  build_part2(r);
  auto restored = actors::restore_state(journal_->reader(), r.last_seq(), {});
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_FALSE(restored->snapshot_seq.has_value());
  EXPECT_TRUE(state_differences(restored->scheduler, r.live).empty());
}

TEST_F(JournalRestore, an_empty_journal_restores_the_empty_state) {
  auto restored = actors::restore_state(journal_->reader(), 100, {});
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_EQ(restored->seq, 0u);
  EXPECT_TRUE(state_differences(restored->scheduler, actors::Scheduler()).empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
