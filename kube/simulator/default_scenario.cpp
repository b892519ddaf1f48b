// The built-in `default` scenario and the loader that picks it or a file.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kube/simulator/scenario.hpp"

namespace koordq::kube::sim {
namespace {

// Sized so that, at speed 1, the cluster admits a few units per second: the research teams get
// more GPU work than their quotas hold (backoff, Block head-of-line waits, preemption in
// team-speech), the platform teams together exceed their department's cpu (a parent limit).
constexpr std::string_view kDefaultScenario = R"yaml(
name: default
description: >-
  An organisation with two departments and six teams. Research trains on GPUs and is
  overloaded; platform runs CPU batch work that contends at the department level.
queueNamespace: koord-queue
conflictPercent: 1
jobExtension:
  startDelay: {min: 1s, max: 6s}
  reclaimDelay: {min: 1s, max: 4s}
  suspendDelay: 2s
  evictDelay: 2s
  startTimeout: 45s
  timeoutBackoff: 20s
  deleteAfter: {min: 20s, max: 60s}

quotas:
  - name: org
    namespace: koord-queue
    max: {cpu: "640", memory: 2560Gi, nvidia.com/gpu: "56"}
  - name: research
    namespace: koord-queue
    parent: org
    max: {cpu: "384", memory: 1536Gi, nvidia.com/gpu: "48"}
  - name: platform
    namespace: koord-queue
    parent: org
    max: {cpu: "224", memory: 896Gi}
  - name: team-vision
    namespace: vision
    parent: research
    policy: Priority
    max: {cpu: "128", memory: 512Gi, nvidia.com/gpu: "16"}
    min: {cpu: "64", memory: 256Gi, nvidia.com/gpu: "8"}
  - name: team-nlp
    namespace: nlp
    parent: research
    policy: Block
    max: {cpu: "192", memory: 768Gi, nvidia.com/gpu: "24"}
    min: {cpu: "96", memory: 384Gi, nvidia.com/gpu: "12"}
  - name: team-speech
    namespace: speech
    parent: research
    policy: Priority
    max: {cpu: "96", memory: 384Gi, nvidia.com/gpu: "16"}
  - name: team-data
    namespace: data
    parent: platform
    policy: Priority
    max: {cpu: "128", memory: 512Gi}
  - name: team-infra
    namespace: infra
    parent: platform
    policy: Block
    max: {cpu: "48", memory: 192Gi}
  - name: team-web
    namespace: web
    parent: platform
    policy: Priority
    max: {cpu: "96", memory: 384Gi}

admissionChecks:
  - name: provisioning
    readyAfter: {min: 2s, max: 8s}
    rejectPercent: 5
    retryPercent: 3

queues:
  - name: team-vision
  - name: team-nlp
    annotations:
      koord-queue/max-depth: "20"
  - name: team-speech
    annotations:
      koord-queue/wait-for-pods-running: "true"
      koord-queue/enable-queueunit-preemption: "true"
  - name: team-data
    admissionChecks:
      - name: provisioning
        matchLabels: {sim.koordq.io/job-class: data-ray}
  - name: team-infra
    annotations:
      koord-queue/queue-items-refresh-interval: 5s
  - name: team-web
    annotations:
      koord-queue/max-depth: "10"

jobClasses:
  - name: vision-train
    kind: PyTorchJob
    namespaces: [vision, shared]
    quota: team-vision
    priorities: [0, 0, 100]
    podSets:
      - name: master
        replicas: 1
        resources: {cpu: "2", memory: 8Gi}
      - name: worker
        replicas: {min: 1, max: 4}
        resources: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "1"}
    arrivalsPerMinute: 20
    maxUnits: 40
    runTime: {mean: 50s, min: 15s, max: 4m}
    failurePercent: 5
    startTimeoutPercent: 2
    deactivatePercent: 3

  - name: vision-eval
    kind: Job
    namespaces: [vision]
    quota: team-vision
    request: {cpu: "1", memory: 2Gi}
    arrivalsPerMinute: 20
    maxUnits: 30
    runTime: {min: 5s, max: 30s}
    inactivePercent: 5

