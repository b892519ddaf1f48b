// What `serve` logs at start (behaviour.md §20, §21), apart from what its parts log themselves.
#pragma once

#include <string>
#include <vector>

#include "cmd/serve_flags.hpp"

namespace koordq::cmd {

// Level 0: a warning per ignored Koord-Queue flag. Level 1: the effective configuration.
void log_serve_configuration(const ServeOptions& options);

// Level 0: where metrics, the visibility API and the debug API listen, and under --simulate the
// ready-to-paste curl lines.
void log_serve_endpoints(const ServeOptions& options);

// The curl lines of §21 for --simulate: visibility (when enabled), debug API, metrics.
std::vector<std::string> simulate_curl_lines(const ServeOptions& options);

}  // namespace koordq::cmd
