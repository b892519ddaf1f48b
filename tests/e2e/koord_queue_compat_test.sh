#!/usr/bin/env bash
# The Koord-Queue drop-in overlay (ops/kubernetes/overlays/koord-queue-compat), rendered by every
# kubectl from 1.21 on that the machine has (the same output from each), carries Koord-Queue's names:
# Deployment koord-queue (one replica, Recreate, selector control-plane: koord-queue) with container
# controller and the journal on PersistentVolumeClaim koord-queue-journal, Service
# koord-queue-visibility-server selecting the leader, the APIService pointing at it; no StatefulSet.
# Everything else is the base's, unchanged, and the container is the base StatefulSet's but for its
# name. Usage: koord_queue_compat_test.sh path/to/koordq
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -uo pipefail

koordq="$(readlink -f "${1:?usage: koord_queue_compat_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
k8s="$repo/ops/kubernetes"
version="$(sed -n 's/^project(koordq VERSION \([^ )]*\).*/\1/p' "$repo/CMakeLists.txt")"

kubectls=()
for k in /usr/lib/google-cloud-sdk/bin/kubectl.1.* "$(command -v kubectl)" "${KOORDQ_KUBECTL:-}"; do
  [ -x "$k" ] && kubectls+=("$k")
done
[ ${#kubectls[@]} -gt 0 ] || { echo "FAIL: no kubectl (KOORDQ_KUBECTL names one)"; exit 1; }
newest="${kubectls[-1]}"
"$newest" kustomize "$k8s/overlays/koord-queue-compat" >"$scratch/compat.yaml" 2>"$err" || fail "kustomize koord-queue-compat"
"$newest" kustomize "$k8s/base" >"$scratch/base.yaml" 2>"$err" || fail "kustomize base"
for k in "${kubectls[@]}"; do
  if "$k" kustomize "$k8s/overlays/koord-queue-compat" >"$out" 2>"$err" && cmp -s "$out" "$scratch/compat.yaml"; then pass; else
    fail "$k kustomize koord-queue-compat fails or differs from $newest's output"
  fi
done
json() { /usr/bin/python3 -c 'import sys, yaml, json
for d in yaml.safe_load_all(open(sys.argv[1])):
    print(json.dumps(d))' "$1" | jq -cS .; }
json "$scratch/compat.yaml" >"$scratch/compat.json"
json "$scratch/base.yaml" >"$scratch/base.json"
obj() { jq -c --arg k "$1" --arg n "$2" 'select(.kind == $k and .metadata.name == $n)' "$3"; }
obj Deployment koord-queue "$scratch/compat.json" >"$scratch/deployment.json"
obj StatefulSet koordq "$scratch/base.json" >"$scratch/statefulset.json"

kinds="$(jq -r '.kind' "$scratch/compat.json" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')"
check "kinds: a Deployment and a claim instead of the StatefulSet ($kinds)" test "$kinds" = "APIService=1 ClusterRole=1 ClusterRoleBinding=1 ConfigMap=1 CustomResourceDefinition=2 Deployment=1 Namespace=1 PersistentVolumeClaim=1 Role=5 RoleBinding=6 Service=2 ServiceAccount=1 "
check "every object of the base but the StatefulSet is in the overlay unchanged" test -z "$(
  jq -c 'select(.kind != "StatefulSet")' "$scratch/base.json" | grep -vxFf "$scratch/compat.json")"
check "Deployment koord-queue/koord-queue: one replica, Recreate, selector control-plane: koord-queue" jq_true '
  .metadata.namespace == "koord-queue" and .spec.replicas == 1 and .spec.strategy == {"type": "Recreate"}
  and .spec.selector == {"matchLabels": {"control-plane": "koord-queue"}}
  and .metadata.labels["control-plane"] == "koord-queue"
  and .spec.template.metadata.labels == {"control-plane": "koord-queue", "app.kubernetes.io/name": "koordq"}' \
  "$scratch/deployment.json"
check "its one container is controller: logs deployment/koord-queue -c controller" jq_true '
  [.spec.template.spec.containers[].name] == ["controller"]' "$scratch/deployment.json"
check "the container is the base StatefulSet's (image koordq:$version) but for its name" test \
  "$(jq -c '.spec.template.spec.containers[0] | del(.name)' "$scratch/deployment.json")" = \
  "$(jq -c --arg i "koordq:$version" '.spec.template.spec.containers[0] | select(.image == $i) | del(.name)' "$scratch/statefulset.json")"
check "the Pod runs as the base's (user 65532, ServiceAccount koordq, grace period)" test \
  "$(jq -c '.spec.template.spec | {securityContext, serviceAccountName, terminationGracePeriodSeconds}' "$scratch/deployment.json")" = \
  "$(jq -c '.spec.template.spec | {securityContext, serviceAccountName, terminationGracePeriodSeconds}' "$scratch/statefulset.json")"
check "the journal volume is PersistentVolumeClaim koord-queue-journal, mounted above --journal-dir; /tmp an emptyDir" jq_true '
  .spec.template.spec as $p
  | ($p.volumes | map(select(.name == "journal"))) == [{"name": "journal", "persistentVolumeClaim": {"claimName": "koord-queue-journal"}}]
  and ($p.volumes | map(select(.name != "journal"))) == [{"name": "tmp", "emptyDir": {"sizeLimit": "256Mi"}}]
  and ($p.containers[0].volumeMounts | any(.name == "journal" and .mountPath == "/var/lib/koordq"))
  and ($p.containers[0].args | index("--journal-dir=/var/lib/koordq/journal")) != null' "$scratch/deployment.json"
check "claim koord-queue-journal: ReadWriteOnce, as large as the base's" test \
  "$(obj PersistentVolumeClaim koord-queue-journal "$scratch/compat.json" | jq -c '[.metadata.namespace, .spec]')" = \
  "$(jq -c '["koord-queue", .spec.volumeClaimTemplates[0].spec]' "$scratch/statefulset.json")"
check "Service koord-queue-visibility-server selects the leader of control-plane: koord-queue on its visibility port" jq_true '
  .metadata.namespace == "koord-queue"
  and .spec.selector == {"control-plane": "koord-queue", "koord-queue-leader": "true"}
  and .spec.ports == [{"name": "visibility", "port": 443, "protocol": "TCP", "targetPort": "visibility"}]' \
  <(obj Service koord-queue-visibility-server "$scratch/compat.json")
check "the APIService points at koord-queue-visibility-server" jq_true '
  .spec.service == {"name": "koord-queue-visibility-server", "namespace": "koord-queue", "port": 443}' \
  <(obj APIService v1alpha1.visibility.koord-queue.x-k8s.io "$scratch/compat.json")
check "the metrics Service still selects the Pods" jq_true --slurpfile d "$scratch/deployment.json" '
  .spec.selector | to_entries | all(. as $e | $d[0].spec.template.metadata.labels[$e.key] == $e.value)' \
  <(obj Service koordq-metrics "$scratch/compat.json")
for arg in $(jq -r '.spec.template.spec.containers[0].args[1:][]' "$scratch/deployment.json"); do
  check "serve --help documents ${arg%%=*}" grep -q -- "^  ${arg%%=*} " <("$koordq" serve --help)
done
finish
