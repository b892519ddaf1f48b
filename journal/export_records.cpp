#include "journal/export_records.hpp"

#include <algorithm>

#include "journal/audit_line.hpp"
#include "journal/export_line.hpp"
#include "journal/export_trailer.hpp"
#include "journal/read_ahead_cursor.hpp"

namespace koordq::journal {
namespace {

// Lines go out in blocks of about this size: one write per block, not per line.
constexpr size_t kBlockBytes = 1 << 20;

// A record and, when the reading thread had time to render it, its line with the newline.
struct ExportItem {
  StoredRecord record;
  std::string line;
};

}  // namespace

Result<uint64_t> export_records(JournalReader& reader, ExportFormat format, ExportRange range, std::ostream& out,
                                const std::function<void(uint64_t, uint64_t)>& progress, const SigningKey* key) {
  auto uuid = reader.uuid();
  if (!uuid.ok()) return uuid.error();
  auto render = [&](std::string& to, const StoredRecord& r) {
    if (format == ExportFormat::kNdjson) {
      append_export_line(to, r);
    } else {
      to.append(render_audit_line(r, *uuid));
    }
    to.push_back('\n');
  };
  // The reading thread renders the lines too while the writer keeps up; when it falls behind it
  // hands records over as they are and the writer renders them, so both cores render.
  ReadAhead<ExportItem> ahead(
      reader.cursor(std::max<uint64_t>(range.from_seq, reader.first_seq()), range.to_seq),
      [&](StoredRecord&& r) -> Result<ExportItem> {
        ExportItem item{std::move(r), {}};
        render(item.line, item.record);
        return item;
      },
      [](StoredRecord&& r) -> Result<ExportItem> {
        return ExportItem{std::move(r), {}};
      });
  uint64_t written = 0;
  uint64_t flushed = 0;
  int64_t last_time = 0;
  ExportTrailer trailer;
  trailer.journal_uuid = *uuid;
  std::string block;
  block.reserve(kBlockBytes + (64 << 10));
  auto flush = [&] {
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
    block.clear();
    if (!out) return false;
    flushed = written;
    return true;
  };
  auto failed = [&] {
    return make_error("cannot write the export: output failed after " + std::to_string(flushed) + " records");
  };
  for (;;) {
    auto next = ahead.next();
    if (!next.ok()) return next.error();
    if (*next == nullptr) break;
    const StoredRecord& r = (*next)->record;
    if ((*next)->line.empty()) {
      render(block, r);
    } else {
      block.append((*next)->line);
    }
    ++written;
    if (block.size() >= kBlockBytes && !flush()) return failed();
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
  block.append(format == ExportFormat::kNdjson ? render_export_trailer(trailer)
                                               : render_audit_trailer(trailer, last_time));
  block.push_back('\n');
  if (!flush()) return failed();
  out.flush();
  if (!out) return make_error("cannot write the export: output failed");
  return written;
}

}  // namespace koordq::journal
