#include "archive/s3_error.hpp"

#include "archive/s3_xml.hpp"

namespace koordq::archive {
namespace {

// "PUT of s3://bucket/key at http://127.0.0.1:7480"
std::string what_of(const S3RequestContext& c) {
  std::string text(c.operation);
  if (!c.bucket.empty()) {
    text += " of s3://";
    text += c.bucket;
    if (!c.key.empty()) {
      text += "/";
      text += c.key;
    }
  }
  text += " at ";
  text += c.endpoint;
  return text;
}

S3Error make(S3ErrorKind kind, int status, std::string code, std::string message, std::string text) {
  return S3Error{kind, status, std::move(code), std::move(message), std::move(text)};
}

std::string server_said(int status, const std::string& code, const std::string& message) {
  std::string text = "HTTP " + std::to_string(status);
  if (!code.empty()) text += " " + code;
  if (!message.empty()) text += ": " + message;
  return text;
}

}  // namespace

std::string_view s3_error_kind_name(S3ErrorKind kind) {
  switch (kind) {
    case S3ErrorKind::kConnection:
      return "connection";
    case S3ErrorKind::kCredentials:
      return "credentials";
    case S3ErrorKind::kClockSkew:
      return "clock-skew";
    case S3ErrorKind::kNoSuchBucket:
      return "no-such-bucket";
    case S3ErrorKind::kNoSuchKey:
      return "no-such-key";
    case S3ErrorKind::kAccessDenied:
      return "access-denied";
    case S3ErrorKind::kNoObjectLock:
      return "no-object-lock";
    case S3ErrorKind::kInvalidArgument:
      return "invalid-argument";
    case S3ErrorKind::kServer:
      return "server";
    case S3ErrorKind::kBadResponse:
      return "bad-response";
  }
  return "unknown";
}

S3Error s3_error_from_response(const S3RequestContext& c, int status, std::string_view body) {
  std::string code;
  std::string message;
  if (const std::optional<S3ErrorDocument> document = parse_s3_error_document(body)) {
    code = document->code;
    message = document->message;
  }
  const std::string said = server_said(status, code, message);
  const std::string what = what_of(c);
  const std::string bucket(c.bucket);

  if (code == "InvalidAccessKeyId")
    return make(S3ErrorKind::kCredentials, status, code, message,
                what + " failed (" + said +
                    "): the server does not know the access key; set AWS_ACCESS_KEY_ID and "
                    "AWS_SECRET_ACCESS_KEY (or the credentials file's profile) to a key pair of this server");
  if (code == "SignatureDoesNotMatch")
    return make(S3ErrorKind::kCredentials, status, code, message,
                what + " failed (" + said +
                    "): the request's signature does not match; the secret key is wrong for "
                    "this access key: check AWS_SECRET_ACCESS_KEY (or the credentials file's profile)");
  if (code == "ExpiredToken" || code == "InvalidToken" || code == "TokenRefreshRequired")
    return make(S3ErrorKind::kCredentials, status, code, message,
                what + " failed (" + said +
                    "): the session token is expired or invalid; renew the temporary "
                    "credentials (AWS_SESSION_TOKEN with its key pair)");
  if (code == "RequestTimeTooSkewed")
    return make(S3ErrorKind::kClockSkew, status, code, message,
                what + " failed (" + said +
                    "): this machine's clock and the server's differ by more than the 15 "
                    "minutes a SigV4 signature allows; synchronise this machine's clock (NTP)");
  if (code == "AuthorizationHeaderMalformed" || code == "PermanentRedirect" ||
      code == "IllegalLocationConstraintException")
    return make(S3ErrorKind::kInvalidArgument, status, code, message,
                what + " failed (" + said + "): bucket " + bucket +
                    " is in another region than the one signed for; set AWS_REGION to the bucket's region");
  if (code == "NoSuchBucket")
    return make(S3ErrorKind::kNoSuchBucket, status, code, message,
                what + " failed (" + said + "): bucket " + bucket +
                    " does not exist; create it (with Object Lock for locked segments) or fix the bucket name");
  if (code == "NoSuchKey" || code == "NoSuchVersion" || (code.empty() && status == 404 && !c.key.empty()))
    return make(S3ErrorKind::kNoSuchKey, status, code, message,
                what + " failed (" + said + "): no such object (or version) in bucket " + bucket);
  if (code == "ObjectLockConfigurationNotFoundError")
    return make(S3ErrorKind::kNoObjectLock, status, code, message,
                what + " failed (" + said + "): bucket " + bucket +
                    " has no Object Lock; create the bucket with Object Lock enabled "
                    "(x-amz-bucket-object-lock-enabled: true), which also turns versioning on");
  if (code == "AccessDenied" || (code.empty() && status == 403)) {
    const std::string why =
        c.operation == "DELETE"
            ? "a version under Object Lock retention cannot be deleted before its retain-until date; otherwise the "
              "user lacks the permission, which the bucket's owner or policy must grant"
            : "the user lacks the permission, which the bucket's owner or policy must grant";
    return make(S3ErrorKind::kAccessDenied, status, code, message, what + " was denied (" + said + "): " + why);
  }
  if (status >= 500)
    return make(S3ErrorKind::kServer, status, code, message,
                what + " failed (" + said +
                    "): the S3 server failed; retry later, and see the server's logs if it "
                    "persists");
  if (status == 404 && code.empty())
    return make(S3ErrorKind::kNoSuchBucket, status, code, message,
                what + " failed (" + said + "): not found; check the bucket name and AWS_ENDPOINT_URL");
  return make(S3ErrorKind::kInvalidArgument, status, code, message, what + " was refused (" + said + ")");
}

S3Error s3_connection_error(const S3RequestContext& c, TransportFailure failure, std::string_view detail) {
  const std::string what = what_of(c);
  const std::string endpoint(c.endpoint);
  const std::string said = detail.empty() ? std::string() : " (" + std::string(detail) + ")";
  std::string text;
  switch (failure) {
    case TransportFailure::kRefused:
      text = what + " failed: connection refused" + said + "; nothing listens at " + endpoint +
             ": start the S3 server or fix AWS_ENDPOINT_URL";
      break;
    case TransportFailure::kUnresolvable:
      text = what + " failed: the host of " + endpoint + " does not resolve" + said +
             "; fix AWS_ENDPOINT_URL (with virtual-host addressing the bucket is part of the host name: "
             "use path-style addressing for servers without wildcard DNS)";
      break;
    case TransportFailure::kTimeout:
      text = what + " failed: timed out" + said + "; check that " + endpoint + " is reachable and answering";
      break;
    case TransportFailure::kTls:
      text = what + " failed: TLS" + said + "; check the endpoint's certificate and the system's CA bundle";
      break;
    case TransportFailure::kOther:
      text = what + " failed" + said;
      break;
  }
  return make(S3ErrorKind::kConnection, 0, "", "", std::move(text));
}

S3Error s3_bad_response(const S3RequestContext& c, std::string_view problem) {
  return make(S3ErrorKind::kBadResponse, 0, "", "",
              what_of(c) + ": the answer is not what S3 sends: " + std::string(problem) +
                  "; check that AWS_ENDPOINT_URL names an S3 server");
}

}  // namespace koordq::archive
