// Kubernetes I/O throughput (design.md §7): watch events through the HTTP client, the stream
// parser and the decoder from a local socket server, next to simdjson parsing the same event bytes
// alone (the baseline); and a 150k-object paginated LIST decoded into one relist snapshot, then
// journaled as a relist epoch up to its last durable record.
// Events are the realistic QueueUnit of tests/fixtures (4.9 KB: pod templates, managedFields,
// admissions), each with its own name and resourceVersion, one per HTTP chunk as the API server
// sends them.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <sys/resource.h>

#include "actors/core/scheduler.hpp"
#include "actors/wire/input_bodies.hpp"
#include "controller/relist_changes.hpp"
#include "controller/sync_appender.hpp"
#include "journal/journal.hpp"
#include "journal/watch_record.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/resource_watcher.hpp"
#include "kube/client/watch_stream.hpp"
#include "kube/ingest/relist_diff.hpp"
#include "tests/support/json_fixtures.hpp"
#include "tests/support/scripted_http_server.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::kube {
namespace {

constexpr int kEvents = 20'000;

// The fixture object with its name and resourceVersion replaced.
std::string object_variant(int n) {
  static const std::string event = [] {
    std::string text = testing::read_fixture("queue_unit_watch_event.json");
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  }();
  static const std::string object =
      event.substr(event.find("\"object\":") + 9, event.size() - 10 - event.find("\"object\":"));
  std::string out = object;
  auto replace = [&](const std::string& from, const std::string& to) {
    size_t at = out.find(from);
    if (at != std::string::npos) out.replace(at, from.size(), to);
  };
  replace("\"resourceVersion\":\"48213\"", "\"resourceVersion\":\"" + std::to_string(100000 + n) + "\"");
  replace("\"uid\":\"c0ffee00-1234-4a5b-9c8d-0e1f2a3b4c5d\"", "\"uid\":\"uid-" + std::to_string(n) + "\"");
  replace("\"name\":\"resnet50-train\",\"namespace\"", "\"name\":\"job-" + std::to_string(n) + "\",\"namespace\"");
  return out;
}

const std::vector<std::string>& event_lines() {
  static const std::vector<std::string> lines = [] {
    std::vector<std::string> out;
    for (int i = 0; i < kEvents; ++i) out.push_back("{\"type\":\"MODIFIED\",\"object\":" + object_variant(i) + "}\n");
    return out;
  }();
  return lines;
}

size_t stream_bytes() {
  size_t total = 0;
  for (const std::string& line : event_lines()) total += line.size();
  return total;
}

// The whole WATCH answer: one event per chunk, then the last chunk.
const std::string& watch_response() {
  static const std::string response = [] {
    std::string out = testing::chunked_header();
    for (const std::string& line : event_lines()) out += testing::chunk(line);
    return out + testing::kLastChunk;
  }();
  return response;
}

void count(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kEvents);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * stream_bytes()));
}

// Baseline: simdjson's DOM parse of each event's bytes, nothing else.
void BM_SimdjsonParseEvents(benchmark::State& state) {
  simdjson::dom::parser parser;
  for (auto _ : state) {
    for (const std::string& line : event_lines()) {
      simdjson::dom::element root;
      if (parser.parse(line.data(), line.size(), true).get(root) != simdjson::SUCCESS) state.SkipWithError("parse");
      benchmark::DoNotOptimize(root);
    }
  }
  count(state);
}
BENCHMARK(BM_SimdjsonParseEvents)->Unit(benchmark::kMillisecond);

WatchEventReader::Handlers counting_handlers(int& events) {
  WatchEventReader::Handlers handlers;
  handlers.on_event = [&events](schema::WatchEvent&& event) {
    benchmark::DoNotOptimize(event);
    ++events;
    return ok_status();
  };
  return handlers;
}

// The stream parser and the decoder on the body bytes in 64 KiB pieces, without a socket.
void BM_WatchReaderInMemory(benchmark::State& state) {
  const auto mode = static_cast<schema::RawObjectMode>(state.range(0));
  std::string body;
  for (const std::string& line : event_lines()) body += line;
  for (auto _ : state) {
    WatchEventReader reader(schema::ObjectKind::kQueueUnit, mode);
    int events = 0;
    auto handlers = counting_handlers(events);
    for (size_t at = 0; at < body.size(); at += 64 * 1024) {
      if (!reader.feed(std::string_view(body).substr(at, 64 * 1024), handlers).ok()) state.SkipWithError("feed");
    }
    if (events != kEvents) state.SkipWithError("events lost");
  }
  state.SetLabel(schema::raw_object_mode_name(mode));
  count(state);
}
BENCHMARK(BM_WatchReaderInMemory)
    ->Arg(static_cast<int>(schema::RawObjectMode::kOff))
    ->Arg(static_cast<int>(schema::RawObjectMode::kRedacted))
    ->Unit(benchmark::kMillisecond);

