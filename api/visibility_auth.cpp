#include "api/visibility_auth.hpp"

#include <algorithm>
#include <cctype>

namespace koordq::api {
namespace {

std::string header_name_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int escape_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// url.PathUnescape of Go: a malformed escape keeps the text as it is.
std::string percent_decoded(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int high = escape_digit(s[i + 1]), low = escape_digit(s[i + 2]);
      if (high >= 0 && low >= 0) {
        out += static_cast<char>(high * 16 + low);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

void read_extra(const ClientAuthConfig& auth, const HttpRequest& request, AuthenticatedUser& user) {
  for (const std::string& prefix : auth.extra_header_prefixes) {
    const std::string lower_prefix = header_name_lower(prefix);
    for (const auto& field : request) {
      const std::string name =
          header_name_lower(std::string_view(field.name_string().data(), field.name_string().size()));
      if (name.size() <= lower_prefix.size() || !name.starts_with(lower_prefix)) continue;
      user.extra[percent_decoded(name.substr(lower_prefix.size()))].emplace_back(field.value());
    }
  }
}

// As k8s.io/apiserver's AuthenticatedGroupAdder: every authenticated user is in
// system:authenticated (the aggregator's own requests, system:aggregator, come without groups).
void add_authenticated_group(AuthenticatedUser& user) {
  constexpr std::string_view kAuthenticated = "system:authenticated";
  if (std::find(user.groups.begin(), user.groups.end(), kAuthenticated) == user.groups.end()) {
    user.groups.emplace_back(kAuthenticated);
  }
}

}  // namespace

std::optional<AuthenticatedUser> authenticate_front_proxy(const ClientAuthConfig& auth, const HttpRequest& request,
                                                          const PeerIdentity& peer) {
  if (!peer.certificate_presented || !peer.certificate_verified) return std::nullopt;
  if (!auth.allowed_names.empty() &&
      std::find(auth.allowed_names.begin(), auth.allowed_names.end(), peer.common_name) == auth.allowed_names.end()) {
    return std::nullopt;
  }
  AuthenticatedUser user;
  if (auth.user_from_certificate) {
    if (peer.common_name.empty()) return std::nullopt;
    user.name = peer.common_name;
    add_authenticated_group(user);
    return user;
  }
  for (const std::string& header : auth.user_headers) {
    const auto it = request.find(header);
    if (it != request.end() && !it->value().empty()) {
      user.name = std::string(it->value());
      break;
    }
  }
  if (user.name.empty()) return std::nullopt;  // no CN fallback: the proxy named nobody
  // Every value of every group header, header by header; empty values carry no group (as
  // kube-apiserver's request-header authenticator reads them).
  for (const std::string& header : auth.group_headers) {
    const auto [first, last] = request.equal_range(header);
    for (auto it = first; it != last; ++it) {
      if (!it->value().empty()) user.groups.emplace_back(it->value());
    }
  }
  read_extra(auth, request, user);
  add_authenticated_group(user);
  return user;
}

}  // namespace koordq::api
