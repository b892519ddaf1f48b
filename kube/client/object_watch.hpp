// One named object kept current for as long as the process runs (behaviour.md §16.1: the ConfigMap
// kube-system/extension-apiserver-authentication): a GET, then a WATCH of that name alone
// (fieldSelector metadata.name) from the GET's resourceVersion, resumed from the last
// resourceVersion seen (bookmarks included) whenever the server ends it; a 410, a deletion, an
// ERROR event or a failed request goes back to the GET after a jittered exponential backoff.
// Each version of the object (by resourceVersion) is passed on once, in order, on the watch's
// thread. Not journaled: koordq reads it for its own serving, not as an input of decisions.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include "base/result.hpp"
#include "kube/client/cancellation.hpp"
#include "kube/client/http_client.hpp"

namespace koordq::kube {

struct ObjectWatchOptions {
  std::string collection;  // "/api/v1/namespaces/kube-system/configmaps"
  std::string name;        // "extension-apiserver-authentication"
  // The object's JSON, at each resourceVersion first seen.
  std::function<void(std::string_view object_json)> on_object;
  // What the watch recovers from by itself (an API error, a dropped stream, a deletion): for the
  // log. Never carries credentials.
  std::function<void(const std::string& message)> on_problem;
  std::chrono::seconds watch_timeout{300};  // timeoutSeconds of each WATCH
  std::chrono::milliseconds backoff_base{1'000};
  std::chrono::milliseconds backoff_max{30'000};
};

class ObjectWatch {
 public:
  ObjectWatch(HttpClient& client, ObjectWatchOptions options);
  ~ObjectWatch();  // stop()
  ObjectWatch(const ObjectWatch&) = delete;
  ObjectWatch& operator=(const ObjectWatch&) = delete;

  // The first GET, on the caller's thread (so that the object is there before what needs it
  // starts), then the watch on a thread of its own. An error says why the first GET gave no
  // object; the thread keeps trying.
  Status start();
  void stop();

  // For tests and logs.
  uint64_t gets() const { return gets_.load(); }
  uint64_t watches() const { return watches_.load(); }

 private:
  struct Impl;

  HttpClient& client_;
  ObjectWatchOptions options_;
  Cancellation cancellation_;
  std::thread thread_;
  std::atomic<uint64_t> gets_{0};
  std::atomic<uint64_t> watches_{0};
  std::string resource_version_;  // of the last object passed on; the watch thread's after start()
};

}  // namespace koordq::kube
