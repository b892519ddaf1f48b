#include "kube/client/event_dedupe.hpp"

namespace koordq::kube {

EventDeduper::EventDeduper(size_t max_remembered_deletions) : max_deletions_(max_remembered_deletions) {}

void EventDeduper::reset(const std::vector<schema::DecodedObject>& listed) {
  delivered_.clear();
  deleted_.clear();
  deleted_order_.clear();
  for (const schema::DecodedObject& item : listed) {
    const schema::ObjectMeta& meta = schema::meta_of(item.object);
    delivered_[meta.uid] = meta.resource_version;
  }
}

bool EventDeduper::admit(const schema::WatchEvent& event) {
  if (!event.object) return true;
  const schema::ObjectMeta& meta = schema::meta_of(*event.object);
  if (event.type == schema::WatchEventType::kDeleted) {
    std::string key = meta.uid + '\0' + meta.resource_version;
    if (deleted_.count(key) != 0) return false;
    delivered_.erase(meta.uid);
    deleted_.insert(key);
    deleted_order_.push_back(std::move(key));
    if (deleted_order_.size() > max_deletions_) {
      deleted_.erase(deleted_order_.front());
      deleted_order_.pop_front();
    }
    return true;
  }
  if (deleted_.count(meta.uid + '\0' + meta.resource_version) != 0) return false;
  auto [it, inserted] = delivered_.try_emplace(meta.uid, meta.resource_version);
  if (inserted) return true;
  if (it->second == meta.resource_version) return false;
  it->second = meta.resource_version;
  return true;
}

}  // namespace koordq::kube
