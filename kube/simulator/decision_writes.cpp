// SimulatedCluster: the API server's side of koordq's writes (behaviour.md §7.3, §14; design.md §2
// `outcome`): merge-PATCHes of QueueUnit status and spec.queue, Queue creates, patches, status
// writes and deletes, and Events, each answered like the API server answers it.
#include <variant>

#include "actors/core/status_change.hpp"
#include "kube/simulator/simulated_cluster.hpp"

namespace koordq::kube::sim {
namespace {

using actors::OutcomeResult;

int64_t admitted(const schema::QueueUnitStatus& s) {
  int64_t n = 0;
  for (const auto& a : s.admissions) n += a.replicas;
  return n;
}

void patch_map(schema::StringMap& map, const actors::MapPatch& patch) {
  for (const auto& [key, value] : patch) {
    if (value) {
      map[key] = *value;
    } else {
      map.erase(key);
    }
  }
}

}  // namespace

WriteResult SimulatedCluster::apply_decision(uint64_t round_seq, uint32_t decision_index, const actors::Decision& d,
                                             int64_t now) {
  WriteResult result;
  // What the cluster did on its own before `now` happened before the writes.
  result.events = advance_to(now);
  auto answer = [&](actors::WriteKind kind, uint32_t write_index, const Answer& a) {
    actors::Outcome o;
    o.decision_seq = round_seq;
    o.decision_index = decision_index;
    o.write_kind = kind;
    o.write_index = write_index;
    o.result = a.result;
    o.http_code = a.http_code;
    o.resource_version = a.resource_version;
    o.target = d.target;
    result.outcomes.push_back(std::move(o));
  };
  if (d.status_patch) answer(actors::WriteKind::kStatusPatch, 0, patch_status(d.target, *d.status_patch));
  if (d.spec_queue_patch)
    answer(actors::WriteKind::kSpecQueuePatch, 0, patch_spec_queue(d.target, *d.spec_queue_patch));
  if (d.queue_write) answer(actors::WriteKind::kQueueWrite, 0, write_queue(d.target, *d.queue_write));
  for (uint32_t i = 0; i < d.events.size(); ++i) answer(actors::WriteKind::kEvent, i, record_event());
  for (auto& e : std::exchange(out_, {})) result.events.push_back(std::move(e));
  return result;
}

SimulatedCluster::Answer SimulatedCluster::patch_status(const actors::Target& target,
                                                        const actors::StatusPatch& patch) {
  const auto* ref = std::get_if<actors::UnitRef>(&target);
  if (ref == nullptr) return {OutcomeResult::kError, 400, ""};
  const std::string key = object_key(ref->namespace_, ref->name);
  const schema::QueueUnit* unit = store_.unit(key);
  if (unit == nullptr) {
    ++stats_.not_found;
    return {OutcomeResult::kNotFound, 404, ""};
  }
  if (!patch.resource_version.empty() && patch.resource_version != unit->metadata.resource_version) {
    ++stats_.precondition_conflicts;
    return {OutcomeResult::kConflict, 409, ""};
  }
  if (random_.chance(scenario_.conflict_ppm)) {
    ++stats_.conflicts_injected;
    return {OutcomeResult::kConflict, 409, ""};
  }
  schema::QueueUnit updated = *unit;
  updated.status = actors::merged(unit->status, patch);
  // The API server does not write an unchanged object: no new revision, no watch event.
  if (updated == *unit) return {OutcomeResult::kSuccess, 200, unit->metadata.resource_version};
  if (admitted(updated.status) > admitted(unit->status)) ++stats_.admissions;
  ++stats_.status_writes;
  const schema::QueueUnit before = *unit;
  commit(before, std::move(updated));
  react(key);
  return {OutcomeResult::kSuccess, 200, store_.unit(key)->metadata.resource_version};
}

SimulatedCluster::Answer SimulatedCluster::patch_spec_queue(const actors::Target& target, const std::string& queue) {
  const auto* ref = std::get_if<actors::UnitRef>(&target);
  if (ref == nullptr) return {OutcomeResult::kError, 400, ""};
  const std::string key = object_key(ref->namespace_, ref->name);
  const schema::QueueUnit* unit = store_.unit(key);
  if (unit == nullptr) {
    ++stats_.not_found;
    return {OutcomeResult::kNotFound, 404, ""};
  }
  schema::QueueUnit updated = *unit;
  updated.spec.queue = queue;
  if (updated == *unit) return {OutcomeResult::kSuccess, 200, unit->metadata.resource_version};
  ++stats_.status_writes;
  const schema::QueueUnit before = *unit;
  commit(before, std::move(updated));
  return {OutcomeResult::kSuccess, 200, store_.unit(key)->metadata.resource_version};
}

SimulatedCluster::Answer SimulatedCluster::write_queue(const actors::Target& target, const actors::QueueWrite& write) {
  const auto* ref = std::get_if<actors::QueueRef>(&target);
  if (ref == nullptr) return {OutcomeResult::kError, 400, ""};
  const std::string key = object_key(scenario_.queue_namespace, ref->name);
  const schema::Queue* existing = store_.queue(key);
  if (const auto* create = std::get_if<schema::Queue>(&write)) {
    if (existing != nullptr) return {OutcomeResult::kConflict, 409, ""};  // AlreadyExists
    schema::Queue queue = *create;
    queue.metadata.name = ref->name;
    queue.metadata.namespace_ = scenario_.queue_namespace;
    queue.metadata.uid = random_.uuid();
    queue.metadata.creation_timestamp = whole_seconds(clock_);
    queue.metadata.deletion_timestamp.reset();
    out_.push_back(store_.create(std::move(queue), clock_));
    ++stats_.queue_writes;
    return {OutcomeResult::kSuccess, 201, store_.queue(key)->metadata.resource_version};
  }
  if (existing == nullptr) {
    ++stats_.not_found;
    return {OutcomeResult::kNotFound, 404, ""};
  }
  if (std::holds_alternative<actors::QueueDelete>(write)) {
    out_.push_back(store_.remove(schema::ObjectKind::kQueue, key, clock_));
    ++stats_.queue_writes;
    return {OutcomeResult::kSuccess, 200, resource_version()};
  }
  schema::Queue updated = *existing;
  if (const auto* details = std::get_if<schema::QueueItemDetails>(&write)) {
    updated.status.queue_item_details = *details;
  } else if (const auto* usage = std::get_if<actors::UsageAnnotations>(&write)) {
    for (const auto& [name, value] : *usage) updated.metadata.annotations[std::string(name)] = value;
  } else if (const auto* patch = std::get_if<actors::QueuePatch>(&write)) {
    if (patch->queue_policy) updated.spec.queue_policy = *patch->queue_policy;
    patch_map(updated.metadata.labels, patch->labels);
    patch_map(updated.metadata.annotations, patch->annotations);
  }
  if (updated == *existing) return {OutcomeResult::kSuccess, 200, existing->metadata.resource_version};
  out_.push_back(store_.update(std::move(updated), clock_));
  ++stats_.queue_writes;
  return {OutcomeResult::kSuccess, 200, store_.queue(key)->metadata.resource_version};
}

SimulatedCluster::Answer SimulatedCluster::record_event() {
  ++stats_.events_recorded;
  return {OutcomeResult::kSuccess, 201, std::to_string(store_.bump())};
}

}  // namespace koordq::kube::sim
