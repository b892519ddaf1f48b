// The names of the commands, as their messages and help text print them.
#pragma once

#include <string_view>

namespace koordq::cmd {

inline constexpr std::string_view kAtCommand = "at";
inline constexpr std::string_view kExplainCommand = "explain";
inline constexpr std::string_view kConsoleCommand = "console";
inline constexpr std::string_view kReplayCommand = "replay";
inline constexpr std::string_view kServeCommand = "serve";

}  // namespace koordq::cmd
