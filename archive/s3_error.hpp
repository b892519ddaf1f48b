// S3Error: why an S3 request failed, as one typed value: the kind the caller acts on, the HTTP
// status and S3's own Code and Message as the server sent them, and a text that names the problem
// and its fix. S3Result<T> is a value or an S3Error, like base's Result<T>.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace koordq::archive {

enum class S3ErrorKind {
  kConnection,   // no HTTP answer: refused, unresolvable, timed out, TLS
  kCredentials,  // unknown access key, wrong secret key, expired session token
  kClockSkew,    // RequestTimeTooSkewed: SigV4 refuses a clock off by more than 15 minutes
  kNoSuchBucket,
  kNoSuchKey,        // also NoSuchVersion, and a HEAD's bare 404
  kAccessDenied,     // includes a delete of a version under Object Lock retention
  kNoObjectLock,     // the bucket has no Object Lock configuration
  kInvalidArgument,  // the server refused the request's contents (4xx not above)
  kServer,           // 5xx: worth a retry
  kBadResponse,      // an answer that is not what S3 sends (not XML, missing fields)
};

std::string_view s3_error_kind_name(S3ErrorKind kind);

struct S3Error {
  S3ErrorKind kind = S3ErrorKind::kBadResponse;
  int http_status = 0;  // 0 when there was no HTTP answer
  std::string code;     // S3's <Code>, e.g. "SignatureDoesNotMatch"; empty without one
  std::string message;  // S3's <Message>; often empty on Ceph RGW
  std::string text;     // the problem and its fix, for a person
};

// What a request was doing, for the error's text. Holds no credentials.
struct S3RequestContext {
  std::string_view operation;  // "PUT", "GET", "ListObjectsV2", …
  std::string_view endpoint;   // scheme://host[:port]
  std::string_view bucket;
  std::string_view key;  // empty for bucket requests
};

// The error for an HTTP answer that is not a success: `body` is S3's XML error document (empty
// for HEAD, whose answers carry no body).
S3Error s3_error_from_response(const S3RequestContext& context, int http_status, std::string_view body);

// The error for a request that got no HTTP answer; `detail` is the transport's own message.
enum class TransportFailure { kRefused, kUnresolvable, kTimeout, kTls, kOther };
S3Error s3_connection_error(const S3RequestContext& context, TransportFailure failure, std::string_view detail);

S3Error s3_bad_response(const S3RequestContext& context, std::string_view problem);

template <class T>
class [[nodiscard]] S3Result {
 public:
  S3Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}        // NOLINT: implicit by design
  S3Result(S3Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const S3Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, S3Error> v_;
};

}  // namespace koordq::archive
