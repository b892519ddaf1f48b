// The log lines of decisions (behaviour.md §20), written by the serve loops and the router from
// what the decision logic decided and applied, never by the decision logic itself (it does no I/O):
//   --v=1  a queue's construction or change of policy, wait-for-pods-running, max-depth and
//          preemption; every preemption round with its victims
//   --v=2  each preemption decision (a victim marked)
//   --v=3  every decision of a round: its kind, unit (or queue), queue and reason
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/decision.hpp"
#include "actors/core/queue_settings.hpp"
#include "actors/core/scheduler.hpp"

namespace koordq::actors::runtime {

// A queue seen for the first time (`constructed`) or with other settings than before.
void log_queue_settings(const std::string& queue, const QueueSettings& settings, bool constructed);

// The queue settings as last logged, kept by the caller, and the state's settings version then.
struct LoggedQueueSettings {
  std::map<std::string, QueueSettings> by_queue;
  std::optional<uint64_t> version;
};

// Before a round: logs every queue of `s` that is new or whose settings differ from `logged`,
// and forgets the queues that are gone. Walks the queues only when their settings may have
// changed since the last call (Scheduler::settings_version).
void log_changed_queue_settings(const Scheduler& s, LoggedQueueSettings& logged);

// The decisions of round `round_seq` once it is durable.
void log_round(uint64_t round_seq, const std::vector<Decision>& decisions);

}  // namespace koordq::actors::runtime
