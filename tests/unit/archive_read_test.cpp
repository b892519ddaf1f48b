// Reading the archive (archive/segment_selection.hpp, segment_cache.hpp, segment_fetch.hpp): only
// the segments a range needs, a local journal that must join the archive's chain exactly, and a
// bounded segment cache whose copies are checked again before use. The commands that read the
// archive against a real S3 server: tests/e2e/archive_test.sh.
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "archive/segment.hpp"
#include "archive/segment_cache.hpp"
#include "archive/segment_fetch.hpp"
#include "archive/segment_selection.hpp"
#include "journal/journal.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::archive {
namespace {

constexpr char kReadUuid[] = "00000000-0000-4000-8000-0000000000b2";

ArchivedSegment listed_segment(uint64_t first, uint64_t last, uint64_t size = 100) {
  ArchivedSegment s;
  s.name = {"c", kReadUuid, first, last};
  s.key = segment_key({"b", "p"}, s.name);
  s.size = size;
  return s;
}

std::vector<uint64_t> firsts(const std::vector<ArchivedSegment>& segments) {
  std::vector<uint64_t> out;
  for (const auto& s : segments) out.push_back(s.name.first_seq);
  return out;
}

TEST(SegmentsForRange, reads_only_the_segments_that_hold_the_range) {
  const std::vector<ArchivedSegment> all = {listed_segment(1, 100), listed_segment(101, 200), listed_segment(201, 300),
                                            listed_segment(301, 400)};
  EXPECT_EQ(firsts(*segments_for_range(all, 1, 50)), (std::vector<uint64_t>{1}));
  EXPECT_EQ(firsts(*segments_for_range(all, 150, 250)), (std::vector<uint64_t>{101, 201}));
  EXPECT_EQ(firsts(*segments_for_range(all, 100, 101)), (std::vector<uint64_t>{1, 101}));
  EXPECT_EQ(firsts(*segments_for_range(all, 1, 400)), (std::vector<uint64_t>{1, 101, 201, 301}));
}

TEST(SegmentsForRange, names_the_first_seq_no_segment_holds) {
  const std::vector<ArchivedSegment> gap = {listed_segment(1, 100), listed_segment(201, 300)};
  auto missing = segments_for_range(gap, 50, 250);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("seq 101 is missing from the archive"), std::string::npos) << missing.message();
  EXPECT_TRUE(segments_for_range(gap, 201, 250).ok());  // a gap the range does not cross is no matter

  const std::vector<ArchivedSegment> later = {listed_segment(101, 200)};
  auto before = segments_for_range(later, 1, 150);
  ASSERT_FALSE(before.ok());
  EXPECT_NE(before.message().find("the archive starts at seq 101: seq 1..100 is not in it"), std::string::npos)
      << before.message();
  auto after = segments_for_range(later, 150, 250);
  ASSERT_FALSE(after.ok());
  EXPECT_NE(after.message().find("the archive ends at seq 200: seq 201..250 is not in it yet"), std::string::npos)
      << after.message();
  EXPECT_FALSE(segments_for_range({}, 1, 1).ok());
}

TEST(CheckJoin, a_local_journal_continues_the_archive_only_through_the_hash_of_the_seq_before_it) {
  journal::Hash h{};
  h[0] = 7;
  EXPECT_TRUE(check_join(99, h, 100, h).ok());
  EXPECT_TRUE(check_join(0, {}, 1, h).ok());  // a local journal from seq 1 needs no archive

  journal::Hash other = h;
  other[0] = 8;
  auto fork = check_join(99, h, 100, other);
  ASSERT_FALSE(fork.ok());
  EXPECT_NE(fork.message().find("its seq 100 has prevHash " + journal::to_hex(other)), std::string::npos)
      << fork.message();
  EXPECT_NE(fork.message().find("the archive's seq 99 has hash " + journal::to_hex(h)), std::string::npos);
  EXPECT_NE(fork.message().find("fork"), std::string::npos);

  auto gap = check_join(80, h, 100, h);
  ASSERT_FALSE(gap.ok());
  EXPECT_NE(gap.message().find("the archive ends at seq 80 but the local journal starts at seq 100: seq 81..99 is "
                               "in neither"),
            std::string::npos)
      << gap.message();
}

TEST(SegmentCacheDir, follows_xdg_cache_home_then_home) {
  std::map<std::string, std::string> vars = {{"XDG_CACHE_HOME", "/x"}, {"HOME", "/home/u"}};
  auto env = [&](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    return it == vars.end() ? std::nullopt : std::optional(it->second);
  };
  EXPECT_EQ(default_segment_cache_dir(env), std::filesystem::path("/x/koordq/archive"));
  vars.erase("XDG_CACHE_HOME");
  EXPECT_EQ(default_segment_cache_dir(env), std::filesystem::path("/home/u/.cache/koordq/archive"));
  vars.clear();
  EXPECT_EQ(default_segment_cache_dir(env), std::filesystem::path());
}

