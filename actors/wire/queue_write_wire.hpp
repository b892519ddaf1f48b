// The write a decision makes to its Queue (record.capnp, QueueWrite): queueItemDetails, usage
// annotations, create, patch (MapPatch keys set or removed) or delete.
#pragma once

#include "actors/core/decision.hpp"
#include "base/result.hpp"
#include "schema/record.capnp.h"

namespace koordq::actors {

void write_queue_write(wire::QueueWrite::Builder out, const QueueWrite& write);
// An Error for a write or map-patch operation this binary does not know.
Result<QueueWrite> read_queue_write(wire::QueueWrite::Reader in);
// Usage annotations as (name, JSON) entries in bytewise name order, as records and snapshots
// carry them; `out` has usage.size() entries.
void write_usage_annotations(capnp::List<wire::StringEntry>::Builder out, const UsageAnnotations& usage);

}  // namespace koordq::actors
