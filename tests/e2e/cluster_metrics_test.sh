#!/usr/bin/env bash
# koordq's /metrics against a real kube-apiserver (tests/controlplane; behaviour.md §15; the panels of
# ops/grafana/koordq-dashboard.json, dashboard.md): a real Prometheus scrapes `koordq serve
# --leader-elect=false` every second while a scripted workload runs for about 40 s: a three-level
# ElasticQuota tree, QueueUnits of three consumerRef kinds (Job, PyTorchJob, TFJob) in three
# namespaces arriving over time, some over quota (backoff), some deleted to free capacity, a priority
# change, the job extension's part (phase Running, admissions[].running) played with merge PATCHes of
# the status subresource, and one fault: etcd paused while koordq admits a unit (the API server
# answers 504, koordq retries) and the unit deleted before the retry (404). Then:
# - every expression of koordq's dashboard (variables as ops_test.sh sets them) and every expression
#   of the Koord-Queue dashboard as dashboard.md lists it (tests/e2e/dashboard_md_exprs.txt) returns
#   a sample, rest_client_* included; the only exemption is listed below with its reason;
# - `promtool check metrics` on a scrape finds only the Koord-Queue counters without `_total` (exit 3);
# - a scrape has no duplicate series (the check itself is shown to fail on a doctored scrape);
# - against the workload: the over-quota queues' attempts, quota usage never beyond max, admission
#   waits, the job types, the queue depth gauges equal to the debug API's Active/Backoff lists, the
#   Queues' usage annotations equal to dequeued_quota_usage_by_quota, PATCHes answered 200, the 5xx
#   and 4xx answers of the fault counted, the buckets of §15.3, koordq_leader 1;
# - the series lifecycle of §15.4 for the namespace families once a namespace loses a job type or
#   its last unit.
# Usage: cluster_metrics_test.sh path/to/koordq (KOORDQ_E2E_KEEP=1 keeps the scratch directory: logs,
# scrapes, journal, Prometheus data)
# shellcheck disable=SC2016 # PromQL and jq programs are single-quoted on purpose
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_metrics_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

repo="$(cd "$(dirname "$0")/../.." && pwd)"
dash="$repo/ops/grafana/koordq-dashboard.json"
for tool in promtool prometheus jq curl; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (scripts/install-deps.sh installs prometheus, jq and curl)"; exit 1; }
done

# Processes are signalled only while their PID still names the process started (its start time in
# /proc), never a process that took over the PID of one that ended.
started_at() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
declare -A pid=() started=()
track() { pid[$1]=$2; started[$1]="$(started_at "$2")"; } # track NAME PID
signal() { # signal SIG NAME: signals NAME's process if its PID still names it
  [ -n "${pid[$2]:-}" ] && [ "$(started_at "${pid[$2]}")" = "${started[$2]}" ] && kill "-$1" "${pid[$2]}" 2>/dev/null
}
cleanup() {
  # SIGCONT first: a process paused by the fault below must be able to take its signal.
  signal CONT etcd
  signal CONT koordq
  signal KILL koordq
  signal TERM prom
  stop_control_plane "$scratch/cp"
  wait 2>/dev/null
  if [ -n "${KOORDQ_E2E_KEEP:-}" ]; then echo "kept $scratch"; else rm -rf "$scratch"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

phase_start=$SECONDS
phase() { # phase NAME: prints the duration of the phase that just ended
  echo "phase $1: $((SECONDS - phase_start)) s"
  phase_start=$SECONDS
}
# eventually SECONDS COMMAND...: COMMAND succeeds within SECONDS (polled every 0.2 s).
eventually() {
  local deadline=$((SECONDS + $1))
  shift
  while [ $SECONDS -le $deadline ]; do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  return 1
}

# --request-timeout: with etcd paused a write is answered 504 after 2 s instead of 60 s.
KOORDQ_APISERVER_EXTRA_ARGS=--request-timeout=2s start_control_plane "$scratch/cp"
track etcd "$KOORDQ_ETCD_PID"
K="${KOORDQ_KUBECTL:-}"
[ -n "$K" ] || { echo "FAIL: no kubectl (build-kube-apiserver.sh puts kubectl 1.20 into the control plane's cache)"; exit 1; }
k() { "$K" --kubeconfig "$KUBECONFIG" "$@"; }
# api METHOD PATH [BODY]: a request as the job extension sends it; prints the HTTP code.
api() {
  local type=application/json
  [ "$1" = PATCH ] && type=application/merge-patch+json
  curl -sS --http1.1 -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
    -H "Content-Type: $type" -X "$1" "$KOORDQ_APISERVER_URL$2" ${3:+-d "$3"} -o "$scratch/api.out" -w '%{http_code}'
}
qu_path() { echo "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/$1/queueunits/$2"; }
unit_field() { k get queueunit -n "$1" "$2" -o "jsonpath=$3"; }
unit_is() { test "$(unit_field "$1" "$2" "$3")" = "$4"; }
# unit NS NAME QUOTA KIND CPU PRIORITY [WORKERS WORKER_CPU]: a QueueUnit for a job of KIND asking for
# CPU in all (spec.resource, as the job extension fills it in); with WORKERS, also a pod set of that
# many workers of WORKER_CPU each.
unit() {
  local pod_set=""
  [ -n "${7:-}" ] && pod_set="podSet: [{name: worker, count: $7, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"$8\", memory: 256Mi}}}]}}}]"
  local api_version=batch/v1
  [ "$4" = PyTorchJob ] && api_version=kubeflow.org/v1
  [ "$4" = TFJob ] && api_version=kubeflow.org/v1
  k apply -f - >/dev/null <<YAML
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: $2, namespace: $1, labels: {quota.scheduling.koordinator.sh/name: $3}}
spec:
  priority: $6
  consumerRef: {apiVersion: $api_version, kind: $4, name: $2, namespace: $1}
  resource: {cpu: "$5", memory: 512Mi}
  $pod_set
YAML
}

