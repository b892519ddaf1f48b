#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cmd/command_line.hpp"
#include "cmd/exit_codes.hpp"

int main(int argc, char** argv) {
  using namespace koordq::cmd;
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    auto parsed = parse_command_line(args, current_environment());
    if (const auto* exit = std::get_if<CommandLineExit>(&parsed)) {
      std::fputs(exit->out.c_str(), stdout);
      std::fputs(exit->err.c_str(), stderr);
      return exit->exit_code;
    }
    return run_command(std::get<CommandOptions>(parsed));
  } catch (const std::exception& e) {
    // Exceptions are bugs; still end with one line rather than an abort.
    std::fprintf(stderr, "koordq: internal error: %s\n", e.what());
    return kExitCheckFailed;
  }
}
