// What folding records changed in the state beyond what the records themselves name (design.md
// §4, read side): a capacity change ends the backoff of units in every queue of its subtree, a
// Queue event maps or unmaps units, a unit's charge moves the usage along its quota path. The read
// side rebuilds the pages of exactly these instead of every page a batch might reach. A Scheduler
// notes them only while one is attached (Scheduler::note_changes); the writer's notes nothing.
#pragma once

#include <set>
#include <string>

namespace koordq::actors {

struct FoldChanges {
  std::set<std::string> labels;  // quota labels of units whose state changed, before and after
  std::set<std::string> units;   // keys of units the fold refreshed
  std::set<std::string> queues;  // names of Queues whose state changed

  void clear() {
    labels.clear();
    units.clear();
    queues.clear();
  }
};

}  // namespace koordq::actors