# --- the quota tree, then koordq and Prometheus ---------------------------------------------------------
# org → dept-a → team-a1 (Priority), team-a2; org → dept-b → team-b1 (Block). Units use the leaves.
cat >"$scratch/quotas.yaml" <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: ml}
---
apiVersion: v1
kind: Namespace
metadata: {name: research}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: org, namespace: default, labels: {koord-queue/queue-policy: Priority}}
spec: {max: {cpu: "12", memory: 24Gi}}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: dept-a, namespace: default, labels: {quota.scheduling.koordinator.sh/parent: org}}
spec: {max: {cpu: "8", memory: 16Gi}}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: dept-b, namespace: default, labels: {quota.scheduling.koordinator.sh/parent: org}}
spec: {max: {cpu: "4", memory: 8Gi}}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a1, namespace: default, labels: {quota.scheduling.koordinator.sh/parent: dept-a, koord-queue/queue-policy: Priority}}
spec: {max: {cpu: "4", memory: 8Gi}, min: {cpu: "2", memory: 4Gi}}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a2, namespace: default, labels: {quota.scheduling.koordinator.sh/parent: dept-a}}
spec: {max: {cpu: "3", memory: 6Gi}}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-b1, namespace: default, labels: {quota.scheduling.koordinator.sh/parent: dept-b, koord-queue/queue-policy: Block}}
spec: {max: {cpu: "2", memory: 4Gi}}
YAML
check "kubectl creates the namespaces and the three-level quota tree" k apply -f "$scratch/quotas.yaml"

journal="$scratch/journal"
log="$scratch/serve.log"
"$koordq" serve --kubeconfig "$KUBECONFIG" --leader-elect=false --journal-dir "$journal" \
  --metrics-bind-address 127.0.0.1:0 --visibility-port 0 --enable-api-handler --api-handler-port 0 \
  --visibility-tls-cert-file "$KOORDQ_SERVING_CERT" --visibility-tls-key-file "$KOORDQ_SERVING_KEY" \
  --visibility-client-ca-file "$KOORDQ_FRONT_PROXY_CA" >"$log" 2>&1 &
track koordq $!
for _ in $(seq 1 100); do
  grep -q 'debug API listens on' "$log" && grep -q '/readyz listen on' "$log" && break
  sleep 0.1
done
metrics_port=$(sed -n 's|.*/readyz listen on 127.0.0.1:\([0-9]*\).*|\1|p' "$log" | head -n1)
debug_port=$(sed -n 's|.*debug API listens on http://127.0.0.1:\([0-9]*\).*|\1|p' "$log" | head -n1)
if [ -z "$metrics_port" ] || [ -z "$debug_port" ]; then
  echo "FAIL: koordq serve did not log its metrics and debug ports; its log:"
  tail -n 20 "$log"
  exit 1
