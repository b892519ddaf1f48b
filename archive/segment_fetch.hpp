// One archived segment read for its records (behaviour.md §26.6): from the local segment cache
// when it holds a copy, else with a GET (then kept in the cache), and checked either way as
// `archive verify` checks it; a cached copy that does not check (altered, cut, of another key) is
// dropped and the segment fetched again.
#pragma once

#include <cstdint>
#include <string>

#include "archive/archive_location.hpp"
#include "archive/archive_reader.hpp"
#include "archive/s3_client.hpp"
#include "archive/segment.hpp"
#include "archive/segment_cache.hpp"
#include "base/result.hpp"
#include "journal/signing_key.hpp"

namespace koordq::archive {

struct FetchedSegment {
  std::string lines;  // the export lines and trailer
  SegmentCheck check;
  std::string problem;  // why the fetched object is not this segment (named); empty when it is
};

// How a reader's segments were found, for its log line and the tests.
struct FetchCounts {
  uint64_t fetched = 0;    // by a GET
  uint64_t cached = 0;     // from the cache
  uint64_t refetched = 0;  // a cached copy refused, then fetched
};

// `cache` may be null. With `key`, the segment's trailer must carry its signature. An error is a
// failed GET; an object that does not check is a FetchedSegment with its problem.
Result<FetchedSegment> fetch_segment(S3Client& client, SegmentCache* cache, const ArchiveLocation& at,
                                     const ArchivedSegment& segment, const journal::VerifyingKey* key,
                                     FetchCounts& counts);

}  // namespace koordq::archive
