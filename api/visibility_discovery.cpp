#include "api/visibility_discovery.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <vector>

#include "api/json_out.hpp"
#include "api/visibility_render.hpp"

namespace koordq::api {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct MediaRange {
  std::string type;                           // lower case "type/subtype"
  std::map<std::string, std::string> params;  // without q
  double q = 1.0;
  size_t index = 0;
};

std::optional<MediaRange> parse_range(std::string_view text, size_t index) {
  MediaRange range;
  range.index = index;
  size_t semicolon = text.find(';');
  range.type = lower(trim(text.substr(0, semicolon)));
  if (range.type.empty()) return std::nullopt;
  while (semicolon != std::string_view::npos) {
    text = text.substr(semicolon + 1);
    semicolon = text.find(';');
    const std::string_view param = trim(text.substr(0, semicolon));
    if (param.empty()) continue;
    const size_t eq = param.find('=');
    const std::string name = std::string(trim(param.substr(0, eq)));
    const std::string value = eq == std::string_view::npos ? std::string() : std::string(trim(param.substr(eq + 1)));
    if (name == "q") {
      try {
        range.q = std::stod(value);
      } catch (...) {
        range.q = 1.0;
      }
    } else {
      range.params[name] = value;
    }
  }
  return range;
}

bool aggregated(const MediaRange& r, std::string_view version) {
  return r.type == "application/json" && r.params.size() == 3 && r.params.count("g") &&
         r.params.at("g") == "apidiscovery.k8s.io" && r.params.count("v") && r.params.at("v") == version &&
         r.params.count("as") && r.params.at("as") == "APIGroupDiscoveryList";
}

bool legacy(const MediaRange& r) {
  return r.params.empty() && (r.type == "application/json" || r.type == "application/*" || r.type == "*/*");
}

void group_versions(JsonOut& out) {
  out.key("versions").begin_array();
  out.begin_object().field("groupVersion", kVisibilityGroupVersion).field("version", kVisibilityVersion).end_object();
  out.end_array();
  out.key("preferredVersion")
      .begin_object()
      .field("groupVersion", kVisibilityGroupVersion)
      .field("version", kVisibilityVersion)
      .end_object();
}

void group_object(JsonOut& out) {
  out.field("name", kVisibilityGroup);
  group_versions(out);
}

void response_kind(JsonOut& out, std::string_view kind) {
  out.key("responseKind")
      .begin_object()
      .field("group", kVisibilityGroup)
      .field("version", kVisibilityVersion)
      .field("kind", kind)
      .end_object();
}

void discovery_resource(JsonOut& out, std::string_view resource, std::string_view singular, std::string_view kind) {
  out.begin_object().field("resource", resource);
  response_kind(out, kind);
  out.field("scope", "Cluster").field("singularResource", singular);
  out.key("verbs").begin_array().string("get").string("list").end_array();
  out.key("subresources").begin_array().begin_object().field("subresource", "queueunits");
  response_kind(out, "QueueUnitsSummary");
  out.key("verbs").begin_array().string("get").end_array().end_object().end_array();
  out.end_object();
}

void api_resource(JsonOut& out, std::string_view name, std::string_view singular, std::string_view kind, bool list) {
  out.begin_object().field("name", name).field("singularName", singular).field("namespaced", false);
  out.field("kind", kind).key("verbs").begin_array().string("get");
  if (list) out.string("list");
  out.end_array().end_object();
}

constexpr std::string_view kDefinitionPrefix = "io.koord-queue.visibility.v1alpha1.";

}  // namespace

DiscoveryForm choose_discovery_form(std::string_view accept) {
  std::vector<MediaRange> ranges;
  size_t index = 0;
  while (!accept.empty()) {
    const size_t comma = accept.find(',');
    if (auto r = parse_range(accept.substr(0, comma), index++); r && r->q > 0) ranges.push_back(std::move(*r));
    if (comma == std::string_view::npos) break;
    accept = accept.substr(comma + 1);
  }
  std::stable_sort(ranges.begin(), ranges.end(), [](const MediaRange& a, const MediaRange& b) { return a.q > b.q; });
  for (const MediaRange& r : ranges) {
    if (aggregated(r, "v2")) return DiscoveryForm::kAggregatedV2;
    if (aggregated(r, "v2beta1")) return DiscoveryForm::kAggregatedV2Beta1;
    if (legacy(r)) return DiscoveryForm::kLegacy;
  }
  return DiscoveryForm::kLegacy;
}

std::string_view discovery_content_type(DiscoveryForm form) {
  switch (form) {
    case DiscoveryForm::kAggregatedV2:
      return "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    case DiscoveryForm::kAggregatedV2Beta1:
      return "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
    case DiscoveryForm::kLegacy:
      break;
  }
  return "application/json";
}

