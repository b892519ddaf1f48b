#!/usr/bin/env bash
# Fencing of the leader's writes (behaviour.md §19) on the real kube-apiserver with its audit log
# on: two `koordq serve` replicas, each with its own ServiceAccount (so the audit log names who
# wrote). The leader is given QueueUnits to admit under a low --qps, so that it has writes queued,
# and is stopped (SIGSTOP) while they wait; the other replica takes the Lease over once it expires;
# the old leader is then continued (SIGCONT). Counted in the audit log: after the takeover (the
# Lease's acquireTime) the old identity sends no write to QueueUnits, Queues or Events and no Lease
# write that succeeds (besides, only the removal of its own Pod's leader label, and a Lease update
# refused 409 should one have been in flight when it was stopped), and none of its writes arrived
# later than its last Lease renewal + the renew deadline. The old leader exits 1 (§19), the new one
# admits every unit once.
# Usage: cluster_fencing_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_fencing_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Every request that changes something, at Metadata level: who, what, when.
cat >"$scratch/audit-policy.yaml" <<'YAML'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  verbs: [create, update, patch, delete, deletecollection]
- level: None
YAML
audit_log="$scratch/audit.log"
export KOORDQ_APISERVER_EXTRA_ARGS="--audit-log-path=$audit_log --audit-policy-file=$scratch/audit-policy.yaml"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

units=40
k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "1000"}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: koordq-r1, namespace: koord-queue}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: koordq-r2, namespace: koord-queue}
---
apiVersion: v1
kind: Pod
metadata: {name: koordq-r1, namespace: koord-queue}
spec: {containers: [{name: koordq, image: koordq}]}
---
apiVersion: v1
kind: Pod
metadata: {name: koordq-r2, namespace: koord-queue}
spec: {containers: [{name: koordq, image: koordq}]}
YAML

# kubeconfig_of N: a kubeconfig with a token of ServiceAccount koordq-rN (the TokenRequest API).
kubeconfig_of() {
  local token
  token=$(curl -sS --http1.1 -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
    -H "Content-Type: application/json" -X POST \
    "$KOORDQ_APISERVER_URL/api/v1/namespaces/koord-queue/serviceaccounts/koordq-r$1/token" \
    -d '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":3600}}' |
    jq -r '.status.token // empty')
  [ -n "$token" ] || return 1
  cat >"$scratch/r$1.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "$KOORDQ_APISERVER_URL", certificate-authority: "$KOORDQ_APISERVER_CA"}}]
users: [{name: sa, user: {token: "$token"}}]
contexts: [{name: sa, context: {cluster: c, user: sa}}]
current-context: sa
YAML
}
check "replica 1 gets a token of its own ServiceAccount" kubeconfig_of 1
check "replica 2 gets a token of its own ServiceAccount" kubeconfig_of 2

leader_gauge() { curl -s "http://127.0.0.1:$(bound_port "$1" metrics)/metrics" | sed -n 's/^koordq_leader \([0-9]*\).*/\1/p'; }
leads() { test "$(leader_gauge "$1")" = 1; }
lease_field() { k get lease -n koord-queue koordq -o jsonpath="{.spec.$1}"; }
lease_s=6 renew_deadline_s=4 retry_period_s=1
# serve_replica N: replica N as ServiceAccount koordq-rN, Pod koord-queue/koordq-rN, at most 10
# requests a second (so the leader's writes wait in its queues).
serve_replica() {
  KUBECONFIG="$scratch/r$1.kubeconfig" POD_NAME="koordq-r$1" POD_NAMESPACE=koord-queue \
    start_serve "$scratch/r$1.log" --journal-dir "$scratch/r$1" --leader-election-namespace koord-queue \
    --leader-elect-lease-duration "${lease_s}s" --leader-elect-renew-deadline "${renew_deadline_s}s" \
    --leader-elect-retry-period "${retry_period_s}s" --legacy-lease-guard= --qps 10 --burst 10 \
    --enable-visibility-server=false --v=1
}
serve_replica 1 && pid1=$serve_pid
serve_replica 2 && pid2=$serve_pid
check "a replica leads" eventually 20 sh -c "curl -s http://127.0.0.1:$(bound_port "$scratch/r1.log" metrics)/metrics http://127.0.0.1:$(bound_port "$scratch/r2.log" metrics)/metrics | grep -q '^koordq_leader 1'"
if leads "$scratch/r1.log"; then
  old=1 new=2 old_pid=$pid1 new_pid=$pid2
else
  old=2 new=1 old_pid=$pid2 new_pid=$pid1
fi
old_user="system:serviceaccount:koord-queue:koordq-r$old"
new_user="system:serviceaccount:koord-queue:koordq-r$new"
unit job0 1
check "the leader admits a first unit" eventually 20 is_dequeued job0

# The leader gets $units units at once and is stopped as soon as it has admitted the first: at 10
# requests a second (a status and a spec.queue patch per unit, an Event each) most writes still wait.
for i in $(seq 1 "$units"); do
  printf -- '---\napiVersion: scheduling.x-k8s.io/v1alpha1\nkind: QueueUnit\nmetadata: {name: job%d, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}\nspec: {resource: {cpu: "1"}}\n' "$i"
