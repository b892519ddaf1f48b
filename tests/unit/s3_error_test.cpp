// archive/s3_error: S3's error answers (bodies as Ceph RGW and AWS send them) mapped to the kind a
// caller acts on, with S3's Code and Message kept and a text that names the problem and the fix.
#include "archive/s3_error.hpp"

#include <gtest/gtest.h>

namespace koordq::archive {
namespace KOORDQ_TEST_LOCAL {

const S3RequestContext kPut{"PUT", "http://127.0.0.1:7480", "journal", "c1/seg-1"};

std::string error_body(const std::string& code, const std::string& message = "") {
  return R"(<?xml version="1.0" encoding="UTF-8"?><Error><Code>)" + code + "</Code><Message>" + message +
         "</Message><RequestId>tx0000-default</RequestId><HostId>1010-default-default</HostId></Error>";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Case {
  int status;
  std::string code;
  S3ErrorKind kind;
  std::string fix;  // part of the text that tells what to do
};

TEST(S3ErrorFromResponse, each_s3_code_maps_to_its_kind_and_names_the_fix) {
  const std::vector<Case> cases{
      {403, "InvalidAccessKeyId", S3ErrorKind::kCredentials, "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"},
      {403, "SignatureDoesNotMatch", S3ErrorKind::kCredentials, "check AWS_SECRET_ACCESS_KEY"},
      {400, "ExpiredToken", S3ErrorKind::kCredentials, "AWS_SESSION_TOKEN"},
      {403, "RequestTimeTooSkewed", S3ErrorKind::kClockSkew, "synchronise this machine's clock"},
      {404, "NoSuchBucket", S3ErrorKind::kNoSuchBucket, "create it"},
      {404, "NoSuchKey", S3ErrorKind::kNoSuchKey, "no such object"},
      {404, "NoSuchVersion", S3ErrorKind::kNoSuchKey, "no such object"},
      {404, "ObjectLockConfigurationNotFoundError", S3ErrorKind::kNoObjectLock, "with Object Lock enabled"},
      {403, "AccessDenied", S3ErrorKind::kAccessDenied, "the user lacks the permission"},
      {400, "AuthorizationHeaderMalformed", S3ErrorKind::kInvalidArgument, "set AWS_REGION"},
      {301, "PermanentRedirect", S3ErrorKind::kInvalidArgument, "set AWS_REGION"},
      {400, "InvalidRequest", S3ErrorKind::kInvalidArgument, "refused"},
      {503, "SlowDown", S3ErrorKind::kServer, "retry later"},
      {500, "InternalError", S3ErrorKind::kServer, "retry later"},
  };
  for (const Case& c : cases) {
    const S3Error error = s3_error_from_response(kPut, c.status, error_body(c.code, "the server's words"));
    EXPECT_EQ(error.kind, c.kind) << c.code;
    EXPECT_EQ(error.http_status, c.status) << c.code;
    EXPECT_EQ(error.code, c.code);
    EXPECT_EQ(error.message, "the server's words");
    EXPECT_TRUE(contains(error.text, c.fix)) << error.text;
    EXPECT_TRUE(contains(error.text, "PUT of s3://journal/c1/seg-1 at http://127.0.0.1:7480")) << error.text;
    EXPECT_TRUE(contains(error.text, "HTTP " + std::to_string(c.status) + " " + c.code)) << error.text;
  }
}

TEST(S3ErrorFromResponse, a_refused_delete_names_object_lock_retention_and_other_refusals_do_not) {
  const S3RequestContext remove{"DELETE", "http://127.0.0.1:7480", "journal", "c1/seg-1"};
  const S3Error refused_delete = s3_error_from_response(remove, 403, error_body("AccessDenied"));
  EXPECT_EQ(refused_delete.kind, S3ErrorKind::kAccessDenied);
  EXPECT_TRUE(contains(refused_delete.text, "Object Lock retention")) << refused_delete.text;
  EXPECT_FALSE(contains(s3_error_from_response(kPut, 403, error_body("AccessDenied")).text, "Object Lock"));
}

TEST(S3ErrorFromResponse, rgws_error_without_a_message_keeps_the_code) {
  const S3Error error = s3_error_from_response(kPut, 403, error_body("SignatureDoesNotMatch"));
  EXPECT_EQ(error.kind, S3ErrorKind::kCredentials);
  EXPECT_EQ(error.message, "");
  EXPECT_TRUE(contains(error.text, "(HTTP 403 SignatureDoesNotMatch)")) << error.text;
}

TEST(S3ErrorFromResponse, a_head_answer_has_no_body_so_the_status_decides) {
  const S3RequestContext head{"HEAD", "http://127.0.0.1:7480", "journal", "c1/seg-1"};
  EXPECT_EQ(s3_error_from_response(head, 404, "").kind, S3ErrorKind::kNoSuchKey);
  EXPECT_EQ(s3_error_from_response(head, 403, "").kind, S3ErrorKind::kAccessDenied);
  EXPECT_EQ(s3_error_from_response(head, 503, "").kind, S3ErrorKind::kServer);
  EXPECT_EQ(s3_error_from_response(head, 404, "").code, "");
}

TEST(S3ErrorFromResponse, a_body_that_is_not_an_s3_error_document_falls_back_to_the_status) {
  const S3RequestContext list{"ListObjectsV2", "http://proxy:80", "journal", ""};
  const S3Error error = s3_error_from_response(list, 404, "<html><body>Not Found</body></html>");
  EXPECT_EQ(error.kind, S3ErrorKind::kNoSuchBucket);
  EXPECT_EQ(error.code, "");
  EXPECT_TRUE(contains(error.text, "AWS_ENDPOINT_URL")) << error.text;
  EXPECT_EQ(s3_error_from_response(list, 400, "not xml <").kind, S3ErrorKind::kInvalidArgument);
}

TEST(S3ConnectionError, a_refused_connection_names_the_endpoint_and_the_fix) {
  const S3Error error =
      s3_connection_error(kPut, TransportFailure::kRefused, "Failed to connect to 127.0.0.1 port 7480");
  EXPECT_EQ(error.kind, S3ErrorKind::kConnection);
  EXPECT_EQ(error.http_status, 0);
  EXPECT_TRUE(contains(error.text, "connection refused")) << error.text;
  EXPECT_TRUE(contains(error.text, "start the S3 server or fix AWS_ENDPOINT_URL")) << error.text;
  EXPECT_TRUE(contains(s3_connection_error(kPut, TransportFailure::kUnresolvable, "").text, "path-style"));
}

TEST(S3ErrorKindName, every_kind_has_its_own_name) {
  std::set<std::string_view> names;
  for (int k = 0; k <= static_cast<int>(S3ErrorKind::kBadResponse); ++k)
    names.insert(s3_error_kind_name(static_cast<S3ErrorKind>(k)));
  EXPECT_EQ(names.size(), static_cast<std::size_t>(S3ErrorKind::kBadResponse) + 1);
  EXPECT_EQ(names.count("unknown"), 0u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::archive
