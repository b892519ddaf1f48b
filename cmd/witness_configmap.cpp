#include "cmd/witness_configmap.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace koordq::cmd {

std::string witness_configmap_path(std::string_view namespace_name, std::string_view name) {
  return "/api/v1/namespaces/" + std::string(namespace_name) + "/configmaps/" + std::string(name);
}

Result<WitnessConfigMap> parse_witness_configmap(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return make_error("not a JSON object");
  auto text = [](const rapidjson::Value& object, const char* field) -> std::string {
    if (!object.IsObject()) return {};
    auto it = object.FindMember(field);
    return it != object.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
  };
  const std::string kind = text(doc, "kind");
  if (kind != "ConfigMap") {
    return make_error("not a ConfigMap: kind is " + (kind.empty() ? std::string("missing") : kind));
  }
  WitnessConfigMap out;
  if (auto meta = doc.FindMember("metadata"); meta != doc.MemberEnd()) {
    out.namespace_name = text(meta->value, "namespace");
    out.name = text(meta->value, "name");
    out.resource_version = text(meta->value, "resourceVersion");
  }
  if (auto data = doc.FindMember("data"); data != doc.MemberEnd() && data->value.IsObject()) {
    for (const auto& entry : data->value.GetObject()) {
      if (!entry.value.IsString())
        return make_error("data." + std::string(entry.name.GetString()) + " is not a string");
      out.data.emplace(entry.name.GetString(), std::string(entry.value.GetString(), entry.value.GetStringLength()));
    }
  }
  return out;
}

std::string witness_configmap_patch(std::string_view resource_version, std::string_view key, std::string_view value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("metadata");
  w.StartObject();
  w.Key("resourceVersion");
  w.String(resource_version.data(), static_cast<rapidjson::SizeType>(resource_version.size()));
  w.EndObject();
  w.Key("data");
  w.StartObject();
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace koordq::cmd
