#include "api/debug_service.hpp"

#include "api/debug_render.hpp"
#include "api/json_out.hpp"
#include "api/kube_status.hpp"
#include "api/query_params.hpp"
#include "api/read_params.hpp"
#include "base/log.hpp"

namespace koordq::api {
namespace {

namespace http = boost::beast::http;

HttpResponse error_response(int code, std::string_view message, bool retry_after = false) {
  HttpResponse response(static_cast<http::status>(code), 11);
  response.set(http::field::content_type, "application/json");
  if (retry_after) response.set(http::field::retry_after, "1");
  response.body() = render_error(message);
  return response;
}

HttpResponse error_response(const ApiError& error) {
  return error_response(error.code, error.message, error.retry_after);
}

}  // namespace

std::string render_error(std::string_view message) {
  JsonOut out;
  out.begin_object().field("error", message).end_object();
  return out.take();
}

HttpAnswer DebugService::answer(const HttpRequest& request, const PeerIdentity& peer) {
  const RequestTarget target = parse_target(std::string(request.target()));
  if (target.path != "/apis/journal/v1/records" || request.method() != http::verb::get ||
      context_.stream.reader == nullptr) {
    return {handle(request, peer), nullptr};
  }
  const uint64_t first = context_.stream.reader->first_seq();
  const uint64_t last = context_.stream.durable_seq();
  StreamRequest stream;
  if (auto error = parse_stream_request(target, first, last, stream)) return {error_response(*error), nullptr};
  stream.filter.queue_namespace = context_.stream.queue_namespace;
  HttpResponse head(http::status::ok, 11);
  head.set(http::field::content_type, "application/x-ndjson");
  head.set("X-Koordq-Journal", context_.journal_uuid);
  KQ_V(4)("journal stream from seq {} (follow {})", stream.from, stream.follow);
  return {std::move(head),
          [source = context_.stream, stream](StreamWriter& out) { write_journal_stream(source, stream, out); }};
}

HttpResponse DebugService::limit_exceeded(ServerLimit limit) {
  return error_response(limit_error(limit));
}

// §24.4: the checkpoint `koordq journal checkpoint` asks the running serve for, since RocksDB
// cannot checkpoint from a second process. Loopback only, whatever the listener's address.
HttpResponse DebugService::checkpoint(const HttpRequest& request, const RequestTarget& target,
                                      const PeerIdentity& peer) {
  if (!peer.loopback) return error_response(403, "checkpoints are served to loopback clients only");
  if (!context_.checkpoint) return error_response(404, "not found");
  if (request[kCheckpointHeader] != "1") {
    return error_response(403, std::string("a checkpoint request needs the header ") + kCheckpointHeader +
                                   ": 1 (koordq journal checkpoint sends it)");
  }
  const auto dir = target.params.find("dir");
  if (dir == target.params.end() || dir->second.empty() || dir->second.front() != '/') {
    return error_response(400, "dir must be an absolute path that does not exist yet");
  }
  auto seq = context_.checkpoint(dir->second);
  if (!seq.ok()) return error_response(409, seq.message());
  JsonOut out;
  out.begin_object().field("seq", static_cast<int64_t>(*seq)).field("dir", dir->second).end_object();
  HttpResponse response(http::status::ok, 11);
  response.set(http::field::content_type, "application/json");
  response.body() = out.take();
  response.prepare_payload();
  return response;
}

HttpResponse DebugService::handle(const HttpRequest& request, const PeerIdentity& peer) {
  const std::string raw(request.target());
  const RequestTarget target = parse_target(raw);
  if (target.path == "/apis/journal/v1/checkpoint") {
    if (request.method() != http::verb::post) return error_response(405, "method not allowed");
    return checkpoint(request, target, peer);
  }
  if (request.method() != http::verb::get) return error_response(405, "method not allowed");
  std::string (*render)(const actors::pages::ReadPages&) = nullptr;
  if (target.path == "/apis/v1/elasticquota") {
    render = render_debug_quotas;
  } else if (target.path == "/apis/v1/queue") {
    render = render_debug_queues;
  } else if (target.path == "/apis/v1/userquota") {
    render = render_debug_user_quotas;
  } else {
    return error_response(404, "not found");
  }
  if (context_.unavailable) {
    if (auto reason = context_.unavailable()) return error_response(503, *reason);
  }
  PointInTime at;
  if (auto error = parse_point_in_time(target, context_.now(), at)) {
    context_.time_travel->count_invalid();
    return error_response(*error);
  }
  std::shared_ptr<const std::string> body;
  uint64_t answered_revision = 0;
  auto error = context_.time_travel->read_pages(at, [&](const actors::pages::ReadPages& p) {
    answered_revision = p.revision;
    if ((body = cache_.find(p.revision, target.path))) return;
    body = std::make_shared<const std::string>(render(p));
    cache_.store(p.revision, target.path, body);
  });
  if (error) return error_response(*error);
  HttpResponse response(http::status::ok, 11);
  response.set(http::field::content_type, "application/json");
  response.set("X-Koordq-Revision", std::to_string(answered_revision));
  response.set("X-Koordq-Journal", context_.journal_uuid);
  response.body() = *body;
  KQ_V(4)("debug response 200 for GET {} at revision {}", raw, answered_revision);
  return response;
}

}  // namespace koordq::api
