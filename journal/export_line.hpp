// One record as a line of `koordq journal export --format ndjson` and of the journal stream
// (behaviour.md §17.5, §24.4): a pure function of the stored record, so that `journal verify
// --export` can re-render every line from its canonical bytes and catch an edit of either.
//
//   {"seq":1,"time":"2026-04-20T08:00:00.000Z","kind":"watch","prevHash":"<hex>","hash":"<hex>",
//    "body":{…the record body as JSON…},"b":"<base64 of B>"}
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "journal/stored_record.hpp"

namespace koordq::journal {

// Without a trailing newline.
std::string render_export_line(const StoredRecord& record);
// The same line appended to `out`, so that a caller writing many reuses one buffer.
void append_export_line(std::string& out, const StoredRecord& record);

// The record a line carries (its B and hash), checked to be framed correctly and B canonical (so
// nothing that reads it later meets an out-of-bounds pointer); the caller checks
// the chain and that render_export_line(record) reproduces the line.
// `claimed_seq`, when given, receives the line's "seq" member (0 when it has none), which is what
// a reader of the line sees even when B was altered.
Result<StoredRecord> parse_export_line(std::string_view line, uint64_t* claimed_seq = nullptr);

// The record of `line` when the line is exactly render_export_line of a canonical record (so the
// checks of parse_export_line and the comparison with the rendering both pass); std::nullopt for
// any other line, which parse_export_line then explains. An intact export takes this path: it
// reads "hash" and "b" where the rendering puts them instead of parsing the JSON, and the
// comparison with the rendering covers every other byte.
std::optional<StoredRecord> record_of_rendered_line(std::string_view line);

// The JSON of the record body alone (the "body" member), also used by audit lines;
// {"undecodable":true} for a body that cannot be read.
std::string render_body_json(const StoredRecord& record);
void append_body_json(std::string& out, const StoredRecord& record);

}  // namespace koordq::journal
