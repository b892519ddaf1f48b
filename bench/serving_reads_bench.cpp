// Rounds under reads (BENCHMARKS.md "Serving never waits on deciding"): decide rounds through the
// DecisionEngine with its read side, as `serve` runs them (a tick record, decide, the round
// record), alone and while readers hit the surfaces at 10 /metrics scrapes/s and 1,000 visibility
// requests/s, alternating in the same run. The readers go through the services themselves
// (MetricsService::render, VisibilityService::handle with front-proxy authentication, its response
// cache and its time travel) on threads of their own, in an open loop: each latency is taken from
// the request's scheduled time, so a reader that falls behind shows it.
//
// Counters: rounds/s alone and under reads, their ratio (reads ÷ alone; the target is >= 0.9),
// the readers' p50/p99 in milliseconds, and rounds/s of an engine without a read side ("bare")
// with the read side's own cost (alone ÷ bare).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <benchmark/benchmark.h>

#include "actors/runtime/decision_engine.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "api/metrics_service.hpp"
#include "api/visibility_service.hpp"
#include "base/thread_niceness.hpp"
#include "bench/decision_shape.hpp"
#include "journal/journal.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::bench {
namespace {

namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

const Shape kShape{200, 20, 20'000};
// Each phase: this many rounds on a fresh engine (built untimed), the same rounds in every phase.
// Short phases, interleaved, so that the load of a shared machine falls on every kind alike.
constexpr int64_t kRoundsPerPhase = 30;
// Cycling through: no read side at all, the read side and no readers, the read side under reads.
constexpr int kPhases = 45;

const actors::Scheduler& base_state() {
  static const actors::Scheduler s = build_scheduler(kShape);
  return s;
}

double percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  return samples[std::min(samples.size() - 1, static_cast<size_t>(p * static_cast<double>(samples.size())))];
}

// The visibility service as `serve` builds it, minus the listener: front-proxy certificates, the
// response cache, time travel over an (empty) journal, the live state from the read side.
class VisibilityReader {
 public:
  VisibilityReader(api::LiveStateRead live, api::LivePages live_pages) {
    journal::JournalOptions options;
    options.dir = dir_.path() / "journal";
    auto opened = journal::Journal::open(options);
    if (!opened.ok()) throw std::runtime_error(opened.message());
    journal_ = std::move(opened).value();
    api::CertificateRequest ca_request;
    ca_request.common_name = "front-proxy-ca";
    ca_request.ca = true;
    auto ca = api::generate_certificate(ca_request);
    auto serving = api::generate_certificate({"koordq", {"127.0.0.1"}, 365, false, false}, &*ca);
    auto tls = api::TlsMaterial::load({}, *serving);
    if (!tls.ok()) throw std::runtime_error(tls.message());
    api::ClientAuthConfig client_auth;
    client_auth.ca_pem = ca->certificate_pem;
    if (!(*tls)->set_client_auth(client_auth).ok()) throw std::runtime_error("client auth");
    time_travel_ = std::make_unique<api::TimeTravel>(api::TimeTravelOptions{}, journal_->reader(), live,
                                                     api::TimeTravelObserver{}, live_pages);
    api::VisibilityContext context;
    context.time_travel = time_travel_.get();
    context.tls = *tls;
    context.now = [] { return kT0; };
    context.live_revision = [live_pages]() -> std::optional<uint64_t> {
      const auto pages = live_pages();
      if (!pages) return std::nullopt;
      return pages->revision;
    };
    service_ = std::make_unique<api::VisibilityService>(std::move(context));
    peer_.tls = peer_.certificate_presented = peer_.certificate_verified = true;
    peer_.common_name = "front-proxy-client";
  }

  int get(const std::string& target) {
    api::HttpRequest request(http::verb::get, target, 11);
    request.insert("X-Remote-User", "reader");
    return service_->handle(request, peer_).result_int();
  }

 private:
  testing::TempDir dir_;
  std::unique_ptr<journal::Journal> journal_;
  std::unique_ptr<api::TimeTravel> time_travel_;
  std::unique_ptr<api::VisibilityService> service_;
  api::PeerIdentity peer_;
};

// One reader thread in an open loop at `per_second`, each call's latency from its scheduled time.
class PacedReader {
 public:
  PacedReader(double per_second, std::function<void(uint64_t n)> call)
      : period_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / per_second))),
        call_(std::move(call)) {}
  void start() {
    stop_ = false;
    thread_ = std::thread([this] {
      base::set_thread_niceness(api::kServingNiceness);  // as the servers' threads run
      Clock::time_point next = Clock::now();
      for (uint64_t n = 0; !stop_.load(); ++n) {
        std::this_thread::sleep_until(next);
        call_(n);
        latencies_ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - next).count());
        next += period_;
      }
    });
  }
  void stop() {
    stop_ = true;
    thread_.join();
  }
  const std::vector<double>& latencies_ms() const { return latencies_ms_; }

 private:
  Clock::duration period_;
  std::function<void(uint64_t)> call_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::vector<double> latencies_ms_;
};

