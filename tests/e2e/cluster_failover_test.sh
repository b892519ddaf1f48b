#!/usr/bin/env bash
# Two replicas of `koordq serve` on one real kube-apiserver, electing a leader on a Lease
# (behaviour.md §1, §19; design.md §3 "Leadership in the journal"): one leads and writes, the other
# journals the same objects and writes nothing but its Lease campaign and its label; the legacy
# Koord-Queue Lease keeps both waiting; after SIGKILL of the leader the follower takes over once the
# lease expires (and within lease duration + renew deadline) and admits what arrived; a SIGTERM'd
# leader releases the Lease at once. The leader label of §19 follows the Lease from Pod to Pod. Each
# journal verifies and replays.
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
leader_gauge() { curl -s "http://127.0.0.1:$(bound_port "$1" metrics)/metrics" | sed -n 's/^koordq_leader \([0-9]*\).*/\1/p'; }
leads() { test "$(leader_gauge "$1")" = 1; }
holder() { k get lease -n koord-queue koordq -o jsonpath='{.spec.holderIdentity}'; }
lease_s=6 renew_deadline_s=4 retry_period_s=1
serve_replica() { # serve_replica N: a replica of Pod koord-queue/koordq-rN with a short lease, its journal and log under $scratch/rN
  POD_NAME="koordq-r$1" POD_NAMESPACE=koord-queue start_serve "$scratch/r$1.log" --journal-dir "$scratch/r$1" \
    --leader-election-namespace koord-queue --leader-elect-lease-duration "${lease_s}s" \
    --leader-elect-renew-deadline "${renew_deadline_s}s" --leader-elect-retry-period "${retry_period_s}s" \
    --enable-visibility-server=false --enable-api-handler --api-handler-port 0 --v=1
}
# debug_answer N PATH: "<HTTP status> <body>" of replica N's debug API (§17.1).
debug_answer() {
  curl -s -w ' %{http_code}' "http://127.0.0.1:$(bound_port "$scratch/r$1.log" debug)$2" |
    jq -rRs 'capture("^(?<body>.*) (?<code>[0-9]+)$"; "s") | .code + " " + ((.body | fromjson? | .error? // "json")) // "unparsable"'
}
leader_label() { k get pod -n koord-queue "koordq-r$1" -o jsonpath='{.metadata.labels.koord-queue-leader}'; }
labelled() { test "$(leader_label "$1")" = true; }
unlabelled() { test -z "$(leader_label "$1")"; }
api_writes() { # api_writes N: "METHOD CODE COUNT" per request replica N sent that is not a GET (rest_client_requests_total)
  curl -s "http://127.0.0.1:$(bound_port "$scratch/r$1.log" metrics)/metrics" |
    sed -n 's/^rest_client_requests_total{code="\([^"]*\)",host="[^"]*",method="\([^"]*\)"} \([0-9]*\)$/\2 \1 \3/p' |
    grep -v '^GET ' | sort
}

unit job1 1
serve_replica 1 && pid1=$serve_pid
serve_replica 2 && pid2=$serve_pid
sleep 3
check "while Koord-Queue holds default/example-lease nobody leads" test "$(leader_gauge "$scratch/r1.log")$(leader_gauge "$scratch/r2.log")" = 00
check "nor carries the leader label" test -z "$(leader_label 1)$(leader_label 2)"
check "and nothing is admitted" test -z "$(phase_of job1)"
check "a replica that does not lead answers the debug API with 503 not the leader" \
  test "$(debug_answer 1 /apis/v1/queue)|$(debug_answer 2 /apis/v1/elasticquota)" = "503 not the leader|503 not the leader"
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
check "the leader's debug API answers with its queues" eventually 10 sh -c "test \"\$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$(bound_port "$scratch/r$leader.log" debug)/apis/v1/queue)\" = 200"
check "the follower's answers 503 not the leader" test "$(debug_answer "$follower" /apis/v1/userquota)" = "503 not the leader"
check "the follower serves the journal stream (every replica does)" \
  sh -c "curl -sf 'http://127.0.0.1:$(bound_port "$scratch/r$follower.log" debug)/apis/journal/v1/records?kind=config' | head -n1 | jq -e '.seq == 1 and .kind == \"config\"'"
check "the follower's /readyz is 200 (it journals)" curl -sf "http://127.0.0.1:$(bound_port "$scratch/r$follower.log" metrics)/readyz"
check "the leader's Pod carries the leader label" eventually 10 labelled "$leader"
check "the follower's does not" unlabelled "$follower"
queue_used_is() { test "$(k get queue -n koord-queue team-a -o json | jq -r '.metadata.annotations["alibabacloud.com/queue-used"]')" = "$1"; }
check "the leader writes job1's usage to its Queue" eventually 20 queue_used_is '{"cpu":1000}'
# Both replicas campaign once the legacy Lease is gone, so the follower may have lost the race to
# create the Lease (POST answered 409). Its Pod never had the label, so it had nothing to remove.
api_writes "$follower" >"$out"
check "the follower sent no write but a lost Lease create (PATCH, PUT, POST 201, DELETE: none)" \
  test -z "$(grep -v '^POST 409 1$' "$out")"
