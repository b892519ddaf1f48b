// The round coordinator of one quota tree (design.md §3, canonical order): asks the tree's queue
// actors one after another in queue-name order, handing each the round so far (the tentative
// reservations of the earlier queues), and replies with the tree's decisions in that order.
#pragma once

#include <string>

#include <caf/all.hpp>

namespace koordq::actors::runtime {

caf::behavior tree_coordinator(caf::event_based_actor* self, std::string tree);

}  // namespace koordq::actors::runtime
