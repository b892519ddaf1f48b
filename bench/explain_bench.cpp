// `koordq explain` of one unit in a big journal (default 10M records, KOORDQ_BENCH_EXPLAIN_RECORDS):
// what the command runs (plan_story from the per-unit index, then fold_story: the state restored
// before the unit's first record, its stretch folded, long gaps restored from snapshots), next to
// the raw RocksDB reads of the same records (index prefix seek, the snapshot before the first
// record, the records of the stretch) in the same run.
//
// The journal is generated in process, a real decision journal: 100 queues under one quota tree,
// one unit arriving every 100 ms with a log-uniform run time between 5 s and 40 min (about half
// the quota in use, few units waiting), each arrival followed by the decide round of the live
// state and the outcome of every admission, finished units deleted, a snapshot every 20,000
// records (serve's default) indexed and anchored to the chain as serve's are. Records go to the
// journal's own store in large WriteBatches, indexed as the writer indexes them. With
// KOORDQ_BENCH_EXPLAIN_JOURNAL=DIR it is written there and kept (a later run reuses it, and
// replay_bench's time-travel rows can read DIR/journal). A DIR kept from before 2026-12-07 has
// snapshots without their index and anchors, which every lookup then searches for: delete it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>

#include <benchmark/benchmark.h>
#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>

