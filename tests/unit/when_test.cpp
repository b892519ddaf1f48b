#include "cmd/when.hpp"

#include <gtest/gtest.h>

#include "base/time_units.hpp"

namespace koordq::cmd {
namespace KOORDQ_TEST_LOCAL {

using base::kSecond;

TEST(When, rev_n_is_a_revision_from_1) {
  EXPECT_EQ(*parse_when("rev:1"), (When{When::Kind::revision, 0, 1, "rev:1"}));
  EXPECT_EQ(parse_when("rev:48213")->revision, 48213u);
  EXPECT_EQ(parse_when("rev:18446744073709551615")->revision, 18446744073709551615u);
}

TEST(When, an_rfc3339_time_with_fraction_and_offset_is_a_time) {
  const Result<When> when = parse_when("2026-04-20T10:00:00.250+02:00");
  ASSERT_TRUE(when.ok()) << when.message();
  EXPECT_EQ(when->kind, When::Kind::time);
  EXPECT_EQ(when->unix_nanos, 1776672000 * kSecond + 250'000'000);
  EXPECT_EQ(when->text, "2026-04-20T10:00:00.250+02:00");
  EXPECT_EQ(parse_when("2026-04-20T08:00:00Z")->unix_nanos, 1776672000 * kSecond);
}

TEST(When, revision_zero_and_malformed_revisions_are_rejected) {
  for (const char* text :
       {"rev:0", "rev:", "rev:-1", "rev:+1", "rev:1a", "rev: 1", "rev:00", "rev:18446744073709551616"}) {
    const Result<When> when = parse_when(text);
    ASSERT_FALSE(when.ok()) << text;
    EXPECT_EQ(when.message(), "must be rev:N with N an integer >= 1") << text;
  }
}

TEST(When, anything_else_must_be_an_rfc3339_time) {
  for (const char* text : {"", "REV:1", "1", "yesterday", "2026-04-20", "2026-04-20T08:00:00", "2026-13-01T00:00:00Z",
                           "2026-04-20 08:00:00Z"}) {
    const Result<When> when = parse_when(text);
    ASSERT_FALSE(when.ok()) << text;
    EXPECT_EQ(when.message(),
              "must be an RFC3339 time such as 2026-04-20T10:00:00Z (fraction and offset allowed) or rev:N")
        << text;
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::cmd
