// base/'s shared pieces, each the one implementation of its kind in koordq: the LRU cache, the token
// bucket, hex and base64 (kj), UUIDs (Boost.Uuid) and JSON string literals (as RapidJSON writes them).
#include <array>
#include <string>

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/base64.hpp"
#include "base/hex.hpp"
#include "base/json_string.hpp"
#include "base/lru_cache.hpp"
#include "base/time_units.hpp"
#include "base/token_bucket.hpp"
#include "base/uuid.hpp"

namespace koordq::base {
namespace KOORDQ_TEST_LOCAL {

TEST(LruCache, get_refreshes_and_put_evicts_the_oldest) {
  LruCache<int, int> cache(2);
  cache.put(1, 10);
  cache.put(2, 20);
  ASSERT_NE(cache.get(1), nullptr);
  cache.put(3, 30);
  EXPECT_EQ(cache.get(2), nullptr);
  EXPECT_EQ(*cache.get(1), 10);
  EXPECT_EQ(*cache.get(3), 30);
  cache.put(3, 31);
  EXPECT_EQ(*cache.get(3), 31);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(LruCache, a_cost_bound_forgets_the_least_recently_used_until_the_new_entry_fits) {
  LruCache<int, std::string> cache(100);
  cache.put(1, "a", 40);
  cache.put(2, "b", 40);
  cache.get(1);
  const auto evicted = cache.put(3, "c", 50);
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0], "b");
  EXPECT_TRUE(cache.contains(1));
  EXPECT_EQ(cache.cost(), 90u);
}

TEST(LruCache, the_entry_just_put_stays_even_over_the_capacity) {
  LruCache<int, int> cache(0);
  cache.put(1, 10);
  cache.put(2, 20);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_NE(cache.get(2), nullptr);
}

TEST(LruCache, take_hands_the_value_over_and_frees_its_cost) {
  LruCache<int, std::string> cache(100);
  cache.put(1, "a", 60);
  cache.put(2, "b", 30);
  const auto taken = cache.take(1);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(*taken, "a");
  EXPECT_FALSE(cache.contains(1));
  EXPECT_FALSE(cache.take(1).has_value());
  EXPECT_EQ(cache.cost(), 30u);
  EXPECT_TRUE(cache.put(3, "c", 70).empty()) << "the cost taken out is free again";
  EXPECT_EQ(cache.size(), 2u);
}

TEST(TokenBucket, try_take_spends_the_burst_then_one_token_per_interval) {
  TokenBucket bucket(2, static_cast<double>(300 * kSecond), 0);
  EXPECT_TRUE(bucket.try_take(0));
  EXPECT_TRUE(bucket.try_take(0));
  EXPECT_FALSE(bucket.try_take(0));
  EXPECT_FALSE(bucket.try_take(299 * kSecond));
  EXPECT_TRUE(bucket.try_take(300 * kSecond)) << "exactly one interval later";
}

TEST(TokenBucket, reserve_takes_on_credit_and_names_the_wait) {
  TokenBucket bucket(1, static_cast<double>(100 * kMillisecond), 0);
  EXPECT_EQ(bucket.reserve(0), 0);
  EXPECT_EQ(bucket.reserve(0), 100 * kMillisecond);
  EXPECT_EQ(bucket.reserve(0), 200 * kMillisecond);
}

TEST(Hex, encodes_lowercase_and_decodes_only_what_it_encodes) {
  EXPECT_EQ(hex_encode(std::string("\x00\x0a\xff", 3)), "000aff");
  EXPECT_EQ(hex_decode("000aff"), std::string("\x00\x0a\xff", 3));
  EXPECT_EQ(hex_decode(""), std::string());
  EXPECT_FALSE(hex_decode("0AFF")) << "uppercase";
  EXPECT_FALSE(hex_decode("0af")) << "odd length";
  EXPECT_FALSE(hex_decode("zz"));
}

TEST(Base64, decode_takes_only_the_canonical_padded_text) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");  // RFC 4648 §10, as Kubernetes stores []byte fields
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("hello"), "aGVsbG8=");
  EXPECT_EQ(base64_decode("aGVsbG8="), "hello");
  EXPECT_FALSE(base64_decode("aGVsbG8")) << "no padding";
  EXPECT_FALSE(base64_decode("aGVsbG9=")) << "bits set in the padding";
  EXPECT_FALSE(base64_decode("aGVs bG8=")) << "whitespace";
  EXPECT_FALSE(base64_decode("aGVs*bG8="));
}

TEST(Base64, a_wrapped_text_may_break_lines_but_must_be_padded) {
  EXPECT_EQ(base64_decode_wrapped("aGVs\n  bG8=\n"), "hello");
  EXPECT_FALSE(base64_decode_wrapped("aGVsbG8"));
  EXPECT_FALSE(base64_decode_wrapped(" \n"));
}

TEST(Uuid, random_uuids_are_version_4_and_differ) {
  const std::string a = random_uuid(), b = random_uuid();
  ASSERT_EQ(a.size(), 36u);
  EXPECT_EQ(a[14], '4');
  EXPECT_TRUE(a[19] == '8' || a[19] == '9' || a[19] == 'a' || a[19] == 'b');
  EXPECT_NE(a, b);
}

TEST(Uuid, name_uuids_are_the_rfc_4122_version_5_of_the_name) {
  // The namespace is the version 5 UUID of the DNS name koordq.io (RFC 4122 section 4.3, SHA-1):
  // 1c9b0e14-4b5c-5ec0-b63f-f90bfe446e72. The expected values are Python's uuid.uuid5 of the same.
  EXPECT_EQ(name_uuid("koordq-simulate-seed:7"), "47eb4055-62a3-5ea9-ae1c-cafefabe5627");
  EXPECT_EQ(name_uuid("koordq-simulate-seed:3"), "4d76c83f-95e7-5467-a5c3-1e4f39d91b8c");
}

TEST(Uuid, text_writes_the_bytes_as_they_are) {
  std::array<uint8_t, 16> bytes{};
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 17);
  EXPECT_EQ(uuid_text(bytes), "00112233-4455-6677-8899-aabbccddeeff");
}

// What RapidJSON's Writer writes for the string `text`.
std::string rapidjson_string(const std::string& text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

TEST(JsonString, escapes_every_byte_as_rapidjson_writer_does) {
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte.push_back(static_cast<char>(c));
  std::string out;
  append_json_string(out, every_byte);
  EXPECT_EQ(out, rapidjson_string(every_byte));
  out.clear();
  append_json_string(out, "a\"b\\c\x01\x7f/é");
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\u0001\x7f/é\"");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::base
