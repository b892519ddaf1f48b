#!/usr/bin/env bash
# `koordq serve` against a real kube-apiserver (tests/controlplane; design.md §3, §7; behaviour.md
# §2.5, §5, §7, §9, §14, §19): ElasticQuotas, Queues and QueueUnits created with kubectl, koordq
# started with --leader-elect=false; then, in bounded polling loops, what the API server holds:
# auto-created Queues, admissions with their status fields and spec.queue, failure messages and
# attempts on the backoff schedule, queueItemDetails, usage annotations, an admission once capacity
# is freed, the visibility API, the web console (in Chromium) and /metrics; restarts with SIGTERM and SIGKILL (while units arrive)
# lose and repeat nothing; journal verify and replay --verify pass on the journal.
# Usage: cluster_serve_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_serve_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"
K="$KOORDQ_KUBECTL"

journal="$scratch/journal"
log="$scratch/serve.log"
ca_flags=(--visibility-client-ca-file "$KOORDQ_FRONT_PROXY_CA")
start_koordq() {
  start_serve "$log" --leader-elect=false --journal-dir "$journal" --visibility-port 0 --enable-api-handler \
    --api-handler-port 0 --visibility-tls-cert-file "$KOORDQ_SERVING_CERT" \
    --visibility-tls-key-file "$KOORDQ_SERVING_KEY" "${ca_flags[@]}" --v=3 || return 1
  koordq_pid=$serve_pid
  for _ in $(seq 1 100); do
    grep -q 'visibility API listens on' "$log" && break
    sleep 0.1
  done
  metrics_port=$(bound_port "$log" metrics)
  debug_port=$(bound_port "$log" debug)
  vis_port=$(bound_port "$log" visibility)
  [ -n "$vis_port" ]
}
stop_koordq() { # stop_koordq SIGNAL
  kill "-$1" "$koordq_pid" 2>/dev/null
  wait "$koordq_pid" 2>/dev/null
  last_exit=$?
  koordq_pid=""
}

unit_field() { k get queueunit -n "$1" "$2" -o "jsonpath=$3"; }
unit_is() { test "$(unit_field "$1" "$2" "$3")" = "$4"; }
unit_at_least() { test "$(unit_field "$1" "$2" "$3")" -ge "$4"; }

cat >"$scratch/objects.yaml" <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-root, namespace: default, labels: {koord-queue/queue-policy: Priority}}
spec: {max: {cpu: "8", memory: 16Gi}}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default, labels: {quota.scheduling.koordinator.sh/parent: team-root}}
spec: {max: {cpu: "4", memory: 8Gi}, min: {cpu: "2", memory: 4Gi}}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-b, namespace: default, labels: {quota.scheduling.koordinator.sh/parent: team-root, koord-queue/queue-policy: Block}}
spec: {max: {cpu: "2", memory: 4Gi}}
---
apiVersion: v1
kind: Namespace
metadata: {name: ml}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: job1, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {priority: 10, resource: {cpu: "2", memory: 1Gi}, consumerRef: {apiVersion: batch/v1, kind: Job, name: job1, namespace: default}}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: job2, namespace: ml, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {priority: 5, resource: {cpu: "3", memory: 1Gi}}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: pt1, namespace: ml, labels: {quota.scheduling.koordinator.sh/name: team-b}}
spec:
  podSet:
  - name: worker
    count: 2
    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 500m, memory: 256Mi}}}]}}
YAML
check "kubectl creates the quotas, namespace and units" k apply -f "$scratch/objects.yaml"

if ! start_koordq; then
  echo "FAIL: koordq serve did not start its visibility API; its log:"
  tail -n 20 "$log"
  exit 1
fi
M="http://127.0.0.1:$metrics_port"
D="http://127.0.0.1:$debug_port"
check "/readyz turns 200 after the initial sync" eventually 10 curl -sf "$M/readyz"

# §2.5: a Queue per ElasticQuota in the queue namespace.
check "auto-created Queue team-a" eventually 10 k get queue -n koord-queue team-a
check "auto-created Queue team-b has the quota's policy label" \
  eventually 10 sh -c "test \"\$('$K' --kubeconfig '$KUBECONFIG' get queue -n koord-queue team-b -o 'jsonpath={.spec.queuePolicy}')\" = Block"
