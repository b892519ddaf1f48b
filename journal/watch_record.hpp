// The `watch` record of one observed event (design.md §2), built the same way for the cluster
// ingest, the simulator and `koordq journal import`: the normalized object, its identity, and
// its raw JSON in the stored form of --journal-raw-objects.
#pragma once

#include <memory>
#include <optional>

#include "journal/capnp_record_body.hpp"
#include "schema/json_watch_event.hpp"
#include "schema/raw_object.hpp"

namespace koordq::journal {

// `event` must not be an ERROR event; `raw_mode` is the mode its raw_json was produced with.
// `synthesized` marks a DELETED made up by a relist epoch.
std::unique_ptr<CapnpRecordBody> make_watch_body(const schema::WatchEvent& event, schema::RawObjectMode raw_mode,
                                                 bool synthesized = false);

}  // namespace koordq::journal
