#include "kube/client/object_watch.hpp"

#include <algorithm>
#include <optional>
#include <random>

#include <simdjson.h>

#include "kube/client/watch_stream.hpp"
#include "kube/client/watched_resource.hpp"

namespace koordq::kube {
namespace {

// The start of an answer's body, on one line, for a message.
std::string start_of(std::string_view body) {
  std::string text(body.substr(0, 300));
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// metadata.resourceVersion of an object; std::nullopt when it has none.
std::optional<std::string> resource_version_of(simdjson::dom::element object) {
  std::string_view version;
  if (object["metadata"]["resourceVersion"].get(version) != simdjson::SUCCESS || version.empty()) return std::nullopt;
  return std::string(version);
}

// How one WATCH request ended: the server closed it (resume), its resourceVersion is too old (GET
// again at once), the object went or the stream cannot go on (GET again after a backoff), it
// failed (resume after a backoff), or the watch is stopping.
enum class OneWatchEnd { kServerClosed, kExpired, kRelist, kFailed, kStopped };

}  // namespace

struct ObjectWatch::Impl {
  ObjectWatch& owner;
  simdjson::dom::parser parser;
  std::mt19937_64 random{std::random_device{}()};
  std::uniform_real_distribution<double> jitter{0.0, 1.0};
  int failures = 0;
  int expired_in_row = 0;

  explicit Impl(ObjectWatch& w) : owner(w) {}

  bool stopped() const { return owner.cancellation_.cancelled(); }
  void problem(const std::string& message) const {
    if (owner.options_.on_problem) owner.options_.on_problem(message);
  }
  std::string describe() const { return owner.options_.collection + "/" + owner.options_.name; }

  void deliver(simdjson::dom::element object, const std::string& version) {
    if (version == owner.resource_version_) return;
    owner.resource_version_ = version;
    owner.options_.on_object(simdjson::minify(object));
  }

  void back_off() {
    ++failures;
    const auto& o = owner.options_;
    owner.cancellation_.wait_for(backoff_delay(failures, o.backoff_base, o.backoff_max, jitter(random)));
  }

  // The object now; its resourceVersion, or an error.
  Result<std::string> get() {
    owner.gets_.fetch_add(1);
    Request request;
    request.target = owner.options_.collection + "/" + owner.options_.name;
    Result<Response> response = owner.client_.send(request, &owner.cancellation_);
    if (!response.ok()) return make_error("GET " + describe() + ": " + response.message());
    if (response->status == 404) return make_error("GET " + describe() + ": not found");
    if (!response->ok()) {
      return make_error("GET " + describe() + ": HTTP " + std::to_string(response->status) + ": " +
                        start_of(response->body));
    }
    simdjson::dom::element object;
    if (auto err = parser.parse(response->body).get(object); err) {
      return make_error("GET " + describe() + ": not JSON: " + simdjson::error_message(err));
    }
    const auto version = resource_version_of(object);
    if (!version) return make_error("GET " + describe() + ": the object has no metadata.resourceVersion");
    deliver(object, *version);
    return *version;
  }

  // Applies one watch event; an error ends the stream (`end` says how).
  Status on_line(std::string_view line, std::string& version, OneWatchEnd& end) {
    simdjson::dom::element event;
    if (auto err = parser.parse(line).get(event); err) {
      end = OneWatchEnd::kRelist;
      return make_error(std::string("a watch event is not JSON: ") + simdjson::error_message(err));
    }
    std::string_view type;
    simdjson::dom::element object;
    if (event["type"].get(type) != simdjson::SUCCESS || event["object"].get(object) != simdjson::SUCCESS) {
      end = OneWatchEnd::kRelist;
      return make_error("a watch event without type or object");
    }
    if (type == "ERROR") {
      int64_t code = 0;
      if (object["code"].get(code) != simdjson::SUCCESS) code = 0;
      if (code == 410) {
        end = OneWatchEnd::kExpired;
        return make_error("expired");
      }
      end = OneWatchEnd::kRelist;
      std::string_view message;
      if (object["message"].get(message) != simdjson::SUCCESS) message = "";
      return make_error("ERROR event: code " + std::to_string(code) + ": " + std::string(message));
    }
    const auto object_version = resource_version_of(object);
    if (object_version) version = *object_version;
    if (type == "BOOKMARK") return ok_status();
    if (type == "DELETED") {
      end = OneWatchEnd::kRelist;
      return make_error("deleted; the last version read stays in use");
    }
    if (object_version) deliver(object, *object_version);
    return ok_status();
  }

