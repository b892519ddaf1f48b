// State snapshots that must not be used: bad bytes (empty, garbage, truncated, flipped), other
// schema and decision-logic versions, another configuration, a part that does not decode, members
// that are no unit or a unit in two parts, and usage annotations other than the six. Each is an
// Error naming the problem, never a crash.
#include <functional>
#include <stdexcept>
#include <string>

#include <capnp/message.h>
#include <gtest/gtest.h>

#include "actors/wire/state_snapshot.hpp"
#include "schema/snapshot.capnp.h"
#include "schema/state.capnp.h"
#include "schema/wire_message.hpp"
#include "tests/support/recorded_state.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;
using actors::Phase;

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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
