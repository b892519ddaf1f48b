#include "kube/ingest/relist_diff.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>

#include "schema/json_encode.hpp"

namespace koordq::kube {
namespace {

using Key = std::pair<std::string_view, std::string_view>;  // namespace, name

struct KeyHash {
  size_t operator()(const Key& k) const {
    const size_t h = std::hash<std::string_view>{}(k.first);
    return h ^ (std::hash<std::string_view>{}(k.second) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  }
};

const schema::ObjectMeta& meta_of(const JournaledObject& o) {
  return std::visit([](const auto* object) -> const schema::ObjectMeta& { return object->metadata; }, o);
}

Key key_of(const JournaledObject& o) {
  const auto& meta = meta_of(o);
  return {meta.namespace_, meta.name};
}

schema::WatchedObject copy_of(const JournaledObject& o) {
  return std::visit([](const auto* object) { return schema::WatchedObject(*object); }, o);
}

std::string json_of(const schema::WatchedObject& o) {
  return std::visit([](const auto& object) { return schema::encode_json(object); }, o);
}

std::vector<JournaledObject> references_to(const std::vector<schema::WatchedObject>& objects) {
  std::vector<JournaledObject> out;
  out.reserve(objects.size());
  for (const auto& o : objects)
    out.push_back(std::visit([](const auto& object) -> JournaledObject { return &object; }, o));
  return out;
}

}  // namespace

std::vector<RelistEvent> relist_diff(const std::vector<JournaledObject>& journaled,
                                     std::vector<schema::DecodedObject>&& listed, schema::RawObjectMode raw_mode) {
  std::unordered_map<Key, size_t, KeyHash> known;
  known.reserve(journaled.size());
  for (size_t i = 0; i < journaled.size(); ++i) known[key_of(journaled[i])] = i;

  std::vector<bool> still_listed(journaled.size());
  std::vector<RelistEvent> changes;
  changes.reserve(listed.size());
  for (auto& item : listed) {
    const auto& meta = schema::meta_of(item.object);
    auto type = schema::WatchEventType::kAdded;
    if (const auto it = known.find({meta.namespace_, meta.name}); it != known.end()) {
      const auto& old_meta = meta_of(journaled[it->second]);
      // Re-created (another uid): the old uid's DELETED comes first, then this ADDED.
      if (old_meta.uid == meta.uid) {
        still_listed[it->second] = true;
        if (old_meta.resource_version == meta.resource_version) continue;
        type = schema::WatchEventType::kModified;
      }
    }
    RelistEvent e;
    e.event.type = type;
    e.event.object = std::move(item.object);
    e.event.raw_json = std::move(item.raw_json);
    changes.push_back(std::move(e));
  }

  std::vector<size_t> gone;
  for (const auto& [key, i] : known) {
    if (!still_listed[i]) gone.push_back(i);
  }
  std::sort(gone.begin(), gone.end(), [&](size_t a, size_t b) { return key_of(journaled[a]) < key_of(journaled[b]); });
  std::vector<RelistEvent> out;
  out.reserve(gone.size() + changes.size());
  for (size_t i : gone) {
    RelistEvent e;
    e.event.type = schema::WatchEventType::kDeleted;
    e.event.object = copy_of(journaled[i]);
    if (raw_mode != schema::RawObjectMode::kOff) e.event.raw_json = json_of(*e.event.object);
    e.synthesized = true;
    out.push_back(std::move(e));
  }
  for (auto& c : changes) out.push_back(std::move(c));
  return out;
}

std::vector<RelistEvent> relist_diff(const std::vector<schema::WatchedObject>& journaled,
                                     std::vector<schema::DecodedObject>&& listed, schema::RawObjectMode raw_mode) {
  return relist_diff(references_to(journaled), std::move(listed), raw_mode);
}

std::vector<RelistEvent> relist_diff(const std::vector<schema::WatchedObject>& journaled,
                                     const std::vector<schema::WatchedObject>& listed) {
  std::vector<schema::DecodedObject> items(listed.size());
  for (size_t i = 0; i < listed.size(); ++i) {
    items[i].object = listed[i];
    items[i].raw_json = json_of(listed[i]);
  }
  return relist_diff(journaled, std::move(items), schema::RawObjectMode::kFull);
}

}  // namespace koordq::kube
