#include "schema/json_decode.hpp"

#include <string>
#include <variant>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "schema/quantity.hpp"
#include "tests/support/json_fixtures.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::read_fixture;
using ::testing::SizeIs;

using base::kSecond;
// 2026-04-20T08:00:00Z
constexpr int64_t kApril20 = 1776672000 * kSecond;

std::string unit_json(const std::string& spec, const std::string& status = "{}",
                      const std::string& metadata = R"({"name":"job","namespace":"team-a","uid":"u1"})") {
  return R"({"apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"QueueUnit","metadata":)" + metadata + R"(,"spec":)" +
         spec + R"(,"status":)" + status + "}";
}

QueueUnit decode_unit(const std::string& json, std::vector<std::string>* warnings = nullptr) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(json, RawObjectMode::kOff);
  EXPECT_TRUE(decoded.ok()) << decoded.message();
  if (!decoded.ok()) return {};
  if (warnings != nullptr) *warnings = decoded->warnings;
  return std::get<QueueUnit>(decoded->object);
}

std::string decode_error(const std::string& json) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(json, RawObjectMode::kOff);
  EXPECT_FALSE(decoded.ok());
  return decoded.ok() ? std::string() : decoded.message();
}

// --- The realistic fixtures -------------------------------------------------------------------

TEST(JsonDecode, realistic_queue_unit_watch_event_decodes_every_field) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(read_fixture("queue_unit_watch_event.json"), RawObjectMode::kOff);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(event->type, WatchEventType::kModified);
  EXPECT_EQ(event->kind(), ObjectKind::kQueueUnit);
  EXPECT_THAT(event->warnings, IsEmpty());
  const QueueUnit& unit = std::get<QueueUnit>(*event->object);

  EXPECT_EQ(unit.metadata.name, "resnet50-train");
  EXPECT_EQ(unit.metadata.namespace_, "team-a");
  EXPECT_EQ(unit.metadata.uid, "c0ffee00-1234-4a5b-9c8d-0e1f2a3b4c5d");
  EXPECT_EQ(unit.metadata.resource_version, "48213");
  EXPECT_EQ(unit.metadata.creation_timestamp, kApril20);
  EXPECT_EQ(unit.metadata.deletion_timestamp, std::nullopt);
  EXPECT_EQ(unit.metadata.labels,
            (StringMap{{"app", "resnet50-train"}, {"quota.scheduling.koordinator.sh/name", "team-a"}}));
  EXPECT_EQ(unit.metadata.annotations, (StringMap{{"koord-queue/job-type", "PyTorchJob"}}));

  ASSERT_TRUE(unit.spec.consumer_ref.has_value());
  EXPECT_EQ(*unit.spec.consumer_ref, (ConsumerRef{"kubeflow.org/v1", "PyTorchJob", "resnet50-train", "team-a",
                                                  "6a1f3c2e-9b7d-4e21-8f0a-2c4d5e6f7a8b"}));
  EXPECT_EQ(unit.spec.priority, 100);
  EXPECT_EQ(unit.spec.priority_class_name, "high-priority");
  EXPECT_EQ(unit.spec.queue, "team-a");
  EXPECT_EQ(unit.spec.resource, (ResourceList{{"cpu", "36"}, {"memory", "144Gi"}, {"nvidia.com/gpu", "4"}}));
  EXPECT_THAT(unit.spec.request, IsEmpty());
  EXPECT_EQ(unit.spec.active, std::nullopt);
  EXPECT_EQ(unit.spec.maximum_execution_time_seconds, std::nullopt);
  ASSERT_THAT(unit.spec.pod_set, SizeIs(2));
  EXPECT_EQ(unit.spec.pod_set[0].name, "master");
  EXPECT_EQ(unit.spec.pod_set[0].count, 1);
  EXPECT_EQ(unit.spec.pod_set[0].min_count, std::nullopt);
  EXPECT_EQ(unit.spec.pod_set[1].name, "worker");
  EXPECT_EQ(unit.spec.pod_set[1].count, 4);
  EXPECT_EQ(unit.spec.pod_set[1].min_count, 2);
  ASSERT_THAT(unit.spec.pod_set[1].containers, SizeIs(1));
  EXPECT_EQ(
      unit.spec.pod_set[1].containers[0],
      (ContainerResources{
          "pytorch", {{"cpu", "8"}, {"memory", "32Gi"}}, {{"cpu", "8"}, {"memory", "32Gi"}, {"nvidia.com/gpu", "1"}}}));

  const QueueUnitStatus& status = unit.status;
  EXPECT_EQ(status.phase, "Running");
  EXPECT_EQ(status.message, "Dequeued because schedule successfully");
  EXPECT_EQ(status.attempts, 3);
  EXPECT_EQ(status.last_update_time, kApril20 + 7 * kSecond);
  EXPECT_EQ(status.last_allocate_time, kApril20 + 7 * kSecond);
  ASSERT_THAT(status.admissions, SizeIs(2));
  EXPECT_EQ(status.admissions[0], (Admission{"master", 1, std::nullopt, 1, std::nullopt}));
  EXPECT_EQ(status.admissions[1],
            (Admission{"worker", 4, ResourceList{{"cpu", "32"}, {"memory", "128Gi"}, {"nvidia.com/gpu", "4"}}, 3,
                       std::nullopt}));
  ASSERT_THAT(status.admission_checks, SizeIs(1));
  EXPECT_EQ(
      status.admission_checks[0],
      (AdmissionCheckState{"provisioning", "Ready", kApril20 + 7 * kSecond, "",
                           R"([{"name":"worker","nodeSelector":{"node.kubernetes.io/instance-type":"gpu-a100"}}])"}));
  EXPECT_EQ(status.pod_state, (PodState{4, 1}));
}

