// `koordq explain NS/NAME` (behaviour.md §24.2): folds the journal (what replay/explain_fold.hpp
// plans: with the per-unit index, only the unit's stretch of it) or the export (every record, from
// its oldest to WHEN) through replay::StoryFolder, and prints the story of one UID.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "base/log.hpp"
#include "base/rfc3339.hpp"
#include "cmd/archive_history.hpp"
#include "cmd/command_names.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/progress.hpp"
#include "journal/export_line.hpp"
#include "journal/export_trailer.hpp"
#include "journal/revision_lookup.hpp"
#include "replay/explain.hpp"
#include "replay/explain_fold.hpp"

namespace koordq::cmd {
namespace {

struct Failure {
  std::string message;
  int exit_code = kExitJournalUnreadable;
};

std::optional<Failure> fold_reader(const ExplainOptions& o, journal::JournalReader& reader,
                                   replay::StoryFolder& folder) {
  auto range = journal::retained_range(reader);
  if (!range.ok()) return Failure{range.message()};
  uint64_t end = range->last;
  if (o.at) {
    auto at = o.at->kind == When::Kind::revision
                  ? journal::check_revision(*range, o.at->revision)
                  : journal::revision_at_time(reader, *range, o.at->unix_nanos, o.at->text);
    if (!at.ok()) return Failure{at.message(), kExitUsage};
    end = *at;
  }
  if (range->first == 0) return std::nullopt;
  if (range->first > 1) {
    std::fprintf(stderr,
                 "koordq explain: warning: records before seq %llu were dropped by retention; the story starts "
                 "there, and phases and positions count only what the retained records show\n",
                 static_cast<unsigned long long>(range->first));
  }
  auto plan = replay::plan_story(reader, o.unit.namespace_name, o.unit.name, range->first, end);
  if (!plan.ok()) return Failure{plan.message()};
  if (!plan->indexed) {
    KQ_V(1)
    ("explain: no per-unit index covers seq {} (a journal written by an older koordq): folding every record",
     range->first);
  }
  TerminalProgress progress("explaining", plan->records());
  const Status folded =
      replay::fold_story(reader, *plan, folder, [&](uint64_t seq, uint64_t records) { progress.update(records, seq); });
  if (!folded.ok()) return Failure{folded.message()};
  return std::nullopt;
}

std::optional<Failure> fold_journal(const ExplainOptions& o, replay::StoryFolder& folder) {
  auto reader = open_journal_for_reading(kExplainCommand, o.source.path);
  if (!reader) return Failure{"", kExitJournalUnreadable};  // reported by open_journal_for_reading
  return fold_reader(o, *reader, folder);
}

// From the archive: the records up to --at (all of them without it).
std::optional<Failure> fold_archive(const ExplainOptions& o, replay::StoryFolder& folder) {
  HistoryRange needed;
  if (o.at && o.at->kind == When::Kind::revision) needed.to_seq = o.at->revision;
  if (o.at && o.at->kind == When::Kind::time) needed.to_time = o.at->unix_nanos;
  int exit_code = kExitJournalUnreadable;
  auto history = open_archive_history(kExplainCommand, o.source, needed, exit_code);
  if (!history) return Failure{"", exit_code};  // reported by open_archive_history
  return fold_reader(o, *history->reader, folder);
}

// An export is read as a stream: WHEN is checked against the records it holds as they go by.
std::optional<Failure> fold_export(const ExplainOptions& o, std::istream& in, replay::StoryFolder& folder) {
  TerminalProgress progress("explaining", 0);
  journal::RetainedRange range;
  std::string line;
  uint64_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || journal::is_export_trailer_line(line)) continue;
    auto record = journal::parse_export_line(line);
    if (!record.ok()) return Failure{"export line " + std::to_string(line_number) + ": " + record.message()};
    if (range.first == 0) {
      range.first = record->seq();
      range.first_time = record->time();
    } else if (record->seq() != range.last + 1) {
      return Failure{"export line " + std::to_string(line_number) + ": seq " + std::to_string(record->seq()) +
                     " does not follow seq " + std::to_string(range.last)};
    }
    if (o.at && o.at->kind == When::Kind::revision && record->seq() > o.at->revision) break;
    if (o.at && o.at->kind == When::Kind::time && record->time() > o.at->unix_nanos) break;
    range.last = record->seq();
    if (Status added = folder.add(*record); !added.ok()) return Failure{added.message()};
    progress.update(folder.records(), record->seq());
  }
  if (in.bad()) return Failure{"cannot read export " + o.source.path};
  if (!o.at) return std::nullopt;
  if (o.at->kind == When::Kind::revision) {
    // Reading stopped at the revision, or at the end of the export before it.
    journal::RetainedRange seen = range;
    seen.last = std::max(range.last, range.first);
    auto at = journal::check_revision(seen, o.at->revision);
    if (!at.ok()) return Failure{at.message(), kExitUsage};
  } else if (range.last == 0) {  // nothing at or before the time
    return Failure{"time " + o.at->text + " is older than the oldest retained revision " + std::to_string(range.first) +
                       (range.first ? " (" + base::format_rfc3339_millis(range.first_time) + ")" : std::string()),
                   kExitUsage};
  }
  return std::nullopt;
}

std::optional<Failure> fold_source(const ExplainOptions& o, replay::StoryFolder& folder) {
  if (o.source.kind == JournalSource::Kind::journal_dir) return fold_journal(o, folder);
  if (o.source.kind == JournalSource::Kind::archive) return fold_archive(o, folder);
  if (o.source.path == "-") return fold_export(o, std::cin, folder);
  std::ifstream in(o.source.path, std::ios::binary);
  if (!in) return Failure{"cannot read export file " + o.source.path + "; pass --export FILE (- reads stdin)"};
  return fold_export(o, in, folder);
}

}  // namespace

int run_explain(const ExplainOptions& options) {
  const std::string full_name = options.unit.namespace_name + "/" + options.unit.name;
  replay::StoryFolder folder(options.unit.namespace_name, options.unit.name);
  if (auto failure = fold_source(options, folder)) {
    if (failure->message.empty()) return failure->exit_code;
    return fail_command(kExplainCommand, failure->message, failure->exit_code);
  }
  const std::string not_found = "queueunit \"" + full_name + "\" not found";
  if (!folder.latest_uid()) return fail_command(kExplainCommand, not_found, kExitCheckFailed);
  const std::string uid = options.uid.value_or(*folder.latest_uid());
  const auto& uids = folder.uids();
  if (std::find(uids.begin(), uids.end(), uid) == uids.end()) {
    std::string known;
    for (const auto& u : uids) known += (known.empty() ? "" : ",") + u;
    return fail_command(kExplainCommand, not_found + " with uid " + uid + " (uids: " + known + ")", kExitCheckFailed);
  }
  const replay::Story story = folder.story(uid);
  const std::string text =
      options.output == ExplainOutput::json ? replay::render_story_json(story) : replay::render_story_text(story);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitSuccess;
}

}  // namespace koordq::cmd
