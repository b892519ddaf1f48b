#include "kube/client/resource_watcher.hpp"

#include <algorithm>
#include <optional>
#include <random>

#include "kube/client/event_dedupe.hpp"
#include "kube/client/watch_stream.hpp"
#include "schema/json_decode.hpp"

namespace koordq::kube {
namespace {

using Clock = std::chrono::steady_clock;

// How one WATCH request ended.
enum class WatchEnd { kServerClosed, kExpired, kFailed, kStopped };

std::string snippet(const std::string& body) {
  std::string text = body.substr(0, 300);
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

}  // namespace

std::chrono::milliseconds watch_stall_limit(std::chrono::seconds timeout, const WatcherOptions& options) {
  const std::chrono::milliseconds tenth = std::chrono::duration_cast<std::chrono::milliseconds>(timeout) / 10;
  return timeout +
         std::clamp(tenth, options.stall_grace_min, std::max(options.stall_grace_min, options.stall_grace_max));
}

struct ResourceWatcher::Impl {
  ResourceWatcher& owner;
  schema::JsonDecoder decoder;
  EventDeduper deduper;
  std::mt19937_64 random{std::random_device{}()};
  std::uniform_real_distribution<double> jitter{0.0, 1.0};
  int failures = 0;

  explicit Impl(ResourceWatcher& w) : owner(w), decoder(w.options_.limits) {}

  bool stopped() const { return owner.cancellation_.cancelled(); }
  void problem(const std::string& message) { owner.sink_.on_problem(owner.resource_, message); }

  // Sleeps the jittered exponential backoff of the `failures`-th failure in a row.
  void back_off() {
    ++failures;
    const auto& o = owner.options_;
    owner.cancellation_.wait_for(backoff_delay(failures, o.backoff_base, o.backoff_max, jitter(random)));
  }

  // Every page of a LIST; std::nullopt when stopped.
  std::optional<ListSnapshot> list() {
    const std::string path = owner.resource_.path();
    while (!stopped()) {
      ListSnapshot snapshot;
      // Pages are kept apart and joined at the end: growing one vector page by page would copy
      // every object again at each reallocation (a decoded object's move may throw, so the
      // vector copies).
      std::vector<std::vector<schema::DecodedObject>> pages;
      size_t listed = 0;
      std::string continue_token;
      bool restart = false;
      do {
        Request request;
        request.target = path + "?limit=" + std::to_string(owner.options_.page_size);
        if (!continue_token.empty()) request.target += "&continue=" + query_escape(continue_token);
        Result<Response> response = owner.client_.send(request, &owner.cancellation_);
        if (stopped()) return std::nullopt;
        if (!response.ok()) {
          problem("LIST " + owner.resource_.describe() + ": " + response.message());
          restart = true;
          break;
        }
        if (response->status == 410 && !continue_token.empty()) {
          // The continue token's resourceVersion was compacted away: list again from the start.
          owner.stats_.expired.fetch_add(1);
          problem("LIST " + owner.resource_.describe() + ": continue token expired (410); listing again");
          snapshot = {};
          pages.clear();
          listed = 0;
          continue_token.clear();
          continue;
        }
        if (!response->ok()) {
          problem("LIST " + owner.resource_.describe() + ": HTTP " + std::to_string(response->status) + ": " +
                  snippet(response->body));
          restart = true;
          break;
        }
        Result<schema::ListPage> page =
            decoder.decode_list(response->body, owner.resource_.kind, owner.options_.raw_mode);
        if (!page.ok()) {
          problem("LIST " + owner.resource_.describe() + ": " + page.message());
          restart = true;
          break;
        }
        for (schema::RejectedItem& rejected : page->rejected) {
          rejected.index += listed;
          snapshot.rejected.push_back(std::move(rejected));
        }
        listed += page->items.size() + page->rejected.size();
        pages.push_back(std::move(page->items));
        snapshot.resource_version = std::move(page->resource_version);
        continue_token = std::move(page->continue_token);
      } while (!continue_token.empty());
      if (!restart) {
        size_t total = 0;
        for (const auto& items : pages) total += items.size();
        snapshot.items.reserve(total);
        for (auto& items : pages) {
          for (schema::DecodedObject& item : items) snapshot.items.push_back(std::move(item));
        }
        pages.clear();
        if (snapshot.resource_version.empty()) {
          problem("LIST " + owner.resource_.describe() + ": the answer has no metadata.resourceVersion");
        } else {
          failures = 0;
          return snapshot;
        }
      }
      back_off();
    }
    return std::nullopt;
  }

