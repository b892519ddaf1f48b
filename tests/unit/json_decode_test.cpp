// The JSON decoder (schema/json_decode.hpp) on what the API server sends: the recorded fixtures of
// every kind, list pages, watch events (bookmarks, errors, deletions) and the kinds it accepts.
#include "schema/json_decode.hpp"

#include <string>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
