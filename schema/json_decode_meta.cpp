#include "schema/json_object_decoders.hpp"

namespace koordq::schema::json_detail {

bool decode_object_meta(DecodeContext& ctx, const JsonPath& at, element value, ObjectMeta& out) {
  simdjson::dom::object object;
  if (!expect_object(ctx, at, value, object)) return false;
  for (auto [key, field] : object) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "name") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.name);
    } else if (key == "namespace") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.namespace_);
    } else if (key == "uid") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.uid);
    } else if (key == "resourceVersion") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.resource_version);
    } else if (key == "creationTimestamp") {
      ok = read_time(ctx, path, field, out.creation_timestamp);
    } else if (key == "deletionTimestamp") {
      ok = read_time(ctx, path, field, out.deletion_timestamp);
    } else if (key == "labels") {
      ok = read_labels(ctx, path, field, out.labels);
    } else if (key == "annotations") {
      ok = read_annotations(ctx, path, field, out.annotations);
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace koordq::schema::json_detail
