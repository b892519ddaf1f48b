#include "schema/json_object_decoders.hpp"

namespace koordq::schema::json_detail {
namespace {

using simdjson::dom::object;

bool read_label_value(DecodeContext& ctx, const JsonPath& at, element value, std::string& out) {
  return read_string(ctx, at, value, kMaxLabelValueBytes, out);
}

bool decode_requirement(DecodeContext& ctx, const JsonPath& at, element value, LabelSelectorRequirement& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "key") {
      ok = read_string(ctx, path, field, kMaxQualifiedNameBytes, out.key);
    } else if (key == "operator") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.operator_);
    } else if (key == "values") {
      ok = read_list(ctx, path, field, out.values, read_label_value);
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_label_selector(DecodeContext& ctx, const JsonPath& at, element value, LabelSelector& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    if (key == "matchLabels" && !read_labels(ctx, path, field, out.match_labels)) return false;
    if (key == "matchExpressions" && !read_list(ctx, path, field, out.match_expressions, decode_requirement)) {
      return false;
    }
  }
  return true;
}

bool decode_queue_admission_check(DecodeContext& ctx, const JsonPath& at, element value, QueueAdmissionCheck& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    if (key == "name" && !read_string(ctx, path, field, kMaxQualifiedNameBytes, out.name)) return false;
    if (key == "labelSelector" && !decode_label_selector(ctx, path, field, out.label_selector.emplace())) return false;
  }
  return true;
}

bool decode_spec(DecodeContext& ctx, const JsonPath& at, element value, QueueSpec& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "queuePolicy") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.queue_policy);
    } else if (key == "priority") {
      ok = read_optional(read_int32, ctx, path, field, out.priority);
    } else if (key == "priorityClassName") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.priority_class_name);
    } else if (key == "admissionChecks") {
      ok = read_list(ctx, path, field, out.admission_checks, decode_queue_admission_check);
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_queue_item(DecodeContext& ctx, const JsonPath& at, element value, QueueItem& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "name") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.name);
    } else if (key == "namespace") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.namespace_);
    } else if (key == "priority") {
      int32_t priority = 0;
      ok = read_int32(ctx, path, field, priority);
      // §14.2 omits a zero priority, so 0 and absent are the same value.
      out.priority = priority == 0 ? std::nullopt : std::optional<int32_t>(priority);
    } else if (key == "position") {
      ok = read_count(ctx, path, field, out.position);
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_status(DecodeContext& ctx, const JsonPath& at, element value, QueueStatus& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (key != "queueItemDetails" || field.is_null()) continue;
    const JsonPath details_path = at.field(key);
    object lists;
    if (!expect_object(ctx, details_path, field, lists)) return false;
    QueueItemDetails& details = out.queue_item_details.emplace();
    for (auto [list_key, list] : lists) {
      if (list.is_null()) continue;
      const JsonPath path = details_path.field(list_key);
      if (list_key == "active" && !read_list(ctx, path, list, details.active, decode_queue_item)) return false;
      if (list_key == "backoff" && !read_list(ctx, path, list, details.backoff, decode_queue_item)) return false;
    }
  }
  return true;
}

}  // namespace

bool decode_content(DecodeContext& ctx, const JsonPath& root, simdjson::dom::object object, Queue& out) {
  for (auto [key, field] : object) {
    if (field.is_null()) continue;
    if (key == "spec" && !decode_spec(ctx, root.field(key), field, out.spec)) return false;
    if (key == "status" && !decode_status(ctx, root.field(key), field, out.status)) return false;
  }
  return true;
}

}  // namespace koordq::schema::json_detail
