// The visibility API's client authentication from kube-system/extension-apiserver-authentication
// (behaviour.md §16.1).
#include <gtest/gtest.h>

#include "api/auth_configmap.hpp"

namespace koordq::api {
namespace KOORDQ_TEST_LOCAL {

TEST(AuthConfigMap, reads_the_ca_the_allowed_names_and_the_header_lists) {
  auto config = client_auth_from_configmap(
      R"({"kind":"ConfigMap","data":{"requestheader-client-ca-file":"-----BEGIN CERTIFICATE-----\nX\n",)"
      R"("requestheader-allowed-names":"[\"front-proxy-client\"]",)"
      R"("requestheader-username-headers":"[\"X-Remote-User\",\"X-User\"]",)"
      R"("requestheader-group-headers":"[\"X-Remote-Group\"]","client-ca-file":"other",)"
      R"("requestheader-extra-headers-prefix":"[\"X-Remote-Extra-\",\"X-Extra-\"]"}})");
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->ca_pem, "-----BEGIN CERTIFICATE-----\nX\n");
  EXPECT_EQ(config->allowed_names, std::vector<std::string>{"front-proxy-client"});
  EXPECT_EQ(config->user_headers, (std::vector<std::string>{"X-Remote-User", "X-User"}));
  EXPECT_EQ(config->group_headers, std::vector<std::string>{"X-Remote-Group"});
  EXPECT_EQ(config->extra_header_prefixes, (std::vector<std::string>{"X-Remote-Extra-", "X-Extra-"}));
}

TEST(AuthConfigMap, absent_lists_keep_the_defaults_and_allow_any_name) {
  auto config = client_auth_from_configmap(R"({"data":{"requestheader-client-ca-file":"PEM"}})");
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_TRUE(config->allowed_names.empty());
  EXPECT_EQ(config->user_headers, std::vector<std::string>{"X-Remote-User"});
  EXPECT_EQ(config->group_headers, std::vector<std::string>{"X-Remote-Group"});
  EXPECT_EQ(config->extra_header_prefixes, std::vector<std::string>{"X-Remote-Extra-"});
  EXPECT_FALSE(config->user_from_certificate);
}

TEST(AuthConfigMap, errors_name_what_is_missing_or_malformed) {
  EXPECT_EQ(client_auth_from_configmap("not json").message(), "the ConfigMap is not a JSON object");
  EXPECT_EQ(client_auth_from_configmap(R"({"data":{}})").message(),
            "the ConfigMap has no data.requestheader-client-ca-file");
  EXPECT_EQ(client_auth_from_configmap(
                R"({"data":{"requestheader-client-ca-file":"PEM","requestheader-allowed-names":"front-proxy-client"}})")
                .message(),
            "data.requestheader-allowed-names is not a JSON array of strings");
  EXPECT_EQ(client_auth_from_configmap(
                R"({"data":{"requestheader-client-ca-file":"PEM","requestheader-group-headers":"[1]"}})")
                .message(),
            "data.requestheader-group-headers is not a JSON array of strings");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::api
