#include "kube/writer/write_bodies.hpp"

#include <variant>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/rfc3339.hpp"
#include "schema/json_encode.hpp"

namespace koordq::kube {
namespace {

constexpr std::string_view kGroupVersion = "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/";

class Body {
 public:
  Body() : writer_(buffer_) {}

  void key(std::string_view k) { writer_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); }
  void string(std::string_view v) { writer_.String(v.data(), static_cast<rapidjson::SizeType>(v.size())); }
  void raw(const std::string& json, rapidjson::Type type) { writer_.RawValue(json.data(), json.size(), type); }
  void start() { writer_.StartObject(); }
  void end() { writer_.EndObject(); }
  void null() { writer_.Null(); }
  void int64(int64_t v) { writer_.Int64(v); }

  void map_patch(std::string_view name, const actors::MapPatch& patch) {
    if (patch.empty()) return;
    key(name);
    start();
    for (const auto& [k, v] : patch) {
      key(k);
      if (v) {
        string(*v);
      } else {
        null();
      }
    }
    end();
  }

  // `"metadata":{"resourceVersion":"<rv>"}`, the precondition of a merge patch; nothing when empty.
  void resource_version(std::string_view rv) {
    if (rv.empty()) return;
    key("metadata");
    start();
    key("resourceVersion");
    string(rv);
    end();
  }

  std::string take() { return std::string(buffer_.GetString(), buffer_.GetSize()); }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
};

Request patch(std::string target, std::string body, bool precondition = false) {
  Request r;
  r.verb = Verb::kPatch;
  r.target = std::move(target);
  r.body = std::move(body);
  r.content_type = "application/merge-patch+json";
  r.has_precondition = precondition;
  return r;
}

}  // namespace

std::string queue_unit_path(std::string_view ns, std::string_view name) {
  std::string path(kGroupVersion);
  path.append(ns).append("/queueunits/").append(name);
  return path;
}

std::string queue_path(std::string_view ns, std::string_view name) {
  std::string path(kGroupVersion);
  path.append(ns).append("/queues");
  if (!name.empty()) path.append("/").append(name);
  return path;
}

std::string status_patch_body(const actors::StatusPatch& p, std::string_view resource_version) {
  Body b;
  b.start();
  if (!resource_version.empty()) {
    b.key("metadata");
    b.start();
    b.key("resourceVersion");
    b.string(resource_version);
    b.end();
  }
  b.key("status");
  b.start();
  if (p.phase) {
    b.key("phase");
    b.string(*p.phase);
  }
  if (p.message) {
    b.key("message");
    b.string(*p.message);
  }
  if (p.attempts) {
    b.key("attempts");
    b.int64(*p.attempts);
  }
  if (p.last_update_time) {
    b.key("lastUpdateTime");
    b.string(base::format_rfc3339_seconds(*p.last_update_time));
  }
  if (p.last_allocate_time) {
    b.key("lastAllocateTime");
    b.string(base::format_rfc3339_seconds(*p.last_allocate_time));
  }
  if (p.admissions) {
    b.key("admissions");
    b.raw(schema::encode_admissions_json(*p.admissions), rapidjson::kArrayType);
  }
  if (p.admission_checks) {
    b.key("admissionChecks");
    b.raw(schema::encode_admission_checks_json(*p.admission_checks), rapidjson::kArrayType);
  }
  b.end();
  b.end();
  return b.take();
}

Request status_patch_request(const actors::UnitRef& unit, const actors::StatusPatch& p,
                             std::string_view resource_version) {
  return patch(queue_unit_path(unit.namespace_, unit.name) + "/status", status_patch_body(p, resource_version),
               !resource_version.empty());
}

Request spec_queue_patch_request(const actors::UnitRef& unit, const std::string& queue,
                                 std::string_view resource_version) {
  Body b;
  b.start();
  b.resource_version(resource_version);
  b.key("spec");
  b.start();
  b.key("queue");
  b.string(queue);
  b.end();
  b.end();
  return patch(queue_unit_path(unit.namespace_, unit.name), b.take(), !resource_version.empty());
}

Request queue_write_request(const std::string& queue_namespace, const std::string& name,
                            const actors::QueueWrite& write, std::string_view resource_version) {
  const bool precondition = !resource_version.empty();
  if (const auto* create = std::get_if<schema::Queue>(&write)) {
    schema::Queue queue = *create;
    queue.metadata.name = name;
    queue.metadata.namespace_ = queue_namespace;
    queue.metadata.uid.clear();
    queue.metadata.resource_version.clear();
    queue.metadata.creation_timestamp.reset();
    queue.metadata.deletion_timestamp.reset();
    queue.status = {};
    Request r;
    r.verb = Verb::kPost;
    r.target = queue_path(queue_namespace, "");
    r.body = schema::encode_json(queue);
    r.content_type = "application/json";
    return r;
  }
  if (std::holds_alternative<actors::QueueDelete>(write)) {
    Request r;
    r.verb = Verb::kDelete;
    r.target = queue_path(queue_namespace, name);
    if (precondition) {
      Body options;
      options.start();
      options.key("apiVersion");
      options.string("v1");
      options.key("kind");
      options.string("DeleteOptions");
      options.key("preconditions");
      options.start();
      options.key("resourceVersion");
      options.string(resource_version);
      options.end();
      options.end();
      r.body = options.take();
      r.content_type = "application/json";
    }
    return r;
  }
  Body b;
  b.start();
  if (const auto* details = std::get_if<schema::QueueItemDetails>(&write)) {
    b.resource_version(resource_version);
    b.key("status");
    b.start();
    b.key("queueItemDetails");
    b.raw(schema::encode_queue_item_details_json(*details), rapidjson::kObjectType);
    b.end();
    b.end();
    return patch(queue_path(queue_namespace, name) + "/status", b.take(), precondition);
  }
  if (const auto* usage = std::get_if<actors::UsageAnnotations>(&write)) {
    b.key("metadata");
    b.start();
    if (precondition) {
      b.key("resourceVersion");
      b.string(resource_version);
    }
    b.key("annotations");
    b.start();
    for (const auto& [k, v] : *usage) {
      b.key(k);
      b.string(v);
    }
    b.end();
    b.end();
  } else if (const auto* qp = std::get_if<actors::QueuePatch>(&write)) {
    if (qp->queue_policy) {
      b.key("spec");
      b.start();
      b.key("queuePolicy");
      b.string(*qp->queue_policy);
      b.end();
    }
    if (!qp->labels.empty() || !qp->annotations.empty() || precondition) {
      b.key("metadata");
      b.start();
      if (precondition) {
        b.key("resourceVersion");
        b.string(resource_version);
      }
      b.map_patch("labels", qp->labels);
      b.map_patch("annotations", qp->annotations);
      b.end();
    }
  }
  b.end();
  return patch(queue_path(queue_namespace, name), b.take(), precondition);
}

}  // namespace koordq::kube
