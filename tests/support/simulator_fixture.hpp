// What the simulator's tests share: a tiny scenario (one quota and queue of each kind, a job class
// with pod sets, one behind an admission check), its start time, and helpers that find a unit in
// the simulator's events, build the admission the decision logic would write, and read objects back.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "actors/core/scheduler.hpp"
#include "actors/core/status_change.hpp"
#include "kube/simulator/simulated_cluster.hpp"

namespace koordq::kube::sim::fixture {

using actors::DecisionKind;
using actors::OutcomeResult;
using schema::ObjectKind;
using schema::WatchEventType;

inline constexpr int64_t kSec = 1'000'000'000;
inline constexpr int64_t kStart = 1'776'672'000 * kSec;  // 2026-04-20T08:00:00Z

inline constexpr std::string_view kTiny = R"yaml(name: tiny
jobExtension:
  startDelay: 2s
  reclaimDelay: 3s
  suspendDelay: 1s
  deleteAfter: 10s
quotas:
  - name: team
    max: {cpu: "100"}
  - name: checked
    max: {cpu: "100"}
admissionChecks:
  - name: provisioning
    readyAfter: 4s
queues:
  - name: team
  - name: checked
    admissionChecks:
      - name: provisioning
jobClasses:
  - name: train
    kind: PyTorchJob
    namespaces: [ml]
    quota: team
    podSets:
      - name: worker
        replicas: 4
        resources: {cpu: "1", nvidia.com/gpu: "1"}
    arrivalsPerMinute: 6
    runTime: 30s
    failurePercent: 0
  - name: gated
    kind: Job
    namespaces: [ml]
    quota: checked
    request: {cpu: "1"}
    arrivalsPerMinute: 0
    runTime: 30s
)yaml";

inline Scenario tiny() {
  auto s = parse_scenario(kTiny, "tiny");
  EXPECT_TRUE(s.ok()) << s.message();
  return *s;
}

inline std::string trace_of(const std::vector<TimedEvent>& events) {
  std::string out;
  for (const auto& e : events) {
    out += std::to_string(e.time) + " " + schema::watch_event_type_name(e.event.type) + " " + e.event.raw_json + "\n";
  }
  return out;
}

inline const schema::QueueUnit* first_unit(const std::vector<TimedEvent>& events) {
  for (const auto& e : events) {
    if (e.event.type == WatchEventType::kAdded && e.event.kind() == ObjectKind::kQueueUnit) {
      return &std::get<schema::QueueUnit>(*e.event.object);
    }
  }
  return nullptr;
}

// The unit's versions in these events, in order.
inline std::vector<schema::QueueUnit> versions_of(const std::vector<TimedEvent>& events, const std::string& name) {
  std::vector<schema::QueueUnit> out;
  for (const auto& e : events) {
    if (e.event.kind() != ObjectKind::kQueueUnit) continue;
    const auto& u = std::get<schema::QueueUnit>(*e.event.object);
    if (u.metadata.name == name) out.push_back(u);
  }
  return out;
}

inline actors::UnitRef ref_of(const schema::QueueUnit& u) {
  return {u.metadata.namespace_, u.metadata.name, u.metadata.uid, "team", "team"};
}

inline actors::Decision admit(const schema::QueueUnit& u, const schema::Queue& q, int64_t now) {
  actors::Decision d;
  d.target = ref_of(u);
  d.kind = DecisionKind::kAdmit;
  d.status_patch = actors::admission_patch(u, q, 1, now);
  d.spec_queue_patch = q.metadata.name;
  d.events.push_back({actors::object_ref_of(u), false, "Scheduled", "dequeue success"});
  return d;
}

inline schema::Queue queue_named(const SimulatedCluster& sim, const std::string& name) {
  return std::get<schema::Queue>(*sim.get(ObjectKind::kQueue, "koord-queue", name));
}

inline schema::QueueUnit current(const SimulatedCluster& sim, const schema::QueueUnit& u) {
  return std::get<schema::QueueUnit>(*sim.get(ObjectKind::kQueueUnit, u.metadata.namespace_, u.metadata.name));
}

// Waits for the first unit of the tiny scenario's `train` class.
inline schema::QueueUnit arrived_unit(SimulatedCluster& sim) {
  for (int64_t t = kStart; t < kStart + 600 * kSec; t += kSec) {
    const auto events = sim.advance_to(t);
    if (const auto* u = first_unit(events)) return *u;
  }
  ADD_FAILURE() << "no unit arrived";
  return {};
}

}  // namespace koordq::kube::sim::fixture
