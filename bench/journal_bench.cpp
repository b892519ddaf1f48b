// Journal benchmarks (BENCHMARKS.md, "Journal"): every figure is measured side by side with a
// plain RocksDB doing the same writes or reads in the same run. Run through
// scripts/bench-journal.sh, which also guards the disk space the big journal needs.
#include "bench/journal_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include <benchmark/benchmark.h>
#include <rocksdb/table.h>

#include "schema/wire_codec.hpp"
#include "tests/support/json_fixtures.hpp"
#include "tests/support/model_samples.hpp"

namespace koordq::bench {
namespace {

std::string object_name(uint64_t object) {
  char name[32];
  std::snprintf(name, sizeof name, "pytorch-job-%05llu", static_cast<unsigned long long>(object));
  return name;
}

std::string object_uid(uint64_t object) {
  char uid[40];
  std::snprintf(uid, sizeof uid, "5f1c2d3e-4a5b-4c6d-8e9f-%012llx",
                static_cast<unsigned long long>((object * 0x9e3779b97f4a7c15ull) >> 16));
  return uid;
}

// The "object" of the watch event fixture, as a raw JSON text would be journaled.
const std::string& fixture_object_json() {
  static const std::string json = [] {
    const std::string event = testing::read_fixture("queue_unit_watch_event.json");
    const auto start = event.find("\"object\":");
    const auto end = event.rfind('}');
    if (start == std::string::npos || end == std::string::npos) throw std::runtime_error("unexpected fixture");
    return event.substr(start + 9, end - start - 9);
  }();
  return json;
}

}  // namespace

std::unique_ptr<journal::CapnpRecordBody> small_watch_body(uint64_t i) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto watch = body->record().initBody().initWatch();
  const uint64_t object = i % 5000;
  watch.setEventType(wire::Watch::EventType::MODIFIED);
  watch.setObjectKind(wire::ObjectKind::QUEUE_UNIT);
  watch.setNamespace("team-" + std::to_string(object % 16));
  watch.setName(object_name(object));
  watch.setUid(object_uid(object));
  watch.setResourceVersion(std::to_string(1'000'000 + i));
  watch.setRawJson(R"({"status":{"phase":"Running","attempts":)" + std::to_string(i % 7) + "}}");
  watch.setRawMode(wire::Watch::RawMode::REDACTED);
  return body;
}

std::unique_ptr<journal::CapnpRecordBody> realistic_watch_body(uint64_t i) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto watch = body->record().initBody().initWatch();
  const uint64_t object = i % 5000;
  auto unit = samples::realistic_queue_unit();
  unit.metadata.name = object_name(object);
  unit.metadata.namespace_ = "team-" + std::to_string(object % 16);
  unit.metadata.uid = object_uid(object);
  unit.metadata.resource_version = std::to_string(1'000'000 + i);
  unit.status.attempts = static_cast<int32_t>(i % 7);
  watch.setEventType(wire::Watch::EventType::MODIFIED);
  watch.setObjectKind(wire::ObjectKind::QUEUE_UNIT);
  watch.setNamespace(unit.metadata.namespace_);
  watch.setName(unit.metadata.name);
  watch.setUid(unit.metadata.uid);
  watch.setResourceVersion(unit.metadata.resource_version);
  schema::write_queue_unit(watch.initObject().initQueueUnit(), unit);
  std::string raw = fixture_object_json();
  for (auto [from, to] : {std::pair<std::string, std::string>{"resnet50-train", unit.metadata.name},
                          {"\"48213\"", "\"" + unit.metadata.resource_version + "\""}}) {
    for (auto at = raw.find(from); at != std::string::npos; at = raw.find(from, at + to.size())) {
      raw.replace(at, from.size(), to);
    }
  }
  watch.setRawJson(raw);
  watch.setRawMode(wire::Watch::RawMode::REDACTED);
  return body;
}

ChainEncoder::ChainEncoder(const std::string& journal_uuid, int64_t first_time, int64_t time_step)
    : prev_(journal::genesis_hash(journal_uuid)), time_(first_time - time_step), step_(time_step) {}

std::string ChainEncoder::next(const journal::RecordBody& body) {
  ++seq_;
  time_ += step_;
  std::string value = body.canonical_bytes(seq_, time_, prev_);
  prev_ = journal::chain_hash(prev_, value);
  value.append(journal::as_bytes(prev_));
  return value;
}

rocksdb::ColumnFamilyOptions journal_log_options(rocksdb::CompressionType compression,
                                                 rocksdb::CompressionType bottommost, size_t block_size) {
  rocksdb::ColumnFamilyOptions cf = journal::log_family_options();
  cf.compression = compression;
  cf.bottommost_compression = bottommost;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = block_size;
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return cf;
}

void check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) throw std::runtime_error(std::string(what) + ": " + s.ToString());
}

void wait_for_background_work(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& cfs) {
  auto property = [&](rocksdb::ColumnFamilyHandle* cf, const char* name) {
    uint64_t v = 0;
    db.GetIntProperty(cf, name, &v);
    return v;
  };
  for (;;) {
    uint64_t busy = property(db.DefaultColumnFamily(), "rocksdb.num-running-flushes") +
                    property(db.DefaultColumnFamily(), "rocksdb.num-running-compactions");
    for (auto* cf : cfs)
      busy += property(cf, "rocksdb.mem-table-flush-pending") + property(cf, "rocksdb.compaction-pending");
    if (busy == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

RawDb::RawDb(const std::filesystem::path& dir, rocksdb::ColumnFamilyOptions log_options) {
  rocksdb::DBOptions o;
  o.create_if_missing = true;
  o.create_missing_column_families = true;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.keep_log_file_num = 3;
  o.max_background_jobs = 2;
  rocksdb::ColumnFamilyOptions plain;
  plain.compression = rocksdb::kLZ4Compression;
  const std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
      {rocksdb::kDefaultColumnFamilyName, plain}, {"log", log_options}, {"time", plain}};
  rocksdb::DB* raw = nullptr;
  check(rocksdb::DB::Open(o, dir.string(), cfs, &handles_, &raw), "open raw RocksDB");
  db_.reset(raw);
}

RawDb::~RawDb() {
  for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
  db_->Close().PermitUncheckedError();
}

Percentiles percentiles(std::vector<int64_t>& nanos) {
  Percentiles p;
  if (nanos.empty()) return p;
  std::sort(nanos.begin(), nanos.end());
  auto at = [&](double q) {
    const auto i = std::min(nanos.size() - 1, static_cast<size_t>(q * static_cast<double>(nanos.size())));
    return static_cast<double>(nanos[i]) / 1000.0;
  };
  p.p50_us = at(0.50);
  p.p99_us = at(0.99);
  p.p999_us = at(0.999);
  p.max_us = static_cast<double>(nanos.back()) / 1000.0;
  double sum = 0;
  for (const auto n : nanos) sum += static_cast<double>(n);
  p.mean_us = sum / static_cast<double>(nanos.size()) / 1000.0;
  return p;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace koordq::bench

BENCHMARK_MAIN();
