#include "bench/journal_big.hpp"

#include <cstdio>
#include <cstdlib>

#include <rocksdb/write_batch.h>

#include "bench/journal_bench.hpp"
#include "journal/keys.hpp"

namespace koordq::bench {
namespace {

constexpr int64_t kFirstTime = 1'776'672'000'000'000'000;  // 2026-04-20T08:00:00Z
constexpr int64_t kTimeStep = 100'000;                     // 10k records/s
constexpr uint64_t kBatchRecords = 10'000;

uint64_t big_records() {
  const char* v = std::getenv("KOORDQ_BENCH_BIG_RECORDS");
  return v ? std::strtoull(v, nullptr, 10) : 10'000'000;
}

uint64_t int_property(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf, const std::string& name) {
  uint64_t v = 0;
  db.GetIntProperty(cf, name, &v);
  return v;
}

void settle(journal::RocksStore& store) {
  rocksdb::FlushOptions flush;
  flush.wait = true;
  check(store.db().Flush(flush, {store.log(), store.time()}), "flush");
  wait_for_background_work(store.db(), {store.log(), store.time()});
}

std::unique_ptr<BigJournal> build() {
  auto big = std::make_unique<BigJournal>();
  journal::JournalOptions options;
  options.dir = big->dir / "journal";
  auto opened = journal::Journal::open(options);
  if (!opened.ok()) throw std::runtime_error(opened.message());
  big->journal = std::move(opened).value();
  auto& store = big->journal->store();

  const int64_t start = now_nanos();
  const uint64_t n = big_records();
  ChainEncoder encoder(big->journal->uuid(), kFirstTime, kTimeStep);
  rocksdb::WriteOptions no_wal;
  no_wal.disableWAL = true;
  rocksdb::WriteBatch batch;
  for (uint64_t i = 0; i < n; ++i) {
    const std::string value = encoder.next(*small_watch_body(i));
    batch.Put(store.log(), journal::seq_key(encoder.seq()), value);
    batch.Put(store.time(), journal::time_key(encoder.time(), encoder.seq()), rocksdb::Slice());
    if (batch.Count() >= 2 * kBatchRecords || i + 1 == n) {
      check(store.db().Write(no_wal, &batch), "ingest");
      batch.Clear();
    }
  }
  const int64_t ingested = now_nanos();
  settle(store);
  big->records = n;
  big->first_time = kFirstTime;
  big->last_time = encoder.time();
  // RocksStore::disk_bytes() reads the default column family's SST size only.
  const auto log_bytes = int_property(store.db(), store.log(), rocksdb::DB::Properties::kLiveSstFilesSize);
  const auto time_bytes = int_property(store.db(), store.time(), rocksdb::DB::Properties::kLiveSstFilesSize);
  std::fprintf(stderr,
               "big journal: %llu records ingested in %.1f s, settled in %.1f s; SST: log %.0f MB, time %.0f MB\n",
               static_cast<unsigned long long>(n), static_cast<double>(ingested - start) / 1e9,
               static_cast<double>(now_nanos() - ingested) / 1e9, static_cast<double>(log_bytes) / 1e6,
               static_cast<double>(time_bytes) / 1e6);
  return big;
}

}  // namespace

BigJournal& big_journal() {
  static std::unique_ptr<BigJournal> big = build();
  return *big;
}

}  // namespace koordq::bench
