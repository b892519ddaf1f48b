// Where an S3 client sends its requests and how it signs them: the endpoint, the region, the
// addressing style and the credentials, read from the AWS_* environment the AWS tools read, or from
// an AWS shared credentials file. `describe` is the one printable form: it never holds a secret.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::archive {

struct S3Endpoint {
  std::string scheme;  // "http" or "https"
  std::string host;    // a name, an IPv4 address or a bracketed IPv6 address
  std::optional<int> port;

  std::string authority() const;  // host[:port]
  std::string url() const;        // scheme://host[:port]
};

// AWS_ENDPOINT_URL's syntax: http(s)://host[:port] with nothing after but an optional "/".
Result<S3Endpoint> parse_s3_endpoint(std::string_view url);

// Path-style puts the bucket in the path (http://host/bucket/key): what Ceph RGW, MinIO and other
// servers without wildcard DNS need. Virtual-host puts it in the host name
// (http://bucket.host/key): what AWS prefers.
enum class S3Addressing { kAuto, kPath, kVirtualHost };
Result<S3Addressing> parse_s3_addressing(std::string_view text);  // "auto", "path", "virtual"

struct S3Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty unless the credentials are temporary
  std::string source;         // where they came from, e.g. "environment" or "/root/.aws/credentials [default]"
};

struct S3Config {
  S3Endpoint endpoint;
  std::string region;
  S3Addressing addressing = S3Addressing::kPath;  // never kAuto once resolved
  S3Credentials credentials;

  // Endpoint, region, addressing and the credentials' source and access key id: no secret.
  std::string describe() const;
};

// The environment's variables; empty or absent read the same.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;
EnvironmentLookup process_environment();

// Reads the configuration:
//   endpoint     AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL, else https://s3.REGION.amazonaws.com
//   region       AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1
//   credentials  AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), else the
//                profile AWS_PROFILE (default "default") of AWS_SHARED_CREDENTIALS_FILE (default
//                $HOME/.aws/credentials)
//   addressing   `addressing`; kAuto is virtual-host for AWS's own endpoint, path-style for any
//                other (S3-compatible servers)
Result<S3Config> s3_config_from_environment(const EnvironmentLookup& env,
                                            S3Addressing addressing = S3Addressing::kAuto);

// One profile of an AWS shared credentials file's text (INI: [profile], key = value, # comments).
Result<S3Credentials> parse_credentials_file(std::string_view text, std::string_view profile, std::string_view path);

}  // namespace koordq::archive
