#include "schema/json_decode_documents.hpp"
#include "schema/json_object_decoders.hpp"
#include "schema/json_raw_span.hpp"

namespace koordq::schema::json_detail {
namespace {

// A BOOKMARK's object: only metadata.resourceVersion means anything.
Status decode_bookmark(element value, std::optional<ObjectKind> expected, WatchedObject& out) {
  DecodeContext ctx;
  const JsonPath root;
  const JsonPath meta_path = root.field("metadata");
  simdjson::dom::object object;
  ObjectKind kind = ObjectKind::kQueueUnit;
  if (!expect_object(ctx, root, value, object) || !resolve_kind(ctx, object, expected, kind)) {
    return make_error("BOOKMARK: " + ctx.error());
  }
  out = empty_object(kind);
  std::string& resource_version = mutable_meta(out).resource_version;
  element meta_value;
  element version_value;
  simdjson::dom::object meta;
  if (find_member(object, "metadata", meta_value) &&
      (!expect_object(ctx, meta_path, meta_value, meta) ||
       (find_member(meta, "resourceVersion", version_value) &&
        !read_string(ctx, meta_path.field("resourceVersion"), version_value, kMaxNameBytes, resource_version)))) {
    return make_error("BOOKMARK: " + ctx.error());
  }
  if (resource_version.empty()) return make_error("BOOKMARK: metadata.resourceVersion: required, missing or empty");
  return ok_status();
}

// An ERROR's object, a metav1.Status.
Status decode_api_status(element value, ApiStatus& out) {
  DecodeContext ctx;
  const JsonPath root;
  simdjson::dom::object object;
  if (!expect_object(ctx, root, value, object)) return make_error("ERROR event: " + ctx.error());
  for (auto [key, field] : object) {
    if (field.is_null()) continue;
    bool ok = true;
    if (key == "code") {
      ok = read_int32(ctx, root.field(key), field, out.code);
    } else if (key == "reason") {
      ok = read_string(ctx, root.field(key), field, kMaxNameBytes, out.reason);
    } else if (key == "message") {
      ok = read_text(ctx, root.field(key), field, out.message);
    }
    if (!ok) return make_error("ERROR event: " + ctx.error());
  }
  return ok_status();
}

std::optional<WatchEventType> event_type(element value) {
  std::string_view name;
  if (value.get_string().get(name) != simdjson::SUCCESS) return std::nullopt;
  Result<WatchEventType> type = parse_watch_event_type(name);
  return type.ok() ? std::optional<WatchEventType>(*type) : std::nullopt;
}

// Whether the first member named `key` is the object's last member.
bool is_last_member(simdjson::dom::object object, std::string_view key) {
  bool seen = false;
  for (auto [member_key, value] : object) {
    if (seen) return false;
    seen = member_key == key;
  }
  return seen;
}

}  // namespace

Result<WatchEvent> decode_watch_event_document(element root, std::string_view bytes, std::optional<ObjectKind> expected,
                                               RawObjectMode mode) {
  simdjson::dom::object envelope;
  element type_value;
  element object_value;
  if (root.get_object().get(envelope) != simdjson::SUCCESS) {
    return make_error("watch event: expected an object, got " + describe(root));
  }
  if (!find_member(envelope, "type", type_value)) return make_error("watch event type: required, missing");
  std::optional<WatchEventType> type = event_type(type_value);
  if (!type) {
    return make_error("watch event type: expected ADDED, MODIFIED, DELETED, BOOKMARK or ERROR, got " +
                      describe(type_value));
  }
  if (!find_member(envelope, "object", object_value)) return make_error("watch event object: required, missing");

  Result<WatchEvent> result = WatchEvent{};  // filled in place: a QueueUnit is costly to move
  WatchEvent& event = result.value();
  event.type = *type;
  Status decoded = ok_status();
  if (event.type == WatchEventType::kError) {
    decoded = decode_api_status(object_value, event.status.emplace());
  } else if (event.type == WatchEventType::kBookmark) {
    decoded = decode_bookmark(object_value, expected, event.object.emplace());
  } else {
    decoded = decode_watched_object(object_value, expected, event.warnings, event.object.emplace());
  }
  if (!decoded.ok()) return decoded.error();
  std::optional<std::string_view> as_received;
  if (mode != RawObjectMode::kOff) {
    as_received = member_span(bytes, "object", is_last_member(envelope, "object"));
  }
  event.raw_json = raw_json_of(object_value, as_received, mode, bytes.size());
  return result;
}

}  // namespace koordq::schema::json_detail