fi
M="http://127.0.0.1:$metrics_port"
D="http://127.0.0.1:$debug_port"
check "/readyz turns 200 after the initial sync" eventually 10 curl -sf "$M/readyz"
six_queues() { test "$(k get queues -n koord-queue -o name | wc -l)" = 6; }
check "a Queue per quota of the tree" eventually 10 six_queues

prom_port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$scratch/prometheus.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
- job_name: koord-queue-exporter
  static_configs: [{targets: ["127.0.0.1:$metrics_port"]}]
EOF
prometheus --config.file="$scratch/prometheus.yml" --storage.tsdb.path="$scratch/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" >"$scratch/prometheus.log" 2>&1 &
track prom $!
P="http://127.0.0.1:$prom_port"
q() { # q EXPR: the instant query's JSON result, at most 5 s
  timeout 5 promtool query instant -o json "$P" "$1" 2>"$err"
}
scraped() { test "$(q 'up{job="koord-queue-exporter"} == 1' | jq length)" = 1; }
check "Prometheus scrapes koordq" eventually 30 scraped
phase "control plane, koordq, Prometheus"

# --- the workload: about 40 s of arrivals, backoff, deletions, a priority change ------------------------
unit ml a1-job team-a1 Job 2 10
check "a1-job (Job) is admitted" eventually 10 unit_is ml a1-job '{.status.phase}' Dequeued
sleep 3
unit ml a1-pt team-a1 PyTorchJob 2 10 2 1
check "a1-pt (PyTorchJob, 2 workers) is admitted: team-a1 is full" eventually 10 unit_is ml a1-pt '{.status.phase}' Dequeued
sleep 3
unit research a1-tf team-a1 TFJob 2 5
check "a1-tf (TFJob) fails on team-a1's cpu and backs off" eventually 10 unit_is research a1-tf '{.status.message}' \
  'limited quotaName:team-a1, limited resKey:cpu,'
sleep 2
unit research a2-job team-a2 Job 1 0
unit default b1-tf team-b1 TFJob 1 0
check "a2-job and b1-tf are admitted" eventually 10 sh -c "
  test \"\$('$K' --kubeconfig '$KUBECONFIG' get queueunit -n research a2-job -o 'jsonpath={.status.phase}')\" = Dequeued &&
  test \"\$('$K' --kubeconfig '$KUBECONFIG' get queueunit -n default b1-tf -o 'jsonpath={.status.phase}')\" = Dequeued"
sleep 2
unit default b1-pt team-b1 PyTorchJob 2 0 2 1
check "b1-pt fails on team-b1's cpu" eventually 10 unit_is default b1-pt '{.status.message}' \
  'limited quotaName:team-b1, limited resKey:cpu,'
sleep 3
# The job extension's part: a1-pt's pods run (phase Running, admissions[].running).
check "a1-pt's job extension reports it Running" test "$(api PATCH "$(qu_path ml a1-pt)/status" \
  '{"status":{"phase":"Running","message":"Running","admissions":[{"name":"worker","replicas":2,"running":2}]}}')" = 200
check "a1-job's job extension reports it Running" test "$(api PATCH "$(qu_path ml a1-job)/status" \
  '{"status":{"phase":"Running","message":"Running","admissions":[{"name":"koord-queue/default-requirement","replicas":1,"running":1}]}}')" = 200
sleep 2
check "a1-tf's priority is raised" k patch queueunit -n research a1-tf --type merge -p '{"spec":{"priority":20}}'
unit research a1-low team-a1 Job 2 1
sleep 3
# Capacity freed: a1-job's job finishes and its unit is deleted; a1-tf (priority 20) goes before a1-low.
k delete queueunit -n ml a1-job >/dev/null
check "a1-tf is admitted once a1-job is gone" eventually 15 unit_is research a1-tf '{.status.phase}' Dequeued
check "a1-low still waits" test -z "$(unit_field research a1-low '{.status.admissions}')"
sleep 2
k delete queueunit -n default b1-tf >/dev/null
check "b1-pt is admitted once b1-tf is gone" eventually 15 unit_is default b1-pt '{.status.phase}' Dequeued
sleep 2
unit ml a2-pt team-a2 PyTorchJob 1 0 2 500m
check "a2-pt is admitted" eventually 10 unit_is ml a2-pt '{.status.phase}' Dequeued
phase "workload"

