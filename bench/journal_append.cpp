#include "bench/journal_append.hpp"

#include <rocksdb/write_batch.h>

#include "journal/head_file.hpp"
#include "journal/keys.hpp"

namespace koordq::bench {

namespace {
constexpr int64_t kWarmupNanos = 300'000'000;
}  // namespace

Window window_from_now(int64_t measure_nanos) {
  const int64_t start = now_nanos() + kWarmupNanos;
  return {start, start + measure_nanos};
}

Phase summarize(const std::vector<std::vector<Sample>>& per_producer, const Window& w) {
  Phase p;
  for (const auto& samples : per_producer) {
    for (const auto& s : samples) {
      if (s.done >= w.start && s.done < w.end) p.latencies.push_back(s.latency);
    }
  }
  p.records_per_second = static_cast<double>(p.latencies.size()) * 1e9 / static_cast<double>(w.end - w.start);
  return p;
}

HeadCompanion::HeadCompanion(const std::filesystem::path& head) {
  if (head.empty()) return;
  thread_ = std::thread([this, head] {
    for (uint64_t seq = 1; !stop_; ++seq) journal::write_head_file(head, {seq, {}}).ok();
  });
}

HeadCompanion::~HeadCompanion() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void raw_write(Sides& s, const rocksdb::WriteOptions& sync) {
  const uint64_t seq = s.raw_seq.fetch_add(1) + 1;
  rocksdb::WriteBatch batch;
  batch.Put(s.raw.log(), journal::seq_key(seq), s.values[seq % s.values.size()]);
  batch.Put(s.raw.time(), journal::time_key(static_cast<int64_t>(seq) * 1000, seq), rocksdb::Slice());
  if (!s.raw.db().Write(sync, &batch).ok()) s.failed = true;
}

Fixture::Fixture(bool companion, journal::WriterOptions writer) {
  journal::JournalOptions options;
  options.dir = dir / "journal";
  options.writer = writer;
  auto opened = journal::Journal::open(options);
  if (!opened.ok()) throw std::runtime_error(opened.message());
  journal = std::move(opened).value();
  raw = std::make_unique<RawDb>(dir / "raw");
  sides = std::unique_ptr<Sides>(new Sides{*journal, *raw, {}, companion ? dir / "HEAD" : std::filesystem::path()});
  ChainEncoder encoder(journal->uuid(), 0, 1000);
  for (uint64_t i = 0; i < 4096; ++i) sides->values.push_back(encoder.next(*small_watch_body(i)));
  journal->writer().set_sync_observer([this](size_t, int64_t nanos) {
    std::lock_guard lock(sync_mu);
    sync_nanos.push_back(nanos);
  });
}

void Fixture::quiesce() {
  auto& store = journal->store();
  wait_for_background_work(store.db(), {store.log(), store.time()});
  wait_for_background_work(raw->db(), {raw->log(), raw->time()});
}

Percentiles Fixture::sync_times() {
  std::lock_guard lock(sync_mu);
  return percentiles(sync_nanos);
}

void Pooled::add(Phase p) {
  rates.push_back(p.records_per_second);
  latencies.insert(latencies.end(), p.latencies.begin(), p.latencies.end());
  pacer_lags.insert(pacer_lags.end(), p.pacer_lags.begin(), p.pacer_lags.end());
}

void report(benchmark::State& state, const char* side, Pooled& pooled, bool tail) {
  const std::string prefix(side);
  const Percentiles p = percentiles(pooled.latencies);
  state.counters[prefix + "_rec/s"] = median(pooled.rates);
  state.counters[prefix + "_p50_us"] = p.p50_us;
  state.counters[prefix + "_p99_us"] = p.p99_us;
  if (tail) {
    state.counters[prefix + "_p999_us"] = p.p999_us;
    state.counters[prefix + "_max_us"] = p.max_us;
  }
}

double group_size(const journal::WriterStats& before, const journal::WriterStats& after) {
  const auto groups = after.groups - before.groups;
  return groups == 0 ? 0 : static_cast<double>(after.appended_records - before.appended_records) / groups;
}

}  // namespace koordq::bench
