// `koordq at`'s renderings (behaviour.md §24.1): the tables of the list and QueueUnitsSummary
// bodies, the YAML form of any body, and the unit view (summary item + full status).
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <yaml-cpp/yaml.h>

#include "api/debug_render.hpp"
#include "api/unit_render.hpp"
#include "api/visibility_render.hpp"
#include "cmd/at_table.hpp"
#include "cmd/at_yaml.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using cmd::json_to_yaml;

TEST(AtTable, columns_are_left_aligned_and_separated_by_three_spaces) {
  EXPECT_EQ(cmd::format_table({{"NAME", "X"}, {"a-long-name", "1"}, {"b", "22"}}),
            "NAME          X\n"
            "a-long-name   1\n"
            "b             22\n");
}

TEST(AtTable, queue_list) {
  const std::string json =
      R"({"kind":"QueueList","apiVersion":"visibility.koord-queue.x-k8s.io/v1alpha1","metadata":{"resourceVersion":"9"},)"
      R"("items":[{"metadata":{"name":"team-a","namespace":"koord-queue"},"policy":"Priority",)"
      R"("phaseCounts":{"Running":4,"Dequeued":3,"Enqueued":2},"activeCount":1,"backoffCount":1,"assumedCount":3},)"
      R"({"metadata":{"name":"b","namespace":"koord-queue"},"policy":"Block","phaseCounts":{},)"
      R"("activeCount":0,"backoffCount":0,"assumedCount":0}]})";
  EXPECT_EQ(cmd::queue_list_table(json),
            "NAME     POLICY     ACTIVE   BACKOFF   ASSUMED   PHASES\n"
            "team-a   Priority   1        1         3         Dequeued=3,Enqueued=2,Running=4\n"
            "b        Block      0        0         0         <none>\n");
}

TEST(AtTable, quota_list_renders_resource_lists_in_bytewise_order) {
  const std::string json =
      R"({"kind":"ElasticQuotaList","metadata":{"resourceVersion":"9"},"items":[)"
      R"({"metadata":{"name":"team-a","namespace":"default"},"parent":"koordinator-root-quota","min":{"cpu":"2"},)"
      R"("max":{"nvidia.com/gpu":"2","memory":"32Gi","cpu":"8"},"used":{"cpu":"4500m","memory":"8Gi"},)"
      R"("phaseCounts":{"Enqueued":2,"Running":1}},)"
      R"({"metadata":{"name":"x","namespace":"default"},"parent":"team-a","min":{},"max":{},"used":{},"phaseCounts":{}}]})";
  EXPECT_EQ(cmd::quota_list_table(json),
            "NAME     PARENT                   MIN      MAX                                  USED                   "
            "PHASES\n"
            "team-a   koordinator-root-quota   cpu=2    cpu=8,memory=32Gi,nvidia.com/gpu=2   cpu=4500m,memory=8Gi   "
            "Enqueued=2,Running=1\n"
            "x        team-a                   <none>   <none>                               <none>                 "
            "<none>\n");
}

TEST(AtTable, unit_summary_shows_dash_without_a_position_and_request_else_resources) {
  const std::string json =
      R"({"kind":"QueueUnitsSummary","metadata":{"resourceVersion":"9"},"items":[)"
      R"({"metadata":{"name":"job-blocked","namespace":"default","creationTimestamp":"2026-04-20T08:00:00Z"},)"
      R"("quotaName":"team-a","queueName":"team-a","priority":10,"positionInQueue":0,)"
      R"("request":{"memory":"8Gi","cpu":"4"},"resources":{"cpu":"5"},"phase":"Enqueued",)"
      R"("podState":{"running":0,"pending":0}},)"
      R"({"metadata":{"name":"j2","namespace":"ns2"},"quotaName":"","queueName":"","priority":0,)"
      R"("resources":{"cpu":"1"},"phase":"Running","podState":{"running":3,"pending":1}},)"
      R"({"metadata":{"name":"j3","namespace":"ns2"},"quotaName":"q","queueName":"q","priority":-5,)"
      R"("phase":"Dequeued","podState":{"running":0,"pending":2}}]})";
  EXPECT_EQ(cmd::unit_summary_table(json),
            "NAMESPACE   NAME          QUOTA    QUEUE    PRIORITY   POSITION   PHASE      REQUEST            RUNNING   "
            "PENDING   CREATED\n"
            "default     job-blocked   team-a   team-a   10         0          Enqueued   cpu=4,memory=8Gi   0         "
            "0         2026-04-20T08:00:00Z\n"
            "ns2         j2            <none>   <none>   0          -          Running    cpu=1              3         "
            "1         <none>\n"
            "ns2         j3            q        q        -5         -          Dequeued   <none>             0         "
            "2         <none>\n");
}

