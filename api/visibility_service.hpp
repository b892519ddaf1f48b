// The visibility API (behaviour.md §16): discovery, the queue and quota summaries and their
// queueunits (cluster-wide, and a queue's units of one namespace), /openapi/v2 and /healthz,
// front-proxy authentication, a SubjectAccessReview per request, and every error as a Kubernetes
// Status. Answers are projections of the state at a revision (§18).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "api/http_server.hpp"
#include "api/request_attributes.hpp"
#include "api/response_cache.hpp"
#include "api/time_travel.hpp"
#include "api/tls_material.hpp"
#include "api/visibility_auth.hpp"
#include "api/visibility_authorizer.hpp"

namespace koordq::api {

struct VisibilityContext {
  TimeTravel* time_travel = nullptr;
  std::shared_ptr<TlsMaterial> tls;
  std::function<int64_t()> now;  // wall clock, or the simulator's virtual time
  // The revision the live state is at, without asking for the state (nullopt: no live state);
  // an answer already rendered at it is served from the cache straight away.
  std::function<std::optional<uint64_t>()> live_revision;
  std::string journal_uuid;
  // Decides every authenticated request (§16.8); null only under --simulate, where there is no API
  // server to ask and every authenticated request is allowed.
  std::shared_ptr<VisibilityAuthorizer> authorizer;
};

class VisibilityService : public HttpService {
 public:
  explicit VisibilityService(VisibilityContext context) : context_(std::move(context)) {}

  HttpResponse handle(const HttpRequest& request, const PeerIdentity& peer) override;
  HttpResponse limit_exceeded(ServerLimit limit) override;

 private:
  std::optional<ApiError> authenticate(const HttpRequest& request, const PeerIdentity& peer, AuthenticatedUser& user);
  std::optional<HttpResponse> refuse_unauthorized(const AuthenticatedUser& user, const std::string& path);
  HttpResponse route(const HttpRequest& request, const std::string& target);

  VisibilityContext context_;
  ResponseCache cache_;
  std::atomic<bool> missing_ca_logged_{false};
};

}  // namespace koordq::api
