#include "archive/archive_location.hpp"

#include <charconv>

#include <fmt/format.h>

#include "archive/s3_url.hpp"

namespace koordq::archive {
namespace {

constexpr std::string_view kScheme = "s3://";
constexpr std::string_view kSegments = "segments/";
constexpr std::string_view kSuffix = ".ndjson.zst";
constexpr size_t kSeqDigits = 20;

std::optional<uint64_t> parse_seq(std::string_view digits) {
  if (digits.size() != kSeqDigits) return std::nullopt;
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

// A path component the layout can hold: not empty, no '/'.
bool is_component(std::string_view text) {
  return !text.empty() && text.find('/') == std::string_view::npos;
}

}  // namespace

std::string ArchiveLocation::url() const {
  return prefix.empty() ? std::string(kScheme) + bucket : std::string(kScheme) + bucket + "/" + prefix;
}

Result<ArchiveLocation> parse_archive_url(std::string_view url) {
  auto wrong = [](std::string_view why) {
    return make_error(fmt::format("{}; give s3://BUCKET or s3://BUCKET/PREFIX", why));
  };
  if (url.substr(0, kScheme.size()) != kScheme) return wrong("not an s3:// URL");
  std::string_view rest = url.substr(kScheme.size());
  const size_t slash = rest.find('/');
  ArchiveLocation at;
  at.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) {
    std::string_view prefix = rest.substr(slash + 1);
    while (!prefix.empty() && prefix.back() == '/') prefix.remove_suffix(1);
    if (prefix.find("//") != std::string_view::npos) return wrong("the prefix has an empty path segment");
    at.prefix = std::string(prefix);
  }
  if (Status bucket = check_s3_bucket_name(at.bucket); !bucket.ok()) return wrong(bucket.message());
  return at;
}

std::string root_prefix(const ArchiveLocation& at) {
  return at.prefix.empty() ? std::string() : at.prefix + "/";
}

std::string segments_prefix(const ArchiveLocation& at, std::string_view cluster, std::string_view journal) {
  return fmt::format("{}{}/{}/{}", root_prefix(at), cluster, journal, kSegments);
}

std::string segment_key(const ArchiveLocation& at, const SegmentName& name) {
  return fmt::format("{}{:020}-{:020}{}", segments_prefix(at, name.cluster, name.journal), name.first_seq,
                     name.last_seq, kSuffix);
}

std::optional<SegmentName> parse_segment_key(const ArchiveLocation& at, std::string_view key) {
  const std::string root = root_prefix(at);
  if (key.substr(0, root.size()) != root) return std::nullopt;
  key.remove_prefix(root.size());
  SegmentName name;
  const size_t cluster_end = key.find('/');
  if (cluster_end == std::string_view::npos) return std::nullopt;
  name.cluster = std::string(key.substr(0, cluster_end));
  key.remove_prefix(cluster_end + 1);
  const size_t journal_end = key.find('/');
  if (journal_end == std::string_view::npos) return std::nullopt;
  name.journal = std::string(key.substr(0, journal_end));
  key.remove_prefix(journal_end + 1);
  if (!is_component(name.cluster) || !is_component(name.journal)) return std::nullopt;
  if (key.substr(0, kSegments.size()) != kSegments) return std::nullopt;
  key.remove_prefix(kSegments.size());
  if (key.size() != 2 * kSeqDigits + 1 + kSuffix.size() || key[kSeqDigits] != '-' ||
      key.substr(2 * kSeqDigits + 1) != kSuffix) {
    return std::nullopt;
  }
  const auto first = parse_seq(key.substr(0, kSeqDigits));
  const auto last = parse_seq(key.substr(kSeqDigits + 1, kSeqDigits));
  if (!first || !last || *first == 0 || *last < *first) return std::nullopt;
  name.first_seq = *first;
  name.last_seq = *last;
  return name;
}

}  // namespace koordq::archive
