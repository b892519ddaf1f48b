#include "archive/segment_cache.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "journal/hash_chain.hpp"

namespace koordq::archive {
namespace {

constexpr std::string_view kCachedSuffix = ".zst";

bool is_cached_segment(const std::filesystem::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  return entry.is_regular_file() && name.size() > kCachedSuffix.size() &&
         name.compare(name.size() - kCachedSuffix.size(), kCachedSuffix.size(), kCachedSuffix) == 0;
}

}  // namespace

std::filesystem::path default_segment_cache_dir(const EnvironmentLookup& env) {
  if (auto xdg = env("XDG_CACHE_HOME"); xdg && !xdg->empty()) {
    return std::filesystem::path(*xdg) / "koordq" / "archive";
  }
  if (auto home = env("HOME"); home && !home->empty()) {
    return std::filesystem::path(*home) / ".cache" / "koordq" / "archive";
  }
  return {};
}

std::filesystem::path SegmentCache::file_of(std::string_view bucket, const ArchivedSegment& segment) const {
  const std::string name = journal::to_hex(journal::sha256(std::string(bucket) + "/" + segment.key));
  return dir_ / (name + std::string(kCachedSuffix));
}

std::optional<std::string> SegmentCache::get(std::string_view bucket, const ArchivedSegment& segment) {
  if (max_bytes_ == 0 || dir_.empty()) return std::nullopt;
  const auto path = file_of(bucket, segment);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size != segment.size) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes(static_cast<size_t>(size), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) return std::nullopt;
  std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now(), ec);
  return bytes;
}

void SegmentCache::put(std::string_view bucket, const ArchivedSegment& segment, std::string_view bytes) {
  if (max_bytes_ == 0 || dir_.empty() || bytes.size() > max_bytes_) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) {
    if (warning_.empty()) warning_ = "cannot create the segment cache " + dir_.string() + ": " + ec.message();
    return;
  }
  const auto path = file_of(bucket, segment);
  // Written aside and renamed, so that a reader never meets half a segment.
  const auto partial = path.string() + ".partial." + std::to_string(::getpid());
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      if (warning_.empty()) warning_ = "cannot write the segment cache " + dir_.string();
      std::filesystem::remove(partial, ec);
      return;
    }
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    if (warning_.empty()) warning_ = "cannot write the segment cache " + dir_.string() + ": " + ec.message();
    std::filesystem::remove(partial, ec);
    return;
  }
  trim();
}

void SegmentCache::drop(std::string_view bucket, const ArchivedSegment& segment) {
  std::error_code ec;
  std::filesystem::remove(file_of(bucket, segment), ec);
}

uint64_t SegmentCache::held_bytes() const {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    if (is_cached_segment(entry)) total += entry.file_size(ec);
  }
  return total;
}

void SegmentCache::trim() {
  struct Held {
    std::filesystem::path path;
    std::filesystem::file_time_type used;
    uint64_t bytes;
  };
  std::vector<Held> held;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    if (!is_cached_segment(entry)) continue;
    std::error_code entry_ec;
    Held h{entry.path(), entry.last_write_time(entry_ec), entry.file_size(entry_ec)};
    if (entry_ec) continue;
    total += h.bytes;
    held.push_back(std::move(h));
  }
  if (total <= max_bytes_) return;
  std::sort(held.begin(), held.end(), [](const Held& a, const Held& b) { return a.used < b.used; });
  for (const Held& h : held) {
    if (total <= max_bytes_) break;
    if (std::filesystem::remove(h.path, ec)) total -= h.bytes;
  }
}

}  // namespace koordq::archive
