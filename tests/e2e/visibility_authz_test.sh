#!/usr/bin/env bash
# Who may read what through the visibility API, on the real kube-apiserver with RBAC and its
# aggregation layer (behaviour.md §16.1, §16.8): `koordq serve` runs as the ServiceAccount koordq
# with the shipped RBAC (ops/kubernetes/base/rbac.yaml) and sets the caBundle of an APIService that
# has neither a caBundle nor insecureSkipTLSVerify, so the aggregator verifies it; a tenant
# (ServiceAccount tenant-a/reader with a Role in tenant-a only) reads tenant-a's units of a queue
# with `kubectl get --raw` and gets 403 in tenant-b and cluster-wide (from kube-apiserver, which
# authorizes before proxying, and from koordq itself when reached directly with the front-proxy
# certificate); the admin reads everything.
# As aggregation_test.sh, inside `unshare -n` so that the Endpoints may carry 192.0.2.10.
# Usage: visibility_authz_test.sh path/to/koordq   (as root: unshare -n and ip addr need it)
set -uo pipefail

koordq="$(readlink -f "${1:?usage: visibility_authz_test.sh path/to/koordq}")"
if [ "${KOORDQ_AUTHZ_NETNS:-}" != 1 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "SKIP: needs root (unshare -n, ip addr); the CI runs the tests as root"
    exit 0
  fi
  # Building kube-apiserver downloads from Debian's archive: before the namespace, which has no network.
  if ! bash "${KOORDQ_CONTROLPLANE_DIR:-$(dirname "$0")/../controlplane}/build-kube-apiserver.sh" >/dev/null; then
    echo "FAIL: building kube-apiserver failed"
    exit 1
  fi
  exec unshare -n -- env KOORDQ_AUTHZ_NETNS=1 bash "${BASH_SOURCE[0]}" "$@"
fi
ext_ip=192.0.2.10
ext_port=8082
ip link set lo up
ip addr add "$ext_ip/32" dev lo
repo="$(cd "$(dirname "$0")/../.." && pwd)"

export KOORDQ_APISERVER_AUTHORIZATION=RBAC
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"
apiservice=v1alpha1.visibility.koord-queue.x-k8s.io
V=/apis/visibility.koord-queue.x-k8s.io/v1alpha1

# token NS SA: a token of that ServiceAccount from the TokenRequest API (an hour).
token() {
  k create --raw "/api/v1/namespaces/$1/serviceaccounts/$2/token" \
    -f <(echo '{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {"expirationSeconds": 3600}}') |
    jq -j '.status.token // empty'
}
# kubeconfig FILE TOKEN: a kubeconfig for the control plane with that bearer token.
kubeconfig() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: cp, cluster: {server: "$KOORDQ_APISERVER_URL", certificate-authority: "$KOORDQ_APISERVER_CA"}}]
users: [{name: u, user: {token: "$2"}}]
contexts: [{name: cp, context: {cluster: cp, user: u}}]
current-context: cp
EOF
}

# --- koordq as its ServiceAccount, with the shipped RBAC ----------------------------------------------
k apply -f "$repo/ops/kubernetes/base/serviceaccount.yaml" -f "$repo/ops/kubernetes/base/rbac.yaml" >"$out" 2>"$err"
check "the ServiceAccount koordq and the shipped RBAC apply" test $? = 0
koordq_token="$(token koord-queue koordq)"
check "a token for koord-queue/koordq" test -n "$koordq_token"
kubeconfig "$scratch/koordq.kubeconfig" "$koordq_token"

k apply -f - >"$out" 2>"$err" <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: tenant-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: tenant-b}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "1"}}
YAML
check "namespaces tenant-a, tenant-b and the quota team-a" test $? = 0
unit job-a 2 tenant-a
unit job-b 2 tenant-b

