// Lines of an NDJSON export (behaviour.md §24.4) on arbitrary bytes, alone and as a whole export.
// Beyond not crashing: a line that is the rendering of the record it carries parses back to the
// same record and renders identically again; the export checker accepts a line only when it
// is exactly that rendering, and once it reports a break it reports the same one for every later
// line. The whole text also goes through `journal verify --export`'s reader.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "journal/export_line.hpp"
#include "journal/verify.hpp"

namespace {

using namespace koordq::journal;

void check(bool condition) {
  if (!condition) std::abort();
}

void check_line(std::string_view line) {
  uint64_t claimed = 0;
  auto record = parse_export_line(line, &claimed);
  // The shortcut of an intact line finds a record exactly when parsing does and the line is that
  // record's rendering, and the same record.
  const auto shortcut = record_of_rendered_line(line);
  if (!record.ok()) {
    check(!record.message().empty());
    check(!shortcut.has_value());
    return;
  }
  const std::string rendered = render_export_line(*record);
  check(shortcut.has_value() == (rendered == line));
  if (shortcut) check(shortcut->stored_value() == record->stored_value());
  // A record whose text is not UTF-8 renders as a line no JSON reader accepts; such a line is never
  // the line it came from, so the checker refuses it.
  if (rendered != line) return;
  auto again = parse_export_line(rendered);
  check(again.ok() && again->seq() == record->seq() && again->stored_value() == record->stored_value());
  check(render_export_line(*again) == rendered);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ExportLineChecker checker;
  std::istringstream lines(text);
  std::string line;
  std::optional<ChainBreak> first_break;
  while (std::getline(lines, line)) {
    check_line(line);
    auto added = checker.add(line);
    if (added.ok() && added->has_value()) check(render_export_line(**added) == line);
    if (first_break) check(checker.broken() && checker.broken()->seq == first_break->seq);
    if (!first_break && checker.broken()) first_break = checker.broken();
  }
  std::istringstream whole(text);
  const VerifyReport report = verify_export(whole);
  check(report.records <= checker.records() + 1);
  return 0;
}
