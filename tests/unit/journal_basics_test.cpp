#include <fstream>

#include <gtest/gtest.h>

#include "journal/hash_chain.hpp"
#include "journal/head_file.hpp"
#include "journal/keys.hpp"
#include "journal/record_clock.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

TEST(JournalKeys, seq_keys_sort_numerically_as_bytes) {
  EXPECT_LT(seq_key(255), seq_key(256));
  EXPECT_LT(seq_key(1), seq_key(UINT64_MAX));
  EXPECT_EQ(decode_seq_key(seq_key(0x0102030405060708ULL)), 0x0102030405060708ULL);
  EXPECT_FALSE(decode_seq_key("short").has_value());
}

TEST(JournalKeys, time_keys_sort_by_time_then_seq_including_negative_times) {
  EXPECT_LT(time_key(-5, 9), time_key(0, 1));
  EXPECT_LT(time_key(7, 1), time_key(7, 2));
  EXPECT_LT(time_key(7, UINT64_MAX), time_key(8, 0));
  const auto k = decode_time_key(time_key(-123456789, 42));
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->unix_nanos, -123456789);
  EXPECT_EQ(k->seq, 42u);
}

TEST(HashChain, sha256_matches_the_standard_test_vector) {
  EXPECT_EQ(to_hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(HashChain, chain_hash_is_sha256_of_prev_then_bytes) {
  const Hash prev = sha256("uuid");
  EXPECT_EQ(chain_hash(prev, "B"), sha256(std::string(as_bytes(prev)) + "B"));
  EXPECT_EQ(genesis_hash("uuid"), prev);
}

TEST(HashChain, hex_round_trips_and_rejects_garbage) {
  const Hash h = sha256("x");
  Hash back{};
  ASSERT_TRUE(from_hex(to_hex(h), back));
  EXPECT_EQ(back, h);
  EXPECT_FALSE(from_hex("zz", back));
  EXPECT_FALSE(from_hex(std::string(64, 'G'), back));
}

TEST(HeadFile, missing_file_reads_as_absent_and_written_file_reads_back) {
  testing::TempDir dir;
  auto absent = read_head_file(dir / "HEAD");
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());
  const ChainHead head{42, sha256("h")};
  ASSERT_TRUE(write_head_file(dir / "HEAD", head).ok());
  auto back = read_head_file(dir / "HEAD");
  ASSERT_TRUE(back.ok());
  ASSERT_TRUE(back->has_value());
  EXPECT_EQ(**back, head);
  EXPECT_FALSE(std::filesystem::exists(dir / "HEAD.tmp"));
}

TEST(HeadFile, malformed_file_is_an_error_naming_the_file) {
  testing::TempDir dir;
  { std::ofstream(dir / "HEAD") << "12 nothex\n"; }
  auto r = read_head_file(dir / "HEAD");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("HEAD"), std::string::npos);
}

struct FakeClocks {
  int64_t wall = 1'000'000'000'000;
  int64_t mono = 5'000;
  RecordClock clock{[this] { return wall; }, [this] { return mono; }};
};

TEST(RecordClock, follows_the_wall_clock_when_it_agrees_with_monotonic_time) {
  FakeClocks c;
  const int64_t t0 = c.clock.now();
  EXPECT_EQ(t0, c.wall);
  c.wall += 1'000'000;
  c.mono += 1'000'000;
  EXPECT_EQ(c.clock.now(), t0 + 1'000'000);
}

TEST(RecordClock, a_backward_wall_step_never_makes_time_go_backwards) {
  FakeClocks c;
  const int64_t t0 = c.clock.now();
  c.wall -= 3'600'000'000'000;  // one hour back
  for (int i = 0; i < 100; ++i) {
    c.mono += 10'000'000;
    c.wall += 10'000'000;
    const int64_t t = c.clock.now();
    EXPECT_GE(t, t0);
  }
  EXPECT_EQ(c.clock.large_steps(), 1u);
}

TEST(RecordClock, a_forward_wall_step_is_slewed_at_most_one_millisecond_per_second) {
  FakeClocks c;
  const int64_t t0 = c.clock.now();
  c.wall += 10'000'000'000;  // NTP jumps 10 s ahead
  c.mono += 1'000'000'000;   // one real second passes
  c.wall += 1'000'000'000;
  const int64_t t1 = c.clock.now();
  EXPECT_EQ(t1 - t0, 1'000'000'000 + 1'000'000);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
