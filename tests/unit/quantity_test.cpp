// Quantities and resource vectors, behaviour.md §3. The tables mirror §3.1 and §3.2.
#include "schema/quantity.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "schema/resource_list.hpp"
#include "schema/watched_object.hpp"
#include "tests/support/quantity_access.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Quantity q(std::string_view text) {
  auto parsed = Quantity::parse(text);
  EXPECT_TRUE(parsed.ok()) << parsed.message();
  return parsed.ok() ? *parsed : Quantity{};
}

struct InternalCase {
  std::string_view input;
  int64_t cpu;
  int64_t other;
};

void expect_internal(const InternalCase& c) {
  SCOPED_TRACE(std::string(c.input));
  const Quantity value = q(c.input);
  EXPECT_EQ(value.to_internal("cpu"), c.cpu);
  EXPECT_EQ(value.to_internal("memory"), c.other);
  EXPECT_EQ(value.to_internal("nvidia.com/gpu"), c.other);
}

// §3.1, row by row.
TEST(QuantityTable, section_3_1_inputs_convert_to_the_listed_internal_integers) {
  constexpr InternalCase kTable[] = {
      {"500m", 500, 1},
      {"2", 2000, 2},
      {"1.5", 1500, 2},
      {"0.1m", 1, 1},
      {"100Mi", 104857600000, 104857600},
      {"1G", 1000000000000, 1000000000},
      {"1e3", 1000000, 1000},
      {"12e-1", 1200, 2},
  };
  for (const auto& c : kTable) expect_internal(c);
}

TEST(QuantityToInternal, every_suffix_of_section_3_1_has_its_factor) {
  constexpr InternalCase kTable[] = {
      {"1000000000n", 1000, 1},
      {"1000000u", 1000, 1},
      {"1000m", 1000, 1},
      {"1", 1000, 1},
      {"1k", 1000000, 1000},
      {"1M", 1000000000, 1000000},
      {"1T", 1000000000000000, 1000000000000},
      {"1P", 1000000000000000000, 1000000000000000},
      {"1E", kMax, 1000000000000000000},
      {"1Ki", 1024000, 1024},
      {"1Mi", 1048576000, 1048576},
      {"1Gi", 1073741824000, 1073741824},
      {"1Ti", 1099511627776000, 1099511627776},
      {"1Pi", 1125899906842624000, 1125899906842624},
      {"1Ei", kMax, 1152921504606846976},
      {"1e3", 1000000, 1000},
      {"1E3", 1000000, 1000},
      {"1e+3", 1000000, 1000},
      {"1000e-3", 1000, 1},
  };
  for (const auto& c : kTable) expect_internal(c);
}

TEST(QuantityToInternal, cpu_rounds_up_to_whole_millicores) {
  expect_internal({"0.5", 500, 1});
  expect_internal({"0.0001", 1, 1});
  expect_internal({"1n", 1, 1});
  expect_internal({"1.0001", 1001, 2});
  expect_internal({"0.1m", 1, 1});
}

TEST(QuantityToInternal, other_resources_round_up_to_whole_units) {
  expect_internal({"500m", 500, 1});
  expect_internal({"1001m", 1001, 2});
  expect_internal({"12e-1", 1200, 2});
}

TEST(QuantityToInternal, sign_and_leading_point_forms_are_accepted) {
  expect_internal({"+1", 1000, 1});
  expect_internal({".5", 500, 1});
  expect_internal({"-.5", 0, 0});
  expect_internal({"1.", 1000, 1});
  expect_internal({"007", 7000, 7});
}

TEST(QuantityToInternal, negative_values_count_as_zero) {
  expect_internal({"-1", 0, 0});
  expect_internal({"-1Ei", 0, 0});
  expect_internal({"-1e-999999999", 0, 0});
  expect_internal({"-0", 0, 0});
}

TEST(QuantityToInternal, binary_suffixes_multiply_exactly) {
  expect_internal({"1.5Ki", 1536000, 1536});
  expect_internal({"0.5Gi", 536870912000, 536870912});
  expect_internal({"0.001Ki", 1024, 2});  // 1.024
  expect_internal({"7.99999999999999999999Ei", kMax, kMax});
}

