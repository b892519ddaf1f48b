#include "cmd/commands.hpp"
#include "cmd/offline_placeholder.hpp"

namespace koordq::cmd {

int run_replay(const ReplayOptions& options) {
  return report_not_implemented("replay", options.source);
}

}  // namespace koordq::cmd
