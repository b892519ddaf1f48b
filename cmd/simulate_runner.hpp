// `koordq serve --simulate` (behaviour.md §21; design.md §3): koordq against the in-process
// cluster simulator, through the same journal → apply → decide → journal path as a cluster.
// One loop: the cluster's events up to now are journaled as one input batch, the state applies
// them as stored, one decide round follows and is journaled directly after its batch, and the
// round's writes go to the simulated API server, whose answers and watch events form the next
// batch. With --simulate-clock=virtual time jumps from event to event (nothing races the wall
// clock), so one scenario and seed write a byte-identical journal.
#pragma once

#include "cmd/serve_flags.hpp"

namespace koordq::cmd {

int run_simulation(const ServeOptions& options);

}  // namespace koordq::cmd
