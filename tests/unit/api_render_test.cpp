// The visibility and debug API renderings (behaviour.md §16.5, §16.6, §17.2–§17.4) of a small state.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "api/debug_render.hpp"
#include "api/visibility_render.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  EXPECT_FALSE(doc.HasParseError()) << text;
  return doc;
}

// team-a (cpu 4) with a Priority queue: "big" (8 cpu, priority 20) can never fit and waits,
// "small" (2 cpu) is admitted; "orphan" has no quota label and "lost" names a quota without a queue.
class ApiRender : public ::testing::Test {
 protected:
  void SetUp() override {
    d.input(quota("team-a", "", {{"cpu", "4"}}, 10 * kSec));
    d.input(queue("team-a"));
    auto big = unit("big", "team-a", "8", 20, 100 * kSec);
    big.spec.consumer_ref = schema::ConsumerRef{"batch/v1", "Job", "big", "default", "uid-job-big"};
    d.input(big);
    d.input(unit("small", "team-a", "2", 0, 101 * kSec));
    d.input(unit("orphan", "", "1", 0, 102 * kSec, "other"));
    d.input(unit("lost", "team-x", "1", 0, 103 * kSec));
    d.run_until(d.time + 5 * kSec);  // the queue's pauses after each attempt pass
  }
  SchedulerDriver d;
};

TEST_F(ApiRender, queue_units_list_waiting_units_by_position_then_assumed_ones) {
  auto text = api::render_queue_units(d.s, 42, "team-a", {}, {});
  ASSERT_TRUE(text.has_value());
  auto doc = parse(*text);
  EXPECT_STREQ(doc["kind"].GetString(), "QueueUnitsSummary");
  EXPECT_STREQ(doc["apiVersion"].GetString(), "visibility.koord-queue.x-k8s.io/v1alpha1");
  EXPECT_STREQ(doc["metadata"]["resourceVersion"].GetString(), "42");
  EXPECT_FALSE(doc["metadata"].HasMember("remainingItemCount"));
  const auto& items = doc["items"];
  ASSERT_EQ(items.Size(), 2u);
  EXPECT_STREQ(items[0]["metadata"]["name"].GetString(), "big");
  EXPECT_EQ(items[0]["positionInQueue"].GetInt(), 0);
  EXPECT_STREQ(items[0]["phase"].GetString(), "Enqueued");
  EXPECT_EQ(items[0]["priority"].GetInt(), 20);
  EXPECT_STREQ(items[1]["metadata"]["name"].GetString(), "small");
  EXPECT_FALSE(items[1].HasMember("positionInQueue"));
  EXPECT_STREQ(items[1]["phase"].GetString(), "Dequeued");
}

TEST_F(ApiRender, a_summary_item_has_the_exact_shape_and_key_order) {
  auto text = api::render_queue_units(d.s, 7, "team-a", {}, {0, 1});
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(
      *text,
      "{\"kind\":\"QueueUnitsSummary\",\"apiVersion\":\"visibility.koord-queue.x-k8s.io/v1alpha1\","
      "\"metadata\":{\"resourceVersion\":\"7\",\"remainingItemCount\":1},\"items\":[{\"metadata\":{\"name\":"
      "\"big\",\"namespace\":\"default\",\"creationTimestamp\":\"1970-01-01T00:01:40Z\"},\"quotaName\":\"team-a\","
      "\"queueName\":\"team-a\",\"priority\":20,\"positionInQueue\":0,\"request\":{\"cpu\":\"8\"},\"resources\":"
      "{\"cpu\":\"8\"},\"phase\":\"Enqueued\",\"podState\":{\"running\":0,\"pending\":0}}]}");
}

TEST_F(ApiRender, phase_and_queue_filters_and_paging_apply_to_the_ordered_sequence) {
  api::UnitFilter dequeued;
  dequeued.phases = std::set<actors::Phase>{actors::Phase::kDequeued};
  auto doc = parse(*api::render_queue_units(d.s, 1, "team-a", dequeued, {}));
  ASSERT_EQ(doc["items"].Size(), 1u);
  EXPECT_STREQ(doc["items"][0]["metadata"]["name"].GetString(), "small");

  api::UnitFilter other_queue;
  other_queue.queue = "team-b";
  EXPECT_EQ(parse(*api::render_queue_units(d.s, 1, "team-a", other_queue, {}))["items"].Size(), 0u);

  auto second = parse(*api::render_queue_units(d.s, 1, "team-a", {}, {1, 5}));
  ASSERT_EQ(second["items"].Size(), 1u);
  EXPECT_STREQ(second["items"][0]["metadata"]["name"].GetString(), "small");
  EXPECT_EQ(parse(*api::render_queue_units(d.s, 1, "team-a", {}, {9, 5}))["items"].Size(), 0u);
}

