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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
