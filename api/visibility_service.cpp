#include "api/visibility_service.hpp"

#include <variant>

#include <fmt/ranges.h>

#include "api/kube_status.hpp"
#include "api/query_params.hpp"
#include "api/read_params.hpp"
#include "api/visibility_auth.hpp"
#include "api/visibility_discovery.hpp"
#include "api/visibility_render.hpp"
#include "base/log.hpp"

namespace koordq::api {
namespace {

namespace http = boost::beast::http;

const std::string kGroupPath = "/apis/" + std::string(kVisibilityGroup);
const std::string kVersionPath = "/apis/" + std::string(kVisibilityGroupVersion);

HttpResponse json_response(std::string body, std::string_view content_type = "application/json") {
  HttpResponse response(http::status::ok, 11);
  response.set(http::field::content_type, boost::beast::string_view(content_type.data(), content_type.size()));
  response.body() = std::move(body);
  return response;
}

ApiError not_found_path() {
  return {404, "NotFound", "the server could not find the requested resource"};
}

// The cache key of a state answer: the path without a trailing slash and the parsed parameters
// that shape the answer, in one spelling each. Parameters the endpoint ignores (unknown ones,
// paging on a single object, filters on a list of queues) and the point in time, which the
// revision replaces, are not part of it.
std::string cache_key(const std::string& path, const PageParams* page, const UnitFilter* filter) {
  std::string key = path;
  if (page != nullptr) key += "?offset=" + std::to_string(page->offset) + "&limit=" + std::to_string(page->limit);
  if (filter != nullptr) {
    if (filter->phases) {
      key += "&phase=";
      for (actors::Phase phase : *filter->phases) key += std::to_string(static_cast<int>(phase)) + ',';
    }
    if (filter->queue) key += "&queue=" + std::to_string(filter->queue->size()) + ':' + *filter->queue;
  }
  return key;
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    const size_t slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path = path.substr(slash);
  }
  return parts;
}

std::string header_value(const HttpRequest& request, const std::string& name) {
  const auto it = request.find(name);
  return it == request.end() ? std::string() : std::string(it->value());
}

}  // namespace

HttpResponse VisibilityService::limit_exceeded(ServerLimit limit) {
  return status_response(limit_error(limit));
}

std::optional<ApiError> VisibilityService::authenticate(const HttpRequest& request, const PeerIdentity& peer,
                                                        AuthenticatedUser& user) {
  const ApiError unauthorized{401, "Unauthorized", "Unauthorized"};
  std::shared_ptr<const ClientAuthConfig> auth = context_.tls ? context_.tls->client_auth() : nullptr;
  if (!auth || auth->ca_pem.empty()) {
    if (!missing_ca_logged_.exchange(true)) {
      KQ_LOG_ERROR(
          "visibility API: no request-header client CA is available, every request is refused; set "
          "--visibility-client-ca-file or let koordq read kube-system/extension-apiserver-authentication");
    }
    return unauthorized;
  }
  std::optional<AuthenticatedUser> accepted = authenticate_front_proxy(*auth, request, peer);
  if (!accepted) return unauthorized;
  user = std::move(*accepted);
  return std::nullopt;
}

// §16.8: 403 with the reason of the review, or 500 when no review could be made.
std::optional<HttpResponse> VisibilityService::refuse_unauthorized(const AuthenticatedUser& user,
                                                                   const std::string& path) {
  if (!context_.authorizer) return std::nullopt;
  const RequestAttributes attributes = request_attributes_of(path);
  auto decision = context_.authorizer->authorize(user, attributes);
  if (!decision.ok()) {
    KQ_LOG_WARNING("visibility API: cannot authorize {} to {} {}: {}", user.name, attributes.verb, path,
                   decision.message());
    return status_response({500, "InternalError",
                            "the request could not be authorized: " + decision.message() +
                                "; koordq must reach the API server and may need the right to create "
                                "subjectaccessreviews.authorization.k8s.io (ClusterRole koordq)"});
  }
  if (decision->allowed) return std::nullopt;
  std::string message = forbidden_message(user.name, attributes);
  if (!decision->reason.empty()) message += ": " + decision->reason;
  KQ_V(4)("visibility request from {} forbidden: {}", user.name, message);
  if (!attributes.resource_request) return status_response({403, "Forbidden", "forbidden: " + message});
  // errors.NewForbidden's wording: `<resource>.<group> ["<name>"] is forbidden: <message>`.
  std::string subject = attributes.resource + "." + attributes.group;
  if (!attributes.name.empty()) subject += " \"" + attributes.name + "\"";
  return status_response({403, "Forbidden", subject + " is forbidden: " + message},
                         StatusDetails{attributes.name, attributes.group, attributes.resource});
}

