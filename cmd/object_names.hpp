// Kubernetes object names as the offline commands take them.
#pragma once

#include <string>
#include <string_view>

#include "base/object_name.hpp"
#include "base/result.hpp"

namespace koordq::cmd {

using base::is_namespace_name;
using base::is_object_name;

struct NamespacedName {
  std::string namespace_name;
  std::string name;

  friend bool operator==(const NamespacedName&, const NamespacedName&) = default;
};

// `NS/NAME` with a valid namespace and object name; on failure the error is the requirement.
Result<NamespacedName> parse_namespaced_name(std::string_view text);

}  // namespace koordq::cmd
