#include "cmd/simulate_runner.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "actors/core/scheduler.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "actors/runtime/decision_log.hpp"
#include "actors/runtime/tick_policy.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "base/log.hpp"
#include "base/rfc3339.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/serve_config.hpp"
#include "cmd/serve_startup_log.hpp"
#include "cmd/serve_state.hpp"
#include "cmd/serve_surfaces.hpp"
#include "cmd/stop_signal.hpp"
#include "cmd/sync_appender.hpp"
#include "cmd/wall_clock.hpp"
#include "journal/cluster_identity.hpp"
#include "journal/journal.hpp"
#include "journal/retention.hpp"
#include "journal/watch_record.hpp"
#include "kube/ingest/relist_diff.hpp"
#include "kube/simulator/simulated_cluster.hpp"

namespace koordq::cmd {
namespace {

// The virtual clock starts here (2026-01-01T00:00:00Z) for a new journal.
constexpr int64_t kVirtualEpoch = 1767225600LL * base::kSecond;

class SimulationLoop {
 public:
  // `published_now` follows the simulated "now" (the clock asOf may not pass); `on_synced` runs
  // once the first batch, the start relist, is applied and decided on.
  SimulationLoop(const ServeOptions& options, journal::Journal& journal, kube::sim::SimulatedCluster& cluster,
                 actors::runtime::DecisionEngine& engine, int64_t now, std::atomic<int64_t>& published_now,
                 std::function<void()> on_synced)
      : published_now_(published_now),
        on_synced_(std::move(on_synced)),
        options_(options),
        journal_(journal),
        cluster_(cluster),
        engine_(engine),
        appender_(journal.writer()),
        now_(now),
        last_append_(now),
        virtual_(options.simulate_clock == SimulateClock::virtual_time),
        tick_policy_{options.tick_min_interval_ns},
        upkeep_(options, journal, engine) {}

  int run(int64_t end) {
    while (!stop_requested()) {
      const int64_t next = next_time();
      if (next > end) {
        if (!virtual_) sleep_until(end);  // on the wall clock the run lasts its whole duration
        break;
      }
      if (!virtual_) sleep_until(next);
      now_ = std::max(now_, virtual_ ? next : wall_now());
      if (now_ > end) break;
      published_now_.store(now_);
      for (auto& e : cluster_.advance_to(now_)) queue_watch(e.time, e.event);
      if (pending_.empty()) {
        if (!tick_policy_.tick_due(now_, engine_.next_deadline(), last_append_, last_tick_)) continue;
        pending_.push_back({now_, actors::make_tick_body()});
        last_tick_ = now_;
      }
      if (int code = cycle(); code != kExitSuccess) return code;
      if (on_synced_) std::exchange(on_synced_, nullptr)();
      upkeep_.after_cycle();
    }
    return kExitSuccess;
  }

  // Every start journals one relist epoch per resource (design.md §7): the simulated LIST against
  // the journaled state, between `relist` begin and end records, as the first input batch. The
  // cluster's watch then continues from the LIST's resourceVersion.
  void relist(const std::vector<schema::WatchedObject>& journaled) {
    for (auto kind : {schema::ObjectKind::kElasticQuota, schema::ObjectKind::kQueue, schema::ObjectKind::kQueueUnit}) {
      const std::string rv = cluster_.resource_version();
      pending_.push_back({now_, actors::make_relist_body(actors::RelistPhase::kBegin, kind, rv)});
      std::vector<schema::WatchedObject> known;
      for (const auto& o : journaled) {
        if (schema::kind_of(o) == kind) known.push_back(o);
      }
      for (const auto& e : kube::relist_diff(known, cluster_.list(kind))) {
        pending_.push_back({now_, journal::make_watch_body(e.event, raw_object_mode_of(options_), e.synthesized)});
      }
      pending_.push_back({now_, actors::make_relist_body(actors::RelistPhase::kEnd, kind, rv)});
    }
  }

  void snapshot() { upkeep_.snapshot(); }

 private:
  struct Input {
    int64_t time;
    std::unique_ptr<journal::CapnpRecordBody> body;
  };

  void queue_watch(int64_t time, const schema::WatchEvent& event) {
    pending_.push_back({time, journal::make_watch_body(event, raw_object_mode_of(options_))});
  }

