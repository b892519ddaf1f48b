#include "journal/rocks_store.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <thread>

#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>

#include "base/log.hpp"

namespace koordq::journal {
namespace {

// RocksDB's own log goes to koordq's log at --v=2 instead of a LOG file beside the database: once
// a write to that file fails on a full disk, the next log line makes Debian's RocksDB (built with
// assertions) abort (WritableFileWriter::AssertFalseAndGetStatusForPrevError). Journal errors
// that matter are logged by the journal's callers at level 0 (behaviour.md §19).
class RocksLogger final : public rocksdb::Logger {
 public:
  RocksLogger() : rocksdb::Logger(rocksdb::InfoLogLevel::WARN_LEVEL) {}
  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override { Logv(rocksdb::InfoLogLevel::INFO_LEVEL, format, ap); }
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    if (level < GetInfoLogLevel() || level == rocksdb::InfoLogLevel::HEADER_LEVEL || !base::log_enabled(2)) return;
    char message[1024];
    std::vsnprintf(message, sizeof message, format, ap);
    KQ_V(2)("rocksdb: {}", message);
  }
};

rocksdb::ColumnFamilyOptions plain_options() {
  rocksdb::ColumnFamilyOptions cf;
  cf.compression = rocksdb::kLZ4Compression;
  return cf;
}

constexpr char kUnitIndexFamily[] = "unit";

// A primary creates every family; a secondary or read-only instance can open only those that
// exist, so the index is left out of a journal written before it.
std::vector<rocksdb::ColumnFamilyDescriptor> descriptors(const std::filesystem::path& db_dir, StoreMode mode) {
  std::vector<rocksdb::ColumnFamilyDescriptor> d = {
      {rocksdb::kDefaultColumnFamilyName, plain_options()},
      {"log", log_family_options()},
      {"time", plain_options()},
      {"snapshot", plain_options()},
      {"meta", plain_options()},
  };
  bool with_index = mode == StoreMode::kPrimary;
  if (!with_index) {
    std::vector<std::string> existing;
    if (rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), db_dir.string(), &existing).ok()) {
      with_index = std::find(existing.begin(), existing.end(), kUnitIndexFamily) != existing.end();
    }
  }
  if (with_index) d.push_back({kUnitIndexFamily, plain_options()});
  return d;
}

// The read-only fallback of a damaged primary: the families it has.
std::vector<rocksdb::ColumnFamilyDescriptor> existing_descriptors(const std::filesystem::path& db_dir) {
  return descriptors(db_dir, StoreMode::kSecondary);
}

rocksdb::DBOptions db_options(StoreMode mode) {
  rocksdb::DBOptions o;
  o.create_if_missing = mode == StoreMode::kPrimary;
  o.create_missing_column_families = mode == StoreMode::kPrimary;
  // A WAL record torn by a crash was never synced, hence never acknowledged: recover to it.
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  o.paranoid_checks = true;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.info_log = std::make_shared<RocksLogger>();
  o.keep_log_file_num = 3;
  o.max_background_jobs = 2;
  // RocksDB keeps a WAL file until every family with data in it has flushed; the small families
  // (time, unit, meta, snapshot) would otherwise keep the log family's WAL files alive up to
  // RocksDB's default limit, gigabytes that every start and every reader replays. Past this size
  // the families holding the oldest WAL file are flushed.
  o.max_total_wal_size = 128 << 20;
  if (mode == StoreMode::kSecondary) o.max_open_files = -1;  // required by secondary instances
  // With max_open_files = -1 every table file is opened and checked at open, by RocksDB's default of
  // 16 threads: on a machine of two cores that took a reader's open (every `koordq at`) 64-250 ms
  // for 168 files, against 49-75 ms with as many threads as cores (BENCHMARKS.md, "Opening the
  // journal with as many threads as cores").
  o.max_file_opening_threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 16U));
  return o;
}

}  // namespace

