#include "console/console_service.hpp"

#include "api/debug_service.hpp"
#include "api/query_params.hpp"
#include "console/console_api.hpp"
#include "console/console_assets.hpp"

namespace koordq::console {
namespace {

namespace http = boost::beast::http;

api::HttpResponse plain_error(http::status status, std::string_view message) {
  api::HttpResponse response(status, 11);
  response.set(http::field::content_type, "application/json");
  response.body() = api::render_error(message);
  response.prepare_payload();
  return response;
}

}  // namespace

std::optional<api::HttpResponse> ConsoleService::console_response(const api::HttpRequest& request) {
  const std::string raw(request.target());
  const api::RequestTarget target = api::parse_target(raw);
  if (target.path == "/console") {
    api::HttpResponse response(http::status::moved_permanently, 11);
    response.set(http::field::location, "/console/");
    response.prepare_payload();
    return response;
  }
  if (!target.path.starts_with("/console/")) return std::nullopt;
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    return plain_error(http::status::method_not_allowed, "the console answers GET only");
  }
  if (auto answer = answer_console_api(context_, target)) return answer;
  const auto asset = find_asset(target.path);
  if (!asset) return plain_error(http::status::not_found, "no console page " + target.path + "; open /console/");
  api::HttpResponse response(http::status::ok, 11);
  response.set(http::field::content_type, std::string(asset->content_type));
  response.set(http::field::cache_control, "no-cache");
  // The page talks to its own origin only: no script, style or request goes elsewhere.
  response.set("Content-Security-Policy",
               "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
               "connect-src 'self'; frame-ancestors 'none'");
  response.set("X-Content-Type-Options", "nosniff");
  response.body() = std::string(asset->body);
  response.prepare_payload();
  return response;
}

api::HttpResponse ConsoleService::handle(const api::HttpRequest& request, const api::PeerIdentity& peer) {
  if (auto response = console_response(request)) return std::move(*response);
  if (next_) return next_->handle(request, peer);
  return plain_error(http::status::not_found, "not found; the console is at /console/");
}

api::HttpAnswer ConsoleService::answer(const api::HttpRequest& request, const api::PeerIdentity& peer) {
  if (auto response = console_response(request)) return {std::move(*response), nullptr};
  if (next_) return next_->answer(request, peer);
  return {plain_error(http::status::not_found, "not found; the console is at /console/"), nullptr};
}

api::HttpResponse ConsoleService::limit_exceeded(api::ServerLimit limit) {
  if (next_) return next_->limit_exceeded(limit);
  return plain_error(
      limit == api::ServerLimit::kHeaderTimeout ? http::status::request_timeout : http::status::bad_request,
      "request refused by the server's limits");
}

}  // namespace koordq::console