check "auto-created Queue has spec.priority 1000 and the parent label" test \
  "$(k get queue -n koord-queue team-a -o 'jsonpath={.spec.priority} {.metadata.labels.quota\.scheduling\.koordinator\.sh/parent}')" \
  = "1000 team-root"

# §7.3: the admission as one merge-PATCH of the status, then spec.queue.
check "job1 is Dequeued" eventually 10 unit_is default job1 '{.status.phase}' Dequeued
check "job1's message and attempts" test "$(unit_field default job1 '{.status.message}/{.status.attempts}')" \
  = "Dequeued because schedule successfully/1"
check "job1's admission: the default pod set, 1 replica, 0 running" test \
  "$(unit_field default job1 '{.status.admissions[0].name}/{.status.admissions[0].replicas}/{.status.admissions[0].running}')" \
  = "koord-queue/default-requirement/1/0"
check "job1's lastAllocateTime is set" test -n "$(unit_field default job1 '{.status.lastAllocateTime}')"
check "job1's spec.queue is its Queue" eventually 10 unit_is ml pt1 '{.spec.queue}' team-b
check "job1 keeps the fields koordq does not write (consumerRef)" unit_is default job1 '{.spec.consumerRef.kind}' Job
check "pt1 is Dequeued with both workers" eventually 10 unit_is ml pt1 '{.status.phase}/{.status.admissions[0].replicas}' Dequeued/2

# §13: Events, named from the journal.
event_of() { # event_of NS OBJECT REASON: "type|message|count|name" of the object's event with that reason
  k get events -n "$1" -o json | jq -r --arg o "$2" --arg r "$3" \
    '[.items[] | select(.involvedObject.name == $o and .reason == $r)][0] | "\(.type)|\(.message)|\(.count)|\(.metadata.name)|\(.source.component)"'
}
scheduled_event() { event_of default job1 Scheduled | grep -qE '^Normal\|dequeue success\|1\|job1\.[0-9a-f]{16}\|koord-queue-controller$'; }
check "job1 has the Normal event Scheduled: dequeue success, named <name>.<16 hex>" eventually 10 scheduled_event
failed_event() { event_of ml job2 FailedScheduling | grep -qE '^Warning\|limited quotaName:team-a, limited resKey:cpu,\|[0-9]+\|job2\.[0-9a-f]{16}\|'; }
check "job2 has the Warning event FailedScheduling with the failure text" eventually 10 failed_event

# §7.5, §8.2, §9: over quota, with the failure text, attempts growing on the backoff schedule.
check "job2 fails on team-a's cpu" eventually 10 unit_is ml job2 '{.status.message}' 'limited quotaName:team-a, limited resKey:cpu,'
# Attempt 3 runs 1 s + 2 s after the first; its write is held by the failure-write limit (§7.6) until
# 2 s + 4 s after the first write, so status.attempts reads 3 about 6 s in, later on a loaded machine.
check "job2 is retried after its backoff (attempts 1, 2, 3 within 1 s + 2 s)" eventually 30 unit_at_least ml job2 '{.status.attempts}' 3
check "job2 stays unadmitted" test -z "$(unit_field ml job2 '{.status.admissions}')"

# §14: queueItemDetails and the usage annotations.
item_details() { k get queue -n koord-queue team-a -o json | jq -c '.status.queueItemDetails'; }
job2_listed() {
  local d
  d="$(item_details)"
  [ "$d" = '{"active":[{"name":"job2","namespace":"ml","position":1,"priority":5}],"backoff":[]}' ] ||
    [ "$d" = '{"active":[],"backoff":[{"name":"job2","namespace":"ml","position":1,"priority":5}]}' ]
}
check "team-a's queueItemDetails lists job2 at position 1" eventually 20 job2_listed
check "team-a's usage annotation holds job1's charge" eventually 10 test \
  "$(k get queue -n koord-queue team-a -o 'jsonpath={.metadata.annotations.alibabacloud\.com/queue-used}')" \
  = '{"cpu":2000,"memory":1073741824}'

