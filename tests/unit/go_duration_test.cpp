#include "base/go_duration.hpp"

#include <limits>

#include <gtest/gtest.h>

namespace koordq::base {
namespace KOORDQ_TEST_LOCAL {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

struct ParseCase {
  const char* text;
  int64_t nanos;
};

// Go's time.ParseDuration test table, plus the units of behaviour.md §0.
const ParseCase kValid[] = {
    {"0", 0},
    {"-0", 0},
    {"+0", 0},
    {"5s", 5 * kSecond},
    {"30s", 30 * kSecond},
    {"1478s", 1478 * kSecond},
    {"-5s", -5 * kSecond},
    {"+5s", 5 * kSecond},
    {"5.0s", 5 * kSecond},
    {"5.6s", 5 * kSecond + 600 * kMillisecond},
    {"5.s", 5 * kSecond},
    {".5s", 500 * kMillisecond},
    {"1.004s", kSecond + 4 * kMillisecond},
    {"100.00100s", 100 * kSecond + kMillisecond},
    {"10ns", 10},
    {"11us", 11 * kMicrosecond},
    {"12\xC2\xB5s", 12 * kMicrosecond},  // U+00B5
    {"12\xCE\xBCs", 12 * kMicrosecond},  // U+03BC
    {"13ms", 13 * kMillisecond},
    {"14s", 14 * kSecond},
    {"15m", 15 * kMinute},
    {"16h", 16 * kHour},
    {"300ms", 300 * kMillisecond},
    {"1.5h", 90 * kMinute},
    {"2h45m", 2 * kHour + 45 * kMinute},
    {"3h30m", 3 * kHour + 30 * kMinute},
    {"10.5s4m", 4 * kMinute + 10 * kSecond + 500 * kMillisecond},
    {"-2m3.4s", -(2 * kMinute + 3 * kSecond + 400 * kMillisecond)},
    {"1h2m3s4ms5us6ns", kHour + 2 * kMinute + 3 * kSecond + 4 * kMillisecond + 5 * kMicrosecond + 6},
    {"39h9m14.425s", 39 * kHour + 9 * kMinute + 14 * kSecond + 425 * kMillisecond},
    {"52763797000ns", 52763797000},
    {"9007199254740993ns", 9007199254740993},
    {"9223372036854775807ns", kMax},
    {"9223372036854775.807us", kMax},
    {"9223372036s854ms775us807ns", kMax},
    {"-9223372036854775808ns", kMin},
    {"-9223372036854775.808us", kMin},
    {"-9223372036s854ms775us808ns", kMin},
    {"-2562047h47m16.854775808s", kMin},
    {"0.100000000000000000000h", 6 * kMinute},
    {"0.830103483285477580700h", 49 * kMinute + 48 * kSecond + 372539827},
    // Exact, truncated toward zero: Go's float arithmetic rounds this one up to 20m.
    {"0.3333333333333333333h", 20 * kMinute - 1},
    {"1.0000000009s", kSecond},
    {"0.0000000019s", 1},
};

TEST(GoDuration, valid_durations_parse_to_exact_nanoseconds) {
  for (const ParseCase& c : kValid) {
    const Result<int64_t> parsed = parse_go_duration(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.message();
    EXPECT_EQ(*parsed, c.nanos) << c.text;
  }
}

TEST(GoDuration, invalid_durations_are_rejected) {
  for (const char* text :
       {"",    "3",   "-",   "+",   "s",  ".",    "-.",  ".s",   "+.s",      "1d",       "1.5",
        "5s3", "1 s", " 1s", "1s ", "1S", "1sec", "1hm", "--1s", "\x85\x85", "\xFF\xFF", "hello \xFF\xFF world",
        "1e3s"}) {
    EXPECT_FALSE(parse_go_duration(text).ok()) << '"' << text << '"';
  }
}

TEST(GoDuration, values_beyond_int64_nanoseconds_are_errors) {
  for (const char* text :
       {"9223372036854775808ns", "9223372036854775.808us", "9223372036s854ms775us808ns", "-9223372036854775809ns",
        "2562048h", "99999999999999999999h", "2562047h47m16.854775808s", "106752d"}) {
    const Result<int64_t> parsed = parse_go_duration_with_days(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.message().find("out of range"), std::string::npos) << parsed.message();
  }
}

TEST(GoDuration, error_messages_name_the_problem) {
  EXPECT_EQ(parse_go_duration("abc").message(), "invalid duration \"abc\"");
  EXPECT_EQ(parse_go_duration("15").message(), "missing unit in duration \"15\"");
  EXPECT_EQ(parse_go_duration("1x").message(), "unknown unit \"x\" in duration \"1x\"");
  EXPECT_EQ(parse_go_duration("30d").message(), "unknown unit \"d\" in duration \"30d\"");
}

TEST(GoDuration, retention_ages_may_use_days) {
  EXPECT_EQ(*parse_go_duration_with_days("30d"), 30 * kDay);
  EXPECT_EQ(*parse_go_duration_with_days("1d12h"), 36 * kHour);
  EXPECT_EQ(*parse_go_duration_with_days("0.5d"), 12 * kHour);
  EXPECT_EQ(*parse_go_duration_with_days("720h"), 30 * kDay);
  EXPECT_EQ(*parse_go_duration_with_days("106751d23h47m16.854775807s"), kMax);
}

struct FormatCase {
  int64_t nanos;
  const char* text;
};

// Go's Duration.String() test table.
const FormatCase kFormats[] = {
    {0, "0s"},
    {1, "1ns"},
    {1100, "1.1\xC2\xB5s"},
    {2200 * kMicrosecond, "2.2ms"},
    {3300 * kMillisecond, "3.3s"},
    {4 * kMinute + 5 * kSecond, "4m5s"},
    {4 * kMinute + 5001 * kMillisecond, "4m5.001s"},
    {5 * kHour + 6 * kMinute + 7001 * kMillisecond, "5h6m7.001s"},
    {8 * kMinute + 1, "8m0.000000001s"},
    {kMax, "2562047h47m16.854775807s"},
    {kMin, "-2562047h47m16.854775808s"},
    {15 * kSecond, "15s"},
    {2 * kHour + 45 * kMinute, "2h45m0s"},
    {1500 * kMillisecond, "1.5s"},
    {-90 * kSecond, "-1m30s"},
    {30 * kDay, "720h0m0s"},
    {999, "999ns"},
    {kMicrosecond, "1\xC2\xB5s"},
};

TEST(GoDuration, formats_like_go) {
  for (const FormatCase& c : kFormats) EXPECT_EQ(format_go_duration(c.nanos), c.text) << c.nanos;
}

TEST(GoDuration, formatted_durations_parse_back) {
  for (const FormatCase& c : kFormats) {
    const Result<int64_t> parsed = parse_go_duration(format_go_duration(c.nanos));
    ASSERT_TRUE(parsed.ok()) << c.text;
    EXPECT_EQ(*parsed, c.nanos);
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::base
