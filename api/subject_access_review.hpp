// The SubjectAccessReview (authorization.k8s.io/v1) of one visibility API request (behaviour.md
// §16.8), as k8s.io/apiserver's delegating authorizer writes it: the user, groups and extra of the
// front proxy, and the request's resource or non-resource attributes. Pure: JSON out, JSON in.
#pragma once

#include <string>
#include <string_view>

#include "api/request_attributes.hpp"
#include "api/visibility_auth.hpp"
#include "base/result.hpp"

namespace koordq::api {

inline constexpr std::string_view kSubjectAccessReviewsPath = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

// The body to POST; empty fields are left out. Equal requests give equal bodies (the cache key).
std::string subject_access_review_body(const AuthenticatedUser& user, const RequestAttributes& attributes);

struct AccessDecision {
  bool allowed = false;
  std::string reason;  // status.reason, and status.evaluationError after it when there is one
};

// status.allowed (absent: false) and the reason; an error names what is missing or malformed.
Result<AccessDecision> access_decision_from_review(std::string_view review_json);

}  // namespace koordq::api
