#include "cmd/at_table.hpp"

#include <algorithm>
#include <functional>

#include <rapidjson/document.h>

namespace koordq::cmd {
namespace {

constexpr std::string_view kNone = "<none>";
constexpr std::string_view kSeparator = "   ";

using Json = rapidjson::Value;

const Json* member(const Json& v, const char* name) {
  if (!v.IsObject()) return nullptr;
  const auto it = v.FindMember(name);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

std::string or_none(std::string text) {
  return text.empty() ? std::string(kNone) : text;
}

// A string or an integer as text; "" when absent.
std::string scalar(const Json* v) {
  if (v == nullptr) return "";
  if (v->IsString()) return std::string(v->GetString(), v->GetStringLength());
  if (v->IsInt64()) return std::to_string(v->GetInt64());
  if (v->IsUint64()) return std::to_string(v->GetUint64());
  if (v->IsBool()) return v->GetBool() ? "true" : "false";
  return "";
}

std::string cell(const Json& item, const char* name) {
  return or_none(scalar(member(item, name)));
}

std::string metadata_cell(const Json& item, const char* name) {
  const Json* meta = member(item, "metadata");
  return or_none(meta ? scalar(member(*meta, name)) : "");
}

// `key=value,…` in bytewise key order (resource lists and phase counts).
std::string pairs(const Json* v) {
  if (v == nullptr || !v->IsObject()) return std::string(kNone);
  std::vector<std::pair<std::string, std::string>> entries;
  for (const auto& m : v->GetObject()) {
    entries.emplace_back(std::string(m.name.GetString(), m.name.GetStringLength()), scalar(&m.value));
  }
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const auto& [key, value] : entries) out += (out.empty() ? "" : ",") + key + "=" + value;
  return or_none(out);
}

std::optional<std::string> items_table(std::string_view json, std::vector<std::string> header,
                                       const std::function<std::vector<std::string>(const Json&)>& row) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError()) return std::nullopt;
  const Json* items = member(doc, "items");
  if (items == nullptr || !items->IsArray()) return std::nullopt;
  std::vector<std::vector<std::string>> rows{std::move(header)};
  for (const auto& item : items->GetArray()) rows.push_back(row(item));
  return format_table(rows);
}

}  // namespace

std::string format_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      out += row[i];
      if (i + 1 < row.size()) out += std::string(widths[i] - row[i].size(), ' ') + std::string(kSeparator);
    }
    out += '\n';
  }
  return out;
}

std::optional<std::string> queue_list_table(std::string_view json) {
  return items_table(json, {"NAME", "POLICY", "ACTIVE", "BACKOFF", "ASSUMED", "PHASES"}, [](const Json& item) {
    return std::vector<std::string>{metadata_cell(item, "name"), cell(item, "policy"),
                                    cell(item, "activeCount"),   cell(item, "backoffCount"),
                                    cell(item, "assumedCount"),  pairs(member(item, "phaseCounts"))};
  });
}

std::optional<std::string> quota_list_table(std::string_view json) {
  return items_table(json, {"NAME", "PARENT", "MIN", "MAX", "USED", "PHASES"}, [](const Json& item) {
    return std::vector<std::string>{metadata_cell(item, "name"), cell(item, "parent"),
                                    pairs(member(item, "min")),  pairs(member(item, "max")),
                                    pairs(member(item, "used")), pairs(member(item, "phaseCounts"))};
  });
}

std::optional<std::string> unit_summary_table(std::string_view json) {
  return items_table(json,
                     {"NAMESPACE", "NAME", "QUOTA", "QUEUE", "PRIORITY", "POSITION", "PHASE", "REQUEST", "RUNNING",
                      "PENDING", "CREATED"},
                     [](const Json& item) {
                       const Json* position = member(item, "positionInQueue");
                       const Json* request = member(item, "request");
                       if (request == nullptr) request = member(item, "resources");
                       const Json* pod_state = member(item, "podState");
                       return std::vector<std::string>{metadata_cell(item, "namespace"),
                                                       metadata_cell(item, "name"),
                                                       cell(item, "quotaName"),
                                                       cell(item, "queueName"),
                                                       cell(item, "priority"),
                                                       position ? scalar(position) : std::string("-"),
                                                       cell(item, "phase"),
                                                       pairs(request),
                                                       or_none(pod_state ? scalar(member(*pod_state, "running")) : ""),
                                                       or_none(pod_state ? scalar(member(*pod_state, "pending")) : ""),
                                                       metadata_cell(item, "creationTimestamp")};
                     });
}

}  // namespace koordq::cmd
