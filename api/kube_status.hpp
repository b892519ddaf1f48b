// Kubernetes `Status` answers of the visibility API (behaviour.md §16.7).
#pragma once

#include <optional>
#include <string>

#include "api/api_error.hpp"
#include "api/http_server.hpp"

namespace koordq::api {

struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;
};

std::string render_status(const ApiError& error, const std::optional<StatusDetails>& details = std::nullopt);
HttpResponse status_response(const ApiError& error, const std::optional<StatusDetails>& details = std::nullopt);

// The visibility server's answers to a broken server limit (§16.1).
ApiError limit_error(ServerLimit limit);

}  // namespace koordq::api