std::unique_ptr<HttpClient> local_client(const testing::ScriptedHttpServer& server) {
  ClientConfig config;
  (void)parse_server_url(server.url(), config);
  HttpOptions options;
  options.qps = 0;
  return std::move(HttpClient::create(config, options).value());
}

// A WATCH answer of 20k events from a local server thread, through HttpClient::stream (chunked
// decoding), the stream parser and the decoder: wall-clock time of the receiving thread.
void BM_WatchFromLocalSocket(benchmark::State& state) {
  const auto mode = static_cast<schema::RawObjectMode>(state.range(0));
  testing::ScriptedHttpServer server;
  auto client = local_client(server);
  Request request;
  request.target = "/apis/scheduling.x-k8s.io/v1alpha1/queueunits?watch=true";
  for (auto _ : state) {
    state.PauseTiming();
    server.script({{watch_response()}});
    state.ResumeTiming();
    WatchEventReader reader(schema::ObjectKind::kQueueUnit, mode);
    int events = 0;
    auto handlers = counting_handlers(events);
    Result<StreamOutcome> outcome = client->stream(
        request, [&](std::string_view piece) { return reader.feed(piece, handlers); }, std::chrono::seconds(60));
    if (!outcome.ok() || events != kEvents) state.SkipWithError("stream failed or events lost");
  }
  state.SetLabel(schema::raw_object_mode_name(mode));
  count(state);
}
BENCHMARK(BM_WatchFromLocalSocket)
    ->Arg(static_cast<int>(schema::RawObjectMode::kOff))
    ->Arg(static_cast<int>(schema::RawObjectMode::kRedacted))
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// CPU time of the whole process (every thread), in seconds.
double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The events a receiving thread decoded, taken in batches by the journaling thread, as the
// serve loop takes its inbox.
class EventInbox {
 public:
  void push(schema::WatchEvent event) {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(event));
    cv_.notify_one();
  }
  std::deque<schema::WatchEvent> take() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !events_.empty(); });
    return std::exchange(events_, {});
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<schema::WatchEvent> events_;
};

// From the socket to durable records, as `koordq serve` ingests a watch: one thread receives and
// decodes the WATCH answer, the benchmark thread turns each batch of decoded events into watch
// records and appends them to a journal on disk, waiting until the batch is fsync'd before taking
// the next one. Wall time until the last event is durable; `cpu_per_event` is the CPU time of
// every thread of the process (receiver, journaling, the journal's writer) per event.
void BM_WatchToDurableRecords(benchmark::State& state) {
  const auto mode = static_cast<schema::RawObjectMode>(state.range(0));
  testing::ScriptedHttpServer server;
  auto client = local_client(server);
  Request request;
  request.target = "/apis/scheduling.x-k8s.io/v1alpha1/queueunits?watch=true";
  double cpu_seconds = 0;
  uint64_t groups = 0;
  for (auto _ : state) {
    state.PauseTiming();
    server.script({{watch_response()}});
    testing::TempDir dir;
    journal::JournalOptions options;
    options.dir = dir.path() / "journal";
    auto opened = journal::Journal::open(options);
    if (!opened.ok()) {
      state.SkipWithError(opened.message().c_str());
      return;
    }
    journal::Journal& journal = **opened;
    const uint64_t groups_before = journal.writer().stats().groups;
    EventInbox inbox;
    const double cpu_before = process_cpu_seconds();
    state.ResumeTiming();
    std::thread receiver([&] {
      WatchEventReader reader(schema::ObjectKind::kQueueUnit, mode);
      WatchEventReader::Handlers handlers;
      handlers.on_event = [&inbox](schema::WatchEvent&& event) {
        inbox.push(std::move(event));
        return ok_status();
      };
      (void)client->stream(
          request, [&](std::string_view piece) { return reader.feed(piece, handlers); }, std::chrono::seconds(60));
    });
    int durable = 0;
    while (durable < kEvents) {
      std::deque<schema::WatchEvent> batch = inbox.take();
      const uint64_t base = journal.writer().durable_head().seq;  // this thread is the only producer
      for (const schema::WatchEvent& event : batch) {
        journal.writer().append(journal::make_watch_body(event, mode), [](const Result<journal::AppendedRecord>&) {});
      }
      if (!journal.writer().wait_durable(base + batch.size(), 60'000'000'000)) {
        state.SkipWithError("append not durable");
        break;
      }
      durable += static_cast<int>(batch.size());
    }
    receiver.join();
    state.PauseTiming();
    cpu_seconds += process_cpu_seconds() - cpu_before;
    groups += journal.writer().stats().groups - groups_before;
    opened->reset();
    state.ResumeTiming();
  }
  state.SetLabel(schema::raw_object_mode_name(mode));
  const double events = static_cast<double>(state.iterations()) * kEvents;
  state.counters["cpu_us_per_event"] = cpu_seconds * 1e6 / events;
  state.counters["events_per_cpu_second"] = events / cpu_seconds;
  state.counters["events_per_sync"] = events / static_cast<double>(groups);
  count(state);
}
BENCHMARK(BM_WatchToDurableRecords)
    ->Arg(static_cast<int>(schema::RawObjectMode::kOff))
    ->Arg(static_cast<int>(schema::RawObjectMode::kRedacted))
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

class RelistSink : public WatchSink {
 public:
  void on_relist(const WatchedResource&, ListSnapshot list) override {
    std::lock_guard lock(mutex_);
    list_ = std::move(list);
    done_ = true;
    changed_.notify_all();
  }
  void on_event(const WatchedResource&, schema::WatchEvent) override {}
  void on_bookmark(const WatchedResource&, const std::string&) override {}
  ListSnapshot wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return done_; });
    return std::move(list_);
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  ListSnapshot list_;
  bool done_ = false;
};

