// UsageAnnotations: the six annotation names of §2.3 as slots, iterated in bytewise name order.
#include "actors/core/usage_annotations.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

std::vector<std::string> names_of(const UsageAnnotations& usage) {
  std::vector<std::string> out;
  for (const auto& [name, value] : usage) out.emplace_back(name);
  return out;
}

TEST(UsageAnnotations, iterates_the_present_names_in_bytewise_order) {
  UsageAnnotations usage;
  EXPECT_TRUE(usage.empty());
  EXPECT_EQ(usage.begin(), usage.end());
  for (size_t slot = 0; slot < UsageAnnotations::kSlots; ++slot) usage.set(slot, std::to_string(slot));
  EXPECT_EQ(usage.size(), 6u);
  EXPECT_EQ(names_of(usage), (std::vector<std::string>{
                                 "alibabacloud.com/queue-children-guaranteed-used",
                                 "alibabacloud.com/queue-children-used",
                                 "alibabacloud.com/queue-guaranteed-used",
                                 "alibabacloud.com/queue-self-guaranteed-used",
                                 "alibabacloud.com/queue-self-used",
                                 "alibabacloud.com/queue-used",
                             }));
  const UsageAnnotations some{{"alibabacloud.com/queue-used", "{}"}, {"alibabacloud.com/queue-children-used", "{}"}};
  EXPECT_EQ(names_of(some),
            (std::vector<std::string>{"alibabacloud.com/queue-children-used", "alibabacloud.com/queue-used"}));
}

TEST(UsageAnnotations, the_slots_are_the_names_in_the_order_of_section_2_3) {
  for (size_t slot = 0; slot < UsageAnnotations::kSlots; ++slot) {
    EXPECT_EQ(UsageAnnotations::slot_of(kUsageAnnotationNames[slot]), slot);
  }
  EXPECT_EQ(UsageAnnotations::slot_of("alibabacloud.com/queue-used"), 0u);
  EXPECT_EQ(UsageAnnotations::slot_of("alibabacloud.com/queue-children-guaranteed-used"), 5u);
  EXPECT_EQ(UsageAnnotations::slot_of("alibabacloud.com/queue"), std::nullopt);
  EXPECT_EQ(UsageAnnotations::slot_of(""), std::nullopt);
}

TEST(UsageAnnotations, finds_compares_and_refuses_other_names) {
  const UsageAnnotations a{{"alibabacloud.com/queue-used", R"({"cpu":1})"}};
  ASSERT_NE(a.find("alibabacloud.com/queue-used"), nullptr);
  EXPECT_EQ(*a.find("alibabacloud.com/queue-used"), R"({"cpu":1})");
  EXPECT_EQ(a.find("alibabacloud.com/queue-self-used"), nullptr);
  EXPECT_EQ(a.find("example.com/other"), nullptr);
  EXPECT_EQ(a.at("alibabacloud.com/queue-used"), R"({"cpu":1})");
  EXPECT_THROW((void)a.at("alibabacloud.com/queue-self-used"), std::out_of_range);
  EXPECT_THROW(UsageAnnotations({{"example.com/other", "{}"}}), std::invalid_argument);

  UsageAnnotations b;
  EXPECT_NE(a, b);
  b.set(0, R"({"cpu":1})");
  EXPECT_EQ(a, b);
  b.set(1, "");  // an empty value is present
  EXPECT_NE(a, b);
  EXPECT_EQ(b.size(), 2u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