// §16.7: a queue's units of one namespace keep their queue-wide positions.
TEST_F(ApiRender, a_namespace_filter_keeps_that_namespaces_units_at_their_queue_positions) {
  d.input(unit("tenant-job", "team-a", "9", 30, 104 * kSec, "tenant"));
  d.run_until(d.time + 5 * kSec);
  api::UnitFilter tenant;
  tenant.namespace_ = "tenant";
  auto doc = parse(*api::render_queue_units(d.s, 1, "team-a", tenant, {}));
  ASSERT_EQ(doc["items"].Size(), 1u);
  EXPECT_STREQ(doc["items"][0]["metadata"]["name"].GetString(), "tenant-job");
  EXPECT_STREQ(doc["items"][0]["metadata"]["namespace"].GetString(), "tenant");
  EXPECT_EQ(doc["items"][0]["positionInQueue"].GetInt(), 0);  // priority 30 waits first
  api::UnitFilter defaults;
  defaults.namespace_ = "default";
  auto rest = parse(*api::render_queue_units(d.s, 1, "team-a", defaults, {}));
  ASSERT_EQ(rest["items"].Size(), 2u);
  EXPECT_STREQ(rest["items"][0]["metadata"]["name"].GetString(), "big");
  EXPECT_EQ(rest["items"][0]["positionInQueue"].GetInt(), 1);
  EXPECT_STREQ(rest["items"][1]["metadata"]["name"].GetString(), "small");
  api::UnitFilter nobody;
  nobody.namespace_ = "nobody";
  EXPECT_EQ(parse(*api::render_queue_units(d.s, 1, "team-a", nobody, {}))["items"].Size(), 0u);
}

TEST_F(ApiRender, unknown_queues_and_quotas_are_not_found_but_a_quota_name_on_units_is_enough) {
  EXPECT_FALSE(api::render_queue(d.s, 1, "nope").has_value());
  EXPECT_FALSE(api::render_queue_units(d.s, 1, "team-x", {}, {}).has_value());
  EXPECT_FALSE(api::render_quota(d.s, 1, "team-x").has_value());
  // No ElasticQuota team-x, but a unit carries it as its quota name.
  auto doc = parse(*api::render_quota_units(d.s, 1, "team-x", {}, {}));
  ASSERT_EQ(doc["items"].Size(), 1u);
  EXPECT_STREQ(doc["items"][0]["metadata"]["name"].GetString(), "lost");
  EXPECT_FALSE(api::render_quota_units(d.s, 1, "team-z", {}, {}).has_value());
}

TEST_F(ApiRender, queue_and_quota_summaries_count_phases_and_render_usage) {
  auto queue = parse(*api::render_queue(d.s, 9, "team-a"));
  EXPECT_STREQ(queue["kind"].GetString(), "Queue");
  EXPECT_STREQ(queue["metadata"]["resourceVersion"].GetString(), "9");
  EXPECT_STREQ(queue["policy"].GetString(), "Priority");
  EXPECT_EQ(queue["phaseCounts"]["Enqueued"].GetInt(), 1);
  EXPECT_EQ(queue["phaseCounts"]["Dequeued"].GetInt(), 1);
  EXPECT_EQ(queue["activeCount"].GetInt() + queue["backoffCount"].GetInt(), 1);
  EXPECT_EQ(queue["assumedCount"].GetInt(), 1);

  auto list = parse(api::render_quota_list(d.s, 9, {}));
  EXPECT_STREQ(list["kind"].GetString(), "ElasticQuotaList");
  ASSERT_EQ(list["items"].Size(), 1u);
  const auto& q = list["items"][0];
  EXPECT_FALSE(q.HasMember("kind"));
  EXPECT_STREQ(q["parent"].GetString(), "koordinator-root-quota");
  EXPECT_STREQ(q["max"]["cpu"].GetString(), "4");
  EXPECT_TRUE(q["min"].ObjectEmpty());
  EXPECT_STREQ(q["used"]["cpu"].GetString(), "2");
  EXPECT_EQ(q["phaseCounts"]["Dequeued"].GetInt(), 1);
}

TEST_F(ApiRender, lists_page_by_name) {
  d.input(queue("team-b"));
  auto page = parse(api::render_queue_list(d.s, 3, {1, 1}));
  ASSERT_EQ(page["items"].Size(), 1u);
  EXPECT_STREQ(page["items"][0]["metadata"]["name"].GetString(), "team-b");
  auto first = parse(api::render_queue_list(d.s, 3, {0, 1}));
  EXPECT_EQ(first["metadata"]["remainingItemCount"].GetInt(), 1);
}

