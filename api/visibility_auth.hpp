// Front-proxy authentication of a visibility API request (behaviour.md §16.1), as
// k8s.io/apiserver's request-header authenticator does it: the client certificate must be verified
// against the request-header CA and, when the allowed names are not empty, carry one of them as its
// CN; the user, groups and extra come from the configured headers, and every authenticated user is
// in the group system:authenticated. A request with no user header
// is unauthenticated whatever its certificate: the CN never becomes the user, and koordq has no
// anonymous user (401, as kube-apiserver with --anonymous-auth=false).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/http_server.hpp"
#include "api/tls_material.hpp"

namespace koordq::api {

struct AuthenticatedUser {
  std::string name;
  std::vector<std::string> groups;
  // From the extra-header prefixes: the key is the rest of the header name, lower case and
  // percent-decoded (X-Remote-Extra-Scopes → "scopes"); every value in arrival order.
  std::map<std::string, std::vector<std::string>> extra;
};

// nullopt: refused (401). `auth.ca_pem` is not looked at; the caller refuses when there is no CA.
std::optional<AuthenticatedUser> authenticate_front_proxy(const ClientAuthConfig& auth, const HttpRequest& request,
                                                          const PeerIdentity& peer);

}  // namespace koordq::api