# --- the fault: etcd paused while koordq admits a unit --------------------------------------------------
# koordq is paused while a2-late is created, so its admission write reaches the API server only once
# etcd is paused: answered 504 after the API server's 2 s request timeout, then retried every 1 s.
# Right after the first 504 koordq is paused again, etcd resumed and a2-late deleted: the retry that
# is due when koordq continues is answered 404.
log_before_fault=$(wc -l <"$log")
signal STOP koordq
unit research a2-late team-a2 Job 1 0
sleep 0.5
signal STOP etcd
signal CONT koordq
for _ in $(seq 1 100); do
  curl -s --max-time 1 "$M/metrics" | grep -qE '^rest_client_requests_total\{code="5[0-9][0-9]",[^}]*method="PATCH"' && break
  sleep 0.1
done
signal STOP koordq
signal CONT etcd
k delete queueunit -n research a2-late --wait=false >/dev/null
sleep 1.5
signal CONT koordq
sleep 3
curl -s "$M/metrics" >"$scratch/fault.metrics"
log_after_fault=$(wc -l <"$log")
check "a PATCH answered 5xx while etcd was paused is counted" \
  grep -qE '^rest_client_requests_total\{code="5[0-9][0-9]",[^}]*method="PATCH"' "$scratch/fault.metrics"
check "the retry of the deleted unit's write, answered 4xx, is counted" \
  grep -qE '^rest_client_requests_total\{code="4[0-9][0-9]",[^}]*method="PATCH"' "$scratch/fault.metrics"
check "koordq keeps serving after the fault" eventually 10 curl -sf "$M/readyz"
curl -s -o /dev/null "$D/apis/v1/queue?revision=1" # a time-travel query for the time-travel panels
curl -s -o /dev/null "$D/apis/v1/queue?revision=2"
phase "fault"

# --- Prometheus: every dashboard expression has data ----------------------------------------------------
# Enough scrapes after the last change for every rate() to have two samples of each series.
sleep 4
jq -r '.panels[].targets[]?.expr' "$dash" | sed -e 's/\$job/koord-queue-exporter/g' -e 's/\$interval/5m/g' \
  -e 's/\$quota/.*/g; s/\$namespace/.*/g; s/\$resource/.*/g; s/\$queue/.*/g' >"$scratch/exprs"
check "every variable of the expressions is substituted" test "$(grep -c '\$' "$scratch/exprs")" = 0
# The only exemption: a labelled series exists only once its label combination has been observed
# (behaviour.md §15.4), and `code` is the status the API server answered (§15.2). kube-apiserver
# answers none of koordq's requests (LIST, WATCH, GET, PATCH, POST, DELETE of API objects) with a
# redirect, so no rest_client_requests_total series has a 3xx code on any cluster, and the 3xx line of
# "Kube API request rate" (both dashboards' panel 32) has no data. Every other expression,
# rest_client_* included, must return a sample.
exempt='code=~"3\.\."'
# evaluate WHAT EXPR: passes when EXPR returns a sample that is a number; NaN and ±Inf (e.g. a
# histogram_quantile over a window without observations) count as no data.
evaluate() {
  if ! q "$2" >"$scratch/result.json"; then
    fail "Prometheus rejects $1: $2"
  elif jq_true '[.[] | .value[1] | select(. != "NaN" and . != "+Inf" and . != "-Inf")] | length > 0' "$scratch/result.json"; then
    pass
  elif echo "$2" | grep -q "$exempt"; then
    echo "exempt (no 3xx from kube-apiserver): $1: $2"
    pass
  else
    fail "no data (or only NaN) for $1: $2 ($(head -c 200 "$scratch/result.json"))"
  fi
}
n_exprs=0
while IFS= read -r expr; do
  n_exprs=$((n_exprs + 1))
  evaluate "the dashboard's expression" "$expr"
done <"$scratch/exprs"
echo "dashboard expressions evaluated: $n_exprs"
check "the dashboard has its expressions" test "$n_exprs" -ge 40
# The Koord-Queue dashboard's expressions (dashboard.md), literally, with its variables set to values
# of this workload: $Resource cpu, $Quota team-a1 and $Namespace ml (both hold cpu), $interval 5m
# (its default).
grep -v '^#' "$repo/tests/e2e/dashboard_md_exprs.txt" |
  sed -e 's/\$Resource/cpu/g; s/\$Quota/team-a1/g; s/\$Namespace/ml/g; s/\$interval/5m/g' >"$scratch/md_exprs"
