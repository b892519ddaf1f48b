// A relist epoch (design.md §7) read against the journaled state: what the LIST of one resource
// changed since the journal last saw it, journaled between the epoch's `relist` begin and end.
#pragma once

#include <vector>

#include "actors/core/scheduler.hpp"
#include "kube/ingest/relist_diff.hpp"
#include "schema/raw_object.hpp"
#include "schema/watched_object.hpp"

namespace koordq::controller {

// Every object of the state (quotas, Queues, QueueUnits), as last journaled.
std::vector<schema::WatchedObject> journaled_objects(const actors::Scheduler& s);

// A relist epoch's changes: `listed` diffed against the journaled objects of `kind` in `s`, read
// in place (only a vanished object is copied, into its DELETED).
std::vector<kube::RelistEvent> relist_changes(const actors::Scheduler& s, schema::ObjectKind kind,
                                              std::vector<schema::DecodedObject>&& listed,
                                              schema::RawObjectMode raw_mode);

}  // namespace koordq::controller
