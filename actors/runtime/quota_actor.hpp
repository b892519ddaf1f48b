// One actor per ElasticQuota (design.md §4): holds the quota's place in the tree and its
// accounting (a new copy only after a batch that changed it), and hands out that copy (with its seq) to
// projections, so readers never touch the scheduling state.
#pragma once

#include <caf/all.hpp>

#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {

struct QuotaActorState {
  QuotaView view;
  static inline const char* name = "koordq.quota";
};

caf::behavior quota_actor(caf::stateful_actor<QuotaActorState>* self, QuotaView initial);

}  // namespace koordq::actors::runtime