TEST(QuantityToInternal, results_saturate_at_int64_max) {
  expect_internal({"9223372036854775807", kMax, kMax});
  expect_internal({"9223372036854775808", kMax, kMax});
  expect_internal({"9223372036854775.807", kMax, 9223372036854776});
  expect_internal({"9223372036854775.806", kMax - 1, 9223372036854776});
  expect_internal({"1e30", kMax, kMax});
  expect_internal({"10Ei", kMax, kMax});
  expect_internal({"8Ei", kMax, kMax});
  expect_internal({"99999Ei", kMax, kMax});
  expect_internal({"1e999999999", kMax, kMax});
  expect_internal({"1e99999999999999999999999999", kMax, kMax});
}

TEST(QuantityToInternal, tiny_positive_values_round_up_to_one) {
  expect_internal({"1e-999999999", 1, 1});
  expect_internal({"1e-99999999999999999999999999", 1, 1});
  expect_internal({"0.00000000000000000000000000000000000000000000000001", 1, 1});
}

TEST(QuantityToInternal, digits_beyond_the_38_kept_still_round_up) {
  // 1 followed by 40 zeros and a 1 after the point: the 1 is not kept but the ceiling sees it.
  expect_internal({"1.00000000000000000000000000000000000000001", 1001, 2});
  expect_internal({"1.00000000000000000000000000000000000000000", 1000, 1});
}

TEST(QuantityToInternal, only_the_exact_name_cpu_counts_in_millicores) {
  EXPECT_EQ(q("1").to_internal("CPU"), 1);
  EXPECT_EQ(q("1").to_internal("cpus"), 1);
}

struct ErrorCase {
  std::string_view input;
  std::string_view message;
};

TEST(QuantityParse, malformed_text_is_rejected_with_a_message_naming_input_and_problem) {
  constexpr ErrorCase kTable[] = {
      {"", R"(invalid quantity "": empty)"},
      {"-", R"(invalid quantity "-": missing digits)"},
      {"+", R"(invalid quantity "+": missing digits)"},
      {".", R"(invalid quantity ".": missing digits)"},
      {"+-1", R"(invalid quantity "+-1": missing digits before "-1")"},
      {"e3", R"(invalid quantity "e3": missing digits before "e3")"},
      {" 1", R"(invalid quantity " 1": missing digits before " 1")"},
      {"1 ", R"(invalid quantity "1 ": unknown suffix " ")"},
      {"1\t", R"(invalid quantity "1\x09": unknown suffix "\x09")"},
      {"1..2", R"(invalid quantity "1..2": more than one decimal point)"},
      {"1.5.3", R"(invalid quantity "1.5.3": more than one decimal point)"},
      {"1x", R"(invalid quantity "1x": unknown suffix "x")"},
      {"1.5x", R"(invalid quantity "1.5x": unknown suffix "x")"},
      {"1e", R"(invalid quantity "1e": unknown suffix "e")"},
      {"1ki", R"(invalid quantity "1ki": unknown suffix "ki")"},
      {"1Ki5", R"(invalid quantity "1Ki5": unknown suffix "Ki5")"},
      {"1mi", R"(invalid quantity "1mi": unknown suffix "mi")"},
      {"1e+", R"(invalid quantity "1e+": invalid exponent "e+")"},
      {"1E-", R"(invalid quantity "1E-": invalid exponent "E-")"},
      {"1e3.5", R"(invalid quantity "1e3.5": invalid exponent "e3.5")"},
      {"1e3k", R"(invalid quantity "1e3k": invalid exponent "e3k")"},
      {"1\"", R"(invalid quantity "1\"": unknown suffix "\"")"},
  };
  for (const auto& c : kTable) {
    auto parsed = Quantity::parse(c.input);
    ASSERT_FALSE(parsed.ok()) << c.input;
    EXPECT_EQ(parsed.message(), c.message);
  }
}

TEST(QuantityCompare, equal_values_compare_equal_whatever_their_spelling) {
  EXPECT_EQ(q("1000m"), q("1"));
  EXPECT_EQ(q("1e0"), q("1"));
  EXPECT_EQ(q("0.001k"), q("1"));
  EXPECT_EQ(q("1000000000n"), q("1"));
  EXPECT_EQ(q("1Ki"), q("1024"));
  EXPECT_EQ(q("1.5Gi"), q("1536Mi"));
  EXPECT_EQ(q("1E"), q("1e18"));
  EXPECT_EQ(q("-0"), q("0"));
  EXPECT_EQ(q("-0.000"), Quantity{});
  EXPECT_TRUE(q("0Ei").is_zero());
  EXPECT_EQ(q("1e1000000001"), q("1e1000000002"));  // both saturate
}

