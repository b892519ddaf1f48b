// Reading the journal archive (behaviour.md §26): which journals a bucket holds, each segment
// checked on its own and against its neighbours, and the records of a range as one NDJSON export
// (the lines exactly as `koordq journal export` writes them, then one trailer for the whole
// range), which `replay`, `at`, `explain` and `journal verify` read with --export.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "archive/archive_location.hpp"
#include "archive/s3_client.hpp"
#include "archive/segment.hpp"
#include "base/result.hpp"
#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::archive {

struct ArchivedSegment {
  SegmentName name;
  std::string key;
  uint64_t size = 0;
  std::string last_modified;
};

struct ArchivedSnapshot {
  uint64_t seq = 0;
  std::string key;
  uint64_t size = 0;
};

struct ArchivedJournal {
  std::string cluster;
  std::string journal;
  std::vector<ArchivedSegment> segments;    // in seq order; never empty
  std::vector<ArchivedSnapshot> snapshots;  // in seq order
  uint64_t bytes = 0;                       // of its segments and snapshots
};

// Every journal under the location that has segments, by cluster then journal UUID, with its
// snapshots; objects that are neither segment nor snapshot keys (or snapshots of a journal without
// segments) are left out (their count in `foreign`, when given).
Result<std::vector<ArchivedJournal>> list_archive(S3Client& client, const ArchiveLocation& at,
                                                  uint64_t* foreign = nullptr);

// The first and last record's time of a journal's archive (the first and last segment are read).
struct ArchivedTimes {
  int64_t first = 0;
  int64_t last = 0;
};
Result<ArchivedTimes> archived_times(S3Client& client, const ArchiveLocation& at, const ArchivedJournal& journal);

// Where the segment before ends: its last seq and head.
struct SegmentEnd {
  uint64_t last_seq = 0;
  journal::Hash head{};
};
// One segment checked alone (check_segment's result, and that it holds what its key names) and
// against the one before it when given; the problem, naming the segment, or empty.
std::string check_one(const ArchivedSegment& segment, const SegmentCheck& check,
                      const std::optional<SegmentEnd>& before);

struct ArchiveVerifyReport {
  uint64_t segments = 0;
  uint64_t records = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  journal::Hash head{};
  uint64_t snapshots = 0;     // checked against the chain (and the key)
  bool from_genesis = false;  // the first segment starts the journal (seq 1, chained to its UUID)
  std::string signed_by;      // with a key: its id (every segment's trailer is signed by it)
  std::string error;          // the first problem, naming the segment; empty when all is well
};
using SegmentProgress = std::function<void(uint64_t done, uint64_t total)>;

// Every segment: its object decompresses, its lines chain and render back to themselves, its
// trailer names exactly its records (signed by `key` when given) and agrees with its key; and each
// segment continues the one before it (no seq missing, no fork). Every snapshot: its object reads,
// it names its key's journal and seq, its SHA-256 is its anchor's, the anchor's chain hash is the
// archive's hash of its seq (and signed by `key` when given).
ArchiveVerifyReport verify_archived_journal(S3Client& client, const ArchiveLocation& at, const ArchivedJournal& journal,
                                            const journal::VerifyingKey* key, const SegmentProgress& progress = {});

// The records [from_seq, to_seq] of the archive as one export; each segment is checked as
// verify_archived_journal checks it before any of its lines is written. Returns the number of
// records written.
Result<uint64_t> export_archived_journal(S3Client& client, const ArchiveLocation& at, const ArchivedJournal& journal,
                                         uint64_t from_seq, uint64_t to_seq, std::ostream& out,
                                         const SegmentProgress& progress = {});

}  // namespace koordq::archive
