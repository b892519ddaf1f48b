// The clock actor (clock_actor.hpp) of a DecisionEngine, driven from outside the actor world: the
// cluster serve loop arms it after every round with the state's next deadline and the time of the
// last record that round saw, and it hands a tick to the sequencer (`emit`) once the rule of
// tick_policy.hpp says one is due. The simulator's discrete-event loop asks TickPolicy itself,
// so that a virtual clock stays deterministic.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "actors/runtime/tick_policy.hpp"

namespace koordq::actors::runtime {

class DecisionEngine;

struct ClockHooks {
  std::function<int64_t()> now;           // wall clock, ns since the epoch
  std::function<void(int64_t now)> emit;  // hand a tick input to the sequencer
};

class Clock {
 public:
  // Spawns the clock actor in `engine`'s actor system; it stops when the handle goes.
  Clock(DecisionEngine& engine, TickPolicy policy, ClockHooks hooks);
  ~Clock();
  Clock(const Clock&) = delete;
  Clock& operator=(const Clock&) = delete;

  // After a round (or when deciding stops: no deadline), with the time of the last record that
  // round saw: every append goes through a round in the serve loop, so that time is all the clock
  // needs of the appends. A new arming replaces the pending timer.
  void arm(std::optional<int64_t> deadline, int64_t last_append);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace koordq::actors::runtime
