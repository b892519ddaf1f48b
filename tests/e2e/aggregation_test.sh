#!/usr/bin/env bash
# The visibility API through the real kube-apiserver's aggregation layer (behaviour.md §16):
# `koordq serve` against the harness control plane, all of it inside a network namespace of its own
# (`unshare -n`, as ../shared/harness/aggregation-example.sh does), so that the Service's Endpoints
# may carry the non-loopback address 192.0.2.10 the API server proxies to. kubectl get --raw reaches
# every visibility path and parameter through the APIService; koordq takes the front-proxy CA from
# the cluster's ConfigMap and the user from X-Remote-User; errors come back as koordq's own Status;
# a request that skips the aggregator (no front-proxy certificate) is refused.
# Usage: aggregation_test.sh path/to/koordq   (as root: unshare -n and ip addr need it)
set -uo pipefail

koordq="$(readlink -f "${1:?usage: aggregation_test.sh path/to/koordq}")"
if [ "${KOORDQ_AGG_NETNS:-}" != 1 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "SKIP: needs root (unshare -n, ip addr); the CI runs the tests as root"
    exit 0
  fi
  exec unshare -n -- env KOORDQ_AGG_NETNS=1 bash "${BASH_SOURCE[0]}" "$@"
fi
ext_ip=192.0.2.10
ext_port=8082
ip link set lo up
ip addr add "$ext_ip/32" dev lo

# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"
GV=visibility.koord-queue.x-k8s.io/v1alpha1
V="/apis/$GV"

k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "4"}}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: job1, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {cpu: "2"}}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: job2, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {cpu: "3"}}
YAML

log="$scratch/serve.log"
check "koordq serve starts" start_serve "$log" --leader-elect=false --journal-dir "$scratch/journal" \
  --visibility-port "$ext_port" --v=4
check "the visibility API starts with the CA of the cluster's ConfigMap" eventually 30 grep -q 'visibility API listens on' "$log"
check "job1 is admitted" eventually 30 sh -c "'$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get queueunit -n default job1 -o jsonpath='{.status.phase}' | grep -qx Dequeued"

# insecureSkipTLSVerify: koordq serves its self-signed certificate here (--visibility-tls-cert-file
# empty); ops/kubernetes/overlays/visibility is the production form, with a caBundle.
k apply -f - >"$out" 2>"$err" <<EOF
apiVersion: v1
kind: Service
metadata: {name: koord-queue-visibility-server, namespace: koord-queue}
spec:
  ports: [{name: visibility, port: 443, protocol: TCP, targetPort: $ext_port}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: koord-queue-visibility-server, namespace: koord-queue}
subsets:
- addresses: [{ip: $ext_ip}]
  ports: [{name: visibility, port: $ext_port, protocol: TCP}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1alpha1.visibility.koord-queue.x-k8s.io}
spec:
  group: visibility.koord-queue.x-k8s.io
  version: v1alpha1
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
  service: {name: koord-queue-visibility-server, namespace: koord-queue, port: 443}
EOF
check "Service, Endpoints and APIService apply" test $? = 0
k wait --for condition=Available --timeout=60s apiservice/v1alpha1.visibility.koord-queue.x-k8s.io >"$out" 2>"$err"
check "the APIService becomes Available" test $? = 0
# Available comes a moment before the proxy route works: poll the real path.
raw() { k get --raw "$1" >"$out" 2>"$err"; }
check "the aggregator proxies to koordq" eventually 30 raw "$V/queues"

raw "$V" && check "discovery of the group version through the aggregator" jq_true \
  '.kind == "APIResourceList" and (.resources | map(.name) | index("queues/queueunits") != null)' "$out" ||
  fail "GET $V through the aggregator"
raw /apis && check "the API server's own discovery lists the group" jq_true \
  '.groups | map(.name) | index("visibility.koord-queue.x-k8s.io") != null' "$out" ||
  fail "GET /apis"
raw "$V/queues" && check "queues: a QueueList with team-a" jq_true \
  '.kind == "QueueList" and (.items | map(.metadata.name) | index("team-a") != null)' "$out" ||
  fail "GET $V/queues"
raw "$V/queues/team-a" && check "queues/team-a: the Queue summary" jq_true \
  '.kind == "Queue" and .metadata.name == "team-a" and .assumedCount == 1' "$out" ||
  fail "GET $V/queues/team-a"
raw "$V/queues/team-a/queueunits" && cp "$out" "$scratch/units.json" &&
  check "queues/team-a/queueunits: job2 waits first, then the assumed job1" jq_true \
    '.kind == "QueueUnitsSummary" and (.items | map(.metadata.name)) == ["job2", "job1"] and .items[0].positionInQueue == 0' \
    "$out" || fail "GET $V/queues/team-a/queueunits"
raw "$V/queues/team-a/queueunits?limit=1" && check "limit=1: one item and the rest counted" jq_true \
  '(.items | length) == 1 and .metadata.remainingItemCount == 1' "$out" || fail "GET …queueunits?limit=1"
raw "$V/queues/team-a/queueunits?offset=1&limit=5" && check "offset=1: the second item" jq_true \
  '(.items | map(.metadata.name)) == ["job1"]' "$out" || fail "GET …queueunits?offset=1"
raw "$V/queues/team-a/queueunits?phase=Dequeued" && check "phase=Dequeued: job1 only" jq_true \
  '(.items | map(.metadata.name)) == ["job1"]' "$out" || fail "GET …queueunits?phase=Dequeued"
rv=$(jq -r .metadata.resourceVersion "$scratch/units.json")
raw "$V/queues/team-a/queueunits?revision=$rv" && check "revision=$rv: the same answer (time travel)" jq_true \
  --slurpfile before "$scratch/units.json" '.items == $before[0].items' "$out" || fail "GET …queueunits?revision=$rv"
raw "$V/elasticquotas" && check "elasticquotas: an ElasticQuotaList with team-a" jq_true \
  '.kind == "ElasticQuotaList" and (.items | map(.metadata.name)) == ["team-a"]' "$out" || fail "GET $V/elasticquotas"
raw "$V/elasticquotas/team-a/queueunits" && check "elasticquotas/team-a/queueunits: both units" jq_true \
  '(.items | map(.metadata.name) | sort) == ["job1", "job2"]' "$out" || fail "GET $V/elasticquotas/team-a/queueunits"

if raw "$V/queues/nope/queueunits"; then fail "a missing queue answered 200"; else
  check "a missing queue: koordq's own 404 Status" grep -q 'queue.scheduling.x-k8s.io "nope" not found' "$err"
fi
if raw "$V/queues/team-a/queueunits?limit=abc"; then fail "limit=abc answered 200"; else
  check "a bad parameter: koordq's 400 Status names it" grep -qi 'limit' "$err"
fi
check "koordq saw the user the aggregator forwarded (X-Remote-User)" grep -q 'visibility request from koordq-harness' "$log"
code=$(curl -sk -o /dev/null -w '%{http_code}' "https://$ext_ip:$ext_port$V/queues")
check "a request without the front-proxy client certificate is refused (HTTP $code)" test "$code" = 401

finish
