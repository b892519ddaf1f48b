// LIST then WATCH of one resource, kept up for the life of the process (design.md §7):
//  * a paginated LIST (`limit`/`continue`; a 410 on a continue restarts the list from scratch)
//    gives a relist epoch at the list's resourceVersion;
//  * a WATCH from there with allowWatchBookmarks and timeoutSeconds; when the server ends it, the
//    connection drops (mid-event too) or the stream stalls (silent past timeoutSeconds and a grace),
//    the watch resumes from the last resourceVersion seen, bookmarks included, after a jittered
//    backoff for failures;
//  * a 410 (HTTP 410, or HTTP 200 with an ERROR event of code 410) starts a new relist;
//  * events are deduplicated by (uid, resourceVersion).
// Everything goes to a WatchSink, called on the watcher's thread in stream order.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "kube/client/cancellation.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/watched_resource.hpp"
#include "schema/json_decode.hpp"
#include "schema/json_watch_event.hpp"
#include "schema/raw_object.hpp"

namespace koordq::kube {

// A complete LIST: every page, at one resourceVersion.
struct ListSnapshot {
  std::string resource_version;
  std::vector<schema::DecodedObject> items;
  std::vector<schema::RejectedItem> rejected;  // items that did not decode (the others still count)
};

class WatchSink {
 public:
  virtual ~WatchSink() = default;
  // The start of a relist epoch: feed `list` to relist_diff against the journaled objects.
  virtual void on_relist(const WatchedResource& resource, ListSnapshot list) = 0;
  // ADDED, MODIFIED or DELETED, after the relist it follows, never twice.
  virtual void on_event(const WatchedResource& resource, schema::WatchEvent event) = 0;
  // A BOOKMARK: everything up to `resource_version` has been delivered.
  virtual void on_bookmark(const WatchedResource& resource, const std::string& resource_version) = 0;
  // Something the watcher recovers from by itself (a dropped stream, a 410, an undecodable event,
  // an API error): for the log. Never carries credentials.
  virtual void on_problem(const WatchedResource& /*resource*/, const std::string& /*message*/) {}
};

struct WatcherOptions {
  int page_size = 500;
  // timeoutSeconds of each WATCH, drawn uniformly from [min, max] as client-go's reflector does.
  std::chrono::seconds watch_timeout_min{300};
  std::chrono::seconds watch_timeout_max{600};
  // A watch silent for longer than its timeoutSeconds plus a grace (a tenth of timeoutSeconds,
  // within [min, max]) is stalled, since the server should have ended it: the connection is
  // dropped and the watch resumes from the last resourceVersion.
  std::chrono::milliseconds stall_grace_min{5'000};
  std::chrono::milliseconds stall_grace_max{30'000};
  // Backoff between failed attempts (LIST errors, dropped watches): jittered exponential.
  std::chrono::milliseconds backoff_base{200};
  std::chrono::milliseconds backoff_max{30'000};
  schema::RawObjectMode raw_mode = schema::RawObjectMode::kRedacted;
  schema::DecodeLimits limits;
};

// How long a WATCH asked to end after `timeout` may stay silent (before its headers, between two
// pieces of its body) before it counts as stalled.
std::chrono::milliseconds watch_stall_limit(std::chrono::seconds timeout, const WatcherOptions& options);

// Counters for tests and logs.
struct WatcherStats {
  std::atomic<uint64_t> lists{0};       // complete LISTs delivered (relists)
  std::atomic<uint64_t> watches{0};     // WATCH requests sent
  std::atomic<uint64_t> expired{0};     // 410s seen (HTTP or ERROR event)
  std::atomic<uint64_t> duplicates{0};  // events dropped by the deduplication
  std::atomic<uint64_t> events{0};      // events delivered
};

class ResourceWatcher {
 public:
  ResourceWatcher(HttpClient& client, WatchedResource resource, WatchSink& sink, WatcherOptions options = {});
  ~ResourceWatcher();  // stop()
  ResourceWatcher(const ResourceWatcher&) = delete;
  ResourceWatcher& operator=(const ResourceWatcher&) = delete;

  // Runs on a thread of its own until stop().
  void start();
  // Ends the request in flight and any wait at once, and joins the thread. Idempotent.
  void stop();
  // Runs on the calling thread until stop() is called from another.
  void run();

  const WatcherStats& stats() const { return stats_; }
  const WatchedResource& resource() const { return resource_; }

 private:
  struct Impl;
  HttpClient& client_;
  WatchedResource resource_;
  WatchSink& sink_;
  WatcherOptions options_;
  WatcherStats stats_;
  Cancellation cancellation_;
  std::thread thread_;
};

}  // namespace koordq::kube
