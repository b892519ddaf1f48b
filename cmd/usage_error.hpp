// Usage errors (exit code 2) are one line on stderr that names the command, the flag or argument,
// the value and the fix:
//   koordq serve: invalid value "abc" for --qps: must be a decimal > 0; see 'koordq serve --help'
#pragma once

#include <string_view>

#include "base/result.hpp"

namespace koordq::cmd {

// `koordq <command>: <message>; see 'koordq <command> --help'`; command is a path such as
// `journal export`, or empty for the root.
Error usage_error(std::string_view command, std::string_view message);

// `koordq <command>: <message>`, for the messages the specification fixes word for word.
Error usage_error_verbatim(std::string_view command, std::string_view message);

// `invalid value "<value>" for <flag>: <requirement>` as a usage_error.
Error invalid_value(std::string_view command, std::string_view flag, std::string_view value,
                    std::string_view requirement);

}  // namespace koordq::cmd
