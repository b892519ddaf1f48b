// `koordq journal import` (behaviour.md §24.4): watch events, one JSON value per line or
// concatenated with any whitespace (as `kubectl get … -w --output-watch-events -o json` prints
// them), appended as `watch` records. Each value is {"type", "object"} with an optional "time"
// (RFC 3339) used as the record's time. Objects of other kinds are skipped with a warning.
// A value that is not JSON, lacks `type` or `object`, or does not decode stops the import; the
// records before it stay.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "journal/capnp_record_body.hpp"
#include "journal/journal.hpp"
#include "schema/raw_object.hpp"

namespace koordq::journal {

struct ImportReport {
  uint64_t imported = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  uint64_t skipped = 0;
  // Set when the input stopped the import: what was wrong, at which byte offset.
  std::optional<std::string> input_error;
};

// The reading half of an import, without a journal: each watched object of `input` as the record
// body it becomes (with its explicit time), in order. Returns what stopped the reading (the same
// words import_records reports), or std::nullopt when every value was read.
std::optional<std::string> read_import_events(std::string_view input, schema::RawObjectMode raw_mode,
                                              const std::function<void(const std::string&)>& warn,
                                              const std::function<void(std::unique_ptr<CapnpRecordBody>)>& on_body,
                                              uint64_t& skipped);

// Fails only when the journal cannot be written; malformed input is reported in input_error.
Result<ImportReport> import_records(Journal& journal, std::string_view input, schema::RawObjectMode raw_mode,
                                    const std::function<void(const std::string&)>& warn);

}  // namespace koordq::journal