done | k apply -f - >/dev/null
dequeued() { k get queueunits -n default -o json | jq '[.items[] | select(.status.phase == "Dequeued" and .metadata.name != "job0")] | length'; }
some_dequeued() { test "$(dequeued)" -ge 1; }
check "the leader starts admitting them" eventually 30 some_dequeued
kill -STOP "$old_pid"
stopped_at=$(date -u +%Y-%m-%dT%H:%M:%S.%6NZ)
at_stop=$(dequeued)
echo "stopped the leader (replica $old) with $at_stop of $units units admitted"
check "the leader was stopped with writes still queued (admitted $at_stop of $units)" test "$at_stop" -lt "$units"

new_identity=$(sed -n 's|.*leader election: Lease koord-queue/koordq as \([^ ]*\).*|\1|p' "$scratch/r$new.log")
new_holds() { test "$(lease_field holderIdentity)" = "$new_identity"; }
check "the other replica takes the Lease over once it expires" eventually 30 new_holds
takeover=$(lease_field acquireTime)
echo "takeover at $takeover (stopped at $stopped_at)"
check "and leads" eventually 15 leads "$scratch/r$new.log"
sleep 1
kill -CONT "$old_pid"
for _ in $(seq 1 150); do
  kill -0 "$old_pid" 2>/dev/null || break
  sleep 0.2
done
kill -9 "$old_pid" 2>/dev/null  # still running after 30 s: the exit check below fails
wait "$old_pid"
old_code=$?
check "the old leader, continued, stops leading and exits 1 (exit $old_code)" test "$old_code" = 1
check "it logs that it stopped leading" grep -q 'stopped leading' "$scratch/r$old.log"
check "its writers logged the fence holding writes back" grep -Eq 'API writes held back by the leadership fence|queued API writes dropped unsent' "$scratch/r$old.log"
all_dequeued() { test "$(dequeued)" = "$units"; }
check "the new leader admits every unit" eventually 60 all_dequeued
check "each unit once (attempts 1)" sh -c "'$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get queueunits -n default -o json | jq -e '[.items[] | select(.status.attempts != 1)] | length == 0'"
kill -TERM "$new_pid"
wait "$new_pid"

# writes USER [FROM]: the audit log's completed mutating requests of USER (received at or after FROM), one
# "<time> <verb> <resource>[/<subresource>] <name> <code>" line each.
writes() {
  jq -r --arg user "$1" --arg from "${2:-}" 'select(.stage == "ResponseComplete" and .user.username == $user
      and (.verb | test("^(create|update|patch|delete|deletecollection)$")) and .requestReceivedTimestamp >= $from)
    | "\(.requestReceivedTimestamp) \(.verb) \(.objectRef.resource)\(if .objectRef.subresource then "/" + .objectRef.subresource else "" end) \(.objectRef.name // "-") \(.responseStatus.code)"' "$audit_log"
}
writes "$old_user" >"$scratch/old-writes"
writes "$old_user" "$takeover" >"$scratch/old-after"
writes "$new_user" "$takeover" >"$scratch/new-after"
grep -E ' (queueunits|queues|events)[/ ]' "$scratch/old-after" >"$scratch/old-after-decisions"
old_before=$(grep -cv ' leases \| pods ' "$scratch/old-writes")
echo "audit: the old identity wrote $old_before QueueUnit/Queue/Event requests in all, $(wc -l <"$scratch/old-after-decisions") writes but its Pod's label after the takeover; the new identity $(grep -cv ' leases \| pods ' "$scratch/new-after") after it"
check "the audit log holds the old leader's writes from before the stop" test "$old_before" -gt 0
check "and the new leader's after the takeover" grep -q ' queueunits/status ' "$scratch/new-after"
check "after the takeover the old identity wrote nothing to QueueUnits, Queues or Events" \
  test ! -s "$scratch/old-after-decisions"
# Besides: the removal of its own Pod's leader label, and a Lease update that was in flight when it
# was stopped, refused: by its resourceVersion precondition (409), or by a loaded API server
# failing it (5xx, seen when etcd timed out on a busy host). Nothing else, and no Lease write that
# succeeded.
grep -Ev " patch pods koordq-r$old 200\$| update leases koordq (409|5[0-9][0-9])\$" "$scratch/old-after" >"$scratch/old-after-other"
check "nor anything else but its own Pod's label removal (and a refused Lease update)" \
  test ! -s "$scratch/old-after-other"
# The fence itself: no write of the old identity was received later than its last Lease renewal
# plus the renew deadline (the renewal was sent before the audit log saw it, so this is if anything lenient
# by the renewal's own latency).
last_renewal=$(grep -E ' (create|update) leases koordq 20[01]$' "$scratch/old-writes" | tail -n1 | cut -d' ' -f1)
last_write=$(grep -v ' leases \| pods ' "$scratch/old-writes" | tail -n1 | cut -d' ' -f1)
echo "old identity: last Lease renewal $last_renewal, last write $last_write"
check "no write of the old identity left after its last renewal + the renew deadline" \
  awk -v r="$(date -d "$last_renewal" +%s.%N)" -v w="$(date -d "$last_write" +%s.%N)" -v d="$renew_deadline_s" \
  'BEGIN { exit !(w < r + d) }'
if [ "$failed" -ne 0 ]; then
  sed 's/^/  old after takeover: /' "$scratch/old-after" | head -n 20
fi
for r in 1 2; do
  "$koordq" journal verify --journal-dir "$scratch/r$r" >"$out" 2>"$err"
  check "replica $r's journal verifies" grep -q '^ok:' "$out"
done
finish
