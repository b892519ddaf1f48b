// The debug API (behaviour.md §17): /apis/v1/elasticquota, /apis/v1/queue and /apis/v1/userquota
// as projections of the state at a revision (§18), on the leader once its initial sync is complete.
// Not a Kubernetes API: every error is {"error": "<message>"}.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "api/http_server.hpp"
#include "api/journal_stream.hpp"
#include "api/query_params.hpp"
#include "api/response_cache.hpp"
#include "api/time_travel.hpp"
#include "base/result.hpp"

namespace koordq::api {

struct DebugContext {
  TimeTravel* time_travel = nullptr;
  std::function<int64_t()> now;  // wall clock, or the simulator's virtual time
  std::string journal_uuid;
  // Why the /apis/v1 endpoints cannot answer now ("not the leader", "initial sync not complete").
  std::function<std::optional<std::string>()> unavailable;
  // The journal stream of §17.5, served by every replica; no reader: 404.
  JournalStreamSource stream;
  // §24.4: `POST /apis/journal/v1/checkpoint?dir=<absolute path>` from loopback, with the header
  // kCheckpointHeader: 1, writes a RocksDB checkpoint of the journal this process owns (only under
  // --journal-checkpoint-root: the function refuses any other place); the seq it holds, or an
  // error for the client.
  std::function<Result<uint64_t>(const std::string& dir)> checkpoint;
};

// A header no browser sends across sites without a preflight the debug API never answers, so a
// web page cannot make a loopback koordq write a checkpoint.
inline constexpr char kCheckpointHeader[] = "X-Koordq-Checkpoint";

std::string render_error(std::string_view message);

class DebugService : public HttpService {
 public:
  explicit DebugService(DebugContext context) : context_(std::move(context)) {}

  HttpResponse handle(const HttpRequest& request, const PeerIdentity& peer) override;
  HttpResponse limit_exceeded(ServerLimit limit) override;
  HttpAnswer answer(const HttpRequest& request, const PeerIdentity& peer) override;

 private:
  HttpResponse checkpoint(const HttpRequest& request, const RequestTarget& target, const PeerIdentity& peer);

  DebugContext context_;
  ResponseCache cache_;
};

}  // namespace koordq::api
