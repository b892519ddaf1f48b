#include "api/visibility_authorizer.hpp"

namespace koordq::api {

Result<AccessDecision> VisibilityAuthorizer::authorize(const AuthenticatedUser& user,
                                                       const RequestAttributes& attributes) {
  const std::string body = subject_access_review_body(user, attributes);
  if (auto cached = cache_.find(body, AuthorizationCache::Clock::now())) return *cached;
  auto answer = review_(body);
  if (!answer.ok()) return answer.error();
  auto decision = access_decision_from_review(*answer);
  if (!decision.ok()) return decision.error();
  cache_.store(body, *decision, AuthorizationCache::Clock::now());
  return decision;
}

}  // namespace koordq::api