TEST(QuantityCompare, order_follows_the_value) {
  EXPECT_LT(q("-2"), q("-1"));
  EXPECT_LT(q("-1"), q("-1e-999999999"));
  EXPECT_LT(q("-1e-999999999"), q("0"));
  EXPECT_LT(q("0"), q("1e-99999999999"));
  EXPECT_LT(q("1e-99999999999"), q("1e-999999999"));
  EXPECT_LT(q("1n"), q("1m"));
  EXPECT_LT(q("999m"), q("1"));
  EXPECT_LT(q("1E"), q("1Ei"));
  EXPECT_LT(q("1e1000000000"), q("1e1000000001"));
  EXPECT_GT(q("-1e1000000000"), q("-1e1000000001"));
  EXPECT_EQ(q("1.5") <=> q("1500m"), std::strong_ordering::equal);
}

TEST(QuantityCompare, dropped_digits_order_above_the_kept_prefix) {
  const Quantity kept = q("1.0000000000000000000000000000000000000");
  const Quantity longer = q("1.00000000000000000000000000000000000000001");
  const Quantity next = q("1.0000000000000000000000000000000000001");
  EXPECT_LT(kept, longer);
  EXPECT_LT(longer, next);
  EXPECT_LT(q("-1.0000000000000000000000000000000000001"), q("-1.00000000000000000000000000000000000000001"));
}

struct RenderCase {
  std::string_view input;
  std::string_view rendered;
};

TEST(QuantityRender, renders_a_canonical_decimal_that_parses_back) {
  constexpr RenderCase kTable[] = {
      {"500m", "0.5"},
      {"1Gi", "1073741824"},
      {"1.5Ki", "1536"},
      {"1e3", "1000"},
      {"-1.5", "-1.5"},
      {"0.1m", "0.0001"},
      {"-0", "0"},
      {"+1", "1"},
      {"1E", "1000000000000000000"},
      {"1e30", "1e30"},
      {"1e-50", "1e-50"},
      {"1.00000000000000000000000000000000000000001", "1.00000000000000000000000000000000000001"},
      {"1e1000000001", "999999999999999999999999999999999999991e999999962"},
      {"1e-1000000001", "1e-1000000001"},
      {"-1e-9999999999999", "-1e-1000000001"},
  };
  for (const auto& c : kTable) {
    const Quantity value = q(c.input);
    EXPECT_EQ(value.render(), c.rendered) << c.input;
    EXPECT_EQ(q(value.render()), value) << c.input;
  }
}

TEST(QuantityRender, saturated_and_infinitesimal_values_keep_their_meaning) {
  EXPECT_EQ(q("1e1000000001"), QuantityAccess::saturated(false));
  EXPECT_EQ(q("-99999999e999999999"), QuantityAccess::saturated(true));
  EXPECT_EQ(q("1e-1000000001"), QuantityAccess::infinitesimal(false));
  EXPECT_FALSE(QuantityAccess::infinitesimal(false).is_zero());
  EXPECT_TRUE(QuantityAccess::inexact_up(q("1.00000000000000000000000000000000000000001")));
  EXPECT_FALSE(QuantityAccess::inexact_up(q("1.00000000000000000000000000000000000000000")));
}

struct AmountCase {
  std::string_view resource;
  int64_t amount;
  std::string_view rendered;
};

// §3.2, computed amounts.
TEST(QuantityTable, section_3_2_computed_amounts_render_with_the_listed_suffixes) {
  constexpr AmountCase kTable[] = {
      {"cpu", 2000, "2"},
      {"cpu", 1500, "1500m"},
      {"cpu", 1, "1m"},
      {"cpu", 0, "0"},
      {"memory", 8589934592, "8Gi"},
      {"memory", 1610612736, "1536Mi"},
      {"memory", 1000, "1000"},
      {"memory", 1024, "1Ki"},
      {"memory", 1152921504606846976, "1Ei"},
      {"memory", 0, "0"},
      {"ephemeral-storage", 1099511627776, "1Ti"},
      {"storage", 3 * 1125899906842624LL, "3Pi"},
      {"hugepages-2Mi", 4194304, "4Mi"},
      {"hugepages", 1024, "1024"},
      {"nvidia.com/gpu", 1024, "1024"},
      {"pods", 3, "3"},
      {"memory", kMax, "9223372036854775807"},
      {"cpu", kMax, "9223372036854775807m"},
  };
  for (const auto& c : kTable) {
    EXPECT_EQ(render_internal_amount(c.resource, c.amount), c.rendered) << c.resource << " " << c.amount;
  }
}

