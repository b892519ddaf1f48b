// The front-proxy client authentication the cluster publishes (behaviour.md §16.1): the ConfigMap
// kube-system/extension-apiserver-authentication, keys requestheader-client-ca-file and the JSON
// string arrays requestheader-username-headers, requestheader-group-headers,
// requestheader-extra-headers-prefix and requestheader-allowed-names. Pure: the ConfigMap's JSON in, the configuration
// out.
#pragma once

#include <string_view>

#include "api/tls_material.hpp"
#include "base/result.hpp"

namespace koordq::api {

inline constexpr std::string_view kAuthConfigMapCollection = "/api/v1/namespaces/kube-system/configmaps";
inline constexpr std::string_view kAuthConfigMapName = "extension-apiserver-authentication";
inline constexpr std::string_view kAuthConfigMapPath =
    "/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication";

// An error names the key that is missing or malformed. Header lists that are absent or empty keep
// the defaults (X-Remote-User, X-Remote-Group, X-Remote-Extra-).
Result<ClientAuthConfig> client_auth_from_configmap(std::string_view configmap_json);

}  // namespace koordq::api
