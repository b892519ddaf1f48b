#include "archive/s3_config.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/text.hpp"

namespace koordq::archive {
namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

bool is_aws_endpoint(const S3Endpoint& endpoint) {
  const std::string_view host = endpoint.host;
  constexpr std::string_view suffix = ".amazonaws.com";
  return host.size() > suffix.size() && host.substr(host.size() - suffix.size()) == suffix;
}

}  // namespace

std::string S3Endpoint::authority() const {
  return port ? host + ":" + std::to_string(*port) : host;
}

std::string S3Endpoint::url() const {
  return scheme + "://" + authority();
}

Result<S3Endpoint> parse_s3_endpoint(std::string_view url) {
  const auto fail = [&](const std::string& why) {
    return make_error("S3 endpoint " + base::quoted(url) + " " + why +
                      "; write it as http://HOST[:PORT] or https://HOST[:PORT] (AWS_ENDPOINT_URL)");
  };
  S3Endpoint endpoint;
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return fail("has no scheme");
  endpoint.scheme = std::string(url.substr(0, scheme_end));
  if (endpoint.scheme != "http" && endpoint.scheme != "https") return fail("has scheme " + endpoint.scheme);
  std::string_view rest = url.substr(scheme_end + 3);
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find_first_of("/?#@") != std::string_view::npos)
    return fail("has a path, query or user part; the bucket and prefix go in the archive URL, not the endpoint");
  std::string_view host = rest;
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return fail("has an unclosed IPv6 address");
    host = rest.substr(0, close + 1);
    if (close + 1 < rest.size()) {
      if (rest[close + 1] != ':') return fail("has text after its IPv6 address");
      port = rest.substr(close + 2);
    }
  } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
  }
  if (host.empty()) return fail("has no host");
  endpoint.host = std::string(host);
  if (!port.empty() || rest.ends_with(":")) {
    int value = 0;
    for (const char c : port) {
      if (!base::is_ascii_digit(c) || value > 65535) return fail("has an invalid port");
      value = value * 10 + (c - '0');
    }
    if (port.empty() || value == 0 || value > 65535) return fail("has an invalid port");
    endpoint.port = value;
  }
  return endpoint;
}

Result<S3Addressing> parse_s3_addressing(std::string_view text) {
  if (text == "auto") return S3Addressing::kAuto;
  if (text == "path") return S3Addressing::kPath;
  if (text == "virtual") return S3Addressing::kVirtualHost;
  return make_error("S3 addressing " + base::quoted(text) + " is not one of auto, path, virtual");
}

std::string S3Config::describe() const {
  return "endpoint " + endpoint.url() + ", region " + region + ", " +
         (addressing == S3Addressing::kVirtualHost ? "virtual-host" : "path-style") + " addressing, access key " +
         credentials.access_key_id + " from " + credentials.source;
}

EnvironmentLookup process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

Result<S3Credentials> parse_credentials_file(std::string_view text, std::string_view profile, std::string_view path) {
  S3Credentials credentials;
  credentials.source = std::string(path) + " [" + std::string(profile) + "]";
  bool in_profile = false;
  bool profile_seen = false;
  std::istringstream lines{std::string(text)};
  std::string raw;
  int number = 0;
  while (std::getline(lines, raw)) {
    ++number;
    const std::string_view line = trimmed(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']')
        return make_error(std::string(path) + ":" + std::to_string(number) + ": a section header needs a closing ]");
      in_profile = trimmed(line.substr(1, line.size() - 2)) == profile;
      profile_seen = profile_seen || in_profile;
      continue;
    }
    if (!in_profile) continue;
    const auto equals = line.find('=');
    if (equals == std::string_view::npos)
      return make_error(std::string(path) + ":" + std::to_string(number) + ": expected key = value");
    const std::string_view key = trimmed(line.substr(0, equals));
    const std::string value(trimmed(line.substr(equals + 1)));
    if (key == "aws_access_key_id") credentials.access_key_id = value;
    if (key == "aws_secret_access_key") credentials.secret_access_key = value;
    if (key == "aws_session_token") credentials.session_token = value;
  }
  if (!profile_seen)
    return make_error(std::string(path) + " has no profile [" + std::string(profile) +
                      "]; add it, or name another with AWS_PROFILE");
  if (credentials.access_key_id.empty() || credentials.secret_access_key.empty())
    return make_error(std::string(path) + " [" + std::string(profile) +
                      "] needs both aws_access_key_id and aws_secret_access_key");
  return credentials;
}

Result<S3Config> s3_config_from_environment(const EnvironmentLookup& env, S3Addressing addressing) {
  S3Config config;
  config.region = env("AWS_REGION").value_or(env("AWS_DEFAULT_REGION").value_or("us-east-1"));

  const std::optional<std::string> endpoint_url =
      env("AWS_ENDPOINT_URL_S3") ? env("AWS_ENDPOINT_URL_S3") : env("AWS_ENDPOINT_URL");
  Result<S3Endpoint> endpoint =
      parse_s3_endpoint(endpoint_url.value_or("https://s3." + config.region + ".amazonaws.com"));
  if (!endpoint.ok()) return endpoint.error();
  config.endpoint = std::move(endpoint.value());
  if (addressing == S3Addressing::kAuto)
    addressing = is_aws_endpoint(config.endpoint) ? S3Addressing::kVirtualHost : S3Addressing::kPath;
  config.addressing = addressing;

  const std::optional<std::string> key_id = env("AWS_ACCESS_KEY_ID");
  const std::optional<std::string> secret = env("AWS_SECRET_ACCESS_KEY");
  if (key_id || secret) {
    if (!key_id)
      return make_error(
          "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not; set both (or neither, to use the credentials "
          "file)");
    if (!secret)
      return make_error(
          "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not; set both (or neither, to use the credentials "
          "file)");
    config.credentials = S3Credentials{*key_id, *secret, env("AWS_SESSION_TOKEN").value_or(""), "the environment"};
    return config;
  }

  const std::optional<std::string> home = env("HOME");
  const std::optional<std::string> path =
      env("AWS_SHARED_CREDENTIALS_FILE")
          ? env("AWS_SHARED_CREDENTIALS_FILE")
          : (home ? std::optional<std::string>(*home + "/.aws/credentials") : std::nullopt);
  const std::string profile = env("AWS_PROFILE").value_or("default");
  std::ifstream file;
  if (path) file.open(*path);
  if (!path || !file) {
    return make_error("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them in " +
                      path.value_or("$HOME/.aws/credentials") + " under [" + profile +
                      "] (AWS_SHARED_CREDENTIALS_FILE names another file)");
  }
  std::ostringstream text;
  text << file.rdbuf();
  Result<S3Credentials> credentials = parse_credentials_file(text.str(), profile, *path);
  if (!credentials.ok()) return credentials.error();
  config.credentials = std::move(credentials.value());
  return config;
}

}  // namespace koordq::archive