log="$scratch/serve.log"
: >"$log"
"$koordq" serve --kubeconfig "$scratch/koordq.kubeconfig" --metrics-bind-address 127.0.0.1:0 --leader-elect=false \
  --legacy-lease-guard="" --journal-dir "$scratch/journal" --visibility-port "$ext_port" --v=4 >>"$log" 2>&1 &
koordq_pids+=($!)
check "koordq serve starts as the ServiceAccount" await_listening "$log"
check "the visibility API starts" eventually 30 grep -q 'visibility API listens on' "$log"

# The APIService as ops/kubernetes/overlays/visibility ships it: no caBundle, no insecureSkipTLSVerify.
k apply -f - >"$out" 2>"$err" <<EOF
apiVersion: v1
kind: Service
metadata: {name: koordq-visibility, namespace: koord-queue}
spec:
  ports: [{name: visibility, port: 443, protocol: TCP, targetPort: $ext_port}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: koordq-visibility, namespace: koord-queue}
subsets:
- addresses: [{ip: $ext_ip}]
  ports: [{name: visibility, port: $ext_port, protocol: TCP}]
---
$(sed -n '/^apiVersion:/,$p' "$repo/ops/kubernetes/overlays/visibility/apiservice.yaml")
EOF
check "Service, Endpoints and the shipped APIService apply" test $? = 0
check "koordq sets the APIService's caBundle" eventually 30 grep -q "visibility APIService $apiservice: caBundle set" "$log"
k get apiservice "$apiservice" -o json >"$scratch/apiservice.json" 2>"$err"
check "the caBundle is koordq's serving certificate; verification is on" jq_true \
  '(.spec.caBundle | @base64d | startswith("-----BEGIN CERTIFICATE-----")) and (.spec.insecureSkipTLSVerify != true)' \
  "$scratch/apiservice.json"
k wait --for condition=Available --timeout=60s "apiservice/$apiservice" >"$out" 2>"$err"
check "the APIService becomes Available: the aggregator verifies koordq's certificate" test $? = 0
raw() { k get --raw "$1" >"$out" 2>"$err"; }
check "the aggregator proxies to koordq (admin)" eventually 30 raw "$V/queues"

# --- the tenant: a Role in tenant-a only ----------------------------------------------------------------
k apply -f - >"$out" 2>"$err" <<'YAML'
apiVersion: v1
kind: ServiceAccount
metadata: {name: reader, namespace: tenant-a}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: queue-visibility, namespace: tenant-a}
rules:
- apiGroups: [visibility.koord-queue.x-k8s.io]
  resources: [queues/queueunits]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: queue-visibility, namespace: tenant-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: queue-visibility}
subjects: [{kind: ServiceAccount, name: reader, namespace: tenant-a}]
YAML
check "the tenant's ServiceAccount, Role and RoleBinding" test $? = 0
kubeconfig "$scratch/tenant.kubeconfig" "$(token tenant-a reader)"
tenant() { "$KOORDQ_KUBECTL" --kubeconfig "$scratch/tenant.kubeconfig" get --raw "$1" >"$out" 2>"$err"; }

units_are() { # units_are EXPECTED-JSON-ARRAY: the unit names of $out, sorted
  jq_true --argjson want "$1" '.kind == "QueueUnitsSummary" and ((.items | map(.metadata.name) | sort) == $want)' "$out"
}
tenant_sees_own() { tenant "$V/namespaces/tenant-a/queues/team-a/queueunits" && units_are '["job-a"]'; }
check "tenant: kubectl get --raw of tenant-a's units of team-a shows job-a only" eventually 20 tenant_sees_own
if tenant "$V/namespaces/tenant-b/queues/team-a/queueunits"; then fail "tenant: tenant-b answered 200"; else
  check "tenant: tenant-b is 403, naming the namespace" grep -q \
    'cannot get resource "queues/queueunits" in API group "visibility.koord-queue.x-k8s.io" in the namespace "tenant-b"' "$err"
