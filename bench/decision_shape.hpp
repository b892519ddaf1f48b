// The decision benchmarks' cluster shapes: Kueue-like quota trees (one root ElasticQuota per
// tree, leaf quotas under it, one Priority Queue per leaf) and waiting QueueUnits spread over
// the queues with spread priorities and cpu requests, as objects, watch records, or a Scheduler
// that has applied them. Deterministic: the same shape gives the same objects.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "base/time_units.hpp"
#include "journal/stored_record.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::bench {

using base::kMillisecond;
using base::kSecond;
inline constexpr int64_t kT0 = 1'776'000'000 * kSecond;
// --schedule-suspend-time-ms: a queue attempts at most once per this interval, so every round
// of the benchmarks is one suspend interval after the previous one.
inline constexpr int64_t kRoundStep = 10 * kMillisecond;

struct Shape {
  int queues = 1000;
  int trees = 100;
  int units = 50'000;
};

// Leaf quota (= Queue) q of the shape; tree t = q / (queues / trees).
inline std::string leaf_name(const Shape& s, int q) {
  const int per_tree = s.queues / s.trees;
  return "q-" + std::to_string(q / per_tree) + "-" + std::to_string(q % per_tree);
}

inline schema::ElasticQuota make_quota(const std::string& name, const std::string& parent, int64_t cpu) {
  schema::ElasticQuota q;
  q.metadata.name = name;
  q.metadata.namespace_ = "default";
  q.metadata.uid = "uid-quota-" + name;
  q.metadata.resource_version = "1";
  q.metadata.creation_timestamp = kT0 - 3600 * kSecond;
  if (!parent.empty()) q.metadata.labels["quota.scheduling.koordinator.sh/parent"] = parent;
  q.spec.max = {{"cpu", std::to_string(cpu)}};
  return q;
}

inline schema::Queue make_queue(const std::string& name) {
  schema::Queue q;
  q.metadata.name = name;
  q.metadata.namespace_ = "koord-queue";
  q.metadata.uid = "uid-queue-" + name;
  q.metadata.resource_version = "1";
  q.spec.queue_policy = "Priority";
  return q;
}

// Unit i: priority spread over 0..99, cpu 1..8 (mean 4.5), created one millisecond apart.
inline schema::QueueUnit make_unit(int64_t i, const std::string& quota) {
  schema::QueueUnit u;
  u.metadata.name = "job-" + std::to_string(i);
  u.metadata.namespace_ = "ns-" + std::to_string(i % 20);
  u.metadata.uid = "uid-" + std::to_string(i);
  u.metadata.resource_version = std::to_string(100 + i);
  u.metadata.creation_timestamp = kT0 - 600 * kSecond + i * kMillisecond;
  u.metadata.labels["quota.scheduling.koordinator.sh/name"] = quota;
  const int32_t priority = static_cast<int32_t>((i * 7919) % 100);
  if (priority != 0) u.spec.priority = priority;
  const std::string cpu = std::to_string(1 + (i * 31) % 8);
  u.spec.resource = {{"cpu", cpu}};
  u.spec.request = {{"cpu", cpu}};
  return u;
}

// Every object of the shape in creation order: roots, leaves, queues, then units (unit i in
// queue i % queues). A leaf allows 120 cpu (≈ 26 of its 50 units at the default density), a
// root 100 per leaf: about half of the units can be admitted, limited by leaf and root alike.
template <typename Visit>
void for_each_object(const Shape& s, Visit&& visit) {
  const int per_tree = s.queues / s.trees;
  for (int t = 0; t < s.trees; ++t)
    visit(schema::WatchedObject(make_quota("tree-" + std::to_string(t), "", 100 * per_tree)));
  for (int q = 0; q < s.queues; ++q) {
    visit(schema::WatchedObject(make_quota(leaf_name(s, q), "tree-" + std::to_string(q / per_tree), 120)));
  }
  for (int q = 0; q < s.queues; ++q) visit(schema::WatchedObject(make_queue(leaf_name(s, q))));
  for (int64_t i = 0; i < s.units; ++i)
    visit(schema::WatchedObject(make_unit(i, leaf_name(s, static_cast<int>(i % s.queues)))));
}

// A Scheduler that has applied every object of the shape at kT0 (no rounds yet).
inline actors::Scheduler build_scheduler(const Shape& s) {
  actors::Scheduler sched;
  sched.advance_to(kT0);
  for_each_object(s, [&](const schema::WatchedObject& o) { sched.apply_object(o, false); });
  return sched;
}

inline journal::StoredRecord watch_record(testing::RecordChain& chain, schema::WatchedObject object, int64_t time,
                                          schema::WatchEventType type = schema::WatchEventType::kAdded) {
  schema::WatchEvent event;
  event.type = type;
  event.object = std::move(object);
  return chain.append(*journal::make_watch_body(event, schema::RawObjectMode::kOff), time);
}

// Resident set size of this process in bytes (/proc/self/statm).
inline int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * 4096;
}

}  // namespace koordq::bench
