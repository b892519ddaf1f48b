#include "journal/audit_line.hpp"

#include <algorithm>
#include <array>

#include "base/json_string.hpp"
#include "base/rfc3339.hpp"
#include "base/uuid.hpp"
#include "journal/export_line.hpp"
#include "journal/signed_statements.hpp"

namespace koordq::journal {
namespace {

struct ObjectRef {
  std::string resource, ns, name, uid, api_group, resource_version;
};

const char* api_group_of(wire::ObjectKind kind) {
  return kind == wire::ObjectKind::ELASTIC_QUOTA ? "scheduling.sigs.k8s.io" : "scheduling.x-k8s.io";
}

const char* resource_of(wire::ObjectKind kind) {
  switch (kind) {
    case wire::ObjectKind::QUEUE_UNIT:
      return "queueunits";
    case wire::ObjectKind::QUEUE:
      return "queues";
    case wire::ObjectKind::ELASTIC_QUOTA:
      return "elasticquotas";
  }
  return "unknown";
}

std::string_view text(capnp::Text::Reader t) {
  return {t.cStr(), t.size()};
}

std::string verb_of(const StoredRecord& r) {
  const auto body = r.reader().getBody();
  switch (r.kind()) {
    case RecordKind::kWatch:
      switch (body.getWatch().getEventType()) {
        case wire::Watch::EventType::ADDED:
          return "create";
        case wire::Watch::EventType::MODIFIED:
          return "update";
        case wire::Watch::EventType::DELETED:
          return "delete";
        case wire::Watch::EventType::BOOKMARK:
          return "watch";
      }
      return "watch";
    case RecordKind::kRelist:
      return "list";
    case RecordKind::kRound:
      return "decide";
    default:
      return std::string(kind_name(r.kind()));
  }
}

void append_member(std::string& out, std::string_view key, std::string_view value, bool first = false) {
  if (!first) out.push_back(',');
  base::append_json_string(out, key);
  out.push_back(':');
  base::append_json_string(out, value);
}

}  // namespace

std::string audit_id(std::string_view journal_uuid, uint64_t seq) {
  const Hash h = sha256(std::string(journal_uuid) + ":" + std::to_string(seq));
  // The first 16 bytes of the digest, marked as RFC 9562 version 8 (custom), RFC 4122 variant.
  std::array<uint8_t, 16> bytes{};
  std::copy_n(h.begin(), bytes.size(), bytes.begin());
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x80);
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);
  return base::uuid_text(bytes);
}

std::string render_audit_line(const StoredRecord& r, std::string_view journal_uuid) {
  const std::string time = base::format_rfc3339_millis(r.time());
  std::string out = "{";
  append_member(out, "kind", "Event", true);
  append_member(out, "apiVersion", "audit.k8s.io/v1");
  append_member(out, "level", "RequestResponse");
  append_member(out, "auditID", audit_id(journal_uuid, r.seq()));
  append_member(out, "stage", "ResponseComplete");
  append_member(out, "requestURI",
                "/koordq/journal/" + std::string(journal_uuid) + "/records/" + std::to_string(r.seq()));
  append_member(out, "verb", verb_of(r));
  out.append(",\"user\":{\"username\":\"koordq\"}");
  if (r.kind() == RecordKind::kWatch) {
    const auto w = r.reader().getBody().getWatch();
    out.append(",\"objectRef\":{");
    append_member(out, "resource", resource_of(w.getObjectKind()), true);
    if (w.getNamespace().size() > 0) append_member(out, "namespace", text(w.getNamespace()));
    append_member(out, "name", text(w.getName()));
    append_member(out, "uid", text(w.getUid()));
    append_member(out, "apiGroup", api_group_of(w.getObjectKind()));
    append_member(out, "apiVersion", "v1alpha1");
    append_member(out, "resourceVersion", text(w.getResourceVersion()));
    out.push_back('}');
  }
  append_member(out, "requestReceivedTimestamp", time);
  append_member(out, "stageTimestamp", time);
  out.append(",\"annotations\":{");
  append_member(out, "koordq.io/journal", journal_uuid, true);
  append_member(out, "koordq.io/seq", std::to_string(r.seq()));
  append_member(out, "koordq.io/kind", kind_name(r.kind()));
  append_member(out, "koordq.io/prev-hash", to_hex(r.prev_hash()));
  append_member(out, "koordq.io/hash", to_hex(r.hash()));
  out.append("},\"requestObject\":").append(render_body_json(r));
  out.push_back('}');
  return out;
}

std::string render_audit_trailer(const ExportTrailer& t, int64_t time_nanos) {
  const std::string time = base::format_rfc3339_millis(time_nanos);
  std::string out = "{";
  append_member(out, "kind", "Event", true);
  append_member(out, "apiVersion", "audit.k8s.io/v1");
  append_member(out, "level", "Metadata");
  append_member(out, "auditID", audit_id(t.journal_uuid + ":export-trailer", t.last_seq));
  append_member(out, "stage", "ResponseComplete");
  append_member(out, "requestURI", "/koordq/journal/" + t.journal_uuid + "/export-trailer");
  append_member(out, "verb", "export-trailer");
  out.append(",\"user\":{\"username\":\"koordq\"}");
  append_member(out, "requestReceivedTimestamp", time);
  append_member(out, "stageTimestamp", time);
  out.append(",\"annotations\":{");
  append_member(out, "koordq.io/journal", t.journal_uuid, true);
  append_member(out, "koordq.io/trailer", render_export_trailer_object(t));
  if (t.signature) append_member(out, "koordq.io/signature", render_signature(*t.signature));
  out.append("}}");
  return out;
}

}  // namespace koordq::journal
