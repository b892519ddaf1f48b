// The journal stream (behaviour.md §17.5): GET /apis/journal/v1/records on the debug listener of
// every replica. Durable records in seq order, each line byte-identical to `koordq journal export`,
// filtered by kind, namespace and queue without splitting a record; resumable by seq; a reader
// too far behind is told where to resume and disconnected.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "api/api_error.hpp"
#include "api/http_server.hpp"
#include "api/query_params.hpp"
#include "journal/journal_reader.hpp"
#include "journal/record_kind.hpp"

namespace koordq::api {

struct StreamFilter {
  std::optional<std::set<journal::RecordKind>> kinds;
  std::optional<std::string> namespace_;
  std::optional<std::string> queue;
  std::string queue_namespace = "koord-queue";  // where Queues live (--queue-namespace)
};

struct StreamRequest {
  uint64_t from = 0;  // exclusive
  bool follow = false;
  StreamFilter filter;
};

// Validates the parameters against the retained range [first, last] (0, 0 when empty).
std::optional<ApiError> parse_stream_request(const RequestTarget& target, uint64_t first, uint64_t last,
                                             StreamRequest& out);

// Whether a record passes the filter (kinds, and the objects it concerns).
bool stream_matches(const journal::StoredRecord& record, const StreamFilter& filter);

struct JournalStreamSource {
  journal::JournalReader* reader = nullptr;
  std::function<uint64_t()> durable_seq;  // the newest durable record
  std::function<bool(uint64_t seq, int64_t timeout_nanos)> wait_durable;
  uint64_t max_lag = 100'000;  // --stream-max-lag
  std::string queue_namespace = "koord-queue";
};

// Writes the stream of `request` to `out` until it ends, the reader falls too far behind, the
// connection goes or the server stops.
void write_journal_stream(const JournalStreamSource& source, const StreamRequest& request, StreamWriter& out);

}  // namespace koordq::api
