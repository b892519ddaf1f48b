// What the JSON decoder tolerates: unknown fields, nulls, pod templates cut to their requests and
// limits, times truncated to seconds, and quantities or messages it keeps with a warning.
#include <string>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "schema/json_decode.hpp"
#include "schema/quantity.hpp"
#include "tests/support/json_decode_fixture.hpp"
#include "tests/support/json_fixtures.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

using namespace decode_fixture;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::read_fixture;
using ::testing::SizeIs;

TEST(JsonDecode, unknown_fields_are_ignored) {
  QueueUnit unit = decode_unit(unit_json(R"({"priority":5,"futureField":{"x":[1,2,{"y":null}]},"suspend":true})",
                                         R"({"conditions":[{"type":"Admitted"}],"phase":"Enqueued"})"));
  EXPECT_EQ(unit.spec.priority, 5);
  EXPECT_EQ(unit.status.phase, "Enqueued");
}

TEST(JsonDecode, null_is_treated_as_absent) {
  QueueUnit unit = decode_unit(
      unit_json(R"({"priority":null,"consumerRef":null,"podSet":null,"resource":{"cpu":null},"active":null})",
                R"({"lastUpdateTime":null,"admissions":null,"podState":null,"phase":null})",
                R"({"name":"job","uid":"u1","labels":{"a":null},"deletionTimestamp":null})"));
  EXPECT_EQ(unit.spec, QueueUnitSpec{});
  EXPECT_EQ(unit.status, QueueUnitStatus{});
  EXPECT_THAT(unit.metadata.labels, IsEmpty());
  EXPECT_EQ(unit.metadata.deletion_timestamp, std::nullopt);
}

TEST(JsonDecode, null_list_elements_decode_as_empty_elements) {
  QueueUnit unit = decode_unit(unit_json(R"({"podSet":[null,{"name":"w","count":2}]})"));
  EXPECT_THAT(unit.spec.pod_set, ElementsAre(PodSet{}, PodSet{"w", 2, std::nullopt, {}}));
}

TEST(JsonDecode, pod_set_template_keeps_only_container_requests_and_limits) {
  QueueUnit unit = decode_unit(unit_json(R"({"podSet":[{"name":"w","count":1,"template":{"spec":{
      "initContainers":[{"name":"init","resources":{"requests":{"cpu":"9"}}}],
      "overhead":{"cpu":"1"},
      "containers":[{"name":"a","image":"x","resources":{"requests":{"cpu":"1"},"claims":[{"name":"gpu"}]}},
                    {"name":"b","resources":{"limits":{"memory":"1Gi"}}}]}}}]})"));
  ASSERT_THAT(unit.spec.pod_set, SizeIs(1));
  EXPECT_THAT(unit.spec.pod_set[0].containers, ElementsAre(ContainerResources{"a", {{"cpu", "1"}}, {}},
                                                           ContainerResources{"b", {}, {{"memory", "1Gi"}}}));
}

TEST(JsonDecode, times_are_truncated_to_whole_seconds) {
  QueueUnit unit = decode_unit(unit_json(
      "{}", R"({"lastUpdateTime":"2026-04-20T08:00:07.999Z","lastAllocateTime":"2026-04-20T10:00:07+02:00"})"));
  EXPECT_EQ(unit.status.last_update_time, kApril20 + 7 * kSecond);
  EXPECT_EQ(unit.status.last_allocate_time, kApril20 + 7 * kSecond);
}

TEST(JsonDecode, queue_item_priority_zero_is_absent) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(
      R"({"kind":"Queue","metadata":{"name":"q","uid":"u"},
          "status":{"queueItemDetails":{"active":[{"name":"a","namespace":"n","priority":0,"position":1}]}}})",
      RawObjectMode::kOff);
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  const Queue& queue = std::get<Queue>(decoded->object);
  EXPECT_THAT(queue.status.queue_item_details->active, ElementsAre(QueueItem{"a", "n", std::nullopt, 1}));
  EXPECT_THAT(queue.status.queue_item_details->backoff, IsEmpty());
}

TEST(JsonDecode, pod_set_updates_are_kept_as_compact_json) {
  QueueUnit unit =
      decode_unit(unit_json("{}", R"({"admissionChecks":[{"name":"c","state":"Ready","message":"","podSetUpdates": [
                 { "name" : "w", "tolerations" : [ {"key":"k", "value": 1.50} ] } ] }]})"));
  ASSERT_THAT(unit.status.admission_checks, SizeIs(1));
  EXPECT_EQ(unit.status.admission_checks[0].pod_set_updates_json,
            R"([{"name":"w","tolerations":[{"key":"k","value":1.5}]}])");
}

// Kept as written (a number as its text), so that the decision logic can refuse to admit the
// unit: a dropped entry would charge nothing.
TEST(JsonDecode, unparsable_quantity_is_kept_with_a_warning_naming_the_path) {
  std::vector<std::string> warnings;
  QueueUnit unit = decode_unit(
      unit_json(R"({"resource":{"cpu":"2","memory":"lots","pods":7,"gpu":1.5,"x":true,"y":""}})"), &warnings);
  EXPECT_EQ(unit.spec.resource,
            (ResourceList{{"cpu", "2"}, {"gpu", "1.5"}, {"memory", "lots"}, {"pods", "7"}, {"x", "true"}, {"y", ""}}));
  EXPECT_THAT(warnings, ElementsAre(R"(spec.resource["memory"]: quantity "lots" does not parse)",
                                    R"(spec.resource["x"]: expected a quantity string, got true)",
                                    R"(spec.resource["x"]: quantity "true" does not parse)",
                                    R"(spec.resource["y"]: quantity "" does not parse)"));
}

TEST(JsonDecode, overlong_quantity_is_kept_cut_short_so_that_it_does_not_parse) {
  std::vector<std::string> warnings;
  const std::string digits(200, '1');
  QueueUnit unit = decode_unit(unit_json(R"({"resource":{"cpu":")" + digits + R"("}})"), &warnings);
  ASSERT_EQ(unit.spec.resource.count("cpu"), 1u);
  EXPECT_TRUE(unit.spec.resource.at("cpu").ends_with("..."));
  EXPECT_FALSE(schema::Quantity::parse(unit.spec.resource.at("cpu")).ok());
  ASSERT_THAT(warnings, SizeIs(1));
  EXPECT_NE(warnings[0].find("is too long"), std::string::npos);
}

TEST(JsonDecode, negative_quantity_is_kept_with_a_warning) {
  std::vector<std::string> warnings;
  QueueUnit unit = decode_unit(unit_json(R"({"request":{"cpu":"-500m"}})"), &warnings);
  EXPECT_EQ(unit.spec.request, (ResourceList{{"cpu", "-500m"}}));
  EXPECT_THAT(warnings, ElementsAre(R"(spec.request["cpu"]: negative quantity "-500m")"));
}

TEST(JsonDecode, long_message_is_truncated_at_a_character_boundary_with_a_warning) {
  std::string message;
  for (int i = 0; i < 20000; ++i) message += "é";  // 2 bytes each: 40000 bytes
  std::vector<std::string> warnings;
  QueueUnit unit = decode_unit(unit_json("{}", R"({"message":")" + message + R"("})"), &warnings);
  EXPECT_EQ(unit.status.message.size(), 32 * 1024u);
  EXPECT_EQ(unit.status.message, message.substr(0, 32 * 1024));
  EXPECT_THAT(warnings, ElementsAre("status.message: truncated from 40000 to 32768 bytes"));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
