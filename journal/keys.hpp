// Key encodings of the journal's column families (design.md §5). Big-endian so that RocksDB's
// bytewise order is numeric order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace koordq::journal {

// `log` and `snapshot`: 8 bytes, big-endian seq.
std::string seq_key(uint64_t seq);
std::optional<uint64_t> decode_seq_key(std::string_view key);

// `meta`: the key-only index of the snapshots, "snapshot/" ‖ seq_key(seq) → "" (written and
// deleted with the snapshot in one batch). Finding a snapshot's seq there reads a block of keys;
// a search of the `snapshot` family itself reads and decompresses the snapshot after the one
// found too (each large value is a block of its own).
inline constexpr std::string_view kSnapshotIndexPrefix = "snapshot/";
std::string snapshot_index_key(uint64_t seq);
std::optional<uint64_t> decode_snapshot_index_key(std::string_view key);

// `time`: 8 bytes of time (sign bit flipped so negative times sort first) ‖ 8 bytes seq.
std::string time_key(int64_t unix_nanos, uint64_t seq);
struct TimeKey {
  int64_t unix_nanos;
  uint64_t seq;
};
std::optional<TimeKey> decode_time_key(std::string_view key);

}  // namespace koordq::journal
