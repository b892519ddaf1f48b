#include "controller/simulation_serve.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/go_duration.hpp"
#include "base/log.hpp"
#include "base/rfc3339.hpp"
#include "controller/relist_changes.hpp"
#include "controller/simulated_cluster_inbox.hpp"
#include "journal/cluster_identity.hpp"

namespace koordq::controller {
namespace {

// The virtual clock starts here (2026-01-01T00:00:00Z) for a new journal.
constexpr int64_t kVirtualEpoch = 1767225600LL * base::kSecond;

std::vector<schema::WatchedObject> journaled_state(actors::runtime::DecisionEngine& engine) {
  std::vector<schema::WatchedObject> journaled;
  engine.read_state([&](const actors::Scheduler& s, uint64_t) { journaled = journaled_objects(s); });
  return journaled;
}

// The simulated cluster and the loop over it, once the journal is open and the router runs.
ServeEnd run_loop(SimulationServeOptions& options, ServeObserver& observer, std::atomic<int64_t>& simulated_now,
                  const std::function<bool()>& stop_requested, ServeStart& started, int64_t start) {
  journal::Journal& j = *started.journal;
  actors::runtime::DecisionEngine& engine = *started.engine;
  kube::sim::SimulatedCluster cluster(std::move(options.scenario), options.seed, start, options.speed_ppm);
  const std::vector<schema::WatchedObject> journaled = journaled_state(engine);
  // Writes decided before the restart whose answer never came were journaled as unknown at the
  // start: the cluster is rebuilt from the journal and does not know them, so they did not land.
  if (!started.fresh) cluster.restore(journaled, start);
  KQ_LOG_INFO("simulating scenario {} (seed {}, {} clock) from {}; journal {} in {}", options.scenario_name,
              options.seed, options.virtual_clock ? "virtual" : "wall", base::format_rfc3339_millis(start), j.uuid(),
              j.dir().string());
  KQ_V(1)("decision actors on {} threads", engine.threads());
  const int64_t end = options.duration_ns > 0 ? start + options.duration_ns : INT64_MAX;
  SimulatedClusterInbox inbox(SimulationClock{options.virtual_clock, start, end, options.loop.tick_min_interval_ns,
                                              options.wall_now, stop_requested},
                              cluster, engine, options.loop.raw_mode, simulated_now);
  inbox.relist(journaled);
  LoopOptions loop_options = options.loop;
  loop_options.leading_from_start = true;
  loop_options.survive_journal_failures = false;
  ServeLoop loop(loop_options,
                 LoopParts{j, engine, inbox, observer, [&inbox] { return inbox.writer(); }, stop_requested});
  const ServeEnd code = loop.run();
  loop.snapshot();
  int64_t stopped_at = start;
  engine.read_state([&](const actors::Scheduler& s, uint64_t) { stopped_at = s.now(); });
  const auto& stats = cluster.stats();
  KQ_LOG_INFO("simulation stopped at {}: {} units arrived, {} admissions, {} succeeded, {} failed; journal head seq {}",
              base::format_rfc3339_millis(stopped_at), stats.arrivals, stats.admissions, stats.succeeded, stats.failed,
              j.writer().durable_head().seq);
  return code;
}

}  // namespace

ServeEnd serve_simulation(SimulationServeOptions options, ServeObserver& observer, std::atomic<int64_t>& simulated_now,
                          const std::function<bool()>& stop_requested) {
  int64_t start = 0;
  StartHooks hooks;
  hooks.on_quarantine = [&observer] { observer.quarantined(); };
  hooks.config_record = options.config_record;
  // The process start is folded as read back, like every other record: the live state after it
  // is the one a replay folds (on the wall clock, its time is the record's).
  hooks.start_time = [&](const actors::Scheduler& s) -> std::optional<int64_t> {
    start = std::max(options.virtual_clock ? kVirtualEpoch : options.wall_now(), s.now());
    simulated_now.store(start);
    if (!options.virtual_clock) return std::nullopt;
    return start;
  };
  auto started = start_serve(options.start, journal::kSimulatorCluster, hooks);
  if (!started.ok()) return ServeEnd::kJournalFailed;
  start = std::max(start, started->state_time);
  simulated_now.store(start);
  // The surfaces read the engine: they stop before it does, on every path out.
  struct StopServing {
    ServeObserver& observer;
    ~StopServing() { observer.stop_serving(); }
  } stop_serving{observer};
  if (Status serving = observer.serving(*started->journal, *started->engine); !serving.ok()) {
    KQ_LOG_ERROR("{}", serving.message());
    return ServeEnd::kRefused;
  }
  for (const char* resource : {"elasticquotas", "queues", "queueunits"}) observer.relisted(resource);
  return run_loop(options, observer, simulated_now, stop_requested, *started, start);
}

}  // namespace koordq::controller
