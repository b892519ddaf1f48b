#include "actors/runtime/queue_actor.hpp"

#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {
caf::behavior queue_actor(caf::event_based_actor*, std::string queue, LatencyObserver observe) {
  return {
      [queue, observe](decide_atom, const StateView& view, QueueTurn& turn) {
        QueueTurnResult result;
        result.round = std::move(turn.round);
        if (observe) {
          CheckTimer timer(queue, observe);
          view.scheduler->decide_queue(queue, result.round, result.decisions, &timer);
        } else {
          view.scheduler->decide_queue(queue, result.round, result.decisions);
        }
        return result;
      },
  };
}

}  // namespace koordq::actors::runtime
