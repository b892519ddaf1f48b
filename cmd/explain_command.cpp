#include "cmd/commands.hpp"
#include "cmd/offline_placeholder.hpp"

namespace koordq::cmd {

int run_explain(const ExplainOptions& options) {
  return report_not_implemented("explain", options.source);
}

}  // namespace koordq::cmd