TEST(JsonDecode, queue_decodes_spec_and_queue_item_details) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(read_fixture("queue.json"), RawObjectMode::kOff);
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  const Queue& queue = std::get<Queue>(decoded->object);
  EXPECT_EQ(queue.metadata.name, "team-a");
  EXPECT_EQ(queue.metadata.namespace_, "koord-queue");
  EXPECT_EQ(queue.metadata.annotations.at("koord-queue/max-depth"), "50");
  EXPECT_EQ(queue.spec.queue_policy, "Priority");
  EXPECT_EQ(queue.spec.priority, 1000);
  EXPECT_EQ(queue.spec.priority_class_name, "");
  ASSERT_THAT(queue.spec.admission_checks, SizeIs(1));
  const QueueAdmissionCheck& check = queue.spec.admission_checks[0];
  EXPECT_EQ(check.name, "provisioning");
  ASSERT_TRUE(check.label_selector.has_value());
  EXPECT_EQ(check.label_selector->match_labels, (StringMap{{"needs-provisioning", "true"}}));
  EXPECT_THAT(check.label_selector->match_expressions,
              ElementsAre(LabelSelectorRequirement{"app", "In", {"resnet50-train", "bert-finetune"}}));
  ASSERT_TRUE(queue.status.queue_item_details.has_value());
  EXPECT_THAT(queue.status.queue_item_details->active, ElementsAre(QueueItem{"bert-finetune", "team-a", 20, 1},
                                                                   QueueItem{"gpt-eval", "team-a", std::nullopt, 3}));
  EXPECT_THAT(queue.status.queue_item_details->backoff, ElementsAre(QueueItem{"vit-train", "team-a", 15, 2}));
}

TEST(JsonDecode, elastic_quota_decodes_max_and_min_and_ignores_status) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(read_fixture("elastic_quota.json"), RawObjectMode::kOff);
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  const ElasticQuota& quota = std::get<ElasticQuota>(decoded->object);
  EXPECT_EQ(quota.metadata.name, "team-a");
  EXPECT_EQ(quota.metadata.labels.at("quota.scheduling.koordinator.sh/parent"), "koordinator-root-quota");
  EXPECT_EQ(quota.spec.max, (ResourceList{{"cpu", "64"}, {"memory", "256Gi"}, {"nvidia.com/gpu", "8"}}));
  EXPECT_EQ(quota.spec.min, (ResourceList{{"cpu", "32"}, {"memory", "128Gi"}, {"nvidia.com/gpu", "4"}}));
}