  int64_t next_time() const {
    if (!pending_.empty()) return now_;
    std::optional<int64_t> t = cluster_.next_event_time();
    if (auto d = tick_policy_.next_tick(engine_.next_deadline(), last_append_, last_tick_); d && (!t || *d < *t)) {
      t = d;
    }
    if (!t) return virtual_ ? INT64_MAX : now_ + base::kSecond;
    return std::max(*t, now_ + (virtual_ ? 0 : options_.tick_min_interval_ns));
  }

  void sleep_until(int64_t t) const {
    while (!stop_requested()) {
      const int64_t left = t - wall_now();
      if (left <= 0) return;
      std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(left, 100 * base::kMillisecond)));
    }
  }

  // One input batch, its round, and the round's writes.
  int cycle() {
    std::vector<std::unique_ptr<journal::RecordBody>> bodies;
    for (auto& in : pending_) {
      if (virtual_) in.body->set_explicit_time(in.time);
      bodies.push_back(std::move(in.body));
    }
    pending_.clear();
    auto seqs = appender_.append(std::move(bodies));
    if (!seqs.ok()) return fail("journal write failed: " + seqs.message());
    if (int code = apply(*seqs); code != kExitSuccess) return code;
    const uint64_t basis = seqs->back();
    auto decided = engine_.decide();
    if (!decided.ok()) return fail(decided.message());
    const std::vector<actors::Decision> decisions = std::move(decided).value();
    auto round = actors::make_round_body(basis, decisions);
    if (virtual_) round->set_explicit_time(now_);
    std::vector<std::unique_ptr<journal::RecordBody>> round_bodies;
    round_bodies.push_back(std::move(round));
    auto round_seq = appender_.append(std::move(round_bodies));
    if (!round_seq.ok()) return fail("journal write failed: " + round_seq.message());
    if (int code = apply(*round_seq); code != kExitSuccess) return code;
    last_append_ = now_;
    actors::runtime::log_round(round_seq->front(), decisions);
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      auto result = cluster_.apply_decision(round_seq->front(), i, decisions[i], now_);
      for (const auto& o : result.outcomes) pending_.push_back({now_, actors::make_outcome_body(o)});
      for (auto& e : result.events) queue_watch(e.time, e.event);
    }
    return kExitSuccess;
  }

  // The router folds the durable records, read back from the journal like on replay.
  int apply(const std::vector<uint64_t>& seqs) {
    std::vector<journal::StoredRecord> records;
    for (uint64_t seq : seqs) {
      auto record = journal_.reader().get(seq);
      if (!record.ok() || !record->has_value()) return fail("cannot read back seq " + std::to_string(seq));
      records.push_back(std::move(**record));
    }
    if (Status s = engine_.apply(std::move(records)); !s.ok()) return fail(s.message());
    return kExitSuccess;
  }

  int fail(const std::string& message) const {
    KQ_LOG_ERROR("{}", message);
    return kExitJournalUnreadable;
  }

  std::atomic<int64_t>& published_now_;
  std::function<void()> on_synced_;
  const ServeOptions& options_;
  journal::Journal& journal_;
  kube::sim::SimulatedCluster& cluster_;
  actors::runtime::DecisionEngine& engine_;
  SyncAppender appender_;
  std::deque<Input> pending_;
  int64_t now_;
  int64_t last_append_;  // time of the last round, i.e. of the last appended record
  std::optional<int64_t> last_tick_;
  bool virtual_;
  actors::runtime::TickPolicy tick_policy_;
  JournalUpkeep upkeep_;
};

}  // namespace

