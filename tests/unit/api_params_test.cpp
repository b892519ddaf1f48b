// Request targets, the shared read parameters with their exact 400 messages (behaviour.md §16.4,
// §18), the discovery negotiation (§16.2) and Status objects (§16.7).
#include <gtest/gtest.h>

#include "api/kube_status.hpp"
#include "api/query_params.hpp"
#include "api/read_params.hpp"
#include "api/visibility_discovery.hpp"
#include "base/rfc3339.hpp"

namespace koordq::api {
namespace KOORDQ_TEST_LOCAL {

constexpr int64_t kNow = 1'800'000'000LL * 1'000'000'000LL;

TEST(RequestTarget, splits_path_and_decodes_parameters_keeping_the_first_value) {
  const RequestTarget t = parse_target("/apis/x%2Fy?phase=Running%2CEnqueued&limit=5&limit=7&flag&a+b=c+d");
  EXPECT_EQ(t.path, "/apis/x/y");
  EXPECT_EQ(t.param("phase"), "Running,Enqueued");
  EXPECT_EQ(t.param("limit"), "5");
  EXPECT_EQ(t.param("flag"), "");
  EXPECT_EQ(t.param("a b"), "c d");
  EXPECT_FALSE(t.param("missing").has_value());
  EXPECT_EQ(percent_decode("%zz%4", false), "%zz%4");
}

std::optional<ApiError> page_error(const std::string& query) {
  PageParams page;
  return parse_page(parse_target("/x?" + query), page);
}

TEST(ReadParams, offset_and_limit_follow_the_spec_messages) {
  PageParams page;
  EXPECT_FALSE(parse_page(parse_target("/x?offset=3&limit=10000"), page));
  EXPECT_EQ(page.offset, 3);
  EXPECT_EQ(page.limit, 10000);
  EXPECT_EQ(page_error("offset=-1")->message, "invalid value \"-1\" for parameter offset: must be an integer >= 0");
  EXPECT_EQ(page_error("offset=1x")->message, "invalid value \"1x\" for parameter offset: must be an integer >= 0");
  EXPECT_EQ(page_error("limit=0")->message,
            "invalid value \"0\" for parameter limit: must be an integer between 1 and 10000");
  EXPECT_EQ(page_error("limit=10001")->code, 400);
  EXPECT_EQ(page_error("limit=99999999999999999999")->reason, "BadRequest");
}

TEST(ReadParams, phases_and_queue_are_validated) {
  UnitFilter f;
  EXPECT_FALSE(parse_unit_filter(parse_target("/x?phase=Running,Enqueued&queue=team-a"), f));
  EXPECT_EQ(f.phases->size(), 2u);
  EXPECT_EQ(*f.queue, "team-a");
  UnitFilter g;
  EXPECT_EQ(parse_unit_filter(parse_target("/x?phase=Running,Bogus"), g)->message,
            "invalid value \"Running,Bogus\" for parameter phase: unknown phase \"Bogus\"");
  EXPECT_EQ(parse_unit_filter(parse_target("/x?queue=Team_A"), g)->message,
            "invalid value \"Team_A\" for parameter queue: must be a valid object name");
}

TEST(ReadParams, point_in_time) {
  PointInTime at;
  EXPECT_FALSE(parse_point_in_time(parse_target("/x"), kNow, at));
  EXPECT_FALSE(at.time_travel());
  EXPECT_FALSE(parse_point_in_time(parse_target("/x?revision=12"), kNow, at));
  EXPECT_EQ(at.kind, PointInTime::Kind::kRevision);
  EXPECT_EQ(at.revision, 12u);
  PointInTime t;
  EXPECT_FALSE(parse_point_in_time(parse_target("/x?asOf=2026-04-20T08:00:01.250%2B02:00"), kNow, t));
  EXPECT_EQ(t.kind, PointInTime::Kind::kTime);
  EXPECT_EQ(t.time, *base::parse_rfc3339("2026-04-20T06:00:01.250Z"));
  EXPECT_EQ(t.text, "2026-04-20T08:00:01.250+02:00");
  EXPECT_EQ(parse_point_in_time(parse_target("/x?revision=0"), kNow, at)->message,
            "invalid value \"0\" for parameter revision: must be an integer >= 1");
  EXPECT_EQ(parse_point_in_time(parse_target("/x?asOf=yesterday"), kNow, at)->message,
            "invalid value \"yesterday\" for parameter asOf: must be an RFC3339 time not in the future");
  EXPECT_EQ(parse_point_in_time(parse_target("/x?asOf=2099-01-01T00:00:00Z"), kNow, at)->code, 400);
  EXPECT_EQ(parse_point_in_time(parse_target("/x?asOf=2026-01-01T00:00:00Z&revision=3"), kNow, at)->message,
            "parameters asOf and revision are mutually exclusive");
}

TEST(Discovery, accept_negotiation_follows_q_order_and_exact_parameters) {
  EXPECT_EQ(choose_discovery_form(""), DiscoveryForm::kLegacy);
  EXPECT_EQ(choose_discovery_form("application/json"), DiscoveryForm::kLegacy);
  EXPECT_EQ(choose_discovery_form("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                                  "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
                                  "application/json"),
            DiscoveryForm::kAggregatedV2);
  EXPECT_EQ(choose_discovery_form("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"),
            DiscoveryForm::kAggregatedV2Beta1);
  // Spaces around ';', parameters in any order, type case-insensitive.
  EXPECT_EQ(choose_discovery_form("Application/JSON ; as=APIGroupDiscoveryList ; v=v2 ; g=apidiscovery.k8s.io"),
            DiscoveryForm::kAggregatedV2);
  // q orders the ranges; q=0 drops one.
  EXPECT_EQ(choose_discovery_form("application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2;"
                                  "as=APIGroupDiscoveryList;q=0.9"),
            DiscoveryForm::kAggregatedV2);
  EXPECT_EQ(choose_discovery_form("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0"),
            DiscoveryForm::kLegacy);
  // A value that differs matches neither; nothing answers 406.
  EXPECT_EQ(choose_discovery_form("application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList"),
            DiscoveryForm::kLegacy);
  EXPECT_EQ(choose_discovery_form("text/html"), DiscoveryForm::kLegacy);
  EXPECT_EQ(discovery_content_type(DiscoveryForm::kAggregatedV2),
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
}

TEST(Discovery, documents_match_the_spec) {
  EXPECT_EQ(
      api_group_list(),
      "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[{\"name\":\"visibility.koord-queue.x-k8s.io\","
      "\"versions\":[{\"groupVersion\":\"visibility.koord-queue.x-k8s.io/v1alpha1\",\"version\":\"v1alpha1\"}],"
      "\"preferredVersion\":{\"groupVersion\":\"visibility.koord-queue.x-k8s.io/v1alpha1\",\"version\":"
      "\"v1alpha1\"}}]}");
  EXPECT_NE(api_resource_list().find("{\"name\":\"queues/queueunits\",\"singularName\":\"\",\"namespaced\":false,"
                                     "\"kind\":\"QueueUnitsSummary\",\"verbs\":[\"get\"]}"),
            std::string::npos);
  const std::string aggregated = api_group_discovery_list(DiscoveryForm::kAggregatedV2Beta1);
  EXPECT_NE(aggregated.find("\"apiVersion\":\"apidiscovery.k8s.io/v2beta1\""), std::string::npos);
  EXPECT_NE(aggregated.find("\"freshness\":\"Current\""), std::string::npos);
  EXPECT_NE(openapi_v2().find("\"/apis/visibility.koord-queue.x-k8s.io/v1alpha1/namespaces/{namespace}/queues/{name}/"
                              "queueunits\":{\"get\":{\"operationId\":\"getNamespacedQueueUnitsSummaryByName\""),
            std::string::npos);
  EXPECT_NE(openapi_v2().find("\"swagger\":\"2.0\""), std::string::npos);
}

TEST(Status, not_found_and_throttled_shapes) {
  EXPECT_EQ(render_status({404, "NotFound", "queue.scheduling.x-k8s.io \"team-x\" not found"},
                          StatusDetails{"team-x", "scheduling.x-k8s.io", "queue"}),
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
            "\"queue.scheduling.x-k8s.io \\\"team-x\\\" not found\",\"reason\":\"NotFound\",\"details\":{\"name\":"
            "\"team-x\",\"group\":\"scheduling.x-k8s.io\",\"kind\":\"queue\"},\"code\":404}");
  const HttpResponse throttled = status_response({429, "TooManyRequests", "too many", true});
  EXPECT_EQ(throttled.result_int(), 429u);
  EXPECT_EQ(throttled[boost::beast::http::field::retry_after], "1");
  EXPECT_NE(throttled.body().find("\"details\":{\"retryAfterSeconds\":1}"), std::string::npos);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::api
