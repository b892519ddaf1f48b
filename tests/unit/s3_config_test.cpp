// archive/s3_config: the endpoint, region, addressing and credentials from the AWS_* environment
// and the shared credentials file, and the messages for what is missing or malformed.
#include "archive/s3_config.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

namespace koordq::archive {
namespace KOORDQ_TEST_LOCAL {

EnvironmentLookup environment(std::map<std::string, std::string> values) {
  return [values = std::move(values)](std::string_view name) -> std::optional<std::string> {
    const auto it = values.find(std::string(name));
    if (it == values.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

const std::map<std::string, std::string> kKeys{{"AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"},
                                               {"AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG"}};

std::map<std::string, std::string> with(std::map<std::string, std::string> base,
                                        const std::map<std::string, std::string>& more) {
  for (const auto& [k, v] : more) base[k] = v;
  return base;
}

TEST(S3Endpoint, parses_scheme_host_and_port) {
  const Result<S3Endpoint> local = parse_s3_endpoint("http://127.0.0.1:7480/");
  ASSERT_TRUE(local.ok()) << local.message();
  EXPECT_EQ(local->scheme, "http");
  EXPECT_EQ(local->host, "127.0.0.1");
  EXPECT_EQ(local->port, 7480);
  const Result<S3Endpoint> v6 = parse_s3_endpoint("https://[::1]:9000");
  ASSERT_TRUE(v6.ok()) << v6.message();
  EXPECT_EQ(v6->url(), "https://[::1]:9000");
  EXPECT_EQ(parse_s3_endpoint("https://s3.amazonaws.com")->port, std::nullopt);
}

TEST(S3Endpoint, rejects_what_is_not_scheme_host_port_with_the_expected_form) {
  for (const char* bad : {"127.0.0.1:7480", "ftp://host", "http://host/bucket", "http://:80", "http://host:0",
                          "http://host:70000", "http://host:8x", "http://user@host"}) {
    const Result<S3Endpoint> endpoint = parse_s3_endpoint(bad);
    ASSERT_FALSE(endpoint.ok()) << bad;
    EXPECT_NE(endpoint.message().find("http://HOST[:PORT]"), std::string::npos) << endpoint.message();
  }
}

TEST(S3ConfigFromEnvironment, reads_endpoint_region_and_keys_and_uses_path_style_for_a_custom_endpoint) {
  const Result<S3Config> config =
      s3_config_from_environment(environment(with(kKeys, {{"AWS_ENDPOINT_URL", "http://127.0.0.1:7480"},
                                                          {"AWS_REGION", "eu-west-1"},
                                                          {"AWS_DEFAULT_REGION", "us-west-2"},
                                                          {"AWS_SESSION_TOKEN", "tok"}})));
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->endpoint.url(), "http://127.0.0.1:7480");
  EXPECT_EQ(config->region, "eu-west-1");
  EXPECT_EQ(config->addressing, S3Addressing::kPath);
  EXPECT_EQ(config->credentials.access_key_id, "AKIDEXAMPLE");
  EXPECT_EQ(config->credentials.secret_access_key, "wJalrXUtnFEMI/K7MDENG");
  EXPECT_EQ(config->credentials.session_token, "tok");
}

TEST(S3ConfigFromEnvironment, defaults_to_aws_in_the_default_region_with_virtual_host_addressing) {
  const Result<S3Config> config =
      s3_config_from_environment(environment(with(kKeys, {{"AWS_DEFAULT_REGION", "ap-south-1"}})));
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->region, "ap-south-1");
  EXPECT_EQ(config->endpoint.url(), "https://s3.ap-south-1.amazonaws.com");
  EXPECT_EQ(config->addressing, S3Addressing::kVirtualHost);
  EXPECT_EQ(s3_config_from_environment(environment(kKeys))->region, "us-east-1");
}

TEST(S3ConfigFromEnvironment, the_s3_specific_endpoint_wins_and_addressing_can_be_forced) {
  const Result<S3Config> config = s3_config_from_environment(
      environment(with(kKeys, {{"AWS_ENDPOINT_URL", "http://a:1"}, {"AWS_ENDPOINT_URL_S3", "http://b:2"}})),
      S3Addressing::kVirtualHost);
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->endpoint.url(), "http://b:2");
  EXPECT_EQ(config->addressing, S3Addressing::kVirtualHost);
}

TEST(S3ConfigFromEnvironment, half_a_key_pair_names_the_missing_variable) {
  const Result<S3Config> config = s3_config_from_environment(environment({{"AWS_ACCESS_KEY_ID", "AKID"}}));
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.message().find("AWS_SECRET_ACCESS_KEY is not"), std::string::npos) << config.message();
}

TEST(S3ConfigFromEnvironment, a_bad_endpoint_is_refused_with_its_text) {
  const Result<S3Config> config =
      s3_config_from_environment(environment(with(kKeys, {{"AWS_ENDPOINT_URL", "localhost:7480"}})));
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.message().find("\"localhost:7480\""), std::string::npos) << config.message();
}

