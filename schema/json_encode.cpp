#include "schema/json_encode.hpp"

#include <variant>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/rfc3339.hpp"

namespace koordq::schema {
namespace {

constexpr size_t kInitialBufferBytes = 4096;

class Encoder {
 public:
  explicit Encoder(rapidjson::StringBuffer& buffer) : writer_(buffer) {}

  void key(std::string_view name) { writer_.Key(name.data(), static_cast<rapidjson::SizeType>(name.size())); }
  void string(std::string_view text) { writer_.String(text.data(), static_cast<rapidjson::SizeType>(text.size())); }

  void string_field(std::string_view name, std::string_view text) {
    key(name);
    string(text);
  }
  void nonempty_string_field(std::string_view name, std::string_view text) {
    if (!text.empty()) string_field(name, text);
  }
  void int_field(std::string_view name, int64_t value) {
    key(name);
    writer_.Int64(value);
  }
  template <class Int>
  void optional_int_field(std::string_view name, const std::optional<Int>& value) {
    if (value) int_field(name, *value);
  }
  void time_field(std::string_view name, const std::optional<UnixNanos>& time) {
    if (time) string_field(name, base::format_rfc3339_seconds(*time));
  }
  void string_map(const StringMap& map) {
    writer_.StartObject();
    for (const auto& [entry_key, value] : map) string_field(entry_key, value);
    writer_.EndObject();
  }
  void nonempty_map_field(std::string_view name, const StringMap& map) {
    if (map.empty()) return;
    key(name);
    string_map(map);
  }
  template <class T, class Item>
  void list_field(std::string_view name, const std::vector<T>& items, Item write_item) {
    key(name);
    writer_.StartArray();
    for (const T& item : items) write_item(item);
    writer_.EndArray();
  }
  template <class T, class Item>
  void nonempty_list_field(std::string_view name, const std::vector<T>& items, Item write_item) {
    if (!items.empty()) list_field(name, items, write_item);
  }

  void metadata(const ObjectMeta& meta) {
    key("metadata");
    writer_.StartObject();
    string_field("name", meta.name);
    nonempty_string_field("namespace", meta.namespace_);
    nonempty_string_field("uid", meta.uid);
    nonempty_string_field("resourceVersion", meta.resource_version);
    time_field("creationTimestamp", meta.creation_timestamp);
    time_field("deletionTimestamp", meta.deletion_timestamp);
    nonempty_map_field("labels", meta.labels);
    nonempty_map_field("annotations", meta.annotations);
    writer_.EndObject();
  }

  void head(ObjectKind kind) {
    string_field("apiVersion", api_version_of(kind));
    string_field("kind", kind_name(kind));
  }

  void object(const QueueUnit& unit) {
    writer_.StartObject();
    head(ObjectKind::kQueueUnit);
    metadata(unit.metadata);
    key("spec");
    spec(unit.spec);
    key("status");
    status(unit.status);
    writer_.EndObject();
  }

  void object(const Queue& queue) {
    writer_.StartObject();
    head(ObjectKind::kQueue);
    metadata(queue.metadata);
    key("spec");
    spec(queue.spec);
    key("status");
    writer_.StartObject();
    if (queue.status.queue_item_details) {
      key("queueItemDetails");
      queue_item_details(*queue.status.queue_item_details);
    }
    writer_.EndObject();
    writer_.EndObject();
  }

  void object(const ElasticQuota& quota) {
    writer_.StartObject();
    head(ObjectKind::kElasticQuota);
    metadata(quota.metadata);
    key("spec");
    writer_.StartObject();
    nonempty_map_field("max", quota.spec.max);
    nonempty_map_field("min", quota.spec.min);
    writer_.EndObject();
    writer_.EndObject();
  }

  void bookmark(const WatchedObject& object) {
    ObjectKind kind = kind_of(object);
    writer_.StartObject();
    head(kind);
    key("metadata");
    writer_.StartObject();
    string_field("resourceVersion", meta_of(object).resource_version);
    writer_.EndObject();
    writer_.EndObject();
  }

  void api_status(const ApiStatus& status) {
    writer_.StartObject();
    string_field("kind", "Status");
    string_field("apiVersion", "v1");
    key("metadata");
    writer_.StartObject();
    writer_.EndObject();
    string_field("status", "Failure");
    nonempty_string_field("message", status.message);
    nonempty_string_field("reason", status.reason);
    int_field("code", status.code);
    writer_.EndObject();
  }