#include "actors/core/scheduler.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_snapshot.hpp"
#include "bench/latency_counters.hpp"
#include "journal/journal.hpp"
#include "journal/keys.hpp"
#include "journal/snapshot_anchor.hpp"
#include "journal/unit_index.hpp"
#include "journal/watch_record.hpp"
#include "replay/explain.hpp"
#include "replay/explain_fold.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::bench {
namespace {

using testing::kSec;

constexpr int64_t kStart = 1'776'672'000'000'000'000;  // 2026-04-20T08:00:00Z
constexpr int64_t kArrivalEvery = 100'000'000;         // 100 ms
constexpr uint64_t kSnapshotEvery = 20'000;
constexpr int kQueues = 100;

uint64_t wanted_records() {
  const char* v = std::getenv("KOORDQ_BENCH_EXPLAIN_RECORDS");
  return v ? std::strtoull(v, nullptr, 10) : 10'000'000;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct BigDecisionJournal {
  testing::TempDir temp;
  std::filesystem::path dir;  // KOORDQ_BENCH_EXPLAIN_JOURNAL (kept, reused when complete), else temp
  std::unique_ptr<journal::Journal> journal;
  std::vector<std::string> units;  // every unit's name, in arrival order
};

class Generator {
 public:
  explicit Generator(BigDecisionJournal& big) : big_(big), store_(big.journal->store()) {
    prev_ = journal::genesis_hash(big.journal->uuid());
  }

  void run(uint64_t records) {
    watch(schema::WatchEventType::kAdded, testing::quota("root", "", {{"cpu", "100000"}}));
    for (int q = 0; q < kQueues; ++q) {
      const std::string name = "team-" + std::to_string(q);
      watch(schema::WatchEventType::kAdded, testing::quota(name, "root", {{"cpu", "200"}}));
      watch(schema::WatchEventType::kAdded, testing::queue(name));
    }
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> log_run(std::log(5.0), std::log(2400.0));
    std::uniform_int_distribution<int> cpu(1, 4);
    uint64_t n = 0;
    while (seq_ < records) {
      time_ += kArrivalEvery;
      // Finished units first, then the arrival, then the round and the answers to its writes.
      while (!running_.empty() && running_.begin()->first <= time_) {
        watch(schema::WatchEventType::kDeleted, running_.begin()->second);
        running_.erase(running_.begin());
      }
      const std::string name = "job-" + std::to_string(n);
      auto u = testing::unit(name, "team-" + std::to_string(n % kQueues), std::to_string(cpu(rng)));
      u.metadata.namespace_ = "team-" + std::to_string(n % kQueues);
      u.metadata.uid = "uid-" + std::to_string(n);
      const auto run_for = static_cast<int64_t>(std::exp(log_run(rng)) * static_cast<double>(kSec));
      ++n;
      big_.units.push_back(u.metadata.namespace_ + "/" + name);
      watch(schema::WatchEventType::kAdded, u);
      waiting_run_.emplace(u.metadata.namespace_ + "/" + name, std::make_pair(run_for, u));
      round();
    }
    flush();
    std::fprintf(stderr, "explain journal: %llu records, %zu units, %zu snapshots\n",
                 static_cast<unsigned long long>(seq_), big_.units.size(), snapshots_);
  }

 private:
  void watch(schema::WatchEventType type, schema::WatchedObject object) {
    schema::WatchEvent event;
    event.type = type;
    event.object = std::move(object);
    append(*journal::make_watch_body(event, schema::RawObjectMode::kOff));
  }

  void round() {
    const uint64_t basis = seq_;
    const std::vector<actors::Decision> decisions = live_.decide();
    append(*actors::make_round_body(basis, decisions));
    const uint64_t round_seq = seq_;
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      const auto& d = decisions[i];
      const auto* unit = std::get_if<actors::UnitRef>(&d.target);
      if (unit == nullptr || d.kind != actors::DecisionKind::kAdmit) continue;
      actors::Outcome o;
      o.decision_seq = round_seq;
      o.decision_index = i;
      o.write_kind = actors::WriteKind::kStatusPatch;
      o.result = actors::OutcomeResult::kSuccess;
      o.http_code = 200;
      o.target = d.target;
      append(*actors::make_outcome_body(o));
      const auto it = waiting_run_.find(unit->namespace_ + "/" + unit->name);
      if (it != waiting_run_.end()) {
        running_.emplace(time_ + it->second.first, it->second.second);
        waiting_run_.erase(it);
      }
    }
  }

  void append(const journal::RecordBody& body) {
    ++seq_;
    const std::string b = body.canonical_bytes(seq_, time_, prev_);
    prev_ = journal::chain_hash(prev_, b);
    std::string value = b + std::string(journal::as_bytes(prev_));
    journal::index_units(store_, batch_, seq_, b);
    batch_.Put(store_.log(), journal::seq_key(seq_), value);
    batch_.Put(store_.time(), journal::time_key(time_, seq_), rocksdb::Slice());
    auto stored = journal::StoredRecord::parse(value);
    if (!stored.ok()) throw std::runtime_error(stored.message());
    if (Status s = actors::apply_record(live_, *stored); !s.ok()) throw std::runtime_error(s.message());
    if (seq_ % kSnapshotEvery == 0) {
      // Indexed and anchored to the chain as Journal::put_snapshot writes a snapshot of serve's.
      const std::string snapshot = actors::encode_state_snapshot(live_, seq_, time_, big_.journal->uuid());
      batch_.Put(store_.meta(), journal::snapshot_index_key(seq_),
                 journal::render_snapshot_anchor(
                     journal::make_snapshot_anchor(big_.journal->uuid(), seq_, prev_, snapshot, nullptr)));
      batch_.Put(store_.snapshot(), journal::seq_key(seq_), snapshot);
      ++snapshots_;
    }
    if (batch_.Count() >= 40'000) flush();
  }

  void flush() {
    rocksdb::WriteOptions no_wal;
    no_wal.disableWAL = true;
    if (auto s = store_.db().Write(no_wal, &batch_); !s.ok()) throw std::runtime_error(s.ToString());
    batch_.Clear();
  }

  BigDecisionJournal& big_;
  journal::RocksStore& store_;
  rocksdb::WriteBatch batch_;
  actors::Scheduler live_;
  journal::Hash prev_{};
  uint64_t seq_ = 0;
  int64_t time_ = kStart;
  size_t snapshots_ = 0;
  std::multimap<int64_t, schema::QueueUnit> running_;                         // by end time
  std::map<std::string, std::pair<int64_t, schema::QueueUnit>> waiting_run_;  // run time, object
};

BigDecisionJournal& big() {
  static std::unique_ptr<BigDecisionJournal> instance = [] {
    auto b = std::make_unique<BigDecisionJournal>();
    const char* keep = std::getenv("KOORDQ_BENCH_EXPLAIN_JOURNAL");
    b->dir = keep != nullptr ? std::filesystem::path(keep) : b->temp.path();
    // A kept journal names its units in a side file written once it is complete.
    const std::filesystem::path unit_count = b->dir / "unit-count";
    journal::JournalOptions options;
    options.dir = b->dir / "journal";
    auto opened = journal::Journal::open(options);
    if (!opened.ok()) throw std::runtime_error(opened.message());
    b->journal = std::move(opened).value();
    if (std::ifstream in(unit_count); in) {
      size_t n = 0;
      in >> n;
      for (size_t i = 0; i < n; ++i) {
        b->units.push_back("team-" + std::to_string(i % kQueues) + "/job-" + std::to_string(i));
      }
      std::fprintf(stderr, "explain journal: reusing %s (%zu units)\n", b->dir.c_str(), n);
      return b;
    }
    const auto started = std::chrono::steady_clock::now();
    Generator(*b).run(wanted_records());
    rocksdb::FlushOptions flush;
    flush.wait = true;
    auto& store = b->journal->store();
    if (auto s = store.db().Flush(flush, {store.log(), store.time(), store.snapshot(), store.meta(), store.unit()});
        !s.ok()) {
      throw std::runtime_error(s.ToString());
    }
    std::fprintf(stderr, "generated and flushed in %.1f s\n", seconds_since(started));
    if (keep != nullptr) std::ofstream(unit_count) << b->units.size() << "\n";
    return b;
  }();
  return *instance;
}

// The same units for both rows: uniform over every unit, a fixed seed.
const std::vector<std::string>& explained_units() {
  static const std::vector<std::string> picked = [] {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<size_t> pick(0, big().units.size() - 1);
    std::vector<std::string> out(100);
    for (auto& u : out) u = big().units[pick(rng)];
    return out;
  }();
  return picked;
}

std::pair<std::string, std::string> split(const std::string& unit) {
  const auto slash = unit.find('/');
  return {unit.substr(0, slash), unit.substr(slash + 1)};
}

// What `koordq explain NS/NAME` runs, rendering included.
void BM_ExplainIndexed(benchmark::State& state) {
  auto& reader = big().journal->reader();
  std::vector<double> millis;
  uint64_t folded = 0, stretch = 0;
  for (auto _ : state) {
    for (const auto& unit : explained_units()) {
      const auto [ns, name] = split(unit);
      const auto started = std::chrono::steady_clock::now();
      auto plan = replay::plan_story(reader, ns, name, reader.first_seq(), reader.last_seq());
      if (!plan.ok() || !plan->indexed) throw std::runtime_error("no indexed plan for " + unit);
      replay::StoryFolder folder(ns, name);
      uint64_t records = 0;
      const Status s = replay::fold_story(reader, *plan, folder, [&](uint64_t, uint64_t n) { records = n; });
      if (!s.ok()) throw std::runtime_error(s.message());
      if (!folder.latest_uid()) throw std::runtime_error("no story for " + unit);
      const std::string text = replay::render_story_text(folder.story(*folder.latest_uid()));
      benchmark::DoNotOptimize(text.size());
      millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
      folded += records;
      stretch += plan->records();
    }
  }
  state.counters["records_folded"] = static_cast<double>(folded) / static_cast<double>(millis.size());
  state.counters["stretch_records"] = static_cast<double>(stretch) / static_cast<double>(millis.size());
  report_percentiles(state, std::move(millis));
}

// RocksDB alone reading what the indexed explain reads: the unit's index keys, the snapshot
// before its first record, and every record from its first to its last (a superset of what the
// fold reads when it restores across gaps).
void BM_ExplainRawRead(benchmark::State& state) {
  auto& store = big().journal->store();
  std::vector<double> millis;
  for (auto _ : state) {
    for (const auto& unit : explained_units()) {
      const auto started = std::chrono::steady_clock::now();
      const std::string prefix = unit + "/";
      std::vector<uint64_t> seqs;
      std::unique_ptr<rocksdb::Iterator> idx(store.db().NewIterator(rocksdb::ReadOptions(), store.unit()));
      for (idx->Seek(prefix); idx->Valid() && idx->key().starts_with(prefix); idx->Next()) {
        seqs.push_back(*journal::decode_seq_key(std::string_view(idx->key().data() + prefix.size(), 8)));
      }
      if (seqs.empty()) throw std::runtime_error("no index keys for " + unit);
      uint64_t bytes = 0;
      std::unique_ptr<rocksdb::Iterator> snap(store.db().NewIterator(rocksdb::ReadOptions(), store.snapshot()));
      snap->SeekForPrev(journal::seq_key(seqs.front() - 1));
      if (snap->Valid()) bytes += snap->value().size();
      std::unique_ptr<rocksdb::Iterator> log(store.db().NewIterator(rocksdb::ReadOptions(), store.log()));
      const std::string end = journal::seq_key(seqs.back());
      for (log->Seek(journal::seq_key(seqs.front())); log->Valid() && log->key().compare(end) <= 0; log->Next()) {
        bytes += log->value().size();
      }
      benchmark::DoNotOptimize(bytes);
      millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
    }
  }
  report_percentiles(state, std::move(millis));
}

// What the writer adds per record for the index, next to the record's own Puts (its `log` value
// and `time` key): decoding the record for the units it names and one key per unit. Records: a
// unit's watch event (ADDED of a normalized QueueUnit), and a round of `state.range(0)` decisions.
void BM_IndexUnits(benchmark::State& state, bool index) {
  testing::TempDir dir;
  journal::JournalOptions options;
  options.dir = dir / "journal";
  auto opened = journal::Journal::open(options);
  if (!opened.ok()) throw std::runtime_error(opened.message());
  auto& store = (*opened)->store();
  std::string bytes;
  if (state.range(0) == 0) {
    schema::WatchEvent event;
    event.type = schema::WatchEventType::kAdded;
    event.object = testing::unit("job-1", "team-1", "2", 0, 0, "team-1");
    bytes = journal::make_watch_body(event, schema::RawObjectMode::kOff)->canonical_bytes(1, kStart, {});
  } else {
    std::vector<actors::Decision> decisions(static_cast<size_t>(state.range(0)));
    for (size_t i = 0; i < decisions.size(); ++i) {
      decisions[i].kind = actors::DecisionKind::kAdmit;
      decisions[i].target = actors::UnitRef{"team-1", "job-" + std::to_string(i), "uid", "team-1", "team-1"};
    }
    bytes = actors::make_round_body(1, decisions)->canonical_bytes(1, kStart, {});
  }
  const std::string value = bytes + std::string(32, '\0');
  rocksdb::WriteBatch batch;
  uint64_t seq = 0;
  for (auto _ : state) {
    ++seq;
    batch.Put(store.log(), journal::seq_key(seq), value);
    batch.Put(store.time(), journal::time_key(kStart, seq), rocksdb::Slice());
    if (index) journal::index_units(store, batch, seq, bytes);
    if (batch.Count() >= 10'000) batch.Clear();
  }
  state.counters["record_bytes"] = static_cast<double>(value.size());
}
BENCHMARK_CAPTURE(BM_IndexUnits, record_puts_only, false)->Arg(0)->Arg(1)->Arg(20);
BENCHMARK_CAPTURE(BM_IndexUnits, with_index, true)->Arg(0)->Arg(1)->Arg(20);

BENCHMARK(BM_ExplainRawRead)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_ExplainIndexed)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace koordq::bench

BENCHMARK_MAIN();
