#include "actors/runtime/queue_actor.hpp"

#include <chrono>

#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {
namespace {

// Times each quota check of the queue's attempt: one observation per attempt (§15.2).
class CheckTimer : public QuotaCheckObserver {
 public:
  CheckTimer(const std::string& queue, const LatencyObserver& observe) : queue_(queue), observe_(observe) {}
  void before_check() override { start_ = std::chrono::steady_clock::now(); }
  void after_check() override {
    observe_(queue_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }

 private:
  const std::string& queue_;
  const LatencyObserver& observe_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

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
