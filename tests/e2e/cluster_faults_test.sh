#!/usr/bin/env bash
# koordq serve on the real kube-apiserver (--watch-cache=false) behind a proxy that ends TLS and
# cuts, stalls and truncates connections (design.md §7; behaviour.md §7.3): watches resume after
# every cut; while koordq cannot reach the API server an admitted unit is deleted and etcd is
# compacted, so the reconnect gets a 410 and a relist epoch whose synthesised DELETED frees the quota
# for the waiting unit; a burst of units with connections cut every second is admitted exactly up to
# the quota; during a stall koordq keeps its state, drops the silent watches once past timeoutSeconds
# plus grace and resumes them without a relist; a burst under answers truncated mid-chunk is admitted
# once per unit; the journal's final state (every unit and its phase) matches the API server's, and it
# verifies and replays.
# Usage: cluster_faults_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_faults_test.sh path/to/koordq}")"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=tests/e2e/lib.sh
. "$here/lib.sh"
export KOORDQ_APISERVER_EXTRA_ARGS="--watch-cache=false"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$here/cluster_lib.sh"

control="$scratch/proxy"
mkdir -p "$control"
api_port="${KOORDQ_APISERVER_URL##*:}"
# The proxy serves the API server's own certificate: the kubeconfig's CA trusts it.
/usr/bin/python3 "$here/tcp_fault_proxy.py" 127.0.0.1 "$api_port" "$control" \
  --tls "$KOORDQ_SERVING_CERT" "$KOORDQ_SERVING_KEY" "$KOORDQ_APISERVER_CA" >"$control/port" 2>"$control/log" &
koordq_pids+=("$!")
for _ in $(seq 1 50); do [ -s "$control/port" ] && break; sleep 0.1; done
proxy_port=$(cat "$control/port")
sed "s|server: $KOORDQ_APISERVER_URL|server: https://127.0.0.1:$proxy_port|" "$KUBECONFIG" >"$scratch/proxied.kubeconfig"
check "the proxied kubeconfig points at the proxy" grep -q "127.0.0.1:$proxy_port" "$scratch/proxied.kubeconfig"

k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "4"}}
YAML
unit holder 2
unit waiter 3

log="$scratch/serve.log"
# --watch-timeout=5s: timeoutSeconds in [5, 10], so a watch silent for 10 to 15 s is stalled.
KUBECONFIG="$scratch/proxied.kubeconfig" start_serve "$log" --leader-elect=false --journal-dir "$scratch/journal" \
  --enable-visibility-server=false --watch-timeout=5s --v=2 || fail "serve did not start"
M="http://127.0.0.1:$(bound_port "$log" metrics)"
relists() { curl -s "$M/metrics" | sed -n 's/^koordq_relists_total{resource="queueunits"} \([0-9.e+]*\)$/\1/p' | cut -d. -f1; }
check "holder is admitted through the proxy" eventually 20 is_dequeued holder
check "waiter waits for quota" eventually 10 sh -c "'$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get queueunit waiter -o jsonpath='{.status.message}' | grep -q 'limited quotaName:team-a'"
touch "$control/cut"
sleep 1
unit probe 3
probe_failed() { k get queueunit probe -o jsonpath='{.status.attempts}' | grep -q '^[1-9]'; }
check "after a cut the watches resume (a new unit gets its attempt)" eventually 20 probe_failed
k delete queueunit probe >/dev/null
before=$(relists)

# koordq cut off; holder deleted; etcd compacted past what koordq saw: the reconnect answers 410.
touch "$control/down"
sleep 0.5
k delete queueunit holder >/dev/null
for i in 1 2 3; do k create configmap "bump-$i" -n default >/dev/null; done
revision=$(etcdctl endpoint status -w json | jq '.[0].Status.header.revision')
check "etcd is compacted to its head revision" etcdctl compact "$revision"
rm -f "$control/down"
relisted() { test "$(relists)" -gt "$before"; }
check "the reconnect gets a 410 and koordq relists QueueUnits" eventually 60 relisted
check "the relist's synthesised DELETED frees holder's quota: waiter is admitted" eventually 30 is_dequeued waiter
check "the 410 is logged as a recovered problem" grep -q '410' "$log"

