#include "kube/leader/pod_label.hpp"

#ifndef RAPIDJSON_HAS_STDSTRING
#define RAPIDJSON_HAS_STDSTRING 1  // as the project's other RapidJSON users see it
#endif
#include <rapidjson/document.h>

namespace koordq::kube {

std::string leader_label_set_body() {
  return std::string(R"({"metadata":{"labels":{")") + kLeaderLabel + R"(":"true"}}})";
}

std::string leader_label_remove_body() {
  return std::string(R"({"metadata":{"labels":{")") + kLeaderLabel + R"(":null}}})";
}

std::string pod_path(const std::string& namespace_, const std::string& name) {
  return "/api/v1/namespaces/" + namespace_ + "/pods/" + name;
}

bool pod_has_leader_label(std::string_view pod_json) {
  rapidjson::Document doc;
  doc.Parse(pod_json.data(), pod_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return true;
  auto meta = doc.FindMember("metadata");
  if (meta == doc.MemberEnd() || !meta->value.IsObject()) return false;
  auto labels = meta->value.FindMember("labels");
  if (labels == meta->value.MemberEnd() || !labels->value.IsObject()) return false;
  return labels->value.HasMember(kLeaderLabel);
}

}  // namespace koordq::kube
