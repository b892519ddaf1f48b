// Who may read what through the visibility API (behaviour.md §16.7, §16.8): every authenticated
// request is decided by a SubjectAccessReview; a tenant allowed in its namespace reads that
// namespace's units of a queue and is refused (403 Status) in another namespace and cluster-wide;
// an admin reads every unit; no user header is 401 without any review; a review that cannot be
// made is 500.
#include <set>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "api/tls_material.hpp"
#include "api/visibility_service.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

namespace http = boost::beast::http;

const std::string kV = "/apis/visibility.koord-queue.x-k8s.io/v1alpha1";

class VisibilityAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    journal_ = open_test_journal(dir_.path(), clock_);
    d.input(quota("team-a", "", {{"cpu", "1"}}, 10 * kSec));
    d.input(queue("team-a"));
    d.input(unit("tenant-job", "team-a", "8", 10, 100 * kSec, "tenant"));
    d.input(unit("other-job", "team-a", "8", 20, 101 * kSec, "other"));
    d.run_until(d.time + 5 * kSec);

    api::CertificateRequest ca_request;
    ca_request.common_name = "front-proxy-ca";
    ca_request.ca = true;
    auto ca = api::generate_certificate(ca_request);
    ASSERT_TRUE(ca.ok()) << ca.message();
    auto serving = api::generate_certificate({"koordq", {"127.0.0.1"}, 1, false, false}, &*ca);
    ASSERT_TRUE(serving.ok()) << serving.message();
    auto tls = api::TlsMaterial::load({}, *serving);
    ASSERT_TRUE(tls.ok()) << tls.message();
    api::ClientAuthConfig client_auth;
    client_auth.ca_pem = ca->certificate_pem;
    ASSERT_TRUE((*tls)->set_client_auth(client_auth).ok());

    time_travel_ = std::make_unique<api::TimeTravel>(api::TimeTravelOptions{}, journal_->reader(),
                                                     [this](const api::StateRead& read) { read(d.s, 7); });
    api::VisibilityContext context;
    context.time_travel = time_travel_.get();
    context.tls = *tls;
    context.now = [] { return int64_t{1'776'000'000'000'000'000}; };
    // RBAC as a test: admin may do anything; tenant may read queues/queueunits in "tenant" only.
    context.authorizer =
        std::make_shared<api::VisibilityAuthorizer>([this](const std::string& body) -> Result<std::string> {
          ++reviews_;
          if (review_fails_) return make_error("POST /apis/authorization.k8s.io/v1/subjectaccessreviews: timed out");
          rapidjson::Document review;
          review.Parse(body.c_str());
          const auto& spec = review["spec"];
          const std::string user = spec["user"].GetString();
          bool allowed = user == "admin";
          if (user == "tenant" && spec.HasMember("resourceAttributes")) {
            const auto& a = spec["resourceAttributes"];
            allowed = a.HasMember("namespace") && std::string(a["namespace"].GetString()) == "tenant";
          }
          return std::string(allowed ? R"({"status":{"allowed":true}})" : R"({"status":{"allowed":false}})");
        });
    service_ = std::make_unique<api::VisibilityService>(std::move(context));
  }

  api::HttpResponse get(const std::string& target, const std::string& user) {
    api::HttpRequest request(http::verb::get, target, 11);
    if (!user.empty()) request.insert("X-Remote-User", user);
    api::PeerIdentity peer;
    peer.tls = peer.certificate_presented = peer.certificate_verified = true;
    peer.common_name = "front-proxy-client";
    return service_->handle(request, peer);
  }

  static std::set<std::string> unit_names(const api::HttpResponse& response) {
    rapidjson::Document doc;
    doc.Parse(response.body().c_str());
    std::set<std::string> names;
    for (const auto& item : doc["items"].GetArray()) names.insert(item["metadata"]["name"].GetString());
    return names;
  }

  TempDir dir_;
  int64_t now_ = 1'776'000'000'000'000'000;
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
  std::unique_ptr<journal::Journal> journal_;
  SchedulerDriver d;
  std::unique_ptr<api::TimeTravel> time_travel_;
  std::unique_ptr<api::VisibilityService> service_;
  int reviews_ = 0;
  bool review_fails_ = false;
};

