// The metadata koordq reads from every watched object.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "schema/flat_map.hpp"

namespace koordq::schema {

// Nanoseconds since the Unix epoch (UTC). Kubernetes object times have whole seconds.
using UnixNanos = int64_t;

using StringMap = FlatMap<std::string, std::string>;

struct ObjectMeta {
  std::string name;
  std::string namespace_;
  std::string uid;
  std::string resource_version;
  std::optional<UnixNanos> creation_timestamp;
  std::optional<UnixNanos> deletion_timestamp;
  StringMap labels;
  StringMap annotations;

  bool operator==(const ObjectMeta&) const = default;
};

}  // namespace koordq::schema
