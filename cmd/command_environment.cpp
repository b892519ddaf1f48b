#include "cmd/command_environment.hpp"

#include <cstdlib>

#include <unistd.h>

namespace koordq::cmd {

CommandEnvironment current_environment() {
  CommandEnvironment env;
  if (const char* pod_namespace = std::getenv("POD_NAMESPACE"); pod_namespace != nullptr && *pod_namespace != '\0') {
    env.pod_namespace = pod_namespace;
  }
  env.stdout_is_terminal = isatty(STDOUT_FILENO) == 1;
  return env;
}

}  // namespace koordq::cmd
