// Hand-written model objects shared by tests and benchmarks: one realistic object per kind.
#pragma once

#include "schema/elastic_quota.hpp"
#include "schema/queue.hpp"
#include "schema/queue_unit.hpp"

namespace koordq::samples {

inline constexpr schema::UnixNanos kSecond = 1'000'000'000;
inline constexpr schema::UnixNanos kApril20 = 1'776'672'000 * kSecond;  // 2026-04-20T08:00:00Z

// A PyTorchJob's unit: two pod sets with several containers, labels, an admission, a check.
inline schema::QueueUnit realistic_queue_unit() {
  schema::QueueUnit u;
  u.metadata = {.name = "pytorch-resnet-7",
                .namespace_ = "team-a",
                .uid = "5f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
                .resource_version = "48213",
                .creation_timestamp = kApril20,
                .deletion_timestamp = std::nullopt,
                .labels = {{"app", "resnet"},
                           {"quota.scheduling.koordinator.sh/name", "team-a"},
                           {"training.kubeflow.org/job-name", "pytorch-resnet-7"}},
                .annotations = {{"kubectl.kubernetes.io/last-applied-configuration", "{}"}}};
  u.spec.consumer_ref = schema::ConsumerRef{.api_version = "kubeflow.org/v1",
                                            .kind = "PyTorchJob",
                                            .name = "pytorch-resnet-7",
                                            .namespace_ = "team-a",
                                            .uid = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"};
  u.spec.priority = 100;
  u.spec.pod_set = {
      {.name = "master",
       .count = 1,
       .min_count = std::nullopt,
       .containers = {{.name = "pytorch",
                       .requests = {{"cpu", "4"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "1"}},
                       .limits = {{"cpu", "4"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "1"}}}}},
      {.name = "worker",
       .count = 4,
       .min_count = 2,
       .containers = {{.name = "pytorch",
                       .requests = {{"cpu", "8"}, {"memory", "32Gi"}, {"nvidia.com/gpu", "2"}},
                       .limits = {{"cpu", "8"}, {"memory", "32Gi"}, {"nvidia.com/gpu", "2"}}},
                      {.name = "log-shipper", .requests = {{"cpu", "100m"}, {"memory", "128Mi"}}, .limits = {}},
                      {.name = "metrics", .requests = {{"cpu", "50m"}, {"memory", "64Mi"}}, .limits = {}}}}};
  u.spec.resource = {{"cpu", "36300m"}, {"memory", "144768Mi"}, {"nvidia.com/gpu", "9"}};
  u.spec.queue = "team-a";
  u.spec.active = true;
  u.status.phase = "Dequeued";
  u.status.message = "Dequeued because schedule successfully";
  u.status.attempts = 3;
  u.status.last_update_time = kApril20 + 7 * kSecond;
  u.status.last_allocate_time = kApril20 + 7 * kSecond;
  u.status.admissions = {
      {.name = "master", .replicas = 1, .resources = std::nullopt, .running = 1, .reclaim_state = {}},
      {.name = "worker",
       .replicas = 4,
       .resources = schema::ResourceList{{"cpu", "32"}, {"memory", "128Gi"}},
       .running = 3,
       .reclaim_state = schema::ReclaimState{.replicas = 1}}};
  u.status.admission_checks = {{.name = "provisioning",
                                .state = "Ready",
                                .last_transition_time = kApril20 + 5 * kSecond,
                                .message = "",
                                .pod_set_updates_json = R"([{"name":"worker","nodeSelector":{"pool":"a100"}}])"}};
  u.status.pod_state = schema::PodState{.running = 4, .pending = 1};
  return u;
}

// A plain batch Job's unit just created: one pod set of one container, nothing admitted yet.
inline schema::QueueUnit small_queue_unit() {
  schema::QueueUnit u;
  u.metadata = {.name = "job-1",
                .namespace_ = "default",
                .uid = "5f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
                .resource_version = "48213",
                .creation_timestamp = kApril20,
                .deletion_timestamp = std::nullopt,
                .labels = {{"quota.scheduling.koordinator.sh/name", "team-a"}},
                .annotations = {}};
  u.spec.pod_set = {{.name = "main",
                     .count = 2,
                     .min_count = std::nullopt,
                     .containers = {{.name = "main", .requests = {{"cpu", "1"}, {"memory", "2Gi"}}, .limits = {}}}}};
  u.spec.resource = {{"cpu", "2"}, {"memory", "4Gi"}};
  u.status.phase = "Enqueued";
  return u;
}

inline schema::Queue realistic_queue() {
  schema::Queue q;
  q.metadata = {.name = "team-a",
                .namespace_ = "koord-queue",
                .uid = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                .resource_version = "1200",
                .creation_timestamp = kApril20 - 3600 * kSecond,
                .deletion_timestamp = std::nullopt,
                .labels = {{"quota.scheduling.koordinator.sh/parent", "root-a"}},
                .annotations = {{"koord-queue/wait-for-pods-running", "true"},
                                {"alibabacloud.com/queue-used", R"({"cpu":2000,"memory":2147483648})"}}};
  q.spec = {
      .queue_policy = "Priority",
      .priority = 1000,
      .priority_class_name = "",
      .admission_checks = {
          {.name = "provisioning",
           .label_selector =
               schema::LabelSelector{.match_labels = {{"gpu", "true"}},
                                     .match_expressions = {{.key = "tier", .operator_ = "In", .values = {"a", "b"}}}}},
          {.name = "always", .label_selector = std::nullopt}}};
  q.status.queue_item_details =
      schema::QueueItemDetails{.active = {{.name = "job2", .namespace_ = "default", .priority = 20, .position = 1},
                                          {.name = "job1", .namespace_ = "default", .priority = {}, .position = 3}},
                               .backoff = {{.name = "job3", .namespace_ = "default", .priority = 15, .position = 2}}};
  return q;
}

inline schema::ElasticQuota realistic_elastic_quota() {
  schema::ElasticQuota eq;
  eq.metadata = {
      .name = "team-a",
      .namespace_ = "kube-system",
      .uid = "11111111-2222-4333-8444-555555555555",
      .resource_version = "77",
      .creation_timestamp = kApril20 - 86400 * kSecond,
      .deletion_timestamp = std::nullopt,
      .labels = {{"quota.scheduling.koordinator.sh/parent", "root-a"}, {"koord-queue/queue-policy", "Block"}},
      .annotations = {}};
  eq.spec = {.max = {{"cpu", "100"}, {"memory", "400Gi"}, {"nvidia.com/gpu", "16"}}, .min = {{"cpu", "10"}}};
  return eq;
}

}  // namespace koordq::samples
