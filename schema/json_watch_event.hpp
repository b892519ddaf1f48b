// The decoded forms of what the API server sends on a LIST or WATCH of the three watched
// resources (design.md §2 `watch` record; design.md §7), as json_decode.hpp produces them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "schema/watched_object.hpp"

namespace koordq::schema {

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

// "scheduling.x-k8s.io/v1alpha1" for QueueUnit and Queue, "scheduling.sigs.k8s.io/v1alpha1" for
// ElasticQuota.
const char* api_version_of(ObjectKind kind);

// "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"
const char* watch_event_type_name(WatchEventType type);
Result<WatchEventType> parse_watch_event_type(std::string_view text);

// The metav1.Status of an ERROR event. Code 410 means the watch's resourceVersion is too old
// and a relist is due (design.md §7).
struct ApiStatus {
  int32_t code = 0;
  std::string reason;
  std::string message;

  bool operator==(const ApiStatus&) const = default;
};

// One object (a GET answer, a LIST item or a watch event's object).
struct DecodedObject {
  WatchedObject object;
  // The object's JSON per RawObjectMode: empty for kOff.
  std::string raw_json;
  // `<path>: <what>` for input that §3.1 treats as absent (unparsable quantities) or that was
  // kept but looks wrong (negative quantities, truncated messages); logged at --v=2.
  std::vector<std::string> warnings;
};

struct WatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  // Every type but ERROR. A BOOKMARK's object holds only metadata.resourceVersion.
  std::optional<WatchedObject> object;
  // ERROR only.
  std::optional<ApiStatus> status;
  // The event's `object` member per RawObjectMode (for ERROR, the Status object).
  std::string raw_json;
  std::vector<std::string> warnings;

  std::optional<ObjectKind> kind() const { return object ? std::optional<ObjectKind>(kind_of(*object)) : std::nullopt; }
};

// An item of a LIST page that could not be decoded: the rest of the page still is, so that one
// bad object cannot stop a relist.
struct RejectedItem {
  size_t index = 0;
  std::string error;  // names the item (`items[3]`) and, when readable, its namespace/name
};

struct ListPage {
  std::string resource_version;  // metadata.resourceVersion: where the following WATCH starts
  std::string continue_token;    // metadata.continue: empty on the last page
  std::vector<DecodedObject> items;
  std::vector<RejectedItem> rejected;
};

}  // namespace koordq::schema
