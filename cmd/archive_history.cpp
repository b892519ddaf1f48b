#include "cmd/archive_history.hpp"

#include <fmt/format.h>

#include "archive/archived_snapshot.hpp"
#include "archive/segment_cache.hpp"
#include "archive/segment_fetch.hpp"
#include "archive/segment_selection.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "journal/export_line.hpp"
#include "journal/export_trailer.hpp"
#include "journal/keys.hpp"

namespace koordq::cmd {
namespace {

struct Failure {
  std::string message;
  int exit_code = kExitJournalUnreadable;
};

// The last record loaded from the archive.
struct Loaded {
  uint64_t seq = 0;
  journal::Hash hash{};
  int64_t time = 0;
  journal::Hash first_hash{};  // of the first record loaded
  uint64_t bytes = 0;          // of the segment objects read
};

// The records of `journal`'s archive in [from, to] into `out`, segment by segment, stopping after
// the first segment that reaches past `to_time`.
std::optional<Failure> load_archived(OpenedArchive& opened, archive::SegmentCache* cache,
                                     const archive::ArchivedJournal& journal, uint64_t from, uint64_t to,
                                     const HistoryRange& range, replay::ExportJournal& out, Loaded& loaded,
                                     archive::FetchCounts& counts) {
  to = std::min(to, journal.segments.back().name.last_seq);
  if (from > to) return std::nullopt;
  auto segments = archive::segments_for_range(journal.segments, from, to);
  if (!segments.ok()) {
    return Failure{fmt::format("seq {}..{} of journal {}: {}", from, to, journal.journal, segments.message()),
                   range.broken_exit_code};
  }
  std::optional<archive::SegmentEnd> before;
  for (const archive::ArchivedSegment& segment : *segments) {
    auto fetched = archive::fetch_segment(*opened.client, cache, opened.location, segment, range.key, counts);
    if (!fetched.ok()) return Failure{fetched.message()};
    if (!fetched->problem.empty()) return Failure{fetched->problem, range.broken_exit_code};
    if (std::string problem = archive::check_one(segment, fetched->check, before); !problem.empty()) {
      return Failure{problem, range.broken_exit_code};
    }
    before = archive::SegmentEnd{fetched->check.report.last_seq, fetched->check.report.head};
    std::string_view lines = fetched->lines;
    while (!lines.empty()) {
      const size_t end = lines.find('\n');
      const std::string_view line = lines.substr(0, end);
      lines.remove_prefix(end == std::string_view::npos ? lines.size() : end + 1);
      if (line.empty() || journal::is_export_trailer_line(line)) continue;
      // The segment was checked whole: every line is the rendering of a record that chains.
      auto record = journal::parse_export_line(line);
      if (!record.ok()) return Failure{"segment " + segment.key + ": " + record.message()};
      if (record->seq() < from) continue;
      if (record->seq() > to) break;
      if (Status added = out.add_record(*record); !added.ok()) return Failure{added.message()};
      if (loaded.seq == 0) loaded.first_hash = record->hash();
      loaded.seq = record->seq();
      loaded.hash = record->hash();
      loaded.time = record->time();
    }
    loaded.bytes += segment.size;
    if (range.to_time && loaded.time > *range.to_time) break;
  }
  return std::nullopt;
}

// A local journal answers alone when it holds seq 1, or (for a state) when one of its own snapshots
// lies between its first retained seq and the range's end.
bool local_suffices(journal::JournalReader& local, const HistoryRange& range) {
  if (local.first_seq() <= 1) return true;
  if (!range.from_snapshot) return false;
  std::optional<uint64_t> end = range.to_seq == UINT64_MAX ? local.last_seq() : range.to_seq;
  if (range.to_time) end = local.last_seq_at_or_before(*range.to_time);
  if (!end || *end < local.first_seq()) return false;
  auto snapshot = local.latest_snapshot_seq_at_or_before(*end);
  return snapshot.ok() && snapshot->has_value() && **snapshot >= local.first_seq();
}

// The local journal's records [first, to] and its snapshots among them, after the archive's.
std::optional<Failure> load_local(journal::JournalReader& local, uint64_t to, replay::ExportJournal& out) {
  const uint64_t first = local.first_seq();
  auto cursor = local.cursor(first, to);
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return Failure{"the local journal: " + next.message()};
    if (!next->has_value()) break;
    if (Status added = out.add_record(**next); !added.ok()) return Failure{added.message()};
  }
  for (const journal::SnapshotEntry& snapshot : local.snapshots()) {
    if (snapshot.seq < first || snapshot.seq > to) continue;
    auto bytes = local.store().get(local.store().snapshot(), journal::seq_key(snapshot.seq));
    auto anchor = local.meta(journal::snapshot_index_key(snapshot.seq));
    if (!bytes.ok() || !anchor.ok() || !*bytes || !*anchor) continue;  // dropped by retention meanwhile
    if (Status added = out.add_snapshot(snapshot.seq, **bytes, **anchor); !added.ok()) return Failure{added.message()};
  }
  return std::nullopt;
}

// The local journal of --journal-dir, which names the archive journal it continues (its own UUID).
std::optional<Failure> open_local(std::string_view command, const JournalSource& source, ArchiveTarget& target,
                                  std::unique_ptr<journal::JournalReader>& local) {
  local = open_journal_for_reading(command, source.path);
  if (!local) return Failure{""};  // reported by open_journal_for_reading
  auto uuid = local->uuid();
  if (!uuid.ok()) {
    return Failure{source.path + " is not a readable koordq journal: " + uuid.message() + "; pass --journal-dir"};
  }
  if (!target.journal.empty() && target.journal != *uuid) {
    return Failure{fmt::format("--archive-journal {} is not the journal in {} ({}): a local journal continues only "
                               "its own archive; drop --archive-journal, or --journal-dir to read that archive alone",
                               target.journal, source.path, *uuid),
                   kExitUsage};
  }
  target.journal = *uuid;
  return std::nullopt;
}

// The local journal after the archive's records: its first retained record must chain to the last
// one loaded from the archive.
std::optional<Failure> join_local(journal::JournalReader& local, const std::string& dir, const Loaded& loaded,
                                  const HistoryRange& range, replay::ExportJournal& out) {
  const uint64_t first_seq = local.first_seq();
  auto first = local.get(first_seq);
  if (!first.ok() || !first->has_value()) {
    return Failure{"the journal in " + dir + ": cannot read its first retained record"};
  }
  if (Status joined = archive::check_join(loaded.seq, loaded.hash, first_seq, (*first)->prev_hash()); !joined.ok()) {
    return Failure{joined.message(), range.broken_exit_code};
  }
  return load_local(local, range.to_seq, out);
}

// The first seq a state at the range's end can start from: the newest archived snapshot at or before
// it (for a time, before the first seq of the segment whose records reach it, found by reading the
// first record of a few segments); std::nullopt when none fits.
std::optional<archive::ArchivedSnapshot> choose_snapshot(OpenedArchive& opened, archive::SegmentCache* cache,
                                                         const archive::ArchivedJournal& journal, uint64_t from,
                                                         uint64_t to, const HistoryRange& range,
                                                         archive::FetchCounts& counts) {
  if (journal.snapshots.empty()) return std::nullopt;
  uint64_t bound = std::min(to, journal.segments.back().name.last_seq);
  if (range.to_time) {
    // The last segment whose first record is at or before the time holds the state's record.
    size_t low = 0, high = journal.segments.size();
    while (high - low > 1) {
      const size_t mid = low + (high - low) / 2;
      auto fetched =
          archive::fetch_segment(*opened.client, cache, opened.location, journal.segments[mid], range.key, counts);
      if (!fetched.ok() || !fetched->problem.empty()) return std::nullopt;  // the full read names it
      const std::string_view lines = fetched->lines;
      auto first = journal::parse_export_line(lines.substr(0, lines.find('\n')));
      if (!first.ok()) return std::nullopt;
      (first->time() <= *range.to_time ? low : high) = mid;
    }
    bound = std::min(bound, journal.segments[low].name.first_seq);
  }
  std::optional<archive::ArchivedSnapshot> out;
  for (const archive::ArchivedSnapshot& snapshot : journal.snapshots) {
    if (snapshot.seq > bound) break;
    if (snapshot.seq >= from) out = snapshot;
  }
  return out;
}

// The archived snapshot, checked against the chain hash of its seq (the first record loaded), into
// `out`; the problem, or empty.
std::string add_snapshot(OpenedArchive& opened, archive::SegmentCache* cache, const archive::ArchivedJournal& journal,
                         const archive::ArchivedSnapshot& snapshot, const journal::Hash& chain_hash,
                         const HistoryRange& range, replay::ExportJournal& out) {
  const archive::SnapshotName name{journal.cluster, journal.journal, snapshot.seq};
  archive::ArchivedSegment as_object;  // the cache keeps it like a segment: by key and size
  as_object.key = snapshot.key;
  as_object.size = snapshot.size;
  auto check = [&](std::string_view bytes) -> Result<archive::SnapshotObject> {
    auto parsed = archive::parse_snapshot_object(bytes);
    if (!parsed.ok()) return make_error("snapshot " + snapshot.key + ": " + parsed.message());
    if (auto mismatch = archive::snapshot_object_mismatch(*parsed, name, chain_hash, range.key)) {
      return make_error("snapshot " + snapshot.key + ": " + *mismatch);
    }
    return parsed;
  };
  std::optional<archive::SnapshotObject> object;
  if (cache != nullptr) {
    if (auto copy = cache->get(opened.location.bucket, as_object)) {
      if (auto checked = check(*copy); checked.ok())
        object = std::move(checked).value();
      else
        cache->drop(opened.location.bucket, as_object);
    }
  }
  if (!object) {
    auto fetched = opened.client->get_object(opened.location.bucket, snapshot.key);
    if (!fetched.ok()) return "snapshot " + snapshot.key + ": " + fetched.error().text;
    auto checked = check(fetched.value());
    if (!checked.ok()) return checked.message();
    object = std::move(checked).value();
    if (cache != nullptr) cache->put(opened.location.bucket, as_object, fetched.value());
  }
  if (Status added = out.add_snapshot(snapshot.seq, object->bytes, object->anchor); !added.ok()) {
    return added.message();
  }
  return {};
}

std::optional<archive::SegmentCache> open_cache(const ArchiveRead& read) {
  if (!read.cache) return std::nullopt;
  std::filesystem::path dir = read.cache_dir;
  if (dir.empty()) dir = archive::default_segment_cache_dir(archive::process_environment());
  return archive::SegmentCache(dir, static_cast<uint64_t>(read.cache_bytes));
}

// --archive-stats: what was read, and from where.
void print_stats(std::string_view command, const std::string& name,
                 const std::optional<archive::ArchivedSnapshot>& snapshot, const archive::FetchCounts& counts,
                 const archive::SegmentCache* cache) {
  std::fprintf(stderr,
               "koordq %.*s: %llu segments of %s read%s: %llu fetched, %llu from the cache %s, %llu fetched again "
               "(the cached copy did not check)\n",
               static_cast<int>(command.size()), command.data(),
               static_cast<unsigned long long>(counts.fetched + counts.cached + counts.refetched), name.c_str(),
               snapshot ? (" from the snapshot at seq " + std::to_string(snapshot->seq)).c_str() : "",
               static_cast<unsigned long long>(counts.fetched), static_cast<unsigned long long>(counts.cached),
               cache ? cache->dir().c_str() : "(off)", static_cast<unsigned long long>(counts.refetched));
}

}  // namespace

