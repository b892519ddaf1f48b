// A relist epoch's content for one resource (design.md §7): a full LIST compared with what the
// journal already holds. First every journaled object the LIST no longer has, as a synthesised
// DELETED in namespace/name order (quota is released before anything new arrives); then every
// listed object that is new (ADDED) or whose resourceVersion changed (MODIFIED), in list order.
// Identity is namespace/name plus uid: an object deleted and re-created under the same name while
// nobody watched is a DELETED of the old uid and an ADDED of the new one. Unchanged objects give
// nothing. Pure: the cluster ingest and the simulator both use it.
#pragma once

#include <variant>
#include <vector>

#include "schema/json_watch_event.hpp"
#include "schema/raw_object.hpp"
#include "schema/watched_object.hpp"

namespace koordq::kube {

struct RelistEvent {
  schema::WatchEvent event;
  bool synthesized = false;  // a DELETED made up because the LIST no longer has the object
};

// A journaled object read where it is kept (the decision state's own), not copied.
using JournaledObject = std::variant<const schema::QueueUnit*, const schema::Queue*, const schema::ElasticQuota*>;

// `journaled` and `listed` hold objects of one kind. A LIST as received: each listed object moves
// into its event with its raw JSON as decoded (behaviour.md §21: the object's JSON as received,
// per --journal-raw-objects); a synthesised DELETED carries a copy of the journaled object, encoded
// as JSON unless `raw_mode` is off. The events own their objects: `journaled` may go after.
std::vector<RelistEvent> relist_diff(const std::vector<JournaledObject>& journaled,
                                     std::vector<schema::DecodedObject>&& listed, schema::RawObjectMode raw_mode);
std::vector<RelistEvent> relist_diff(const std::vector<schema::WatchedObject>& journaled,
                                     std::vector<schema::DecodedObject>&& listed, schema::RawObjectMode raw_mode);
// The same for objects without received JSON (the simulator's): every event carries its object
// encoded as JSON.
std::vector<RelistEvent> relist_diff(const std::vector<schema::WatchedObject>& journaled,
                                     const std::vector<schema::WatchedObject>& listed);

}  // namespace koordq::kube
