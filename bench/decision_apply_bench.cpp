// Applied records per second (BENCHMARKS.md, "Decision core"): a fresh Scheduler folds pre-built
// StoredRecords through apply_record on one core — the watch events that build the 1k-queue
// shape, then rounds (each after a `tick`) and a successful outcome for every status patch —
// against Cap'n Proto alone reading the same records.
#include <cstring>
#include <stdexcept>

#include <benchmark/benchmark.h>
#include <capnp/dynamic.h>
#include <capnp/message.h>
#include <capnp/schema.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "bench/decision_shape.hpp"

namespace koordq::bench {
namespace {

struct Corpus {
  std::vector<journal::StoredRecord> records;
  size_t watch = 0, ticks = 0, rounds = 0, outcomes = 0;
};

// The records of the 1k-queue shape and 40 rounds, folded once while built (the rounds are the
// ones the Scheduler decides on the state the records before them give).
const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    const Shape shape{1000, 100, 50'000};
    testing::RecordChain chain;
    actors::Scheduler s;
    auto add = [&](journal::StoredRecord r) {
      if (!actors::apply_record(s, r).ok()) throw std::runtime_error("record does not apply");
      out.records.push_back(std::move(r));
    };
    for_each_object(shape, [&](const schema::WatchedObject& o) {
      add(watch_record(chain, o, kT0));
      ++out.watch;
    });
    for (int round = 1; round <= 40; ++round) {
      const int64_t t = kT0 + round * kRoundStep;
      add(chain.append(*actors::make_tick_body(), t));
      ++out.ticks;
      const auto ds = s.decide();
      add(chain.append(*actors::make_round_body(chain.last_seq(), ds), t));
      ++out.rounds;
      const uint64_t round_seq = chain.last_seq();
      for (uint32_t i = 0; i < ds.size(); ++i) {
        if (!ds[i].status_patch) continue;
        actors::Outcome o;
        o.decision_seq = round_seq;
        o.decision_index = i;
        o.write_kind = actors::WriteKind::kStatusPatch;
        o.result = actors::OutcomeResult::kSuccess;
        o.http_code = 200;
        o.resource_version = std::to_string(1'000'000 + chain.last_seq());
        o.target = ds[i].target;
        add(chain.append(*actors::make_outcome_body(o), t + kMillisecond));
        ++out.outcomes;
      }
    }
    return out;
  }();
  return c;
}

void describe(benchmark::State& state, const Corpus& c, int64_t folds) {
  state.counters["records/s"] =
      benchmark::Counter(static_cast<double>(c.records.size() * folds), benchmark::Counter::kIsRate);
  size_t bytes = 0;
  for (const auto& r : c.records) bytes += r.stored_value().size();
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(bytes * folds) / 1e6, benchmark::Counter::kIsRate);
  state.SetLabel(std::to_string(c.records.size()) + " records: " + std::to_string(c.watch) + " watch, " +
                 std::to_string(c.ticks) + " tick, " + std::to_string(c.rounds) + " round, " +
                 std::to_string(c.outcomes) + " outcome");
}

// Times `fold(scheduler, input)` on a fresh Scheduler per iteration; `input = setup(corpus)` is
// built before and freed after it, untimed.
template <class Setup, class Fold>
void time_folds(benchmark::State& state, Setup setup, Fold fold) {
  const Corpus& c = corpus();
  int64_t folds = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto s = std::make_unique<actors::Scheduler>();
    auto input = setup(c);
    state.ResumeTiming();
    fold(*s, input);
    benchmark::DoNotOptimize(s->units().size());
    ++folds;
    state.PauseTiming();
    input = decltype(input){};
    s.reset();
    state.ResumeTiming();
  }
  describe(state, c, folds);
}

void BM_ApplyRecords(benchmark::State& state) {
  time_folds(
      state, [](const Corpus& c) { return &c.records; },
      [](actors::Scheduler& s, const std::vector<journal::StoredRecord>* records) {
        for (const auto& r : *records) {
          if (!actors::apply_record(s, r).ok()) throw std::runtime_error("record does not apply");
        }
      });
}

// The folding core's share when the records arrive decoded, as in a replay (the reading thread
// decodes them ahead, journal::ReadAhead) and, for watched objects, live (ingest decodes the
// JSON; the router applies the object): prepare_record runs untimed, apply_prepared is timed.
void BM_ApplyPreparedRecords(benchmark::State& state) {
  time_folds(
      state,
      [](const Corpus& c) {
        std::vector<actors::PreparedRecord> prepared;
        prepared.reserve(c.records.size());
        for (const auto& r : c.records) {
          auto copy = journal::StoredRecord::parse(r.stored_value());
          if (!copy.ok()) throw std::runtime_error("record does not parse");
          auto p = actors::prepare_record(std::move(*copy));
          if (!p.ok()) throw std::runtime_error("record does not prepare");
          prepared.push_back(std::move(*p));
        }
        return prepared;
      },
      [](actors::Scheduler& s, std::vector<actors::PreparedRecord>& prepared) {
        for (auto& p : prepared) {
          if (!actors::apply_prepared(s, p).ok()) throw std::runtime_error("record does not apply");
        }
      });
}

