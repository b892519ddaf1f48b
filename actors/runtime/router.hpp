// The router (design.md §3–§4): owns the decision state, applies stored records strictly in seq
// order, runs each decide round by fanning the quota trees out to their coordinators (in
// parallel) and concatenating their decisions in tree-name order, then the unmapped units'.
// It keeps one actor per Queue, per ElasticQuota and per quota tree in step with the state, and
// refreshes each quota actor's copy after every batch that changed it.
#pragma once

#include <map>
#include <string>

#include <caf/all.hpp>

#include "actors/core/scheduler.hpp"
#include "actors/runtime/decision_log.hpp"
#include "actors/runtime/messages.hpp"
#include "actors/runtime/queue_actor.hpp"

namespace koordq::actors::runtime {

struct RouterState {
  Scheduler scheduler;
  uint64_t applied_seq = 0;
  LatencyObserver observe_latency;
  std::map<std::string, caf::actor> trees;   // tree name → coordinator
  std::map<std::string, caf::actor> queues;  // queue name → queue actor
  std::map<std::string, caf::actor> quotas;  // quota name → quota actor
  std::map<std::string, QuotaView> quota_views;
  LoggedQueueSettings queue_settings;  // as last logged (decision_log.hpp)
  static inline const char* name = "koordq.router";
};

caf::behavior router(caf::stateful_actor<RouterState>* self, Scheduler initial, uint64_t applied_seq,
                     LatencyObserver observe_latency);

}  // namespace koordq::actors::runtime
