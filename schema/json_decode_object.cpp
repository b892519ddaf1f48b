#include <variant>

#include "schema/json_decode_documents.hpp"
#include "schema/json_dom_writer.hpp"
#include "schema/json_object_decoders.hpp"
#include "schema/json_secret_splice.hpp"

namespace koordq::schema::json_detail {
namespace {

std::optional<ObjectKind> kind_from_name(std::string_view name) {
  for (ObjectKind kind : {ObjectKind::kQueueUnit, ObjectKind::kQueue, ObjectKind::kElasticQuota}) {
    if (name == kind_name(kind)) return kind;
  }
  return std::nullopt;
}

// `QueueUnit team-a/job-1`, for messages.
std::string identity(ObjectKind kind, const ObjectMeta& meta) {
  std::string out = kind_name(kind);
  if (meta.name.empty()) return out;
  out += ' ';
  if (!meta.namespace_.empty()) out += meta.namespace_ + '/';
  return out + meta.name;
}

}  // namespace

bool find_member(simdjson::dom::object object, std::string_view key, element& out) {
  return object.at_key(key).get(out) == simdjson::SUCCESS && !out.is_null();
}

WatchedObject empty_object(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kQueue:
      return Queue{};
    case ObjectKind::kElasticQuota:
      return ElasticQuota{};
    case ObjectKind::kQueueUnit:
      break;
  }
  return QueueUnit{};
}

ObjectMeta& mutable_meta(WatchedObject& object) {
  return std::visit([](auto& typed) -> ObjectMeta& { return typed.metadata; }, object);
}

bool resolve_kind(DecodeContext& ctx, simdjson::dom::object object, std::optional<ObjectKind> expected,
                  ObjectKind& out) {
  const JsonPath root;
  element value;
  if (find_member(object, "kind", value)) {
    std::string_view name;
    std::optional<ObjectKind> named;
    if (value.get_string().get(name) == simdjson::SUCCESS) named = kind_from_name(name);
    if (!named || (expected && *named != *expected)) {
      std::string wanted = expected ? kind_name(*expected) : "QueueUnit, Queue or ElasticQuota";
      return ctx.fail(root.field("kind"), "expected " + wanted + ", got " + describe(value));
    }
    out = *named;
  } else if (expected) {
    out = *expected;
  } else {
    return ctx.fail(root.field("kind"), "required, missing");
  }
  std::string_view api_version;
  if (find_member(object, "apiVersion", value) &&
      (value.get_string().get(api_version) != simdjson::SUCCESS || api_version != api_version_of(out))) {
    return ctx.fail(root.field("apiVersion"), std::string("expected ") + api_version_of(out) + " for " +
                                                  kind_name(out) + ", got " + describe(value));
  }
  return true;
}

Status decode_watched_object(element value, std::optional<ObjectKind> expected, std::vector<std::string>& warnings,
                             WatchedObject& out) {
  DecodeContext ctx(warnings);
  const JsonPath root;
  simdjson::dom::object object;
  ObjectKind kind = ObjectKind::kQueueUnit;
  if (!expect_object(ctx, root, value, object) || !resolve_kind(ctx, object, expected, kind)) {
    return make_error(ctx.error());
  }
  if (kind_of(out) != kind) out = empty_object(kind);
  ObjectMeta& meta = mutable_meta(out);
  const JsonPath meta_path = root.field("metadata");
  element meta_value;
  if (find_member(object, "metadata", meta_value) && !decode_object_meta(ctx, meta_path, meta_value, meta)) {
    return make_error(identity(kind, ObjectMeta{}) + ": " + ctx.error());
  }
  if (meta.name.empty()) ctx.fail(meta_path.field("name"), "required, missing or empty");
  if (meta.uid.empty()) ctx.fail(meta_path.field("uid"), "required, missing or empty");
  if (!ctx.error().empty()) return make_error(identity(kind, meta) + ": " + ctx.error());
  bool ok = std::visit([&](auto& typed) { return decode_content(ctx, root, object, typed); }, out);
  if (!ok) return make_error(identity(kind, meta) + ": " + ctx.error());
  return ok_status();
}

std::string raw_json_of(element value, std::optional<std::string_view> as_received, RawObjectMode mode,
                        size_t size_hint) {
  switch (mode) {
    case RawObjectMode::kOff:
      return {};
    case RawObjectMode::kRedacted: {
      if (as_received) return redact_as_received(*as_received);
      std::string out;
      out.reserve(size_hint + size_hint / 8);
      append_json(value, Redaction::kSecrets, out);
      return out;
    }
    case RawObjectMode::kFull:
      break;
  }
  return as_received ? std::string(*as_received) : compact_json(value);
}

Result<DecodedObject> decode_object_document(element root, std::string_view bytes, std::optional<ObjectKind> expected,
                                             RawObjectMode mode) {
  Result<DecodedObject> result = DecodedObject{};  // filled in place: a QueueUnit is costly to move
  DecodedObject& decoded = result.value();
  Status status = decode_watched_object(root, expected, decoded.warnings, decoded.object);
  if (!status.ok()) return status.error();
  decoded.raw_json = raw_json_of(root, bytes, mode, bytes.size());
  return result;
}

}  // namespace koordq::schema::json_detail
