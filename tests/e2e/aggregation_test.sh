#!/usr/bin/env bash
# The visibility API through the real kube-apiserver's aggregation layer (behaviour.md §16):
# `koordq serve` against the control plane of tests/controlplane, all of it inside a network namespace
# of its own (`unshare -n`), so that the Service's Endpoints may carry the non-loopback address
# 192.0.2.10 the API server proxies to (Endpoints refuse loopback addresses). kubectl get --raw reaches
# every visibility path and parameter through the APIService; koordq takes the front-proxy CA from
# the cluster's ConfigMap and the user from X-Remote-User; errors come back as koordq's own Status;
# a request that skips the aggregator (no front-proxy certificate, or no user header) is refused;
# koordq sets the APIService's caBundle; the API server's /openapi/v2 merges koordq's. kubectl's
# discovery-driven commands (api-resources, get by resource name) work through the aggregator, and
# koordq answers aggregated discovery to a front-proxy request that names a user.
# Usage: aggregation_test.sh path/to/koordq   (as root: unshare -n and ip addr need it)
set -uo pipefail

koordq="$(readlink -f "${1:?usage: aggregation_test.sh path/to/koordq}")"
if [ "${KOORDQ_AGG_NETNS:-}" != 1 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "SKIP: needs root (unshare -n, ip addr); the CI runs the tests as root"
    exit 0
  fi
  # Building kube-apiserver downloads from Debian's archive: before the namespace, which has no network.
  if ! bash "${KOORDQ_CONTROLPLANE_DIR:-$(dirname "$0")/../controlplane}/build-kube-apiserver.sh" >/dev/null; then
    echo "FAIL: building kube-apiserver failed"
    exit 1
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

# Applied with insecureSkipTLSVerify, as a Koord-Queue install leaves it: koordq (whose default
# --visibility-apiservice is this name) replaces it with a caBundle of its own certificate, made
# again for the Service's name (behaviour.md §16.1).
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
check "koordq sets the caBundle and turns verification on" eventually 30 grep -q \
  'visibility APIService v1alpha1.visibility.koord-queue.x-k8s.io: caBundle set' "$log"
k get apiservice v1alpha1.visibility.koord-queue.x-k8s.io -o json >"$scratch/apiservice.json" 2>"$err"
jq -r '.spec.caBundle // "" | @base64d' "$scratch/apiservice.json" >"$scratch/ca-bundle.pem"
check "… the APIService no longer skips verification" jq_true '.spec.insecureSkipTLSVerify != true' "$scratch/apiservice.json"
check "the aggregator still reaches koordq, verifying it" eventually 30 k get --raw "$V/queues"
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
check "koordq saw the user the aggregator forwarded (X-Remote-User)" grep -q 'visibility request from koordq-e2e ' "$log"
code=$(curl -sk -o /dev/null -w '%{http_code}' "https://$ext_ip:$ext_port$V/queues")
check "a request without the front-proxy client certificate is refused (HTTP $code)" test "$code" = 401

# --- the paths and parameters not covered above, through the aggregator --------------------------------
raw "/apis/visibility.koord-queue.x-k8s.io" && check "/apis/<group>: the APIGroup with v1alpha1 preferred" jq_true \
  '.kind == "APIGroup" and .name == "visibility.koord-queue.x-k8s.io" and .preferredVersion.version == "v1alpha1"' "$out" ||
  fail "GET /apis/visibility.koord-queue.x-k8s.io"
raw "$V/elasticquotas/team-a" && check "elasticquotas/team-a: the quota summary (job1's 2 cpu used, job2 waiting)" jq_true \
  '.kind == "ElasticQuota" and .metadata.name == "team-a" and .max.cpu == "4" and .used.cpu == "2"
   and .phaseCounts == {"Dequeued": 1, "Enqueued": 1}' "$out" || fail "GET $V/elasticquotas/team-a"
raw "$V/elasticquotas/team-a/queueunits?queue=team-a" && check "queue=team-a: both units of the quota" jq_true \
  '(.items | map(.metadata.name)) == ["job2", "job1"]' "$out" || fail "GET …elasticquotas/team-a/queueunits?queue=team-a"
raw "$V/elasticquotas/team-a/queueunits?queue=team-b" && check "queue=team-b: no unit of the quota" jq_true \
  '.items == []' "$out" || fail "GET …elasticquotas/team-a/queueunits?queue=team-b"
if raw "$V/queues/team-a/queueunits?queue=Team_A"; then fail "queue=Team_A answered 200"; else
  check "queue=Team_A: 400, not an object name" grep -q 'invalid value "Team_A" for parameter queue: must be a valid object name' "$err"
fi
# The aggregator fetches koordq's /openapi/v2 and merges it into its own (a moment after Available).
openapi_merged() {
  k get --raw /openapi/v2 >"$scratch/openapi.json" 2>"$err" && jq_true \
    '(.paths | has("/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/{name}/queueunits"))
     and (.definitions["io.koord-queue.visibility.v1alpha1.QueueUnitsSummary"]["x-kubernetes-group-version-kind"]
          == [{"group": "visibility.koord-queue.x-k8s.io", "version": "v1alpha1", "kind": "QueueUnitsSummary"}])' \
    "$scratch/openapi.json"
}
check "/openapi/v2 of the API server carries koordq's paths and kinds" eventually 60 openapi_merged

# asOf: the answer as of a time before job3 existed is the one saved before it (units.json).
sleep 1.1
as_of=$(date -u +%Y-%m-%dT%H:%M:%SZ)
sleep 1.1
k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: job3, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {cpu: "5"}}
YAML
job3_listed() { raw "$V/queues/team-a/queueunits" && jq_true '.items | map(.metadata.name) | index("job3") != null' "$out"; }
check "job3 is listed once created" eventually 30 job3_listed
raw "$V/queues/team-a/queueunits?asOf=$as_of" && check "asOf=$as_of: the units before job3, as answered then" jq_true \
  --slurpfile before "$scratch/units.json" '.items == $before[0].items' "$out" || fail "GET …queueunits?asOf=$as_of"