  void admission(const Admission& admission) {
    writer_.StartObject();
    string_field("name", admission.name);
    int_field("replicas", admission.replicas);
    if (admission.resources) {
      key("resources");
      string_map(*admission.resources);
    }
    int_field("running", admission.running);
    if (admission.reclaim_state) {
      key("reclaimState");
      writer_.StartObject();
      int_field("replicas", admission.reclaim_state->replicas);
      writer_.EndObject();
    }
    writer_.EndObject();
  }

  void admission_check(const AdmissionCheckState& check) {
    writer_.StartObject();
    string_field("name", check.name);
    string_field("state", check.state);
    time_field("lastTransitionTime", check.last_transition_time);
    string_field("message", check.message);
    if (!check.pod_set_updates_json.empty()) {
      key("podSetUpdates");
      writer_.RawValue(check.pod_set_updates_json.data(), check.pod_set_updates_json.size(), rapidjson::kArrayType);
    }
    writer_.EndObject();
  }

  void queue_item_details(const QueueItemDetails& details) {
    writer_.StartObject();
    list_field("active", details.active, [this](const QueueItem& item) { queue_item(item); });
    list_field("backoff", details.backoff, [this](const QueueItem& item) { queue_item(item); });
    writer_.EndObject();
  }

  void start_object() { writer_.StartObject(); }
  void end_object() { writer_.EndObject(); }
  void start_array() { writer_.StartArray(); }
  void end_array() { writer_.EndArray(); }

 private:
  void spec(const QueueUnitSpec& spec) {
    writer_.StartObject();
    if (spec.consumer_ref) {
      const ConsumerRef& ref = *spec.consumer_ref;
      key("consumerRef");
      writer_.StartObject();
      nonempty_string_field("apiVersion", ref.api_version);
      nonempty_string_field("kind", ref.kind);
      nonempty_string_field("name", ref.name);
      nonempty_string_field("namespace", ref.namespace_);
      nonempty_string_field("uid", ref.uid);
      writer_.EndObject();
    }
    optional_int_field("priority", spec.priority);
    nonempty_list_field("podSet", spec.pod_set, [this](const PodSet& pod_set) { this->pod_set(pod_set); });
    nonempty_map_field("request", spec.request);
    nonempty_map_field("resource", spec.resource);
    nonempty_string_field("queue", spec.queue);
    nonempty_string_field("priorityClassName", spec.priority_class_name);
    if (spec.active) {
      key("active");
      writer_.Bool(*spec.active);
    }
    optional_int_field("maximumExecutionTimeSeconds", spec.maximum_execution_time_seconds);
    writer_.EndObject();
  }

  void pod_set(const PodSet& pod_set) {
    writer_.StartObject();
    string_field("name", pod_set.name);
    int_field("count", pod_set.count);
    optional_int_field("minCount", pod_set.min_count);
    key("template");
    writer_.StartObject();
    key("spec");
    writer_.StartObject();
    list_field("containers", pod_set.containers, [this](const ContainerResources& container) {
      writer_.StartObject();
      string_field("name", container.name);
      key("resources");
      writer_.StartObject();
      nonempty_map_field("limits", container.limits);
      nonempty_map_field("requests", container.requests);
      writer_.EndObject();
      writer_.EndObject();
    });
    writer_.EndObject();
    writer_.EndObject();
    writer_.EndObject();
  }

  void status(const QueueUnitStatus& status) {
    writer_.StartObject();
    nonempty_string_field("phase", status.phase);
    nonempty_string_field("message", status.message);
    int_field("attempts", status.attempts);
    time_field("lastUpdateTime", status.last_update_time);
    time_field("lastAllocateTime", status.last_allocate_time);
    nonempty_list_field("admissions", status.admissions, [this](const Admission& a) { admission(a); });
    nonempty_list_field("admissionChecks", status.admission_checks,
                        [this](const AdmissionCheckState& check) { admission_check(check); });
    if (status.pod_state) {
      key("podState");
      writer_.StartObject();
      int_field("running", status.pod_state->running);
      int_field("pending", status.pod_state->pending);
      writer_.EndObject();
    }
    writer_.EndObject();
  }

  void spec(const QueueSpec& spec) {
    writer_.StartObject();
    nonempty_string_field("queuePolicy", spec.queue_policy);
    optional_int_field("priority", spec.priority);
    nonempty_string_field("priorityClassName", spec.priority_class_name);
    nonempty_list_field("admissionChecks", spec.admission_checks, [this](const QueueAdmissionCheck& check) {
      writer_.StartObject();
      string_field("name", check.name);
      if (check.label_selector) {
        key("labelSelector");
        label_selector(*check.label_selector);
      }
      writer_.EndObject();
    });
    writer_.EndObject();
  }

