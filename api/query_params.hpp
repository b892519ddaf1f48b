// A request target split into its path and query parameters (behaviour.md §16.4): values are
// percent-decoded ('+' is a space), a repeated parameter keeps its first value, and a parameter
// without '=' has the empty value.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace koordq::api {

struct RequestTarget {
  std::string path;  // percent-decoded
  std::map<std::string, std::string> params;

  std::optional<std::string_view> param(std::string_view name) const;
};

RequestTarget parse_target(std::string_view target);
std::string percent_decode(std::string_view text, bool plus_is_space);

}  // namespace koordq::api
