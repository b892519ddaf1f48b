// The authorization of a visibility API request (behaviour.md §16.8): a SubjectAccessReview
// through `review` (the API server, in `koordq serve`), its decision kept by an
// AuthorizationCache, so one user asking the same thing again within 10 s is answered at once.
#pragma once

#include <functional>
#include <string>

#include "api/authorization_cache.hpp"
#include "api/request_attributes.hpp"
#include "api/subject_access_review.hpp"
#include "api/visibility_auth.hpp"
#include "base/result.hpp"

namespace koordq::api {

class VisibilityAuthorizer {
 public:
  // POSTs a SubjectAccessReview body and returns the API server's answer (the created review), or
  // an error naming why there is none.
  using Review = std::function<Result<std::string>(const std::string& body)>;

  explicit VisibilityAuthorizer(Review review,
                                AuthorizationCache::Clock::duration ttl = AuthorizationCache::kDefaultTtl,
                                size_t capacity = AuthorizationCache::kDefaultCapacity)
      : review_(std::move(review)), cache_(capacity, ttl) {}

  // The decision, or an error when the review could not be made (not cached: asked again next time).
  Result<AccessDecision> authorize(const AuthenticatedUser& user, const RequestAttributes& attributes);

 private:
  Review review_;
  AuthorizationCache cache_;
};

}  // namespace koordq::api
