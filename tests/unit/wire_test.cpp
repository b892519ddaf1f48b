// Model ↔ Cap'n Proto: every field survives, absent stays distinct from zero or empty.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schema/wire_codec.hpp"
#include "tests/support/model_samples.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

template <class T>
std::optional<T> round_trip(const T& value) {
  auto decoded = from_capnp_bytes(to_capnp_bytes(WatchedObject(value)));
  if (!decoded.ok()) {
    ADD_FAILURE() << decoded.message();
    return std::nullopt;
  }
  if (!std::holds_alternative<T>(*decoded)) {
    ADD_FAILURE() << "decoded as another kind";
    return std::nullopt;
  }
  return std::get<T>(std::move(*decoded));
}

TEST(WireModel, realistic_objects_of_every_kind_round_trip) {
  EXPECT_EQ(round_trip(samples::realistic_queue_unit()), samples::realistic_queue_unit());
  EXPECT_EQ(round_trip(samples::realistic_queue()), samples::realistic_queue());
  EXPECT_EQ(round_trip(samples::realistic_elastic_quota()), samples::realistic_elastic_quota());
}

TEST(WireModel, default_constructed_objects_round_trip) {
  EXPECT_EQ(round_trip(QueueUnit{}), QueueUnit{});
  EXPECT_EQ(round_trip(Queue{}), Queue{});
  EXPECT_EQ(round_trip(ElasticQuota{}), ElasticQuota{});
}

TEST(WireModel, strings_keep_every_byte) {
  QueueUnit unit;
  unit.metadata.name = "日本語のメッセージ emoji 🚀 ключ";
  unit.status.message = std::string("embedded\0nul", 12);
  unit.metadata.labels = {{"", "empty key"}, {"k", ""}, {"\xc3\xa9", "\x01\x7f"}};
  EXPECT_EQ(round_trip(unit), unit);
}

TEST(WireModel, extreme_integers_round_trip) {
  QueueUnit unit;
  unit.metadata.creation_timestamp = INT64_MIN;
  unit.metadata.deletion_timestamp = INT64_MAX;
  unit.spec.priority = INT32_MIN;
  unit.spec.maximum_execution_time_seconds = INT32_MAX;
  unit.spec.pod_set = {{.name = "p", .count = INT64_MAX, .min_count = INT64_MIN, .containers = {}}};
  unit.status.attempts = -1;
  EXPECT_EQ(round_trip(unit), unit);
}

// Each row turns one absent optional of an otherwise bare object into a present zero or empty value.
template <class T>
struct PresentEmpty {
  const char* field;
  std::function<void(T&)> set;
};

QueueUnit bare_queue_unit() {
  QueueUnit unit;
  unit.spec.pod_set = {{.name = "worker", .count = 1, .min_count = std::nullopt, .containers = {}}};
  unit.status.admissions = {
      {.name = "worker", .replicas = 1, .resources = std::nullopt, .running = 0, .reclaim_state = {}}};
  unit.status.admission_checks = {
      {.name = "check", .state = "Pending", .last_transition_time = {}, .message = "", .pod_set_updates_json = ""}};
  return unit;
}

const std::vector<PresentEmpty<QueueUnit>> kQueueUnitOptionals = {
    {"metadata.creationTimestamp", [](QueueUnit& u) { u.metadata.creation_timestamp = 0; }},
    {"metadata.deletionTimestamp", [](QueueUnit& u) { u.metadata.deletion_timestamp = 0; }},
    {"spec.consumerRef", [](QueueUnit& u) { u.spec.consumer_ref = ConsumerRef{}; }},
    {"spec.priority", [](QueueUnit& u) { u.spec.priority = 0; }},
    {"spec.podSet[].minCount", [](QueueUnit& u) { u.spec.pod_set[0].min_count = 0; }},
    {"spec.active", [](QueueUnit& u) { u.spec.active = false; }},
    {"spec.maximumExecutionTimeSeconds", [](QueueUnit& u) { u.spec.maximum_execution_time_seconds = 0; }},
    {"status.lastUpdateTime", [](QueueUnit& u) { u.status.last_update_time = 0; }},
    {"status.lastAllocateTime", [](QueueUnit& u) { u.status.last_allocate_time = 0; }},
    {"status.admissions[].resources", [](QueueUnit& u) { u.status.admissions[0].resources = ResourceList{}; }},
    {"status.admissions[].reclaimState", [](QueueUnit& u) { u.status.admissions[0].reclaim_state = ReclaimState{}; }},
    {"status.admissionChecks[].lastTransitionTime",
     [](QueueUnit& u) { u.status.admission_checks[0].last_transition_time = 0; }},
    {"status.podState", [](QueueUnit& u) { u.status.pod_state = PodState{}; }},
};

TEST(WireModel, queue_unit_absent_and_empty_optionals_stay_distinct) {
  const QueueUnit bare = bare_queue_unit();
  EXPECT_EQ(round_trip(bare), bare);
  for (const auto& row : kQueueUnitOptionals) {
    QueueUnit present = bare;
    row.set(present);
    ASSERT_NE(present, bare) << row.field;
    EXPECT_EQ(round_trip(present), present) << row.field;
  }
}

Queue bare_queue() {
  Queue queue;
  queue.spec.admission_checks = {{.name = "check", .label_selector = std::nullopt}};
  return queue;
}

const std::vector<PresentEmpty<Queue>> kQueueOptionals = {
    {"spec.priority", [](Queue& q) { q.spec.priority = 0; }},
    {"spec.admissionChecks[].labelSelector",
     [](Queue& q) { q.spec.admission_checks[0].label_selector = LabelSelector{}; }},
    {"status.queueItemDetails", [](Queue& q) { q.status.queue_item_details = QueueItemDetails{}; }},
    {"status.queueItemDetails.active[].priority",
     [](Queue& q) {
       q.status.queue_item_details =
           QueueItemDetails{.active = {{.name = "a", .namespace_ = "n", .priority = 0, .position = 1}}, .backoff = {}};
     }},
};

TEST(WireModel, queue_absent_and_empty_optionals_stay_distinct) {
  const Queue bare = bare_queue();
  EXPECT_EQ(round_trip(bare), bare);
  for (const auto& row : kQueueOptionals) {
    Queue present = bare;
    row.set(present);
    ASSERT_NE(present, bare) << row.field;
    EXPECT_EQ(round_trip(present), present) << row.field;
  }
}

TEST(WireModel, object_kinds_map_both_ways) {
  for (auto kind : {ObjectKind::kQueueUnit, ObjectKind::kQueue, ObjectKind::kElasticQuota}) {
    auto back = from_wire(to_wire(kind));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, kind);
  }
  EXPECT_FALSE(from_wire(static_cast<wire::ObjectKind>(3)).ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
