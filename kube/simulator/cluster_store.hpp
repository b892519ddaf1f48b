// The simulated API server's storage: the watched objects by kind, namespace and name, and one
// global revision that every write bumps, as etcd's does; each write yields its watch event.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "schema/json_watch_event.hpp"
#include "schema/watched_object.hpp"

namespace koordq::kube::sim {

struct TimedEvent {
  int64_t time = 0;
  schema::WatchEvent event;
};

class ClusterStore {
 public:
  // Writes: each takes the next revision as the object's resourceVersion and returns the event.
  TimedEvent create(schema::WatchedObject object, int64_t now);
  TimedEvent update(schema::WatchedObject object, int64_t now);
  TimedEvent remove(schema::ObjectKind kind, const std::string& key, int64_t now);
  // A write of an object that is not watched (an Event).
  uint64_t bump() { return ++revision_; }

  // Restart: takes the objects as they are and continues after the highest revision seen.
  void adopt(schema::WatchedObject object);
  void raise_revision(uint64_t at_least) { revision_ = std::max(revision_, at_least); }
  void clear();

  uint64_t revision() const { return revision_; }
  const schema::QueueUnit* unit(const std::string& key) const;
  const schema::Queue* queue(const std::string& key) const;
  const schema::ElasticQuota* quota(const std::string& key) const;
  std::optional<schema::WatchedObject> get(schema::ObjectKind kind, const std::string& key) const;
  std::vector<schema::WatchedObject> list(schema::ObjectKind kind) const;
  const std::map<std::string, schema::QueueUnit>& units() const { return units_; }

 private:
  TimedEvent event(schema::WatchEventType type, schema::WatchedObject object, int64_t now) const;
  void put(schema::WatchedObject object);

  uint64_t revision_ = 0;
  std::map<std::string, schema::QueueUnit> units_;      // "<ns>/<name>"
  std::map<std::string, schema::Queue> queues_;         // "<ns>/<name>"
  std::map<std::string, schema::ElasticQuota> quotas_;  // "<ns>/<name>"
};

std::string object_key(const std::string& ns, const std::string& name);
// Kubernetes object times have whole seconds.
int64_t whole_seconds(int64_t unix_nanos);
std::string object_key(const schema::WatchedObject& object);

}  // namespace koordq::kube::sim