TEST_F(VisibilityAccessTest, a_tenant_reads_its_namespaces_units_of_a_queue) {
  const api::HttpResponse own = get(kV + "/namespaces/tenant/queues/team-a/queueunits", "tenant");
  ASSERT_EQ(own.result_int(), 200) << own.body();
  EXPECT_EQ(unit_names(own), std::set<std::string>{"tenant-job"});
}

TEST_F(VisibilityAccessTest, a_tenant_is_refused_in_another_namespace_and_cluster_wide_with_a_forbidden_status) {
  const api::HttpResponse other = get(kV + "/namespaces/other/queues/team-a/queueunits", "tenant");
  EXPECT_EQ(other.result_int(), 403);
  EXPECT_EQ(other.body(),
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
            "\"queues.visibility.koord-queue.x-k8s.io \\\"team-a\\\" is forbidden: User \\\"tenant\\\" cannot get "
            "resource \\\"queues/queueunits\\\" in API group \\\"visibility.koord-queue.x-k8s.io\\\" in the namespace "
            "\\\"other\\\"\",\"reason\":\"Forbidden\",\"details\":{\"name\":\"team-a\",\"group\":"
            "\"visibility.koord-queue.x-k8s.io\",\"kind\":\"queues\"},\"code\":403}");
  const api::HttpResponse cluster = get(kV + "/queues/team-a/queueunits", "tenant");
  EXPECT_EQ(cluster.result_int(), 403);
  EXPECT_NE(cluster.body().find("at the cluster scope"), std::string::npos) << cluster.body();
  EXPECT_EQ(get(kV + "/queues", "tenant").result_int(), 403);
  EXPECT_EQ(get("/apis", "tenant").result_int(), 403);
}

TEST_F(VisibilityAccessTest, an_admin_reads_every_namespace_cluster_wide_and_any_namespace) {
  const api::HttpResponse all = get(kV + "/queues/team-a/queueunits", "admin");
  ASSERT_EQ(all.result_int(), 200) << all.body();
  EXPECT_EQ(unit_names(all), (std::set<std::string>{"tenant-job", "other-job"}));
  const api::HttpResponse other = get(kV + "/namespaces/other/queues/team-a/queueunits", "admin");
  ASSERT_EQ(other.result_int(), 200) << other.body();
  EXPECT_EQ(unit_names(other), std::set<std::string>{"other-job"});
}

TEST_F(VisibilityAccessTest, decisions_are_reused_so_repeated_requests_review_once) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(get(kV + "/namespaces/tenant/queues/team-a/queueunits", "tenant").result_int(), 200);
    EXPECT_EQ(get(kV + "/namespaces/other/queues/team-a/queueunits", "tenant").result_int(), 403);
  }
  EXPECT_EQ(reviews_, 2);
}

TEST_F(VisibilityAccessTest, no_user_header_is_401_without_a_review) {
  const api::HttpResponse answer = get(kV + "/queues", "");
  EXPECT_EQ(answer.result_int(), 401);
  EXPECT_EQ(reviews_, 0);
}

TEST_F(VisibilityAccessTest, a_review_that_cannot_be_made_is_500_naming_the_problem) {
  review_fails_ = true;
  const api::HttpResponse answer = get(kV + "/queues", "admin");
  EXPECT_EQ(answer.result_int(), 500);
  EXPECT_NE(answer.body().find("the request could not be authorized: POST "
                               "/apis/authorization.k8s.io/v1/subjectaccessreviews: timed out"),
            std::string::npos)
      << answer.body();
}

TEST_F(VisibilityAccessTest, other_namespaced_paths_are_not_found) {
  EXPECT_EQ(get(kV + "/namespaces/tenant/queues/team-a", "admin").result_int(), 404);
  EXPECT_EQ(get(kV + "/namespaces/tenant/elasticquotas/team-a/queueunits", "admin").result_int(), 404);
  EXPECT_EQ(get(kV + "/namespaces/tenant/queues/team-a/other", "admin").result_int(), 404);
  EXPECT_EQ(get(kV + "/namespaces/tenant/queues/nope/queueunits", "admin").result_int(), 404);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
