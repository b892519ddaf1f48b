#include "journal/export_records.hpp"

#include <algorithm>

#include "journal/audit_line.hpp"
#include "journal/export_line.hpp"
#include "journal/export_trailer.hpp"

namespace koordq::journal {

Result<uint64_t> export_records(JournalReader& reader, ExportFormat format, ExportRange range, std::ostream& out,
                                const std::function<void(uint64_t, uint64_t)>& progress, const SigningKey* key) {
  auto uuid = reader.uuid();
  if (!uuid.ok()) return uuid.error();
  uint64_t written = 0;
  int64_t last_time = 0;
  ExportTrailer trailer;
  trailer.journal_uuid = *uuid;
  auto cursor = reader.cursor(std::max<uint64_t>(range.from_seq, reader.first_seq()), range.to_seq);
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return next.error();
    if (!next->has_value()) break;
    const StoredRecord& r = **next;
    out << (format == ExportFormat::kNdjson ? render_export_line(r) : render_audit_line(r, *uuid)) << '\n';
    if (!out) return make_error("cannot write the export: output failed after " + std::to_string(written) + " records");
    ++written;
    if (written == 1) {
      trailer.first_seq = r.seq();
      trailer.first_prev_hash = r.prev_hash();
    }
    trailer.last_seq = r.seq();
    trailer.head = r.hash();
    last_time = r.time();
    if (progress && written % 16384 == 0) progress(r.seq(), written);
  }
  trailer.records = written;
  if (key != nullptr) sign_export_trailer(trailer, *key);
  out << (format == ExportFormat::kNdjson ? render_export_trailer(trailer) : render_audit_trailer(trailer, last_time))
      << '\n';
  out.flush();
  if (!out) return make_error("cannot write the export: output failed");
  return written;
}

}  // namespace koordq::journal