std::string api_group_list() {
  JsonOut out;
  out.begin_object().field("kind", "APIGroupList").field("apiVersion", "v1");
  out.key("groups").begin_array().begin_object();
  group_object(out);
  out.end_object().end_array().end_object();
  return out.take();
}

std::string api_group() {
  JsonOut out;
  out.begin_object().field("kind", "APIGroup").field("apiVersion", "v1");
  group_object(out);
  out.end_object();
  return out.take();
}

std::string api_group_discovery_list(DiscoveryForm form) {
  JsonOut out;
  out.begin_object().field("kind", "APIGroupDiscoveryList");
  out.field("apiVersion",
            form == DiscoveryForm::kAggregatedV2Beta1 ? "apidiscovery.k8s.io/v2beta1" : "apidiscovery.k8s.io/v2");
  out.key("metadata").begin_object().end_object();
  out.key("items").begin_array().begin_object();
  out.key("metadata").begin_object().field("name", kVisibilityGroup).end_object();
  out.key("versions").begin_array().begin_object().field("version", kVisibilityVersion);
  out.key("resources").begin_array();
  discovery_resource(out, "elasticquotas", "elasticquota", "ElasticQuota");
  discovery_resource(out, "queues", "queue", "Queue");
  out.end_array().field("freshness", "Current").end_object().end_array();
  out.end_object().end_array().end_object();
  return out.take();
}

std::string api_resource_list() {
  JsonOut out;
  out.begin_object().field("kind", "APIResourceList").field("apiVersion", "v1");
  out.field("groupVersion", kVisibilityGroupVersion).key("resources").begin_array();
  api_resource(out, "elasticquotas", "elasticquota", "ElasticQuota", true);
  api_resource(out, "elasticquotas/queueunits", "", "QueueUnitsSummary", false);
  api_resource(out, "queues", "queue", "Queue", true);
  api_resource(out, "queues/queueunits", "", "QueueUnitsSummary", false);
  out.end_array().end_object();
  return out.take();
}

std::string openapi_v2() {
  // A minimal valid Swagger 2.0 document: the group's paths and its kinds as open objects, with
  // the group-version-kind extension the aggregator and kubectl look for.
  JsonOut out;
  out.begin_object().field("swagger", "2.0");
  out.key("info")
      .begin_object()
      .field("title", "koordq visibility API")
      .field("version", kVisibilityVersion)
      .end_object();
  const std::string prefix = "/apis/" + std::string(kVisibilityGroupVersion);
  const std::pair<std::string_view, std::string_view> paths[] = {
      {"/queues", "QueueList"},
      {"/queues/{name}", "Queue"},
      {"/queues/{name}/queueunits", "QueueUnitsSummary"},
      {"/namespaces/{namespace}/queues/{name}/queueunits", "QueueUnitsSummary"},
      {"/elasticquotas", "ElasticQuotaList"},
      {"/elasticquotas/{name}", "ElasticQuota"},
      {"/elasticquotas/{name}/queueunits", "QueueUnitsSummary"}};
  out.key("paths").begin_object();
  for (const auto& [path, kind] : paths) {
    out.key(prefix + std::string(path)).begin_object().key("get").begin_object();
    const bool namespaced = path.starts_with("/namespaces/");
    out.field("operationId", std::string(namespaced ? "getNamespaced" : "get") + std::string(kind) +
                                 (path.find("{name}") != std::string_view::npos ? "ByName" : ""));
    out.key("produces").begin_array().string("application/json").end_array();
    if (path.find("{name}") != std::string_view::npos) {
      out.key("parameters").begin_array();
      for (std::string_view parameter : {"namespace", "name"}) {
        if (parameter == "namespace" && !namespaced) continue;
        out.begin_object().field("name", parameter).field("in", "path").field("required", true);
        out.field("type", "string").end_object();
      }
      out.end_array();
    }
    out.key("responses").begin_object().key("200").begin_object().field("description", "OK");
    out.key("schema").begin_object().field("$ref",
                                           "#/definitions/" + std::string(kDefinitionPrefix) + std::string(kind));
    out.end_object().end_object().end_object();
    out.end_object().end_object();
  }
  out.end_object();
  out.key("definitions").begin_object();
  for (std::string_view kind : {"Queue", "QueueList", "ElasticQuota", "ElasticQuotaList", "QueueUnitsSummary"}) {
    out.key(std::string(kDefinitionPrefix) + std::string(kind)).begin_object();
    out.field("type", "object").field("description", std::string(kind) + " of the koordq visibility API");
    out.key("x-kubernetes-group-version-kind").begin_array().begin_object();
    out.field("group", kVisibilityGroup).field("version", kVisibilityVersion).field("kind", kind);
    out.end_object().end_array().end_object();
  }
  out.end_object().end_object();
  return out.take();
}

}  // namespace koordq::api
