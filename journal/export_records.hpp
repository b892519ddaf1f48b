// `koordq journal export` (behaviour.md §24.4): records of a seq range as NDJSON export lines or
// audit Event lines, in seq order, one per line.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>

#include "base/result.hpp"
#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

enum class ExportFormat { kNdjson, kAudit };

struct ExportRange {
  uint64_t from_seq = 1;         // inclusive
  uint64_t to_seq = UINT64_MAX;  // inclusive
};

// Returns the number of records written; `progress(seq, written)` is called now and then. An
// NDJSON export ends with its trailer (export_trailer.hpp), an audit export with the same trailer
// in an Event (audit_line.hpp); signed with `key` when given.
Result<uint64_t> export_records(JournalReader& reader, ExportFormat format, ExportRange range, std::ostream& out,
                                const std::function<void(uint64_t, uint64_t)>& progress = {},
                                const SigningKey* key = nullptr);

}  // namespace koordq::journal
