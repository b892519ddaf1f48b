#include "api/auth_configmap.hpp"

#include <string>
#include <vector>

#include <rapidjson/document.h>

namespace koordq::api {
namespace {

Result<std::vector<std::string>> string_array(const rapidjson::Value& data, const char* key) {
  std::vector<std::string> out;
  auto it = data.FindMember(key);
  if (it == data.MemberEnd()) return out;
  if (!it->value.IsString()) return make_error(std::string("data.") + key + " is not a string");
  rapidjson::Document list;
  list.Parse(it->value.GetString(), it->value.GetStringLength());
  if (list.HasParseError() || !list.IsArray()) {
    return make_error(std::string("data.") + key + " is not a JSON array of strings");
  }
  for (const auto& v : list.GetArray()) {
    if (!v.IsString()) return make_error(std::string("data.") + key + " is not a JSON array of strings");
    out.emplace_back(v.GetString(), v.GetStringLength());
  }
  return out;
}

}  // namespace

Result<ClientAuthConfig> client_auth_from_configmap(std::string_view configmap_json) {
  rapidjson::Document doc;
  doc.Parse(configmap_json.data(), configmap_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return make_error("the ConfigMap is not a JSON object");
  auto data = doc.FindMember("data");
  if (data == doc.MemberEnd() || !data->value.IsObject()) return make_error("the ConfigMap has no data");
  ClientAuthConfig config;
  auto ca = data->value.FindMember("requestheader-client-ca-file");
  if (ca == data->value.MemberEnd() || !ca->value.IsString() || ca->value.GetStringLength() == 0) {
    return make_error("the ConfigMap has no data.requestheader-client-ca-file");
  }
  config.ca_pem.assign(ca->value.GetString(), ca->value.GetStringLength());
  auto names = string_array(data->value, "requestheader-allowed-names");
  if (!names.ok()) return names.error();
  config.allowed_names = std::move(*names);
  auto users = string_array(data->value, "requestheader-username-headers");
  if (!users.ok()) return users.error();
  if (!users->empty()) config.user_headers = std::move(*users);
  auto groups = string_array(data->value, "requestheader-group-headers");
  if (!groups.ok()) return groups.error();
  if (!groups->empty()) config.group_headers = std::move(*groups);
  auto extra = string_array(data->value, "requestheader-extra-headers-prefix");
  if (!extra.ok()) return extra.error();
  if (!extra->empty()) config.extra_header_prefixes = std::move(*extra);
  return config;
}

}  // namespace koordq::api
