// Shared pieces of the journal benchmarks: the benchmark records, a chain encoder producing the
// stored bytes the writer would produce, a plain RocksDB with the journal's column families for
// the raw side of every comparison, and latency percentiles.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <rocksdb/db.h>

#include "journal/capnp_record_body.hpp"
#include "journal/hash_chain.hpp"
#include "journal/rocks_store.hpp"

namespace koordq::bench {

// The interleaved comparisons run each side once per round, this many rounds.
inline constexpr int kRounds = 3;

inline int64_t now_nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The ≈300-byte record: a watch MODIFIED of a QueueUnit carrying namespace, name, uid,
// resourceVersion and a short redacted raw JSON (≈110 bytes of text); `i` varies the texts.
std::unique_ptr<journal::CapnpRecordBody> small_watch_body(uint64_t i);
// A realistic watch record (≈7 KB): the normalized QueueUnit of tests/support/model_samples.hpp
// and the API server's JSON of tests/fixtures/queue_unit_watch_event.json, names varied by `i`.
std::unique_ptr<journal::CapnpRecordBody> realistic_watch_body(uint64_t i);

// Numbers, times and chains bodies exactly as GroupCommitWriter::write_group does.
class ChainEncoder {
 public:
  explicit ChainEncoder(const std::string& journal_uuid, int64_t first_time, int64_t time_step);
  // The stored value (B ‖ hash) of the next record.
  std::string next(const journal::RecordBody& body);
  uint64_t seq() const { return seq_; }
  int64_t time() const { return time_; }

 private:
  journal::Hash prev_;
  uint64_t seq_ = 0;
  int64_t time_;
  int64_t step_;
};

// `log` CF options as journal/rocks_store.cpp sets them, with the compression and the block size
// left to the caller (4 KiB is RocksDB's default).
rocksdb::ColumnFamilyOptions journal_log_options(rocksdb::CompressionType compression,
                                                 rocksdb::CompressionType bottommost, size_t block_size);

// A plain RocksDB holding `log` and `time` column families, options as the journal's.
class RawDb {
 public:
  explicit RawDb(const std::filesystem::path& dir,
                 rocksdb::ColumnFamilyOptions log_options = journal::log_family_options());
  ~RawDb();
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;

  rocksdb::DB& db() { return *db_; }
  rocksdb::ColumnFamilyHandle* log() { return handles_[1]; }
  rocksdb::ColumnFamilyHandle* time() { return handles_[2]; }

 private:
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

void check(const rocksdb::Status& s, const char* what);
// Waits until no flush or compaction runs or is pending for `cfs`.
void wait_for_background_work(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& cfs);

struct Percentiles {
  double mean_us = 0;
  double p50_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;
};
// Sorts `nanos`.
Percentiles percentiles(std::vector<int64_t>& nanos);
double median(std::vector<double> values);

}  // namespace koordq::bench
