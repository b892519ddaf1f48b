#include "actors/runtime/queue_actor.hpp"

#include <chrono>

#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {

caf::behavior queue_actor(caf::event_based_actor*, std::string queue, LatencyObserver observe) {
  return {
      [queue, observe](decide_atom, const StateView& view, QueueTurn& turn) {
        QueueTurnResult result;
        result.round = std::move(turn.round);
        const auto start = std::chrono::steady_clock::now();
        view.scheduler->decide_queue(queue, result.round, result.decisions);
        if (observe) {
          observe(queue, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return result;
      },
  };
}

}  // namespace koordq::actors::runtime
