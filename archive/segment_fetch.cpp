#include "archive/segment_fetch.hpp"

namespace koordq::archive {
namespace {

// The problem with `object` as this segment, or empty; `out` holds its lines when there is none.
std::string check_object(std::string_view object, const ArchivedSegment& segment, const journal::VerifyingKey* key,
                         FetchedSegment& out) {
  auto text = decompress_segment(object);
  if (!text.ok()) return "segment " + segment.key + ": " + text.message();
  out.check = check_segment_lines(*text, key);
  if (std::string problem = check_one(segment, out.check, std::nullopt); !problem.empty()) return problem;
  out.lines = std::move(text).value();
  return {};
}

}  // namespace

Result<FetchedSegment> fetch_segment(S3Client& client, SegmentCache* cache, const ArchiveLocation& at,
                                     const ArchivedSegment& segment, const journal::VerifyingKey* key,
                                     FetchCounts& counts) {
  FetchedSegment out;
  bool refused_copy = false;
  if (cache != nullptr) {
    if (auto copy = cache->get(at.bucket, segment)) {
      if (check_object(*copy, segment, key, out).empty()) {
        ++counts.cached;
        return out;
      }
      cache->drop(at.bucket, segment);
      refused_copy = true;
    }
  }
  auto object = client.get_object(at.bucket, segment.key);
  if (!object.ok()) return make_error("segment " + segment.key + ": " + object.error().text);
  out.problem = check_object(object.value(), segment, key, out);
  if (!out.problem.empty()) return out;
  if (cache != nullptr) cache->put(at.bucket, segment, object.value());
  ++(refused_copy ? counts.refetched : counts.fetched);
  return out;
}

}  // namespace koordq::archive