  WatchEnd watch(std::string& resource_version) {
    const WatcherOptions& o = owner.options_;
    std::uniform_int_distribution<int64_t> timeout_spread(o.watch_timeout_min.count(),
                                                          std::max(o.watch_timeout_min, o.watch_timeout_max).count());
    const int64_t timeout = timeout_spread(random);
    Request request;
    request.target = owner.resource_.path() +
                     "?watch=true&allowWatchBookmarks=true&timeoutSeconds=" + std::to_string(timeout) +
                     "&resourceVersion=" + query_escape(resource_version);
    WatchEventReader reader(owner.resource_.kind, o.raw_mode, o.limits);
    bool expired = false;
    std::optional<std::string> stream_error;
    WatchEventReader::Handlers handlers;
    handlers.on_undecodable = [&](const Error& error) { problem(owner.resource_.describe() + ": " + error.message); };
    handlers.on_event = [&](schema::WatchEvent&& event) -> Status {
      switch (event.type) {
        case schema::WatchEventType::kError:
          if (is_expired(event)) {
            expired = true;
            return make_error("expired");
          }
          stream_error = "ERROR event: code " + std::to_string(event.status ? event.status->code : 0) + " " +
                         (event.status ? event.status->reason + ": " + event.status->message : std::string());
          return make_error(*stream_error);
        case schema::WatchEventType::kBookmark:
          resource_version = schema::meta_of(*event.object).resource_version;
          owner.sink_.on_bookmark(owner.resource_, resource_version);
          return ok_status();
        default:
          break;
      }
      const std::string& version = schema::meta_of(*event.object).resource_version;
      if (!version.empty()) resource_version = version;
      if (!deduper.admit(event)) {
        owner.stats_.duplicates.fetch_add(1);
        return ok_status();
      }
      owner.stats_.events.fetch_add(1);
      owner.sink_.on_event(owner.resource_, std::move(event));
      return ok_status();
    };
    owner.stats_.watches.fetch_add(1);
    const Clock::time_point started = Clock::now();
    Clock::time_point last_heard = started;
    const std::chrono::milliseconds stall_limit = watch_stall_limit(std::chrono::seconds(timeout), o);
    Result<StreamOutcome> outcome = owner.client_.stream(
        request,
        [&](std::string_view piece) {
          last_heard = Clock::now();
          return reader.feed(piece, handlers);
        },
        stall_limit, &owner.cancellation_);
    if (stopped()) return WatchEnd::kStopped;
    if (expired || (outcome.ok() && outcome->status == 410)) {
      owner.stats_.expired.fetch_add(1);
      problem("WATCH " + owner.resource_.describe() + " from resourceVersion " + resource_version +
              ": too old (410); relisting");
      return WatchEnd::kExpired;
    }
    std::string what = "WATCH " + owner.resource_.describe() + ": ";
    if (!outcome.ok() && Clock::now() - last_heard >= stall_limit) {
      Status finished = reader.finish();
      problem(what + "stalled: nothing received for " + std::to_string(stall_limit.count()) +
              " ms (timeoutSeconds=" + std::to_string(timeout) + " plus grace); resuming from resourceVersion " +
              resource_version + (finished.ok() ? "" : "; " + finished.message()));
      return WatchEnd::kFailed;
    }
    if (!outcome.ok()) {
      Status finished = reader.finish();
      problem(what + (stream_error ? *stream_error : outcome.message()) +
              (finished.ok() ? "" : "; " + finished.message()));
      return WatchEnd::kFailed;
    }
    if (outcome->status < 200 || outcome->status >= 300) {
      problem(what + "HTTP " + std::to_string(outcome->status) + ": " + snippet(outcome->error_body));
      return WatchEnd::kFailed;
    }
    if (Status finished = reader.finish(); !finished.ok()) {
      problem(what + finished.message());
      return WatchEnd::kFailed;
    }
    // A stream the server ends at once, again and again, must not spin.
    if (reader.events() == 0 && Clock::now() - started < std::chrono::seconds(1)) return WatchEnd::kFailed;
    return WatchEnd::kServerClosed;
  }

  void run() {
    while (!stopped()) {
      std::optional<ListSnapshot> snapshot = list();
      if (!snapshot) return;
      std::string resource_version = snapshot->resource_version;
      deduper.reset(snapshot->items);
      owner.stats_.lists.fetch_add(1);
      owner.sink_.on_relist(owner.resource_, std::move(*snapshot));
      for (;;) {
        const std::string resumed_from = resource_version;
        WatchEnd end = watch(resource_version);
        if (end == WatchEnd::kStopped) return;
        if (end == WatchEnd::kExpired) break;
        if (end == WatchEnd::kFailed) {
          // A watch that moved the resourceVersion on was working: the count in a row starts over,
          // so a connection cut now and then never grows the wait to the maximum.
          if (resource_version != resumed_from) failures = 0;
          back_off();
        } else {
          failures = 0;
        }
        if (stopped()) return;
      }
    }
  }
};

ResourceWatcher::ResourceWatcher(HttpClient& client, WatchedResource resource, WatchSink& sink, WatcherOptions options)
    : client_(client), resource_(std::move(resource)), sink_(sink), options_(std::move(options)) {}

ResourceWatcher::~ResourceWatcher() {
  stop();
}

void ResourceWatcher::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void ResourceWatcher::stop() {
  cancellation_.cancel();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void ResourceWatcher::run() {
  Impl impl(*this);
  impl.run();
}

}  // namespace koordq::kube