# Surfaces on a cluster: the debug and visibility APIs, and the client metrics.
check "debug API lists team-a's waiting unit" eventually 5 sh -c "curl -sf '$D/apis/v1/queue' | grep -q job2"
# The web console of this serve (behaviour.md §25) in Chromium, against koordq at and explain over its journal.
/usr/bin/python3 "$(dirname "$0")/console_browser.py" "$koordq" "$D/console/" "$journal" "$scratch" --moving \
  >"$scratch/console-browser.log" 2>&1
console_rc=$?
sed 's/^/  console: /' "$scratch/console-browser.log"
check "the web console in Chromium over serve on the API server" test "$console_rc" -eq 0
V="https://127.0.0.1:$vis_port"
tls=(--cacert "$KOORDQ_APISERVER_CA" --cert "$KOORDQ_FRONT_PROXY_CLIENT_CERT" --key "$KOORDQ_FRONT_PROXY_CLIENT_KEY")
visibility_lists_job2() {
  curl -s "${tls[@]}" -H 'X-Remote-User: alice' \
    "https://127.0.0.1:$vis_port/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/team-a/queueunits" >"$scratch/vis.json"
  jq -e '.items | map(select(.metadata.name == "job2")) | .[0].positionInQueue == 0' "$scratch/vis.json"
}
check "visibility API (client CA from the flag) lists team-a's job2 waiting at position 0" visibility_lists_job2
check "visibility API refuses a request without a client certificate" test \
  "$(curl -s --cacert "$KOORDQ_APISERVER_CA" "$V/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues" | jq -r .reason)" = Unauthorized
curl -s "$M/metrics" >"$scratch/metrics"
check "rest_client_requests_total counts the PATCHes answered 200" \
  grep -qE '^rest_client_requests_total\{.*code="200".*method="PATCH".*\} [1-9]' "$scratch/metrics"
check "koordq_leader is 1" grep -qE '^koordq_leader 1' "$scratch/metrics"

# Capacity freed: job1 deleted, job2 admitted.
k delete queueunit -n default job1 >/dev/null
check "job2 is admitted once job1 is gone" eventually 30 unit_is ml job2 '{.status.phase}' Dequeued
check "job2's spec.queue is team-a" eventually 10 unit_is ml job2 '{.spec.queue}' team-a

# A restart with SIGTERM: the journal resumes, nothing is decided twice.
snapshot_units() { k get queueunits -A -o 'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name} {.status.phase} {.status.attempts} {.status.admissions[*].replicas}{"\n"}{end}'; }
before="$(snapshot_units)"
stop_koordq TERM
ca_flags=()  # from now on the client CA comes from the cluster's ConfigMap (§16.1)
check "SIGTERM ends serve with exit 0" test "$last_exit" = 0
check "and logs where the journal stopped" grep -q 'serve stopped; journal head seq' "$log"
start_koordq || fail "koordq did not restart"
check "after the restart /readyz is 200 again" eventually 10 curl -sf "http://127.0.0.1:$metrics_port/readyz"
sleep 2
check "a restart changes no unit (no second admission, no extra attempt)" test "$(snapshot_units)" = "$before"
k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: job3, namespace: ml, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {cpu: "3", memory: 1Gi}}
YAML
check "visibility API (client CA from the ConfigMap) lists job3 waiting" eventually 10 sh -c \
  "curl -s ${tls[*]} -H 'X-Remote-User: alice' 'https://127.0.0.1:$vis_port/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/team-a/queueunits' | jq -e '.items | map(select(.metadata.name == \"job3\")) | length == 1'"

