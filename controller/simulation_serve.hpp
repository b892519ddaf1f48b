// `koordq serve --simulate` (behaviour.md §21; design.md §3): koordq against the in-process
// cluster simulator, through the same start (serve_start.hpp) and the same ServeLoop as a
// cluster, with the simulator as the inbox source and the round writer. It leads from the start
// (there is no election). With a virtual clock one scenario and seed write a byte-identical
// journal.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "controller/loop_observer.hpp"
#include "controller/serve_end.hpp"
#include "controller/serve_loop.hpp"
#include "controller/serve_start.hpp"
#include "kube/simulator/scenario.hpp"

namespace koordq::controller {

struct SimulationServeOptions {
  StartOptions start;
  LoopOptions loop;
  kube::sim::Scenario scenario;
  std::string scenario_name;  // for the start log
  uint64_t seed = 0;
  bool virtual_clock = true;
  int64_t duration_ns = 0;  // 0: until stopped
  int64_t speed_ppm = 1'000'000;
  std::function<int64_t()> wall_now;
  std::function<std::unique_ptr<journal::CapnpRecordBody>(const journal::Journal&)> config_record;
};

// `simulated_now` follows the simulated "now" (the clock the surfaces' asOf may not pass).
ServeEnd serve_simulation(SimulationServeOptions options, ServeObserver& observer, std::atomic<int64_t>& simulated_now,
                          const std::function<bool()>& stop_requested);

}  // namespace koordq::controller
