// The console's own lists at a revision (docs/behaviour.md §25.3), for trees and queues too large
// to show whole: the quota tree cut from the top down (quota_tree_cut.hpp), and the Queues and
// QueueUnits whose name contains a text. Items are rendered as `koordq at` renders them; each
// list says how many it leaves out (`metadata.remainingItemCount`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "actors/core/scheduler.hpp"

namespace koordq::console {

// ElasticQuotaList of the quotas cut_quota_tree chooses, plus `hiddenChildren` (name → count).
std::string render_quota_tree(const actors::Scheduler& s, uint64_t revision, const std::string& match, size_t limit);
// QueueList of the Queues whose name contains `match`, in name order.
std::string render_queues_matching(const actors::Scheduler& s, uint64_t revision, const std::string& match,
                                   size_t limit);
// `items`: {namespace, name, queueName, phase} of the units whose NAMESPACE/NAME contains `match`,
// in key order.
std::string render_units_matching(const actors::Scheduler& s, uint64_t revision, const std::string& match,
                                  size_t limit);

}  // namespace koordq::console
