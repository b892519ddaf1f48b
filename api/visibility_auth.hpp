// Front-proxy authentication of a visibility API request (behaviour.md §16.1): the client
// certificate must be verified against the request-header CA and its CN allowed; the user and
// groups come from the configured headers, or the user is the CN when no user header is present.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/http_server.hpp"
#include "api/tls_material.hpp"

namespace koordq::api {

struct AuthenticatedUser {
  std::string name;
  std::vector<std::string> groups;
};

// nullopt: refused (401). `auth.ca_pem` is not looked at; the caller refuses when there is no CA.
std::optional<AuthenticatedUser> authenticate_front_proxy(const ClientAuthConfig& auth, const HttpRequest& request,
                                                          const PeerIdentity& peer);

}  // namespace koordq::api
