#include "base/byte_size.hpp"

#include <gtest/gtest.h>

#include "base/go_duration.hpp"

namespace koordq::base {
namespace KOORDQ_TEST_LOCAL {

struct SizeCase {
  const char* text;
  int64_t bytes;
};

// behaviour.md §21: B, KB, MB, GB, TB are powers of 1000; KiB, MiB, GiB, TiB powers of 1024.
const SizeCase kSizes[] = {
    {"0B", 0},
    {"1B", 1},
    {"7B", 7},
    {"1KB", 1000},
    {"1MB", 1000 * 1000},
    {"500MB", 500'000'000},
    {"1GB", 1'000'000'000},
    {"1TB", 1'000'000'000'000},
    {"1KiB", 1024},
    {"1MiB", 1024 * 1024},
    {"1GiB", int64_t{1} << 30},
    {"20GiB", int64_t{20} << 30},
    {"1TiB", int64_t{1} << 40},
    {"8388607TiB", int64_t{8388607} << 40},
    {"9223372036854775807B", std::numeric_limits<int64_t>::max()},
};

TEST(ByteSize, sizes_parse_with_decimal_and_binary_units) {
  for (const SizeCase& c : kSizes) {
    const Result<int64_t> parsed = parse_byte_size(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.message();
    EXPECT_EQ(*parsed, c.bytes) << c.text;
  }
}

TEST(ByteSize, malformed_sizes_are_rejected) {
  for (const char* text :
       {"", "B", "GiB", "20", "20G", "20gib", "20kb", "20 GiB", " 1B", "1B ", "-1B", "+1B", "1.5GiB", "1PiB", "1iB"}) {
    EXPECT_FALSE(parse_byte_size(text).ok()) << '"' << text << '"';
  }
  EXPECT_EQ(parse_byte_size("20").message(), "missing unit in size \"20\"");
  EXPECT_EQ(parse_byte_size("20G").message(), "unknown unit \"G\" in size \"20G\"");
}

TEST(ByteSize, sizes_beyond_int64_bytes_are_errors) {
  for (const char* text : {"8388608TiB", "9223372036854775808B", "99999999999999999999999B", "9223372036854776KB"}) {
    const Result<int64_t> parsed = parse_byte_size(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.message().find("out of range"), std::string::npos) << parsed.message();
  }
}

TEST(ByteSize, formats_with_the_largest_exact_unit) {
  EXPECT_EQ(format_byte_size(int64_t{20} << 30), "20GiB");
  EXPECT_EQ(format_byte_size(1'500'000), "1500KB");
  EXPECT_EQ(format_byte_size(1536), "1536B") << "1.5KiB is not a whole number of any unit but B";
  EXPECT_EQ(format_byte_size(2048), "2KiB");
  EXPECT_EQ(format_byte_size(7), "7B");
  EXPECT_EQ(format_byte_size(0), "0B");
  for (const SizeCase& c : kSizes) EXPECT_EQ(*parse_byte_size(format_byte_size(c.bytes)), c.bytes) << c.text;
}

TEST(Retention, an_age_or_a_size) {
  EXPECT_EQ(*parse_retention("30d"), (Retention{Retention::Kind::age, 30 * kDay}));
  EXPECT_EQ(*parse_retention("720h"), (Retention{Retention::Kind::age, 30 * kDay}));
  EXPECT_EQ(*parse_retention("1d12h"), (Retention{Retention::Kind::age, 36 * kHour}));
  EXPECT_EQ(*parse_retention("20GiB"), (Retention{Retention::Kind::size, int64_t{20} << 30}));
  EXPECT_EQ(*parse_retention("500MB"), (Retention{Retention::Kind::size, 500'000'000}));
  EXPECT_FALSE(parse_retention("30").ok());
  EXPECT_FALSE(parse_retention("lots").ok());
  EXPECT_FALSE(parse_retention("20G").ok());
  EXPECT_EQ(format_retention(*parse_retention("30d")), "720h0m0s");
  EXPECT_EQ(format_retention(*parse_retention("20GiB")), "20GiB");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::base