TEST(JsonDecode, list_page_decodes_items_resource_version_and_continue_token) {
  JsonDecoder decoder;
  Result<ListPage> page =
      decoder.decode_list(read_fixture("queue_unit_list.json"), ObjectKind::kQueueUnit, RawObjectMode::kOff);
  ASSERT_TRUE(page.ok()) << page.message();
  EXPECT_EQ(page->resource_version, "48213");
  EXPECT_THAT(page->continue_token, HasSubstr("eyJ2Ijoi"));
  EXPECT_THAT(page->rejected, IsEmpty());
  ASSERT_THAT(page->items, SizeIs(2));
  EXPECT_EQ(std::get<QueueUnit>(page->items[0].object).metadata.name, "resnet50-train");
  const QueueUnit& waiting = std::get<QueueUnit>(page->items[1].object);
  EXPECT_EQ(waiting.metadata.name, "bert-finetune");
  EXPECT_EQ(waiting.status.phase, "Enqueued");
  EXPECT_THAT(waiting.status.admissions, IsEmpty());
  EXPECT_EQ(waiting.status.pod_state, (PodState{0, 0}));
}

TEST(JsonDecode, list_items_without_kind_take_the_listed_kind) {
  JsonDecoder decoder;
  Result<ListPage> page = decoder.decode_list(
      R"({"kind":"QueueList","apiVersion":"scheduling.x-k8s.io/v1alpha1","metadata":{"resourceVersion":"9"},
          "items":[{"metadata":{"name":"q","uid":"u"},"spec":{"queuePolicy":"Block"}}]})",
      ObjectKind::kQueue, RawObjectMode::kOff);
  ASSERT_TRUE(page.ok()) << page.message();
  ASSERT_THAT(page->items, SizeIs(1));
  EXPECT_EQ(std::get<Queue>(page->items[0].object).spec.queue_policy, "Block");
  EXPECT_EQ(page->continue_token, "");
}

TEST(JsonDecode, a_bad_list_item_rejects_only_that_item) {
  JsonDecoder decoder;
  Result<ListPage> page = decoder.decode_list(
      R"({"metadata":{"resourceVersion":"9"},"items":[
          {"metadata":{"name":"a","namespace":"n","uid":"u1"}},
          {"metadata":{"name":"b","namespace":"n","uid":"u2"},"spec":{"podSet":[{"name":"w","count":-1}]}},
          {"metadata":{"name":"c","namespace":"n","uid":"u3"}}]})",
      ObjectKind::kQueueUnit, RawObjectMode::kOff);
  ASSERT_TRUE(page.ok()) << page.message();
  ASSERT_THAT(page->items, SizeIs(2));
  ASSERT_THAT(page->rejected, SizeIs(1));
  EXPECT_EQ(page->rejected[0].index, 1u);
  EXPECT_EQ(page->rejected[0].error,
            "items[1]: QueueUnit n/b: spec.podSet[0].count: expected a non-negative integer, got -1");
}

TEST(JsonDecode, list_of_another_kind_is_an_error) {
  JsonDecoder decoder;
  Result<ListPage> page =
      decoder.decode_list(R"({"kind":"QueueList","items":[]})", ObjectKind::kQueueUnit, RawObjectMode::kOff);
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.message(), R"(QueueUnitList: kind: expected QueueUnitList, got "QueueList")");
}

// --- Watch events --------------------------------------------------------------------------

TEST(JsonDecode, bookmark_carries_only_the_resource_version) {
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(read_fixture("bookmark.json"), RawObjectMode::kOff);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(event->type, WatchEventType::kBookmark);
  QueueUnit expected;
  expected.metadata.resource_version = "48390";
  EXPECT_EQ(*event->object, WatchedObject(expected));
}

TEST(JsonDecode, bookmark_without_resource_version_is_an_error) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(R"({"type":"BOOKMARK","object":{"kind":"Queue","metadata":{}}})", RawObjectMode::kOff);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.message(), "BOOKMARK: metadata.resourceVersion: required, missing or empty");
}

TEST(JsonDecode, error_event_carries_the_status_code_reason_and_message) {
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(read_fixture("watch_error_410.json"), RawObjectMode::kOff);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(event->type, WatchEventType::kError);
  EXPECT_FALSE(event->object.has_value());
  EXPECT_EQ(event->kind(), std::nullopt);
  EXPECT_EQ(event->status, (ApiStatus{410, "Expired", "too old resource version: 48213 (48390)"}));
}