// kRoundsPerPhase rounds on a fresh engine; how many, and the seconds they took.
std::pair<int64_t, double> run_rounds(actors::runtime::DecisionEngine& engine, testing::RecordChain& chain,
                                      int64_t& decisions) {
  const auto started = Clock::now();
  int64_t rounds = 0;
  while (rounds < kRoundsPerPhase) {
    const int64_t t = kT0 + (++rounds) * kRoundStep;
    std::vector<journal::StoredRecord> tick;
    tick.push_back(chain.append(*actors::make_tick_body(), t));
    if (!engine.apply(std::move(tick)).ok()) throw std::runtime_error("tick not applied");
    auto ds = engine.decide();
    if (!ds.ok()) throw std::runtime_error(ds.message());
    decisions += static_cast<int64_t>(ds->size());
    std::vector<journal::StoredRecord> round_record;
    round_record.push_back(chain.append(*actors::make_round_body(chain.last_seq(), *ds), t));
    if (!engine.apply(std::move(round_record)).ok()) throw std::runtime_error("round not applied");
  }
  return {rounds, std::chrono::duration<double>(Clock::now() - started).count()};
}

void BM_RoundsUnderReads(benchmark::State& state) {
  const auto threads = static_cast<size_t>(state.range(0));
  std::unique_ptr<actors::runtime::DecisionEngine> engine;
  // The surfaces read whichever engine runs now, as ServeSurfaces reads its engine.
  std::atomic<actors::runtime::DecisionEngine*> current{nullptr};
  api::LiveStateRead live = [&current](const api::StateRead& read) {
    actors::runtime::DecisionEngine* e = current.load();
    if (e != nullptr) e->read_published_state(read);
  };
  api::LivePages live_pages = [&current]() -> actors::runtime::PublishedPages {
    actors::runtime::DecisionEngine* e = current.load();
    return e == nullptr ? nullptr : e->published();
  };
  api::ProcessMetrics process("bench", "bench");
  api::MetricsContext metrics_context;
  metrics_context.process = &process;
  metrics_context.live = live_pages;
  metrics_context.leader = [] { return true; };
  api::MetricsService metrics(metrics_context);
  std::unique_ptr<VisibilityReader> visibility;  // a fresh one (an empty cache) for each phase
  std::vector<std::string> targets;
  for (int q = 0; q < kShape.queues; ++q) {
    targets.push_back("/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/" + leaf_name(kShape, q) +
                      "/queueunits?limit=10");
  }
  std::atomic<int64_t> failures{0};
  PacedReader scraper(10, [&](uint64_t) { benchmark::DoNotOptimize(metrics.render()); });
  PacedReader reader(1000, [&](uint64_t n) {
    if (visibility->get(targets[n % targets.size()]) != 200) failures.fetch_add(1);
  });

  double bare_seconds = 0, alone_seconds = 0, reads_seconds = 0;
  int64_t bare_rounds = 0, alone_rounds = 0, reads_rounds = 0, decisions = 0;
  for (auto _ : state) {
    for (int phase = 0; phase < kPhases; ++phase) {
      const bool bare = phase % 3 == 0, reads = phase % 3 == 2;
      current = nullptr;
      engine.reset();
      engine = std::make_unique<actors::runtime::DecisionEngine>(actors::runtime::EngineOptions{threads, {}, true},
                                                                 base_state());
      current = bare ? nullptr : engine.get();
      testing::RecordChain chain;
      visibility = std::make_unique<VisibilityReader>(live, live_pages);
      if (reads) {
        scraper.start();
        reader.start();
      }
      const auto [rounds, seconds] = run_rounds(*engine, chain, decisions);
      if (reads) {
        scraper.stop();
        reader.stop();
        reads_rounds += rounds;
        reads_seconds += seconds;
      } else if (bare) {
        bare_rounds += rounds;
        bare_seconds += seconds;
      } else {
        alone_rounds += rounds;
        alone_seconds += seconds;
      }
    }
  }
  current = nullptr;
  const double alone = static_cast<double>(alone_rounds) / alone_seconds;
  const double under_reads = static_cast<double>(reads_rounds) / reads_seconds;
  state.counters["rounds_per_s_bare"] = static_cast<double>(bare_rounds) / bare_seconds;
  state.counters["read_side_cost"] = alone / (static_cast<double>(bare_rounds) / bare_seconds);
  state.counters["rounds_per_s_alone"] = alone;
  state.counters["rounds_per_s_reads"] = under_reads;
  state.counters["ratio"] = under_reads / alone;
  state.counters["scrape_p50_ms"] = percentile(scraper.latencies_ms(), 0.50);
  state.counters["scrape_p99_ms"] = percentile(scraper.latencies_ms(), 0.99);
  state.counters["scrapes"] = static_cast<double>(scraper.latencies_ms().size());
  state.counters["visibility_p50_ms"] = percentile(reader.latencies_ms(), 0.50);
  state.counters["visibility_p99_ms"] = percentile(reader.latencies_ms(), 0.99);
  state.counters["visibility_requests"] = static_cast<double>(reader.latencies_ms().size());
  state.counters["visibility_failures"] = static_cast<double>(failures.load());
  state.counters["decisions_per_round"] =
      static_cast<double>(decisions) / static_cast<double>(bare_rounds + alone_rounds + reads_rounds);
  state.counters["actor_threads"] = static_cast<double>(threads);
}
BENCHMARK(BM_RoundsUnderReads)->Arg(1)->Arg(2)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);

}  // namespace
}  // namespace koordq::bench

BENCHMARK_MAIN();