check "dashboard.md's 22 expressions are listed" test "$(wc -l <"$scratch/md_exprs")" = 22
check "every variable of dashboard.md's expressions is substituted" test "$(grep -c '\$' "$scratch/md_exprs")" = 0
while IFS=$'\t' read -r panel expr; do
  evaluate "dashboard.md panel $panel" "$expr"
done <"$scratch/md_exprs"

# Against the workload (Prometheus's view).
has_sample() { jq_true 'length > 0 and (.[0].value[1] | tonumber) > 0' <(q "$1"); }
check "team-a1 (over quota) has unschedulable attempts" has_sample 'job_schedule_attempts{queue="team-a1", result="unschedulable"}'
check "team-a1 has scheduled attempts" has_sample 'job_schedule_attempts{queue="team-a1", result="scheduled"}'
check "team-b1 has unschedulable attempts" has_sample 'job_schedule_attempts{queue="team-b1", result="unschedulable"}'
check "team-a2 has no unschedulable attempt" test "$(q 'job_schedule_attempts{queue="team-a2", result="unschedulable"} > 0' | jq length)" = 0
check "rest_client_requests_total counts PATCHes answered 200" has_sample 'rest_client_requests_total{method="PATCH", code="200"}'
check "rest_client_requests_total counts the initial LISTs (GET 200)" has_sample 'rest_client_requests_total{method="GET", code="200"}'
check "rest_client_request_duration_seconds observed the PATCHes" has_sample 'rest_client_request_duration_seconds_count{verb="PATCH"}'
check "rest_client_* name the API server as host" has_sample "rest_client_requests_total{host=\"${KOORDQ_APISERVER_URL#https://}\"}"
check "koordq_leader is 1" test "$(q 'koordq_leader{job="koord-queue-exporter"}' | jq -r '.[0].value[1]')" = 1
check "queueunits_by_job_type counts the three kinds" test \
  "$(q 'count by (type) (queueunits_by_job_type > 0)' | jq -c '[.[].metric.type] | sort')" = '["Job","PyTorchJob","TFJob"]'
check "queueunits_coming_rate_by_job_type saw PyTorchJobs enter Running" has_sample \
  'queueunits_coming_rate_by_job_type{namespace="ml", type="PyTorchJob", status="Running"}'
check "team-a1's dequeued cpu is a1-pt's 2 cores and a1-tf's 2 (millicores)" test \
  "$(q 'dequeued_quota_usage_by_quota{quota="team-a1", resource="cpu"}' | jq -r '.[0].value[1]')" = 4000
check "team-b1's dequeued cpu never went beyond its max of 2 cores" test \
  "$(q 'max_over_time(dequeued_quota_usage_by_quota{quota="team-b1", resource="cpu"}[5m])' | jq -r '.[0].value[1]')" = 2000
check "team-a1's dequeued cpu never went beyond its max of 4 cores" test \
  "$(q 'max_over_time(dequeued_quota_usage_by_quota{quota="team-a1", resource="cpu"}[5m])' | jq -r '.[0].value[1]')" = 4000
# a1-tf waited from its creation through the sleeps above (more than 12 s) until a1-job went.
echo "$(q 'koordq_admission_wait_seconds_count{queue="team-a1"} - ignoring(le) koordq_admission_wait_seconds_bucket{queue="team-a1", le="10"}' |
  jq -r '.[0].value[1]') $(q 'koordq_admission_wait_seconds_count{queue="team-a1"}' | jq -r '.[0].value[1]')" >"$out"
curl -s "$M/metrics" | grep '^koordq_admission_wait_seconds.*team-a1' >>"$out"
check "team-a1's admission waits: 3 admissions, one of them after more than 10 s" grep -qx '1 3' "$out"
check "koordq_relists_total: one LIST per watched resource, no relist" test \
  "$(q 'koordq_relists_total' | jq -c '[.[] | "\(.metric.resource)=\(.value[1])"] | sort')" = '["elasticquotas=1","queues=1","queueunits=1"]'
