// A relist epoch's content (design.md §7): LIST against the journaled state.
#include "kube/ingest/relist_diff.hpp"

#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

schema::WatchedObject job(const std::string& name, const std::string& uid, const std::string& rv) {
  schema::QueueUnit u = unit(name, "q", "1");
  u.metadata.uid = uid;
  u.metadata.resource_version = rv;
  return u;
}

std::vector<std::string> describe(const std::vector<kube::RelistEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) {
    const auto& meta = schema::meta_of(*e.event.object);
    out.push_back(std::string(schema::watch_event_type_name(e.event.type)) + " " + meta.name + " " + meta.uid + " " +
                  meta.resource_version + (e.synthesized ? " synthesized" : ""));
  }
  return out;
}

TEST(RelistDiff, unchanged_objects_give_nothing) {
  EXPECT_TRUE(kube::relist_diff({job("a", "u1", "5")}, {job("a", "u1", "5")}).empty());
  EXPECT_TRUE(kube::relist_diff({}, {}).empty());
}

TEST(RelistDiff, new_changed_and_vanished_objects) {
  const auto events = kube::relist_diff({job("a", "u1", "5"), job("b", "u2", "6"), job("c", "u3", "7")},
                                        {job("a", "u1", "5"), job("c", "u3", "9"), job("d", "u4", "10")});
  EXPECT_EQ(describe(events),
            (std::vector<std::string>{"DELETED b u2 6 synthesized", "MODIFIED c u3 9", "ADDED d u4 10"}));
}

TEST(RelistDiff, deletions_come_first_in_namespace_and_name_order) {
  const auto events =
      kube::relist_diff({job("z", "u1", "1"), job("m", "u2", "1"), job("a", "u3", "1")}, {job("new", "u9", "2")});
  EXPECT_EQ(describe(events), (std::vector<std::string>{"DELETED a u3 1 synthesized", "DELETED m u2 1 synthesized",
                                                        "DELETED z u1 1 synthesized", "ADDED new u9 2"}));
}

TEST(RelistDiff, an_object_recreated_under_its_name_is_a_deletion_and_an_addition) {
  const auto events = kube::relist_diff({job("a", "old-uid", "5")}, {job("a", "new-uid", "8")});
  EXPECT_EQ(describe(events), (std::vector<std::string>{"DELETED a old-uid 5 synthesized", "ADDED a new-uid 8"}));
}

TEST(RelistDiff, events_carry_the_objects_json) {
  const auto events = kube::relist_diff({}, {job("a", "u1", "5")});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].event.raw_json.find("\"name\":\"a\""), std::string::npos);
}

schema::DecodedObject received(const std::string& name, const std::string& uid, const std::string& rv,
                               const std::string& json) {
  schema::DecodedObject d;
  d.object = job(name, uid, rv);
  d.raw_json = json;
  return d;
}

// §21: a relisted object is journaled with its JSON as received, not re-encoded.
TEST(RelistDiff, listed_objects_keep_their_json_as_received) {
  std::vector<schema::DecodedObject> listed;
  listed.push_back(received("a", "u1", "6", R"({"kind":"QueueUnit", "as":"received"})"));
  listed.push_back(received("b", "u2", "7", ""));  // --journal-raw-objects=off
  const auto events = kube::relist_diff({job("a", "u1", "5")}, std::move(listed), schema::RawObjectMode::kRedacted);
  EXPECT_EQ(describe(events), (std::vector<std::string>{"MODIFIED a u1 6", "ADDED b u2 7"}));
  EXPECT_EQ(events[0].event.raw_json, R"({"kind":"QueueUnit", "as":"received"})");
  EXPECT_EQ(events[1].event.raw_json, "");
}

TEST(RelistDiff, a_synthesised_deletion_carries_the_journaled_object_as_json_unless_raw_objects_are_off) {
  for (const auto mode :
       {schema::RawObjectMode::kOff, schema::RawObjectMode::kRedacted, schema::RawObjectMode::kFull}) {
    const auto events = kube::relist_diff({job("gone", "u1", "5")}, {}, mode);
    ASSERT_EQ(describe(events), (std::vector<std::string>{"DELETED gone u1 5 synthesized"}));
    if (mode == schema::RawObjectMode::kOff) {
      EXPECT_EQ(events[0].event.raw_json, "");
    } else {
      EXPECT_NE(events[0].event.raw_json.find("\"name\":\"gone\""), std::string::npos);
    }
  }
}

// Namespace, then name: "a" < "a-b" as namespaces although "a-b/x" < "a/x" as keys.
TEST(RelistDiff, deletions_are_ordered_by_namespace_before_name) {
  auto in = [](const std::string& ns, const std::string& name) {
    auto o = std::get<schema::QueueUnit>(job(name, ns + "-" + name, "1"));
    o.metadata.namespace_ = ns;
    return schema::WatchedObject(o);
  };
  const auto events = kube::relist_diff({in("a-b", "x"), in("a", "y"), in("a", "x")}, {}, schema::RawObjectMode::kOff);
  std::vector<std::string> order;
  for (const auto& e : events) order.push_back(schema::meta_of(*e.event.object).uid);
  EXPECT_EQ(order, (std::vector<std::string>{"a-x", "a-y", "a-b-x"}));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