  OneWatchEnd watch(std::string& version) {
    const ObjectWatchOptions& o = owner.options_;
    owner.watches_.fetch_add(1);
    Request request;
    request.target = o.collection + "?fieldSelector=" + query_escape("metadata.name=" + o.name) +
                     "&watch=true&allowWatchBookmarks=true&timeoutSeconds=" + std::to_string(o.watch_timeout.count()) +
                     "&resourceVersion=" + query_escape(version);
    WatchStreamParser lines(size_t{4} << 20);
    OneWatchEnd end = OneWatchEnd::kServerClosed;
    const auto started = std::chrono::steady_clock::now();
    const auto idle = std::chrono::duration_cast<std::chrono::milliseconds>(o.watch_timeout) + std::chrono::seconds(30);
    Result<StreamOutcome> outcome = owner.client_.stream(
        request,
        [&](std::string_view piece) {
          return lines.feed(piece, [&](std::string_view line) { return on_line(line, version, end); });
        },
        idle, &owner.cancellation_);
    if (stopped()) return OneWatchEnd::kStopped;
    if (end == OneWatchEnd::kExpired) return end;
    if (!outcome.ok()) {
      problem("WATCH " + describe() + ": " + outcome.message());
      return end == OneWatchEnd::kRelist ? end : OneWatchEnd::kFailed;
    }
    if (outcome->status == 410) return OneWatchEnd::kExpired;
    if (outcome->status < 200 || outcome->status >= 300) {
      problem("WATCH " + describe() + ": HTTP " + std::to_string(outcome->status) + ": " +
              start_of(outcome->error_body));
      return OneWatchEnd::kFailed;
    }
    // A stream the server ends at once, again and again, must not spin.
    if (std::chrono::steady_clock::now() - started < std::chrono::seconds(1)) return OneWatchEnd::kFailed;
    return OneWatchEnd::kServerClosed;
  }

  void run(std::optional<std::string> version) {
    while (!stopped()) {
      if (!version) {
        Result<std::string> got = get();
        if (stopped()) return;
        if (!got.ok()) {
          problem(got.message());
          back_off();
          continue;
        }
        version = std::move(got).value();
      }
      const std::string resumed_from = *version;
      const OneWatchEnd end = watch(*version);
      if (end != OneWatchEnd::kExpired) expired_in_row = 0;
      switch (end) {
        case OneWatchEnd::kStopped:
          return;
        case OneWatchEnd::kServerClosed:
          failures = 0;
          break;
        case OneWatchEnd::kExpired:
          // Now and then expected; twice in a row is not, and waits like a failure.
          if (++expired_in_row > 1) back_off();
          version.reset();
          continue;
        case OneWatchEnd::kRelist:
          version.reset();
          back_off();
          break;
        case OneWatchEnd::kFailed:
          if (*version != resumed_from) failures = 0;
          back_off();
          break;
      }
    }
  }
};

ObjectWatch::ObjectWatch(HttpClient& client, ObjectWatchOptions options)
    : client_(client), options_(std::move(options)) {}

ObjectWatch::~ObjectWatch() {
  stop();
}

Status ObjectWatch::start() {
  if (thread_.joinable()) return ok_status();
  Impl first(*this);
  Result<std::string> got = first.get();
  std::optional<std::string> version;
  if (got.ok()) version = std::move(got).value();
  thread_ = std::thread([this, version] {
    Impl impl(*this);
    // After a failed first GET the thread's first attempt waits a backoff.
    if (!version) impl.back_off();
    impl.run(version);
  });
  if (!got.ok()) return got.error();
  return ok_status();
}

void ObjectWatch::stop() {
  cancellation_.cancel();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

}  // namespace koordq::kube
