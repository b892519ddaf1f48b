#!/usr/bin/env bash
# koordq serve as its ServiceAccount on a real kube-apiserver that authorizes with RBAC, bound by
# exactly the rules of ops/kubernetes/base (behaviour.md §2.1): it lists and watches, elects itself on
# its Lease past the legacy guard, labels its own Pod, creates the auto Queue, admits a unit, records
# Events, reads the front-proxy ConfigMap for the visibility API and witnesses its journal in the
# shipped witness ConfigMap, and no request is Forbidden.
# Its credentials are the ServiceAccount's own tokens from the TokenRequest API (the control plane
# runs no token controller): first in a kubeconfig, then as a pod mounts them, through the in-cluster
# configuration (KUBERNETES_SERVICE_HOST/PORT and /var/run/secrets/kubernetes.io/serviceaccount,
# mounted over in a private mount namespace).
# Usage: cluster_rbac_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_rbac_test.sh path/to/koordq}")"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
export KOORDQ_APISERVER_AUTHORIZATION=RBAC
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

check "the ServiceAccount, its RBAC and the witness ConfigMap apply" k apply -f "$repo/ops/kubernetes/base/serviceaccount.yaml" \
  -f "$repo/ops/kubernetes/base/rbac.yaml" -f "$repo/ops/kubernetes/base/journal-witness.yaml"
k apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: koordq-0, namespace: koord-queue}
spec: {containers: [{name: koordq, image: koordq}]}
---
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

# The ServiceAccount's credentials: a token bound to it, minted by the API server.
sa_token() {
  curl -sS --http1.1 -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
    -H "Content-Type: application/json" -X POST "$KOORDQ_APISERVER_URL/api/v1/namespaces/koord-queue/serviceaccounts/koordq/token" \
    -d '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":3600}}' |
    jq -r '.status.token // empty'
}
token=$(sa_token)
check "the TokenRequest API mints a token for the ServiceAccount" test -n "$token"
sa="$scratch/sa"
mkdir -p "$sa"
cat >"$sa/kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "$KOORDQ_APISERVER_URL", certificate-authority: "$KOORDQ_APISERVER_CA"}}]
users: [{name: sa, user: {token: "$token"}}]
contexts: [{name: sa, context: {cluster: c, user: sa}}]
current-context: sa
YAML
check "the token is the ServiceAccount (and is denied what RBAC does not grant)" sh -c \
  "'$KOORDQ_KUBECTL' --kubeconfig '$sa/kubeconfig' get secrets -n default 2>&1 | grep -qi 'forbidden.*system:serviceaccount:koord-queue:koordq'"

log="$scratch/serve.log"
POD_NAME=koordq-0 POD_NAMESPACE=koord-queue KUBECONFIG="$sa/kubeconfig" \
  start_serve "$log" --journal-dir "$scratch/journal" --visibility-port 0 --leader-elect-retry-period 500ms --v=2 ||
  fail "serve did not start"
check "it leads" eventually 20 sh -c "curl -s http://127.0.0.1:$(bound_port "$log" metrics)/metrics | grep -q '^koordq_leader 1'"
check "its Pod carries the leader label" eventually 10 sh -c \
  "test \"\$('$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get pod -n koord-queue koordq-0 -o jsonpath='{.metadata.labels.koord-queue-leader}')\" = true"
check "the auto Queue is created" eventually 10 k get queue -n koord-queue team-a
check "job1 is admitted" eventually 15 is_dequeued job1
check "job2 gets its failure message" eventually 15 sh -c \
  "'$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get queueunit -n default job2 -o jsonpath='{.status.message}' | grep -q 'limited quotaName:team-a'"
check "Events are recorded" eventually 15 sh -c "'$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get events -n default | grep -q FailedScheduling"
check "the visibility API starts with the CA from the ConfigMap" eventually 10 grep -q 'visibility API listens on' "$log"
check "the queueItemDetails write is allowed" eventually 20 sh -c \
  "'$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get queue -n koord-queue team-a -o jsonpath='{.status.queueItemDetails}' | grep -q job2"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM: exit 0" test $? = 0
check "the leader witnessed its journal in the ConfigMap" test -n \
  "$(k get configmap -n koord-queue koordq-journal-witness -o jsonpath='{.data}')"
check "SIGTERM removes the Pod label" test -z \
  "$(k get pod -n koord-queue koordq-0 -o jsonpath='{.metadata.labels.koord-queue-leader}')"
check "SIGTERM releases the Lease" test -z "$(k get lease -n koord-queue koordq -o jsonpath='{.spec.holderIdentity}')"
check "no request was Forbidden" test -z "$(grep -i forbidden "$log")"
check "no error in the log" test -z "$(grep '^E' "$log")"

# Again as in a pod: no kubeconfig, the API server from KUBERNETES_SERVICE_HOST/PORT, a fresh token
# and ca.crt in the service account directory (koordq reads the fixed path, so a tmpfs in a private
# mount namespace stands in for the pod's volume).
mount_dir="$scratch/serviceaccount"
mkdir -p "$mount_dir"
sa_token >"$mount_dir/token"
cp "$KOORDQ_APISERVER_CA" "$mount_dir/ca.crt"
echo koord-queue >"$mount_dir/namespace"
api_port="${KOORDQ_APISERVER_URL##*:}"
start_in_cluster() { # start_in_cluster LOG ARGS...: as start_serve, with the in-cluster configuration
  local log="$1"
  shift
  : >"$log"
  # shellcheck disable=SC2016 # the inner script's $1 and $@ are its own arguments
  env -u KUBECONFIG KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT="$api_port" POD_NAME=koordq-0 \
    POD_NAMESPACE=koord-queue unshare --mount --propagation private -- sh -c \
    'mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io && cp -r "$1" /run/secrets/kubernetes.io/serviceaccount && shift && exec "$@"' \
    sh "$mount_dir" "$koordq" serve --metrics-bind-address 127.0.0.1:0 "$@" >>"$log" 2>&1 &
  serve_pid=$!
  koordq_pids+=("$serve_pid")
  await_listening "$log"
}
log="$scratch/serve-in-cluster.log"
start_in_cluster "$log" --journal-dir "$scratch/journal" --visibility-port 0 --leader-elect-retry-period 500ms --v=2 ||
  fail "serve did not start with the in-cluster configuration"
check "it uses the in-cluster service account" grep -q "API server 127.0.0.1:$api_port (in-cluster service account)" "$log"
check "it leads again" eventually 20 sh -c "curl -s http://127.0.0.1:$(bound_port "$log" metrics)/metrics | grep -q '^koordq_leader 1'"
check "its Pod carries the leader label again" eventually 10 sh -c \
  "test \"\$('$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get pod -n koord-queue koordq-0 -o jsonpath='{.metadata.labels.koord-queue-leader}')\" = true"
k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: job3, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {cpu: "1"}}
YAML
check "a unit that arrives now is admitted" eventually 15 is_dequeued job3
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM: exit 0" test $? = 0
check "no request was Forbidden" test -z "$(grep -i forbidden "$log")"
check "no error in the log" test -z "$(grep '^E' "$log")"
verify_journal "the journal of both starts" "$scratch/journal"
finish
