// Test driver of kube_client_test.sh: lists and watches QueueUnits (all namespaces), Queues (one
// namespace) and ElasticQuotas (all namespaces) against a real API server with the kube/client
// library, and prints what its sink receives, one line each, flushed:
//   relist RESOURCE RV COUNT          then COUNT lines:  item RESOURCE NS/NAME UID RV
//   event RESOURCE TYPE NS/NAME UID RV
//   bookmark RESOURCE RV
//   problem RESOURCE MESSAGE
// until SIGTERM or SIGINT, then `stopped` and exit 0. With --once it lists every resource a single
// time (`list RESOURCE COUNT`) and exits: 0, or 1 with the error on stderr.
// Usage: kube_watch_probe [--kubeconfig PATH] [--context NAME] [--queue-namespace NS]
//                         [--page-size N] [--watch-timeout SECONDS] [--once]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <signal.h>

#include "kube/client/client_config.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/resource_watcher.hpp"
#include "schema/json_decode.hpp"

namespace {

using namespace koordq;
using namespace koordq::kube;

std::string key_of(const schema::WatchedObject& object) {
  const schema::ObjectMeta& meta = schema::meta_of(object);
  return meta.namespace_ + "/" + meta.name + " " + meta.uid + " " + meta.resource_version;
}

class PrintingSink : public WatchSink {
 public:
  void on_relist(const WatchedResource& resource, ListSnapshot list) override {
    std::lock_guard lock(mutex_);
    std::printf("relist %s %s %zu\n", resource.resource.c_str(), list.resource_version.c_str(), list.items.size());
    for (const schema::DecodedObject& item : list.items) {
      std::printf("item %s %s\n", resource.resource.c_str(), key_of(item.object).c_str());
    }
    std::fflush(stdout);
  }
  void on_event(const WatchedResource& resource, schema::WatchEvent event) override {
    std::lock_guard lock(mutex_);
    std::printf("event %s %s %s\n", resource.resource.c_str(), schema::watch_event_type_name(event.type),
                key_of(*event.object).c_str());
    std::fflush(stdout);
  }
  void on_bookmark(const WatchedResource& resource, const std::string& resource_version) override {
    std::lock_guard lock(mutex_);
    std::printf("bookmark %s %s\n", resource.resource.c_str(), resource_version.c_str());
    std::fflush(stdout);
  }
  void on_problem(const WatchedResource& resource, const std::string& message) override {
    std::lock_guard lock(mutex_);
    std::printf("problem %s %s\n", resource.resource.c_str(), message.c_str());
    std::fflush(stdout);
  }

 private:
  std::mutex mutex_;
};

int usage(const char* message) {
  std::fprintf(stderr, "kube_watch_probe: %s\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string kubeconfig;
  std::string context;
  std::string queue_namespace = "koord-queue";
  int page_size = 500;
  int watch_timeout = 300;
  bool once = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (arg == "--once") {
      once = true;
    } else if ((arg == "--kubeconfig" || arg == "--context" || arg == "--queue-namespace" || arg == "--page-size" ||
                arg == "--watch-timeout") &&
               (v = value()) != nullptr) {
      if (arg == "--kubeconfig") kubeconfig = v;
      if (arg == "--context") context = v;
      if (arg == "--queue-namespace") queue_namespace = v;
      if (arg == "--page-size") page_size = std::atoi(v);
      if (arg == "--watch-timeout") watch_timeout = std::atoi(v);
    } else {
      return usage(("unknown or incomplete argument " + arg).c_str());
    }
  }
  Result<ClientConfig> config = context.empty() || kubeconfig.empty()
                                    ? resolve_client_config(kubeconfig, process_environment())
                                    : load_kubeconfig({kubeconfig}, context);
  if (!config.ok()) {
    std::fprintf(stderr, "kube_watch_probe: %s\n", config.message().c_str());
    return 1;
  }
  HttpOptions http;
  http.qps = 100;
  http.burst = 100;
  Result<std::unique_ptr<HttpClient>> client = HttpClient::create(*config, http);
  if (!client.ok()) {
    std::fprintf(stderr, "kube_watch_probe: %s\n", client.message().c_str());
    return 1;
  }
  std::vector<WatchedResource> resources = {queue_units_resource(), queues_resource(queue_namespace),
                                            elastic_quotas_resource()};
  if (once) {
    schema::JsonDecoder decoder;
    for (const WatchedResource& resource : resources) {
      Request request;
      request.target = resource.path();
      Result<Response> response = (*client)->send(request);
      if (!response.ok()) {
        std::fprintf(stderr, "kube_watch_probe: %s\n", response.message().c_str());
        return 1;
      }
      if (!response->ok()) {
        std::fprintf(stderr, "kube_watch_probe: LIST %s: HTTP %d\n", resource.resource.c_str(), response->status);
        return 1;
      }
      Result<schema::ListPage> page = decoder.decode_list(response->body, resource.kind, schema::RawObjectMode::kOff);
      if (!page.ok()) {
        std::fprintf(stderr, "kube_watch_probe: %s\n", page.message().c_str());
        return 1;
      }
      std::printf("list %s %zu\n", resource.resource.c_str(), page->items.size());
    }
    return 0;
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before the watcher threads start, so they inherit it

  PrintingSink sink;
  WatcherOptions options;
  options.page_size = page_size;
  options.watch_timeout_min = options.watch_timeout_max = std::chrono::seconds(watch_timeout);
  options.backoff_base = std::chrono::milliseconds(100);
  options.backoff_max = std::chrono::milliseconds(2000);
  std::vector<std::unique_ptr<ResourceWatcher>> watchers;
  for (const WatchedResource& resource : resources) {
    watchers.push_back(std::make_unique<ResourceWatcher>(**client, resource, sink, options));
    watchers.back()->start();
  }
  int received = 0;
  sigwait(&signals, &received);
  for (auto& watcher : watchers) watcher->stop();
  std::printf("stopped\n");
  std::fflush(stdout);
  return 0;
}
