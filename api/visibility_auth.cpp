#include "api/visibility_auth.hpp"

#include <algorithm>

namespace koordq::api {

std::optional<AuthenticatedUser> authenticate_front_proxy(const ClientAuthConfig& auth, const HttpRequest& request,
                                                          const PeerIdentity& peer) {
  if (!peer.certificate_presented || !peer.certificate_verified) return std::nullopt;
  if (!auth.allowed_names.empty() &&
      std::find(auth.allowed_names.begin(), auth.allowed_names.end(), peer.common_name) == auth.allowed_names.end()) {
    return std::nullopt;
  }
  AuthenticatedUser user;
  for (const std::string& header : auth.user_headers) {
    const auto it = request.find(header);
    if (it != request.end() && !it->value().empty()) {
      user.name = std::string(it->value());
      break;
    }
  }
  if (user.name.empty()) {
    user.name = peer.common_name;  // the certificate speaks for itself: no groups
    return user;
  }
  // Every value of every group header, header by header; empty values carry no group (as
  // kube-apiserver's request-header authenticator reads them).
  for (const std::string& header : auth.group_headers) {
    const auto [first, last] = request.equal_range(header);
    for (auto it = first; it != last; ++it) {
      if (!it->value().empty()) user.groups.emplace_back(it->value());
    }
  }
  return user;
}

}  // namespace koordq::api