constexpr int kListPageSize = 500;
constexpr int kListPages = 300;
constexpr size_t kListed = size_t{kListPageSize} * kListPages;

// The LIST answer of 150,000 QueueUnits in pages of 500: every page but the last continues.
class ListServer {
 public:
  ListServer() {
    std::string items;
    for (int i = 0; i < kListPageSize; ++i) items += (i ? "," : "") + object_variant(i);
    auto page = [&](bool last) {
      return testing::http_reply(
          200,
          std::string("{\"apiVersion\":\"scheduling.x-k8s.io/v1alpha1\",\"kind\":\"QueueUnitList\",\"metadata\":{") +
              "\"resourceVersion\":\"200000\"" + (last ? "" : ",\"continue\":\"more\"") + "},\"items\":[" + items +
              "]}");
    };
    middle_ = page(false);
    last_ = page(true);
  }

  // Serves one LIST on `server`, then an empty WATCH.
  void serve(testing::ScriptedHttpServer& server) const {
    auto served = std::make_shared<int>(0);
    server.respond_with([this, served](const testing::ReceivedRequest& request) -> testing::ScriptedReply {
      if (request.target.find("watch=true") != std::string::npos) return {{testing::chunked_header()}};
      return {{++*served == kListPages ? last_ : middle_}};
    });
  }

 private:
  std::string middle_;
  std::string last_;
};

WatcherOptions list_options(schema::RawObjectMode mode) {
  WatcherOptions options;
  options.page_size = kListPageSize;
  options.raw_mode = mode;
  return options;
}

// One LIST of `pages` from a fresh local server, taken by a ResourceWatcher in `mode`.
class LocalList {
 public:
  LocalList(const ListServer& pages, schema::RawObjectMode mode)
      : client_(serving(pages, server_)), watcher_(*client_, queue_units_resource(), sink_, list_options(mode)) {}

  ListSnapshot take() {
    watcher_.start();
    return sink_.wait();
  }
  void stop() { watcher_.stop(); }

 private:
  static std::unique_ptr<HttpClient> serving(const ListServer& pages, testing::ScriptedHttpServer& server) {
    pages.serve(server);
    return local_client(server);
  }

  testing::ScriptedHttpServer server_;
  std::unique_ptr<HttpClient> client_;
  RelistSink sink_;
  ResourceWatcher watcher_;
};

// 150,000 QueueUnits listed in 300 pages of 500 from a local server by ResourceWatcher: the time
// from the first request to the complete snapshot (every item decoded and kept).
void BM_List150kQueueUnits(benchmark::State& state) {
  const auto mode = static_cast<schema::RawObjectMode>(state.range(0));
  const ListServer pages;
  size_t listed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    LocalList lister(pages, mode);
    state.ResumeTiming();
    ListSnapshot list = lister.take();
    state.PauseTiming();
    listed = list.items.size();
    lister.stop();
    list = {};
    state.ResumeTiming();
  }
  if (listed != kListed) state.SkipWithError("items lost");
  state.SetLabel(schema::raw_object_mode_name(mode));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kListed));
}
BENCHMARK(BM_List150kQueueUnits)
    ->Arg(static_cast<int>(schema::RawObjectMode::kOff))
    ->Arg(static_cast<int>(schema::RawObjectMode::kRedacted))
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);

using SteadyTime = std::chrono::steady_clock::time_point;

double seconds_between(SteadyTime from, SteadyTime to) {
  return std::chrono::duration<double>(to - from).count();
}

