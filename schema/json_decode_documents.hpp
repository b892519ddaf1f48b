// Internal to koordq_json: decoding of the three documents the API server sends (an object, a
// watch event, a LIST page) from their parsed root, and what they share. JsonDecoder owns the
// parser and the size and depth caps; these functions see only valid, parsed JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema/json_decode_context.hpp"
#include "schema/json_watch_event.hpp"
#include "schema/raw_object.hpp"

namespace koordq::schema::json_detail {

Result<DecodedObject> decode_object_document(element root, std::string_view bytes, std::optional<ObjectKind> expected,
                                             RawObjectMode mode);
Result<WatchEvent> decode_watch_event_document(element root, std::string_view bytes, std::optional<ObjectKind> expected,
                                               RawObjectMode mode);
Result<ListPage> decode_list_document(element root, std::string_view bytes, ObjectKind kind, RawObjectMode mode);

// A member that is present and not null.
bool find_member(simdjson::dom::object object, std::string_view key, element& out);

// The kind from `kind`/`apiVersion`; `expected` stands in for a missing kind (LIST items) and
// rules out any other.
bool resolve_kind(DecodeContext& ctx, simdjson::dom::object object, std::optional<ObjectKind> expected,
                  ObjectKind& out);

// A complete object into `out` (made of the object's kind): metadata with a name and a uid,
// then spec and status. Errors name the object when its metadata could be read.
Status decode_watched_object(element value, std::optional<ObjectKind> expected, std::vector<std::string>& warnings,
                             WatchedObject& out);

WatchedObject empty_object(ObjectKind kind);
ObjectMeta& mutable_meta(WatchedObject& object);

// The raw JSON journaled per RawObjectMode: nothing, the redacted re-serialization, or the bytes
// as received (`as_received`; re-serialized when they could not be located). `size_hint`: about
// how long the text will be, so that it is allocated once.
std::string raw_json_of(element value, std::optional<std::string_view> as_received, RawObjectMode mode,
                        size_t size_hint);

}  // namespace koordq::schema::json_detail
