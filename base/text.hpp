// Small text helpers of the value parsers.
#pragma once

#include <string>
#include <string_view>

namespace koordq::base {

inline bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

// `"text"`, as the parsers' messages quote what they were given.
inline std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

}  // namespace koordq::base
