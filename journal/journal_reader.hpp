// Reading a journal: records by seq, cursors, the time index, snapshots, metadata. Works on the
// primary instance (inside `serve`) and on a secondary instance (other processes, while `serve`
// writes), which sees what was durable when it last caught up.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "journal/rocks_store.hpp"
#include "journal/stored_record.hpp"

namespace rocksdb {
class Iterator;
}

namespace koordq::journal {

inline constexpr char kMetaUuid[] = "uuid";
inline constexpr char kMetaSchema[] = "schema";       // "<major>.<minor>"
inline constexpr char kMetaVerified[] = "verified";   // "<seq> <hash hex>": chain checked up to here
inline constexpr char kMetaFirstSeq[] = "first_seq";  // oldest retained seq (retention)
inline constexpr char kMetaAppliedSeq[] = "applied_seq";
inline constexpr char kMetaResourceVersionPrefix[] = "rv/";
// Present once every snapshot is in the key-only snapshot index (keys.hpp): a journal written
// before the index gets it at its writer's next start.
inline constexpr char kMetaSnapshotsIndexed[] = "snapshots_indexed";

// Iterates records in seq order from a starting seq; reports a gap as an error.
class RecordCursor {
 public:
  RecordCursor(RocksStore& store, uint64_t from_seq, uint64_t to_seq);
  ~RecordCursor();
  RecordCursor(RecordCursor&&) noexcept;
  // The next record, std::nullopt at the end, or an Error naming the seq that is wrong.
  Result<std::optional<StoredRecord>> next();

 private:
  std::unique_ptr<rocksdb::Iterator> it_;
  uint64_t expected_;
  uint64_t to_;
  bool started_ = false;
};

struct SnapshotEntry {
  uint64_t seq = 0;
  uint64_t bytes = 0;
};

class JournalReader {
 public:
  explicit JournalReader(RocksStore& store) : store_(store) {}

  // Opens `<dir>/db` as a secondary instance (its scratch directory is private and temporary).
  static Result<std::unique_ptr<JournalReader>> open_secondary(const std::filesystem::path& journal_dir);
  ~JournalReader();

  Result<std::string> uuid();
  // Oldest and newest seq in the log; 0 when empty.
  uint64_t first_seq();
  uint64_t last_seq();
  Result<std::optional<StoredRecord>> get(uint64_t seq);
  RecordCursor cursor(uint64_t from_seq, uint64_t to_seq = UINT64_MAX) {
    return RecordCursor(store_, from_seq, to_seq);
  }

  // Time index: the first seq whose time ≥ t, the last seq whose time ≤ t.
  std::optional<uint64_t> first_seq_at_or_after(int64_t unix_nanos);
  std::optional<uint64_t> last_seq_at_or_before(int64_t unix_nanos);

  Result<std::optional<std::string>> meta(const std::string& key) { return store_.get(store_.meta(), key); }
  std::vector<SnapshotEntry> snapshots();
  // The newest snapshot at or before seq: (its seq, its bytes); an Error when it does not match its
  // anchor in the chain (snapshot_anchor.hpp).
  Result<std::optional<std::pair<uint64_t, std::string>>> latest_snapshot_at_or_before(uint64_t seq);
  // The same without the anchor check (for journal verify, which reports it).
  Result<std::optional<std::pair<uint64_t, std::string>>> unchecked_latest_snapshot_at_or_before(uint64_t seq);
  // Only its seq (the bytes are not copied).
  Result<std::optional<uint64_t>> latest_snapshot_seq_at_or_before(uint64_t seq);

  // Secondary instances: pick up what the writer made durable since.
  Status refresh();
  RocksStore& store() { return store_; }

 private:
  // From the key-only index in `meta` (keys.hpp); std::nullopt when nothing that old is indexed.
  Result<std::optional<uint64_t>> indexed_snapshot_seq_at_or_before(uint64_t seq);
  // From the `snapshot` family itself; copies the snapshot's bytes into `value` when given.
  Result<std::optional<uint64_t>> searched_snapshot_seq_at_or_before(uint64_t seq, std::string* value);

  RocksStore& store_;
  std::unique_ptr<RocksStore> owned_;
  std::filesystem::path scratch_;
};

}  // namespace koordq::journal
