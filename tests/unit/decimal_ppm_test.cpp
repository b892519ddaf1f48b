#include "base/decimal_ppm.hpp"

#include <gtest/gtest.h>

namespace koordq::base {
namespace KOORDQ_TEST_LOCAL {

struct PpmCase {
  const char* text;
  int64_t ppm;
};

// behaviour.md §8.2: `1` → 1000000, `1.2` → 1200000, `0.000001` → 1.
const PpmCase kDecimals[] = {
    {"1", 1'000'000},
    {"1.2", 1'200'000},
    {"0.000001", 1},
    {"0", 0},
    {"2.500000", 2'500'000},
    {".5", 500'000},
    {"5.", 5'000'000},
    {"0.25", 250'000},
    {"007", 7'000'000},
    {"9223372036854", 9'223'372'036'854'000'000},
    {"9223372036854.775807", 9223372036854775807},
};

TEST(DecimalPpm, decimals_parse_to_parts_per_million) {
  for (const PpmCase& c : kDecimals) {
    const Result<int64_t> parsed = parse_decimal_ppm(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.message();
    EXPECT_EQ(*parsed, c.ppm) << c.text;
  }
}

TEST(DecimalPpm, more_than_six_fractional_digits_signs_exponents_and_garbage_are_rejected) {
  for (const char* text : {"", ".", "1.0000001", "0.0000001", "-1", "+1", "1e3", "1,5", "1.2.3", " 1", "1 ", "abc",
                           "1.5x", "9223372036855", "9223372036854.775808"}) {
    EXPECT_FALSE(parse_decimal_ppm(text).ok()) << '"' << text << '"';
  }
}

TEST(DecimalPpm, formats_the_shortest_decimal) {
  EXPECT_EQ(format_decimal_ppm(1'000'000), "1");
  EXPECT_EQ(format_decimal_ppm(1'200'000), "1.2");
  EXPECT_EQ(format_decimal_ppm(1), "0.000001");
  EXPECT_EQ(format_decimal_ppm(0), "0");
  EXPECT_EQ(format_decimal_ppm(-1'500'000), "-1.5");
  for (const PpmCase& c : kDecimals) EXPECT_EQ(*parse_decimal_ppm(format_decimal_ppm(c.ppm)), c.ppm) << c.text;
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::base
