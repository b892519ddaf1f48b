// archive/s3_url: the URL of each request in the form SigV4 signs, path-style and virtual-host.
#include "archive/s3_url.hpp"

#include <gtest/gtest.h>

namespace koordq::archive {
namespace KOORDQ_TEST_LOCAL {

const S3Endpoint kLocal{"http", "127.0.0.1", 7480};
const S3Endpoint kAws{"https", "s3.eu-west-1.amazonaws.com", std::nullopt};

TEST(S3Url, path_style_puts_the_bucket_in_the_path) {
  EXPECT_EQ(s3_request_url(kLocal, S3Addressing::kPath, "journal", "c1/seg-0001", {}),
            "http://127.0.0.1:7480/journal/c1/seg-0001");
  EXPECT_EQ(s3_request_url(kLocal, S3Addressing::kPath, "journal", "", {}), "http://127.0.0.1:7480/journal");
}

TEST(S3Url, virtual_host_puts_the_bucket_in_the_host_name) {
  EXPECT_EQ(s3_request_url(kAws, S3Addressing::kVirtualHost, "journal", "c1/seg-0001", {}),
            "https://journal.s3.eu-west-1.amazonaws.com/c1/seg-0001");
  EXPECT_EQ(s3_request_url(kLocal, S3Addressing::kVirtualHost, "journal", "", {{"object-lock", ""}}),
            "http://journal.127.0.0.1:7480/?object-lock=");
}

TEST(S3Url, keys_are_percent_encoded_except_unreserved_characters_and_slashes) {
  EXPECT_EQ(s3_request_url(kLocal, S3Addressing::kPath, "b-1", "a b/ü+=~_.-x", {}),
            "http://127.0.0.1:7480/b-1/a%20b/%C3%BC%2B%3D~_.-x");
}

TEST(S3Url, the_query_is_canonical_sorted_and_encoded_with_bare_names_as_name_equals) {
  EXPECT_EQ(s3_canonical_query({{"prefix", "c1/seg "}, {"list-type", "2"}, {"continuation-token", "a+b/c="}}),
            "continuation-token=a%2Bb%2Fc%3D&list-type=2&prefix=c1%2Fseg%20");
  EXPECT_EQ(s3_canonical_query({{"versionId", "x"}, {"object-lock", ""}}), "object-lock=&versionId=x");
}

TEST(S3Url, bucket_names_follow_s3s_rules) {
  EXPECT_TRUE(check_s3_bucket_name("koordq-archive.2026").ok());
  EXPECT_FALSE(check_s3_bucket_name("ab").ok());
  EXPECT_FALSE(check_s3_bucket_name(std::string(64, 'a')).ok());
  EXPECT_FALSE(check_s3_bucket_name("Journal").ok());
  EXPECT_FALSE(check_s3_bucket_name("-journal").ok());
  const Status bad = check_s3_bucket_name("my_bucket");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("\"my_bucket\""), std::string::npos) << bad.message();
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::archive