TEST(AtTable, an_empty_list_is_the_header_alone) {
  EXPECT_EQ(cmd::queue_list_table(R"({"kind":"QueueList","metadata":{"resourceVersion":"1"},"items":[]})"),
            "NAME   POLICY   ACTIVE   BACKOFF   ASSUMED   PHASES\n");
  EXPECT_FALSE(cmd::queue_list_table("{").has_value());
}

TEST(AtYaml, block_style_with_keys_in_json_order) {
  EXPECT_EQ(json_to_yaml(R"({"kind":"QueueList","metadata":{"resourceVersion":"48213"},"items":[)"
                         R"({"z":1,"a":true,"m":null,"list":[1,"x"],"empty":{},"none":[],"f":-2.5}]})"),
            "kind: QueueList\n"
            "metadata:\n"
            "  resourceVersion: \"48213\"\n"
            "items:\n"
            "  - z: 1\n"
            "    a: true\n"
            "    m: null\n"
            "    list:\n"
            "      - 1\n"
            "      - x\n"
            "    empty: {}\n"
            "    none: []\n"
            "    f: -2.5\n");
}

TEST(AtYaml, strings_that_would_read_as_another_type_are_quoted) {
  EXPECT_EQ(json_to_yaml(R"({"cpu":"4","mem":"8Gi","t":"2026-04-20T08:00:00Z","b":"true","n":"null","e":"",)"
                         R"("neg":"-1","y":"Yes","key with: colon":"a: b","_unassigned":[],"123":"ok"})"),
            "cpu: \"4\"\n"
            "mem: \"8Gi\"\n"
            "t: \"2026-04-20T08:00:00Z\"\n"
            "b: \"true\"\n"
            "\"n\": \"null\"\n"
            "e: \"\"\n"
            "neg: \"-1\"\n"
            "\"y\": \"Yes\"\n"
            "\"key with: colon\": \"a: b\"\n"
            "_unassigned: []\n"
            "\"123\": ok\n");
  EXPECT_FALSE(json_to_yaml("{\"a\":").has_value());
}

// A YAML reader sees the JSON document: same keys in the same order, same scalars.
void expect_same(const rapidjson::Value& json, const YAML::Node& yaml, const std::string& where) {
  if (json.IsObject()) {
    ASSERT_TRUE(yaml.IsMap()) << where;
    ASSERT_EQ(yaml.size(), json.MemberCount()) << where;
    auto it = yaml.begin();
    for (const auto& m : json.GetObject()) {
      EXPECT_EQ(it->first.as<std::string>(), m.name.GetString()) << where;
      expect_same(m.value, it->second, where + "." + m.name.GetString());
      ++it;
    }
  } else if (json.IsArray()) {
    ASSERT_TRUE(yaml.IsSequence()) << where;
    ASSERT_EQ(yaml.size(), json.Size()) << where;
    for (rapidjson::SizeType i = 0; i < json.Size(); ++i) expect_same(json[i], yaml[i], where + "[]");
  } else if (json.IsString()) {
    EXPECT_EQ(yaml.as<std::string>(), json.GetString()) << where;
    if (yaml.Tag() != "!") {  // plain: it must not read as another type
      int64_t i = 0;
      double f = 0;
      bool b = false;
      EXPECT_FALSE(yaml.IsNull()) << where;
      EXPECT_FALSE(YAML::convert<int64_t>::decode(yaml, i)) << where;
      EXPECT_FALSE(YAML::convert<double>::decode(yaml, f)) << where;
      EXPECT_FALSE(YAML::convert<bool>::decode(yaml, b)) << where;
    }
  } else if (json.IsBool()) {
    EXPECT_EQ(yaml.as<bool>(), json.GetBool()) << where;
  } else if (json.IsNull()) {
    EXPECT_TRUE(yaml.IsNull()) << where;
  } else {
    EXPECT_EQ(yaml.as<int64_t>(), json.GetInt64()) << where;
  }
}