api_writes "$leader" >"$out"
check "while the leader's writes are counted the same way (status PATCHes, Lease PUTs)" \
  sh -c "grep -q '^PATCH 200 ' '$out' && grep -q '^PUT 200 ' '$out'"

# SIGKILL of the leader: the follower takes over after the lease duration.
killed_at=$(date +%s.%N)
kill -9 "$leader_pid"
wait "$leader_pid" 2>/dev/null
last_renewal=$(date -d "$(k get lease -n koord-queue koordq -o jsonpath='{.spec.renewTime}')" +%s.%N)
unit job2 1
check "the follower leads once the lease expires" eventually 30 leads "$scratch/r$follower.log"
check "the label moves to the new leader's Pod" eventually 10 labelled "$follower"
check "and admits the unit that arrived meanwhile" eventually 15 is_dequeued job2
acquired_at() { # acquired_at N: Unix time of replica N's last role: acquired record
  date -d "$("$koordq" journal export --journal-dir "$scratch/r$1" 2>/dev/null |
    jq -r 'select(.kind == "role" and .body.role.event == "acquired") | .time' | tail -n1)" +%s.%N
}
role_transitions() { # role_transitions N: leaseTransitions of replica N's last role: acquired record
  "$koordq" journal export --journal-dir "$scratch/r$1" 2>/dev/null |
    jq -r 'select(.kind == "role" and .body.role.event == "acquired") | .body.role.leaseTransitions // 0' | tail -n1
}
check "job1 keeps its one admission (the new leader does not admit it again)" test \
  "$(k get queueunit -n default job1 -o jsonpath='{.status.attempts}/{.status.admissions[0].replicas}')" = 1/1

# The killed replica comes back as a follower and removes the label it could not remove when killed;
# the leader's SIGTERM hands over at once, label included.
check "the killed leader's Pod keeps its label until the replica restarts" labelled "$leader"
serve_replica "$leader" && leader_pid=$serve_pid
check "the restarted replica follows" eventually 10 sh -c "grep -q 'new leader elected' '$scratch/r$leader.log'"
check "and removes its stale label" eventually 10 unlabelled "$leader"
check "the new leader keeps its label" labelled "$follower"
writes_are() { test "$(api_writes "$1")" = "$2"; }
check "the restarted follower's only write is that label removal (one PATCH)" eventually 5 writes_are "$leader" "PATCH 200 1"
kill -TERM "$follower_pid"
wait "$follower_pid"
check "SIGTERM of the leader ends it with exit 0" test $? = 0
check "and removes its label" unlabelled "$follower"
unit job3 1
check "the other replica leads soon after the release" eventually 10 leads "$scratch/r$leader.log"
check "the label moves back to its Pod" eventually 10 labelled "$leader"
check "and admits job3" eventually 15 is_dequeued job3
kill -TERM "$leader_pid"
wait "$leader_pid"
check "the last leader's SIGTERM removes its label too" unlabelled "$leader"

check "the takeover's role record carries the Lease's transitions (1: from the first holder)" \
  test "$(role_transitions "$follower")" = 1
# Failover time, from the SIGKILL to the survivor's role: acquired record (both on this machine's
# clock). The survivor polls the Lease every retry period × [1, 2.2) (client-go's jitter 1.2), so it
# sees the dead leader's last renewal up to 2.2 × retry after the kill and tries again up to
# 2.2 × retry after the lease expired on its clock: at worst lease + 4.4 × retry = 10.4 s with these
# flags, 0.4 s past lease + renew deadline (10 s). The margin of two retry periods covers that 0.4 s
# plus 1.6 s for the Lease GET and PUT and the role record's fsync on a 2-core machine shared with
# kube-apiserver, etcd and the other replica. The survivor must also not take over before the dead
# leader's last renewal has expired.
acquired=$(acquired_at "$follower")
failover_ms=$(awk -v a="$acquired" -v k="$killed_at" 'BEGIN { printf "%d", (a - k) * 1000 }')
bound_ms=$(((lease_s + renew_deadline_s + 2 * retry_period_s) * 1000))
echo "failover after SIGKILL: ${failover_ms} ms (bound ${bound_ms} ms)"
check "failover within lease duration + renew deadline + 2 retry periods (${bound_ms} ms; took ${failover_ms} ms)" \
  test "$failover_ms" -le "$bound_ms"
check "and not before the dead leader's last renewal expired" \
  awk -v a="$acquired" -v r="$last_renewal" -v l="$lease_s" 'BEGIN { exit !(a >= r + l - 0.001) }'
for r in 1 2; do
  "$koordq" journal verify --journal-dir "$scratch/r$r" >"$out" 2>"$err"
  check "replica $r's journal verifies" grep -q '^ok:' "$out"
  "$koordq" replay --verify --journal-dir "$scratch/r$r" >"$out" 2>"$err"
  check "replica $r's journal replays with identical rounds" grep -q '^verified ' "$out"
done
finish