TEST_F(ApiRender, debug_queue_lists_active_backoff_assumed_and_unassigned) {
  const std::string text = api::render_debug_queues(d.s);
  EXPECT_NE(text.find("\n\t\"team-a\": {"), std::string::npos) << "indented with one tab per level";
  auto doc = parse(text);
  const auto& q = doc["team-a"];
  EXPECT_STREQ(q["Policy"].GetString(), "Priority");
  EXPECT_TRUE(q["Running"].GetBool());
  EXPECT_EQ(q["MaxDepth"].GetInt(), -1);
  EXPECT_TRUE(q["BlockedQuotas"].ObjectEmpty());
  EXPECT_EQ(q["Active"].Size() + q["Backoff"].Size(), 1u);
  ASSERT_EQ(q["Assumed"].Size(), 1u);
  EXPECT_STREQ(q["Assumed"][0]["Name"].GetString(), "small");
  EXPECT_STREQ(q["Assumed"][0]["Phase"].GetString(), "Dequeued");
  EXPECT_FALSE(q["Assumed"][0]["ReclaimRequested"].GetBool());
  const auto& unassigned = doc["_unassigned"];
  ASSERT_EQ(unassigned.Size(), 2u);
  // §6.1 order: "orphan" is older.
  EXPECT_STREQ(unassigned[0]["Name"].GetString(), "orphan");
  EXPECT_STREQ(unassigned[0]["Reason"].GetString(), "NoQuotaLabel");
  EXPECT_STREQ(unassigned[0]["QuotaName"].GetString(), "");
  EXPECT_STREQ(unassigned[1]["Name"].GetString(), "lost");
  EXPECT_STREQ(unassigned[1]["Reason"].GetString(), "QueueNotFound");
  EXPECT_STREQ(unassigned[1]["QuotaName"].GetString(), "team-x");
}

// "big" fails every attempt and is retried as soon as its backoff ends: between rounds it is under
// Backoff with its NextRetryTime; a unit no round has tried yet is Active, without one.
TEST_F(ApiRender, debug_queue_lists_backoff_units_with_their_retry_time_and_untried_ones_as_active) {
  for (int step = 0; step < 100; ++step) {
    d.run_until(d.time + 250 * kMs);
    ASSERT_FALSE(d.s.is_active(d.s.units().at("default/big"))) << "at " << d.time;
    auto doc = parse(api::render_debug_queues(d.s));
    const auto& q = doc["team-a"];
    ASSERT_EQ(q["Backoff"].Size(), 1u) << "at " << d.time;
    EXPECT_TRUE(q["Active"].Empty());
    EXPECT_STREQ(q["Backoff"][0]["Name"].GetString(), "big");
    EXPECT_EQ(q["Backoff"][0]["Position"].GetInt(), 1);
    ASSERT_TRUE(q["Backoff"][0]["NextRetryTime"].IsString());
  }
  ++d.seq;
  d.s.advance_to(d.time);
  d.s.apply_object(schema::WatchedObject(unit("untried", "team-a", "1", 0, 200 * kSec)), false);  // no round
  auto doc = parse(api::render_debug_queues(d.s));
  const auto& q = doc["team-a"];
  ASSERT_EQ(q["Active"].Size(), 1u);
  EXPECT_STREQ(q["Active"][0]["Name"].GetString(), "untried");
  EXPECT_EQ(q["Active"][0]["Position"].GetInt(), 2);
  EXPECT_TRUE(!q["Active"][0].HasMember("NextRetryTime") || q["Active"][0]["NextRetryTime"].IsNull());
  EXPECT_EQ(q["Backoff"].Size(), 1u);
}

TEST_F(ApiRender, debug_quotas_and_user_quotas_use_internal_units) {
  auto quotas = parse(api::render_debug_quotas(d.s));
  const auto& a = quotas["team-a"];
  EXPECT_EQ(a["Count"].GetInt(), 1);
  EXPECT_EQ(a["Max"]["cpu"].GetInt(), 4000);
  EXPECT_EQ(a["Used"]["cpu"].GetInt(), 2000);
  EXPECT_EQ(a["GuaranteedUsed"]["cpu"].GetInt(), 2000);
  EXPECT_TRUE(a["ChildrenUsed"].ObjectEmpty());
  EXPECT_TRUE(a["Items"]["default/small"]["InReserveCache"].GetBool());
  EXPECT_FALSE(a["Items"]["default/big"]["InReserveCache"].GetBool());
  EXPECT_STREQ(a["Items"]["default/small"]["Resource"]["cpu"].GetString(), "2");

  auto users = parse(api::render_debug_user_quotas(d.s));
  EXPECT_EQ(users["default"]["Count"].GetInt(), 3);
  EXPECT_EQ(users["default"]["Holding"].GetInt(), 1);
  EXPECT_EQ(users["default"]["Used"]["cpu"].GetInt(), 2000);
  EXPECT_EQ(users["default"]["Phases"]["Dequeued"].GetInt(), 1);
  EXPECT_EQ(users["other"]["Count"].GetInt(), 1);
  EXPECT_FALSE(users["other"]["Phases"].HasMember("Dequeued"));
}

TEST(ApiRenderEmpty, an_empty_state_renders_empty_collections) {
  actors::Scheduler s;
  EXPECT_EQ(api::render_debug_quotas(s), "{}");
  EXPECT_EQ(api::render_debug_user_quotas(s), "{}");
  EXPECT_EQ(api::render_debug_queues(s), "{\n\t\"_unassigned\": []\n}");
  EXPECT_EQ(api::render_queue_list(s, 0, {}),
            "{\"kind\":\"QueueList\",\"apiVersion\":\"visibility.koord-queue.x-k8s.io/v1alpha1\","
            "\"metadata\":{\"resourceVersion\":\"0\"},\"items\":[]}");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