  - name: nlp-pretrain
    kind: PyTorchJob
    namespaces: [nlp]
    quota: team-nlp
    priorities: [0, 50]
    podSets:
      - name: master
        replicas: 1
        resources: {cpu: "4", memory: 16Gi}
      - name: worker
        replicas: {min: 2, max: 8}
        resources: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "2"}
    arrivalsPerMinute: 4
    maxUnits: 12
    runTime: {mean: 90s, min: 30s, max: 6m}
    failurePercent: 3
    maximumExecutionTimeSeconds: 240

  - name: nlp-finetune
    kind: TFJob
    namespaces: [nlp, shared]
    quota: team-nlp
    priorities: [0, 10]
    podSets:
      - name: ps
        replicas: 1
        resources: {cpu: "2", memory: 4Gi}
      - name: worker
        replicas: {min: 1, max: 2}
        resources: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "1"}
    arrivalsPerMinute: 12
    maxUnits: 30
    runTime: {mean: 40s, min: 10s, max: 3m}
    failurePercent: 5

  - name: speech-train
    kind: MPIJob
    namespaces: [speech]
    quota: team-speech
    priorities: [0, 0, 100, 200]
    podSets:
      - name: launcher
        replicas: 1
        resources: {cpu: "1", memory: 2Gi}
      - name: worker
        replicas: {min: 2, max: 4}
        resources: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "1"}
    arrivalsPerMinute: 10
    maxUnits: 25
    runTime: {mean: 40s, min: 10s, max: 3m}
    startDelay: {min: 2s, max: 15s}
    failurePercent: 5

  - name: data-etl
    kind: Job
    namespaces: [data]
    quota: team-data
    priorities: [0, 0, 10]
    podSets:
      - name: main
        replicas: {min: 1, max: 10}
        resources: {cpu: "2", memory: 4Gi}
    arrivalsPerMinute: 24
    maxUnits: 40
    runTime: {mean: 30s, min: 5s, max: 3m}
    failurePercent: 8

  - name: data-ray
    kind: RayJob
    namespaces: [data, shared]
    quota: team-data
    labels: {app.kubernetes.io/part-of: feature-pipeline}
    podSets:
      - name: head
        replicas: 1
        resources: {cpu: "2", memory: 8Gi}
      - name: worker
        replicas: {min: 2, max: 6}
        resources: {cpu: "4", memory: 16Gi}
    arrivalsPerMinute: 6
    maxUnits: 15
    runTime: {mean: 60s, min: 20s, max: 4m}

  - name: infra-ci
    kind: Job
    namespaces: [infra, ci]
    quota: team-infra
    request: {cpu: "2", memory: 4Gi}
    arrivalsPerMinute: 60
    maxUnits: 60
    runTime: {mean: 25s, min: 5s, max: 3m}
    failurePercent: 10
    inactivePercent: 3
    deactivatePercent: 2
    maximumExecutionTimeSeconds: 90

  - name: web-batch
    kind: Job
    namespaces: [web]
    quota: team-web
    priorities: [0, 100]
    podSets:
      - name: main
        replicas: {min: 1, max: 4}
        resources: {cpu: "2", memory: 4Gi}
    arrivalsPerMinute: 30
    maxUnits: 40
    runTime: {mean: 30s, min: 5s, max: 2m}
    failurePercent: 4
)yaml";

}  // namespace

std::string_view default_scenario_yaml() {
  return kDefaultScenario.substr(1);
}

Result<Scenario> load_scenario(const std::string& name_or_path) {
  if (name_or_path == "default") return parse_scenario(default_scenario_yaml(), "default");
  std::ifstream in(name_or_path, std::ios::binary);
  if (!in) {
    return make_error("cannot read scenario file " + name_or_path + ": " + std::strerror(errno) +
                      " (the built-in scenario is named default)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return make_error("cannot read scenario file " + name_or_path);
  return parse_scenario(text.str(), name_or_path);
}

}  // namespace koordq::kube::sim
