// Rounds and decisions per second on Kueue-like shapes (BENCHMARKS.md, "Decision core"): the
// plain Scheduler's decide() alone and whole rounds, the DecisionEngine (CAF actors) with 1 and 2
// threads, and journaled decisions (decide, round record, durable append to a real Journal,
// apply_round), against raw RocksDB writing the same round records with sync=true.
//
// Every run plays the same episode: from the shape's state at kT0, `rounds` rounds one suspend
// interval (10 ms) apart; each Queue attempts its best waiting unit once per round (admitted or
// failed into backoff). One benchmark iteration is one round; the state is rebuilt (untimed)
// after each episode.
#include <filesystem>
#include <future>
#include <map>
#include <stdexcept>

#include <benchmark/benchmark.h>
#include <rocksdb/db.h>

#include "actors/runtime/decision_engine.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "bench/decision_shape.hpp"
#include "journal/journal.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::bench {
namespace {

struct ShapeCase {
  Shape shape;
  int rounds;  // rounds per episode
};

// Arg 0: the 1k-queue shape (1,000 queues, 100 trees, 50,000 units); 1: ten times that.
ShapeCase shape_case(int64_t arg) {
  if (arg == 0) return {{1000, 100, 50'000}, 40};
  return {{10'000, 1000, 500'000}, 10};
}

const actors::Scheduler& base_state(int64_t arg) {
  static std::map<int64_t, std::unique_ptr<actors::Scheduler>> cache;
  auto& slot = cache[arg];
  if (!slot) slot = std::make_unique<actors::Scheduler>(build_scheduler(shape_case(arg).shape));
  return *slot;
}

void label(benchmark::State& state, const ShapeCase& c) {
  state.SetLabel(std::to_string(c.shape.queues) + " queues/" + std::to_string(c.shape.trees) + " trees/" +
                 std::to_string(c.shape.units) + " units");
}

void report(benchmark::State& state, int64_t rounds, int64_t decisions) {
  state.counters["rounds/s"] = benchmark::Counter(static_cast<double>(rounds), benchmark::Counter::kIsRate);
  state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["decisions/round"] = static_cast<double>(decisions) / static_cast<double>(rounds);
}

// decide() alone on the plain Scheduler; advancing time and apply_round are not timed.
void BM_PlainDecide(benchmark::State& state) {
  const ShapeCase c = shape_case(state.range(0));
  const actors::Scheduler& base = base_state(state.range(0));
  auto s = std::make_unique<actors::Scheduler>(base);
  int round = 0;
  uint64_t seq = 0;
  int64_t decisions = 0, rounds = 0;
  for (auto _ : state) {
    state.PauseTiming();
    if (round == c.rounds) {
      s.reset();
      s = std::make_unique<actors::Scheduler>(base);
      round = 0;
    }
    s->advance_to(kT0 + (++round) * kRoundStep);
    state.ResumeTiming();
    auto ds = s->decide();
    state.PauseTiming();
    decisions += static_cast<int64_t>(ds.size());
    ++rounds;
    s->apply_round(++seq, ds);
    state.ResumeTiming();
  }
  report(state, rounds, decisions);
  label(state, c);
  s.reset();
}

// A whole round on the plain Scheduler: advance time, decide, apply the round.
void BM_PlainRound(benchmark::State& state) {
  const ShapeCase c = shape_case(state.range(0));
  const actors::Scheduler& base = base_state(state.range(0));
  auto s = std::make_unique<actors::Scheduler>(base);
  int round = 0;
  uint64_t seq = 0;
  int64_t decisions = 0, rounds = 0;
  for (auto _ : state) {
    if (round == c.rounds) {
      state.PauseTiming();
      s.reset();
      s = std::make_unique<actors::Scheduler>(base);
      round = 0;
      state.ResumeTiming();
    }
    s->advance_to(kT0 + (++round) * kRoundStep);
    auto ds = s->decide();
    decisions += static_cast<int64_t>(ds.size());
    ++rounds;
    s->apply_round(++seq, ds);
  }
  report(state, rounds, decisions);
  label(state, c);
  s.reset();
}

// The DecisionEngine with range(1) actor threads: per round a `tick` record (time advances),
// decide(), then the `round` record, all through the engine as `serve` drives it.
void BM_EngineRound(benchmark::State& state) {
  const ShapeCase c = shape_case(state.range(0));
  const actors::Scheduler& base = base_state(state.range(0));
  const auto threads = static_cast<size_t>(state.range(1));
  auto fresh = [&] {
    return std::make_unique<actors::runtime::DecisionEngine>(actors::runtime::EngineOptions{threads, {}}, base);
  };
  auto engine = fresh();
  auto chain = std::make_unique<testing::RecordChain>();
  int round = 0;
  int64_t decisions = 0, rounds = 0;
  for (auto _ : state) {
    if (round == c.rounds) {
      state.PauseTiming();
      engine.reset();
      engine = fresh();
      chain = std::make_unique<testing::RecordChain>();
      round = 0;
      state.ResumeTiming();
    }
    const int64_t t = kT0 + (++round) * kRoundStep;
    std::vector<journal::StoredRecord> tick;
    tick.push_back(chain->append(*actors::make_tick_body(), t));
    if (!engine->apply(std::move(tick)).ok()) throw std::runtime_error("tick not applied");
    auto ds = engine->decide();
    if (!ds.ok()) throw std::runtime_error(ds.message());
    decisions += static_cast<int64_t>(ds->size());
    ++rounds;
    std::vector<journal::StoredRecord> round_record;
    round_record.push_back(chain->append(*actors::make_round_body(chain->last_seq(), *ds), t));
    if (!engine->apply(std::move(round_record)).ok()) throw std::runtime_error("round not applied");
  }
  report(state, rounds, decisions);
  label(state, c);
  state.counters["threads"] = static_cast<double>(threads);
  engine.reset();
}

// Appends `body` and waits for its acknowledgement (the group's fsync).
void append_durable(journal::Journal& j, std::unique_ptr<journal::RecordBody> body) {
  std::promise<bool> done;
  j.writer().append(std::move(body), [&](const Result<journal::AppendedRecord>& r) { done.set_value(r.ok()); });
  if (!done.get_future().get()) throw std::runtime_error("append failed");
}

// Journaled decisions: decide, make_round_body, append to a real Journal (temp dir, synced
// WriteBatch) and wait until durable, apply_round. One round record per round, one sync each.
void BM_JournaledRound(benchmark::State& state) {
  const ShapeCase c = shape_case(state.range(0));
  const actors::Scheduler& base = base_state(state.range(0));
  testing::TempDir dir;
  journal::JournalOptions options;
  options.dir = dir / "journal";
  auto opened = journal::Journal::open(options);
  if (!opened.ok()) throw std::runtime_error(opened.message());
  auto j = std::move(opened).value();
  auto s = std::make_unique<actors::Scheduler>(base);
  int round = 0;
  uint64_t seq = 0;
  int64_t decisions = 0, rounds = 0, bytes = 0;
  for (auto _ : state) {
    if (round == c.rounds) {
      state.PauseTiming();
      s.reset();
      s = std::make_unique<actors::Scheduler>(base);
      round = 0;
      state.ResumeTiming();
    }
    s->advance_to(kT0 + (++round) * kRoundStep);
    auto ds = s->decide();
    auto body = actors::make_round_body(seq, ds);
    append_durable(*j, std::move(body));
    decisions += static_cast<int64_t>(ds.size());
    ++rounds;
    s->apply_round(++seq, ds);
  }
  bytes = static_cast<int64_t>(j->writer().stats().appended_bytes);
  report(state, rounds, decisions);
  state.counters["bytes/round"] = static_cast<double>(bytes) / static_cast<double>(rounds);
  label(state, c);
  s.reset();
  j.reset();
}

// The stored values (B ‖ hash) of the episode's round records, and their decision counts.
struct EpisodeRecords {
  std::vector<std::string> values;
  std::vector<int64_t> decisions;
};

const EpisodeRecords& episode_records(int64_t arg) {
  static std::map<int64_t, EpisodeRecords> cache;
  auto [it, fresh] = cache.try_emplace(arg);
  if (!fresh) return it->second;
  const ShapeCase c = shape_case(arg);
  actors::Scheduler s(base_state(arg));
  testing::RecordChain chain;
  for (int round = 1; round <= c.rounds; ++round) {
    const int64_t t = kT0 + round * kRoundStep;
    s.advance_to(t);
    auto ds = s.decide();
    auto record = chain.append(*actors::make_round_body(chain.last_seq(), ds), t);
    it->second.values.emplace_back(record.stored_value());
    it->second.decisions.push_back(static_cast<int64_t>(ds.size()));
    s.apply_round(chain.last_seq(), ds);
  }
  return it->second;
}

// Raw RocksDB: the same round records' stored bytes, one synced Put each under an 8-byte key.
void BM_RawRocksRoundWrite(benchmark::State& state) {
  const ShapeCase c = shape_case(state.range(0));
  const EpisodeRecords& episode = episode_records(state.range(0));
  testing::TempDir dir;
  rocksdb::Options o;
  o.create_if_missing = true;
  o.compression = rocksdb::kLZ4Compression;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  rocksdb::DB* raw = nullptr;
  if (!rocksdb::DB::Open(o, (dir / "raw").string(), &raw).ok()) throw std::runtime_error("open raw RocksDB");
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions sync;
  sync.sync = true;
  uint64_t key = 0;
  size_t i = 0;
  int64_t decisions = 0, rounds = 0, bytes = 0;
  for (auto _ : state) {
    const std::string& value = episode.values[i];
    ++key;
    char k[8];
    for (int b = 0; b < 8; ++b) k[b] = static_cast<char>(key >> (56 - 8 * b));
    if (!db->Put(sync, rocksdb::Slice(k, 8), value).ok()) throw std::runtime_error("raw put");
    decisions += episode.decisions[i];
    bytes += static_cast<int64_t>(value.size());
    ++rounds;
    i = (i + 1) % episode.values.size();
  }
  report(state, rounds, decisions);
  state.counters["bytes/round"] = static_cast<double>(bytes) / static_cast<double>(rounds);
  label(state, c);
  db->Close().PermitUncheckedError();
}

// Shape 0 runs each episode twice per repetition (80 rounds); shape 1 once (10 rounds).
BENCHMARK(BM_PlainDecide)->Arg(0)->Iterations(80)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainRound)->Arg(0)->Iterations(80)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EngineRound)->Args({0, 1})->Args({0, 2})->Iterations(80)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JournaledRound)->Arg(0)->Iterations(80)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawRocksRoundWrite)->Arg(0)->Iterations(80)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK(BM_PlainDecide)->Arg(1)->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainRound)->Arg(1)->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EngineRound)->Args({1, 1})->Args({1, 2})->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JournaledRound)->Arg(1)->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawRocksRoundWrite)->Arg(1)->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace koordq::bench
BENCHMARK_MAIN();
