#include "schema/json_watch_event.hpp"

#include <array>
#include <string>

namespace koordq::schema {
namespace {

constexpr std::array<const char*, 5> kEventTypeNames = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};

}  // namespace

const char* api_version_of(ObjectKind kind) {
  return kind == ObjectKind::kElasticQuota ? "scheduling.sigs.k8s.io/v1alpha1" : "scheduling.x-k8s.io/v1alpha1";
}

const char* watch_event_type_name(WatchEventType type) {
  return kEventTypeNames[static_cast<size_t>(type)];
}

Result<WatchEventType> parse_watch_event_type(std::string_view text) {
  for (size_t i = 0; i < kEventTypeNames.size(); ++i) {
    if (text == kEventTypeNames[i]) return static_cast<WatchEventType>(i);
  }
  return make_error("expected ADDED, MODIFIED, DELETED, BOOKMARK or ERROR");
}

}  // namespace koordq::schema
