// JSON codec throughput on a realistic QueueUnit watch event (tests/fixtures, ~4.9 KB: two pod
// sets with full pod templates, managedFields, admissions and admission checks), next to
// simdjson's DOM parse of the same bytes, which every decode includes (the baseline).
#include <string>

#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "schema/json_decode.hpp"
#include "schema/json_encode.hpp"
#include "tests/support/json_fixtures.hpp"

namespace koordq::schema {
namespace {

const std::string& watch_event_bytes() {
  static const std::string bytes = testing::read_fixture("queue_unit_watch_event.json");
  return bytes;
}

void count(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * watch_event_bytes().size()));
}

// The baseline: simdjson parsing the bytes into its DOM, copying them into its padded buffer
// first as the decoder must (API server bytes come without simdjson's padding).
void BM_SimdjsonDomParse(benchmark::State& state) {
  const std::string& bytes = watch_event_bytes();
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::element root;
    if (parser.parse(bytes.data(), bytes.size(), true).get(root) != simdjson::SUCCESS) state.SkipWithError("parse");
    benchmark::DoNotOptimize(root);
  }
  count(state);
}
BENCHMARK(BM_SimdjsonDomParse);

// simdjson alone on bytes already padded: its best case.
void BM_SimdjsonDomParsePadded(benchmark::State& state) {
  const simdjson::padded_string bytes(watch_event_bytes());
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::element root;
    if (parser.parse(bytes).get(root) != simdjson::SUCCESS) state.SkipWithError("parse");
    benchmark::DoNotOptimize(root);
  }
  count(state);
}
BENCHMARK(BM_SimdjsonDomParsePadded);

void BM_DecodeWatchEvent(benchmark::State& state) {
  const auto mode = static_cast<RawObjectMode>(state.range(0));
  const std::string& bytes = watch_event_bytes();
  JsonDecoder decoder;
  for (auto _ : state) {
    Result<WatchEvent> event = decoder.decode_watch_event(bytes, mode);
    if (!event.ok()) state.SkipWithError(event.message().c_str());
    benchmark::DoNotOptimize(event);
  }
  state.SetLabel(raw_object_mode_name(mode));
  count(state);
}
BENCHMARK(BM_DecodeWatchEvent)
    ->Arg(static_cast<int>(RawObjectMode::kOff))
    ->Arg(static_cast<int>(RawObjectMode::kRedacted))
    ->Arg(static_cast<int>(RawObjectMode::kFull));

void BM_EncodeQueueUnit(benchmark::State& state) {
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(watch_event_bytes(), RawObjectMode::kOff);
  if (!event.ok()) {
    state.SkipWithError(event.message().c_str());
    return;
  }
  const QueueUnit unit = std::get<QueueUnit>(*event->object);
  size_t encoded_bytes = 0;
  for (auto _ : state) {
    std::string json = encode_json(unit);
    encoded_bytes = json.size();
    benchmark::DoNotOptimize(json);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * encoded_bytes));
}
BENCHMARK(BM_EncodeQueueUnit);

}  // namespace
}  // namespace koordq::schema

BENCHMARK_MAIN();
