// Drives kube/leader and kube/events against a real API server for tests/e2e/leader_election_test.sh:
// one LeaderElector with the given identity, Pod and timings; once leading, it records the same
// Event twice (a POST, then a PATCH to count 2). Prints one line per callback and per event
// outcome; SIGTERM or SIGINT stops the elector (label removed, Lease released) and exits 0.
//   leader_probe --identity ID [--pod NS/NAME] [--lease-duration MS] [--renew-deadline MS]
//                [--retry-period MS] [--legacy-guard NS/NAME|""] [--kubeconfig PATH]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include <signal.h>

#include "kube/client/client_config.hpp"
#include "kube/client/http_client.hpp"
#include "kube/events/event_recorder.hpp"
#include "kube/leader/leader_elector.hpp"

using namespace koordq;
using namespace koordq::kube;

namespace {

std::mutex print_mutex;

void say(const std::string& line) {
  std::lock_guard lock(print_mutex);
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

std::pair<std::string, std::string> split_ref(const std::string& ref) {
  const size_t slash = ref.find('/');
  if (slash == std::string::npos) return {"", ""};
  return {ref.substr(0, slash), ref.substr(slash + 1)};
}

const char* result_name(actors::OutcomeResult r) {
  switch (r) {
    case actors::OutcomeResult::kSuccess:
      return "success";
    case actors::OutcomeResult::kConflict:
      return "conflict";
    case actors::OutcomeResult::kNotFound:
      return "not-found";
    case actors::OutcomeResult::kError:
      return "error";
    case actors::OutcomeResult::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace

int main(int argc, char** argv) {
  std::string kubeconfig;
  LeaderElectionOptions options;
  options.lease_duration = std::chrono::milliseconds(4000);
  options.renew_deadline = std::chrono::milliseconds(3000);
  options.retry_period = std::chrono::milliseconds(500);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "leader_probe: %s needs a value\n", arg.c_str());
      return 2;
    }
    const std::string v = argv[++i];
    if (arg == "--kubeconfig") {
      kubeconfig = v;
    } else if (arg == "--identity") {
      options.identity = v;
    } else if (arg == "--pod") {
      std::tie(options.pod_namespace, options.pod_name) = split_ref(v);
    } else if (arg == "--lease-duration") {
      options.lease_duration = std::chrono::milliseconds(std::atoi(v.c_str()));
    } else if (arg == "--renew-deadline") {
      options.renew_deadline = std::chrono::milliseconds(std::atoi(v.c_str()));
    } else if (arg == "--retry-period") {
      options.retry_period = std::chrono::milliseconds(std::atoi(v.c_str()));
    } else if (arg == "--legacy-guard") {
      if (v.empty()) {
        options.legacy_guard.reset();
      } else {
        options.legacy_guard = split_ref(v);
      }
    } else {
      std::fprintf(stderr, "leader_probe: unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  if (options.identity.empty()) options.identity = make_leader_identity();
  Result<ClientConfig> config = resolve_client_config(kubeconfig, process_environment());
  if (!config.ok()) {
    std::fprintf(stderr, "leader_probe: %s\n", config.message().c_str());
    return 1;
  }
  Result<std::unique_ptr<HttpClient>> client = HttpClient::create(*config);
  if (!client.ok()) {
    std::fprintf(stderr, "leader_probe: %s\n", client.message().c_str());
    return 1;
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  EventRecorderOptions event_options;
  event_options.reporting_instance = options.identity;
  event_options.on_outcome = [](const actors::Outcome& o) {
    say(std::string("outcome ") + result_name(o.result) + " " + std::to_string(o.http_code));
  };
  EventRecorder recorder(**client, event_options);

  LeaderCallbacks callbacks;
  const std::string identity = options.identity;
  callbacks.on_started_leading = [&recorder, identity] {
    say("started " + identity);
    EventToRecord e;
    e.event.involved_object = {"QueueUnit", "scheduling.x-k8s.io/v1alpha1", "koord-queue", "probe-unit", "uid-1"};
    e.event.warning = true;
    e.event.reason = "FailedScheduling";
    e.event.message = "probe event from " + identity;
    e.seq = 1;
    recorder.record(e);
    e.seq = 2;
    recorder.record(e);
  };
  callbacks.on_stopped_leading = [] { say("stopped"); };
  callbacks.on_new_leader = [](const std::string& id) { say("new-leader " + id); };
  callbacks.on_fatal = [](const std::string& why) { say("fatal " + why); };
  LeaderElector elector(**client, options, callbacks);
  elector.start();
  int received = 0;
  sigwait(&signals, &received);
  recorder.stop();
  elector.stop();
  say("exited");
  return 0;
}
