#include "api/unit_render.hpp"

#include <limits>
#include <string_view>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api/visibility_render.hpp"
#include "schema/json_encode.hpp"

namespace koordq::api {
namespace {

bool names(const rapidjson::Value& item, const std::string& namespace_name, const std::string& name) {
  const auto meta = item.FindMember("metadata");
  if (meta == item.MemberEnd() || !meta->value.IsObject()) return false;
  const auto ns = meta->value.FindMember("namespace");
  const auto n = meta->value.FindMember("name");
  if (ns == meta->value.MemberEnd() || n == meta->value.MemberEnd() || !ns->value.IsString() || !n->value.IsString()) {
    return false;
  }
  // By length: GetString() alone would end a name at its first NUL.
  return namespace_name == std::string_view(ns->value.GetString(), ns->value.GetStringLength()) &&
         name == std::string_view(n->value.GetString(), n->value.GetStringLength());
}

}  // namespace

std::optional<std::string> render_unit(const actors::Scheduler& s, uint64_t revision, const std::string& namespace_name,
                                       const std::string& name) {
  const auto it = s.units().find(namespace_name + "/" + name);
  if (it == s.units().end()) return std::nullopt;
  const actors::UnitState& unit = it->second;

  // The summary of the unit's quota, narrowed to the unit's phase, holds the unit's item with its
  // position among the queue's waiting units.
  api::UnitFilter filter;
  filter.phases = std::set<actors::Phase>{unit.phase};
  const api::PageParams everything{0, std::numeric_limits<int32_t>::max()};
  const std::optional<std::string> summary = api::render_quota_units(s, revision, unit.quota, filter, everything);
  if (!summary) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse(summary->data(), summary->size());
  if (doc.HasParseError() || !doc.HasMember("items") || !doc["items"].IsArray()) return std::nullopt;
  rapidjson::Value* item = nullptr;
  for (auto& candidate : doc["items"].GetArray()) {
    if (names(candidate, namespace_name, name)) item = &candidate;
  }
  if (item == nullptr) return std::nullopt;

  schema::QueueUnit object = unit.object;
  object.status = unit.status();
  rapidjson::Document encoded;
  const std::string object_json = schema::encode_json(object);
  encoded.Parse(object_json.data(), object_json.size());
  rapidjson::Value status(rapidjson::kObjectType);
  if (!encoded.HasParseError() && encoded.IsObject() && encoded.HasMember("status")) {
    status.CopyFrom(encoded["status"], doc.GetAllocator());
  }
  item->AddMember("status", status, doc.GetAllocator());

  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  item->Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace koordq::api
