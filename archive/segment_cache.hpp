// The local cache of archived segments (behaviour.md §26.6): a segment once fetched is kept as its
// object's bytes in a directory, so a second read of the same range does not GET it again. Bounded
// in bytes: after each store the least recently used segments are removed until the directory
// holds at most the bound. The cache is only a copy: a reader checks a cached segment as it checks a
// fetched one (it decompresses, chains and matches its trailer and its key) and fetches it again
// when it does not.
//
// A file is named by the SHA-256 of the bucket and key, so no key (whatever a hostile listing
// holds) can name a path outside the directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "archive/archive_reader.hpp"
#include "archive/s3_config.hpp"

namespace koordq::archive {

// 2 GiB: a year of a busy cluster's journal is about this much in the bucket (BENCHMARKS.md).
inline constexpr uint64_t kDefaultSegmentCacheBytes = uint64_t{2} << 30;

// $XDG_CACHE_HOME/koordq/archive, else $HOME/.cache/koordq/archive; empty when neither is set.
std::filesystem::path default_segment_cache_dir(const EnvironmentLookup& env);

class SegmentCache {
 public:
  // max_bytes 0 caches nothing.
  SegmentCache(std::filesystem::path dir, uint64_t max_bytes) : dir_(std::move(dir)), max_bytes_(max_bytes) {}

  // The cached object, when there is one of the size the listing gives; marks it recently used.
  std::optional<std::string> get(std::string_view bucket, const ArchivedSegment& segment);
  // Keeps the object (replacing any copy), then trims the cache to its bound. A failure to write
  // is kept in warning() and otherwise ignored: the cache only saves GETs.
  void put(std::string_view bucket, const ArchivedSegment& segment, std::string_view bytes);
  // Removes a copy found wrong.
  void drop(std::string_view bucket, const ArchivedSegment& segment);

  const std::filesystem::path& dir() const { return dir_; }
  // The first problem met writing the cache; empty when none.
  const std::string& warning() const { return warning_; }
  // The bytes of the segments the directory holds.
  uint64_t held_bytes() const;

 private:
  std::filesystem::path file_of(std::string_view bucket, const ArchivedSegment& segment) const;
  void trim();

  std::filesystem::path dir_;
  uint64_t max_bytes_;
  std::string warning_;
};

}  // namespace koordq::archive
