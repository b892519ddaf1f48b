// behaviour.md §8.3: Used along a quota's path as the tree changes, and in copies of the tree.
#include "actors/core/quota_tree.hpp"

#include <memory>

#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

using testing::quota;

int64_t used_cpu(const QuotaTree& t, const std::string& name) {
  const auto& used = t.usage(name).used;
  const auto it = used.find("cpu");
  return it == used.end() ? 0 : it->second;
}

void charge(QuotaTree& t, const std::string& label, int64_t cpu) {
  t.recharge("", {}, false, label, {{"cpu", cpu}}, true);
}

TEST(QuotaTree, a_copy_charges_its_own_usage_along_the_path) {
  auto original = std::make_unique<QuotaTree>();
  original->upsert(quota("root", "", {{"cpu", "100"}}));
  original->upsert(quota("leaf", "root", {{"cpu", "10"}}));
  charge(*original, "leaf", 1000);
  QuotaTree copy(*original);
  QuotaTree assigned;
  assigned = *original;
  charge(*original, "leaf", 1);
  original.reset();  // the copies point at nothing of it
  charge(copy, "leaf", 500);
  EXPECT_EQ(used_cpu(copy, "leaf"), 1500);
  EXPECT_EQ(used_cpu(copy, "root"), 1500);
  EXPECT_EQ(used_cpu(assigned, "root"), 1000);
  charge(assigned, "leaf", 2);
  EXPECT_EQ(used_cpu(assigned, "root"), 1002);
  EXPECT_EQ(used_cpu(copy, "root"), 1500);
  QuotaTree moved(std::move(copy));
  charge(moved, "leaf", 3);
  EXPECT_EQ(used_cpu(moved, "root"), 1503);
}

TEST(QuotaTree, charges_follow_the_path_when_a_quota_in_it_goes_comes_back_or_moves) {
  QuotaTree t;
  t.upsert(quota("root", "", {{"cpu", "100"}}));
  t.upsert(quota("mid", "root", {{"cpu", "50"}}));
  t.upsert(quota("leaf", "mid", {{"cpu", "10"}}));
  charge(t, "leaf", 1000);
  EXPECT_EQ(used_cpu(t, "root"), 1000);
  ASSERT_TRUE(t.remove("default", "mid"));  // the path stops at the unknown parent
  EXPECT_EQ(used_cpu(t, "leaf"), 1000);
  EXPECT_EQ(used_cpu(t, "root"), 0);
  charge(t, "leaf", 500);
  EXPECT_EQ(used_cpu(t, "leaf"), 1500);
  EXPECT_EQ(used_cpu(t, "root"), 0);
  t.upsert(quota("mid", "root", {{"cpu", "50"}}));
  EXPECT_EQ(used_cpu(t, "mid"), 1500);
  EXPECT_EQ(used_cpu(t, "root"), 1500);
  t.upsert(quota("other", "", {{"cpu", "100"}}));
  t.upsert(quota("mid", "other", {{"cpu", "50"}}));  // re-parented: the charges move along
  charge(t, "leaf", 1);
  EXPECT_EQ(used_cpu(t, "root"), 0);
  EXPECT_EQ(used_cpu(t, "other"), 1501);
  t.recharge("leaf", {{"cpu", 1501}}, true, "", {}, false);
  EXPECT_EQ(used_cpu(t, "other"), 0);
  EXPECT_EQ(used_cpu(t, "mid"), 0);
  EXPECT_EQ(used_cpu(t, "leaf"), 0);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
