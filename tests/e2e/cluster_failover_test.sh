#!/usr/bin/env bash
# Two replicas of `koordq serve` on one real kube-apiserver, electing a leader on a Lease
# (behaviour.md §1, §19; design.md §3 "Leadership in the journal"): one leads and writes, the other
# journals the same objects and writes nothing; the legacy Koord-Queue Lease keeps both waiting;
# after SIGKILL of the leader the follower takes over once the lease expires and admits what
# arrived; a SIGTERM'd leader releases the Lease at once. Each journal verifies and replays.
# Usage: cluster_failover_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_failover_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "4"}}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: example-lease, namespace: default}
spec: {holderIdentity: koord-queue-controller-0, leaseDurationSeconds: 3600, renewTime: "2026-01-01T00:00:00.000000Z"}
YAML
unit() { # unit NAME CPU
  k apply -f - >/dev/null <<YAML
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: $1, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {cpu: "$2"}}
YAML
}
phase_of() { k get queueunit -n default "$1" -o jsonpath='{.status.phase}'; }
is_dequeued() { test "$(phase_of "$1")" = Dequeued; }
leader_gauge() { curl -s "http://127.0.0.1:$(bound_port "$1" metrics)/metrics" | sed -n 's/^koordq_leader \([0-9]*\).*/\1/p'; }
leads() { test "$(leader_gauge "$1")" = 1; }
holder() { k get lease -n koord-queue koordq -o jsonpath='{.spec.holderIdentity}'; }
serve_replica() { # serve_replica N: a replica with a short lease, its journal and log under $scratch/rN
  start_serve "$scratch/r$1.log" --journal-dir "$scratch/r$1" --leader-election-namespace koord-queue \
    --leader-elect-lease-duration 6s --leader-elect-renew-deadline 4s --leader-elect-retry-period 1s \
    --enable-visibility-server=false --v=1
}

unit job1 1
serve_replica 1 && pid1=$serve_pid
serve_replica 2 && pid2=$serve_pid
sleep 3
check "while Koord-Queue holds default/example-lease nobody leads" test "$(leader_gauge "$scratch/r1.log")$(leader_gauge "$scratch/r2.log")" = 00
check "and nothing is admitted" test -z "$(phase_of job1)"
check "the guard says why, once" test "$(grep -c 'not leading: legacy lease default/example-lease is held by koord-queue-controller-0 (--legacy-lease-guard)' "$scratch/r1.log")" = 1

k delete lease -n default example-lease >/dev/null
check "once the legacy Lease is gone a replica leads" eventually 15 sh -c "curl -s http://127.0.0.1:$(bound_port "$scratch/r1.log" metrics)/metrics http://127.0.0.1:$(bound_port "$scratch/r2.log" metrics)/metrics | grep -q '^koordq_leader 1'"
if leads "$scratch/r1.log"; then
  leader=1 follower=2 leader_pid=$pid1 follower_pid=$pid2
else
  leader=2 follower=1 leader_pid=$pid2 follower_pid=$pid1
fi
check "exactly one leads" test "$(leader_gauge "$scratch/r$follower.log")" = 0
check "the leader admits job1" eventually 15 is_dequeued job1
check "the Lease names the leader" grep -q "became leader" "$scratch/r$leader.log"
check "the follower logs the new leader" eventually 10 grep -q "new leader elected: $(holder)" "$scratch/r$follower.log"
check "the follower's /readyz is 200 (it journals)" curl -sf "http://127.0.0.1:$(bound_port "$scratch/r$follower.log" metrics)/readyz"

# SIGKILL of the leader: the follower takes over after the lease duration.
kill -9 "$leader_pid"
wait "$leader_pid" 2>/dev/null
unit job2 1
check "the follower leads once the lease expires" eventually 30 leads "$scratch/r$follower.log"
check "and admits the unit that arrived meanwhile" eventually 15 is_dequeued job2
role_transitions() { # role_transitions N: leaseTransitions of replica N's last role: acquired record
  "$koordq" journal export --journal-dir "$scratch/r$1" 2>/dev/null |
    jq -r 'select(.kind == "role" and .body.role.event == "acquired") | .body.role.leaseTransitions // 0' | tail -n1
}
check "job1 keeps its one admission (the new leader does not admit it again)" test \
  "$(k get queueunit -n default job1 -o jsonpath='{.status.attempts}/{.status.admissions[0].replicas}')" = 1/1

# The killed replica comes back as a follower; the leader's SIGTERM hands over at once.
serve_replica "$leader" && leader_pid=$serve_pid
check "the restarted replica follows" eventually 10 sh -c "grep -q 'new leader elected' '$scratch/r$leader.log'"
kill -TERM "$follower_pid"
wait "$follower_pid"
check "SIGTERM of the leader ends it with exit 0" test $? = 0
unit job3 1
check "the other replica leads soon after the release" eventually 10 leads "$scratch/r$leader.log"
check "and admits job3" eventually 15 is_dequeued job3
kill -TERM "$leader_pid"
wait "$leader_pid"

check "the takeover's role record carries the Lease's transitions (1: from the first holder)" \
  test "$(role_transitions "$follower")" = 1
for r in 1 2; do
  "$koordq" journal verify --journal-dir "$scratch/r$r" >"$out" 2>"$err"
  check "replica $r's journal verifies" grep -q '^ok:' "$out"
  "$koordq" replay --verify --journal-dir "$scratch/r$r" >"$out" 2>"$err"
  check "replica $r's journal replays with identical rounds" grep -q '^verified ' "$out"
done
finish