TEST(JsonDecode, watch_event_with_an_unknown_type_is_an_error) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(R"({"type":"RESYNC","object":{}})", ObjectKind::kQueue, RawObjectMode::kOff);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.message(), R"(watch event type: expected ADDED, MODIFIED, DELETED, BOOKMARK or ERROR, got "RESYNC")");
}

TEST(JsonDecode, watch_event_without_object_is_an_error) {
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(R"({"type":"ADDED","object":null})", RawObjectMode::kOff);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.message(), "watch event object: required, missing");
}

TEST(JsonDecode, deleted_event_decodes_the_last_state) {
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(
      R"({"type":"DELETED","object":)" + read_fixture("elastic_quota.json") + "}", RawObjectMode::kOff);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(event->type, WatchEventType::kDeleted);
  EXPECT_EQ(meta_of(*event->object).uid, "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a");
}

// --- Kinds ---------------------------------------------------------------------------------

TEST(JsonDecode, kind_without_expectation_is_required) {
  EXPECT_EQ(decode_error(R"({"metadata":{"name":"a","uid":"u"}})"), "kind: required, missing");
}

TEST(JsonDecode, unknown_kind_is_an_error) {
  EXPECT_EQ(decode_error(R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","uid":"u"}})"),
            R"(kind: expected QueueUnit, Queue or ElasticQuota, got "Pod")");
}

TEST(JsonDecode, api_version_must_match_the_kind) {
  EXPECT_EQ(
      decode_error(R"({"kind":"ElasticQuota","apiVersion":"scheduling.x-k8s.io/v1alpha1",
                             "metadata":{"name":"a","uid":"u"}})"),
      R"(apiVersion: expected scheduling.sigs.k8s.io/v1alpha1 for ElasticQuota, got "scheduling.x-k8s.io/v1alpha1")");
}

TEST(JsonDecode, kind_other_than_the_expected_one_is_an_error) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded =
      decoder.decode_object(read_fixture("queue.json"), ObjectKind::kElasticQuota, RawObjectMode::kOff);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.message(), R"(kind: expected ElasticQuota, got "Queue")");
}

// --- Tolerated input -------------------------------------------------------------------------

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

// --- Rejected input: every error names the JSON path and the value -------------------------

TEST(JsonDecode, malformed_json_is_an_error) {
  EXPECT_THAT(decode_error(R"({"kind":"Queue",)"), HasSubstr("object: malformed JSON: "));
  EXPECT_THAT(decode_error(""), HasSubstr("object: malformed JSON"));
  EXPECT_THAT(decode_error("[1,2"), HasSubstr("object: malformed JSON"));
}

TEST(JsonDecode, a_document_that_is_not_an_object_is_an_error) {
  EXPECT_EQ(decode_error("[1,2]"), "expected an object, got an array");
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event("42", RawObjectMode::kOff);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.message(), "watch event: expected an object, got 42");
}

TEST(JsonDecode, invalid_utf8_is_an_error) {
  EXPECT_EQ(decode_error(unit_json("{}", "{}", "{\"name\":\"a\xff\",\"uid\":\"u\"}")), "object: not valid UTF-8");
  EXPECT_EQ(decode_error(unit_json("{}", "{}", "{\"name\":\"\xc0\xaf\",\"uid\":\"u\"}")), "object: not valid UTF-8");
}

TEST(JsonDecode, nesting_deeper_than_the_cap_is_an_error) {
  std::string deep = std::string(200, '[') + std::string(200, ']');
  EXPECT_EQ(decode_error(unit_json(R"({"x":)" + deep + "}")), "object: nested deeper than 128 levels");
  JsonDecoder shallow(DecodeLimits{.max_depth = 4});
  EXPECT_FALSE(shallow.decode_object(read_fixture("queue.json"), RawObjectMode::kOff).ok());
}

TEST(JsonDecode, object_over_the_size_cap_is_an_error) {
  std::string huge = unit_json(R"({"pad":")" + std::string(5 << 20, 'a') + R"("})");
  EXPECT_EQ(decode_error(huge), "object: " + std::to_string(huge.size()) + " bytes exceed the limit of 4194304 bytes");
}

