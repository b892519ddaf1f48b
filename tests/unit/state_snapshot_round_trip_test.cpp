// State snapshots (actors/wire/state_snapshot.hpp) round-trip: every field of every state struct is
// in the snapshot (counted at compile time), a state with something in every field survives
// encode → decode exactly and re-encodes to the same bytes, and a restored state goes on exactly
// like the replayed one.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/state_snapshot.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/recorded_state.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

using actors::DecisionKind;
using actors::Phase;

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
// UnitState's last three fields (`indexed_in`, `queue`, `capacity_seen`) are derived: a restore
// rebuilds them (`capacity_seen` with every queue's `last_capacity_change` at 0, the marks folded
// into `capacity_changed`, which the snapshot holds as capacity_changed_since_attempt()).
static_assert(field_count<actors::UnitState>() == 33, "UnitState changed: snapshot the new field");
// QueueState's last nine fields are derived, not snapshotted: `housekeeping`, `not_waiting`,
// `backoff`, `timer` are indexes decoding rebuilds (Scheduler::rebuild_indexes), which state_diff
// compares; `awake`, `recheck`, `stirred` are the round index's, which a restore or a copy works
// out from scratch (round_index_invariants.hpp checks it against a walk over every queue), and
// `backoff_ends` feeds it (rebuilt with the indexes, copied with the queue); `last_capacity_change`
// marks the units waiting in it (see UnitState above).
static_assert(field_count<actors::QueueState>() == 28, "QueueState changed: snapshot the new field");
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
// Scheduler's members from `queue_timers_` on are derived: `queue_timers_`, `unmapped_pending_`,
// `execution_limited_` (48 bytes each) are indexes decoding rebuilds, which state_diff compares;
// `settings_version_` counts Queue changes for the settings log, `capacity_changes_` capacity
// changes for the units' marks (copied, 0 after a restore); the round index (`stir_all_`,
// `stirred_`, `awake_`, `rechecks_`, `auto_queues_quiet_`: 152 bytes with the two counts) is
// worked out from scratch after a restore or a copy; `changes_` points at the read side's notes
// of what a fold changed (fold_changes.hpp) and is not copied.
// QuotaTree's last three members (`children_`, `paths_`, `usage_paths_`) are derived the same way
// (QuotaTree::reindex); the first two are compared through QuotaTree's operator==, the third
// points into the tree's own usage entries.
static_assert(sizeof(actors::Scheduler) == 1160, "Scheduler changed: snapshot and copy the new member");
static_assert(sizeof(actors::QuotaTree) == 336, "QuotaTree changed: snapshot the new member");

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
  EXPECT_EQ(restored->journal_uuid, kRecordedRunUuid);
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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
