// `koordq serve` against a real cluster (design.md §1, §3, §7; behaviour.md §1, §19): the
// cluster's identity, the shared start (serve_start.hpp), then the watchers, the leader election
// and the fenced writers around one ServeLoop over a ClusterInbox. Runs until a stop is asked for
// or the loop ends; the final snapshot is written on the way out.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "controller/loop_observer.hpp"
#include "controller/serve_end.hpp"
#include "controller/serve_loop.hpp"
#include "controller/serve_start.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/resource_watcher.hpp"
#include "kube/client/write_fence.hpp"
#include "kube/leader/leader_elector.hpp"

namespace koordq::controller {

struct ClusterServeOptions {
  StartOptions start;
  LoopOptions loop;
  std::string queue_namespace;           // --queue-namespace: where the Queues are watched and written
  kube::LeaderElectionOptions election;  // its fence is the writers'
  kube::WatcherOptions watch;
  std::function<int64_t()> wall_now;
  std::function<std::unique_ptr<journal::CapnpRecordBody>(const journal::Journal&)> config_record;
  // What runs beside the loop on the fence of its writes (cmd/: the journal's witness, behaviour.md
  // §24.5): started once the elector runs, with the served cluster's identity; the function it
  // returns stops it, before the journal closes.
  std::function<std::function<void()>(journal::Journal& journal, const std::string& cluster, kube::WriteFence& fence)>
      beside;
};

ServeEnd serve_cluster(const ClusterServeOptions& options, kube::HttpClient& client, ServeObserver& observer,
                       const std::function<bool()>& stop_requested);

}  // namespace koordq::controller
