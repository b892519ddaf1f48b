#include "archive/s3_client.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>

#include <curl/curl.h>
#include <openssl/evp.h>

#include "archive/s3_xml.hpp"
#include "base/base64.hpp"
#include "base/hex.hpp"
#include "base/rfc3339.hpp"

namespace koordq::archive {
namespace {

std::string digest(std::string_view bytes, const EVP_MD* md) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), out, &size, md, nullptr);
  return std::string(reinterpret_cast<const char*>(out), size);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string header_or_empty(const std::map<std::string, std::string>& headers, const std::string& name) {
  const auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

struct Upload {
  std::string_view body;
  std::size_t offset = 0;
};

std::size_t read_upload(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  const std::size_t n = std::min(size * count, upload->body.size() - upload->offset);
  std::memcpy(buffer, upload->body.data() + upload->offset, n);
  upload->offset += n;
  return n;
}

std::size_t write_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

// Collects one response's headers; a new status line (after a 100 Continue) starts over.
std::size_t write_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    headers->clear();
  } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    (*headers)[lower(std::string(line.substr(0, colon)))] = std::string(value);
  }
  return size * count;
}

TransportFailure transport_failure(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
      return TransportFailure::kRefused;
    case CURLE_COULDNT_RESOLVE_HOST:
      return TransportFailure::kUnresolvable;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportFailure::kTimeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
      return TransportFailure::kTls;
    default:
      return TransportFailure::kOther;
  }
}

std::string range_header(const ByteRange& range) {
  return "bytes=" + std::to_string(range.first) + "-" + (range.last ? std::to_string(*range.last) : std::string());
}

}  // namespace

S3Client::S3Client(S3Config config, S3ClientOptions options) : config_(std::move(config)), options_(options) {
  static std::once_flag global_init;
  std::call_once(global_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  curl_ = curl_easy_init();
}

S3Client::~S3Client() {
  curl_easy_cleanup(static_cast<CURL*>(curl_));
}

S3Result<S3Client::Response> S3Client::send(std::string_view operation, const Request& request) {
  const std::string endpoint = config_.endpoint.url();
  const S3RequestContext context{operation, endpoint, request.bucket, request.key};
  if (curl_ == nullptr) return s3_connection_error(context, TransportFailure::kOther, "libcurl did not initialise");
  CURL* curl = static_cast<CURL*>(curl_);
  curl_easy_reset(curl);

  const std::string url =
      s3_request_url(config_.endpoint, config_.addressing, request.bucket, request.key, request.query);
  const std::string sigv4 = "aws:amz:" + config_.region + ":s3";
  const std::string_view payload = request.body.value_or(std::string_view());

  std::map<std::string, std::string> headers = request.headers;
  // libcurl 7.88 signs this header when it is given but does not add it; S3 requires it.
  headers["x-amz-content-sha256"] = base::hex_encode(digest(payload, EVP_sha256()));
  if (!config_.credentials.session_token.empty()) headers["x-amz-security-token"] = config_.credentials.session_token;
  curl_slist* header_list = nullptr;
  for (const auto& [name, value] : headers) header_list = curl_slist_append(header_list, (name + ": " + value).c_str());

  Response response;
  Upload upload{payload};
  char error_buffer[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, sigv4.c_str());
  curl_easy_setopt(curl, CURLOPT_USERNAME, config_.credentials.access_key_id.c_str());
  curl_easy_setopt(curl, CURLOPT_PASSWORD, config_.credentials.secret_access_key.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, header_list);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options_.connect_timeout_ms);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options_.request_timeout_ms);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, write_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response.headers);
  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method == "PUT") {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(payload.size()));
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, std::string(request.method).c_str());
  }

  const CURLcode code = curl_easy_perform(curl);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);  // the buffer ends with this call
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  curl_slist_free_all(header_list);
  if (code != CURLE_OK)
    return s3_connection_error(context, transport_failure(code),
                               error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code));
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  if (response.status < 200 || response.status > 299)
    return s3_error_from_response(context, response.status, response.body);
  return response;
}

S3Result<PutObjectResult> S3Client::put_object(std::string_view bucket, std::string_view key, std::string_view body,
                                               const PutObjectOptions& options) {
  Request request{"PUT", bucket, key, {}, {}, body};
  request.headers["content-type"] = options.content_type;
  request.headers["content-md5"] = base::base64_encode(digest(body, EVP_md5()));
  if (options.retention) {
    request.headers["x-amz-object-lock-mode"] = object_lock_mode_name(options.retention->mode);
    request.headers["x-amz-object-lock-retain-until-date"] =
        base::format_rfc3339_seconds(options.retention->retain_until_unix_nanos);
  }
  S3Result<Response> response = send("PUT", request);
  if (!response.ok()) return response.error();
  return PutObjectResult{etag_without_quotes(header_or_empty(response->headers, "etag")),
                         header_or_empty(response->headers, "x-amz-version-id")};
}

