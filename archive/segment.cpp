#include "archive/segment.hpp"

#include <sstream>

#include <fmt/format.h>
#include <zstd.h>

#include "journal/export_line.hpp"
#include "journal/export_records.hpp"
#include "journal/export_trailer.hpp"

namespace koordq::archive {
namespace {

// zstd's level 3 (its default): about 5x on export lines at a few hundred MB/s on one core.
constexpr int kZstdLevel = 3;

// The last line of an export: its trailer.
std::string_view last_line(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  const size_t newline = text.rfind('\n');
  return newline == std::string_view::npos ? text : text.substr(newline + 1);
}

}  // namespace

Result<BuiltSegment> build_segment(journal::JournalReader& reader, uint64_t first, uint64_t last,
                                   const journal::SigningKey* key) {
  if (first == 0 || last < first) return make_error("an empty segment range");
  if (reader.first_seq() > first || reader.last_seq() < last) {
    return make_error(fmt::format("seq {}..{} is not all in the journal (it holds {}..{})", first, last,
                                  reader.first_seq(), reader.last_seq()));
  }
  std::ostringstream lines;
  auto written = journal::export_records(reader, journal::ExportFormat::kNdjson, {first, last}, lines, {}, key);
  if (!written.ok()) return written.error();
  if (*written != last - first + 1) {
    return make_error(fmt::format("seq {}..{}: read {} records, expected {}", first, last, *written, last - first + 1));
  }
  const std::string text = std::move(lines).str();
  BuiltSegment out;
  out.records = *written;
  out.uncompressed_bytes = text.size();
  out.bytes.resize(ZSTD_compressBound(text.size()));
  const size_t size = ZSTD_compress(out.bytes.data(), out.bytes.size(), text.data(), text.size(), kZstdLevel);
  if (ZSTD_isError(size)) return make_error(std::string("zstd: ") + ZSTD_getErrorName(size));
  out.bytes.resize(size);
  // The head is the trailer's, which names the last record's hash.
  auto trailer = journal::parse_export_trailer(last_line(text));
  if (!trailer.ok()) return make_error("the segment's own trailer does not parse: " + trailer.message());
  out.head = trailer->head;
  return out;
}

Result<std::string> decompress_segment(std::string_view object) {
  const unsigned long long size = ZSTD_getFrameContentSize(object.data(), object.size());
  if (size == ZSTD_CONTENTSIZE_ERROR) return make_error("not a zstd frame (a truncated or foreign object)");
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) return make_error("a zstd frame without its content size");
  if (size > kMaxSegmentBytes) return make_error(fmt::format("{} bytes uncompressed: over the bound", size));
  std::string text(static_cast<size_t>(size), '\0');
  const size_t got = ZSTD_decompress(text.data(), text.size(), object.data(), object.size());
  if (ZSTD_isError(got)) {
    return make_error(std::string("zstd: ") + ZSTD_getErrorName(got) + " (a truncated or altered object)");
  }
  if (got != size) return make_error("the zstd frame is shorter than it says (a truncated object)");
  return text;
}

SegmentCheck check_segment(std::string_view object, const journal::VerifyingKey* key) {
  auto text = decompress_segment(object);
  if (!text.ok()) {
    SegmentCheck out;
    out.error = text.message();
    return out;
  }
  return check_segment_lines(*text, key);
}

SegmentCheck check_segment_lines(std::string_view lines, const journal::VerifyingKey* key) {
  SegmentCheck out;
  std::istringstream in{std::string(lines)};
  out.report = journal::verify_export(in, {}, key);
  if (out.report.broken) {
    out.error = journal::render_verify_report(out.report);
    return out;
  }
  // verify_export checked the trailer against the lines; keep what it names.
  auto trailer = journal::parse_export_trailer(last_line(in.view()));
  if (!trailer.ok()) {
    out.error = "the trailer: " + trailer.message();
    return out;
  }
  out.first_prev_hash = trailer->first_prev_hash;
  out.journal_uuid = trailer->journal_uuid;
  return out;
}

std::optional<journal::Hash> hash_in_lines(std::string_view lines, uint64_t seq) {
  // Every line starts as render_export_line writes it: {"seq":N,
  const std::string start = fmt::format("{{\"seq\":{},", seq);
  size_t at = lines.starts_with(start) ? 0 : lines.find("\n" + start);
  if (at == std::string_view::npos) return std::nullopt;
  if (at != 0) ++at;
  const size_t end = lines.find('\n', at);
  auto record = journal::parse_export_line(lines.substr(at, end == std::string_view::npos ? end : end - at));
  if (!record.ok() || record->seq() != seq) return std::nullopt;
  return record->hash();
}

}  // namespace koordq::archive
