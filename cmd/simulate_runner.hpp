// `koordq serve --simulate` (behaviour.md §21; design.md §3): the scenario and the serving
// surfaces from the flags, then controller::serve_simulation: the same start and loop as a
// cluster, with the in-process cluster simulator as the inbox source. With
// --simulate-clock=virtual one scenario and seed write a byte-identical journal.
#pragma once

#include "cmd/serve_flags.hpp"

namespace koordq::cmd {

int run_simulation(const ServeOptions& options);

}  // namespace koordq::cmd