TEST(S3ConfigFromEnvironment, without_keys_reads_the_profile_of_the_credentials_file) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("koordq-s3-credentials-test." + std::to_string(::getpid()));
  {
    std::ofstream file(path);
    file << "# test\n[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s1\n\n"
            "[archive]\naws_access_key_id=AKIDARCHIVE\naws_secret_access_key= s2 \naws_session_token = t2\n";
  }
  const Result<S3Config> config = s3_config_from_environment(
      environment({{"AWS_SHARED_CREDENTIALS_FILE", path.string()}, {"AWS_PROFILE", "archive"}}));
  std::filesystem::remove(path);
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->credentials.access_key_id, "AKIDARCHIVE");
  EXPECT_EQ(config->credentials.secret_access_key, "s2");
  EXPECT_EQ(config->credentials.session_token, "t2");
  EXPECT_EQ(config->credentials.source, path.string() + " [archive]");
}

TEST(S3ConfigFromEnvironment, no_credentials_anywhere_says_where_to_put_them) {
  const Result<S3Config> config = s3_config_from_environment(environment({{"HOME", "/nonexistent-home"}}));
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.message().find("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"), std::string::npos);
  EXPECT_NE(config.message().find("/nonexistent-home/.aws/credentials"), std::string::npos) << config.message();
}

TEST(CredentialsFile, a_missing_profile_or_key_is_named) {
  const Result<S3Credentials> no_profile = parse_credentials_file("[default]\naws_access_key_id=a\n", "prod", "f");
  ASSERT_FALSE(no_profile.ok());
  EXPECT_NE(no_profile.message().find("no profile [prod]"), std::string::npos) << no_profile.message();
  const Result<S3Credentials> no_secret = parse_credentials_file("[default]\naws_access_key_id=a\n", "default", "f");
  ASSERT_FALSE(no_secret.ok());
  EXPECT_NE(no_secret.message().find("aws_secret_access_key"), std::string::npos) << no_secret.message();
  const Result<S3Credentials> garbage = parse_credentials_file("[default]\njust words\n", "default", "f");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.message().find("f:2"), std::string::npos) << garbage.message();
}

TEST(S3Config, describe_never_holds_the_secret_key_or_the_session_token) {
  const Result<S3Config> config = s3_config_from_environment(
      environment(with(kKeys, {{"AWS_ENDPOINT_URL", "http://127.0.0.1:7480"}, {"AWS_SESSION_TOKEN", "SESSIONTOK"}})));
  ASSERT_TRUE(config.ok());
  const std::string text = config->describe();
  EXPECT_NE(text.find("http://127.0.0.1:7480"), std::string::npos) << text;
  EXPECT_NE(text.find("path-style"), std::string::npos) << text;
  EXPECT_EQ(text.find("wJalrXUtnFEMI"), std::string::npos) << text;
  EXPECT_EQ(text.find("SESSIONTOK"), std::string::npos) << text;
}

TEST(S3Addressing, parses_its_three_names) {
  EXPECT_EQ(*parse_s3_addressing("path"), S3Addressing::kPath);
  EXPECT_EQ(*parse_s3_addressing("virtual"), S3Addressing::kVirtualHost);
  EXPECT_EQ(*parse_s3_addressing("auto"), S3Addressing::kAuto);
  EXPECT_FALSE(parse_s3_addressing("vhost").ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::archive