if raw "$V/queues/team-a/queueunits?asOf=2000-01-01T00:00:00Z"; then fail "asOf before the journal answered 200"; else
  check "asOf before the journal: koordq's 410 Status" grep -q 'time 2000-01-01T00:00:00Z is older than the oldest retained revision' "$err"
fi
if raw "$V/queues/team-a/queueunits?asOf=2999-01-01T00:00:00Z"; then fail "asOf in the future answered 200"; else
  check "asOf in the future: 400" grep -q 'invalid value "2999-01-01T00:00:00Z" for parameter asOf' "$err"
fi

# --- kubectl's discovery through the aggregator -----------------------------------------------------------
# kube-apiserver 1.20 has no aggregated discovery: kubectl reads the legacy documents, koordq's
# APIResourceList through the proxy.
k api-resources --api-group=visibility.koord-queue.x-k8s.io --cache-dir "$scratch/kube-cache-aggregator" >"$out" 2>"$err"
check "kubectl api-resources --api-group lists koordq's two resources" \
  test "$(awk 'NR > 1 { print $1 }' "$out" | sort | xargs)" = "elasticquotas queues"
check "… cluster-scoped, with their kinds" grep -Eq '^queues +visibility.koord-queue.x-k8s.io/v1alpha1 +false +Queue *$' "$out"
k get queues.v1alpha1.visibility.koord-queue.x-k8s.io -o name >"$out" 2>"$err"
check "kubectl get queues.v1alpha1.visibility… lists team-a" grep -qx 'queue.visibility.koord-queue.x-k8s.io/team-a' "$out"
k get elasticquotas.v1alpha1.visibility.koord-queue.x-k8s.io team-a -o 'jsonpath={.kind} {.used.cpu}' >"$out" 2>"$err"
check "kubectl get elasticquotas.v1alpha1.visibility… team-a reads the summary" grep -qx 'ElasticQuota 2' "$out"

# --- koordq itself, with the front-proxy client certificate ------------------------------------------------
# No user header: unauthenticated (the CN never becomes the user), so kubectl holding the
# certificate alone is refused; with X-Remote-User, aggregated discovery as kubectl >= 1.27 asks for it.
direct=(--cacert "$scratch/ca-bundle.pem" --resolve "koord-queue-visibility-server.koord-queue.svc:$ext_port:127.0.0.1"
  --cert "$KOORDQ_FRONT_PROXY_CLIENT_CERT" --key "$KOORDQ_FRONT_PROXY_CLIENT_KEY")
direct_url="https://koord-queue-visibility-server.koord-queue.svc:$ext_port"
code=$(curl -s -o "$out" -w '%{http_code}' "${direct[@]}" "$direct_url/apis")
check "the front-proxy certificate without a user header is 401 (HTTP $code)" test "$code" = 401
curl -s -o "$out" "${direct[@]}" -H 'X-Remote-User: koordq-e2e' \
  -H 'Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' "$direct_url/apis"
check "with X-Remote-User: koordq's APIGroupDiscoveryList" jq_true \
  '.kind == "APIGroupDiscoveryList" and .apiVersion == "apidiscovery.k8s.io/v2"' "$out"

finish
