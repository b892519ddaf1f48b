// base::ByteBoundedLru: the total of the entries' counted bytes never passes the bound, the least
// recently used entry leaves first, and an entry larger than the bound is not kept.
#include "base/byte_bounded_lru.hpp"

#include <string>

#include <gtest/gtest.h>

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

TEST(ByteBoundedLru, the_counted_bytes_never_pass_the_bound) {
  base::ByteBoundedLru<int, std::string> lru(1000);
  for (int i = 0; i < 200; ++i) {
    lru.insert(i, std::string(static_cast<size_t>(i % 7) * 50, 'x'), static_cast<size_t>(i % 7) * 50 + 10);
    EXPECT_LE(lru.bytes(), 1000u) << "after entry " << i;
  }
  EXPECT_GT(lru.size(), 2u);
}

TEST(ByteBoundedLru, the_least_recently_used_entry_leaves_first) {
  base::ByteBoundedLru<std::string, int> lru(300);
  lru.insert("a", 1, 100);
  lru.insert("b", 2, 100);
  lru.insert("c", 3, 100);
  ASSERT_NE(lru.find("a"), nullptr);  // now b is the oldest
  lru.insert("d", 4, 100);
  EXPECT_EQ(lru.find("b"), nullptr);
  EXPECT_EQ(*lru.find("a"), 1);
  EXPECT_EQ(*lru.find("c"), 3);
  EXPECT_EQ(*lru.find("d"), 4);
  EXPECT_EQ(lru.bytes(), 300u);
}

TEST(ByteBoundedLru, an_entry_larger_than_the_bound_is_not_kept_and_evicts_nothing) {
  base::ByteBoundedLru<std::string, int> lru(300);
  lru.insert("a", 1, 100);
  EXPECT_FALSE(lru.insert("big", 2, 301));
  EXPECT_EQ(lru.find("big"), nullptr);
  EXPECT_EQ(*lru.find("a"), 1);
  EXPECT_EQ(lru.bytes(), 100u);
}

TEST(ByteBoundedLru, replacing_a_key_counts_only_its_new_size) {
  base::ByteBoundedLru<std::string, int> lru(300);
  lru.insert("a", 1, 200);
  lru.insert("a", 2, 50);
  EXPECT_EQ(lru.bytes(), 50u);
  EXPECT_EQ(lru.size(), 1u);
  EXPECT_EQ(*lru.find("a"), 2);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
