// What commands read from the process besides their arguments, gathered in one place so that
// parsing stays a pure function of (arguments, environment) and tests can supply their own.
#pragma once

#include <optional>
#include <string>

namespace koordq::cmd {

struct CommandEnvironment {
  std::optional<std::string> pod_namespace;  // POD_NAMESPACE, when set and non-empty
  bool stdout_is_terminal = false;
};

CommandEnvironment current_environment();

}  // namespace koordq::cmd
