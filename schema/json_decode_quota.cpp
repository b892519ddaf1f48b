#include "schema/json_object_decoders.hpp"

namespace koordq::schema::json_detail {
namespace {

bool decode_spec(DecodeContext& ctx, const JsonPath& at, element value, ElasticQuotaSpec& out) {
  simdjson::dom::object object;
  if (!expect_object(ctx, at, value, object)) return false;
  for (auto [key, field] : object) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "max") {
      ok = read_resource_list(ctx, path, field, out.max);
    } else if (key == "min") {
      ok = read_resource_list(ctx, path, field, out.min);
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool decode_content(DecodeContext& ctx, const JsonPath& root, simdjson::dom::object object, ElasticQuota& out) {
  for (auto [key, field] : object) {
    if (key == "spec" && !field.is_null() && !decode_spec(ctx, root.field(key), field, out.spec)) return false;
  }
  return true;
}

}  // namespace koordq::schema::json_detail