TEST(SegmentCache, keeps_a_segment_of_the_listed_size_and_nothing_else) {
  testing::TempDir dir;
  SegmentCache cache(dir / "cache", 1000);
  const ArchivedSegment s = listed_segment(1, 10, 5);
  EXPECT_FALSE(cache.get("b", s));
  cache.put("b", s, "12345");
  EXPECT_EQ(cache.get("b", s), "12345");
  EXPECT_FALSE(cache.get("other-bucket", s));
  ArchivedSegment resized = s;
  resized.size = 6;  // the object in the bucket is not the one cached
  EXPECT_FALSE(cache.get("b", resized));
  cache.drop("b", s);
  EXPECT_FALSE(cache.get("b", s));
  EXPECT_EQ(cache.warning(), "");
}

TEST(SegmentCache, a_key_cannot_name_a_path_outside_the_directory) {
  testing::TempDir dir;
  SegmentCache cache(dir / "cache", 1000);
  ArchivedSegment hostile = listed_segment(1, 10, 3);
  hostile.key = "../../escaped";
  cache.put("b", hostile, "abc");
  EXPECT_FALSE(std::filesystem::exists(dir / "escaped"));
  EXPECT_EQ(cache.held_bytes(), 3u);
}

TEST(SegmentCache, stays_within_its_bound_dropping_the_least_recently_used) {
  testing::TempDir dir;
  SegmentCache cache(dir / "cache", 250);
  const ArchivedSegment a = listed_segment(1, 10, 100), b = listed_segment(11, 20, 100),
                        c = listed_segment(21, 30, 100);
  const std::string hundred(100, 'x');
  cache.put("b", a, hundred);
  cache.put("b", b, hundred);
  // a is used after b: b is now the least recently used.
  const auto past = std::filesystem::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto& entry : std::filesystem::directory_iterator(dir / "cache")) {
    std::filesystem::last_write_time(entry.path(), past);
  }
  ASSERT_TRUE(cache.get("b", a));
  cache.put("b", c, hundred);
  EXPECT_LE(cache.held_bytes(), 250u);
  EXPECT_TRUE(cache.get("b", a));
  EXPECT_FALSE(cache.get("b", b));
  EXPECT_TRUE(cache.get("b", c));

  SegmentCache none(dir / "none", 0);
  none.put("b", a, hundred);
  EXPECT_FALSE(std::filesystem::exists(dir / "none"));
}

// A client that can reach nothing: a fetch that gets this far failed to use the cache.
S3Client unreachable_client() {
  std::map<std::string, std::string> vars = {
      {"AWS_ENDPOINT_URL", "http://127.0.0.1:9"}, {"AWS_ACCESS_KEY_ID", "k"}, {"AWS_SECRET_ACCESS_KEY", "s"}};
  auto env = [&](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    return it == vars.end() ? std::nullopt : std::optional(it->second);
  };
  return S3Client(std::move(s3_config_from_environment(env)).value());
}

TEST(SegmentFetch, a_cached_copy_is_used_only_when_it_checks_as_the_segment_its_key_names) {
  testing::TempDir dir;
  journal::JournalOptions o;
  o.dir = dir / "journal";
  o.new_uuid = kReadUuid;
  auto j = std::move(journal::Journal::open(o)).value();
  for (int i = 0; i < 6; ++i) {
    std::promise<void> done;
    j->writer().append(testing::tick_body(), [&](const Result<journal::AppendedRecord>&) { done.set_value(); });
    done.get_future().wait();
  }
  auto built = build_segment(j->reader(), 1, 3, nullptr);
  ASSERT_TRUE(built.ok()) << built.message();
  auto other = build_segment(j->reader(), 4, 6, nullptr);
  ASSERT_TRUE(other.ok());
  const ArchiveLocation at{"b", "p"};
  ArchivedSegment s = listed_segment(1, 3, built->bytes.size());
  SegmentCache cache(dir / "cache", 1 << 20);
  S3Client client = unreachable_client();

  cache.put(at.bucket, s, built->bytes);
  FetchCounts counts;
  auto cached = fetch_segment(client, &cache, at, s, nullptr, counts);
  ASSERT_TRUE(cached.ok()) << cached.message();
  EXPECT_EQ(cached->problem, "");
  EXPECT_EQ(cached->check.report.last_seq, 3u);
  EXPECT_EQ(counts.cached, 1u);

  // Another segment's bytes under this key (same size, so only the check can tell): refused,
  // dropped, and fetched again (which fails here: nothing listens).
  std::string altered = built->bytes;
  altered[altered.size() / 2] ^= 0x20;
  cache.put(at.bucket, s, altered);
  auto refused = fetch_segment(client, &cache, at, s, nullptr, counts);
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(counts.cached, 1u);
  EXPECT_FALSE(cache.get(at.bucket, s));
  s.size = other->bytes.size();
  cache.put(at.bucket, s, other->bytes);
  EXPECT_FALSE(fetch_segment(client, &cache, at, s, nullptr, counts).ok());
  EXPECT_EQ(counts.cached, 1u);
}

}  // namespace
}  // namespace koordq::archive
