#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "cmd/archive_history.hpp"
#include "cmd/command_names.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/progress.hpp"
#include "cmd/wall_clock.hpp"
#include "journal/revision_lookup.hpp"
#include "replay/export_journal.hpp"
#include "replay/replay.hpp"
#include "replay/what_if.hpp"

namespace koordq::cmd {
namespace {

// Off a terminal, a plain progress line this often (a log shows a long replay advancing).

// The revision --to names (default: the newest), with the messages of behaviour.md §16.7.
Result<uint64_t> resolve_to(journal::JournalReader& reader, const journal::RetainedRange& range,
                            const std::optional<When>& to) {
  if (!to) return range.last;
  if (to->kind == When::Kind::revision) return journal::check_revision(range, to->revision);
  if (to->unix_nanos > wall_now()) {
    return make_error("invalid value \"" + to->text +
                      "\" for --to: must be an RFC3339 time not in the future (or rev:N); see 'koordq replay --help'");
  }
  return journal::revision_at_time(reader, range, to->unix_nanos, to->text);
}

// The journal or export the options name, opened for reading; nullptr after printing why.
struct Source {
  std::unique_ptr<journal::JournalReader> journal;
  std::unique_ptr<replay::ExportJournal> exported;
  journal::JournalReader* reader = nullptr;
  std::string uuid;
  std::string name;  // for messages
};

// From the archive: the records up to --to (the whole archive without it).
std::optional<Source> open_archived_source(const ReplayOptions& options, int& exit_code) {
  HistoryRange needed;
  if (options.to && options.to->kind == When::Kind::revision) needed.to_seq = options.to->revision;
  if (options.to && options.to->kind == When::Kind::time) needed.to_time = options.to->unix_nanos;
  auto history = open_archive_history(kReplayCommand, options.source, needed, exit_code);
  if (!history) return std::nullopt;
  Source out;
  out.name = history->name;
  out.journal = std::move(history->journal);
  out.exported = std::move(history->exported);
  out.reader = history->reader;
  auto uuid = out.reader->uuid();
  out.uuid = uuid.ok() ? *uuid : std::string("unknown");
  return out;
}

std::optional<Source> open_source(const ReplayOptions& options, int& exit_code) {
  const JournalSource& source = options.source;
  if (source.kind == JournalSource::Kind::archive) return open_archived_source(options, exit_code);
  Source out;
  exit_code = kExitJournalUnreadable;
  if (source.kind == JournalSource::Kind::journal_dir) {
    out.name = "the journal in " + source.path;
    out.journal = open_journal_for_reading(kReplayCommand, source.path);
    if (!out.journal) return std::nullopt;
    out.reader = out.journal.get();
    auto uuid = out.reader->uuid();
    if (!uuid.ok()) {
      fail_command(kReplayCommand,
                   source.path + " is not a readable koordq journal: " + uuid.message() + "; pass --journal-dir",
                   kExitJournalUnreadable);
      return std::nullopt;
    }
    out.uuid = *uuid;
    return out;
  }
  out.name = source.path == "-" ? std::string("the export on stdin") : "the export " + source.path;
  std::ifstream file;
  std::istream* in = &std::cin;
  if (source.path != "-") {
    std::error_code ec;
    if (!std::filesystem::exists(source.path, ec)) {
      fail_command(kReplayCommand, "export file " + source.path + " does not exist; pass --export FILE (- reads stdin)",
                   kExitJournalUnreadable);
      return std::nullopt;
    }
    file.open(source.path, std::ios::binary);
    if (!file) {
      fail_command(kReplayCommand, "cannot read export file " + source.path, kExitJournalUnreadable);
      return std::nullopt;
    }
    in = &file;
  }
  std::optional<journal::ChainBreak> broken;
  TerminalProgress progress("reading the export", 0, kPlainProgressEvery);
  auto loaded = replay::ExportJournal::load(*in, broken, [&](uint64_t seq, uint64_t n) { progress.update(n, seq); });
  if (!loaded.ok()) {
    if (broken) {
      const std::string where = broken->seq > 0 ? " is broken at seq " + std::to_string(broken->seq)
                                                : std::string(" is not a journal export");
      fail_command(kReplayCommand,
                   out.name + where + " (" + broken->reason +
                       "); check it with 'koordq journal verify --export', or export the journal again",
                   kExitJournalUnreadable);
    } else {
      fail_command(kReplayCommand, "cannot read " + out.name + ": " + loaded.message(), kExitJournalUnreadable);
    }
    return std::nullopt;
  }
  out.exported = std::move(loaded).value();
  out.reader = &out.exported->reader();
  out.uuid = out.exported->uuid().empty() ? std::string("unknown") : out.exported->uuid();
  if (const uint64_t first = out.reader->first_seq(); first > 1) {
    fail_command(kReplayCommand,
                 out.name + " starts at seq " + std::to_string(first) +
                     "; a replay needs every record from seq 1: export the journal without --from",
                 kExitJournalUnreadable);
    return std::nullopt;
  }
  return out;
}

// The settings the --what-if arguments change; a later argument for the same key wins.
replay::WhatIfSettings what_if_settings(const std::vector<WhatIfChange>& changes) {
  replay::WhatIfSettings out;
  for (const auto& c : changes) {
    std::visit(
        [&](const auto& change) {
          using T = std::decay_t<decltype(change)>;
          if constexpr (std::is_same_v<T, OversellRateChange>) {
            out.oversell_rate_ppm = change.rate_ppm;
          } else if constexpr (std::is_same_v<T, PodInitialBackoffChange>) {
            out.initial_backoff_seconds = change.seconds;
          } else if constexpr (std::is_same_v<T, PodMaxBackoffChange>) {
            out.max_backoff_seconds = change.seconds;
          } else if constexpr (std::is_same_v<T, QueuePolicyChange>) {
            out.queue_policy[change.queue] = change.policy;
          } else if constexpr (std::is_same_v<T, QueueAnnotationChange>) {
            out.queue_annotations[change.queue][change.key] = change.value;
          } else {
            out.quota_max[change.quota][change.resource] = change.quantity;
          }
        },
        c.change);
  }
  return out;
}

}  // namespace

int run_replay(const ReplayOptions& options) {
  int exit_code = kExitSuccess;
  auto source = open_source(options, exit_code);
  if (!source) return exit_code;
  journal::JournalReader& reader = *source->reader;

  auto range = journal::retained_range(reader);
  if (!range.ok()) return fail_command(kReplayCommand, range.message(), kExitJournalUnreadable);
  if (range->last == 0) {
    return fail_command(kReplayCommand, source->name + " holds no records: nothing to replay", kExitJournalUnreadable);
  }
  auto target = resolve_to(reader, *range, options.to);
  if (!target.ok()) return fail_command(kReplayCommand, target.message(), kExitUsage);

  const uint64_t first = range->first;
  const std::string corrupt_hint = options.source.kind == JournalSource::Kind::journal_dir
                                       ? "; check the journal with 'koordq journal verify'"
                                   : options.source.kind == JournalSource::Kind::archive
                                       ? "; check the archive with 'koordq archive verify'"
                                       : "; check the export with 'koordq journal verify --export'";

  if (!options.what_if.empty()) {
    auto recorded = replay::recorded_decision_config(reader, *target);
    if (!recorded.ok()) {
      return fail_command(kReplayCommand, "cannot replay " + source->name + ": " + recorded.message() + corrupt_hint,
                          kExitJournalUnreadable);
    }
    if (Status order =
            check_backoff_order(options.what_if, recorded->initial_backoff_nanos, recorded->max_backoff_nanos);
        !order.ok()) {
      return fail_command(kReplayCommand, order.message(), kExitUsage);
    }
    // Every record is walked once per pass.
    TerminalProgress progress("re-deciding", replay::kWhatIfPasses * (*target - first + 1), kPlainProgressEvery);
    auto result = replay::what_if(reader, *target, what_if_settings(options.what_if),
                                  [&](uint64_t seq, uint64_t walked) { progress.update(walked, seq); });
    if (!result.ok()) {
      return fail_command(kReplayCommand, "cannot replay " + source->name + ": " + result.message() + corrupt_hint,
                          kExitJournalUnreadable);
    }
    std::vector<std::pair<std::string, std::string>> changes;
    for (const auto& c : options.what_if) changes.emplace_back(c.key, c.value);
    const std::string text = options.output == ReplayOutput::json ? replay::render_what_if_json(*result, changes)
                                                                  : replay::render_what_if_text(*result);
    std::fputs(text.c_str(), stdout);
    return kExitSuccess;
  }

  TerminalProgress progress(options.verify ? "verifying" : "replaying", *target - first + 1, kPlainProgressEvery);
  auto on_progress = [&](uint64_t seq, uint64_t) { progress.update(seq - first + 1, seq); };
  if (!options.verify) {
    auto replayed = replay::replay_to(reader, *target, on_progress);
    if (!replayed.ok()) {
      return fail_command(kReplayCommand, "cannot replay " + source->name + ": " + replayed.message() + corrupt_hint,
                          kExitJournalUnreadable);
    }
    const auto summary =
        replay::summarize(replayed->scheduler, source->uuid, replayed->seq, replayed->time, replayed->seq - first + 1);
    const std::string text = options.output == ReplayOutput::json ? replay::render_summary_json(summary)
                                                                  : replay::render_summary_text(summary);
    std::fputs(text.c_str(), stdout);
    return kExitSuccess;
  }

  auto verified = replay::verify_rounds(reader, *target, on_progress);
  if (!verified.ok()) {
    return fail_command(kReplayCommand, "cannot verify " + source->name + ": " + verified.message() + corrupt_hint,
                        kExitJournalUnreadable);
  }
  const std::string text = options.output == ReplayOutput::json ? replay::render_verify_json(*verified)
                                                                : replay::render_verify_text(*verified);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (verified->divergence) {
    return fail_command(kReplayCommand,
                        "divergence at seq " + std::to_string(verified->divergence->seq) + " (basis " +
                            std::to_string(verified->divergence->basis) +
                            "): the replayed decisions differ from the recorded ones",
                        kExitCheckFailed);
  }
  if (verified->snapshot_mismatch) {
    return fail_command(kReplayCommand,
                        "the snapshot at seq " + std::to_string(verified->snapshot_mismatch->seq) +
                            " differs from the fold of the records up to it: a serve restarted from it decides "
                            "otherwise than a replay; report it with the journal (`koordq journal export`)",
                        kExitCheckFailed);
  }
  if (verified->version_mismatch) {
    return fail_command(kReplayCommand,
                        "the journal was written by decision-logic version " +
                            std::to_string(verified->version_mismatch->journal) + " (config record at seq " +
                            std::to_string(verified->version_mismatch->seq) + "), this binary runs version " +
                            std::to_string(verified->version_mismatch->binary) +
                            ": verify it with the koordq release that wrote it",
                        kExitCheckFailed);
  }
  return kExitSuccess;
}

}  // namespace koordq::cmd
