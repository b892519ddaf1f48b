#include "base/rfc3339.hpp"

#include <cstdio>
#include <ctime>
#include <random>

#include <gtest/gtest.h>

#include "base/time_units.hpp"

namespace koordq::base {
namespace KOORDQ_TEST_LOCAL {

using base::kSecond;

TEST(Rfc3339, utc_time_parses_to_nanoseconds_since_epoch) {
  auto t = parse_rfc3339("2026-04-20T08:00:00Z");
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(*t, 1776672000 * kSecond);
}

TEST(Rfc3339, fraction_and_offset_are_applied) {
  auto t = parse_rfc3339("2026-04-20T10:00:00.250+02:00");
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(*t, 1776672000 * kSecond + 250'000'000);
  auto west = parse_rfc3339("2026-04-20T07:30:00-00:30");
  ASSERT_TRUE(west.ok());
  EXPECT_EQ(*west, 1776672000 * kSecond);
}

TEST(Rfc3339, lowercase_t_and_z_are_accepted) {
  EXPECT_TRUE(parse_rfc3339("2026-04-20t08:00:00z").ok());
}

TEST(Rfc3339, epoch_and_pre_epoch_times_round_trip) {
  EXPECT_EQ(*parse_rfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(format_rfc3339_millis(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(format_rfc3339_seconds(-1), "1969-12-31T23:59:59Z");
}

TEST(Rfc3339, renders_whole_seconds_for_objects_and_milliseconds_for_koordq_output) {
  const int64_t t = 1776672001 * kSecond + 250'999'999;
  EXPECT_EQ(format_rfc3339_seconds(t), "2026-04-20T08:00:01Z");
  EXPECT_EQ(format_rfc3339_millis(t), "2026-04-20T08:00:01.250Z");
}

TEST(Rfc3339, leap_day_is_valid_only_in_leap_years) {
  EXPECT_TRUE(parse_rfc3339("2024-02-29T00:00:00Z").ok());
  EXPECT_FALSE(parse_rfc3339("2026-02-29T00:00:00Z").ok());
  EXPECT_TRUE(parse_rfc3339("2000-02-29T00:00:00Z").ok());
  EXPECT_FALSE(parse_rfc3339("1900-02-29T00:00:00Z").ok());
}

TEST(Rfc3339, malformed_times_are_errors_naming_the_input) {
  for (const char* bad : {"", "2026-04-20", "2026-04-20 08:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z",
                          "2026-04-20T24:00:00Z", "2026-04-20T08:60:00Z", "2026-04-20T08:00:60Z", "2026-04-20T08:00:00",
                          "2026-04-20T08:00:00.Z", "2026-04-20T08:00:00.1234567890Z", "2026-04-20T08:00:00+0200",
                          "2026-04-20T08:00:00Zjunk", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"}) {
    auto t = parse_rfc3339(bad);
    EXPECT_FALSE(t.ok()) << bad;
    if (!t.ok()) {
      EXPECT_NE(t.message().find(std::string("\"") + bad + "\""), std::string::npos) << t.message();
    }
  }
}

TEST(Rfc3339, formatting_then_parsing_millis_is_identity_on_whole_milliseconds) {
  for (int64_t ms : {0LL, 1LL, 999LL, 1776672001250LL, 4102444799999LL, -86400000LL}) {
    const int64_t ns = ms * 1'000'000;
    auto back = parse_rfc3339(format_rfc3339_millis(ns));
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_EQ(*back, ns);
  }
}

// The C library's calendar as the reference, over every year int64 nanoseconds reach (1677 to 2262).
TEST(Rfc3339, formatting_agrees_with_gmtime_across_four_digit_years) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> seconds(-9'223'372'035LL, 9'223'372'035LL);
  for (int i = 0; i < 20000; ++i) {
    const int64_t secs = seconds(rng);
    const int64_t ms = static_cast<int64_t>(rng() % 1000);
    const auto t = static_cast<time_t>(secs);
    std::tm tm{};
    ASSERT_NE(gmtime_r(&t, &tm), nullptr);
    char want[64];
    std::snprintf(want, sizeof want, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec);
    char want_ms[80];
    std::snprintf(want_ms, sizeof want_ms, "%s.%03dZ", want, static_cast<int>(ms));
    EXPECT_EQ(format_rfc3339_seconds(secs * kSecond + ms * 1'000'000), std::string(want) + "Z");
    ASSERT_EQ(format_rfc3339_millis(secs * kSecond + ms * 1'000'000), want_ms);
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::base
