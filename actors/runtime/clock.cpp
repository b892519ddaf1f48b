#include "actors/runtime/clock.hpp"

#include <caf/all.hpp>

#include "actors/runtime/clock_actor.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {

struct Clock::Impl {
  caf::actor actor;
};

Clock::Clock(DecisionEngine& engine, TickPolicy policy, ClockHooks hooks) : impl_(std::make_unique<Impl>()) {
  impl_->actor = engine.actor_system().spawn(clock_actor, policy, std::move(hooks));
}

Clock::~Clock() {
  caf::anon_send_exit(impl_->actor, caf::exit_reason::user_shutdown);
}

void Clock::arm(std::optional<int64_t> deadline, int64_t last_append) {
  caf::anon_send(impl_->actor, arm_atom::value, deadline.has_value(), deadline.value_or(0), last_append);
}

}  // namespace koordq::actors::runtime
