#include <filesystem>
#include <system_error>

#include "base/log.hpp"
#include "cmd/cluster_runner.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/serve_startup_log.hpp"
#include "cmd/simulate_runner.hpp"

namespace koordq::cmd {
namespace {

// --simulate runs as a normal user in the working directory (behaviour.md §21).
Status create_journal_dir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return make_error("cannot create the journal directory " + dir + ": " + error.message());
  return ok_status();
}

}  // namespace

int run_serve(const ServeOptions& options) {
  if (options.simulate) {
    if (Status created = create_journal_dir(options.journal_dir); !created.ok()) {
      KQ_LOG_ERROR("{}", created.message());
      return kExitJournalUnreadable;
    }
    return run_simulation(options);
  }
  if (Status created = create_journal_dir(options.journal_dir); !created.ok()) {
    KQ_LOG_ERROR("{}", created.message());
    return kExitJournalUnreadable;
  }
  return run_cluster(options);
}

}  // namespace koordq::cmd
