// The RocksDB database behind the journal and its column families (design.md §5):
//   log       big-endian seq → the record's stored bytes
//   time      big-endian time ‖ seq → (empty)
//   snapshot  big-endian seq → snapshot bytes
//   meta      name → value (journal UUID, schema version, verified point, resourceVersions, …)
//   unit      <namespace>/<name>/big-endian seq → (empty): the per-unit index (unit_index.hpp),
//             created by a primary; a journal written before it has none when opened read only
// The primary instance is the single writer; other processes open a secondary instance.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <rocksdb/db.h>

#include "base/result.hpp"

namespace koordq::journal {

enum class StoreMode { kPrimary, kSecondary };

// The `log` family's options (compression, block size, memtable), shared with the benchmarks that
// compare the journal against RocksDB alone.
rocksdb::ColumnFamilyOptions log_family_options();

class RocksStore {
 public:
  // kPrimary creates the database when missing; kSecondary needs a private scratch directory.
  // When RocksDB refuses a primary as corrupt (a damaged SST file), it is opened read only without
  // paranoid checks instead, so that recovery can name the first bad seq: damage() says why, and
  // the store must not be written.
  // `buffered_wal` (a primary written without sync): the WAL is kept in memory until FlushWAL or a
  // synced write, instead of one write(2) per batch.
  static Result<std::unique_ptr<RocksStore>> open(const std::filesystem::path& db_dir, StoreMode mode,
                                                  const std::filesystem::path& secondary_dir = {},
                                                  bool buffered_wal = false);
  // Reads a journal without opening it for writing: nothing in `db_dir` changes (no recovery, no
  // lock, no new file). The store must not be written.
  static Result<std::unique_ptr<RocksStore>> open_read_only(const std::filesystem::path& db_dir);
  ~RocksStore();
  RocksStore(const RocksStore&) = delete;
  RocksStore& operator=(const RocksStore&) = delete;

  rocksdb::DB& db() { return *db_; }
  rocksdb::ColumnFamilyHandle* log() { return handles_[1]; }
  rocksdb::ColumnFamilyHandle* time() { return handles_[2]; }
  rocksdb::ColumnFamilyHandle* snapshot() { return handles_[3]; }
  rocksdb::ColumnFamilyHandle* meta() { return handles_[4]; }
  // nullptr for a journal without the index opened as a secondary or read only.
  rocksdb::ColumnFamilyHandle* unit() { return handles_.size() > 5 ? handles_[5] : nullptr; }
  StoreMode mode() const { return mode_; }
  const std::optional<std::string>& damage() const { return damage_; }

  Status write(rocksdb::WriteBatch& batch, bool sync);
  // Writes what only the WAL holds into SST files, so that a reader opening the journal later has
  // no WAL to replay first (a third of a `journal export` of the simulator's journal,
  // BENCHMARKS.md "Export and verify").
  Status flush_memtables();
  Result<std::optional<std::string>> get(rocksdb::ColumnFamilyHandle* cf, const std::string& key);
  // Secondary only: sees what the primary made durable since the last call.
  Status catch_up();
  // Total size of the live SST and WAL files.
  uint64_t disk_bytes();

 private:
  RocksStore() = default;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;  // default, log, time, snapshot, meta[, unit]
  StoreMode mode_ = StoreMode::kPrimary;
  std::optional<std::string> damage_;
};

Error rocks_error(const std::string& what, const rocksdb::Status& s);

}  // namespace koordq::journal
