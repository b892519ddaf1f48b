#include "schema/json_object_decoders.hpp"

namespace koordq::schema::json_detail {
namespace {

using simdjson::dom::object;

bool decode_consumer_ref(DecodeContext& ctx, const JsonPath& at, element value, ConsumerRef& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "apiVersion") {
      ok = read_string(ctx, path, field, kMaxQualifiedNameBytes, out.api_version);
    } else if (key == "kind") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.kind);
    } else if (key == "name") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.name);
    } else if (key == "namespace") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.namespace_);
    } else if (key == "uid") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.uid);
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_container_resources(DecodeContext& ctx, const JsonPath& at, element value, ContainerResources& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    if (key == "name") {
      if (!read_string(ctx, path, field, kMaxNameBytes, out.name)) return false;
    } else if (key == "resources") {
      object resources;
      if (!expect_object(ctx, path, field, resources)) return false;
      for (auto [kind, list] : resources) {
        if (list.is_null()) continue;
        if (kind == "requests" && !read_resource_list(ctx, path.field(kind), list, out.requests)) return false;
        if (kind == "limits" && !read_resource_list(ctx, path.field(kind), list, out.limits)) return false;
      }
    }
  }
  return true;
}

// §3.4: of the whole pod template only the containers' requests and limits count.
bool decode_pod_template(DecodeContext& ctx, const JsonPath& at, element value, std::vector<ContainerResources>& out) {
  object template_fields;
  if (!expect_object(ctx, at, value, template_fields)) return false;
  for (auto [key, spec] : template_fields) {
    if (key != "spec" || spec.is_null()) continue;
    const JsonPath spec_path = at.field(key);
    object spec_fields;
    if (!expect_object(ctx, spec_path, spec, spec_fields)) return false;
    for (auto [spec_key, containers] : spec_fields) {
      if (spec_key == "containers" && !containers.is_null() &&
          !read_list(ctx, spec_path.field(spec_key), containers, out, decode_container_resources)) {
        return false;
      }
    }
  }
  return true;
}

bool decode_pod_set(DecodeContext& ctx, const JsonPath& at, element value, PodSet& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "name") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.name);
    } else if (key == "count") {
      ok = read_count(ctx, path, field, out.count);
    } else if (key == "minCount") {
      ok = read_optional(read_count, ctx, path, field, out.min_count);
    } else if (key == "template") {
      ok = decode_pod_template(ctx, path, field, out.containers);
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_spec(DecodeContext& ctx, const JsonPath& at, element value, QueueUnitSpec& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "consumerRef") {
      ok = decode_consumer_ref(ctx, path, field, out.consumer_ref.emplace());
    } else if (key == "priority") {
      ok = read_optional(read_int32, ctx, path, field, out.priority);
    } else if (key == "podSet") {
      ok = read_list(ctx, path, field, out.pod_set, decode_pod_set);
    } else if (key == "request") {
      ok = read_resource_list(ctx, path, field, out.request);
    } else if (key == "resource") {
      ok = read_resource_list(ctx, path, field, out.resource);
    } else if (key == "queue") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.queue);
    } else if (key == "priorityClassName") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.priority_class_name);
    } else if (key == "active") {
      ok = read_optional(read_bool, ctx, path, field, out.active);
    } else if (key == "maximumExecutionTimeSeconds") {
      ok = read_optional(read_int32, ctx, path, field, out.maximum_execution_time_seconds);
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_reclaim_state(DecodeContext& ctx, const JsonPath& at, element value, ReclaimState& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (key == "replicas" && !field.is_null() && !read_count(ctx, at.field(key), field, out.replicas)) return false;
  }
  return true;
}

bool decode_admission(DecodeContext& ctx, const JsonPath& at, element value, Admission& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "name") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.name);
    } else if (key == "replicas") {
      ok = read_count(ctx, path, field, out.replicas);
    } else if (key == "resources") {
      ok = read_resource_list(ctx, path, field, out.resources.emplace());
    } else if (key == "running") {
      ok = read_count(ctx, path, field, out.running);
    } else if (key == "reclaimState") {
      ok = decode_reclaim_state(ctx, path, field, out.reclaim_state.emplace());
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_admission_check(DecodeContext& ctx, const JsonPath& at, element value, AdmissionCheckState& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "name") {
      ok = read_string(ctx, path, field, kMaxQualifiedNameBytes, out.name);
    } else if (key == "state") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.state);
    } else if (key == "lastTransitionTime") {
      ok = read_time(ctx, path, field, out.last_transition_time);
    } else if (key == "message") {
      ok = read_text(ctx, path, field, out.message);
    } else if (key == "podSetUpdates") {
      ok = read_json_array_text(ctx, path, field, out.pod_set_updates_json);
    }
    if (!ok) return false;
  }
  return true;
}

bool decode_pod_state(DecodeContext& ctx, const JsonPath& at, element value, PodState& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    if (key == "running" && !read_count(ctx, path, field, out.running)) return false;
    if (key == "pending" && !read_count(ctx, path, field, out.pending)) return false;
  }
  return true;
}

bool decode_status(DecodeContext& ctx, const JsonPath& at, element value, QueueUnitStatus& out) {
  object fields;
  if (!expect_object(ctx, at, value, fields)) return false;
  for (auto [key, field] : fields) {
    if (field.is_null()) continue;
    const JsonPath path = at.field(key);
    bool ok = true;
    if (key == "phase") {
      ok = read_string(ctx, path, field, kMaxNameBytes, out.phase);
    } else if (key == "message") {
      ok = read_text(ctx, path, field, out.message);
    } else if (key == "attempts") {
      ok = read_count(ctx, path, field, out.attempts);
    } else if (key == "lastUpdateTime") {
      ok = read_time(ctx, path, field, out.last_update_time);
    } else if (key == "lastAllocateTime") {
      ok = read_time(ctx, path, field, out.last_allocate_time);
    } else if (key == "admissions") {
      ok = read_list(ctx, path, field, out.admissions, decode_admission);
    } else if (key == "admissionChecks") {
      ok = read_list(ctx, path, field, out.admission_checks, decode_admission_check);
    } else if (key == "podState") {
      ok = decode_pod_state(ctx, path, field, out.pod_state.emplace());
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool decode_content(DecodeContext& ctx, const JsonPath& root, simdjson::dom::object object, QueueUnit& out) {
  for (auto [key, field] : object) {
    if (field.is_null()) continue;
    if (key == "spec" && !decode_spec(ctx, root.field(key), field, out.spec)) return false;
    if (key == "status" && !decode_status(ctx, root.field(key), field, out.status)) return false;
  }
  return true;
}

}  // namespace koordq::schema::json_detail
