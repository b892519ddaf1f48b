// A journal snapshot in the archive (behaviour.md §26.1), so that `at` from the archive starts near
// its instant instead of folding from seq 1:
//
//   PREFIX/CLUSTER/JOURNAL-UUID/snapshots/SEQ.snapshot.zst
//
// One zstd frame of a header line `koordq-snapshot 1 JOURNAL SEQ ANCHOR-BYTES`, the snapshot's
// anchor exactly as the journal keeps it (snapshot_anchor.hpp: the chain hash of SEQ, the
// snapshot's SHA-256, and its signature when the journal has a signing key), then the snapshot's
// bytes. The anchor ties the snapshot to the chain: a reader accepts it only when its SHA-256
// matches, the chain hash is the archive's hash of SEQ, and (with a key) the signature verifies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "archive/archive_location.hpp"
#include "base/result.hpp"
#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::archive {

struct SnapshotName {
  std::string cluster;
  std::string journal;
  uint64_t seq = 0;

  bool operator==(const SnapshotName&) const = default;
};

// "PREFIX/CLUSTER/JOURNAL/snapshots/".
std::string snapshots_prefix(const ArchiveLocation& at, std::string_view cluster, std::string_view journal);
std::string snapshot_key(const ArchiveLocation& at, const SnapshotName& name);
std::optional<SnapshotName> parse_snapshot_key(const ArchiveLocation& at, std::string_view key);

struct SnapshotObject {
  std::string journal;
  uint64_t seq = 0;
  std::string anchor;  // render_snapshot_anchor's text
  std::string bytes;   // the snapshot
};

// The object's bytes (compressed).
Result<std::string> render_snapshot_object(const SnapshotObject& snapshot);
// The object read back; an error for anything that is not one whole, well-framed snapshot object.
Result<SnapshotObject> parse_snapshot_object(std::string_view object);

// Why `snapshot` is not the snapshot its key names, tied to the chain where the archive's hash of
// its seq is `chain_hash` (and signed by `key` when given); std::nullopt when it is.
std::optional<std::string> snapshot_object_mismatch(const SnapshotObject& snapshot, const SnapshotName& name,
                                                    const journal::Hash& chain_hash, const journal::VerifyingKey* key);

}  // namespace koordq::archive
