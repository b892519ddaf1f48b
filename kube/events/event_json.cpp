#include "kube/events/event_json.hpp"

#ifndef RAPIDJSON_HAS_STDSTRING
#define RAPIDJSON_HAS_STDSTRING 1  // as the project's other RapidJSON users see it
#endif
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/rfc3339.hpp"

namespace koordq::kube {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void field(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

// Optional strings of the object reference are left out when empty, as Go's omitempty does.
void optional_field(Writer& w, const char* key, const std::string& value) {
  if (!value.empty()) field(w, key, value);
}

}  // namespace

std::string event_create_body(const EventBody& event) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  field(w, "apiVersion", "v1");
  field(w, "kind", "Event");
  w.Key("metadata");
  w.StartObject();
  field(w, "name", event.name);
  field(w, "namespace", event.namespace_);
  w.EndObject();
  w.Key("involvedObject");
  w.StartObject();
  optional_field(w, "kind", event.involved.kind);
  optional_field(w, "namespace", event.involved.namespace_);
  optional_field(w, "name", event.involved.name);
  optional_field(w, "uid", event.involved.uid);
  optional_field(w, "apiVersion", event.involved.api_version);
  w.EndObject();
  field(w, "reason", event.reason);
  field(w, "message", event.message);
  w.Key("source");
  w.StartObject();
  field(w, "component", kEventComponent);
  w.EndObject();
  field(w, "firstTimestamp", base::format_rfc3339_seconds(event.first_timestamp));
  field(w, "lastTimestamp", base::format_rfc3339_seconds(event.last_timestamp));
  w.Key("count");
  w.Int(event.count);
  field(w, "type", event.type);
  field(w, "reportingComponent", kEventComponent);
  field(w, "reportingInstance", event.reporting_instance);
  w.EndObject();
  return buffer.GetString();
}

std::string event_update_body(const EventBody& event) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("count");
  w.Int(event.count);
  field(w, "lastTimestamp", base::format_rfc3339_seconds(event.last_timestamp));
  field(w, "message", event.message);
  w.EndObject();
  return buffer.GetString();
}

WrittenEvent parse_written_event(std::string_view body) {
  WrittenEvent out;
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) return out;
  if (auto meta = doc.FindMember("metadata"); meta != doc.MemberEnd() && meta->value.IsObject()) {
    if (auto rv = meta->value.FindMember("resourceVersion"); rv != meta->value.MemberEnd() && rv->value.IsString()) {
      out.resource_version = rv->value.GetString();
    }
  }
  if (auto count = doc.FindMember("count"); count != doc.MemberEnd() && count->value.IsInt()) {
    out.count = count->value.GetInt();
  }
  if (auto first = doc.FindMember("firstTimestamp"); first != doc.MemberEnd() && first->value.IsString()) {
    if (Result<int64_t> t = base::parse_rfc3339(first->value.GetString()); t.ok()) out.first_timestamp = *t;
  }
  return out;
}

std::string events_path(const std::string& namespace_) {
  return "/api/v1/namespaces/" + namespace_ + "/events";
}

std::string event_path(const std::string& namespace_, const std::string& name) {
  return events_path(namespace_) + "/" + name;
}

}  // namespace koordq::kube
