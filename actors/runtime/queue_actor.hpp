// One actor per Queue (design.md §4): decides its queue's part of a tree's round on the round's
// read-only state, and times each quota check of an attempt for job_scheduling_algorithm_latency
// (a process-local measurement that never enters a record).
#pragma once

#include <functional>
#include <string>

#include <caf/all.hpp>

#include "actors/core/scheduler.hpp"
#include "actors/runtime/check_timer.hpp"

namespace koordq::actors::runtime {

caf::behavior queue_actor(caf::event_based_actor* self, std::string queue, LatencyObserver observe);

}  // namespace koordq::actors::runtime
