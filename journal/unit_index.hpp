// The per-unit index (column family `unit`, design.md §5): for every record that names a
// QueueUnit (its watch events, the round decisions about it, the outcomes of their writes) one
// key `<namespace>/<name>/<seq, 8 bytes big-endian>` with an empty value, written in the same
// WriteBatch as the record itself. `koordq explain` reads a unit's keys to fold only the part of
// the journal the unit lived in instead of every record.
//
// The index may name more seqs than touch the unit, never fewer (from kMetaUnitIndexFrom on): a
// torn tail or a failed write can leave keys of records that were replaced, and retention deletes
// a dropped seq's keys after the records. Readers clamp to the retained range and check each
// record they fold.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rocksdb/write_batch.h>

#include "base/result.hpp"
#include "journal/rocks_store.hpp"
#include "schema/record.capnp.h"

namespace koordq::journal {

// meta: the first seq the index covers ("1" for a journal created with it; an older journal
// is indexed from the first record appended after its upgrade).
inline constexpr char kMetaUnitIndexFrom[] = "unit_index_from";

// The units a record names, as `<namespace>/<name>`, each once, in the order the record names them.
std::vector<std::string> units_named_by(wire::Record::Reader record);

std::string unit_index_key(std::string_view unit, uint64_t seq);

// Adds the index keys of the record stored at `seq` (its stored bytes) to `batch`. A record that
// cannot be decoded adds none: the writer stores whatever its producer encoded.
void index_units(RocksStore& store, rocksdb::WriteBatch& batch, uint64_t seq, std::string_view canonical_bytes);

// The seqs in [from, to] whose records name NS/NAME according to the index, ascending;
// std::nullopt when the store has no index covering `from` (a journal older than the index).
Result<std::optional<std::vector<uint64_t>>> unit_touches(RocksStore& store, std::string_view ns, std::string_view name,
                                                          uint64_t from, uint64_t to);

// Deletes the keys of every seq < first (retention); returns how many.
Result<uint64_t> drop_unit_index_before(RocksStore& store, uint64_t first);

}  // namespace koordq::journal