TEST(JsonDecode, objects_as_large_as_the_api_server_allows_decode) {
  // Beyond the ~1.5 MB the API server stores: managedFields of 2.8 MB.
  std::string managed = R"({"manager":"m","fieldsV1":{"f:x":")" + std::string(1'400'000, 'f') + R"("}})";
  std::string json = unit_json(R"({"priority":1})", "{}",
                               R"({"name":"big","uid":"u","managedFields":[)" + managed + "," + managed + "]}");
  ASSERT_GT(json.size(), 2'800'000u);
  EXPECT_EQ(decode_unit(json).spec.priority, 1);
}

TEST(JsonDecode, wrongly_typed_field_is_an_error_naming_path_and_value) {
  EXPECT_EQ(decode_error(unit_json(R"({"priority":"high"})")),
            R"(QueueUnit team-a/job: spec.priority: expected an integer from -2147483648 to 2147483647, got "high")");
  EXPECT_EQ(decode_error(unit_json(R"({"active":"yes"})")),
            R"(QueueUnit team-a/job: spec.active: expected true or false, got "yes")");
  EXPECT_EQ(decode_error(unit_json(R"({"podSet":{"name":"w"}})")),
            "QueueUnit team-a/job: spec.podSet: expected an array, got an object");
  EXPECT_EQ(decode_error(unit_json(R"({"resource":["cpu"]})")),
            "QueueUnit team-a/job: spec.resource: expected an object, got an array");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"lastUpdateTime":"yesterday"})")),
            R"(QueueUnit team-a/job: status.lastUpdateTime: expected an RFC 3339 time, got "yesterday")");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"admissions":[{"name":"w","replicas":1.5}]})")),
            "QueueUnit team-a/job: status.admissions[0].replicas: expected a non-negative integer, got 1.5");
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":"job","uid":"u","labels":{"a":1}})")),
            R"(QueueUnit: metadata.labels["a"]: expected a string, got 1)");
  EXPECT_EQ(decode_error(unit_json("7")), "QueueUnit team-a/job: spec: expected an object, got 7");
}

TEST(JsonDecode, negative_counts_are_errors_naming_the_path) {
  EXPECT_EQ(decode_error(unit_json(R"({"podSet":[{"name":"a","count":1},{"name":"b","count":-3}]})")),
            "QueueUnit team-a/job: spec.podSet[1].count: expected a non-negative integer, got -3");
  EXPECT_EQ(decode_error(unit_json(R"({"podSet":[{"name":"a","count":1,"minCount":-1}]})")),
            "QueueUnit team-a/job: spec.podSet[0].minCount: expected a non-negative integer, got -1");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"admissions":[{"name":"w","replicas":-2}]})")),
            "QueueUnit team-a/job: status.admissions[0].replicas: expected a non-negative integer, got -2");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"admissions":[{"name":"w","running":-1}]})")),
            "QueueUnit team-a/job: status.admissions[0].running: expected a non-negative integer, got -1");
  EXPECT_EQ(
      decode_error(unit_json("{}", R"({"admissions":[{"name":"w","reclaimState":{"replicas":-1}}]})")),
      "QueueUnit team-a/job: status.admissions[0].reclaimState.replicas: expected a non-negative integer, got -1");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"attempts":-1})")),
            "QueueUnit team-a/job: status.attempts: expected a non-negative integer, got -1");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"podState":{"running":-4}})")),
            "QueueUnit team-a/job: status.podState.running: expected a non-negative integer, got -4");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"attempts":18446744073709551615})")),
            "QueueUnit team-a/job: status.attempts: expected a non-negative integer, got 18446744073709551615");
}

TEST(JsonDecode, integers_beyond_int32_are_errors) {
  EXPECT_EQ(decode_error(unit_json(R"({"priority":2147483648})")),
            "QueueUnit team-a/job: spec.priority: expected an integer from -2147483648 to 2147483647, got 2147483648");
  EXPECT_EQ(decode_error(unit_json(R"({"maximumExecutionTimeSeconds":-2147483649})")),
            "QueueUnit team-a/job: spec.maximumExecutionTimeSeconds: expected an integer from -2147483648 to "
            "2147483647, got -2147483649");
  EXPECT_EQ(decode_unit(unit_json(R"({"priority":-2147483648})")).spec.priority, -2147483648);
}

