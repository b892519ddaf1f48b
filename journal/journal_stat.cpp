#include "journal/journal_stat.hpp"

#include "base/json_string.hpp"
#include "base/rfc3339.hpp"

namespace koordq::journal {

Result<JournalStat> journal_stat(JournalReader& reader) {
  JournalStat s;
  auto uuid = reader.uuid();
  if (!uuid.ok()) return uuid.error();
  s.uuid = *uuid;
  s.first_seq = reader.first_seq();
  auto cursor = reader.cursor(s.first_seq == 0 ? 1 : s.first_seq);
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return next.error();
    if (!next->has_value()) break;
    const StoredRecord& r = **next;
    if (s.records == 0) s.first_time = r.time();
    ++s.records;
    ++s.kinds[static_cast<size_t>(r.kind())];
    s.last_seq = r.seq();
    s.last_time = r.time();
    s.head = r.hash();
  }
  if (s.records == 0) s.first_seq = 0;
  s.snapshots = reader.snapshots().size();
  s.bytes = reader.store().disk_bytes();
  return s;
}

namespace {

std::string time_or_none(const JournalStat& s, int64_t t) {
  return s.records == 0 ? std::string() : base::format_rfc3339_millis(t);
}

}  // namespace

std::string render_stat_text(const JournalStat& s) {
  std::string kinds;
  for (int i = 0; i < kRecordKindCount; ++i) {
    if (s.kinds[i] == 0) continue;
    if (!kinds.empty()) kinds += ",";
    kinds += std::string(kind_name(static_cast<RecordKind>(i))) + "=" + std::to_string(s.kinds[i]);
  }
  std::string out;
  out += "journal:    " + s.uuid + "\n";
  out += "records:    " + std::to_string(s.records) + "\n";
  out += "seq:        " + (s.records ? std::to_string(s.first_seq) + ".." + std::to_string(s.last_seq) : "") + "\n";
  out += "time:       " +
         (s.records ? time_or_none(s, s.first_time) + ".." + time_or_none(s, s.last_time) : std::string()) + "\n";
  out += "kinds:      " + kinds + "\n";
  out += "snapshots:  " + std::to_string(s.snapshots) + "\n";
  out += "bytes:      " + std::to_string(s.bytes) + "\n";
  out += "head:       " + (s.records ? to_hex(s.head) : std::string()) + "\n";
  return out;
}

std::string render_stat_json(const JournalStat& s) {
  std::string kinds;
  for (int i = 0; i < kRecordKindCount; ++i) {
    if (s.kinds[i] == 0) continue;
    if (!kinds.empty()) kinds += ",";
    kinds += "\"" + std::string(kind_name(static_cast<RecordKind>(i))) + "\":" + std::to_string(s.kinds[i]);
  }
  auto quoted_time = [&](int64_t t) { return s.records ? "\"" + base::format_rfc3339_millis(t) + "\"" : "null"; };
  std::string journal;
  base::append_json_string(journal, s.uuid);
  return "{\"journal\":" + journal + ",\"records\":" + std::to_string(s.records) +
         ",\"firstSeq\":" + std::to_string(s.first_seq) + ",\"lastSeq\":" + std::to_string(s.last_seq) +
         ",\"firstTime\":" + quoted_time(s.first_time) + ",\"lastTime\":" + quoted_time(s.last_time) + ",\"kinds\":{" +
         kinds + "},\"snapshots\":" + std::to_string(s.snapshots) + ",\"bytes\":" + std::to_string(s.bytes) +
         ",\"head\":" + (s.records ? "\"" + to_hex(s.head) + "\"" : std::string("null")) + "}\n";
}

}  // namespace koordq::journal