// Reads every field set in a message through Cap'n Proto's reflection: scalars, enums, texts
// (each byte), data, lists and nested structs; the active member of each union.
uint64_t walk(const capnp::DynamicValue::Reader& v);

uint64_t walk_struct(const capnp::DynamicStruct::Reader& s) {
  uint64_t sum = 0;
  for (const auto field : s.getSchema().getNonUnionFields()) {
    if (s.has(field)) sum += walk(s.get(field));
  }
  KJ_IF_MAYBE (active, s.which()) {
    sum += walk(s.get(*active));
  }
  return sum;
}

uint64_t walk(const capnp::DynamicValue::Reader& v) {
  switch (v.getType()) {
    case capnp::DynamicValue::BOOL:
      return v.as<bool>() ? 1 : 0;
    case capnp::DynamicValue::INT:
      return static_cast<uint64_t>(v.as<int64_t>());
    case capnp::DynamicValue::UINT:
      return v.as<uint64_t>();
    case capnp::DynamicValue::FLOAT:
      return static_cast<uint64_t>(v.as<double>());
    case capnp::DynamicValue::ENUM:
      return v.as<capnp::DynamicEnum>().getRaw();
    case capnp::DynamicValue::TEXT: {
      uint64_t sum = 0;
      for (const char ch : v.as<capnp::Text>()) sum += static_cast<unsigned char>(ch);
      return sum;
    }
    case capnp::DynamicValue::DATA: {
      uint64_t sum = 0;
      for (const auto b : v.as<capnp::Data>()) sum += b;
      return sum;
    }
    case capnp::DynamicValue::LIST: {
      uint64_t sum = 0;
      for (const auto item : v.as<capnp::DynamicList>()) sum += walk(item);
      return sum;
    }
    case capnp::DynamicValue::STRUCT:
      return walk_struct(v.as<capnp::DynamicStruct>());
    default:
      return 0;
  }
}

// The same records' bytes, word-aligned as StoredRecord keeps them.
const std::vector<kj::Array<capnp::word>>& aligned_bytes() {
  static const std::vector<kj::Array<capnp::word>> all = [] {
    std::vector<kj::Array<capnp::word>> out;
    for (const auto& r : corpus().records) {
      const auto b = r.canonical_bytes();
      auto words = kj::heapArray<capnp::word>((b.size() + 7) / 8);
      memset(words.begin(), 0, words.size() * 8);
      memcpy(words.begin(), b.data(), b.size());
      out.push_back(std::move(words));
    }
    return out;
  }();
  return all;
}

// Raw Cap'n Proto: a reader over each record's bytes, every field read through reflection.
void BM_CapnpReadRecords(benchmark::State& state) {
  const Corpus& c = corpus();
  const auto& words = aligned_bytes();
  int64_t folds = 0;
  for (auto _ : state) {
    uint64_t sum = 0;
    for (const auto& w : words) {
      kj::ArrayPtr<const capnp::word> segments[1] = {w.asPtr()};
      capnp::SegmentArrayMessageReader reader(kj::arrayPtr(segments, 1));
      sum += walk_struct(capnp::toDynamic(reader.getRoot<wire::Record>()));
    }
    benchmark::DoNotOptimize(sum);
    ++folds;
  }
  describe(state, c, folds);
}

// The floor: a reader over each record's bytes and one traversal of its pointers (totalSize).
void BM_CapnpTraverseRecords(benchmark::State& state) {
  const Corpus& c = corpus();
  const auto& words = aligned_bytes();
  int64_t folds = 0;
  for (auto _ : state) {
    uint64_t sum = 0;
    for (const auto& w : words) {
      kj::ArrayPtr<const capnp::word> segments[1] = {w.asPtr()};
      capnp::SegmentArrayMessageReader reader(kj::arrayPtr(segments, 1));
      sum += reader.getRoot<wire::Record>().totalSize().wordCount;
    }
    benchmark::DoNotOptimize(sum);
    ++folds;
  }
  describe(state, c, folds);
}

// The part of every record's fold that does not depend on its content: advancing "now" by 1 ns
// on the state the corpus's watch records build (1,000 queues, 50,000 waiting units).
void BM_AdvanceTo(benchmark::State& state) {
  actors::Scheduler s = build_scheduler(Shape{1000, 100, 50'000});
  int64_t t = kT0;
  for (auto _ : state) s.advance_to(++t);
  state.counters["records/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_ApplyRecords)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ApplyPreparedRecords)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CapnpReadRecords)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CapnpTraverseRecords)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AdvanceTo)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace koordq::bench