# A burst with connections cut every second: admitted exactly up to the quota (waiter holds 3 of 4).
for i in $(seq 1 8); do unit "burst-$i" 500m; done
for _ in $(seq 1 8); do touch "$control/cut"; sleep 1; done
admitted_cpu() { k get queueunits -A -o json | jq '[.items[] | select((.status.admissions // []) | length > 0) | .spec.resource.cpu | if endswith("m") then (.[:-1] | tonumber) else (tonumber * 1000) end] | add'; }
full() { test "$(admitted_cpu)" = 4000; }
check "the burst fills the quota to its max" eventually 40 full
sleep 3
check "and never beyond" test "$(admitted_cpu)" = 4000

# A stall: every connection stays open and nothing moves either way, new connections too.
used_cpu() { curl -s "$M/metrics" | sed -n 's/^dequeued_quota_usage_by_quota{quota="team-a",resource="cpu"} \([0-9.e+]*\)$/\1/p'; }
holds_quota() { test "$(used_cpu)" = 4000; }
check "before the stall koordq counts the quota full" eventually 10 holds_quota
before=$(relists)
check "no healthy watch was taken for stalled" test "$(grep -c 'stalled: nothing received' "$log")" = 0
touch "$control/stall"
every_watch_stalled() {
  for r in elasticquotas 'queues in koord-queue' queueunits; do grep -q "WATCH $r: stalled: nothing received" "$log" || return 1; done
}
check "the silent watches are dropped as stalled past timeoutSeconds plus grace" eventually 25 every_watch_stalled
check "during the stall koordq keeps its state" holds_quota
check "and stays ready" curl -sf "$M/readyz"
rm -f "$control/stall"
unit after-stall 500m
after_stall_tried() { k get queueunit after-stall -o jsonpath='{.status.attempts}' | grep -q '^[1-9]'; }
check "after the stall the watches resume (a new unit gets its attempt)" eventually 30 after_stall_tried
check "and resume from their resourceVersion: no relist" test "$(relists)" = "$before"

# Answers cut in the middle (of an HTTP chunk, of a JSON object) during a burst of creations.
k delete queueunits after-stall $(seq -f 'burst-%g' 1 8) >/dev/null
frees_quota() { test "$(used_cpu)" = 3000; }
check "deleting the burst frees its quota" eventually 20 frees_quota
for i in $(seq 1 10); do
  unit "trunc-$i" 100m
  touch "$control/truncate"
  sleep 0.3
done
check "the proxy truncated answers" grep -q 'truncated' "$control/log"
# Until a watch has been cut inside an event: truncate, then give the QueueUnit watch an event.
poke=0
watch_cut_mid_event() {
  grep -q 'WATCH queueunits: .*watch stream ended mid-event' "$log" && return 0
  touch "$control/truncate"
  sleep 0.2
  poke=$((poke + 1))
  k annotate queueunit trunc-1 --overwrite "e2e.koordq.io/poke=$poke" >/dev/null
  sleep 0.5
  return 1
}
check "a truncation cuts a watch event short and the partial event is dropped" eventually 30 watch_cut_mid_event
trunc_once() { k get queueunits -o json | jq -e '[.items[] | select(.metadata.name | startswith("trunc-"))
  | select(.status.phase == "Dequeued" and (.status.admissions | length) == 1 and .status.attempts == 1)] | length == 10'; }
check "every unit of the truncated burst is admitted once, on its first attempt" eventually 40 trunc_once
sleep 2
check "the quota is full and never beyond" test "$(admitted_cpu)" = 4000
check "koordq counts the same" test "$(used_cpu)" = 4000
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM: exit 0" test $? = 0

"$koordq" replay --journal-dir "$scratch/journal" -o json >"$out" 2>"$err"
check "the journal holds exactly the API server's QueueUnits" test "$(jq .units "$out")" = "$(k get queueunits -A -o json | jq '.items | length')"
revision=$(jq .revision "$out")
"$koordq" at "rev:$revision" quota team-a --journal-dir "$scratch/journal" -o json >"$out" 2>"$err"
by_name='[.items[] | [.metadata.namespace, .metadata.name, (.phase // .status.phase)]] | sort'
check "each in the API server's phase" test "$(jq -c "$by_name" "$out")" = "$(k get queueunits -A -o json | jq -c "$by_name")"
"$koordq" journal verify --journal-dir "$scratch/journal" >"$out" 2>"$err"
check "journal verify passes" grep -q '^ok:' "$out"
"$koordq" replay --verify --journal-dir "$scratch/journal" >"$out" 2>"$err"
check "replay --verify passes" grep -q '^verified ' "$out"
finish
