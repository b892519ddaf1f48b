// design.md §3: at start, a decided write whose answer never came gets an `unknown` outcome, which
// releases what it reserved; the watch then shows whether it had landed, and a later round
// decides (and writes) again. Unit status writes, spec.queue patches and auto-created Queue writes.
#pragma once

#include <vector>

#include "actors/core/scheduler.hpp"
#include "journal/journal.hpp"

namespace koordq::controller {

// The unit writes carry decision index 0: the state keeps only the round's seq of a unit's write.
std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s);
// The same, each unit write addressed to its decision's index in its round record (`reader`
// holds the rounds), so that explain and the outcome's reader find the decision it answers.
std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s, journal::JournalReader& reader);

}  // namespace koordq::controller
