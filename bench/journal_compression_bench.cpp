// Bytes on disk per record of the `log` column family under several compression settings, the
// same stored values (real records, chained) in a fresh database per setting.
//   BM_LogCompression: one flush writes everything to L0 with `compression`, a forced full
//   compaction rewrites it into the bottommost level with `bottommost_compression`; the CPU side
//   is the flush and compaction time and the speed of a full scan of the compacted data.
//   BM_LogGrowth: the log grows as a journal does (sequential keys, automatic compactions, LSM
//   sizes scaled down so that ≈100 MB spans several levels). Sequential keys make most
//   compactions trivial moves, which RocksDB only does when the compression does not change.
#include <benchmark/benchmark.h>
#include <rocksdb/table_properties.h>
#include <rocksdb/write_batch.h>
#include <sys/resource.h>

#include "bench/journal_bench.hpp"
#include "journal/keys.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::bench {
namespace {

enum class Dictionary { kNone, kBottommost, kEveryLevel };

struct Variant {
  rocksdb::CompressionType compression;
  rocksdb::CompressionType bottommost;
  Dictionary dictionary;
  size_t block_size = 4 << 10;
};

// Indexed by the benchmark's first argument; BENCHMARKS.md names them. RocksDB's default 4 KiB
// blocks unless a block size is given.
constexpr Variant kVariants[] = {
    {rocksdb::kNoCompression, rocksdb::kNoCompression, Dictionary::kNone},    // 0 none
    {rocksdb::kLZ4Compression, rocksdb::kLZ4Compression, Dictionary::kNone},  // 1 LZ4
    {rocksdb::kLZ4Compression, rocksdb::kZSTD, Dictionary::kNone},            // 2 LZ4, ZSTD bottommost
    {rocksdb::kZSTD, rocksdb::kZSTD, Dictionary::kNone},                  // 3 ZSTD (the journal's before 64 KiB blocks)
    {rocksdb::kLZ4Compression, rocksdb::kZSTD, Dictionary::kBottommost},  // 4 as 2, 16 KiB dictionary at the bottom
    {rocksdb::kZSTD, rocksdb::kZSTD, Dictionary::kEveryLevel},            // 5 as 3, 16 KiB dictionary everywhere
    {rocksdb::kZSTD, rocksdb::kZSTD, Dictionary::kNone, 64 << 10},        // 6 as 3, 64 KiB blocks (the journal's)
    {rocksdb::kLZ4Compression, rocksdb::kLZ4Compression, Dictionary::kNone, 64 << 10},  // 7 as 1, 64 KiB blocks
};

// Second argument: 0 the ≈300-byte watch records, 1 realistic ≈7 KB QueueUnit watch records.
const std::vector<std::string>& values_of(int shape) {
  static const auto make = [](int s, uint64_t n) {
    std::vector<std::string> values;
    ChainEncoder encoder("0f8e7d6c-5b4a-4938-8271-605f4e3d2c1b", 1'776'672'000'000'000'000, 100'000);
    for (uint64_t i = 0; i < n; ++i)
      values.push_back(encoder.next(s == 0 ? *small_watch_body(i) : *realistic_watch_body(i)));
    return values;
  };
  static const std::vector<std::string> small = make(0, 300'000);
  static const std::vector<std::string> realistic = make(1, 20'000);
  return shape == 0 ? small : realistic;
}

uint64_t sst_bytes(RawDb& db) {
  uint64_t v = 0;
  db.db().GetIntProperty(db.log(), rocksdb::DB::Properties::kTotalSstFilesSize, &v);
  return v;
}

double seconds_since(int64_t start) {
  return static_cast<double>(now_nanos() - start) / 1e9;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

rocksdb::ColumnFamilyOptions options_of(const Variant& v) {
  auto options = journal_log_options(v.compression, v.bottommost, v.block_size);
  auto with_dictionary = [](rocksdb::CompressionOptions& o) {
    o.enabled = true;
    o.max_dict_bytes = 16 << 10;
    o.zstd_max_train_bytes = 100 * (16 << 10);
  };
  if (v.dictionary == Dictionary::kBottommost) with_dictionary(options.bottommost_compression_opts);
  if (v.dictionary == Dictionary::kEveryLevel) with_dictionary(options.compression_opts);
  return options;
}

// Returns the bytes of the values written.
uint64_t ingest(RawDb& db, const std::vector<std::string>& values) {
  rocksdb::WriteOptions no_wal;
  no_wal.disableWAL = true;
  rocksdb::WriteBatch batch;
  uint64_t value_bytes = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    batch.Put(db.log(), journal::seq_key(i + 1), values[i]);
    value_bytes += values[i].size();
    if (batch.Count() == 1000 || i + 1 == values.size()) {
      check(db.db().Write(no_wal, &batch), "write");
      batch.Clear();
    }
  }
  return value_bytes;
}

void BM_LogCompression(benchmark::State& state) {
  const Variant& v = kVariants[state.range(0)];
  const auto& values = values_of(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    testing::TempDir dir;
    auto options = options_of(v);
    options.write_buffer_size = 1ull << 30;  // everything in one memtable: one measured flush
    options.disable_auto_compactions = true;
    RawDb db(dir / "db", options);
    const uint64_t value_bytes = ingest(db, values);

    int64_t start = now_nanos();
    check(db.db().Flush(rocksdb::FlushOptions(), db.log()), "flush");
    const double flush_s = seconds_since(start);
    const uint64_t flushed = sst_bytes(db);

    start = now_nanos();
    rocksdb::CompactRangeOptions full;
    full.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    check(db.db().CompactRange(full, db.log(), nullptr, nullptr), "compact");
    const double compact_s = seconds_since(start);
    const uint64_t compacted = sst_bytes(db);

    start = now_nanos();
    std::unique_ptr<rocksdb::Iterator> it(db.db().NewIterator(rocksdb::ReadOptions(), db.log()));
    uint64_t scanned = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) scanned += it->value().size();
    check(it->status(), "scan");
    const double scan_s = seconds_since(start);
    it.reset();
    if (scanned != value_bytes) state.SkipWithError("scan lost records");

    const auto n = static_cast<double>(values.size());
    state.counters["records"] = n;
    state.counters["value_B"] = static_cast<double>(value_bytes) / n;
    state.counters["L0_B"] = static_cast<double>(flushed) / n;
    state.counters["bottom_B"] = static_cast<double>(compacted) / n;
    state.counters["flush_us/rec"] = flush_s * 1e6 / n;
    state.counters["compact_us/rec"] = compact_s * 1e6 / n;
    state.counters["scan_krec/s"] = n / scan_s / 1e3;
  }
}
BENCHMARK(BM_LogCompression)
    ->ArgNames({"variant", "shape"})
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

void BM_LogGrowth(benchmark::State& state) {
  const Variant& v = kVariants[state.range(0)];
  const auto& values = values_of(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    testing::TempDir dir;
    auto options = options_of(v);
    options.write_buffer_size = 4 << 20;
    options.target_file_size_base = 4 << 20;
    options.max_bytes_for_level_base = 16 << 20;
    RawDb db(dir / "db", options);
    const double cpu_start = cpu_seconds();
    ingest(db, values);
    check(db.db().Flush(rocksdb::FlushOptions(), db.log()), "flush");
    wait_for_background_work(db.db(), {db.log()});
    const double cpu_s = cpu_seconds() - cpu_start;

    rocksdb::ColumnFamilyMetaData meta;
    db.db().GetColumnFamilyMetaData(db.log(), &meta);
    uint64_t last_level = 0;
    for (const auto& level : meta.levels) {
      if (level.size > 0) last_level = level.size;
    }
    rocksdb::TablePropertiesCollection tables;
    check(db.db().GetPropertiesOfAllTables(db.log(), &tables), "table properties");
    uint64_t data = 0, zstd = 0;
    for (const auto& [name, props] : tables) {
      data += props->data_size;
      if (props->compression_name == "ZSTD") zstd += props->data_size;
    }

    const auto n = static_cast<double>(values.size());
    state.counters["records"] = n;
    state.counters["disk_B"] = static_cast<double>(meta.size) / n;
    state.counters["last_level_pct"] = 100.0 * static_cast<double>(last_level) / static_cast<double>(meta.size);
    state.counters["zstd_pct"] = data == 0 ? 0 : 100.0 * static_cast<double>(zstd) / static_cast<double>(data);
    state.counters["cpu_us/rec"] = cpu_s * 1e6 / n;
  }
}
BENCHMARK(BM_LogGrowth)
    ->ArgNames({"variant", "shape"})
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace
}  // namespace koordq::bench
