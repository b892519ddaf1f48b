// The console's JSON endpoints under /console/api/ (docs/behaviour.md §25.3). Every state is
// rendered by the code `koordq at` and `koordq explain` print with, so the page shows exactly
// what the CLI prints for the same revision. Errors are {"error": "<message>"}.
#pragma once

#include "api/http_server.hpp"
#include "api/query_params.hpp"
#include "console/console_context.hpp"

namespace koordq::console {

// std::nullopt: not a console API path.
std::optional<api::HttpResponse> answer_console_api(const ConsoleContext& context, const api::RequestTarget& target);

}  // namespace koordq::console
