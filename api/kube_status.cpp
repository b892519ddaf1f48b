#include "api/kube_status.hpp"

#include "api/json_out.hpp"

namespace koordq::api {

std::string render_status(const ApiError& error, const std::optional<StatusDetails>& details) {
  JsonOut out;
  out.begin_object().field("kind", "Status").field("apiVersion", "v1");
  out.key("metadata").begin_object().end_object();
  out.field("status", "Failure").field("message", error.message).field("reason", error.reason);
  if (details) {
    out.key("details").begin_object();
    if (!details->name.empty()) out.field("name", details->name);
    if (!details->group.empty()) out.field("group", details->group);
    if (!details->kind.empty()) out.field("kind", details->kind);
    out.end_object();
  } else if (error.retry_after) {
    out.key("details").begin_object().field("retryAfterSeconds", int64_t{1}).end_object();
  }
  out.field("code", static_cast<int64_t>(error.code)).end_object();
  return out.take();
}

HttpResponse status_response(const ApiError& error, const std::optional<StatusDetails>& details) {
  HttpResponse response(static_cast<boost::beast::http::status>(error.code), 11);
  response.set(boost::beast::http::field::content_type, "application/json");
  if (error.retry_after) response.set(boost::beast::http::field::retry_after, "1");
  response.body() = render_status(error, details);
  return response;
}

ApiError limit_error(ServerLimit limit) {
  switch (limit) {
    case ServerLimit::kHeaderTimeout:
      return {408, "Timeout", "request header not received within 10s"};
    case ServerLimit::kHeaderTooLarge:
      return {431, "BadRequest", "request header larger than 16384 bytes"};
    case ServerLimit::kQueryTooLong:
      return {414, "BadRequest", "query string longer than 10000 bytes"};
    case ServerLimit::kBodyTooLarge:
      return {413, "BadRequest", "request body too large"};
    case ServerLimit::kMalformed:
      break;
  }
  return {400, "BadRequest", "malformed HTTP request"};
}

}  // namespace koordq::api