# SIGKILL while units arrive: no acknowledged record lost, no over-admission, journal intact.
for i in $(seq 1 12); do
  cat <<YAML
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: burst-$i, namespace: ml, labels: {quota.scheduling.koordinator.sh/name: team-b}}
spec: {resource: {cpu: 500m, memory: 128Mi}}
YAML
done >"$scratch/burst.yaml"
k apply -f "$scratch/burst.yaml" >/dev/null &
sleep 0.5
stop_koordq KILL
wait
# While koordq is down: job2 (3 of team-a's 4 cpu) is deleted; the start relist must bring that in.
k delete queueunit -n ml job2 >/dev/null
# And pt1 (admitted) loses its spec.queue, as if its write had been lost: the new start writes it.
k patch queueunit -n ml pt1 --type=json -p '[{"op":"remove","path":"/spec/queue"}]' >/dev/null
start_koordq || fail "koordq did not restart after SIGKILL"
check "after SIGKILL /readyz is 200 again" eventually 10 curl -sf "http://127.0.0.1:$metrics_port/readyz"
check "the start relist sees job2's deletion: job3 takes its quota" eventually 30 unit_is ml job3 '{.status.phase}' Dequeued
check "an admitted unit without its spec.queue gets it written again" eventually 10 unit_is ml pt1 '{.spec.queue}' team-b
# team-b's max is 2 cpu: pt1 holds 1; two more 500m units fit, the rest waits.
admitted_b() { k get queueunits -n ml -o json | jq '[.items[] | select(.metadata.labels["quota.scheduling.koordinator.sh/name"] == "team-b") | (.status.admissions // [])[] | .replicas] | add'; }
team_b_full() { test "$(admitted_b)" = 4; }
check "team-b fills to its max after the restart" eventually 30 team_b_full
sleep 2
check "and never beyond it" test "$(admitted_b)" = 4
check "no unit has more replicas than it asked for" test \
  "$(k get queueunits -A -o json | jq '[.items[] | select(((.status.admissions // [])[0].replicas // 0) > (.spec.podSet[0].count // 1))] | length')" = 0

# spec.queue is patched after the admission (admissions go first in the write queue), so a unit
# admitted in the relist's first round can show Dequeued a moment before its queue. Every admitted
# unit gets its queue within the bound, also those whose write the SIGKILL cut off (§7.3 repair).
queues_written() {
  test "$(k get queueunits -A -o json | jq '[.items[] | select(.status.phase == "Dequeued" and ((.spec.queue // "") == ""))] | length')" = 0
}
check "every admitted unit carries its spec.queue" eventually 10 queues_written

# A Kubernetes client library reads what koordq wrote (python3-kubernetes, list and watch).
cat >"$scratch/client.py" <<'PY'
import sys
from kubernetes import client, config, watch
config.load_kube_config(config_file=sys.argv[1])
api = client.CustomObjectsApi()
units = api.list_cluster_custom_object("scheduling.x-k8s.io", "v1alpha1", "queueunits")["items"]
admitted = [u for u in units if u.get("status", {}).get("phase") == "Dequeued"]
assert admitted, "no Dequeued unit"
for u in admitted:
    s = u["status"]
    assert s["message"] in ("Dequeued because schedule successfully", "all admission checks success"), s
    assert s["attempts"] >= 1 and s["lastUpdateTime"].endswith("Z") and s["lastAllocateTime"].endswith("Z"), s
    assert all(a["replicas"] >= 1 and "name" in a for a in s["admissions"]), s
    assert u["spec"]["queue"], u["spec"]
seen = 0
for event in watch.Watch().stream(api.list_cluster_custom_object, "scheduling.x-k8s.io", "v1alpha1", "queueunits",
                                  timeout_seconds=2):
    seen += 1
assert seen >= len(units), (seen, len(units))  # the initial ADDED of every unit, then changes
print("ok", len(units), len(admitted))
PY
check "python3-kubernetes lists and watches the units with well-formed status" sh -c \
  "/usr/bin/python3 '$scratch/client.py' '$KUBECONFIG' | grep -q '^ok '"
stop_koordq TERM

"$koordq" journal verify --journal-dir "$journal" >"$out" 2>"$err"
check "journal verify passes (hash chain intact over three processes)" grep -q '^ok:' "$out"
"$koordq" replay --verify --journal-dir "$journal" >"$out" 2>"$err"
check "replay --verify re-decides every round identically" grep -q '^verified ' "$out"
n_config=$("$koordq" journal export --journal-dir "$journal" 2>/dev/null | jq -r .kind | grep -c '^config$')
check "three starts, three config records" test "$n_config" = 3
event_outcome_of() { # the name of the unit a journaled Event outcome names, for the Scheduled event of job1
  "$koordq" journal export --journal-dir "$journal" 2>/dev/null |
    jq -r 'select(.kind == "outcome" and .body.outcome.writeKind == "event") | .body.outcome.target.unit.name // empty' |
    grep -c '^job1$'
}
check "the answers to Event writes are journaled as outcomes naming the decision's unit" test "$(event_outcome_of)" -ge 1
check "no journal error in the log" test -z "$(grep -E '^E' "$log" | grep -i journal)"

finish
