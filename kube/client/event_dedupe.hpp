// Drops watch events already delivered (design.md §7: deduplicated by (uid, resourceVersion)):
// an event whose object has the uid and resourceVersion last delivered for that uid, such as one
// repeated by a reconnect that resumed from an older resourceVersion. resourceVersions are
// compared only for equality (they are opaque). Deleted uids are remembered, up to a bound, so a
// repeated DELETED is dropped too. Pure.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "schema/json_watch_event.hpp"

namespace koordq::kube {

class EventDeduper {
 public:
  explicit EventDeduper(size_t max_remembered_deletions = 16384);

  // After a relist: what the LIST gave is what has been delivered.
  void reset(const std::vector<schema::DecodedObject>& listed);

  // True when `event` (ADDED, MODIFIED or DELETED) is new; it is then recorded as delivered.
  bool admit(const schema::WatchEvent& event);

  size_t tracked() const { return delivered_.size(); }

 private:
  size_t max_deletions_;
  std::unordered_map<std::string, std::string> delivered_;  // uid → resourceVersion
  std::unordered_set<std::string> deleted_;                 // uid + '\0' + resourceVersion
  std::deque<std::string> deleted_order_;
};

}  // namespace koordq::kube
