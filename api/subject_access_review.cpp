#include "api/subject_access_review.hpp"

#include <rapidjson/document.h>

#include "api/json_out.hpp"

namespace koordq::api {
namespace {

void optional_field(JsonOut& out, std::string_view key, const std::string& value) {
  if (!value.empty()) out.field(key, value);
}

std::string status_string(const rapidjson::Value& object, const char* key) {
  const auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsString()) return {};
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

}  // namespace

std::string subject_access_review_body(const AuthenticatedUser& user, const RequestAttributes& a) {
  JsonOut out;
  out.begin_object()
      .field("apiVersion", "authorization.k8s.io/v1")
      .field("kind", "SubjectAccessReview")
      .key("spec")
      .begin_object();
  if (a.resource_request) {
    out.key("resourceAttributes").begin_object();
    optional_field(out, "namespace", a.namespace_);
    out.field("verb", a.verb);
    optional_field(out, "group", a.group);
    optional_field(out, "version", a.version);
    optional_field(out, "resource", a.resource);
    optional_field(out, "subresource", a.subresource);
    optional_field(out, "name", a.name);
    out.end_object();
  } else {
    out.key("nonResourceAttributes").begin_object().field("path", a.path).field("verb", a.verb).end_object();
  }
  out.field("user", user.name);
  if (!user.groups.empty()) {
    out.key("groups").begin_array();
    for (const std::string& group : user.groups) out.string(group);
    out.end_array();
  }
  if (!user.extra.empty()) {
    out.key("extra").begin_object();
    for (const auto& [key, values] : user.extra) {
      out.key(key).begin_array();
      for (const std::string& value : values) out.string(value);
      out.end_array();
    }
    out.end_object();
  }
  out.end_object().end_object();
  return out.take();
}

Result<AccessDecision> access_decision_from_review(std::string_view review_json) {
  rapidjson::Document doc;
  doc.Parse(review_json.data(), review_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return make_error("the SubjectAccessReview answer is not a JSON object");
  const auto status = doc.FindMember("status");
  if (status == doc.MemberEnd() || !status->value.IsObject()) {
    return make_error("the SubjectAccessReview answer has no status");
  }
  AccessDecision decision;
  const auto allowed = status->value.FindMember("allowed");
  if (allowed != status->value.MemberEnd()) {
    if (!allowed->value.IsBool()) return make_error("the SubjectAccessReview answer's status.allowed is not a boolean");
    decision.allowed = allowed->value.GetBool();
  }
  decision.reason = status_string(status->value, "reason");
  const std::string evaluation_error = status_string(status->value, "evaluationError");
  if (!evaluation_error.empty()) {
    decision.reason += (decision.reason.empty() ? "" : "; ") + evaluation_error;
  }
  return decision;
}

}  // namespace koordq::api
