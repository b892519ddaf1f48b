// Builders of ElasticQuotas, Queues and QueueUnits, and a driver that runs the decision logic the
// way the router does: advance time, apply an input, decide, apply the round.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/core/scheduler.hpp"
#include "actors/core/status_change.hpp"

namespace koordq::testing {

constexpr int64_t kSec = 1'000'000'000;
constexpr int64_t kMs = 1'000'000;

inline schema::ElasticQuota quota(const std::string& name, const std::string& parent, schema::ResourceList max,
                                  int64_t created = 0) {
  schema::ElasticQuota q;
  q.metadata.name = name;
  q.metadata.namespace_ = "default";
  q.metadata.uid = "uid-quota-" + name;
  q.metadata.creation_timestamp = created;
  if (!parent.empty()) q.metadata.labels["quota.scheduling.koordinator.sh/parent"] = parent;
  q.spec.max = std::move(max);
  return q;
}

inline schema::Queue queue(const std::string& name, const std::string& policy = "Priority",
                           schema::StringMap annotations = {}) {
  schema::Queue q;
  q.metadata.name = name;
  q.metadata.namespace_ = "koord-queue";
  q.metadata.uid = "uid-queue-" + name;
  q.metadata.resource_version = "1";
  q.metadata.annotations = std::move(annotations);
  q.spec.queue_policy = policy;
  return q;
}

inline schema::QueueUnit unit(const std::string& name, const std::string& quota_label, const std::string& cpu,
                              int32_t priority = 0, int64_t created = 0, const std::string& ns = "default") {
  schema::QueueUnit u;
  u.metadata.name = name;
  u.metadata.namespace_ = ns;
  u.metadata.uid = "uid-" + ns + "-" + name;
  u.metadata.resource_version = "100";
  u.metadata.creation_timestamp = created;
  if (!quota_label.empty()) u.metadata.labels["quota.scheduling.koordinator.sh/name"] = quota_label;
  if (priority != 0) u.spec.priority = priority;
  u.spec.resource = {{"cpu", cpu}};
  u.spec.request = {{"cpu", cpu}};
  return u;
}

// `u` as a job of pod set "worker": 2 replicas of 1 cpu, 1 admitted (a top-up waits for the other).
inline schema::QueueUnit half_admitted_workers(schema::QueueUnit u) {
  u.spec.resource.clear();
  u.spec.request.clear();
  schema::PodSet ps;
  ps.name = "worker";
  ps.count = 2;
  ps.containers.push_back({"main", {{"cpu", "1"}}, {}});
  u.spec.pod_set.push_back(ps);
  u.status.admissions = {{"worker", 1, std::nullopt, 1, std::nullopt}};
  return u;
}

class SchedulerDriver {
 public:
  explicit SchedulerDriver(actors::DecisionConfig config = {}) : s(std::move(config)) {}

  void at(int64_t t) { time = t; }

  // One input record, then the round the leader decides after it, applied.
  std::vector<actors::Decision> input(const schema::WatchedObject& o, bool deleted = false) {
    ++seq;
    s.advance_to(time);
    s.apply_object(o, deleted);
    return round();
  }
  std::vector<actors::Decision> tick(int64_t t) {
    time = t;
    ++seq;
    s.advance_to(time);
    return round();
  }
  std::vector<actors::Decision> round() {
    auto decisions = s.decide();
    ++seq;
    s.advance_to(time);
    s.apply_round(seq, decisions);
    last_round_seq = seq;
    return decisions;
  }
  void outcome(const actors::Decision& d, actors::OutcomeResult result, const std::string& rv = "") {
    actors::Outcome o;
    o.decision_seq = last_round_seq;
    o.target = d.target;
    o.result = result;
    o.resource_version = rv;
    ++seq;
    s.advance_to(time);
    s.apply_outcome(o);
  }

  // Runs ticks every `step` until `until`, collecting every decision.
  std::vector<actors::Decision> run_until(int64_t until, int64_t step = 10 * kMs) {
    std::vector<actors::Decision> all;
    while (time + step <= until) {
      auto d = tick(time + step);
      all.insert(all.end(), d.begin(), d.end());
    }
    return all;
  }

  actors::Scheduler s;
  int64_t time = 1000 * kSec;
  uint64_t seq = 0;
  uint64_t last_round_seq = 0;
};

inline std::vector<const actors::Decision*> of_kind(const std::vector<actors::Decision>& ds, actors::DecisionKind k) {
  std::vector<const actors::Decision*> out;
  for (const auto& d : ds) {
    if (d.kind == k) out.push_back(&d);
  }
  return out;
}

inline std::string target_name(const actors::Decision& d) {
  if (const auto* u = std::get_if<actors::UnitRef>(&d.target)) return u->namespace_ + "/" + u->name;
  return std::get<actors::QueueRef>(d.target).name;
}

}  // namespace koordq::testing