phase "Prometheus queries"

# --- one scrape: promtool's lint, no duplicate series ---------------------------------------------------
curl -s "$M/metrics" >"$scratch/scrape.prom"
promtool check metrics <"$scratch/scrape.prom" >"$scratch/lint.out" 2>&1
lint_code=$?
check "promtool check metrics exits 3 (lint findings only)" test "$lint_code" = 3
# Only Koord-Queue's counters may lack `_total` (behaviour.md §15.2); nothing else may be reported.
grep -vE '^(job_schedule_attempts|queueunits_coming_rate_by_job_type) counter metrics should have "_total" suffix$' \
  "$scratch/lint.out" >"$scratch/lint.other"
check "promtool's only findings are the Koord-Queue counters without _total" test ! -s "$scratch/lint.other"
check "both Koord-Queue counters are found" test "$(grep -c '_total" suffix' "$scratch/lint.out")" = 2
# The filter above lets another finding through: a doctored counter without `_total`.
{ cat "$scratch/scrape.prom"; printf '# HELP koordq_doctored A counter.\n# TYPE koordq_doctored counter\nkoordq_doctored 1\n'; } |
  promtool check metrics 2>&1 | grep -vE '^(job_schedule_attempts|queueunits_coming_rate_by_job_type) counter metrics' >"$out"
check "the lint filter reports a doctored counter without _total" grep -q '^koordq_doctored counter metrics should have "_total" suffix$' "$out"
duplicates() { grep -v '^#' "$1" | sed 's/ [^ ]*$//' | sort | uniq -d; }
check "the scrape has series" test "$(grep -vc '^#' "$scratch/scrape.prom")" -gt 100
check "no duplicate series in a scrape" test -z "$(duplicates "$scratch/scrape.prom")"
{ cat "$scratch/scrape.prom"; grep '^koordq_leader ' "$scratch/scrape.prom"; } >"$scratch/doctored.prom"
check "the duplicate check finds a doctored duplicate" test "$(duplicates "$scratch/doctored.prom")" = koordq_leader
# §15.3: rest_client_request_duration_seconds buckets, compared numerically.
rest_buckets() {
  sed -n 's/^rest_client_request_duration_seconds_bucket{.*verb="PATCH".*le="\([^"]*\)".*/\1/p; s/^rest_client_request_duration_seconds_bucket{.*le="\([^"]*\)".*verb="PATCH".*/\1/p' \
    "$scratch/scrape.prom" | jq -R -s -c 'split("\n") | map(select(length > 0) | if . == "+Inf" then . else tonumber end)'
}
check "rest_client_request_duration_seconds has the buckets of §15.3" test "$(rest_buckets)" = \
  '[0.005,0.025,0.1,0.25,0.5,1,2,4,8,15,30,60,"+Inf"]'
phase "scrape lint"

