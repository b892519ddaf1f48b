// Front-proxy authentication of the visibility API (behaviour.md §16.1): who the request is from
// (the first user header present, the groups from every group header, the extra from the extra
// prefixes); no user header, a certificate the CA did not sign or a CN that is not allowed is
// refused; the simulation's own client CA authenticates by CN.
#include <gtest/gtest.h>

#include "api/visibility_auth.hpp"

namespace koordq::api {
namespace KOORDQ_TEST_LOCAL {

namespace http = boost::beast::http;

PeerIdentity verified_peer(std::string common_name) {
  PeerIdentity peer;
  peer.tls = peer.certificate_presented = peer.certificate_verified = true;
  peer.common_name = std::move(common_name);
  return peer;
}

ClientAuthConfig configured_headers() {
  ClientAuthConfig auth;
  auth.ca_pem = "PEM";
  auth.user_headers = {"X-User", "X-Remote-User"};
  auth.group_headers = {"X-Groups", "X-Extra-Groups"};
  return auth;
}

TEST(VisibilityAuth, the_user_and_every_group_come_from_the_configured_headers_in_order) {
  HttpRequest request(http::verb::get, "/apis", 11);
  request.insert("X-Remote-User", "alice");  // the second user header; X-User is absent
  request.insert("X-Extra-Groups", "auditors");
  request.insert("X-Groups", "system:authenticated");
  request.insert("X-Remote-Group", "not-configured");
  request.insert("X-Groups", "team-a");
  request.insert("X-Groups", "");
  auto user = authenticate_front_proxy(configured_headers(), request, verified_peer("front-proxy-client"));
  ASSERT_TRUE(user.has_value());
  EXPECT_EQ(user->name, "alice");
  // system:authenticated is there once, where the proxy put it.
  EXPECT_EQ(user->groups, (std::vector<std::string>{"system:authenticated", "team-a", "auditors"}));
}

TEST(VisibilityAuth, the_first_configured_user_header_present_wins) {
  HttpRequest request(http::verb::get, "/apis", 11);
  request.insert("X-Remote-User", "bob");
  request.insert("X-User", "alice");
  auto user = authenticate_front_proxy(configured_headers(), request, verified_peer("front-proxy-client"));
  ASSERT_TRUE(user.has_value());
  EXPECT_EQ(user->name, "alice");
  EXPECT_EQ(user->groups, std::vector<std::string>{"system:authenticated"});  // added, as k8s.io/apiserver does
}

TEST(VisibilityAuth, without_a_user_header_the_request_is_unauthenticated_whatever_its_certificate) {
  HttpRequest request(http::verb::get, "/apis", 11);
  request.insert("X-Groups", "system:masters");
  request.insert("X-User", "");
  EXPECT_FALSE(authenticate_front_proxy(configured_headers(), request, verified_peer("front-proxy-client")));
  HttpRequest bare(http::verb::get, "/apis", 11);
  EXPECT_FALSE(authenticate_front_proxy(configured_headers(), bare, verified_peer("sre")));
}

TEST(VisibilityAuth, extra_headers_give_the_extra_by_lower_case_percent_decoded_key) {
  ClientAuthConfig auth = configured_headers();
  auth.extra_header_prefixes = {"X-Remote-Extra-", "X-Other-"};
  HttpRequest request(http::verb::get, "/apis", 11);
  request.insert("X-User", "alice");
  request.insert("X-Remote-Extra-Scopes", "view");
  request.insert("X-Remote-Extra-scopes", "edit");
  request.insert("X-Remote-Extra-Acme.com%2fProject", "p1");
  request.insert("X-Other-Team", "a");
  request.insert("X-Remote-Extra-", "no key");
  auto user = authenticate_front_proxy(auth, request, verified_peer("front-proxy-client"));
  ASSERT_TRUE(user.has_value());
  EXPECT_EQ(user->extra, (std::map<std::string, std::vector<std::string>>{
                             {"scopes", {"view", "edit"}}, {"acme.com/project", {"p1"}}, {"team", {"a"}}}));
}

TEST(VisibilityAuth, the_simulations_client_ca_makes_the_cn_the_user) {
  ClientAuthConfig auth = configured_headers();
  auth.user_from_certificate = true;
  HttpRequest request(http::verb::get, "/apis", 11);
  request.insert("X-User", "someone-else");
  auto user = authenticate_front_proxy(auth, request, verified_peer("koordq-simulate-client"));
  ASSERT_TRUE(user.has_value());
  EXPECT_EQ(user->name, "koordq-simulate-client");
  EXPECT_EQ(user->groups, std::vector<std::string>{"system:authenticated"});
  PeerIdentity unverified = verified_peer("koordq-simulate-client");
  unverified.certificate_verified = false;
  EXPECT_FALSE(authenticate_front_proxy(auth, request, unverified));
}

TEST(VisibilityAuth, a_cn_outside_a_non_empty_allowed_list_is_refused) {
  ClientAuthConfig auth = configured_headers();
  auth.allowed_names = {"front-proxy-client"};
  HttpRequest request(http::verb::get, "/apis", 11);
  request.insert("X-User", "alice");
  EXPECT_FALSE(authenticate_front_proxy(auth, request, verified_peer("intruder")).has_value());
  auto allowed = authenticate_front_proxy(auth, request, verified_peer("front-proxy-client"));
  ASSERT_TRUE(allowed.has_value());
  EXPECT_EQ(allowed->name, "alice");
}

TEST(VisibilityAuth, a_certificate_missing_or_not_signed_by_the_ca_is_refused) {
  HttpRequest request(http::verb::get, "/apis", 11);
  request.insert("X-User", "alice");
  PeerIdentity unverified = verified_peer("front-proxy-client");
  unverified.certificate_verified = false;
  EXPECT_FALSE(authenticate_front_proxy(configured_headers(), request, unverified).has_value());
  PeerIdentity none;
  none.tls = true;
  EXPECT_FALSE(authenticate_front_proxy(configured_headers(), request, none).has_value());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::api
