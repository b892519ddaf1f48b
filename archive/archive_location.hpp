// Where a journal's archive lives (behaviour.md §26): `s3://BUCKET[/PREFIX]`, and the keys under it.
// Many clusters and journals may share one bucket, each under its own prefix:
//
//   PREFIX/CLUSTER/JOURNAL-UUID/segments/FIRST-LAST.ndjson.zst
//
// FIRST and LAST are the segment's first and last seq, 20 digits each, so that the keys of one
// journal list in seq order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::archive {

struct ArchiveLocation {
  std::string bucket;
  std::string prefix;  // without a leading or trailing '/'; may be empty

  // "s3://bucket/prefix", as given.
  std::string url() const;
};

// `s3://BUCKET[/PREFIX]`; the error names what is wrong and the form expected (not the URL).
Result<ArchiveLocation> parse_archive_url(std::string_view url);

struct SegmentName {
  std::string cluster;  // the cluster identity the journal records (behaviour.md §2.1)
  std::string journal;  // the journal's UUID
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;

  bool operator==(const SegmentName&) const = default;
};

// "PREFIX/" (or "" without a prefix).
std::string root_prefix(const ArchiveLocation& at);
// "PREFIX/CLUSTER/JOURNAL/segments/".
std::string segments_prefix(const ArchiveLocation& at, std::string_view cluster, std::string_view journal);
std::string segment_key(const ArchiveLocation& at, const SegmentName& name);
// The segment a key under `at` names; std::nullopt for any other key.
std::optional<SegmentName> parse_segment_key(const ArchiveLocation& at, std::string_view key);

}  // namespace koordq::archive
