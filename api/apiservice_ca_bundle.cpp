#include "api/apiservice_ca_bundle.hpp"

#include <rapidjson/document.h>

#include "api/json_out.hpp"
#include "base/base64.hpp"

namespace koordq::api {
namespace {

std::string spec_string(const rapidjson::Value& object, const char* key) {
  const auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsString()) return {};
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

}  // namespace

Result<ApiServiceView> api_service_view(std::string_view apiservice_json) {
  rapidjson::Document doc;
  doc.Parse(apiservice_json.data(), apiservice_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return make_error("the APIService is not a JSON object");
  const auto spec = doc.FindMember("spec");
  if (spec == doc.MemberEnd() || !spec->value.IsObject()) return make_error("the APIService has no spec");
  ApiServiceView view;
  view.ca_bundle = spec_string(spec->value, "caBundle");
  const auto insecure = spec->value.FindMember("insecureSkipTLSVerify");
  view.insecure_skip_tls_verify =
      insecure != spec->value.MemberEnd() && insecure->value.IsBool() && insecure->value.GetBool();
  const auto service = spec->value.FindMember("service");
  if (service != spec->value.MemberEnd() && service->value.IsObject()) {
    const std::string name = spec_string(service->value, "name");
    const std::string ns = spec_string(service->value, "namespace");
    if (!name.empty() && !ns.empty()) view.service_host = name + "." + ns + ".svc";
  }
  return view;
}

std::string ca_bundle_patch(std::string_view certificate_pem) {
  JsonOut out;
  out.begin_object().key("spec").begin_object();
  out.field("caBundle", base::base64_encode(certificate_pem)).field("insecureSkipTLSVerify", false);
  out.end_object().end_object();
  return out.take();
}

}  // namespace koordq::api
