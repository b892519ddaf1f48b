// BoxedOptional: std::optional's value semantics with the value on the heap.
#include "actors/core/boxed_optional.hpp"

#include <string>

#include <gtest/gtest.h>

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

TEST(BoxedOptional, copies_copy_the_value_and_emplace_starts_from_a_default_one) {
  BoxedOptional<std::string> a;
  EXPECT_FALSE(a);
  a.emplace() = "pending";
  ASSERT_TRUE(a);
  BoxedOptional<std::string> b = a;
  *b += " write";
  EXPECT_EQ(*a, "pending");
  EXPECT_EQ(*b, "pending write");
  EXPECT_EQ(b.emplace(), "");  // the old value is gone
  EXPECT_EQ(*b, "");
  EXPECT_FALSE(a == b);
  b = *a;
  EXPECT_TRUE(a == b);
  b.reset();
  EXPECT_FALSE(b);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
