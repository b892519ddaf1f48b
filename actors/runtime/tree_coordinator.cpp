#include "actors/runtime/tree_coordinator.hpp"

#include <memory>

#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {
namespace {

struct TreeJob {
  StateView view;
  TreeQueues queues;
  size_t next = 0;
  TreeRound round;
  std::vector<Decision> decisions;
  caf::response_promise promise;
};

void next_queue(caf::event_based_actor* self, const std::shared_ptr<TreeJob>& job) {
  if (job->next == job->queues.queues.size()) {
    job->promise.deliver(DecisionList{std::move(job->decisions)});
    return;
  }
  const auto& [name, actor] = job->queues.queues[job->next++];
  self->request(actor, caf::infinite, decide_atom::value, job->view, QueueTurn{name, std::move(job->round)})
      .then(
          [self, job](QueueTurnResult& result) {
            job->round = std::move(result.round);
            for (auto& d : result.decisions) job->decisions.push_back(std::move(d));
            next_queue(self, job);
          },
          [job](caf::error& err) { job->promise.deliver(std::move(err)); });
}

}  // namespace

caf::behavior tree_coordinator(caf::event_based_actor* self, std::string) {
  return {
      [self](decide_atom, const StateView& view, TreeQueues& queues) {
        auto job = std::make_shared<TreeJob>();
        job->view = view;
        job->queues = std::move(queues);
        job->promise = self->make_response_promise();
        next_queue(self, job);
        return job->promise;
      },
  };
}

}  // namespace koordq::actors::runtime
