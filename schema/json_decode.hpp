// JSON from the API server → model (simdjson): single objects, watch events and LIST pages of
// QueueUnits, Queues and ElasticQuotas (behaviour.md §2.2–§2.4, §3.4).
//
// Input from outside is checked here: malformed JSON, invalid UTF-8, nesting deeper than the
// depth cap, documents over the size cap, wrongly typed fields, out-of-range integers, overlong
// names and missing required metadata (name, and uid except on bookmarks) give an Error naming
// the JSON path and the value (`QueueUnit ns/job: spec.podSet[1].count: expected a non-negative
// integer, got -3`). Unknown fields are ignored and `null` is treated as absent. Quantities are
// kept as written, a JSON number as its text; one that does not parse, is negative or too long
// is reported as a warning (§3.1) and left to the decision logic, which does not admit its unit. Nothing throws.
//
// The model is canonical: decoding what json_encode.hpp writes gives back the same object, and
// times are truncated to whole seconds as Kubernetes object times are.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "base/result.hpp"
#include "schema/json_watch_event.hpp"
#include "schema/raw_object.hpp"
#include "schema/watched_object.hpp"

namespace koordq::schema {

struct DecodeLimits {
  // The API server stores objects up to ~1.5 MB; a watch event wraps one object.
  size_t max_object_bytes = 4 << 20;
  size_t max_list_bytes = 64 << 20;
  // Kubernetes objects nest ~20 levels (pod templates, managedFields); 128 leaves ample room.
  size_t max_depth = 128;
};

// Reusable: keeps its parser's buffers between calls. Not thread-safe; use one per thread.
class JsonDecoder {
 public:
  explicit JsonDecoder(DecodeLimits limits = {});
  ~JsonDecoder();
  JsonDecoder(JsonDecoder&&) noexcept;
  JsonDecoder& operator=(JsonDecoder&&) noexcept;

  // `{"type": ..., "object": {...}}`. The kind comes from the object's kind/apiVersion; with
  // `expected`, an object without kind is taken to be of that kind and any other kind is an error.
  Result<WatchEvent> decode_watch_event(std::string_view bytes, RawObjectMode mode);
  Result<WatchEvent> decode_watch_event(std::string_view bytes, ObjectKind expected, RawObjectMode mode);

  Result<DecodedObject> decode_object(std::string_view bytes, RawObjectMode mode);
  Result<DecodedObject> decode_object(std::string_view bytes, ObjectKind expected, RawObjectMode mode);

  // A LIST response page (`items` carry no kind). Errors in an item reject only that item.
  Result<ListPage> decode_list(std::string_view bytes, ObjectKind kind, RawObjectMode mode);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace koordq::schema