int run_simulation(const ServeOptions& options) {
  install_stop_signal_handlers();
  auto scenario = kube::sim::load_scenario(options.scenario);
  if (!scenario.ok()) {
    KQ_LOG_ERROR("--scenario {}: {}", options.scenario, scenario.message());
    return kExitUsage;
  }
  scenario->queue_namespace = options.queue_namespace;  // the simulated Queues live where koordq looks
  const bool virtual_clock = options.simulate_clock == SimulateClock::virtual_time;
  std::atomic<int64_t> simulated_now{wall_now()};
  auto surfaces = ServeSurfaces::start(
      options, [&simulated_now, virtual_clock] { return virtual_clock ? simulated_now.load() : wall_now(); });
  if (!surfaces.ok()) {
    KQ_LOG_ERROR("{}", surfaces.message());
    return kExitUsage;
  }
  ServeSurfaces& served = **surfaces;
  auto opened_journal =
      open_serve_journal(options, journal::kSimulatorCluster, [&served] { served.metrics().count_quarantine(); });
  if (!opened_journal.ok()) return kExitJournalUnreadable;
  journal::Journal& j = *opened_journal->journal;
  actors::Scheduler scheduler = std::move(opened_journal->scheduler);
  const int64_t last_time = scheduler.now();
  const bool fresh = j.reader().last_seq() == 0;
  int64_t start = virtual_clock ? std::max(kVirtualEpoch, last_time) : std::max(wall_now(), last_time);
  simulated_now.store(start);

  // The process start is folded as read back, like every other record: the live state after it
  // is the one a replay folds (on the wall clock, its time is the record's).
  if (!append_process_start(j, scheduler, make_config_body(options, j.uuid(), j.open_report().quarantined),
                            virtual_clock ? std::optional<int64_t>(start) : std::nullopt)
           .ok()) {
    return kExitJournalUnreadable;
  }
  start = std::max(start, scheduler.now());
  simulated_now.store(start);

  kube::sim::SimulatedCluster cluster(std::move(scenario).value(), options.seed, start, options.simulate_speed_ppm);
  // Writes decided before the restart whose answer never came were journaled as unknown above: the
  // cluster is rebuilt from the journal and does not know them, so they did not land.
  if (!fresh) cluster.restore(journaled_objects(scheduler), start);
  KQ_LOG_INFO("simulating scenario {} (seed {}, {} clock) from {}; journal {} in {}", options.scenario, options.seed,
              virtual_clock ? "virtual" : "wall", base::format_rfc3339_millis(start), j.uuid(), options.journal_dir);
  const int64_t end = options.simulate_duration_ns > 0 ? start + options.simulate_duration_ns : INT64_MAX;
  actors::runtime::DecisionEngine engine(
      {static_cast<size_t>(options.actor_threads), (*surfaces)->latency_observer(), true}, std::move(scheduler),
      j.writer().durable_head().seq);
  KQ_V(1)("decision actors on {} threads", engine.threads());
  // The listeners read the engine: they stop before it does, on every path out.
  struct StopSurfaces {
    ServeSurfaces& surfaces;
    ~StopSurfaces() { surfaces.stop(); }
  } stop_surfaces{**surfaces};
  // --simulate leads from the start: there is no leader election (behaviour.md §21).
  if (Status attached = (*surfaces)->attach(j, engine, true); !attached.ok()) {
    KQ_LOG_ERROR("{}", attached.message());
    return kExitUsage;
  }
  for (const char* resource : {"elasticquotas", "queues", "queueunits"}) (*surfaces)->metrics().count_relist(resource);
  int sync_failure = kExitSuccess;
  SimulationLoop loop(options, j, cluster, engine, start, simulated_now, [&] {
    if (Status synced = (*surfaces)->initial_sync_done(); !synced.ok()) {
      KQ_LOG_ERROR("{}", synced.message());
      sync_failure = kExitUsage;
      request_stop();
    }
  });
  std::vector<schema::WatchedObject> journaled;
  engine.read_state([&](const actors::Scheduler& s, uint64_t) { journaled = journaled_objects(s); });
  loop.relist(journaled);
  int code = loop.run(end);
  if (code == kExitSuccess) code = sync_failure;
  loop.snapshot();
  int64_t stopped_at = start;
  engine.read_state([&](const actors::Scheduler& s, uint64_t) { stopped_at = s.now(); });
  const auto& stats = cluster.stats();
  KQ_LOG_INFO("simulation stopped at {}: {} units arrived, {} admissions, {} succeeded, {} failed; journal head seq {}",
              base::format_rfc3339_millis(stopped_at), stats.arrivals, stats.admissions, stats.succeeded, stats.failed,
              j.writer().durable_head().seq);
  return code;
}

}  // namespace koordq::cmd
