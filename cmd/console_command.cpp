// `koordq console --journal-dir DIR` (behaviour.md §25.1): the console of console/ over a
// read-only instance of a journal, following it while another process writes it. Requests are
// answered on one thread, the instance they read is caught up on the command's own thread (a
// catch-up reads the writer's MANIFEST, tens of milliseconds on a 10M-record journal, which a
// request would wait for: BENCHMARKS.md "The scrub step after the timeline is indexed"), and the
// timeline is indexed on a third with an instance of its own.
#include <chrono>
#include <mutex>
#include <thread>

#include "api/http_server.hpp"
#include "base/log.hpp"
#include "cmd/command_names.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/stop_signal.hpp"
#include "console/console_service.hpp"
#include "console/journal_move_watch.hpp"
#include "console/journal_states.hpp"
#include "console/timeline_follower.hpp"

namespace koordq::cmd {
namespace {

// Catching up costs a directory listing: at most once a second. Never once the journal was moved
// aside: the directory then holds another journal.
std::function<void()> throttled_refresh(journal::JournalReader& reader, console::JournalMoveWatch& moves) {
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return [&reader, &moves, last] {
    const auto now = std::chrono::steady_clock::now();
    if (now - *last < std::chrono::seconds(1)) return;
    *last = now;
    if (moves.moved()) return;
    if (Status caught_up = reader.refresh(); !caught_up.ok()) {
      KQ_LOG_WARNING("console: catching up with the journal failed: {}", caught_up.message());
    }
  };
}

}  // namespace

int run_console(const ConsoleOptions& options) {
  auto reader = open_journal_for_reading(kConsoleCommand, options.journal_dir);
  if (!reader) return kExitJournalUnreadable;
  auto follower_reader = open_journal_for_reading(kConsoleCommand, options.journal_dir);
  if (!follower_reader) return kExitJournalUnreadable;
  auto uuid = reader->uuid();
  if (!uuid.ok()) return fail_command(kConsoleCommand, uuid.message(), kExitJournalUnreadable);

  console::JournalMoveWatch moves(options.journal_dir);
  journal::JournalReader& follow = *follower_reader;
  console::TimelineFollower follower(
      follow, [&follow] { return follow.last_seq(); }, throttled_refresh(follow, moves));
  console::JournalStates states(*reader, static_cast<size_t>(options.cache_mb) << 20);

  console::ConsoleContext context;
  context.reader = reader.get();
  journal::JournalReader& read = *reader;
  context.head = [&read] { return read.last_seq(); };
  context.moved = [&moves] { return moves.moved(); };
  context.state_at = [&states](uint64_t revision, const api::StateRead& state_read) {
    return states.read(revision, state_read);
  };
  context.timeline = &follower.index();
  context.journal_uuid = *uuid;
  context.source = options.journal_dir;

  api::HttpServerOptions server;
  server.name = "console";
  server.host = options.host;
  server.port = options.port;
  server.threads = 1;
  auto started = api::HttpServer::start(server, std::make_shared<console::ConsoleService>(std::move(context), nullptr));
  if (!started.ok()) {
    return fail_command(kConsoleCommand, started.message() + "; pass a free port with --listen HOST:PORT (0: any)",
                        kExitUsage);
  }
  const std::string host = options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
  KQ_LOG_INFO("console of journal {} ({} records) at http://{}:{}/console/ (read-only; Ctrl-C stops it)",
              options.journal_dir, read.last_seq(), host, (*started)->port());
  install_stop_signal_handlers();
  const auto refresh = throttled_refresh(read, moves);
  while (!stop_requested()) {
    refresh();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  (*started)->stop();
  return kExitSuccess;
}

}  // namespace koordq::cmd
