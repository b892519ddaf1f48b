#include "kube/simulator/cluster_store.hpp"

#include <algorithm>
#include <charconv>
#include <variant>

#include "base/time_units.hpp"
#include "schema/json_encode.hpp"

namespace koordq::kube::sim {
namespace {

schema::ObjectMeta& mutable_meta(schema::WatchedObject& o) {
  return std::visit([](auto& object) -> schema::ObjectMeta& { return object.metadata; }, o);
}

uint64_t revision_of(const schema::WatchedObject& o) {
  const std::string& rv = schema::meta_of(o).resource_version;
  uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), value);
  return ec == std::errc{} && ptr == rv.data() + rv.size() ? value : 0;
}

template <class Map>
std::vector<schema::WatchedObject> values_of(const Map& map) {
  std::vector<schema::WatchedObject> out;
  out.reserve(map.size());
  for (const auto& [key, object] : map) out.emplace_back(object);
  return out;
}

template <class Map>
const typename Map::mapped_type* find_in(const Map& map, const std::string& key) {
  const auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

std::string object_key(const std::string& ns, const std::string& name) {
  return ns + "/" + name;
}

int64_t whole_seconds(int64_t unix_nanos) {
  using base::kSecond;
  return unix_nanos - ((unix_nanos % kSecond) + kSecond) % kSecond;
}

std::string object_key(const schema::WatchedObject& object) {
  const auto& meta = schema::meta_of(object);
  return object_key(meta.namespace_, meta.name);
}

TimedEvent ClusterStore::event(schema::WatchEventType type, schema::WatchedObject object, int64_t now) const {
  TimedEvent e;
  e.time = now;
  e.event.type = type;
  e.event.raw_json = schema::encode_json(object);
  e.event.object = std::move(object);
  return e;
}

void ClusterStore::put(schema::WatchedObject object) {
  const std::string key = object_key(object);
  std::visit(
      [&](auto&& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, schema::QueueUnit>) {
          units_[key] = std::move(o);
        } else if constexpr (std::is_same_v<T, schema::Queue>) {
          queues_[key] = std::move(o);
        } else {
          quotas_[key] = std::move(o);
        }
      },
      std::move(object));
}

TimedEvent ClusterStore::create(schema::WatchedObject object, int64_t now) {
  mutable_meta(object).resource_version = std::to_string(++revision_);
  put(object);
  return event(schema::WatchEventType::kAdded, std::move(object), now);
}

TimedEvent ClusterStore::update(schema::WatchedObject object, int64_t now) {
  mutable_meta(object).resource_version = std::to_string(++revision_);
  put(object);
  return event(schema::WatchEventType::kModified, std::move(object), now);
}

TimedEvent ClusterStore::remove(schema::ObjectKind kind, const std::string& key, int64_t now) {
  auto object = *get(kind, key);
  switch (kind) {
    case schema::ObjectKind::kQueueUnit:
      units_.erase(key);
      break;
    case schema::ObjectKind::kQueue:
      queues_.erase(key);
      break;
    case schema::ObjectKind::kElasticQuota:
      quotas_.erase(key);
      break;
  }
  // The DELETED event carries the revision of the deletion.
  mutable_meta(object).resource_version = std::to_string(++revision_);
  return event(schema::WatchEventType::kDeleted, std::move(object), now);
}

void ClusterStore::adopt(schema::WatchedObject object) {
  raise_revision(revision_of(object));
  put(std::move(object));
}

void ClusterStore::clear() {
  units_.clear();
  queues_.clear();
  quotas_.clear();
}

const schema::QueueUnit* ClusterStore::unit(const std::string& key) const {
  return find_in(units_, key);
}
const schema::Queue* ClusterStore::queue(const std::string& key) const {
  return find_in(queues_, key);
}
const schema::ElasticQuota* ClusterStore::quota(const std::string& key) const {
  return find_in(quotas_, key);
}

std::optional<schema::WatchedObject> ClusterStore::get(schema::ObjectKind kind, const std::string& key) const {
  switch (kind) {
    case schema::ObjectKind::kQueueUnit:
      if (const auto* u = unit(key)) return schema::WatchedObject(*u);
      break;
    case schema::ObjectKind::kQueue:
      if (const auto* q = queue(key)) return schema::WatchedObject(*q);
      break;
    case schema::ObjectKind::kElasticQuota:
      if (const auto* q = quota(key)) return schema::WatchedObject(*q);
      break;
  }
  return std::nullopt;
}

std::vector<schema::WatchedObject> ClusterStore::list(schema::ObjectKind kind) const {
  switch (kind) {
    case schema::ObjectKind::kQueueUnit:
      return values_of(units_);
    case schema::ObjectKind::kQueue:
      return values_of(queues_);
    case schema::ObjectKind::kElasticQuota:
      return values_of(quotas_);
  }
  return {};
}

}  // namespace koordq::kube::sim
