// State snapshots over generated scenarios (scenario_generators.hpp, played by
// scenario_journal.hpp): a snapshot taken at any seq, decoded and followed by the rest of the
// journal, is the full fold at every later seq; and snapshot bytes are canonical.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_snapshot.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

constexpr char kUuid[] = "00000000-0000-4000-8000-000000000001";

void apply_or_fail(actors::Scheduler& s, const journal::StoredRecord& record) {
  const auto applied = actors::apply_record(s, record);
  RC_ASSERT(applied.ok());
}

RC_GTEST_PROP(SnapshotProperty, a_snapshot_at_any_seq_followed_by_the_tail_is_the_full_fold_at_every_later_seq, ()) {
  const auto scenario = *testgen::scenario();
  const auto records = ScenarioJournal::record(scenario);
  const uint64_t snapshot_seq = *rc::gen::inRange<uint64_t>(0, records.size() + 1);
  RC_TAG(snapshot_seq == 0 ? "empty state" : snapshot_seq == records.size() ? "last seq" : "inside");
  RC_TAG(records.size() < 50 ? "< 50 records" : records.size() < 200 ? "50-199 records" : ">= 200 records");

  actors::Scheduler full(scenario.config);
  for (uint64_t i = 0; i < snapshot_seq; ++i) apply_or_fail(full, records[i]);
  const int64_t time = snapshot_seq == 0 ? 0 : records[snapshot_seq - 1].time();
  const std::string bytes = actors::encode_state_snapshot(full, snapshot_seq, time, kUuid);
  auto decoded = actors::decode_state_snapshot(bytes, scenario.config);
  if (!decoded.ok()) RC_FAIL("decode: " + decoded.message());
  RC_ASSERT(decoded->seq == snapshot_seq);
  RC_ASSERT(decoded->time == time);
  RC_ASSERT(decoded->journal_uuid == std::string(kUuid));
  actors::Scheduler restored = std::move(decoded->scheduler);

  auto check = [&](uint64_t seq) {
    const auto differences = state_differences(restored, full);
    if (!differences.empty()) {
      RC_FAIL("after record " + std::to_string(seq) + " (snapshot at " + std::to_string(snapshot_seq) +
              "): " + describe_differences(differences));
    }
  };
  check(snapshot_seq);
  RC_ASSERT(restored.decide() == full.decide());
  for (uint64_t i = snapshot_seq; i < records.size(); ++i) {
    apply_or_fail(full, records[i]);
    apply_or_fail(restored, records[i]);
    check(i + 1);
  }
  RC_ASSERT(restored.decide() == full.decide());
  RC_ASSERT(restored.next_deadline() == full.next_deadline());
}

RC_GTEST_PROP(SnapshotProperty, snapshot_bytes_are_canonical_equal_states_give_equal_bytes, ()) {
  const auto scenario = *testgen::scenario();
  const auto records = ScenarioJournal::record(scenario);
  const uint64_t seq = *rc::gen::inRange<uint64_t>(0, records.size() + 1);
  actors::Scheduler s(scenario.config);
  for (uint64_t i = 0; i < seq; ++i) apply_or_fail(s, records[i]);
  const int64_t time = seq == 0 ? 0 : records[seq - 1].time();

  const std::string bytes = actors::encode_state_snapshot(s, seq, time, kUuid);
  RC_ASSERT(actors::encode_state_snapshot(actors::Scheduler(s), seq, time, kUuid) == bytes);
  auto decoded = actors::decode_state_snapshot(bytes, scenario.config);
  if (!decoded.ok()) RC_FAIL("decode: " + decoded.message());
  const std::string again = actors::encode_state_snapshot(decoded->scheduler, seq, time, kUuid);
  RC_ASSERT(again == bytes);
  auto twice = actors::decode_state_snapshot(again, scenario.config);
  RC_ASSERT(twice.ok());
  RC_ASSERT(state_differences(twice->scheduler, s).empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