TEST(JsonDecode, numbers_json_cannot_hold_are_errors) {
  EXPECT_THAT(decode_error(unit_json(R"({"priority":123456789012345678901234567890})")), HasSubstr("malformed JSON"));
  EXPECT_THAT(decode_error(unit_json(R"({"priority":1e400})")), HasSubstr("malformed JSON"));
}

TEST(JsonDecode, overlong_names_are_errors) {
  std::string name(254, 'n');
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":")" + name + R"(","uid":"u"})")),
            "QueueUnit: metadata.name: expected at most 253 bytes, got 254 bytes");
  std::string huge(3 << 20, 'q');
  EXPECT_EQ(decode_error(unit_json(R"({"queue":")" + huge + R"("})")),
            "QueueUnit team-a/job: spec.queue: expected at most 253 bytes, got 3145728 bytes");
  EXPECT_EQ(decode_error(unit_json(R"({"resource":{")" + std::string(400, 'r') + R"(":"1"}})")),
            R"(QueueUnit team-a/job: spec.resource[")" + std::string(64, 'r') +
                R"(…" (400 bytes)]: key is too long: expected at most 317 bytes, got 400 bytes)");
}

TEST(JsonDecode, overlong_label_values_and_annotations_are_errors) {
  EXPECT_EQ(decode_error(
                unit_json("{}", "{}", R"({"name":"j","uid":"u","labels":{"a":")" + std::string(5000, 'v') + R"("}})")),
            R"(QueueUnit: metadata.labels["a"]: expected at most 4096 bytes, got 5000 bytes)");
  std::string half(200 * 1024, 'v');
  EXPECT_EQ(decode_error(unit_json(
                "{}", "{}", R"({"name":"j","uid":"u","annotations":{"a":")" + half + R"(","b":")" + half + R"("}})")),
            "QueueUnit: metadata.annotations: expected at most 262144 bytes of keys and values, got 409602 bytes");
}

TEST(JsonDecode, missing_uid_is_an_error_naming_the_field) {
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":"job","namespace":"team-a"})")),
            "QueueUnit team-a/job: metadata.uid: required, missing or empty");
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":"job","uid":""})")),
            "QueueUnit job: metadata.uid: required, missing or empty");
}

TEST(JsonDecode, missing_name_is_an_error_naming_the_field) {
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"uid":"u"})")),
            "QueueUnit: metadata.name: required, missing or empty");
  EXPECT_EQ(decode_error(R"({"kind":"Queue","apiVersion":"scheduling.x-k8s.io/v1alpha1"})"),
            "Queue: metadata.name: required, missing or empty");
}

TEST(JsonDecode, watch_event_object_errors_name_the_object) {
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(
      R"({"type":"ADDED","object":)" + unit_json(R"({"podSet":[{"name":"a","count":-3}]})") + "}", RawObjectMode::kOff);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.message(), "QueueUnit team-a/job: spec.podSet[0].count: expected a non-negative integer, got -3");
}

TEST(JsonDecode, one_decoder_decodes_many_documents_independently) {
  JsonDecoder decoder;
  std::string unit = read_fixture("queue_unit_watch_event.json");
  for (int round = 0; round < 3; ++round) {
    EXPECT_FALSE(decoder.decode_watch_event("{\"type\":", RawObjectMode::kFull).ok());
    EXPECT_FALSE(decoder.decode_object(std::string(300, '['), RawObjectMode::kFull).ok());
    Result<WatchEvent> event = decoder.decode_watch_event(unit, RawObjectMode::kRedacted);
    ASSERT_TRUE(event.ok()) << event.message();
    EXPECT_EQ(meta_of(*event->object).name, "resnet50-train");
  }
}

// --- Raw JSON per --journal-raw-objects ----------------------------------------------------

TEST(JsonDecode, raw_json_is_empty_when_off) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(read_fixture("queue_unit_watch_event.json"), RawObjectMode::kOff);
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(event->raw_json, "");
}