S3Result<std::string> S3Client::get_object(std::string_view bucket, std::string_view key,
                                           std::optional<ByteRange> range, std::string_view version_id) {
  Request request{"GET", bucket, key, {}, {}, std::nullopt};
  if (!version_id.empty()) request.query.emplace_back("versionId", std::string(version_id));
  if (range) request.headers["range"] = range_header(*range);
  S3Result<Response> response = send("GET", request);
  if (!response.ok()) return response.error();
  // A server that ignores Range answers 200 with the whole object, which is not the bytes asked for.
  if (range && response->status != 206) {
    const std::string endpoint = config_.endpoint.url();
    return s3_bad_response(S3RequestContext{"GET", endpoint, bucket, key},
                           "a ranged GET was answered with HTTP " + std::to_string(response->status) + ", not 206");
  }
  return std::move(response->body);
}

S3Result<ObjectHead> S3Client::head_object(std::string_view bucket, std::string_view key, std::string_view version_id) {
  Request request{"HEAD", bucket, key, {}, {}, std::nullopt};
  if (!version_id.empty()) request.query.emplace_back("versionId", std::string(version_id));
  S3Result<Response> response = send("HEAD", request);
  if (!response.ok()) {
    // A HEAD answer has no body, so a refusal carries no S3 error code: a wrong secret key, a skewed
    // clock and a missing permission all look alike. A one-byte GET of the same object says which.
    const S3Error& error = response.error();
    if (error.code.empty() && (error.http_status == 400 || error.http_status == 403)) {
      const S3Result<std::string> probe = get_object(bucket, key, ByteRange{0, 0}, version_id);
      if (!probe.ok() && !probe.error().code.empty()) return probe.error();
    }
    return error;
  }
  const auto& headers = response->headers;
  ObjectHead head;
  const std::optional<std::uint64_t> size = parse_byte_count(header_or_empty(headers, "content-length"));
  if (!size) {
    const std::string endpoint = config_.endpoint.url();
    return s3_bad_response(S3RequestContext{"HEAD", endpoint, bucket, key}, "no valid Content-Length");
  }
  head.size = *size;
  head.etag = etag_without_quotes(header_or_empty(headers, "etag"));
  head.version_id = header_or_empty(headers, "x-amz-version-id");
  head.last_modified = header_or_empty(headers, "last-modified");
  if (const auto mode = parse_object_lock_mode(header_or_empty(headers, "x-amz-object-lock-mode"))) {
    const std::string until = header_or_empty(headers, "x-amz-object-lock-retain-until-date");
    const Result<std::int64_t> until_nanos = base::parse_rfc3339(until);
    if (!until_nanos.ok()) {
      const std::string endpoint = config_.endpoint.url();
      return s3_bad_response(S3RequestContext{"HEAD", endpoint, bucket, key},
                             "x-amz-object-lock-retain-until-date \"" + until + "\" is not an RFC 3339 time");
    }
    head.retention = ObjectRetention{*mode, *until_nanos};
  }
  return head;
}

S3Result<DeleteObjectResult> S3Client::delete_object(std::string_view bucket, std::string_view key,
                                                     std::string_view version_id) {
  Request request{"DELETE", bucket, key, {}, {}, std::nullopt};
  if (!version_id.empty()) request.query.emplace_back("versionId", std::string(version_id));
  S3Result<Response> response = send("DELETE", request);
  if (!response.ok()) return response.error();
  return DeleteObjectResult{header_or_empty(response->headers, "x-amz-version-id"),
                            header_or_empty(response->headers, "x-amz-delete-marker") == "true"};
}

S3Result<ListObjectsPage> S3Client::list_objects_v2(std::string_view bucket, std::string_view prefix,
                                                    std::string_view continuation_token, int max_keys) {
  Request request{"GET", bucket, {}, {{"list-type", "2"}, {"prefix", std::string(prefix)}}, {}, std::nullopt};
  if (!continuation_token.empty()) request.query.emplace_back("continuation-token", std::string(continuation_token));
  if (max_keys > 0) request.query.emplace_back("max-keys", std::to_string(max_keys));
  S3Result<Response> response = send("ListObjectsV2", request);
  if (!response.ok()) return response.error();
  Result<ListObjectsPage> page = parse_list_objects_v2(response->body);
  if (!page.ok()) {
    const std::string endpoint = config_.endpoint.url();
    return s3_bad_response(S3RequestContext{"ListObjectsV2", endpoint, bucket, {}}, page.message());
  }
  return std::move(page.value());
}

S3Result<ObjectLockConfiguration> S3Client::get_object_lock_configuration(std::string_view bucket) {
  Request request{"GET", bucket, {}, {{"object-lock", ""}}, {}, std::nullopt};
  S3Result<Response> response = send("GetObjectLockConfiguration", request);
  if (!response.ok()) return response.error();
  Result<ObjectLockConfiguration> lock = parse_object_lock_configuration(response->body);
  if (!lock.ok()) {
    const std::string endpoint = config_.endpoint.url();
    return s3_bad_response(S3RequestContext{"GetObjectLockConfiguration", endpoint, bucket, {}}, lock.message());
  }
  return lock.value();
}

}  // namespace koordq::archive
