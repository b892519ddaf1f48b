// The console's timeline (behaviour.md §25.2): what each record counts as, and the strip summed
// from bins of records — totals kept, ranges honoured, a gap restarting the index, and the bins a
// step reads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "console/record_moments.hpp"
#include "console/timeline_index.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/model_samples.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using console::MomentCounts;
using console::TimelineIndex;

actors::Decision decision(actors::DecisionKind kind) {
  actors::Decision d;
  d.kind = kind;
  actors::UnitRef unit;
  unit.namespace_ = "team-a";
  unit.name = "job";
  d.target = unit;
  return d;
}

journal::StoredRecord unit_event(RecordChain& chain, schema::WatchEventType type, bool synthesized = false) {
  schema::WatchEvent event;
  event.type = type;
  event.object = samples::small_queue_unit();
  return chain.append(*journal::make_watch_body(event, schema::RawObjectMode::kOff, synthesized), 1);
}

TEST(ConsoleMoments, CountsWhatAPostMortemLooksFor) {
  RecordChain chain;
  EXPECT_EQ(console::record_moments(unit_event(chain, schema::WatchEventType::kAdded)).arrivals, 1u);
  EXPECT_EQ(console::record_moments(unit_event(chain, schema::WatchEventType::kModified)).arrivals, 0u);
  EXPECT_EQ(console::record_moments(unit_event(chain, schema::WatchEventType::kAdded, true)).arrivals, 0u)
      << "a relist's synthesised event is not an arrival";

  const auto round = chain.append(
      *actors::make_round_body(3, {decision(actors::DecisionKind::kAdmit), decision(actors::DecisionKind::kReserve),
                                   decision(actors::DecisionKind::kFail), decision(actors::DecisionKind::kPreempt),
                                   decision(actors::DecisionKind::kInvalidQuantities)}),
      2);
  const MomentCounts counts = console::record_moments(round);
  EXPECT_EQ(counts.admissions, 2u);
  EXPECT_EQ(counts.failures, 2u);
  EXPECT_EQ(counts.preemptions, 1u);
  EXPECT_EQ(counts.decided_rounds, 1u);
  EXPECT_EQ(console::record_moments(chain.append(*actors::make_round_body(4, {}), 3)).decided_rounds, 0u)
      << "an empty round is no step";

  EXPECT_EQ(console::record_moments(chain.append(*actors::make_role_body(actors::RoleEvent::kAcquired, "a", 1), 4))
                .leader_changes,
            1u);
  EXPECT_EQ(
      console::record_moments(
          chain.append(*actors::make_relist_body(actors::RelistPhase::kBegin, schema::ObjectKind::kQueueUnit, "7"), 5))
          .relists,
      1u);
  EXPECT_EQ(
      console::record_moments(
          chain.append(*actors::make_relist_body(actors::RelistPhase::kEnd, schema::ObjectKind::kQueueUnit, "7"), 6))
          .relists,
      0u);
}

MomentCounts arrivals(uint32_t n) {
  MomentCounts c;
  c.arrivals = n;
  return c;
}

TEST(ConsoleTimeline, BucketsSumToTheRecordsOfTheRange) {
  TimelineIndex index;
  for (uint64_t seq = 1; seq <= 10'000; ++seq) index.add(seq, static_cast<int64_t>(seq) * 10, arrivals(1));
  const auto buckets = index.buckets(1, 10'000, 7);
  ASSERT_FALSE(buckets.empty());
  EXPECT_LE(buckets.size(), 7u);
  uint64_t total = 0;
  uint64_t expected_first = 1;
  for (const auto& b : buckets) {
    EXPECT_EQ(b.first_seq, expected_first) << "buckets are contiguous";
    EXPECT_EQ(b.first_time, static_cast<int64_t>(b.first_seq) * 10);
    EXPECT_EQ(b.counts.arrivals, b.last_seq - b.first_seq + 1);
    total += b.counts.arrivals;
    expected_first = b.last_seq + 1;
  }
  EXPECT_EQ(total, 10'000u);
  EXPECT_EQ(buckets.back().last_seq, 10'000u);
}

TEST(ConsoleTimeline, ARangeCoversWholeBinsAroundIt) {
  TimelineIndex index;
  for (uint64_t seq = 1; seq <= 2'000; ++seq) index.add(seq, 0, arrivals(1));
  const auto buckets = index.buckets(600, 700, 100);
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_LE(buckets.front().first_seq, 600u);
  EXPECT_GE(buckets.front().last_seq, 700u);
  EXPECT_TRUE(index.buckets(2'001, 3'000, 10).empty());
  EXPECT_TRUE(index.buckets(1, 10, 0).empty());
}

TEST(ConsoleTimeline, AGapRestartsTheIndexAtTheNewRecord) {
  TimelineIndex index;
  for (uint64_t seq = 1; seq <= 300; ++seq) index.add(seq, 0, arrivals(1));
  index.add(5'000, 0, arrivals(1));
  EXPECT_EQ(index.first_seq(), 5'000u);
  EXPECT_EQ(index.last_seq(), 5'000u);
  const auto buckets = index.buckets(1, 10'000, 10);
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets.front().counts.arrivals, 1u);
}

TEST(ConsoleTimeline, StepsFindTheBinsWithDecisionsNearestFirst) {
  TimelineIndex index;
  MomentCounts decided;
  decided.decided_rounds = 1;
  for (uint64_t seq = 1; seq <= 5'000; ++seq) index.add(seq, 0, seq == 300 || seq == 4'000 ? decided : MomentCounts{});
  const auto after = index.decided_bins_after(1, 10);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_LE(after[0].first, 300u);
  EXPECT_GE(after[0].second, 300u);
  EXPECT_LE(after[1].first, 4'000u);
  const auto before = index.decided_bins_before(5'000, 10);
  ASSERT_EQ(before.size(), 2u);
  EXPECT_GE(before[0].second, 4'000u) << "nearest first";
  EXPECT_TRUE(index.decided_bins_after(5'000, 10).empty());
  EXPECT_TRUE(index.decided_bins_before(1, 10).empty());
  EXPECT_EQ(index.decided_bins_after(1, 1).size(), 1u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
