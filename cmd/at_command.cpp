#include "cmd/commands.hpp"
#include "cmd/offline_placeholder.hpp"

namespace koordq::cmd {

int run_at(const AtOptions& options) {
  return report_not_implemented("at", options.source);
}

}  // namespace koordq::cmd