rocksdb::ColumnFamilyOptions log_family_options() {
  rocksdb::ColumnFamilyOptions cf;
  // ZSTD at every level: as small as LZ4-then-ZSTD and cheaper, because sequential keys let
  // RocksDB move files down the levels without rewriting them only when the compression stays
  // the same (BENCHMARKS.md, journal compression).
  cf.compression = rocksdb::kZSTD;
  cf.write_buffer_size = 64 << 20;
  // 64 KiB blocks instead of RocksDB's 4 KiB: consecutive records repeat each other, which ZSTD
  // finds only within a block, and every block costs one decompression call. On a simulator
  // journal: 2.4x smaller, scans 2.8x faster, flushes 2.9x faster (BENCHMARKS.md, "Block size").
  // A point read decompresses one block (tens of microseconds); the journal reads mostly in order.
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 64 << 10;
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return cf;
}

Error rocks_error(const std::string& what, const rocksdb::Status& s) {
  return make_error(what + ": " + s.ToString());
}

Result<std::unique_ptr<RocksStore>> RocksStore::open(const std::filesystem::path& db_dir, StoreMode mode,
                                                     const std::filesystem::path& secondary_dir, bool buffered_wal) {
  std::unique_ptr<RocksStore> store(new RocksStore());
  store->mode_ = mode;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  if (mode == StoreMode::kPrimary) {
    rocksdb::DBOptions options = db_options(mode);
    options.manual_wal_flush = buffered_wal;
    s = rocksdb::DB::Open(options, db_dir.string(), descriptors(db_dir, mode), &store->handles_, &raw);
  } else {
    s = rocksdb::DB::OpenAsSecondary(db_options(mode), db_dir.string(), secondary_dir.string(),
                                     descriptors(db_dir, mode), &store->handles_, &raw);
  }
  if (s.IsCorruption() && mode == StoreMode::kPrimary) {
    store->handles_.clear();
    rocksdb::DBOptions lenient = db_options(mode);
    lenient.paranoid_checks = false;
    if (rocksdb::DB::OpenForReadOnly(lenient, db_dir.string(), existing_descriptors(db_dir), &store->handles_, &raw)
            .ok()) {
      store->damage_ = "RocksDB refuses the database: " + s.ToString();
      store->db_.reset(raw);
      return store;
    }
  }
  if (!s.ok()) return rocks_error("cannot open journal database " + db_dir.string(), s);
  store->db_.reset(raw);
  return store;
}

Result<std::unique_ptr<RocksStore>> RocksStore::open_read_only(const std::filesystem::path& db_dir) {
  std::unique_ptr<RocksStore> store(new RocksStore());
  store->mode_ = StoreMode::kSecondary;
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status s = rocksdb::DB::OpenForReadOnly(db_options(StoreMode::kSecondary), db_dir.string(),
                                                         existing_descriptors(db_dir), &store->handles_, &raw);
  if (!s.ok()) return rocks_error("cannot read journal database " + db_dir.string(), s);
  store->db_.reset(raw);
  return store;
}

RocksStore::~RocksStore() {
  if (!db_) return;
  for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
  db_->Close().PermitUncheckedError();
}

Status RocksStore::write(rocksdb::WriteBatch& batch, bool sync) {
  rocksdb::WriteOptions wo;
  wo.sync = sync;
  const auto s = db_->Write(wo, &batch);
  if (!s.ok()) return rocks_error("journal write failed", s);
  return ok_status();
}

Status RocksStore::flush_memtables() {
  const auto s = db_->Flush(rocksdb::FlushOptions(), handles_);
  if (!s.ok()) return rocks_error("journal flush failed", s);
  return ok_status();
}

Result<std::optional<std::string>> RocksStore::get(rocksdb::ColumnFamilyHandle* cf, const std::string& key) {
  std::string value;
  const auto s = db_->Get(rocksdb::ReadOptions(), cf, key, &value);
  if (s.IsNotFound()) return std::optional<std::string>{};
  if (!s.ok()) return rocks_error("journal read failed", s);
  return std::optional<std::string>{std::move(value)};
}

Status RocksStore::catch_up() {
  const auto s = db_->TryCatchUpWithPrimary();
  if (!s.ok()) return rocks_error("cannot catch up with the journal's writer", s);
  return ok_status();
}

uint64_t RocksStore::disk_bytes() {
  uint64_t sst = 0, wal = 0;
  db_->GetAggregatedIntProperty(rocksdb::DB::Properties::kLiveSstFilesSize, &sst);
  rocksdb::VectorLogPtr files;
  if (db_->GetSortedWalFiles(files).ok()) {
    for (const auto& f : files) wal += f->SizeFileBytes();
  }
  return sst + wal;
}

}  // namespace koordq::journal
