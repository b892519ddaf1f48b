// The HTTP requests of the leader's writes (behaviour.md §2.1, §7.3, §14): JSON merge-PATCHes of
// QueueUnit status and spec.queue, and the Queue creates, patches, status writes and deletes of
// auto-created Queues; every write that can race with another writer carries the resourceVersion
// precondition. Pure: request in, no I/O.
#pragma once

#include <string>
#include <string_view>

#include "actors/core/decision.hpp"
#include "kube/client/http_client.hpp"

namespace koordq::kube {

std::string queue_unit_path(std::string_view ns, std::string_view name);
std::string queue_path(std::string_view ns, std::string_view name);

// `{"metadata":{"resourceVersion":"<rv>"},"status":{…only the keys the patch sets…}}`; lists whole.
std::string status_patch_body(const actors::StatusPatch& patch, std::string_view resource_version);
Request status_patch_request(const actors::UnitRef& unit, const actors::StatusPatch& patch,
                             std::string_view resource_version);
// `{"metadata":{"resourceVersion":"<rv>"},"spec":{"queue":"<queue>"}}` (no metadata when rv is empty).
Request spec_queue_patch_request(const actors::UnitRef& unit, const std::string& queue,
                                 std::string_view resource_version);
// The request for one Queue write of the Queue `name` in `queue_namespace`. Every write but a
// create carries `resource_version` (when not empty) as its precondition: patches in
// metadata.resourceVersion, a delete in DeleteOptions.preconditions.
Request queue_write_request(const std::string& queue_namespace, const std::string& name,
                            const actors::QueueWrite& write, std::string_view resource_version = {});

}  // namespace koordq::kube
