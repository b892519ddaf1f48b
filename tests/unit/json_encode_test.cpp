#include "schema/json_encode.hpp"

#include <string>
#include <variant>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "schema/json_decode.hpp"
#include "tests/support/json_fixtures.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

using testing::read_fixture;

using base::kSecond;
constexpr int64_t kApril20 = 1776672000 * kSecond;  // 2026-04-20T08:00:00Z

WatchedObject decode(const std::string& json) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(json, RawObjectMode::kOff);
  EXPECT_TRUE(decoded.ok()) << decoded.message() << "\n" << json;
  return decoded.ok() ? decoded->object : WatchedObject{};
}

QueueUnit small_unit() {
  QueueUnit unit;
  unit.metadata.name = "job";
  unit.metadata.namespace_ = "team-a";
  unit.metadata.uid = "u1";
  unit.metadata.resource_version = "7";
  unit.metadata.creation_timestamp = kApril20;
  unit.metadata.labels = {{"b", "2"}, {"a", "1"}};
  unit.spec.priority = 5;
  unit.spec.pod_set = {PodSet{"w", 2, std::nullopt, {ContainerResources{"c", {{"cpu", "1"}}, {}}}}};
  unit.status.phase = "Enqueued";
  return unit;
}

TEST(JsonEncode, queue_unit_has_the_kubernetes_shape_with_keys_in_a_fixed_order) {
  EXPECT_EQ(encode_json(small_unit()),
            R"({"apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"QueueUnit",)"
            R"("metadata":{"name":"job","namespace":"team-a","uid":"u1","resourceVersion":"7",)"
            R"("creationTimestamp":"2026-04-20T08:00:00Z","labels":{"a":"1","b":"2"}},)"
            R"("spec":{"priority":5,"podSet":[{"name":"w","count":2,"template":{"spec":{"containers":[)"
            R"({"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}]},)"
            R"("status":{"phase":"Enqueued","attempts":0}})");
}

TEST(JsonEncode, every_queue_unit_field_is_written_in_order) {
  QueueUnit unit = small_unit();
  unit.metadata.deletion_timestamp = kApril20 + 60 * kSecond;
  unit.metadata.annotations = {{"k", "v"}};
  unit.spec.consumer_ref = ConsumerRef{"batch/v1", "Job", "j", "team-a", "cu"};
  unit.spec.pod_set[0].min_count = 1;
  unit.spec.request = {{"cpu", "2"}};
  unit.spec.resource = {{"memory", "1Gi"}};
  unit.spec.queue = "team-a";
  unit.spec.priority_class_name = "high";
  unit.spec.active = false;
  unit.spec.maximum_execution_time_seconds = 3600;
  unit.status.message = "m";
  unit.status.attempts = 2;
  unit.status.last_update_time = kApril20 + kSecond;
  unit.status.last_allocate_time = kApril20 + 2 * kSecond;
  unit.status.admissions = {Admission{"w", 2, ResourceList{}, 1, ReclaimState{1}}};
  unit.status.admission_checks = {AdmissionCheckState{"check", "Pending", kApril20, "", "[]"}};
  unit.status.pod_state = PodState{1, 1};
  EXPECT_EQ(
      encode_json(unit),
      R"({"apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"QueueUnit",)"
      R"("metadata":{"name":"job","namespace":"team-a","uid":"u1","resourceVersion":"7",)"
      R"("creationTimestamp":"2026-04-20T08:00:00Z","deletionTimestamp":"2026-04-20T08:01:00Z",)"
      R"("labels":{"a":"1","b":"2"},"annotations":{"k":"v"}},)"
      R"("spec":{"consumerRef":{"apiVersion":"batch/v1","kind":"Job","name":"j","namespace":"team-a","uid":"cu"},)"
      R"("priority":5,"podSet":[{"name":"w","count":2,"minCount":1,"template":{"spec":{"containers":[)"
      R"({"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}],"request":{"cpu":"2"},"resource":{"memory":"1Gi"},)"
      R"("queue":"team-a","priorityClassName":"high","active":false,"maximumExecutionTimeSeconds":3600},)"
      R"("status":{"phase":"Enqueued","message":"m","attempts":2,"lastUpdateTime":"2026-04-20T08:00:01Z",)"
      R"("lastAllocateTime":"2026-04-20T08:00:02Z",)"
      R"("admissions":[{"name":"w","replicas":2,"resources":{},"running":1,"reclaimState":{"replicas":1}}],)"
      R"("admissionChecks":[{"name":"check","state":"Pending","lastTransitionTime":"2026-04-20T08:00:00Z",)"
      R"("message":"","podSetUpdates":[]}],"podState":{"running":1,"pending":1}}})");
  EXPECT_EQ(decode(encode_json(unit)), WatchedObject(unit));
}