  void label_selector(const LabelSelector& selector) {
    writer_.StartObject();
    nonempty_map_field("matchLabels", selector.match_labels);
    nonempty_list_field(
        "matchExpressions", selector.match_expressions, [this](const LabelSelectorRequirement& requirement) {
          writer_.StartObject();
          string_field("key", requirement.key);
          string_field("operator", requirement.operator_);
          nonempty_list_field("values", requirement.values, [this](const std::string& value) { string(value); });
          writer_.EndObject();
        });
    writer_.EndObject();
  }

  void queue_item(const QueueItem& item) {
    writer_.StartObject();
    string_field("name", item.name);
    nonempty_string_field("namespace", item.namespace_);
    if (item.priority && *item.priority != 0) int_field("priority", *item.priority);
    int_field("position", item.position);
    writer_.EndObject();
  }

  rapidjson::Writer<rapidjson::StringBuffer> writer_;
};

std::string to_string(const rapidjson::StringBuffer& buffer) {
  return std::string(buffer.GetString(), buffer.GetSize());
}

template <class Object>
std::string encode_one(const Object& object) {
  rapidjson::StringBuffer buffer(nullptr, kInitialBufferBytes);
  Encoder(buffer).object(object);
  return to_string(buffer);
}

}  // namespace

std::string encode_json(const QueueUnit& unit) {
  return encode_one(unit);
}
std::string encode_json(const Queue& queue) {
  return encode_one(queue);
}
std::string encode_json(const ElasticQuota& quota) {
  return encode_one(quota);
}

std::string encode_json(const WatchedObject& object) {
  return std::visit([](const auto& typed) { return encode_one(typed); }, object);
}

std::string encode_watch_event(WatchEventType type, const WatchedObject& object) {
  rapidjson::StringBuffer buffer(nullptr, kInitialBufferBytes);
  Encoder encoder(buffer);
  encoder.start_object();
  encoder.string_field("type", watch_event_type_name(type));
  encoder.key("object");
  if (type == WatchEventType::kBookmark) {
    encoder.bookmark(object);
  } else {
    std::visit([&encoder](const auto& typed) { encoder.object(typed); }, object);
  }
  encoder.end_object();
  return to_string(buffer);
}

std::string encode_error_event(const ApiStatus& status) {
  rapidjson::StringBuffer buffer;
  Encoder encoder(buffer);
  encoder.start_object();
  encoder.string_field("type", watch_event_type_name(WatchEventType::kError));
  encoder.key("object");
  encoder.api_status(status);
  encoder.end_object();
  return to_string(buffer);
}

std::string encode_admissions_json(const std::vector<Admission>& admissions) {
  rapidjson::StringBuffer buffer;
  Encoder encoder(buffer);
  encoder.start_array();
  for (const Admission& a : admissions) encoder.admission(a);
  encoder.end_array();
  return to_string(buffer);
}

std::string encode_admission_checks_json(const std::vector<AdmissionCheckState>& checks) {
  rapidjson::StringBuffer buffer;
  Encoder encoder(buffer);
  encoder.start_array();
  for (const AdmissionCheckState& c : checks) encoder.admission_check(c);
  encoder.end_array();
  return to_string(buffer);
}

std::string encode_queue_item_details_json(const QueueItemDetails& details) {
  rapidjson::StringBuffer buffer;
  Encoder(buffer).queue_item_details(details);
  return to_string(buffer);
}

std::string encode_list(ObjectKind kind, const std::vector<WatchedObject>& items, std::string_view resource_version,
                        std::string_view continue_token) {
  rapidjson::StringBuffer buffer(nullptr, kInitialBufferBytes * (items.size() + 1));
  Encoder encoder(buffer);
  encoder.start_object();
  encoder.string_field("apiVersion", api_version_of(kind));
  encoder.string_field("kind", std::string(kind_name(kind)) + "List");
  encoder.key("metadata");
  encoder.start_object();
  encoder.string_field("resourceVersion", resource_version);
  encoder.nonempty_string_field("continue", continue_token);
  encoder.end_object();
  encoder.key("items");
  encoder.start_array();
  for (const WatchedObject& item : items) {
    std::visit([&encoder](const auto& typed) { encoder.object(typed); }, item);
  }
  encoder.end_array();
  encoder.end_object();
  return to_string(buffer);
}

}  // namespace koordq::schema