TEST(ResourceVectorConvert, unparsable_entries_are_left_out_and_reported) {
  std::map<std::string, std::string> unparsable;
  const ResourceVector vector =
      to_vector({{"cpu", "500m"}, {"memory", "1Gi"}, {"pods", "zero"}, {"nvidia.com/gpu", "0"}}, &unparsable);
  EXPECT_EQ(vector, (ResourceVector{{"cpu", 500}, {"memory", 1073741824}}));
  EXPECT_EQ(unparsable,
            (std::map<std::string, std::string>{{"pods", R"(invalid quantity "zero": missing digits before "zero")"}}));
  EXPECT_EQ(to_vector({{"pods", "zero"}}), ResourceVector{});
}

TEST(ResourceVectorConvert, zero_and_negative_entries_are_absent) {
  EXPECT_EQ(to_vector({{"cpu", "0"}, {"memory", "-1Gi"}}), ResourceVector{});
}

TEST(ResourceVectorArithmetic, add_sums_per_resource_and_saturates) {
  ResourceVector into{{"cpu", 500}, {"memory", kMax - 1}};
  add_to(into, {{"cpu", 250}, {"memory", 5}, {"pods", 1}});
  EXPECT_EQ(into, (ResourceVector{{"cpu", 750}, {"memory", kMax}, {"pods", 1}}));
  // New resources land in order before, between and after the present ones.
  ResourceVector sparse{{"memory", 1}};
  add_to(sparse, {{"cpu", 2}, {"ephemeral-storage", 3}, {"pods", 4}});
  EXPECT_EQ(sparse, (ResourceVector{{"cpu", 2}, {"ephemeral-storage", 3}, {"memory", 1}, {"pods", 4}}));
  EXPECT_EQ(std::vector<std::string>({"cpu", "ephemeral-storage", "memory", "pods"}), [&] {
    std::vector<std::string> keys;
    for (const auto& [k, v] : sparse) keys.push_back(k);
    return keys;
  }());
}

TEST(ResourceVectorArithmetic, subtract_floors_at_zero_and_drops_zero_entries) {
  ResourceVector from{{"cpu", 500}, {"memory", 100}, {"pods", 2}};
  subtract_from(from, {{"cpu", 500}, {"memory", 300}, {"pods", 1}, {"nvidia.com/gpu", 4}});
  EXPECT_EQ(from, (ResourceVector{{"pods", 1}}));
}

TEST(ResourceVectorArithmetic, scaling_multiplies_each_entry_and_saturates) {
  EXPECT_EQ(scaled({{"cpu", 500}, {"memory", kMax / 2}}, 3), (ResourceVector{{"cpu", 1500}, {"memory", kMax}}));
  EXPECT_EQ(scaled({{"cpu", 500}}, 0), ResourceVector{});
  EXPECT_EQ(scaled({{"cpu", 500}}, -2), ResourceVector{});
}

TEST(WatchedObjectNames, kinds_have_their_koord_queue_names) {
  EXPECT_STREQ(kind_name(ObjectKind::kQueueUnit), "QueueUnit");
  EXPECT_STREQ(kind_name(ObjectKind::kQueue), "Queue");
  EXPECT_STREQ(kind_name(ObjectKind::kElasticQuota), "ElasticQuota");
  EXPECT_STREQ(resource_name(ObjectKind::kQueueUnit), "queueunits");
  EXPECT_STREQ(resource_name(ObjectKind::kQueue), "queues");
  EXPECT_STREQ(resource_name(ObjectKind::kElasticQuota), "elasticquotas");
}

TEST(WatchedObjectNames, meta_of_returns_the_metadata_of_any_kind) {
  Queue queue;
  queue.metadata.name = "q1";
  ElasticQuota quota;
  quota.metadata.name = "eq";
  EXPECT_EQ(meta_of(WatchedObject{queue}).name, "q1");
  EXPECT_EQ(meta_of(WatchedObject{quota}).name, "eq");
  EXPECT_EQ(kind_of(WatchedObject{quota}), ObjectKind::kElasticQuota);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