TEST(JsonEncode, queue_has_the_kubernetes_shape) {
  Queue queue;
  queue.metadata.name = "team-a";
  queue.metadata.namespace_ = "koord-queue";
  queue.metadata.uid = "q1";
  queue.spec.queue_policy = "Block";
  queue.spec.priority = 0;
  queue.spec.admission_checks = {
      QueueAdmissionCheck{"check", LabelSelector{{{"x", "y"}}, {LabelSelectorRequirement{"app", "In", {"a", "b"}}}}},
      QueueAdmissionCheck{"open", std::nullopt}};
  queue.status.queue_item_details = QueueItemDetails{{QueueItem{"u", "n", 20, 1}, QueueItem{"v", "n", 0, 3}}, {}};
  EXPECT_EQ(encode_json(queue),
            R"({"apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"Queue",)"
            R"("metadata":{"name":"team-a","namespace":"koord-queue","uid":"q1"},)"
            R"("spec":{"queuePolicy":"Block","priority":0,"admissionChecks":[{"name":"check","labelSelector":)"
            R"({"matchLabels":{"x":"y"},"matchExpressions":[{"key":"app","operator":"In","values":["a","b"]}]}},)"
            R"({"name":"open"}]},)"
            R"("status":{"queueItemDetails":{"active":[{"name":"u","namespace":"n","priority":20,"position":1},)"
            R"({"name":"v","namespace":"n","position":3}],"backoff":[]}}})");
}

TEST(JsonEncode, elastic_quota_has_the_kubernetes_shape) {
  ElasticQuota quota;
  quota.metadata.name = "team-a";
  quota.metadata.uid = "e1";
  quota.spec.max = {{"nvidia.com/gpu", "8"}, {"cpu", "64"}};
  EXPECT_EQ(encode_json(quota),
            R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"ElasticQuota",)"
            R"("metadata":{"name":"team-a","uid":"e1"},"spec":{"max":{"cpu":"64","nvidia.com/gpu":"8"}}})");
}

TEST(JsonEncode, map_keys_are_sorted_bytewise) {
  QueueUnit unit = small_unit();
  unit.metadata.labels = {{"é", "1"}, {"Z", "2"}, {"a", "3"}, {"_", "4"}};
  EXPECT_THAT(encode_json(unit), ::testing::HasSubstr(R"("labels":{"Z":"2","_":"4","a":"3","é":"1"})"));
}

TEST(JsonEncode, strings_are_escaped_and_utf8_kept) {
  QueueUnit unit = small_unit();
  unit.status.message = "quote \" backslash \\ newline \n control \x01 日本";
  std::string json = encode_json(unit);
  EXPECT_THAT(json, ::testing::HasSubstr(R"("message":"quote \" backslash \\ newline \n control \u0001 日本")"));
  EXPECT_EQ(decode(json), WatchedObject(unit));
}

TEST(JsonEncode, times_before_1970_render_in_whole_seconds) {
  QueueUnit unit = small_unit();
  unit.metadata.creation_timestamp = -kSecond;
  EXPECT_THAT(encode_json(unit), ::testing::HasSubstr(R"("creationTimestamp":"1969-12-31T23:59:59Z")"));
  EXPECT_EQ(decode(encode_json(unit)), WatchedObject(unit));
}

TEST(JsonEncode, decode_of_encode_returns_each_fixture_object) {
  JsonDecoder decoder;
  for (const char* name : {"queue.json", "elastic_quota.json"}) {
    WatchedObject object = decode(read_fixture(name));
    EXPECT_EQ(decode(encode_json(object)), object) << name;
  }
  Result<WatchEvent> event =
      decoder.decode_watch_event(read_fixture("queue_unit_watch_event.json"), RawObjectMode::kOff);
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(decode(encode_json(*event->object)), *event->object);
}

TEST(JsonEncode, watch_events_decode_back) {
  JsonDecoder decoder;
  WatchedObject unit = small_unit();
  Result<WatchEvent> added =
      decoder.decode_watch_event(encode_watch_event(WatchEventType::kAdded, unit), RawObjectMode::kOff);
  ASSERT_TRUE(added.ok()) << added.message();
  EXPECT_EQ(added->type, WatchEventType::kAdded);
  EXPECT_EQ(*added->object, unit);

  std::string bookmark = encode_watch_event(WatchEventType::kBookmark, unit);
  EXPECT_EQ(bookmark, R"({"type":"BOOKMARK","object":{"apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"QueueUnit",)"
                      R"("metadata":{"resourceVersion":"7"}}})");
  Result<WatchEvent> decoded_bookmark = decoder.decode_watch_event(bookmark, RawObjectMode::kOff);
  ASSERT_TRUE(decoded_bookmark.ok()) << decoded_bookmark.message();
  EXPECT_EQ(meta_of(*decoded_bookmark->object).resource_version, "7");

  ApiStatus gone{410, "Expired", "too old resource version: 1 (2)"};
  Result<WatchEvent> error = decoder.decode_watch_event(encode_error_event(gone), RawObjectMode::kOff);
  ASSERT_TRUE(error.ok()) << error.message();
  EXPECT_EQ(error->status, gone);
}

TEST(JsonEncode, list_pages_decode_back) {
  Queue first;
  first.metadata = ObjectMeta{"a", "koord-queue", "u1", "3", kApril20, std::nullopt, {}, {}};
  Queue second = first;
  second.metadata.name = "b";
  second.metadata.uid = "u2";
  std::string page = encode_list(ObjectKind::kQueue, {first, second}, "42", "next");
  JsonDecoder decoder;
  Result<ListPage> decoded = decoder.decode_list(page, ObjectKind::kQueue, RawObjectMode::kOff);
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  EXPECT_EQ(decoded->resource_version, "42");
  EXPECT_EQ(decoded->continue_token, "next");
  ASSERT_EQ(decoded->items.size(), 2u);
  EXPECT_EQ(decoded->items[0].object, WatchedObject(first));
  EXPECT_EQ(decoded->items[1].object, WatchedObject(second));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