class AtRender : public ::testing::Test {
 protected:
  void SetUp() override {
    d.input(quota("team-a", "", {{"cpu", "4"}}, 10 * kSec));
    d.input(queue("team-a"));
    d.input(unit("big", "team-a", "8", 20, 100 * kSec));
    d.input(unit("small", "team-a", "2", 0, 101 * kSec));
    d.input(unit("lost", "team-x", "1", 0, 103 * kSec));
    d.run_until(d.time + 5 * kSec);
  }
  SchedulerDriver d;
};

TEST_F(AtRender, yaml_of_the_api_bodies_reads_back_as_the_same_documents) {
  for (const std::string& json :
       {api::render_debug_queues(d.s), api::render_debug_quotas(d.s), api::render_debug_user_quotas(d.s),
        api::render_quota_list(d.s, 5, {}), *api::render_queue_units(d.s, 5, "team-a", {}, {})}) {
    rapidjson::Document doc;
    doc.Parse(json.c_str());
    ASSERT_FALSE(doc.HasParseError());
    const std::optional<std::string> yaml = json_to_yaml(json);
    ASSERT_TRUE(yaml.has_value());
    SCOPED_TRACE(*yaml);
    expect_same(doc, YAML::Load(*yaml), "$");
  }
}

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  EXPECT_FALSE(doc.HasParseError()) << text;
  return doc;
}

std::vector<std::string> keys(const rapidjson::Value& v) {
  std::vector<std::string> out;
  for (const auto& m : v.GetObject()) out.emplace_back(m.name.GetString());
  return out;
}

TEST_F(AtRender, a_unit_is_its_summary_item_followed_by_its_status) {
  const auto summary = parse(*api::render_queue_units(d.s, 5, "team-a", {}, {}));
  const rapidjson::Value& big_item = summary["items"][0];
  ASSERT_STREQ(big_item["metadata"]["name"].GetString(), "big");

  const std::optional<std::string> text = api::render_unit(d.s, 5, "default", "big");
  ASSERT_TRUE(text.has_value());
  const auto unit = parse(*text);
  std::vector<std::string> expected_keys = keys(big_item);
  expected_keys.push_back("status");
  EXPECT_EQ(keys(unit), expected_keys);
  EXPECT_EQ(unit["positionInQueue"].GetInt(), big_item["positionInQueue"].GetInt());
  EXPECT_TRUE(unit["status"].IsObject());

  rapidjson::Document item_only;
  item_only.CopyFrom(unit, item_only.GetAllocator());
  item_only.RemoveMember("status");
  EXPECT_TRUE(item_only == big_item) << "the item is the visibility API's item, unchanged";
}

TEST_F(AtRender, an_admitted_unit_shows_the_status_koordq_wrote) {
  const auto unit = parse(*api::render_unit(d.s, 5, "default", "small"));
  EXPECT_STREQ(unit["phase"].GetString(), "Dequeued");
  EXPECT_FALSE(unit.HasMember("positionInQueue"));
  ASSERT_TRUE(unit["status"].HasMember("phase"));
  EXPECT_STREQ(unit["status"]["phase"].GetString(), "Dequeued");
}

TEST_F(AtRender, a_unit_without_a_queue_names_its_quota_as_queue) {
  const auto unit = parse(*api::render_unit(d.s, 5, "default", "lost"));
  EXPECT_STREQ(unit["quotaName"].GetString(), "team-x");
  EXPECT_STREQ(unit["queueName"].GetString(), "team-x");
}

TEST_F(AtRender, an_unknown_unit_is_not_rendered) {
  EXPECT_FALSE(api::render_unit(d.s, 5, "default", "nope").has_value());
  EXPECT_FALSE(api::render_unit(d.s, 5, "other", "big").has_value());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
