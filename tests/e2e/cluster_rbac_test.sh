#!/usr/bin/env bash
# koordq serve as its ServiceAccount on a real kube-apiserver that authorizes with RBAC, bound by
# exactly the rules of ops/kubernetes/base (behaviour.md §2.1): it lists and watches, elects itself on
# its Lease past the legacy guard, labels its own Pod, creates the auto Queue, admits a unit, records
# Events and reads the front-proxy ConfigMap for the visibility API, and no request is Forbidden.
# The ServiceAccount authenticates with a client certificate whose CN is its user name (the harness
# runs no token controller).
# Usage: cluster_rbac_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_rbac_test.sh path/to/koordq}")"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
KOORDQ_E2E_RBAC=1
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

check "the ServiceAccount and its RBAC apply" k apply -f "$repo/ops/kubernetes/base/serviceaccount.yaml" \
  -f "$repo/ops/kubernetes/base/rbac.yaml"
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

# The ServiceAccount's credentials: a client certificate for system:serviceaccount:koord-queue:koordq.
pki="$scratch/sa-pki"
mkdir -p "$pki"
openssl ecparam -name prime256v1 -genkey -noout -out "$pki/sa.key" 2>/dev/null
openssl req -new -key "$pki/sa.key" -out "$pki/sa.csr" \
  -subj "/O=system:serviceaccounts/O=system:serviceaccounts:koord-queue/CN=system:serviceaccount:koord-queue:koordq" 2>/dev/null
openssl x509 -req -in "$pki/sa.csr" -CA "$KOORDQ_APISERVER_CA" -CAkey "$KOORDQ_CA_KEY" -CAcreateserial \
  -days 1 -out "$pki/sa.crt" 2>/dev/null
cat >"$pki/kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "$KOORDQ_APISERVER_URL", certificate-authority: "$KOORDQ_APISERVER_CA"}}]
users: [{name: sa, user: {client-certificate: "$pki/sa.crt", client-key: "$pki/sa.key"}}]
contexts: [{name: sa, context: {cluster: c, user: sa}}]
current-context: sa
YAML
check "the certificate is the ServiceAccount (and is denied what RBAC does not grant)" sh -c \
  "'$KOORDQ_KUBECTL' --kubeconfig '$pki/kubeconfig' get secrets -n default 2>&1 | grep -qi 'forbidden.*system:serviceaccount:koord-queue:koordq'"

log="$scratch/serve.log"
POD_NAME=koordq-0 POD_NAMESPACE=koord-queue KUBECONFIG="$pki/kubeconfig" \
  start_serve "$log" --journal-dir "$scratch/journal" --visibility-port 0 --leader-elect-retry-period 500ms --v=2 ||
  fail "serve did not start"
phase_of() { k get queueunit -n default "$1" -o jsonpath='{.status.phase}'; }
is_dequeued() { test "$(phase_of "$1")" = Dequeued; }
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
check "SIGTERM removes the Pod label" test -z \
  "$(k get pod -n koord-queue koordq-0 -o jsonpath='{.metadata.labels.koord-queue-leader}')"
check "SIGTERM releases the Lease" test -z "$(k get lease -n koord-queue koordq -o jsonpath='{.spec.holderIdentity}')"
check "no request was Forbidden" test -z "$(grep -i forbidden "$log")"
check "no error in the log" test -z "$(grep '^E' "$log")"
finish