TEST(JsonDecode, full_raw_json_keeps_the_object_bytes_exactly) {
  JsonDecoder decoder;
  const std::string object =
      R"({ "kind" : "Queue",  "metadata":{"name":"q","uid":"u"},"spec":{"priority":1,"weight":1.0}} )";
  Result<WatchEvent> event =
      decoder.decode_watch_event("{\n \"type\" : \"ADDED\", \"object\" :" + object + ",\"x\":1}", RawObjectMode::kFull);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(event->raw_json, object.substr(0, object.size() - 1));

  std::string fixture = read_fixture("queue_unit_watch_event.json");
  event = decoder.decode_watch_event(fixture, RawObjectMode::kFull);
  ASSERT_TRUE(event.ok());
  std::string expected = fixture.substr(std::string(R"({"type":"MODIFIED","object":)").size());
  EXPECT_EQ(event->raw_json, expected.substr(0, expected.size() - 2));  // without "}\n"

  Result<DecodedObject> decoded = decoder.decode_object(object, RawObjectMode::kFull);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->raw_json, object);
}

TEST(JsonDecode, full_raw_json_is_the_member_the_parser_decoded_even_with_escaped_keys) {
  JsonDecoder decoder;
  const std::string first = R"({"kind":"Queue","metadata":{"name":"first","uid":"1"}})";
  const std::string second = R"({"kind":"Queue","metadata":{"name":"second","uid":"2"}})";
  Result<WatchEvent> event = decoder.decode_watch_event(
      R"({"t\u0079pe":"ADDED","obj\u0065ct":)" + first + R"(,"object":)" + second + "}", RawObjectMode::kFull);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(meta_of(*event->object).name, "first");
  EXPECT_EQ(event->raw_json, first);
}

TEST(JsonDecode, full_raw_json_of_list_items_keeps_each_item_exactly) {
  JsonDecoder decoder;
  const std::string first = R"({"metadata":{"name":"a","uid":"1"},"spec":{"note":"]}\"{"}})";
  const std::string second = R"({ "metadata" : { "name" : "b", "uid" : "2" } })";
  Result<ListPage> page = decoder.decode_list(R"({"items": [ )" + first + " ,\n" + second + R"( ],"metadata":{}})",
                                              ObjectKind::kQueue, RawObjectMode::kFull);
  ASSERT_TRUE(page.ok()) << page.message();
  ASSERT_THAT(page->items, SizeIs(2));
  EXPECT_EQ(page->items[0].raw_json, first);
  EXPECT_EQ(page->items[1].raw_json, second);
}

TEST(JsonDecode, redacted_raw_json_hides_env_values_of_pod_templates) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(read_fixture("queue_unit_watch_event.json"), RawObjectMode::kRedacted);
  ASSERT_TRUE(event.ok());
  EXPECT_THAT(event->raw_json, AllOf(HasSubstr(R"("name":"WANDB_API_KEY","value":"<redacted hmac-sha256:)"),
                                     HasSubstr(R"("valueFrom":{"secretKeyRef":{"key":"secret-key")"),
                                     HasSubstr(R"("apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"QueueUnit")")));
  EXPECT_THAT(event->raw_json, ::testing::Not(HasSubstr("wandb-7f3c2a91")));
  EXPECT_THAT(event->raw_json, ::testing::Not(HasSubstr(R"("value":"23456")")));
}

TEST(JsonDecode, raw_json_of_a_list_item_is_redacted_too) {
  JsonDecoder decoder;
  Result<ListPage> page =
      decoder.decode_list(read_fixture("queue_unit_list.json"), ObjectKind::kQueueUnit, RawObjectMode::kRedacted);
  ASSERT_TRUE(page.ok());
  ASSERT_THAT(page->items, SizeIs(2));
  for (const DecodedObject& item : page->items) {
    EXPECT_THAT(item.raw_json, HasSubstr("<redacted hmac-sha256:"));
    EXPECT_THAT(item.raw_json, ::testing::Not(HasSubstr("wandb-7f3c2a91")));
  }
}

TEST(JsonDecode, watch_event_type_names_round_trip) {
  for (WatchEventType type : {WatchEventType::kAdded, WatchEventType::kModified, WatchEventType::kDeleted,
                              WatchEventType::kBookmark, WatchEventType::kError}) {
    Result<WatchEventType> parsed = parse_watch_event_type(watch_event_type_name(type));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, type);
  }
  EXPECT_FALSE(parse_watch_event_type("added").ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
