#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"

namespace koordq::schema {

using namespace wire_fields;

void write_object_meta(wire::ObjectMeta::Builder out, const ObjectMeta& meta) {
  out.setName(text(meta.name));
  out.setNamespace(text(meta.namespace_));
  out.setUid(text(meta.uid));
  out.setResourceVersion(text(meta.resource_version));
  write_optional(out.getCreationTimestamp(), meta.creation_timestamp);
  write_optional(out.getDeletionTimestamp(), meta.deletion_timestamp);
  if (!meta.labels.empty()) write_string_map(out.initLabels(meta.labels.size()), meta.labels);
  if (!meta.annotations.empty()) write_string_map(out.initAnnotations(meta.annotations.size()), meta.annotations);
}

ObjectMeta read_object_meta(wire::ObjectMeta::Reader in) {
  ObjectMeta meta;
  read_object_meta(in, meta);
  return meta;
}

void read_object_meta(wire::ObjectMeta::Reader in, ObjectMeta& meta) {
  assign(meta.name, in.getName());
  assign(meta.namespace_, in.getNamespace());
  assign(meta.uid, in.getUid());
  assign(meta.resource_version, in.getResourceVersion());
  meta.creation_timestamp = read_optional(in.getCreationTimestamp());
  meta.deletion_timestamp = read_optional(in.getDeletionTimestamp());
  meta.labels = read_string_map(in.getLabels());
  meta.annotations = read_string_map(in.getAnnotations());
}

}  // namespace koordq::schema
