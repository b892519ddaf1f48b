// `koordq serve` against a real cluster (design.md §1, §3, §7; behaviour.md §1, §19): the API
// clients and the serving surfaces from the flags, then controller::serve_cluster, whose loop
// journals what the watchers see, decides on the leader and hands the durable rounds' writes to
// the writers.
#pragma once

#include "cmd/serve_flags.hpp"

namespace koordq::cmd {

// Runs until SIGTERM/SIGINT (exit 0) or a failure (its exit code).
int run_cluster(const ServeOptions& options);

}  // namespace koordq::cmd
