#include "kube/ingest/relist_diff.hpp"

#include <map>
#include <utility>
#include <variant>

#include "schema/json_encode.hpp"

namespace koordq::kube {
namespace {

using Key = std::pair<std::string, std::string>;  // namespace, name

Key key_of(const schema::WatchedObject& o) {
  const auto& meta = schema::meta_of(o);
  return {meta.namespace_, meta.name};
}

RelistEvent event_of(schema::WatchEventType type, const schema::WatchedObject& object, bool synthesized) {
  RelistEvent e;
  e.event.type = type;
  e.event.object = object;
  e.event.raw_json = std::visit([](const auto& o) { return schema::encode_json(o); }, object);
  e.synthesized = synthesized;
  return e;
}

}  // namespace

std::vector<RelistEvent> relist_diff(const std::vector<schema::WatchedObject>& journaled,
                                     const std::vector<schema::WatchedObject>& listed) {
  std::map<Key, const schema::WatchedObject*> known;
  for (const auto& o : journaled) known[key_of(o)] = &o;

  std::vector<RelistEvent> changes;
  std::map<Key, bool> still_listed;
  for (const auto& o : listed) {
    const Key key = key_of(o);
    const auto& meta = schema::meta_of(o);
    const auto it = known.find(key);
    if (it == known.end()) {
      changes.push_back(event_of(schema::WatchEventType::kAdded, o, false));
      continue;
    }
    const auto& old_meta = schema::meta_of(*it->second);
    if (old_meta.uid != meta.uid) {  // re-created: the old uid's DELETED comes first
      changes.push_back(event_of(schema::WatchEventType::kAdded, o, false));
      continue;
    }
    still_listed[key] = true;
    if (old_meta.resource_version != meta.resource_version) {
      changes.push_back(event_of(schema::WatchEventType::kModified, o, false));
    }
  }

  std::vector<RelistEvent> out;
  for (const auto& [key, old] : known) {
    if (still_listed.count(key)) continue;
    out.push_back(event_of(schema::WatchEventType::kDeleted, *old, true));
  }
  for (auto& c : changes) out.push_back(std::move(c));
  return out;
}

}  // namespace koordq::kube
