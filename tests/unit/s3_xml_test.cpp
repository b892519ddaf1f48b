// archive/s3_xml: ListObjectsV2 pages and Object Lock configurations as Ceph RGW writes them, and
// documents that are not what S3 sends.
#include "archive/s3_xml.hpp"

#include <gtest/gtest.h>

namespace koordq::archive {
namespace KOORDQ_TEST_LOCAL {

// Recorded from Ceph RGW 16.2 (Debian 12), a page of two with more to come.
const char* kTruncatedPage =
    R"(<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">)"
    "<Name>koordq-test</Name><Prefix>p/</Prefix><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>"
    "<Contents><Key>p/a.txt</Key><LastModified>2026-12-06T16:55:28.810Z</LastModified>"
    "<ETag>&quot;5eb63bbbe01eeed093cb22bb8f5acdc3&quot;</ETag><Size>11</Size><StorageClass>STANDARD</StorageClass>"
    "<Type>Normal</Type></Contents>"
    "<Contents><Key>p/b &amp; c.txt</Key><LastModified>2026-12-06T16:55:29.000Z</LastModified>"
    "<ETag>&quot;d41d8cd98f00b204e9800998ecf8427e&quot;</ETag><Size>0</Size></Contents>"
    "<KeyCount>2</KeyCount><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>"
    "</ListBucketResult>";

TEST(ListObjectsV2, a_page_gives_keys_sizes_etags_and_the_continuation) {
  const Result<ListObjectsPage> page = parse_list_objects_v2(kTruncatedPage);
  ASSERT_TRUE(page.ok()) << page.message();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "p/a.txt");
  EXPECT_EQ(page->objects[0].size, 11u);
  EXPECT_EQ(page->objects[0].etag, "5eb63bbbe01eeed093cb22bb8f5acdc3");
  EXPECT_EQ(page->objects[0].last_modified, "2026-12-06T16:55:28.810Z");
  EXPECT_EQ(page->objects[1].key, "p/b & c.txt");
  EXPECT_EQ(page->objects[1].size, 0u);
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_continuation_token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
}

TEST(ListObjectsV2, the_last_page_is_not_truncated_and_may_be_empty) {
  const Result<ListObjectsPage> page =
      parse_list_objects_v2("<ListBucketResult><Name>b</Name><IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(page.ok()) << page.message();
  EXPECT_TRUE(page->objects.empty());
  EXPECT_FALSE(page->truncated);
}

TEST(ListObjectsV2, documents_that_are_not_a_listing_are_refused_naming_what_is_wrong) {
  EXPECT_NE(parse_list_objects_v2("<html>").message().find("not XML"), std::string::npos);
  EXPECT_NE(parse_list_objects_v2("<Other/>").message().find("<ListBucketResult>"), std::string::npos);
  EXPECT_NE(
      parse_list_objects_v2("<ListBucketResult><Contents><Key>k</Key><Size>x</Size></Contents></ListBucketResult>")
          .message()
          .find("<Size>"),
      std::string::npos);
  EXPECT_NE(parse_list_objects_v2("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>")
                .message()
                .find("NextContinuationToken"),
            std::string::npos);
}

TEST(ObjectLockConfiguration, enabled_with_and_without_a_default_retention) {
  const Result<ObjectLockConfiguration> bare = parse_object_lock_configuration(
      R"(<?xml version="1.0" encoding="UTF-8"?><ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled></ObjectLockConfiguration>)");
  ASSERT_TRUE(bare.ok()) << bare.message();
  EXPECT_TRUE(bare->enabled);
  EXPECT_EQ(bare->default_mode, std::nullopt);
  const Result<ObjectLockConfiguration> with_rule = parse_object_lock_configuration(
      "<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention>"
      "<Mode>GOVERNANCE</Mode><Days>30</Days></DefaultRetention></Rule></ObjectLockConfiguration>");
  ASSERT_TRUE(with_rule.ok()) << with_rule.message();
  EXPECT_EQ(with_rule->default_mode, ObjectLockMode::kGovernance);
  EXPECT_EQ(with_rule->default_days, 30);
  EXPECT_EQ(with_rule->default_years, std::nullopt);
  EXPECT_FALSE(parse_object_lock_configuration(
                   "<ObjectLockConfiguration><Rule><DefaultRetention><Mode>FOREVER</Mode></DefaultRetention></Rule>"
                   "</ObjectLockConfiguration>")
                   .ok());
}

TEST(S3ErrorDocument, only_an_error_with_a_code_is_one) {
  const auto document = parse_s3_error_document("<Error><Code>NoSuchKey</Code><Message>gone</Message></Error>");
  ASSERT_TRUE(document.has_value());
  EXPECT_EQ(document->code, "NoSuchKey");
  EXPECT_EQ(document->message, "gone");
  EXPECT_FALSE(parse_s3_error_document("<Error><Message>no code</Message></Error>").has_value());
  EXPECT_FALSE(parse_s3_error_document("").has_value());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::archive