# --- queue depth gauges against the debug API -----------------------------------------------------------
# depths: per queue "name active backoff", sorted, from the debug API and from /metrics.
debug_depths() {
  curl -s "$D/apis/v1/queue" | jq -r 'to_entries[] | select(.key != "_unassigned")
    | "\(.key) \(.value.Active | length) \(.value.Backoff | length)"' | sort
}
metric_depths() {
  curl -s "$M/metrics" | awk -F'[{}" ]+' '
    /^queueunits_in_active_queue\{/ { a[$3] = $4 }
    /^queueunits_in_backoff_queue\{/ { b[$3] = $4 }
    END { for (n in a) print n, a[n], b[n] }' | sort
}
depths_agree() {
  debug_depths >"$scratch/debug.depths"
  metric_depths >"$scratch/metric.depths"
  [ -s "$scratch/debug.depths" ] && cmp -s "$scratch/debug.depths" "$scratch/metric.depths"
}
check "queueunits_in_{active,backoff}_queue equal the debug API's Active/Backoff per queue" eventually 15 depths_agree
check "for all six queues" test "$(wc -l <"$scratch/metric.depths")" = 6
check "team-a1's waiting unit (a1-low) is counted" grep -qE '^team-a1 (1 0|0 1)$' "$scratch/metric.depths"
# The usage annotations of every Queue (§14.3) agree with dequeued_quota_usage_by_quota, also after
# the Queue writes answered 504 during the fault.
metric_usage() {
  curl -s "$M/metrics" | sed -n 's/^dequeued_quota_usage_by_quota{quota="\([^"]*\)",resource="\([^"]*\)"} \(.*\)$/\1 \2 \3/p' |
    jq -R -s -S -c 'split("\n") | map(select(length > 0) | split(" ") | select(.[2] != "0"))
      | group_by(.[0]) | map({(.[0][0]): (map({(.[1]): (.[2] | tonumber)}) | add)}) | add'
}
annotation_usage() {
  k get queues -n koord-queue -o json | jq -S -c '[.items[] | {(.metadata.name):
    (.metadata.annotations["alibabacloud.com/queue-used"] // "{}" | fromjson)} | select(.[] != {})] | add'
}
usage_agrees() {
  metric_usage >"$scratch/usage.metric"
  annotation_usage >"$scratch/usage.annotation"
  jq -e 'length >= 4' "$scratch/usage.metric" && cmp -s "$scratch/usage.metric" "$scratch/usage.annotation"
}
check "every Queue's queue-used annotation equals dequeued_quota_usage_by_quota" eventually 10 usage_agrees
phase "queue depths and usage"


# --- series lifecycle (§15.4): namespace series stay, at 0, until the namespace has had no unit for 5 min -
# ml lost its only Job (a1-job) and default its only TFJob (b1-tf); both namespaces still have units.
curl -s "$M/metrics" >"$scratch/lifecycle.prom"
namespace_series() { grep -E '^(queueunits_by_job_type|dequeued_quota_usage_by_namespace)\{' "$scratch/lifecycle.prom" >"$out"; }
namespace_series
check "queueunits_by_job_type{namespace=\"ml\",type=\"Job\"} stays, at 0, after ml's last Job went" \
  grep -qx 'queueunits_by_job_type{namespace="ml",type="Job"} 0' "$scratch/lifecycle.prom"
check "queueunits_by_job_type{namespace=\"default\",type=\"TFJob\"} stays, at 0, after default's last TFJob went" \
  grep -qx 'queueunits_by_job_type{namespace="default",type="TFJob"} 0' "$scratch/lifecycle.prom"
# default's last unit goes: its series stay at 0 (the namespace has been empty for less than 5 min).
k delete queueunit -n default b1-pt >/dev/null
check "the debug API no longer lists namespace default" eventually 10 sh -c "curl -s '$D/apis/v1/userquota' | jq -e 'has(\"default\") | not'"
curl -s "$M/metrics" >"$scratch/lifecycle.prom"
namespace_series
check "dequeued_quota_usage_by_namespace{namespace=\"default\",resource=\"cpu\"} stays at 0 after default's last unit went" \
  grep -qx 'dequeued_quota_usage_by_namespace{namespace="default",resource="cpu"} 0' "$scratch/lifecycle.prom"
check "queueunits_by_job_type{namespace=\"default\",type=\"PyTorchJob\"} stays at 0 after default's last unit went" \
  grep -qx 'queueunits_by_job_type{namespace="default",type="PyTorchJob"} 0' "$scratch/lifecycle.prom"
check "queueunits_coming_rate_by_job_type of namespace default stays" \
  grep -q '^queueunits_coming_rate_by_job_type{namespace="default",type="PyTorchJob",status="Dequeued"} 1$' "$scratch/lifecycle.prom"
phase "series lifecycle"

signal TERM koordq
wait "${pid[koordq]}" 2>/dev/null
check "SIGTERM ends serve with exit 0 (nothing else stopped it before)" test "$?" = 0
pid[koordq]=""
verify_journal "the restarted serve's journal" "$journal"
# Outside the fault nothing is logged at level E. During it, only failed Queue writes (§14.1: written
# again later, as the usage check above saw): answered 504, or the connection the API server closed.
{ head -n "$log_before_fault" "$log"; tail -n "+$((log_after_fault + 1))" "$log"; } | grep -E '^E' >"$out"
check "koordq logged no error before or after the fault" test ! -s "$out"
sed -n "$((log_before_fault + 1)),${log_after_fault}p" "$log" | grep -E '^E' |
  grep -vE 'api_writer.cpp:[0-9]+\] write of Queue koord-queue/[a-z0-9-]+ (answered 504: .*"reason":"Timeout"|failed: PATCH )' >"$out"
check "during the fault only failed Queue writes are logged" test ! -s "$out"
finish
