// `koordq serve` against a real cluster (design.md §1, §3, §7; behaviour.md §1, §19): the watchers
// feed the sequencer, each input batch is applied, the leader decides a round on it, and once the
// round is durable the writers carry out its writes, whose answers come back as `outcome` inputs.
#pragma once

#include "cmd/serve_flags.hpp"

namespace koordq::cmd {

// Runs until SIGTERM/SIGINT (exit 0) or a failure (its exit code).
int run_cluster(const ServeOptions& options);

}  // namespace koordq::cmd
