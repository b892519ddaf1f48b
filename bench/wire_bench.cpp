// Model ↔ Cap'n Proto bytes for a realistic QueueUnit, against raw Cap'n Proto doing the same work:
// build the same message, flatten it, read it back and touch every field, without model objects.
//   build-wire/bench/wire_bench --benchmark_min_time=0.5
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>
#include <capnp/message.h>
#include <capnp/serialize.h>

#include "schema/canonical.hpp"
#include "schema/wire_codec.hpp"
#include "tests/support/model_samples.hpp"

namespace koordq::schema {
namespace {

// --- raw Cap'n Proto: visit every field of the message -------------------------------------------

uint64_t visit(capnp::Text::Reader t) {
  return t.size();
}

template <class Entries>
uint64_t visit_entries(Entries entries) {
  uint64_t n = 0;
  for (auto e : entries) n += visit(e.getKey()) + visit(e.getValue());
  return n;
}

template <class Entries>
uint64_t visit_resources(Entries entries) {
  uint64_t n = 0;
  for (auto e : entries) n += visit(e.getName()) + visit(e.getQuantity());
  return n;
}

uint64_t visit(wire::ObjectMeta::Reader m) {
  uint64_t n = visit(m.getName()) + visit(m.getNamespace()) + visit(m.getUid()) + visit(m.getResourceVersion());
  if (m.getCreationTimestamp().isValue()) n += static_cast<uint64_t>(m.getCreationTimestamp().getValue());
  if (m.getDeletionTimestamp().isValue()) n += static_cast<uint64_t>(m.getDeletionTimestamp().getValue());
  return n + visit_entries(m.getLabels()) + visit_entries(m.getAnnotations());
}

uint64_t visit(wire::QueueUnitSpec::Reader s) {
  uint64_t n = 0;
  if (s.getConsumerRef().isValue()) {
    auto r = s.getConsumerRef().getValue();
    n += visit(r.getApiVersion()) + visit(r.getKind()) + visit(r.getName()) + visit(r.getNamespace()) +
         visit(r.getUid());
  }
  if (s.getPriority().isValue()) n += static_cast<uint64_t>(s.getPriority().getValue());
  for (auto p : s.getPodSet()) {
    n += visit(p.getName()) + static_cast<uint64_t>(p.getCount());
    if (p.getMinCount().isValue()) n += static_cast<uint64_t>(p.getMinCount().getValue());
    for (auto c : p.getContainers())
      n += visit(c.getName()) + visit_resources(c.getRequests()) + visit_resources(c.getLimits());
  }
  n += visit_resources(s.getRequest()) + visit_resources(s.getResource()) + visit(s.getQueue()) +
       visit(s.getPriorityClassName());
  if (s.getActive().isValue()) n += s.getActive().getValue();
  if (s.getMaximumExecutionTimeSeconds().isValue()) {
    n += static_cast<uint64_t>(s.getMaximumExecutionTimeSeconds().getValue());
  }
  return n;
}

uint64_t visit(wire::QueueUnitStatus::Reader s) {
  uint64_t n = visit(s.getPhase()) + visit(s.getMessage()) + static_cast<uint64_t>(s.getAttempts());
  if (s.getLastUpdateTime().isValue()) n += static_cast<uint64_t>(s.getLastUpdateTime().getValue());
  if (s.getLastAllocateTime().isValue()) n += static_cast<uint64_t>(s.getLastAllocateTime().getValue());
  for (auto a : s.getAdmissions()) {
    n += visit(a.getName()) + static_cast<uint64_t>(a.getReplicas() + a.getRunning());
    if (a.getResources().isValue()) n += visit_resources(a.getResources().getValue());
    if (a.getReclaimState().isValue()) n += static_cast<uint64_t>(a.getReclaimState().getValue().getReplicas());
  }
  for (auto c : s.getAdmissionChecks()) {
    n += visit(c.getName()) + visit(c.getState()) + visit(c.getMessage()) + visit(c.getPodSetUpdatesJson());
    if (c.getLastTransitionTime().isValue()) n += static_cast<uint64_t>(c.getLastTransitionTime().getValue());
  }
  if (s.getPodState().isValue()) {
    n += static_cast<uint64_t>(s.getPodState().getValue().getRunning() + s.getPodState().getValue().getPending());
  }
  return n;
}

uint64_t visit(wire::QueueUnit::Reader u) {
  return visit(u.getMetadata()) + visit(u.getSpec()) + visit(u.getStatus());
}

// --- benchmarks ------------------------------------------------------------------------------------
// Arg 0: samples::realistic_queue_unit() (two pod sets, four containers, admissions: ~75 strings);
// Arg 1: samples::small_queue_unit() (one pod set, one container: ~20 strings).

QueueUnit sample(const benchmark::State& state) {
  return state.range(0) == 0 ? samples::realistic_queue_unit() : samples::small_queue_unit();
}

void BM_ModelToBytes(benchmark::State& state) {
  const WatchedObject unit = sample(state);
  for (auto _ : state) benchmark::DoNotOptimize(to_capnp_bytes(unit));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ModelToBytes)->Arg(0)->Arg(1);

void BM_BytesToModel(benchmark::State& state) {
  const std::string bytes = to_capnp_bytes(sample(state));
  state.counters["bytes"] = static_cast<double>(bytes.size());
  for (auto _ : state) benchmark::DoNotOptimize(from_capnp_bytes(bytes));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BytesToModel)->Arg(0)->Arg(1);

void BM_ModelRoundTrip(benchmark::State& state) {
  const WatchedObject unit = sample(state);
  for (auto _ : state) {
    auto decoded = from_capnp_bytes(to_capnp_bytes(unit));
    benchmark::DoNotOptimize(decoded);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ModelRoundTrip)->Arg(0)->Arg(1);

// Raw Cap'n Proto, same message: build with its builder API (the fields written are those of the
// same model object), flatten with messageToFlatArray, read with FlatArrayMessageReader, visit.
void BM_RawCapnpRoundTrip(benchmark::State& state) {
  const QueueUnit unit = sample(state);
  for (auto _ : state) {
    capnp::MallocMessageBuilder message;
    write_queue_unit(message.initRoot<wire::WatchedObject>().initQueueUnit(), unit);
    const kj::Array<capnp::word> words = capnp::messageToFlatArray(message);
    capnp::FlatArrayMessageReader reader(words);
    benchmark::DoNotOptimize(visit(reader.getRoot<wire::WatchedObject>().getQueueUnit()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RawCapnpRoundTrip)->Arg(0)->Arg(1);

void BM_RawCapnpVisit(benchmark::State& state) {
  capnp::MallocMessageBuilder message;
  write_queue_unit(message.initRoot<wire::WatchedObject>().initQueueUnit(), sample(state));
  const kj::Array<capnp::word> words = capnp::messageToFlatArray(message);
  for (auto _ : state) {
    capnp::FlatArrayMessageReader reader(words);
    benchmark::DoNotOptimize(visit(reader.getRoot<wire::WatchedObject>().getQueueUnit()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RawCapnpVisit)->Arg(0)->Arg(1);

// The canonical bytes the journal hashes and stores for a watch record of the unit, as koordq
// writes them (Arg 0/1) and as capnp::canonicalize returns them (the raw library, Arg 2/3).
void BM_CanonicalRecordBytes(benchmark::State& state) {
  capnp::MallocMessageBuilder message(256);
  auto record = message.initRoot<wire::Record>();
  record.setSeq(7);
  auto watch = record.initBody().initWatch();
  write_queue_unit(watch.initObject().initQueueUnit(),
                   state.range(0) % 2 == 0 ? samples::realistic_queue_unit() : samples::small_queue_unit());
  const bool raw = state.range(0) >= 2;
  for (auto _ : state) {
    if (raw) {
      benchmark::DoNotOptimize(capnp::canonicalize(record.asReader()));
    } else {
      benchmark::DoNotOptimize(canonical_bytes(record.asReader()));
    }
  }
  state.SetLabel(raw ? "capnp::canonicalize" : "koordq");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CanonicalRecordBytes)->Arg(0)->Arg(2)->Arg(1)->Arg(3);

// The floor of any decoder into the model: its allocations. Reading makes exactly as many.
void BM_ModelCopy(benchmark::State& state) {
  const WatchedObject unit = sample(state);
  for (auto _ : state) {
    WatchedObject copy = unit;
    benchmark::DoNotOptimize(copy);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ModelCopy)->Arg(0)->Arg(1);

}  // namespace
}  // namespace koordq::schema

BENCHMARK_MAIN();