std::optional<OpenedHistory> open_archive_history(std::string_view command, const JournalSource& source,
                                                  const HistoryRange& range, int& exit_code) {
  auto fail = [&](const std::string& message, int code) -> std::optional<OpenedHistory> {
    exit_code = code;
    if (!message.empty()) fail_command(command, message, code);
    return std::nullopt;
  };
  ArchiveTarget target = source.archive.target;
  auto opened = open_archive(target);
  if (!opened.ok()) return fail(opened.message(), kExitUsage);

  std::unique_ptr<journal::JournalReader> local;
  if (source.local) {
    if (auto failure = open_local(command, source, target, local)) return fail(failure->message, failure->exit_code);
    if (local_suffices(*local, range)) {
      OpenedHistory out;
      out.name = "the journal in " + source.path;
      out.journal = std::move(local);
      out.reader = out.journal.get();
      return out;
    }
  }

  auto journals = archive::list_archive(*opened->client, opened->location);
  if (!journals.ok()) return fail(journals.message(), kExitJournalUnreadable);
  auto journal = pick_journal(std::move(journals).value(), target, "--archive-cluster", "--archive-journal");
  if (!journal.ok()) return fail(journal.message(), kExitJournalUnreadable);

  std::optional<archive::SegmentCache> cache = open_cache(source.archive);
  archive::SegmentCache* cached = cache ? &*cache : nullptr;
  auto created = replay::ExportJournal::create();
  if (!created.ok()) return fail(created.message(), kExitJournalUnreadable);
  OpenedHistory out;
  out.exported = std::move(created).value();
  out.name = "the archive " + opened->location.url() + " of journal " + journal->journal;
  if (local) out.name += " and the journal in " + source.path;

  const uint64_t local_first = local ? local->first_seq() : 0;
  uint64_t from = std::max(range.from_seq, journal->segments.front().name.first_seq);
  const uint64_t archive_to = local ? std::min(range.to_seq, local_first - 1) : range.to_seq;
  if (local && journal->segments.front().name.first_seq >= local_first) {
    return fail(fmt::format("the archive of journal {} starts at seq {}, not before the local journal's first "
                            "retained seq {}: it holds nothing older; read the journal in {} alone",
                            journal->journal, journal->segments.front().name.first_seq, local_first, source.path),
                range.broken_exit_code);
  }
  Loaded loaded;
  archive::FetchCounts counts;
  std::optional<archive::ArchivedSnapshot> snapshot;
  if (range.from_snapshot && !local) {
    snapshot = choose_snapshot(*opened, cached, *journal, from, archive_to, range, counts);
    if (snapshot) from = snapshot->seq;
  }
  if (from <= archive_to) {
    if (auto failure =
            load_archived(*opened, cached, *journal, from, archive_to, range, *out.exported, loaded, counts)) {
      return fail(failure->message, failure->exit_code);
    }
  }
  if (snapshot) {
    if (std::string problem =
            add_snapshot(*opened, cached, *journal, *snapshot, loaded.first_hash, range, *out.exported);
        !problem.empty()) {
      // Refused, as a journal refuses a snapshot that does not match its anchor: the records instead.
      std::fprintf(stderr, "koordq %.*s: warning: %s; rebuilding from the archive's first record instead\n",
                   static_cast<int>(command.size()), command.data(), problem.c_str());
      HistoryRange whole = range;
      whole.from_snapshot = false;
      return open_archive_history(command, source, whole, exit_code);
    }
  }
  const bool past_time = range.to_time && loaded.time > *range.to_time;
  if (local && range.to_seq >= local_first && !past_time) {
    if (auto failure = join_local(*local, source.path, loaded, range, *out.exported)) {
      return fail(failure->message, failure->exit_code);
    }
  }
  if (Status finished = out.exported->finish(journal->journal); !finished.ok()) {
    return fail(finished.message(), kExitJournalUnreadable);
  }
  out.reader = &out.exported->reader();
  out.stored_bytes = loaded.bytes + (local ? local->store().disk_bytes() : 0);
  if (source.archive.stats) print_stats(command, out.name, snapshot, counts, cache ? &*cache : nullptr);
  if (cache && !cache->warning().empty()) {
    std::fprintf(stderr, "koordq %.*s: warning: %s\n", static_cast<int>(command.size()), command.data(),
                 cache->warning().c_str());
  }
  return out;
}

}  // namespace koordq::cmd