fi
if tenant "$V/queues/team-a/queueunits"; then fail "tenant: the cluster-wide units answered 200"; else
  check "tenant: the cluster-wide units are 403, at the cluster scope" grep -q 'at the cluster scope' "$err"
fi
if tenant "$V/queues"; then fail "tenant: the queue list answered 200"; else
  check "tenant: the queue list is 403" grep -qi 'forbidden' "$err"
fi

# kube-apiserver authorizes a request before its aggregator proxies it, so the refusals above come
# from it; koordq decides again on its own (for whoever reaches it with the front-proxy certificate).
# The tenant's user and groups as the aggregator forwards them, sent to koordq directly:
jq -r '.spec.caBundle | @base64d' "$scratch/apiservice.json" >"$scratch/ca-bundle.pem"
direct() { # direct PATH: GET koordq as the tenant with the front-proxy certificate; prints the HTTP code
  curl -s -o "$out" -w '%{http_code}' --cacert "$scratch/ca-bundle.pem" \
    --resolve "koordq-visibility.koord-queue.svc:$ext_port:$ext_ip" \
    --cert "$KOORDQ_FRONT_PROXY_CLIENT_CERT" --key "$KOORDQ_FRONT_PROXY_CLIENT_KEY" \
    -H 'X-Remote-User: system:serviceaccount:tenant-a:reader' -H 'X-Remote-Group: system:serviceaccounts' \
    -H 'X-Remote-Group: system:serviceaccounts:tenant-a' -H 'X-Remote-Group: system:authenticated' \
    "https://koordq-visibility.koord-queue.svc:$ext_port$1"
}
code=$(direct "$V/namespaces/tenant-a/queues/team-a/queueunits")
check "koordq itself: the tenant reads tenant-a's units (HTTP $code)" units_are '["job-a"]'
code=$(direct "$V/namespaces/tenant-b/queues/team-a/queueunits")
check "koordq itself: the tenant gets 403 in tenant-b (HTTP $code)" test "$code" = 403
check "… a Forbidden Status in koordq's words" jq_true '.kind == "Status" and .reason == "Forbidden" and .code == 403
  and .message == "queues.visibility.koord-queue.x-k8s.io \"team-a\" is forbidden: User \"system:serviceaccount:tenant-a:reader\" cannot get resource \"queues/queueunits\" in API group \"visibility.koord-queue.x-k8s.io\" in the namespace \"tenant-b\""' "$out"
code=$(direct "$V/queues/team-a/queueunits")
check "koordq itself: the tenant gets 403 cluster-wide (HTTP $code)" test "$code" = 403
check "koordq logged the tenant's forbidden requests" grep -q \
  'visibility request from system:serviceaccount:tenant-a:reader forbidden' "$log"

# --- the admin (system:masters) ------------------------------------------------------------------------
raw "$V/queues/team-a/queueunits" && check "admin: the cluster-wide units show both namespaces" units_are \
  '["job-a", "job-b"]' || fail "admin: GET $V/queues/team-a/queueunits"
raw "$V/namespaces/tenant-b/queues/team-a/queueunits" && check "admin: tenant-b's units show job-b only" units_are \
  '["job-b"]' || fail "admin: GET $V/namespaces/tenant-b/queues/team-a/queueunits"
raw "$V/queues" && check "admin: the queue list" jq_true '.kind == "QueueList"' "$out" || fail "admin: GET $V/queues"

# --- a request that names no user ------------------------------------------------------------------------
code=$(curl -s -o "$out" -w '%{http_code}' --cacert "$scratch/ca-bundle.pem" \
  --resolve "koordq-visibility.koord-queue.svc:$ext_port:$ext_ip" --cert "$KOORDQ_FRONT_PROXY_CLIENT_CERT" \
  --key "$KOORDQ_FRONT_PROXY_CLIENT_KEY" "https://koordq-visibility.koord-queue.svc:$ext_port$V/queues")
check "the front-proxy certificate without X-Remote-User is 401, not its CN (HTTP $code)" test "$code" = 401

finish
