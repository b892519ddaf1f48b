// S3Client: the S3 requests the journal archive needs, over libcurl with its built-in SigV4
// signing (README.md says why libcurl): PUT (with Object Lock retention), GET (whole or a byte
// range), HEAD, DELETE, ListObjectsV2 and GetObjectLockConfiguration. Every failure is an S3Error
// (s3_error.hpp). One client holds one libcurl handle and its connections: use it from one thread
// at a time. Nothing it logs or returns holds the secret key or the session token.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "archive/s3_config.hpp"
#include "archive/s3_error.hpp"
#include "archive/s3_objects.hpp"
#include "archive/s3_url.hpp"

namespace koordq::archive {

struct S3ClientOptions {
  long connect_timeout_ms = 10'000;
  long request_timeout_ms = 300'000;
};

struct PutObjectOptions {
  std::optional<ObjectRetention> retention;  // needs a bucket with Object Lock
  std::string content_type = "application/octet-stream";
};

struct DeleteObjectResult {
  std::string version_id;      // the version deleted, or the delete marker's version
  bool delete_marker = false;  // a delete without a version id on a versioned bucket adds a marker
};

class S3Client {
 public:
  explicit S3Client(S3Config config, S3ClientOptions options = {});
  ~S3Client();
  S3Client(const S3Client&) = delete;
  S3Client& operator=(const S3Client&) = delete;

  const S3Config& config() const { return config_; }

  // Sends Content-MD5 (which Object Lock requires) and the payload's SHA-256 with every PUT.
  S3Result<PutObjectResult> put_object(std::string_view bucket, std::string_view key, std::string_view body,
                                       const PutObjectOptions& options = {});
  S3Result<std::string> get_object(std::string_view bucket, std::string_view key,
                                   std::optional<ByteRange> range = std::nullopt, std::string_view version_id = {});
  // A refusal of the HEAD (which has no body to say why) is explained by a one-byte GET.
  S3Result<ObjectHead> head_object(std::string_view bucket, std::string_view key, std::string_view version_id = {});
  S3Result<DeleteObjectResult> delete_object(std::string_view bucket, std::string_view key,
                                             std::string_view version_id = {});
  // One page; pass the previous page's next_continuation_token to get the next. max_keys 0 leaves
  // the page size to the server (1000).
  S3Result<ListObjectsPage> list_objects_v2(std::string_view bucket, std::string_view prefix,
                                            std::string_view continuation_token = {}, int max_keys = 0);
  S3Result<ObjectLockConfiguration> get_object_lock_configuration(std::string_view bucket);

 private:
  struct Response {
    int status = 0;
    std::string body;
    std::map<std::string, std::string> headers;  // names lower-cased
  };
  struct Request {
    std::string_view method;
    std::string_view bucket;
    std::string_view key;
    S3Query query;
    std::map<std::string, std::string> headers;
    std::optional<std::string_view> body;  // a PUT's payload
  };
  S3Result<Response> send(std::string_view operation, const Request& request);

  S3Config config_;
  S3ClientOptions options_;
  void* curl_;  // CURL*, kept out of this header
};

}  // namespace koordq::archive
