#include "journal/rocks_store.hpp"

#include <rocksdb/options.h>
#include <rocksdb/table.h>

namespace koordq::journal {
namespace {

rocksdb::ColumnFamilyOptions log_options() {
  rocksdb::ColumnFamilyOptions cf;
  // Records are small and full of repeated names; LZ4 costs little on the write path and ZSTD
  // squeezes the cold levels (see BENCHMARKS.md, journal compression).
  cf.compression = rocksdb::kLZ4Compression;
  cf.bottommost_compression = rocksdb::kZSTD;
  cf.write_buffer_size = 64 << 20;
  return cf;
}

rocksdb::ColumnFamilyOptions plain_options() {
  rocksdb::ColumnFamilyOptions cf;
  cf.compression = rocksdb::kLZ4Compression;
  return cf;
}

std::vector<rocksdb::ColumnFamilyDescriptor> descriptors() {
  return {
      {rocksdb::kDefaultColumnFamilyName, plain_options()},
      {"log", log_options()},
      {"time", plain_options()},
      {"snapshot", plain_options()},
      {"meta", plain_options()},
  };
}

rocksdb::DBOptions db_options(StoreMode mode) {
  rocksdb::DBOptions o;
  o.create_if_missing = mode == StoreMode::kPrimary;
  o.create_missing_column_families = mode == StoreMode::kPrimary;
  // A WAL record torn by a crash was never synced, hence never acknowledged: recover to it.
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  o.paranoid_checks = true;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.keep_log_file_num = 3;
  o.max_background_jobs = 2;
  if (mode == StoreMode::kSecondary) o.max_open_files = -1;  // required by secondary instances
  return o;
}

}  // namespace

Error rocks_error(const std::string& what, const rocksdb::Status& s) {
  return make_error(what + ": " + s.ToString());
}

Result<std::unique_ptr<RocksStore>> RocksStore::open(const std::filesystem::path& db_dir, StoreMode mode,
                                                     const std::filesystem::path& secondary_dir) {
  std::unique_ptr<RocksStore> store(new RocksStore());
  store->mode_ = mode;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  if (mode == StoreMode::kPrimary) {
    s = rocksdb::DB::Open(db_options(mode), db_dir.string(), descriptors(), &store->handles_, &raw);
  } else {
    s = rocksdb::DB::OpenAsSecondary(db_options(mode), db_dir.string(), secondary_dir.string(), descriptors(),
                                     &store->handles_, &raw);
  }
  if (!s.ok()) return rocks_error("cannot open journal database " + db_dir.string(), s);
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
  db_->GetIntProperty(rocksdb::DB::Properties::kLiveSstFilesSize, &sst);
  rocksdb::VectorLogPtr files;
  if (db_->GetSortedWalFiles(files).ok()) {
    for (const auto& f : files) wal += f->SizeFileBytes();
  }
  return sst + wal;
}

}  // namespace koordq::journal
