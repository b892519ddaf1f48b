#include "kube/leader/lease_record.hpp"

#ifndef RAPIDJSON_HAS_STDSTRING
#define RAPIDJSON_HAS_STDSTRING 1  // as the project's other RapidJSON users see it
#endif
#include <fmt/format.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/rfc3339.hpp"

namespace koordq::kube {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void string_field(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void write_spec(Writer& w, const LeaseRecord& record) {
  w.StartObject();
  string_field(w, "holderIdentity", record.holder_identity);
  if (record.lease_duration_seconds) {
    w.Key("leaseDurationSeconds");
    w.Int64(*record.lease_duration_seconds);
  }
  if (!record.acquire_time.empty()) string_field(w, "acquireTime", record.acquire_time);
  if (!record.renew_time.empty()) string_field(w, "renewTime", record.renew_time);
  w.Key("leaseTransitions");
  w.Int64(record.lease_transitions);
  w.EndObject();
}

// A string member: absent and null give "", another type an error.
Status read_string(const rapidjson::Value& object, const char* key, std::string& out) {
  auto member = object.FindMember(key);
  if (member == object.MemberEnd() || member->value.IsNull()) return ok_status();
  if (!member->value.IsString()) return make_error(fmt::format("lease: spec.{}: expected a string", key));
  out.assign(member->value.GetString(), member->value.GetStringLength());
  return ok_status();
}

Status read_integer(const rapidjson::Value& object, const char* key, std::optional<int64_t>& out) {
  auto member = object.FindMember(key);
  if (member == object.MemberEnd() || member->value.IsNull()) return ok_status();
  if (!member->value.IsInt64()) return make_error(fmt::format("lease: spec.{}: expected an integer", key));
  out = member->value.GetInt64();
  return ok_status();
}

}  // namespace

Result<FetchedLease> parse_lease(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) return make_error("lease: the answer is not a JSON object");
  FetchedLease out;
  out.object = std::string(body);
  if (auto meta = doc.FindMember("metadata"); meta != doc.MemberEnd() && meta->value.IsObject()) {
    if (auto rv = meta->value.FindMember("resourceVersion"); rv != meta->value.MemberEnd() && rv->value.IsString()) {
      out.resource_version = rv->value.GetString();
    }
  }
  auto spec = doc.FindMember("spec");
  if (spec == doc.MemberEnd() || spec->value.IsNull()) return out;
  if (!spec->value.IsObject()) return make_error("lease: spec: expected an object");
  const rapidjson::Value& s = spec->value;
  std::optional<int64_t> transitions;
  for (Status status :
       {read_string(s, "holderIdentity", out.record.holder_identity),
        read_integer(s, "leaseDurationSeconds", out.record.lease_duration_seconds),
        read_string(s, "acquireTime", out.record.acquire_time), read_string(s, "renewTime", out.record.renew_time),
        read_integer(s, "leaseTransitions", transitions)}) {
    if (!status.ok()) return status.error();
  }
  out.record.lease_transitions = transitions.value_or(0);
  return out;
}

std::string lease_create_body(const std::string& namespace_, const std::string& name, const LeaseRecord& record) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  string_field(w, "apiVersion", "coordination.k8s.io/v1");
  string_field(w, "kind", "Lease");
  w.Key("metadata");
  w.StartObject();
  string_field(w, "name", name);
  string_field(w, "namespace", namespace_);
  w.EndObject();
  w.Key("spec");
  write_spec(w, record);
  w.EndObject();
  return buffer.GetString();
}

Result<std::string> lease_update_body(std::string_view fetched_object, const LeaseRecord& record) {
  rapidjson::Document doc;
  doc.Parse(fetched_object.data(), fetched_object.size());
  if (doc.HasParseError() || !doc.IsObject()) return make_error("lease: the object read is not a JSON object");
  rapidjson::StringBuffer spec_buffer;
  Writer spec_writer(spec_buffer);
  write_spec(spec_writer, record);
  rapidjson::Document spec(&doc.GetAllocator());
  spec.Parse(spec_buffer.GetString(), spec_buffer.GetSize());
  if (auto member = doc.FindMember("spec"); member != doc.MemberEnd()) {
    member->value = spec.Move();
  } else {
    doc.AddMember("spec", spec.Move(), doc.GetAllocator());
  }
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  doc.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string leases_path(const std::string& namespace_) {
  return "/apis/coordination.k8s.io/v1/namespaces/" + namespace_ + "/leases";
}

std::string lease_path(const std::string& namespace_, const std::string& name) {
  return leases_path(namespace_) + "/" + name;
}

std::string format_micro_time(int64_t unix_nanos) {
  std::string seconds = base::format_rfc3339_seconds(unix_nanos);  // `…:SSZ`, truncated toward -inf
  int64_t micros = (unix_nanos / 1000) % 1'000'000;
  if (micros < 0) micros += 1'000'000;
  seconds.pop_back();
  return fmt::format("{}.{:06d}Z", seconds, micros);
}

void LeaseObservation::observe(const LeaseRecord& record, int64_t now) {
  if (record_ && *record_ == record) return;
  record_ = record;
  observed_at_ = now;
}

void LeaseObservation::reset() {
  record_.reset();
  observed_at_ = 0;
}

bool LeaseObservation::expired(int64_t now, int64_t duration_nanos) const {
  return !record_ || observed_at_ + duration_nanos <= now;
}

}  // namespace koordq::kube
