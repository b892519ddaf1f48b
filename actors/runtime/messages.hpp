// The messages the decision actors exchange (design.md §4). Every payload stays inside one
// process, so the types are registered as local-only (never serialized). A StateView hands a
// round's read-only state to the coordinators and queue actors: the router does not touch the
// state until every reply of the round is in, so nothing mutable is shared.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <caf/all.hpp>

#include "actors/core/decision.hpp"
#include "actors/core/quota_tree.hpp"
#include "actors/core/scheduler.hpp"
#include "journal/stored_record.hpp"

namespace koordq::actors::runtime {

using apply_atom = caf::atom_constant<caf::atom("apply")>;
using decide_atom = caf::atom_constant<caf::atom("decide")>;
using deadline_atom = caf::atom_constant<caf::atom("deadline")>;
using inspect_atom = caf::atom_constant<caf::atom("inspect")>;
using update_atom = caf::atom_constant<caf::atom("update")>;
using get_atom = caf::atom_constant<caf::atom("get")>;
using tick_atom = caf::atom_constant<caf::atom("tick")>;
using arm_atom = caf::atom_constant<caf::atom("arm")>;
using appended_atom = caf::atom_constant<caf::atom("appended")>;

// Stored records for the router, in seq order (records are move-only; messages are copied).
struct RecordBatch {
  std::shared_ptr<const std::vector<journal::StoredRecord>> records;
};

// The router's answer to a batch (how far it got) or to deadline_atom (also the earliest
// deadline: it walks every waiting unit, so it is computed only when asked).
struct ApplyReport {
  uint64_t applied_seq = 0;
  std::optional<std::string> error;  // the first record that failed (state untouched from there)
  std::optional<int64_t> next_deadline;
};

struct StateView {
  const Scheduler* scheduler = nullptr;
};

struct DecisionList {
  std::vector<Decision> decisions;
};

// A tree's queues in name order with the actor deciding each.
struct TreeQueues {
  std::vector<std::pair<std::string, caf::actor>> queues;
};

// One queue's turn in its tree's round: the round so far in, the round after it out.
struct QueueTurn {
  std::string queue;
  TreeRound round;
};

struct QueueTurnResult {
  TreeRound round;
  std::vector<Decision> decisions;
};

// What a quota actor holds: one ElasticQuota's place in the tree and its accounting, as changed
// by the batch ending at `seq` (and unchanged since).
struct QuotaView {
  uint64_t seq = 0;
  QuotaInfo info;
  std::string tree;
  QuotaUsage usage;
};

// Runs inside the router against the state at the router's current seq (projections, snapshots).
struct StateProbe {
  std::function<void(const Scheduler&, uint64_t applied_seq)> read;
};

}  // namespace koordq::actors::runtime

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::RecordBatch)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::ApplyReport)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::StateView)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::DecisionList)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::TreeQueues)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::QueueTurn)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::QueueTurnResult)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::QuotaView)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(koordq::actors::runtime::StateProbe)
