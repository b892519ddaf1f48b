#include "journal/import_records.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include <simdjson.h>

#include "base/rfc3339.hpp"
#include "journal/watch_record.hpp"
#include "schema/json_decode.hpp"

namespace koordq::journal {
namespace {

bool is_watched_kind(std::string_view kind) {
  return kind == "QueueUnit" || kind == "Queue" || kind == "ElasticQuota";
}

// Counts acknowledgements so the import can wait for every append before it reports.
class AckTracker {
 public:
  AckCallback track() {
    {
      std::lock_guard lock(mu_);
      ++outstanding_;
    }
    return [this](const Result<AppendedRecord>& r) {
      std::lock_guard lock(mu_);
      --outstanding_;
      if (r.ok()) {
        first_ = first_ == 0 ? r->seq : std::min(first_, r->seq);
        last_ = std::max(last_, r->seq);
        ++acked_;
      } else if (!failure_) {
        failure_ = r.error();
      }
      cv_.notify_all();
    };
  }
  void wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return outstanding_ == 0; });
  }
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t outstanding_ = 0, acked_ = 0, first_ = 0, last_ = 0;
  std::optional<Error> failure_;
};

}  // namespace

std::optional<std::string> read_import_events(std::string_view input, schema::RawObjectMode raw_mode,
                                              const std::function<void(const std::string&)>& warn,
                                              const std::function<void(std::unique_ptr<CapnpRecordBody>)>& on_body,
                                              uint64_t& skipped) {
  thread_local schema::JsonDecoder decoder;   // its parser's buffers too
  thread_local simdjson::dom::parser parser;  // keeps its buffers from one import to the next
  const simdjson::padded_string padded(input);
  // One batch holds the whole input (parse_many needs every document inside a batch); small inputs
  // do not pay for a large one.
  const size_t batch = std::max<size_t>(input.size() + 64, 64 << 10);
  simdjson::dom::document_stream stream;
  auto stop = [](size_t offset, const std::string& what) {
    return std::optional<std::string>("byte offset " + std::to_string(offset) + ": " + what);
  };
  if (auto err = parser.parse_many(padded, batch).get(stream); err) {
    return stop(0, std::string("not JSON: ") + simdjson::error_message(err));
  }
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    const size_t offset = it.current_index();
    simdjson::dom::element value;
    if (auto err = (*it).get(value); err)
      return stop(offset, std::string("not a JSON value: ") + simdjson::error_message(err));
    simdjson::dom::object event;
    simdjson::dom::element object;
    std::string_view type;
    if (value.get(event) != simdjson::SUCCESS) return stop(offset, "expected an object {\"type\": …, \"object\": {…}}");
    if (event["type"].get(type) != simdjson::SUCCESS) return stop(offset, "missing string member \"type\"");
    if (event["object"].get(object) != simdjson::SUCCESS || !object.is_object()) {
      return stop(offset, "missing object member \"object\"");
    }
    std::string_view kind;
    if (object["kind"].get(kind) == simdjson::SUCCESS && !is_watched_kind(kind)) {
      ++skipped;
      if (warn) warn("byte offset " + std::to_string(offset) + ": skipped an object of kind " + std::string(kind));
      continue;
    }
    std::optional<int64_t> time;
    std::string_view time_text;
    if (event["time"].get(time_text) == simdjson::SUCCESS) {
      auto t = base::parse_rfc3339(time_text);
      if (!t.ok()) return stop(offset, "member \"time\": " + t.message());
      time = *t;
    }
    auto decoded = decoder.decode_watch_event(it.source(), raw_mode);
    if (!decoded.ok()) return stop(offset, decoded.message());
    if (decoded->type == schema::WatchEventType::kError) {
      ++skipped;
      if (warn) warn("byte offset " + std::to_string(offset) + ": skipped an ERROR event");
      continue;
    }
    for (const auto& w : decoded->warnings) {
      if (warn) warn("byte offset " + std::to_string(offset) + ": " + w);
    }
    auto body = make_watch_body(*decoded, raw_mode);
    if (time) body->set_explicit_time(*time);
    on_body(std::move(body));
  }
  return std::nullopt;
}

Result<ImportReport> import_records(Journal& journal, std::string_view input, schema::RawObjectMode raw_mode,
                                    const std::function<void(const std::string&)>& warn) {
  ImportReport report;
  AckTracker acks;
  report.input_error = read_import_events(
      input, raw_mode, warn,
      [&](std::unique_ptr<CapnpRecordBody> body) { journal.writer().append(std::move(body), acks.track()); },
      report.skipped);
  acks.wait();
  if (acks.failure_) return *acks.failure_;
  report.imported = acks.acked_;
  report.first_seq = acks.first_;
  report.last_seq = acks.last_;
  return report;
}

}  // namespace koordq::journal