// Where a journaled relist spends its time, in seconds.
struct RelistTimes {
  double list = 0;     // first request to the complete snapshot
  double diff = 0;     // relist_changes: the listed objects against the journaled ones
  double records = 0;  // the records' bodies built
  double durable = 0;  // appended until the last is durable
};

// A relist epoch journaled as `koordq serve` journals one (controller/serve_loop.cpp): the LIST
// diffed against the journaled state, `relist` begin, one `watch` record per change, `relist`
// end, appended as one batch and waited for until every record is durable. The number of records.
Result<size_t> journal_relist(const actors::Scheduler& journaled_state, ListSnapshot& list, schema::RawObjectMode mode,
                              journal::Journal& journal, RelistTimes& times) {
  const schema::ObjectKind kind = schema::ObjectKind::kQueueUnit;
  const SteadyTime start = std::chrono::steady_clock::now();
  const std::vector<RelistEvent> changes =
      controller::relist_changes(journaled_state, kind, std::move(list.items), mode);
  const SteadyTime diffed = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<const journal::RecordBody>> batch;
  batch.push_back(actors::make_relist_body(actors::RelistPhase::kBegin, kind, list.resource_version));
  for (const auto& e : changes) batch.push_back(journal::make_watch_body(e.event, mode, e.synthesized));
  batch.push_back(actors::make_relist_body(actors::RelistPhase::kEnd, kind, list.resource_version));
  const SteadyTime built = std::chrono::steady_clock::now();
  controller::SyncAppender appender(journal.writer());
  auto seqs = appender.append(batch);
  const SteadyTime durable = std::chrono::steady_clock::now();
  times.diff += seconds_between(start, diffed);
  times.records += seconds_between(diffed, built);
  times.durable += seconds_between(built, durable);
  if (!seqs.ok()) return seqs.error();
  return seqs->size();
}

// The same LIST taken to durable records: wall time from the first request to the last durable
// record, and its parts as counters (seconds per run). On a first start (range 1 = 0) nothing is
// journaled yet, so each of the 150,000 objects is an ADDED record; on a restart (1) the state
// already holds every listed object, so the diff finds no change and the epoch is its two
// `relist` records.
void BM_List150kQueueUnitsJournaled(benchmark::State& state) {
  const auto mode = static_cast<schema::RawObjectMode>(state.range(0));
  const bool restart = state.range(1) != 0;
  const ListServer pages;
  size_t records = 0;
  RelistTimes times;
  uint64_t syncs = 0;
  for (auto _ : state) {
    state.PauseTiming();
    LocalList lister(pages, mode);
    testing::TempDir dir;
    journal::JournalOptions options;
    options.dir = dir.path() / "journal";
    auto opened = journal::Journal::open(options);
    if (!opened.ok()) {
      state.SkipWithError(opened.message().c_str());
      return;
    }
    actors::Scheduler journaled_state;
    if (restart) {
      LocalList first(pages, mode);
      ListSnapshot seen = first.take();
      first.stop();
      for (auto& item : seen.items) journaled_state.apply_object(std::move(item.object), false);
    }
    const uint64_t groups_before = (*opened)->writer().stats().groups;
    state.ResumeTiming();
    const SteadyTime start = std::chrono::steady_clock::now();
    ListSnapshot list = lister.take();
    times.list += seconds_between(start, std::chrono::steady_clock::now());
    Result<size_t> journaled = journal_relist(journaled_state, list, mode, **opened, times);
    state.PauseTiming();
    if (!journaled.ok()) {
      state.SkipWithError(journaled.message().c_str());
      return;
    }
    records = *journaled;
    syncs += (*opened)->writer().stats().groups - groups_before;
    lister.stop();
    list = {};
    opened->reset();
    state.ResumeTiming();
  }
  if (records != (restart ? 2 : kListed + 2)) state.SkipWithError("records lost");
  state.SetLabel(std::string(schema::raw_object_mode_name(mode)) + (restart ? ", restart" : ", first start"));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kListed));
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["list_s"] = times.list / iterations;
  state.counters["diff_s"] = times.diff / iterations;
  state.counters["records_s"] = times.records / iterations;
  state.counters["durable_s"] = times.durable / iterations;
  state.counters["records"] = static_cast<double>(records);
  state.counters["fsyncs"] = static_cast<double>(syncs) / iterations;
}
BENCHMARK(BM_List150kQueueUnitsJournaled)
    ->Args({static_cast<int>(schema::RawObjectMode::kOff), 0})
    ->Args({static_cast<int>(schema::RawObjectMode::kRedacted), 0})
    ->Args({static_cast<int>(schema::RawObjectMode::kOff), 1})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace koordq::kube

BENCHMARK_MAIN();
