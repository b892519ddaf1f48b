// `koordq at -o yaml` (behaviour.md §24.1): the JSON body an endpoint serves, as the same document
// in block-style YAML with the keys in the same order.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace koordq::cmd {

// std::nullopt when `json` does not parse. Strings that a YAML reader would take for another type
// (numbers such as a quantity "4", times, true/false/null, the empty string) are double-quoted;
// the result ends with a newline.
std::optional<std::string> json_to_yaml(std::string_view json);

}  // namespace koordq::cmd
