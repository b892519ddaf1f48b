// A state large enough that its snapshot's queue parts are decoded in two halves at once: it
// round-trips exactly, the restored state decides as the original does, and a bad queue part in
// either half is an error naming that part, never a crash or a partial state.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <capnp/message.h>
#include <gtest/gtest.h>

#include "actors/wire/state_snapshot.hpp"
#include "replay/state_diff.hpp"
#include "schema/snapshot.capnp.h"
#include "schema/wire_message.hpp"
#include "tests/support/recorded_state.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

constexpr int kQueues = 24;
constexpr int kUnitsPerQueue = 150;

// kQueues quotas and Queues, each with kUnitsPerQueue units (a few admitted by a round), and
// some units without a Queue (those go with the router part).
actors::Scheduler large_state() {
  SchedulerDriver d;
  for (int q = 0; q < kQueues; ++q) {
    const std::string name = "team-" + std::to_string(q);
    d.s.apply_object(quota(name, "", {{"cpu", "40"}}, q), false);
    d.s.apply_object(queue(name), false);
  }
  for (int q = 0; q < kQueues; ++q) {
    for (int i = 0; i < kUnitsPerQueue; ++i) {
      auto u = unit("job-" + std::to_string(q) + "-" + std::to_string(i), "team-" + std::to_string(q), "1", i % 5,
                    1000 + i, "ns-" + std::to_string(i % 7));
      u.metadata.annotations["example.com/owner"] = "a team that runs batch jobs, number " + std::to_string(q);
      d.s.apply_object(u, false);
    }
  }
  for (int i = 0; i < 40; ++i) d.s.apply_object(unit("loose-" + std::to_string(i), "no-such-queue", "1"), false);
  d.round();
  return std::move(d.s);
}

const std::string& large_snapshot() {
  static const std::string bytes = snapshot_of(large_state());
  return bytes;
}

TEST(StateSnapshot, a_large_state_decoded_in_two_halves_round_trips_exactly) {
  const actors::Scheduler s = large_state();
  const std::string& bytes = large_snapshot();
  // Well above the 256 KiB of queue parts from which the halves are decoded apart.
  ASSERT_GT(bytes.size(), 1024u * 1024u);
  auto restored = actors::decode_state_snapshot(bytes, s.config());
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_EQ(restored->scheduler.units().size(), size_t{kQueues * kUnitsPerQueue + 40});
  EXPECT_EQ(restored->scheduler.queues().size(), size_t{kQueues});
  const auto differences = state_differences(restored->scheduler, s);
  EXPECT_TRUE(differences.empty()) << describe_differences(differences);
  EXPECT_EQ(snapshot_of(restored->scheduler), bytes);
  EXPECT_EQ(restored->scheduler.decide(), actors::Scheduler(s).decide());
}

// The snapshot with queue part `index` (counted among the queue parts) claiming another queue.
std::string with_queue_part_renamed(size_t index) {
  auto message = wire::FlatMessage::open_segment(large_snapshot());
  if (!message) throw std::runtime_error(message.message());
  capnp::MallocMessageBuilder copy;
  copy.setRoot(message->root<wire::Snapshot>());
  size_t seen = 0;
  for (auto part : copy.getRoot<wire::Snapshot>().getParts()) {
    const std::string actor = part.getActor().cStr();
    if (!actor.starts_with("queue/")) continue;
    if (seen++ == index) part.setActor("queue/someone-else");
  }
  const auto words = capnp::canonicalize(copy.getRoot<wire::Snapshot>().asReader());
  return std::string(reinterpret_cast<const char*>(words.asBytes().begin()), words.asBytes().size());
}

TEST(StateSnapshot, a_bad_queue_part_in_either_half_is_an_error) {
  for (const size_t index : {size_t{0}, size_t{kQueues / 2 + 1}, size_t{kQueues - 1}}) {
    const auto result = actors::decode_state_snapshot(with_queue_part_renamed(index), {});
    ASSERT_FALSE(result.ok()) << "queue part " << index;
    EXPECT_NE(result.message().find("part queue/someone-else holds queue team-"), std::string::npos)
        << result.message();
  }
}

TEST(StateSnapshot, damage_anywhere_in_a_large_snapshot_never_crashes) {
  const std::string& bytes = large_snapshot();
  size_t errors = 0;
  for (size_t i = 0; i < bytes.size(); i += bytes.size() / 97) {
    std::string damaged = bytes;
    for (size_t j = i; j < std::min(bytes.size(), i + 64); ++j) damaged[j] = static_cast<char>(0xff);
    if (!actors::decode_state_snapshot(damaged, {}).ok()) ++errors;
  }
  EXPECT_GT(errors, 0u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
