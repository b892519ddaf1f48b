#include "cmd/console_flags.hpp"

#include "cmd/command_names.hpp"
#include "cmd/flag_reader.hpp"
#include "cmd/journal_source.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {

const CommandSpec& console_command_spec() {
  static const CommandSpec spec{
      .path = "console",
      .summary = "serve the time-travel web console over a journal (read-only)",
      .description =
          "Serves the web console over the journal in DIR, read-only, also while another process writes it: "
          "the history as a timeline, and every queue, quota and unit at any revision or time with the explain "
          "story of a unit, rendered by the code `koordq at` and `koordq explain` print with. Open the URL it "
          "prints (http://HOST:PORT/console/); the address in the page carries the revision and the selection, "
          "so a link opens the same view. A running serve serves the same console under /console/ on its debug "
          "listener (--api-handler-port). Stops on SIGINT or SIGTERM.",
      .usage = {"koordq console --journal-dir DIR [--listen HOST:PORT] [--state-cache-mb N]"},
      .arguments = {},
      .flag_groups =
          {
              {"Flags",
               {
                   kJournalDirFlag,
                   {"--listen", "", "HOST:PORT", "127.0.0.1:19877",
                    "where the console listens; keep it on loopback and reach it with an SSH tunnel or port-forward "
                    "(the console has no authentication); port 0 picks a free one"},
                   {"--state-cache-mb", "", "N", "256",
                    "memory for rebuilt states kept for revisions shown again (1..65536)"},
               }},
          },
      .subcommands = {},
      .sections = {},
      .exit_codes = offline_exit_codes(""),
  };
  return spec;
}

namespace {

// HOST:PORT, [IPv6]:PORT.
bool split_listen(const std::string& text, std::string& host, std::string& port) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return false;
  host = text.substr(0, colon);
  port = text.substr(colon + 1);
  if (host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return !host.empty();
}

}  // namespace

Result<ConsoleOptions> read_console_options(const ParsedFlags& flags, const CommandEnvironment&) {
  if (!flags.positionals().empty()) {
    return usage_error(kConsoleCommand, "unexpected argument \"" + flags.positionals()[0] + "\"");
  }
  ConsoleOptions o;
  FlagReader reader(kConsoleCommand, flags);
  o.journal_dir = std::string(kDefaultJournalDir);
  reader.non_empty_text(kJournalDirFlag.name, o.journal_dir);
  if (flags.given("--listen")) {
    std::string listen;
    reader.non_empty_text("--listen", listen);
    std::string host, port;
    int64_t number = -1;
    if (reader.ok() && split_listen(listen, host, port)) {
      try {
        size_t used = 0;
        number = std::stoll(port, &used);
        if (used != port.size()) number = -1;
      } catch (const std::exception&) {
        number = -1;
      }
    }
    if (number < 0 || number > 65535) {
      reader.reject("--listen", listen, "must be HOST:PORT with a port in 0..65535, e.g. 127.0.0.1:19877");
    } else {
      o.host = host;
      o.port = static_cast<uint16_t>(number);
    }
  }
  reader.integer("--state-cache-mb", o.cache_mb, 1, 65536);
  if (!reader.ok()) return reader.error();
  return o;
}

}  // namespace koordq::cmd
