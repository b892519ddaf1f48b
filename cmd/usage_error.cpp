#include "cmd/usage_error.hpp"

#include <string>

namespace koordq::cmd {
namespace {

std::string program(std::string_view command) {
  return command.empty() ? std::string("koordq") : "koordq " + std::string(command);
}

}  // namespace

Error usage_error(std::string_view command, std::string_view message) {
  return make_error(program(command) + ": " + std::string(message) + "; see '" + program(command) + " --help'");
}

Error usage_error_verbatim(std::string_view command, std::string_view message) {
  return make_error(program(command) + ": " + std::string(message));
}

Error invalid_value(std::string_view command, std::string_view flag, std::string_view value,
                    std::string_view requirement) {
  return usage_error(command, "invalid value \"" + std::string(value) + "\" for " + std::string(flag) + ": " +
                                  std::string(requirement));
}

}  // namespace koordq::cmd
