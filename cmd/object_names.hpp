// Kubernetes object names as the offline commands take them.
#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::cmd {

// A DNS-1123 subdomain: at most 253 characters of [a-z0-9.-], alphanumeric at both ends.
bool is_object_name(std::string_view text);
// A DNS-1123 label: at most 63 characters of [a-z0-9-], alphanumeric at both ends.
bool is_namespace_name(std::string_view text);

struct NamespacedName {
  std::string namespace_name;
  std::string name;

  friend bool operator==(const NamespacedName&, const NamespacedName&) = default;
};

// `NS/NAME` with a valid namespace and object name; on failure the error is the requirement.
Result<NamespacedName> parse_namespaced_name(std::string_view text);

}  // namespace koordq::cmd
