// The v1 Event bodies the recorder sends and the parts of the answer it keeps (behaviour.md §13.2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "actors/core/decision.hpp"

namespace koordq::kube {

inline constexpr const char* kEventComponent = "koord-queue-controller";

struct EventBody {
  std::string namespace_;  // the involved object's, "default" when it has none
  std::string name;
  actors::ObjectRef involved;
  std::string type;
  std::string reason;
  std::string message;
  int32_t count = 1;
  int64_t first_timestamp = 0;  // unix nanoseconds; written with whole seconds
  int64_t last_timestamp = 0;
  std::string reporting_instance;
};

// The Event to POST: apiVersion, kind, metadata, involvedObject, reason, message, source,
// firstTimestamp, lastTimestamp, count, type, reportingComponent, reportingInstance.
std::string event_create_body(const EventBody& event);

// The repeat's merge-PATCH: `{"count":N,"lastTimestamp":"…","message":"…"}`, the fields client-go's
// strategic patch of a repeat sets.
std::string event_update_body(const EventBody& event);

// What the recorder keeps of the server's answer; fields that are absent or malformed are empty.
struct WrittenEvent {
  std::string resource_version;
  std::optional<int32_t> count;
  std::optional<int64_t> first_timestamp;
};
WrittenEvent parse_written_event(std::string_view body);

// `/api/v1/namespaces/<ns>/events` and `…/events/<name>`.
std::string events_path(const std::string& namespace_);
std::string event_path(const std::string& namespace_, const std::string& name);

}  // namespace koordq::kube
