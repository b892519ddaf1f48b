// A sealed segment of the journal as one archive object (behaviour.md §26): the records of a seq
// range exactly as `koordq journal export` writes them (NDJSON lines carrying each record's bytes
// and its chain hash, then the export trailer, signed when the journal has a signing key),
// compressed with zstd. So a segment is a verifiable export on its own:
//   zstd -dc SEGMENT | koordq journal verify --export -
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"
#include "journal/verify.hpp"

namespace koordq::archive {

// The largest segment read back, uncompressed: a bound against a hostile or corrupt object.
inline constexpr size_t kMaxSegmentBytes = size_t{4} << 30;

struct BuiltSegment {
  std::string bytes;  // the object: zstd frame of the export lines and trailer
  uint64_t records = 0;
  uint64_t uncompressed_bytes = 0;
  journal::Hash head{};  // the chain hash of the last record
};

// Seqs [first, last] of the journal; every one must be there.
Result<BuiltSegment> build_segment(journal::JournalReader& reader, uint64_t first, uint64_t last,
                                   const journal::SigningKey* key);

// The export lines and trailer a segment object holds; an error for anything that is not one
// whole zstd frame within kMaxSegmentBytes.
Result<std::string> decompress_segment(std::string_view object);

// What a segment object holds, checked as `journal verify --export` checks an export: framing,
// chain, each line the rendering of its record, the trailer naming exactly these records (and
// signed by `key` when given).
struct SegmentCheck {
  journal::VerifyReport report;
  journal::Hash first_prev_hash{};  // from the trailer
  std::string journal_uuid;         // from the trailer
  std::string error;                // empty when the segment verifies
};
SegmentCheck check_segment(std::string_view object, const journal::VerifyingKey* key);
// The same over the lines decompress_segment returned (for a reader that also uses them).
SegmentCheck check_segment_lines(std::string_view lines, const journal::VerifyingKey* key);

// The chain hash of record `seq` among a segment's lines; std::nullopt when no line holds it.
std::optional<journal::Hash> hash_in_lines(std::string_view lines, uint64_t seq);

}  // namespace koordq::archive
