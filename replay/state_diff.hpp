// Comparing two decision states field by field (Scheduler has no operator==): every unit's object,
// pending write and derived and leader fields, every queue's order, cursor, blocks and preemption
// round, and the quota tree with its accounting. The result names each field that differs, so a
// replay that went its own way (replay --verify, the replay-equals-live tests) says where.
// `tests/unit/state_snapshot_round_trip_test.cpp` fails when a state struct gains a member not compared here.
#pragma once

#include <string>
#include <vector>

#include "actors/core/scheduler.hpp"

namespace koordq::replay {

// The fields in which two states differ (`unit <key>: <field>`, `queue <name>: <field>`,
// `scheduler: <field>`, `unit <key>: only in the first state`), empty when they are equal.
std::vector<std::string> state_differences(const actors::Scheduler& a, const actors::Scheduler& b);

// The differences joined with "; ".
std::string describe_differences(const std::vector<std::string>& differences);

}  // namespace koordq::replay
