// The authorization of visibility API requests (behaviour.md §16.8): the attributes a path asks
// for, the SubjectAccessReview sent for them and its answer read back, the forbidden wording, the
// decision cache (allowed and denied kept 10 s, bounded, errors never kept) and the APIService
// caBundle patch (§16.1).
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "api/apiservice_ca_bundle.hpp"
#include "api/authorization_cache.hpp"
#include "api/request_attributes.hpp"
#include "api/subject_access_review.hpp"
#include "api/visibility_authorizer.hpp"

namespace koordq::api {
namespace KOORDQ_TEST_LOCAL {

constexpr char kV[] = "/apis/visibility.koord-queue.x-k8s.io/v1alpha1";

TEST(RequestAttributes, resource_paths_read_as_the_apiserver_reads_them) {
  const RequestAttributes list = request_attributes_of(std::string(kV) + "/queues");
  EXPECT_TRUE(list.resource_request);
  EXPECT_EQ(list.verb, "list");
  EXPECT_EQ(list.group, "visibility.koord-queue.x-k8s.io");
  EXPECT_EQ(list.version, "v1alpha1");
  EXPECT_EQ(list.resource, "queues");
  EXPECT_EQ(list.namespace_, "");

  const RequestAttributes units = request_attributes_of(std::string(kV) + "/queues/team-a/queueunits");
  EXPECT_EQ(units.verb, "get");
  EXPECT_EQ(units.resource, "queues");
  EXPECT_EQ(units.name, "team-a");
  EXPECT_EQ(units.subresource, "queueunits");
  EXPECT_EQ(units.namespace_, "");

  const RequestAttributes namespaced =
      request_attributes_of(std::string(kV) + "/namespaces/tenant/queues/team-a/queueunits");
  EXPECT_EQ(namespaced.verb, "get");
  EXPECT_EQ(namespaced.namespace_, "tenant");
  EXPECT_EQ(namespaced.resource, "queues");
  EXPECT_EQ(namespaced.name, "team-a");
  EXPECT_EQ(namespaced.subresource, "queueunits");

  const RequestAttributes quota = request_attributes_of(std::string(kV) + "/elasticquotas/team-a");
  EXPECT_EQ(quota.verb, "get");
  EXPECT_EQ(quota.resource, "elasticquotas");
  EXPECT_EQ(quota.name, "team-a");
}

TEST(RequestAttributes, discovery_and_openapi_are_non_resource_gets) {
  for (const std::string path : {"/apis", "/apis/visibility.koord-queue.x-k8s.io", kV, "/openapi/v2"}) {
    const RequestAttributes a = request_attributes_of(path);
    EXPECT_FALSE(a.resource_request) << path;
    EXPECT_EQ(a.verb, "get") << path;
    EXPECT_EQ(a.path, path);
  }
}

TEST(RequestAttributes, the_forbidden_message_is_the_apiservers) {
  EXPECT_EQ(forbidden_message("alice", request_attributes_of(std::string(kV) + "/namespaces/b/queues/q/queueunits")),
            "User \"alice\" cannot get resource \"queues/queueunits\" in API group "
            "\"visibility.koord-queue.x-k8s.io\" in the namespace \"b\"");
  EXPECT_EQ(forbidden_message("alice", request_attributes_of(std::string(kV) + "/queues")),
            "User \"alice\" cannot list resource \"queues\" in API group \"visibility.koord-queue.x-k8s.io\" at the "
            "cluster scope");
  EXPECT_EQ(forbidden_message("alice", request_attributes_of("/openapi/v2")),
            "User \"alice\" cannot get path \"/openapi/v2\"");
}

AuthenticatedUser alice() {
  AuthenticatedUser user;
  user.name = "alice";
  user.groups = {"team-a", "system:authenticated"};
  user.extra["scopes"] = {"view"};
  return user;
}

TEST(SubjectAccessReview, the_body_carries_the_user_groups_extra_and_resource_attributes) {
  EXPECT_EQ(subject_access_review_body(
                alice(), request_attributes_of(std::string(kV) + "/namespaces/tenant/queues/team-a/queueunits")),
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{"
            "\"resourceAttributes\":{\"namespace\":\"tenant\",\"verb\":\"get\",\"group\":"
            "\"visibility.koord-queue.x-k8s.io\",\"version\":\"v1alpha1\",\"resource\":\"queues\",\"subresource\":"
            "\"queueunits\",\"name\":\"team-a\"},\"user\":\"alice\",\"groups\":[\"team-a\",\"system:authenticated\"],"
            "\"extra\":{\"scopes\":[\"view\"]}}}");
  AuthenticatedUser bob;
  bob.name = "bob";
  EXPECT_EQ(subject_access_review_body(bob, request_attributes_of("/apis")),
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{"
            "\"nonResourceAttributes\":{\"path\":\"/apis\",\"verb\":\"get\"},\"user\":\"bob\"}}");
}

TEST(SubjectAccessReview, the_answer_gives_allowed_and_the_reason) {
  auto allowed = access_decision_from_review(R"({"status":{"allowed":true,"reason":"RBAC: allowed by RoleBinding"}})");
  ASSERT_TRUE(allowed.ok()) << allowed.message();
  EXPECT_TRUE(allowed->allowed);
  EXPECT_EQ(allowed->reason, "RBAC: allowed by RoleBinding");
  auto denied = access_decision_from_review(R"({"status":{"reason":"no rule","evaluationError":"role not found"}})");
  ASSERT_TRUE(denied.ok());
  EXPECT_FALSE(denied->allowed);
  EXPECT_EQ(denied->reason, "no rule; role not found");
  EXPECT_EQ(access_decision_from_review("{}").message(), "the SubjectAccessReview answer has no status");
  EXPECT_EQ(access_decision_from_review(R"({"status":{"allowed":"yes"}})").message(),
            "the SubjectAccessReview answer's status.allowed is not a boolean");
}

TEST(AuthorizationCache, allowed_and_denied_decisions_are_kept_for_their_time_to_live) {
  AuthorizationCache cache(8, std::chrono::seconds(10));
  const auto t0 = AuthorizationCache::Clock::time_point{} + std::chrono::hours(1);
  cache.store("allow", {true, ""}, t0);
  cache.store("deny", {false, "no"}, t0);
  EXPECT_TRUE(cache.find("allow", t0 + std::chrono::seconds(9))->allowed);
  EXPECT_FALSE(cache.find("deny", t0 + std::chrono::seconds(9))->allowed);
  EXPECT_FALSE(cache.find("allow", t0 + std::chrono::seconds(10)).has_value());
  EXPECT_FALSE(cache.find("deny", t0 + std::chrono::seconds(10)).has_value());
  EXPECT_EQ(cache.size(), 0u);
}

TEST(AuthorizationCache, it_holds_at_most_its_capacity_dropping_the_least_recently_used) {
  AuthorizationCache cache(2, std::chrono::seconds(10));
  const auto t0 = AuthorizationCache::Clock::time_point{} + std::chrono::hours(1);
  cache.store("a", {true, ""}, t0);
  cache.store("b", {true, ""}, t0);
  EXPECT_TRUE(cache.find("a", t0).has_value());  // a is now the most recent
  cache.store("c", {true, ""}, t0);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_TRUE(cache.find("a", t0).has_value());
  EXPECT_FALSE(cache.find("b", t0).has_value());
  EXPECT_TRUE(cache.find("c", t0).has_value());
}

TEST(VisibilityAuthorizer, one_review_per_distinct_request_within_the_time_to_live_and_errors_asked_again) {
  int reviews = 0;
  bool fail = false;
  std::string last_body;
  VisibilityAuthorizer authorizer([&](const std::string& body) -> Result<std::string> {
    ++reviews;
    last_body = body;
    if (fail) return make_error("connect: Connection refused");
    const bool allowed = body.find("\"namespace\":\"tenant\"") != std::string::npos;
    return std::string(allowed ? R"({"status":{"allowed":true}})" : R"({"status":{"allowed":false,"reason":"nope"}})");
  });
  const RequestAttributes own = request_attributes_of(std::string(kV) + "/namespaces/tenant/queues/q/queueunits");
  const RequestAttributes other = request_attributes_of(std::string(kV) + "/namespaces/other/queues/q/queueunits");
  EXPECT_TRUE(authorizer.authorize(alice(), own)->allowed);
  EXPECT_TRUE(authorizer.authorize(alice(), own)->allowed);
  EXPECT_EQ(reviews, 1);
  EXPECT_EQ(last_body, subject_access_review_body(alice(), own));
  auto denied = authorizer.authorize(alice(), other);
  EXPECT_FALSE(denied->allowed);
  EXPECT_EQ(denied->reason, "nope");
  EXPECT_FALSE(authorizer.authorize(alice(), other)->allowed);
  EXPECT_EQ(reviews, 2);
  AuthenticatedUser bob = alice();
  bob.name = "bob";  // another user is another question
  EXPECT_TRUE(authorizer.authorize(bob, own)->allowed);
  EXPECT_EQ(reviews, 3);
  fail = true;
  const RequestAttributes list = request_attributes_of(std::string(kV) + "/queues");
  EXPECT_EQ(authorizer.authorize(alice(), list).message(), "connect: Connection refused");
  EXPECT_FALSE(authorizer.authorize(alice(), list).ok());
  EXPECT_EQ(reviews, 5);
}

TEST(VisibilityAuthorizer, decisions_expire_after_the_time_to_live) {
  int reviews = 0;
  VisibilityAuthorizer authorizer(
      [&](const std::string&) -> Result<std::string> {
        ++reviews;
        return std::string(R"({"status":{"allowed":true}})");
      },
      std::chrono::milliseconds(1));
  const RequestAttributes list = request_attributes_of(std::string(kV) + "/queues");
  ASSERT_TRUE(authorizer.authorize(alice(), list).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(authorizer.authorize(alice(), list).ok());
  EXPECT_EQ(reviews, 2);
}

TEST(ApiServiceCaBundle, the_view_names_the_service_host_and_the_patch_trusts_the_certificate) {
  auto view = api_service_view(
      R"({"spec":{"insecureSkipTLSVerify":true,"service":{"name":"koordq-visibility","namespace":"koord-queue"}}})");
  ASSERT_TRUE(view.ok()) << view.message();
  EXPECT_TRUE(view->insecure_skip_tls_verify);
  EXPECT_EQ(view->ca_bundle, "");
  EXPECT_EQ(view->service_host, "koordq-visibility.koord-queue.svc");
  EXPECT_EQ(ca_bundle_patch("PEM\n"), R"({"spec":{"caBundle":"UEVNCg==","insecureSkipTLSVerify":false}})");
  EXPECT_EQ(api_service_view("[]").message(), "the APIService is not a JSON object");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::api
