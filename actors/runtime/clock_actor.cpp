#include "actors/runtime/clock_actor.hpp"

#include <chrono>

#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {
namespace {

using Self = caf::stateful_actor<ClockState>;

void schedule(Self* self) {
  auto& st = self->state;
  const uint64_t generation = ++st.generation;
  const auto at = st.policy.next_tick(st.deadline, st.last_append, st.last_tick);
  if (!at) return;
  const int64_t wait = std::max<int64_t>(0, *at - st.hooks.now());
  self->delayed_send(self, std::chrono::nanoseconds(wait), tick_atom::value, generation);
}

}  // namespace

caf::behavior clock_actor(Self* self, TickPolicy policy, ClockHooks hooks) {
  self->state.policy = policy;
  self->state.hooks = std::move(hooks);
  return {
      [self](arm_atom, bool has_deadline, int64_t deadline, int64_t last_append) {
        auto& st = self->state;
        st.deadline = has_deadline ? std::optional<int64_t>(deadline) : std::nullopt;
        st.last_append = std::max(st.last_append, last_append);
        schedule(self);
      },
      [self](appended_atom, int64_t time) { self->state.last_append = std::max(self->state.last_append, time); },
      [self](tick_atom, uint64_t generation) {
        auto& st = self->state;
        if (generation != st.generation) return;  // coalesced into a later arming
        const int64_t now = st.hooks.now();
        if (!st.policy.tick_due(now, st.deadline, st.last_append, st.last_tick)) {
          schedule(self);
          return;
        }
        st.last_tick = now;
        st.deadline.reset();  // the round after the tick re-arms with the next deadline
        ++st.ticks;
        st.hooks.emit(now);
      },
      [self](get_atom) { return self->state.ticks; },
  };
}

}  // namespace koordq::actors::runtime
