// A request target split into its path and query parameters (behaviour.md §16.4): values are
// percent-decoded ('+' is a space), a repeated parameter keeps its first value, and a parameter
// without '=' has the empty value.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace koordq::api {

struct RequestTarget {
  std::string path;  // percent-decoded
  std::map<std::string, std::string> params;

  std::optional<std::string_view> param(std::string_view name) const;
};

RequestTarget parse_target(std::string_view target);
// A comma-separated parameter value ("a,b" → {"a", "b"}; "" → {""}).
std::vector<std::string_view> split_list(std::string_view value);
std::string percent_decode(std::string_view text, bool plus_is_space);

}  // namespace koordq::api
