#include "cmd/simulate_runner.hpp"

#include <atomic>
#include <utility>

#include "base/log.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/serve_archive.hpp"
#include "cmd/serve_config.hpp"
#include "cmd/serve_end_code.hpp"
#include "cmd/serve_surfaces.hpp"
#include "cmd/stop_signal.hpp"
#include "cmd/surfaces_observer.hpp"
#include "cmd/wall_clock.hpp"
#include "controller/simulation_serve.hpp"

namespace koordq::cmd {
namespace {

// A visibility API that cannot start once the simulation is synced stops the run (exit 2).
class SimulationSurfacesObserver : public SurfacesObserver {
 public:
  SimulationSurfacesObserver(ServeSurfaces& surfaces, std::shared_ptr<ServeArchive> archive)
      : SurfacesObserver(surfaces, true, std::move(archive)) {}

  Status initial_sync_done() override {
    if (Status synced = SurfacesObserver::initial_sync_done(); !synced.ok()) {
      KQ_LOG_ERROR("{}", synced.message());
      refused = true;
      request_stop();
    }
    return ok_status();
  }

  bool refused = false;
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
  auto archive = ServeArchive::configure(options);
  if (!archive.ok()) {
    KQ_LOG_ERROR("{}", archive.message());
    return kExitUsage;
  }
  controller::SimulationServeOptions simulation;
  actors::runtime::EngineOptions engine{static_cast<size_t>(options.actor_threads), (*surfaces)->latency_observer(),
                                        true};
  // A discrete-event loop has nothing to run beside the round: unless told a thread count, it
  // decides on its own thread (a hop between threads costs more than a round of the default scenario).
  engine.on_calling_thread = virtual_clock && options.actor_threads == 0;
  simulation.start = start_options_of(options, std::move(engine));
  simulation.loop = loop_options_of(options);
  if (*archive) simulation.loop.upkeep.archived_seq = [a = *archive] { return a->archived_seq(); };
  simulation.scenario = std::move(scenario).value();
  simulation.scenario_name = options.scenario;
  simulation.seed = options.seed;
  simulation.virtual_clock = virtual_clock;
  simulation.duration_ns = options.simulate_duration_ns;
  simulation.speed_ppm = options.simulate_speed_ppm;
  simulation.wall_now = wall_now;
  simulation.config_record = [&options](const journal::Journal& j) {
    return make_config_body(options, j.uuid(), j.open_report().quarantined);
  };
  SimulationSurfacesObserver observer(**surfaces, *archive);
  const int code =
      exit_code_of(controller::serve_simulation(std::move(simulation), observer, simulated_now, stop_requested));
  if (code == kExitSuccess && observer.refused) return kExitUsage;
  return code;
}

}  // namespace koordq::cmd
