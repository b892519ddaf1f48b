// Kubernetes object and namespace names (DNS-1123), as every surface that takes one checks them.
#pragma once

#include <string_view>

namespace koordq::base {

// A DNS-1123 subdomain: at most 253 characters of [a-z0-9.-], alphanumeric at both ends.
bool is_object_name(std::string_view text);
// A DNS-1123 label: at most 63 characters of [a-z0-9-], alphanumeric at both ends.
bool is_namespace_name(std::string_view text);

}  // namespace koordq::base
