// The archive's layout and segments (archive/archive_location.hpp, archive/segment.hpp): the URL
// and keys it reads and writes, and a segment that is a verifiable export of its seq range, whose
// every alteration is named. The archive writer and readers against a real S3 server:
// tests/e2e/archive_test.sh.
#include <algorithm>
#include <future>
#include <string>

#include <gtest/gtest.h>
#include <zstd.h>

#include "archive/archive_location.hpp"
#include "archive/segment.hpp"
#include "journal/journal.hpp"
#include "journal/signed_statements.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::archive {
namespace {

constexpr char kUuid[] = "00000000-0000-4000-8000-0000000000a1";

TEST(ArchiveUrl, takes_a_bucket_and_an_optional_prefix) {
  auto plain = parse_archive_url("s3://koordq-archive");
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(plain->bucket, "koordq-archive");
  EXPECT_EQ(plain->prefix, "");
  auto nested = parse_archive_url("s3://koordq-archive/prod/eu-1/");
  ASSERT_TRUE(nested.ok()) << nested.message();
  EXPECT_EQ(nested->prefix, "prod/eu-1");
  EXPECT_EQ(nested->url(), "s3://koordq-archive/prod/eu-1");
}

TEST(ArchiveUrl, refuses_what_is_not_an_s3_url_naming_the_form) {
  for (const char* bad : {"https://bucket/x", "bucket/x", "s3://", "s3://Upper_Case", "s3://b/a//c"}) {
    auto parsed = parse_archive_url(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.message().find("give s3://BUCKET or s3://BUCKET/PREFIX"), std::string::npos) << parsed.message();
  }
}

TEST(SegmentKey, sorts_by_seq_and_reads_back_what_it_writes) {
  const ArchiveLocation at{"b", "prod"};
  const SegmentName name{"c0ffee", kUuid, 20001, 30000};
  const std::string key = segment_key(at, name);
  EXPECT_EQ(key,
            std::string("prod/c0ffee/") + kUuid + "/segments/00000000000000020001-00000000000000030000.ndjson.zst");
  EXPECT_EQ(parse_segment_key(at, key), name);
  EXPECT_LT(segment_key(at, {"c0ffee", kUuid, 9999, 20000}), key);
  EXPECT_EQ(parse_segment_key({"b", ""}, segment_key({"b", ""}, name)), name);
}

TEST(SegmentKey, other_keys_are_not_segments) {
  const ArchiveLocation at{"b", "prod"};
  const std::string dir = std::string("prod/c/") + kUuid + "/segments/";
  for (const std::string& key :
       {dir + "00000000000000000001-00000000000000000009.ndjson", dir + "1-9.ndjson.zst",
        dir + "00000000000000000009-00000000000000000001.ndjson.zst",
        dir + "00000000000000000000-00000000000000000001.ndjson.zst",
        std::string("other/c/") + kUuid + "/segments/00000000000000000001-00000000000000000009.ndjson.zst",
        std::string("prod/c/") + kUuid + "/00000000000000000001-00000000000000000009.ndjson.zst",
        std::string("prod/") + kUuid + "/segments/00000000000000000001-00000000000000000009.ndjson.zst"}) {
    EXPECT_FALSE(parse_segment_key(at, key)) << key;
  }
}

class SegmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    journal::JournalOptions o;
    o.dir = dir_ / "journal";
    o.new_uuid = kUuid;
    journal_ = std::move(journal::Journal::open(o)).value();
    for (int i = 0; i < 10; ++i) {
      std::promise<void> done;
      journal_->writer().append(testing::tick_body(), [&](const Result<journal::AppendedRecord>& r) {
        EXPECT_TRUE(r.ok());
        done.set_value();
      });
      done.get_future().wait();
    }
  }

  std::shared_ptr<const journal::SigningKey> key_pair(const std::string& name) {
    const auto private_pem = dir_ / (name + ".pem");
    EXPECT_TRUE(journal::generate_signing_key_pair(private_pem, dir_ / (name + ".pub.pem")).ok());
    return std::make_shared<const journal::SigningKey>(std::move(journal::SigningKey::load(private_pem)).value());
  }

  journal::Hash hash_at(uint64_t seq) { return (*journal_->reader().get(seq))->hash(); }

  testing::TempDir dir_;
  std::unique_ptr<journal::Journal> journal_;
};

TEST_F(SegmentTest, a_segment_is_a_verifiable_export_of_its_range) {
  auto built = build_segment(journal_->reader(), 3, 7, nullptr);
  ASSERT_TRUE(built.ok()) << built.message();
  EXPECT_EQ(built->records, 5u);
  EXPECT_EQ(built->head, hash_at(7));
  EXPECT_LT(built->bytes.size(), built->uncompressed_bytes);
  const SegmentCheck check = check_segment(built->bytes, nullptr);
  ASSERT_EQ(check.error, "");
  EXPECT_EQ(check.report.first_seq, 3u);
  EXPECT_EQ(check.report.last_seq, 7u);
  EXPECT_EQ(check.report.head, hash_at(7));
  EXPECT_EQ(check.first_prev_hash, hash_at(2));
  EXPECT_EQ(check.journal_uuid, kUuid);
  auto text = decompress_segment(built->bytes);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 6);  // five records and the trailer
}

TEST_F(SegmentTest, a_range_the_journal_does_not_hold_is_refused) {
  EXPECT_FALSE(build_segment(journal_->reader(), 8, 11, nullptr).ok());
  EXPECT_FALSE(build_segment(journal_->reader(), 0, 3, nullptr).ok());
  EXPECT_FALSE(build_segment(journal_->reader(), 5, 4, nullptr).ok());
}

TEST_F(SegmentTest, every_alteration_is_named) {
  auto built = build_segment(journal_->reader(), 1, 10, nullptr);
  ASSERT_TRUE(built.ok());
  const std::string object = built->bytes;
  EXPECT_NE(check_segment(object.substr(0, object.size() / 2), nullptr).error.find("truncated"), std::string::npos);
  EXPECT_NE(check_segment("not zstd at all", nullptr).error.find("not a zstd frame"), std::string::npos);
  // A line changed inside an intact frame: the chain names its seq.
  auto text = decompress_segment(object);
  ASSERT_TRUE(text.ok());
  std::string altered = *text;
  const size_t second_line = altered.find('\n') + 1;
  const size_t hash = altered.find("\"hash\":\"", second_line) + 8;
  ASSERT_LT(hash, altered.find('\n', second_line));
  altered[hash] = altered[hash] == '1' ? '2' : '1';
  std::string recompressed(ZSTD_compressBound(altered.size()), '\0');
  recompressed.resize(ZSTD_compress(recompressed.data(), recompressed.size(), altered.data(), altered.size(), 3));
  const SegmentCheck check = check_segment(recompressed, nullptr);
  EXPECT_NE(check.error, "");
  EXPECT_NE(check.error.find("seq 2"), std::string::npos) << check.error;
}

TEST_F(SegmentTest, a_signed_segment_verifies_with_its_key_only) {
  const auto owner = key_pair("owner");
  const auto other = key_pair("other");
  auto built = build_segment(journal_->reader(), 1, 10, owner.get());
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(check_segment(built->bytes, &owner->verifying_key()).error, "");
  EXPECT_NE(check_segment(built->bytes, &other->verifying_key()).error, "");
  auto unsigned_segment = build_segment(journal_->reader(), 1, 10, nullptr);
  ASSERT_TRUE(unsigned_segment.ok());
  EXPECT_NE(check_segment(unsigned_segment->bytes, &owner->verifying_key()).error, "");
}

}  // namespace
}  // namespace koordq::archive
