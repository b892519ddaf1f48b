#include "actors/runtime/quota_actor.hpp"

namespace koordq::actors::runtime {

caf::behavior quota_actor(caf::stateful_actor<QuotaActorState>* self, QuotaView initial) {
  self->state.view = std::move(initial);
  return {
      [self](update_atom, QuotaView& view) { self->state.view = std::move(view); },
      [self](get_atom) { return self->state.view; },
  };
}

}  // namespace koordq::actors::runtime