HttpResponse VisibilityService::handle(const HttpRequest& request, const PeerIdentity& peer) {
  const std::string target(request.target());
  const RequestTarget parsed = parse_target(target);
  if (parsed.path == "/healthz") {
    HttpResponse response(http::status::ok, 11);
    response.set(http::field::content_type, "text/plain; charset=utf-8");
    response.body() = "ok";
    return response;
  }
  if (request.method() != http::verb::get) {
    return status_response(
        {405, "MethodNotAllowed", "method " + std::string(request.method_string()) + " is not allowed"});
  }
  if (!parsed.path.starts_with("/apis") && !parsed.path.starts_with("/openapi")) {
    return status_response(not_found_path());
  }
  AuthenticatedUser user;
  if (auto refused = authenticate(request, peer, user)) return status_response(*refused);
  KQ_V(4)("visibility request from {} (groups [{}]): GET {}", user.name, fmt::join(user.groups, ", "), target);
  if (auto refused = refuse_unauthorized(user, parsed.path)) return std::move(*refused);
  HttpResponse response = route(request, target);
  response.set("X-Koordq-Journal", context_.journal_uuid);
  KQ_V(4)("visibility response {} for GET {}: {}", response.result_int(), target, response.body());
  return response;
}

HttpResponse VisibilityService::route(const HttpRequest& request, const std::string& raw_target) {
  const RequestTarget target = parse_target(raw_target);
  std::string path = target.path;
  if (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path == "/apis") {
    const DiscoveryForm form = choose_discovery_form(header_value(request, "Accept"));
    HttpResponse response =
        json_response(form == DiscoveryForm::kLegacy ? api_group_list() : api_group_discovery_list(form),
                      discovery_content_type(form));
    response.set(http::field::vary, "Accept");
    return response;
  }
  if (path == kGroupPath) return json_response(api_group());
  if (path == kVersionPath) return json_response(api_resource_list());
  if (path == "/openapi/v2") return json_response(openapi_v2());
  if (!path.starts_with(kVersionPath + "/")) return status_response(not_found_path());

  std::vector<std::string_view> parts = split_path(std::string_view(path).substr(kVersionPath.size()));
  // §16.7: namespaces/<ns>/queues/<name>/queueunits, the queue's units of that namespace only.
  std::optional<std::string> unit_namespace;
  if (!parts.empty() && parts[0] == "namespaces") {
    if (parts.size() != 5 || parts[2] != "queues") return status_response(not_found_path());
    unit_namespace = std::string(parts[1]);
    parts.erase(parts.begin(), parts.begin() + 2);
  }
  if (parts.empty() || parts.size() > 3 || (parts[0] != "queues" && parts[0] != "elasticquotas") ||
      (parts.size() == 3 && parts[2] != "queueunits")) {
    return status_response(not_found_path());
  }
  const bool queues = parts[0] == "queues";
  const std::string name = parts.size() > 1 ? std::string(parts[1]) : std::string();
  const bool units = parts.size() == 3;

  PageParams page;
  UnitFilter filter;
  if (parts.size() != 2) {
    if (auto error = parse_page(target, page)) return status_response(*error);
  }
  if (units) {
    if (auto error = parse_unit_filter(target, filter)) return status_response(*error);
    filter.namespace_ = unit_namespace;
  }
  PointInTime at;
  if (auto error = parse_point_in_time(target, context_.now(), at)) {
    context_.time_travel->count_invalid();
    return status_response(*error);
  }

  const std::optional<StatusDetails> not_found_details =
      queues ? StatusDetails{name, "scheduling.x-k8s.io", "queue"}
             : StatusDetails{name, "scheduling.sigs.k8s.io", "elasticquota"};
  const ApiError not_found{404, "NotFound",
                           queues ? "queue.scheduling.x-k8s.io \"" + name + "\" not found"
                                  : "elasticquota.scheduling.sigs.k8s.io \"" + name + "\" not found"};
  const std::string key = cache_key(path, parts.size() != 2 ? &page : nullptr, units ? &filter : nullptr);
  if (!at.time_travel() && context_.live_revision) {
    if (const std::optional<uint64_t> live = context_.live_revision()) {
      if (auto cached = cache_.find(*live, key)) return json_response(*cached);
    }
  }
  std::shared_ptr<const std::string> body;
  bool missing = false;
  auto error = context_.time_travel->read_pages(at, [&](const actors::pages::ReadPages& p) {
    if ((body = cache_.find(p.revision, key))) return;
    std::optional<std::string> rendered;
    if (parts.size() == 1) {
      rendered = queues ? render_queue_list(p, page) : render_quota_list(p, page);
    } else if (!units) {
      rendered = queues ? render_queue(p, name) : render_quota(p, name);
    } else {
      rendered = queues ? render_queue_units(p, name, filter, page) : render_quota_units(p, name, filter, page);
    }
    if (!rendered) {
      missing = true;
      return;
    }
    body = std::make_shared<const std::string>(std::move(*rendered));
    cache_.store(p.revision, key, body);
  });
  if (error) return status_response(*error);
  if (missing || !body) return status_response(not_found, not_found_details);
  return json_response(*body);
}

}  // namespace koordq::api
