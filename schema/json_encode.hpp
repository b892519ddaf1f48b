// Model → JSON in the Kubernetes shape the API server sends (apiVersion, kind, metadata, spec,
// status), with RapidJSON's Writer: keys in a fixed order, map keys sorted bytewise (behaviour.md
// §0), times RFC 3339 with whole seconds, absent optionals and empty strings, maps and lists
// omitted (fields Kubernetes requires, such as podSet[].count, are always written).
//
// Contract: JsonDecoder decodes every encoding back to the object it came from, for objects the
// decoder accepts (non-empty name and uid, counts ≥ 0, strings within the caps of json_decode.hpp,
// valid UTF-8, pod_set_updates_json empty or a JSON array — the decoder guarantees all of these).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schema/json_watch_event.hpp"
#include "schema/watched_object.hpp"

namespace koordq::schema {

std::string encode_json(const QueueUnit& unit);
std::string encode_json(const Queue& queue);
std::string encode_json(const ElasticQuota& quota);
std::string encode_json(const WatchedObject& object);

// `{"type":"ADDED","object":{...}}`. A BOOKMARK's object carries only kind, apiVersion and
// metadata.resourceVersion, as the API server sends it.
std::string encode_watch_event(WatchEventType type, const WatchedObject& object);
// `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",...}}`
std::string encode_error_event(const ApiStatus& status);

// Pieces of a status merge-PATCH (behaviour.md §7.3, §14.1), as encode_json writes them inside an
// object: `[{...}]` and `{"active":[...],"backoff":[...]}`.
std::string encode_admissions_json(const std::vector<Admission>& admissions);
std::string encode_admission_checks_json(const std::vector<AdmissionCheckState>& checks);
std::string encode_queue_item_details_json(const QueueItemDetails& details);

// A LIST response page; every item must be of `kind`.
std::string encode_list(ObjectKind kind, const std::vector<WatchedObject>& items, std::string_view resource_version,
                        std::string_view continue_token);

}  // namespace koordq::schema
