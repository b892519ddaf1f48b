#include "archive/archive_reader.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "archive/archived_snapshot.hpp"
#include "archive/segment.hpp"
#include "journal/export_line.hpp"
#include "journal/export_trailer.hpp"

namespace koordq::archive {
namespace {

Result<std::string> get_segment(S3Client& client, const ArchiveLocation& at, const ArchivedSegment& segment) {
  auto object = client.get_object(at.bucket, segment.key);
  if (!object.ok()) return make_error(object.error().text);
  return std::move(object).value();
}

// One archived snapshot against the lines of the segment that holds its seq; the problem, or empty.
std::string check_snapshot(S3Client& client, const ArchiveLocation& at, const ArchivedJournal& journal,
                           const ArchivedSnapshot& snapshot, std::string_view lines, const journal::VerifyingKey* key) {
  const std::string where = "snapshot " + snapshot.key;
  auto object = client.get_object(at.bucket, snapshot.key);
  if (!object.ok()) return where + ": " + object.error().text;
  auto parsed = parse_snapshot_object(object.value());
  if (!parsed.ok()) return where + ": " + parsed.message();
  auto chain_hash = hash_in_lines(lines, snapshot.seq);
  if (!chain_hash) return fmt::format("{}: the segment of seq {} does not hold it", where, snapshot.seq);
  const SnapshotName name{journal.cluster, journal.journal, snapshot.seq};
  if (auto mismatch = snapshot_object_mismatch(*parsed, name, *chain_hash, key)) return where + ": " + *mismatch;
  return {};
}

}  // namespace

std::string check_one(const ArchivedSegment& segment, const SegmentCheck& check,
                      const std::optional<SegmentEnd>& before) {
  const std::string where = "segment " + segment.key;
  if (!check.error.empty()) return where + ": " + check.error;
  if (check.journal_uuid != segment.name.journal) {
    return where + ": holds journal " + check.journal_uuid + ", not the " + segment.name.journal +
           " its key names (a segment of another journal under this prefix)";
  }
  if (check.report.first_seq != segment.name.first_seq || check.report.last_seq != segment.name.last_seq) {
    return fmt::format("{}: holds seq {}..{}, not the {}..{} its key names", where, check.report.first_seq,
                       check.report.last_seq, segment.name.first_seq, segment.name.last_seq);
  }
  if (before) {
    if (segment.name.first_seq > before->last_seq + 1) {
      return fmt::format("seq {}..{} is missing: no segment holds it (the one before {} ends at seq {})",
                         before->last_seq + 1, segment.name.first_seq - 1, segment.key, before->last_seq);
    }
    if (segment.name.first_seq <= before->last_seq) {
      return fmt::format("{}: starts at seq {}, inside the segment before it (which ends at seq {})", where,
                         segment.name.first_seq, before->last_seq);
    }
    if (check.first_prev_hash != before->head) {
      return fmt::format(
          "{}: its first record's prevHash {} is not the head {} of the segment before it (a fork "
          "or a replaced segment)",
          where, journal::to_hex(check.first_prev_hash), journal::to_hex(before->head));
    }
  }
  return {};
}

Result<std::vector<ArchivedJournal>> list_archive(S3Client& client, const ArchiveLocation& at, uint64_t* foreign) {
  std::map<std::pair<std::string, std::string>, ArchivedJournal> journals;
  std::map<std::pair<std::string, std::string>, std::vector<ArchivedSnapshot>> snapshots;
  uint64_t others = 0;
  std::string token;
  do {
    auto page = client.list_objects_v2(at.bucket, root_prefix(at), token);
    if (!page.ok()) return make_error(page.error().text);
    for (const ListedObject& object : page->objects) {
      if (auto snapshot = parse_snapshot_key(at, object.key)) {
        snapshots[{snapshot->cluster, snapshot->journal}].push_back({snapshot->seq, object.key, object.size});
        continue;
      }
      auto name = parse_segment_key(at, object.key);
      if (!name) {
        ++others;
        continue;
      }
      ArchivedJournal& j = journals[{name->cluster, name->journal}];
      j.cluster = name->cluster;
      j.journal = name->journal;
      j.bytes += object.size;
      j.segments.push_back({*name, object.key, object.size, object.last_modified});
    }
    token = page->truncated ? page->next_continuation_token : std::string();
  } while (!token.empty());
  std::vector<ArchivedJournal> out;
  for (auto& [id, j] : journals) {
    std::sort(j.segments.begin(), j.segments.end(), [](const ArchivedSegment& a, const ArchivedSegment& b) {
      return std::pair(a.name.first_seq, a.name.last_seq) < std::pair(b.name.first_seq, b.name.last_seq);
    });
    if (auto held = snapshots.find(id); held != snapshots.end()) {
      j.snapshots = std::move(held->second);
      snapshots.erase(held);
      std::sort(j.snapshots.begin(), j.snapshots.end(),
                [](const ArchivedSnapshot& a, const ArchivedSnapshot& b) { return a.seq < b.seq; });
      for (const ArchivedSnapshot& snapshot : j.snapshots) j.bytes += snapshot.size;
    }
    out.push_back(std::move(j));
  }
  for (const auto& [id, orphans] : snapshots) others += orphans.size();
  if (foreign != nullptr) *foreign = others;
  return out;
}

Result<ArchivedTimes> archived_times(S3Client& client, const ArchiveLocation& at, const ArchivedJournal& journal) {
  if (journal.segments.empty()) return ArchivedTimes{};
  auto time_of = [&](const ArchivedSegment& segment, bool first) -> Result<int64_t> {
    auto object = get_segment(client, at, segment);
    if (!object.ok()) return object.error();
    auto text = decompress_segment(*object);
    if (!text.ok()) return make_error("segment " + segment.key + ": " + text.message());
    std::string_view lines = *text;
    std::optional<int64_t> time;
    while (!lines.empty()) {
      const size_t end = lines.find('\n');
      const std::string_view line = lines.substr(0, end);
      lines.remove_prefix(end == std::string_view::npos ? lines.size() : end + 1);
      if (line.empty() || journal::is_export_trailer_line(line)) continue;
      auto record = journal::parse_export_line(line);
      if (!record.ok()) return make_error("segment " + segment.key + ": " + record.message());
      time = record->time();
      if (first) break;
    }
    if (!time) return make_error("segment " + segment.key + " holds no record");
    return *time;
  };
  ArchivedTimes out;
  auto first = time_of(journal.segments.front(), true);
  if (!first.ok()) return first.error();
  auto last = time_of(journal.segments.back(), false);
  if (!last.ok()) return last.error();
  out.first = *first;
  out.last = *last;
  return out;
}

ArchiveVerifyReport verify_archived_journal(S3Client& client, const ArchiveLocation& at, const ArchivedJournal& journal,
                                            const journal::VerifyingKey* key, const SegmentProgress& progress) {
  ArchiveVerifyReport report;
  std::optional<SegmentEnd> before;
  auto snapshot = journal.snapshots.begin();
  for (const ArchivedSegment& segment : journal.segments) {
    auto object = get_segment(client, at, segment);
    if (!object.ok()) {
      report.error = "segment " + segment.key + ": " + object.message();
      return report;
    }
    auto lines = decompress_segment(*object);
    const SegmentCheck check =
        lines.ok() ? check_segment_lines(*lines, key) : SegmentCheck{{}, {}, {}, lines.message()};
    if (std::string problem = check_one(segment, check, before); !problem.empty()) {
      report.error = std::move(problem);
      return report;
    }
    for (; snapshot != journal.snapshots.end() && snapshot->seq <= segment.name.last_seq; ++snapshot) {
      if (snapshot->seq < segment.name.first_seq) continue;  // before the archive's first segment
      if (std::string problem = check_snapshot(client, at, journal, *snapshot, *lines, key); !problem.empty()) {
        report.error = std::move(problem);
        return report;
      }
      ++report.snapshots;
    }
    if (!before) {
      report.first_seq = check.report.first_seq;
      report.from_genesis =
          check.report.first_seq == 1 && check.first_prev_hash == journal::genesis_hash(segment.name.journal);
    }
    before = SegmentEnd{check.report.last_seq, check.report.head};
    ++report.segments;
    report.records += check.report.records;
    report.last_seq = check.report.last_seq;
    report.head = check.report.head;
    if (key != nullptr) report.signed_by = check.report.signed_by;
    if (progress) progress(report.segments, journal.segments.size());
  }
  if (snapshot != journal.snapshots.end()) {
    report.error = fmt::format("snapshot {}: seq {} is past the archive's last segment (which ends at seq {})",
                               snapshot->key, snapshot->seq, report.last_seq);
  }
  return report;
}

Result<uint64_t> export_archived_journal(S3Client& client, const ArchiveLocation& at, const ArchivedJournal& journal,
                                         uint64_t from_seq, uint64_t to_seq, std::ostream& out,
                                         const SegmentProgress& progress) {
  journal::ExportTrailer trailer;
  trailer.journal_uuid = journal.journal;
  std::optional<SegmentEnd> before;
  uint64_t done = 0;
  for (const ArchivedSegment& segment : journal.segments) {
    ++done;
    if (segment.name.last_seq < from_seq) continue;
    if (segment.name.first_seq > to_seq) break;
    auto object = get_segment(client, at, segment);
    if (!object.ok()) return make_error("segment " + segment.key + ": " + object.message());
    auto text = decompress_segment(*object);
    if (!text.ok()) return make_error("segment " + segment.key + ": " + text.message());
    const SegmentCheck check = check_segment_lines(*text, nullptr);
    if (std::string problem = check_one(segment, check, before); !problem.empty()) return make_error(problem);
    before = SegmentEnd{check.report.last_seq, check.report.head};
    std::string_view lines = *text;
    std::string block;
    while (!lines.empty()) {
      const size_t end = lines.find('\n');
      const std::string_view line = lines.substr(0, end);
      lines.remove_prefix(end == std::string_view::npos ? lines.size() : end + 1);
      if (line.empty() || journal::is_export_trailer_line(line)) continue;
      uint64_t seq = 0;
      auto record = journal::parse_export_line(line, &seq);
      if (!record.ok()) return make_error("segment " + segment.key + ": " + record.message());
      if (seq < from_seq || seq > to_seq) continue;
      if (trailer.records == 0) {
        trailer.first_seq = seq;
        trailer.first_prev_hash = record->prev_hash();
      }
      trailer.last_seq = seq;
      trailer.head = record->hash();
      ++trailer.records;
      block.append(line);
      block.push_back('\n');
    }
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
    if (!out) return make_error("cannot write the export");
    if (progress) progress(done, journal.segments.size());
  }
  out << journal::render_export_trailer(trailer) << '\n';
  if (!out) return make_error("cannot write the export");
  return trailer.records;
}

}  // namespace koordq::archive
