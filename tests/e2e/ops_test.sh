#!/usr/bin/env bash
# The operations bundle (ops/, docs/operations.md) against the real tools:
# - the Grafana dashboard: tests/controlplane/check-dashboard.sh (schema fields and types, PromQL
#   syntax, job selector) and its generator (ops/grafana/build-dashboard.py) reproducing it byte for
#   byte;
# - Prometheus: promtool check config (exporter.yaml) and check rules, the rules' unit tests;
# - kustomize: every overlay rendered by kubectl 1.20 (Debian's kubernetes-client, unpacked into the
#   control plane's cache by build-kube-apiserver.sh) and by every kubectl on the machine, with the
#   same output;
# - the rendered manifests: the RBAC of behaviour.md §2.1 exactly, the StatefulSet's shape;
# - the real kube-apiserver of tests/controlplane with --authorization-mode=RBAC: every overlay
#   accepted by `kubectl apply --dry-run=server` (oldest and newest kubectl), the base applied for
#   real, the CRDs keeping fields they do not type and printing their columns, the ServiceAccount
#   allowed every verb of §2.1 (kubectl auth can-i, and real requests as the ServiceAccount) and
#   denied others, the APIService without endpoints while no replica leads, then Available and
#   proxying `kubectl get --raw` to a koordq visibility server once its Service has an endpoint;
# - a real Prometheus scraping `koordq serve --simulate` with the job of exporter.yaml (static
#   target instead of pod discovery) and the alert rules loaded: every dashboard expression returns
#   data (variables at their defaults, All = .*), except the exemptions listed below;
# - the journal commands docs/operations.md gives: a live export verified and replayed, a
#   checkpoint once serve has stopped, an audit export.
# Usage: ops_test.sh path/to/koordq
# shellcheck disable=SC2016 # jq programs and PromQL are single-quoted on purpose
set -uo pipefail

koordq="$(readlink -f "${1:?usage: ops_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

repo="$(cd "$(dirname "$0")/../.." && pwd)"
ops="$repo/ops"
cache="${KOORDQ_CONTROLPLANE_CACHE:-/var/cache/koordq-controlplane}"
sa=system:serviceaccount:koord-queue:koordq

plane=""
serve_pid=""
vis_pid=""
prom_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null
  [ -n "$vis_pid" ] && kill "$vis_pid" 2>/dev/null
  [ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null
  [ -n "$plane" ] && stop_control_plane "$plane"
  wait 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

phase_start=$SECONDS
phase() { # phase NAME: prints the duration of the phase that just ended
  echo "phase $1: $((SECONDS - phase_start)) s"
  phase_start=$SECONDS
}
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

for tool in promtool prometheus jq curl /usr/bin/python3; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (scripts/install-deps.sh installs prometheus, jq, curl and python3)"; exit 1; }
done

# --- koordq serve --simulate and Prometheus start first: they gather samples meanwhile -----------------
journal="$scratch/journal"
log="$scratch/serve.log"
(cd "$scratch" && exec "$koordq" serve --simulate --simulate-clock=wall --simulate-speed 4 --journal-dir "$journal" \
  --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0) >"$log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 200); do
  grep -q 'curl http://127.0.0.1:[0-9]*/metrics' "$log" && break
  sleep 0.1
done
metrics_port=$(sed -n 's|.*curl http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$log" | head -n1)
debug_port=$(sed -n 's|.*curl http://127.0.0.1:\([0-9]*\)/apis/v1/queue.*|\1|p' "$log" | head -n1)
if [ -z "$metrics_port" ] || [ -z "$debug_port" ]; then
  echo "FAIL: serve --simulate did not print its curl lines"
  sed 's/^/  log: /' "$log" | head -n 30
  exit 1
fi
timetravel() { curl -s -o /dev/null "http://127.0.0.1:$debug_port/apis/v1/queue?revision=1"; }
timetravel

# The scrape job of exporter.yaml, with a static target in place of pod discovery and its relabelling.
prom_port=$(free_port)
/usr/bin/python3 - "$ops/prometheus/exporter.yaml" "127.0.0.1:$metrics_port" "$ops/prometheus/alerts.yaml" \
  >"$scratch/prometheus.yml" <<'EOF'
import sys, yaml
exporter, target, rules = sys.argv[1:4]
job = yaml.safe_load(open(exporter))["scrape_configs"][0]
assert job["job_name"] == "koord-queue-exporter", job["job_name"]
assert job["kubernetes_sd_configs"][0]["role"] == "pod"
assert any(r.get("action") == "keep" and r.get("regex") == "metrics" and
           r["source_labels"] == ["__meta_kubernetes_pod_container_port_name"] for r in job["relabel_configs"])
del job["kubernetes_sd_configs"], job["relabel_configs"]
job.update(static_configs=[{"targets": [target]}], scrape_interval="1s", scrape_timeout="1s")
yaml.safe_dump({"global": {"evaluation_interval": "1s"}, "rule_files": [rules], "scrape_configs": [job]},
               sys.stdout)
EOF
check "exporter.yaml: job koord-queue-exporter, pod discovery, keep on the port named metrics" test -s "$scratch/prometheus.yml"
prometheus --config.file="$scratch/prometheus.yml" --storage.tsdb.path="$scratch/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" >"$scratch/prometheus.log" 2>&1 &
prom_pid=$!
P="http://127.0.0.1:$prom_port"
phase "start koordq and Prometheus"

# --- Grafana dashboard -----------------------------------------------------------------------------------
dash="$ops/grafana/koordq-dashboard.json"
if bash "$controlplane_dir/check-dashboard.sh" --expr-must-match 'job=~"\$job"' "$dash" >"$out" 2>"$err"; then pass; else
  fail "check-dashboard.sh rejects $dash"
fi
/usr/bin/python3 "$ops/grafana/build-dashboard.py" >"$scratch/dashboard.json"
check "koordq-dashboard.json is what build-dashboard.py writes" cmp "$scratch/dashboard.json" "$dash"
check "no hard-coded datasource uid" jq_true '[.. | objects | select(has("datasource")) | .datasource
  | select(type == "object" and .type == "prometheus") | .uid] | length > 50 and all(. == "${datasource}")' "$dash"
check "only Grafana's built-in annotation names another datasource" jq_true '[.. | objects | select(has("datasource")) | .datasource
  | select(type != "object" or .type != "prometheus")] == [{"type": "grafana", "uid": "-- Grafana --"}]' "$dash"
check "datasource variable, job defaulting to koord-queue-exporter, All on quota/namespace/resource" jq_true '
  (.templating.list | map({(.name): .}) | add) as $v
  | $v.datasource.type == "datasource" and $v.datasource.query == "prometheus"
  and $v.job.current.value == "koord-queue-exporter"
  and ([$v.quota, $v.namespace, $v.resource, $v.queue] | all(.includeAll and .allValue == ".*" and .current.value == "$__all"))' "$dash"
# Every Koord-Queue panel (dashboard.md) by id, with its unit: cores, bytes, milliseconds.
check "Koord-Queue's panels are present with correct units" jq_true '
  ([.panels[] | {(.id | tostring): .fieldConfig.defaults.unit}] | add) as $u
  | $u["6"] == "suffix: cores" and $u["8"] == "suffix: cores" and $u["16"] == "suffix: cores"
  and $u["24"] == "bytes" and $u["25"] == "bytes" and $u["18"] == "bytes"
  and $u["2"] == "ms" and $u["33"] == "s" and $u["32"] == "reqps"
  and ([$u["26"], $u["27"], $u["30"], $u["31"], $u["4"], $u["10"]] | all(. != null))' "$dash"
for family in queueunits_in_active_queue queueunits_in_backoff_queue koordq_admission_wait_seconds_bucket \
  job_scheduling_e2e_latency_bucket koordq_journal_appended_records_total koordq_journal_fsync_duration_seconds_bucket \
  koordq_journal_ingest_lag_seconds koordq_relists_total koordq_leader koordq_last_applied_sequence \
  koordq_journal_quarantines_total; do
  check "a panel plots $family" jq_true --arg f "$family" '[.panels[].targets[]?.expr | select(contains($f))] | length > 0' "$dash"
done
phase "dashboard"

# --- Prometheus configuration and rules ------------------------------------------------------------------
# Debian's Prometheus is built without Kubernetes service discovery, so promtool cannot check
# exporter.yaml itself (kubernetes_sd_configs is unknown to it); the derived configuration, the
# same job with a static target, is checked and used.
check "promtool check config of the test's derived configuration" promtool check config "$scratch/prometheus.yml"
# docs/operations.md's commands run in a directory that has the repository's ops/; what they write stays there.
work="$scratch/work"
mkdir -p "$work"
ln -s "$ops" "$work/ops"
cd "$work" || exit 1
check "promtool check rules alerts.yaml" promtool check rules ops/prometheus/alerts.yaml
if (cd ops/prometheus && promtool test rules rules_test.yaml) >"$out" 2>"$err"; then pass; else
  fail "promtool test rules rules_test.yaml"
fi
for alert in KoordqNoLeader KoordqNoSchedulingProgress KoordqJournalFsyncSlow KoordqIngestLagHigh \
  KoordqRelistStorm KoordqJournalQuarantined KoordqTargetDown; do
  check "alert $alert has a unit test" grep -q "alertname: $alert\$" "$ops/prometheus/rules_test.yaml"
done
check "ops/prometheus/podmonitor.yaml is the overlay's PodMonitor" cmp "$ops/prometheus/podmonitor.yaml" \
  "$ops/kubernetes/overlays/podmonitor/podmonitor.yaml"
phase "prometheus rules"

# --- kustomize with kubectl 1.20 and every kubectl on the machine ---------------------------------------
# kubectl 1.20 (kustomize v2.0.3) is the oldest the manifests promise to work with. Debian's
# kubernetes-client ships it but clashes with an installed kubectl: build-kube-apiserver.sh unpacks
# it into the control plane's cache, next to the kube-apiserver the tests below start.
if ! build_kube_apiserver "$scratch/build.log"; then
  echo "FAIL: building kube-apiserver failed:"
  tail -n 20 "$scratch/build.log"
  exit 1
fi
k120="$cache/kubectl"
# Every kubectl here, each once (by its real path): the control plane's 1.20, the one on PATH
# (Debian's kubernetes-client, or another), google-cloud-cli's versioned ones, KOORDQ_KUBECTL; the
# last is the newest.
kubectls=()
declare -A seen_kubectl=()
for k in "$k120" "$(command -v kubectl)" /usr/lib/google-cloud-sdk/bin/kubectl.1.* "${KOORDQ_KUBECTL:-}"; do
  if [ -z "$k" ] || [ ! -x "$k" ]; then continue; fi
  real="$(readlink -f "$k")"
  [ -n "${seen_kubectl[$real]:-}" ] && continue
  seen_kubectl[$real]=1
  kubectls+=("$k")
done
if [ ${#kubectls[@]} -lt 2 ]; then
  echo "FAIL: fewer than two kubectl versions (${kubectls[*]}); install google-cloud-cli's kubectl"
  exit 1
fi
oldest="${kubectls[0]}"
newest="${kubectls[-1]}"
overlays=(base overlays/visibility overlays/podmonitor)
render() { echo "$scratch/render-$(echo "$1" | tr / _).yaml"; }
for o in "${overlays[@]}"; do
  "$oldest" kustomize "$ops/kubernetes/$o" >"$(render "$o")" 2>"$err" || fail "kubectl 1.20 kustomize $o"
  for k in "${kubectls[@]:1}"; do
    if "$k" kustomize "$ops/kubernetes/$o" >"$out" 2>"$err" && cmp -s "$out" "$(render "$o")"; then pass; else
      fail "$(basename "$k") kustomize $o fails or differs from kubectl 1.20's output"
    fi
  done
done
echo "kubectl versions: $(for k in "${kubectls[@]}"; do "$k" version --client -o json 2>/dev/null | jq -r .clientVersion.gitVersion; done | tr '\n' ' ')"

# The rendered objects, as JSON lines, for the checks below.
/usr/bin/python3 -c 'import sys, yaml, json
for d in yaml.safe_load_all(open(sys.argv[1])):
    print(json.dumps(d))' "$(render overlays/visibility)" >"$scratch/objects.json"
kinds() { jq -r '.kind' "$scratch/objects.json" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' '; }
check "kinds of the visibility overlay" test "$(kinds)" = "APIService=1 ClusterRole=1 ClusterRoleBinding=1 ConfigMap=1 CustomResourceDefinition=2 Namespace=1 Role=5 RoleBinding=6 Service=2 ServiceAccount=1 StatefulSet=1 "
# behaviour.md §2.1, exactly: binding kind, namespace, group, resource, resourceNames, verbs.
jq -c -s '[.[] | select(.kind == "Role" or .kind == "ClusterRole") | . as $r | .rules[]
  | {role: $r.kind, ns: ($r.metadata.namespace // ""), group: .apiGroups[0], resources, names: (.resourceNames // []), verbs}]
  ' "$scratch/objects.json" >"$scratch/rules.json"
cat >"$scratch/rules.expected" <<'EOF'
{"role":"ClusterRole","ns":"","group":"","resources":["events"],"names":[],"verbs":["create","patch"]}
{"role":"ClusterRole","ns":"","group":"apiregistration.k8s.io","resources":["apiservices"],"names":["v1alpha1.visibility.koord-queue.x-k8s.io"],"verbs":["get","patch"]}
{"role":"ClusterRole","ns":"","group":"authorization.k8s.io","resources":["subjectaccessreviews"],"names":[],"verbs":["create"]}
{"role":"ClusterRole","ns":"","group":"","resources":["namespaces"],"names":["kube-system"],"verbs":["get"]}
{"role":"ClusterRole","ns":"","group":"scheduling.sigs.k8s.io","resources":["elasticquotas"],"names":[],"verbs":["list","watch"]}
{"role":"ClusterRole","ns":"","group":"scheduling.x-k8s.io","resources":["queueunits"],"names":[],"verbs":["get","list","watch","patch"]}
{"role":"ClusterRole","ns":"","group":"scheduling.x-k8s.io","resources":["queueunits/status"],"names":[],"verbs":["patch"]}
{"role":"Role","ns":"default","group":"coordination.k8s.io","resources":["leases"],"names":["example-lease"],"verbs":["get"]}
{"role":"Role","ns":"koord-queue","group":"","resources":["pods"],"names":[],"verbs":["get","patch"]}
{"role":"Role","ns":"koord-queue","group":"","resources":["configmaps"],"names":["koordq-journal-witness"],"verbs":["get","patch"]}
{"role":"Role","ns":"koord-queue","group":"coordination.k8s.io","resources":["leases"],"names":[],"verbs":["get","create","update"]}
{"role":"Role","ns":"koord-queue","group":"scheduling.x-k8s.io","resources":["queues"],"names":[],"verbs":["get","list","watch","create","patch","delete"]}
{"role":"Role","ns":"koord-queue","group":"scheduling.x-k8s.io","resources":["queues/status"],"names":[],"verbs":["patch"]}
EOF
check "the Roles carry exactly the rules of behaviour.md §2.1" test "$(jq -c '.[]' "$scratch/rules.json" | sort)" = "$(sort "$scratch/rules.expected")"
check "every binding names the ServiceAccount; kube-system binds extension-apiserver-authentication-reader" jq_true -s '
  [.[] | select(.kind | endswith("Binding"))] as $b
  | ($b | all(.subjects == [{"kind": "ServiceAccount", "name": "koordq", "namespace": "koord-queue"}]))
  and ($b | length == 7)
  and ($b | any(.metadata.namespace == "kube-system" and .roleRef == {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "extension-apiserver-authentication-reader"}))' \
  "$scratch/objects.json"
check "StatefulSet: 2 replicas, a journal claim per replica, downward-API env, named ports, probes, resources" jq_true -s '
  .[] | select(.kind == "StatefulSet") | .spec as $s | $s.template.spec.containers[0] as $c
  | $s.replicas == 2 and $s.volumeClaimTemplates[0].metadata.name == "journal"
  and ($c.volumeMounts | any(.name == "journal"))
  and ([$c.env[] | {(.name): .valueFrom.fieldRef.fieldPath}] | add) == {"POD_NAME": "metadata.name", "POD_NAMESPACE": "metadata.namespace"}
  and ([$c.ports[] | {(.name): .containerPort}] | add) == {"metrics": 10259, "visibility": 8082, "debug": 19876}
  and $c.livenessProbe.httpGet == {"path": "/healthz", "port": "metrics"}
  and $c.readinessProbe.httpGet == {"path": "/readyz", "port": "metrics"}
  and $c.resources.requests.cpu != null and $c.resources.requests.memory != null and $c.resources.limits.memory != null
  and $s.template.spec.serviceAccountName == "koordq"' "$scratch/objects.json"
check "the visibility Service selects the leader only; the APIService points at it and verifies it (no insecureSkipTLSVerify)" jq_true -s '
  (.[] | select(.kind == "Service" and .metadata.name == "koordq-visibility") | .spec.selector["koord-queue-leader"] == "true")
  and (.[] | select(.kind == "APIService") | .metadata.name == "v1alpha1.visibility.koord-queue.x-k8s.io"
       and .spec.service == {"name": "koordq-visibility", "namespace": "koord-queue", "port": 443}
       and (.spec | has("insecureSkipTLSVerify") | not))' "$scratch/objects.json"
# The serve flags of the StatefulSet are flags serve knows (an unknown flag would end it with code 2).
for arg in $(jq -r 'select(.kind == "StatefulSet") | .spec.template.spec.containers[0].args[1:][]' "$scratch/objects.json"); do
  check "serve --help documents ${arg%%=*}" grep -q -- "^  ${arg%%=*} " <("$koordq" serve --help)
done
phase "kustomize ($(( ${#kubectls[@]} )) kubectl versions)"
timetravel

# --- the real kube-apiserver, RBAC on -------------------------------------------------------------------
plane="$scratch/cp"
KOORDQ_APISERVER_AUTHORIZATION=RBAC start_control_plane "$plane"
kc() { "$newest" "$@"; }
kc apply -f "$repo/tests/fixtures/podmonitor-crd.yaml" >"$out" 2>"$err" || fail "apply the PodMonitor CRD fixture"
kc wait --for condition=Established --timeout=30s crd/podmonitors.monitoring.coreos.com >"$out" 2>"$err" || fail "PodMonitor CRD Established"
phase "control plane"

for o in "${overlays[@]}"; do
  for k in "$oldest" "$newest"; do
    if "$k" apply --dry-run=server -f "$(render "$o")" >"$out" 2>"$err"; then pass; else
      fail "$(basename "$k") apply --dry-run=server of $o"
    fi
  done
done
# The Koord-Queue drop-in layout (kubectl >= 1.21 renders it) is accepted too.
if "$newest" kustomize "$ops/kubernetes/overlays/koord-queue-compat" >"$scratch/compat.yaml" 2>"$err"; then
  check "$(basename "$newest") apply --dry-run=server of overlays/koord-queue-compat" \
    "$newest" apply --dry-run=server -f "$scratch/compat.yaml"
else
  fail "$(basename "$newest") kustomize overlays/koord-queue-compat"
fi
# The PodMonitor keeps every field it sets (the fixture's schema prunes unknown ones).
kc apply --dry-run=server -o json -f "$(render overlays/podmonitor)" >"$scratch/pm.json" 2>"$err"
check "the PodMonitor survives the API server unchanged" jq_true '
  [.items[]? // . | select(.kind == "PodMonitor")][0].spec.podMetricsEndpoints[0]
  | .port == "metrics" and .honorLabels == true and (.relabelings | any(.targetLabel == "job" and .replacement == "koord-queue-exporter"))' "$scratch/pm.json"

# The base for real (the control plane created its CRDs and namespace already: apply updates them).
kc apply -f "$(render base)" >"$out" 2>"$err" || fail "kubectl apply of the base"
kc wait --for condition=Established --timeout=30s crd/queueunits.scheduling.x-k8s.io crd/queues.scheduling.x-k8s.io >"$out" 2>"$err" ||
  fail "the CRDs of the base are Established"
# Fields the CRD does not type (a newer Koord-Queue, a job extension) are kept, in spec and status.
cat >"$scratch/qu.json" <<'EOF'
{"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "QueueUnit", "metadata": {"name": "job-a", "namespace": "default"},
 "spec": {"consumerRef": {"apiVersion": "batch/v1", "kind": "Job", "name": "job-a", "namespace": "default"},
          "priority": 7, "queue": "team-a", "resource": {"cpu": "2", "memory": "4Gi"}, "futureSpecField": {"x": 1},
          "podSet": [{"name": "main", "count": 2, "template": {"spec": {"containers": [{"name": "c", "image": "busybox",
            "resources": {"requests": {"cpu": "1"}}}]}}}]}}
EOF
kc create -f "$scratch/qu.json" >"$out" 2>"$err" || fail "create a QueueUnit"
sleep 1
kc get --raw /apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/queueunits/job-a >"$scratch/qu.out" 2>"$err"
check "the QueueUnit CRD keeps fields it does not type" jq_true '.spec.futureSpecField.x == 1 and .spec.podSet[0].template.spec.containers[0].image == "busybox"' "$scratch/qu.out"
curl -sS -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
  -H 'Content-Type: application/merge-patch+json' -X PATCH \
  -d '{"status": {"phase": "Running", "attempts": 3, "reclaimablePods": [{"name": "main", "count": 1}], "futureStatusField": "kept"}}' \
  "$KOORDQ_APISERVER_URL/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/queueunits/job-a/status" >"$scratch/qu.out" 2>"$err"
check "status keeps fields the CRD does not type" jq_true '.status.futureStatusField == "kept" and .status.reclaimablePods[0].count == 1' "$scratch/qu.out"
kc get queueunits -n default >"$out" 2>"$err"
check "QueueUnit printer columns: phase, priority, queue, attempts, age" grep -Eq '^NAME +PHASE +PRIORITY +QUEUE +ATTEMPTS +AGE$' "$out"
check "QueueUnit printer column values" grep -Eq '^job-a +Running +7 +team-a +3 +[0-9]+s$' "$out"

# RBAC: every verb of behaviour.md §2.1 is allowed to the ServiceAccount, others are denied.
# verb group resource subresource namespace name ("-" = empty)
allowed=(
  "get scheduling.x-k8s.io queueunits - - -" "list scheduling.x-k8s.io queueunits - - -"
  "watch scheduling.x-k8s.io queueunits - - -" "patch scheduling.x-k8s.io queueunits - default job-a"
  "patch scheduling.x-k8s.io queueunits status default job-a"
  "list scheduling.sigs.k8s.io elasticquotas - - -" "watch scheduling.sigs.k8s.io elasticquotas - - -"
  "create - events - default -" "patch - events - default job-a.1"
  "get scheduling.x-k8s.io queues - koord-queue team-a" "list scheduling.x-k8s.io queues - koord-queue -"
  "watch scheduling.x-k8s.io queues - koord-queue -"
  "create scheduling.x-k8s.io queues - koord-queue -" "patch scheduling.x-k8s.io queues - koord-queue team-a"
  "delete scheduling.x-k8s.io queues - koord-queue team-a" "patch scheduling.x-k8s.io queues status koord-queue team-a"
  "get coordination.k8s.io leases - koord-queue koordq" "create coordination.k8s.io leases - koord-queue -"
  "update coordination.k8s.io leases - koord-queue koordq" "get coordination.k8s.io leases - default example-lease"
  "get - pods - koord-queue koordq-0" "patch - pods - koord-queue koordq-0"
  "get - configmaps - kube-system extension-apiserver-authentication"
  "watch - configmaps - kube-system extension-apiserver-authentication"
  "create authorization.k8s.io subjectaccessreviews - - -"
  "get apiregistration.k8s.io apiservices - - v1alpha1.visibility.koord-queue.x-k8s.io"
  "patch apiregistration.k8s.io apiservices - - v1alpha1.visibility.koord-queue.x-k8s.io"
  "get - namespaces - - kube-system"
  "get - configmaps - koord-queue koordq-journal-witness" "patch - configmaps - koord-queue koordq-journal-witness")
denied=(
  "delete scheduling.x-k8s.io queueunits - default job-a" "create scheduling.x-k8s.io queueunits - default -"
  "update scheduling.x-k8s.io queueunits status default job-a" "get scheduling.sigs.k8s.io elasticquotas - default team-a"
  "patch scheduling.sigs.k8s.io elasticquotas - default team-a" "list scheduling.x-k8s.io queues - default -"
  "update scheduling.x-k8s.io queues - koord-queue team-a" "delete coordination.k8s.io leases - koord-queue koordq"
  "get coordination.k8s.io leases - default other-lease" "update coordination.k8s.io leases - default example-lease"
  "list - pods - koord-queue -" "get - pods - default koordq-0" "get - secrets - koord-queue token"
  "get - configmaps - kube-system other" "list - configmaps - kube-system -" "delete - events - default job-a.1"
  "patch apiregistration.k8s.io apiservices - - v1beta1.metrics.k8s.io" "list apiregistration.k8s.io apiservices - - -"
  "update apiregistration.k8s.io apiservices - - v1alpha1.visibility.koord-queue.x-k8s.io"
  "get - namespaces - - default" "list - namespaces - - -"
  "create - configmaps - koord-queue -" "update - configmaps - koord-queue koordq-journal-witness"
  "delete - configmaps - koord-queue koordq-journal-witness" "patch - configmaps - koord-queue other"
  "list - configmaps - koord-queue -" "patch - configmaps - default koordq-journal-witness")
# A SubjectAccessReview per row, all created by one kubectl call; status.allowed is the answer.
reviews() { # reviews ROW...: a List of SubjectAccessReviews for the ServiceAccount
  printf '%s\n' "$@" | jq -R -s --arg sa "$sa" '{apiVersion: "v1", kind: "List", items: [split("\n")[] | select(. != "")
    | split(" ") | map(if . == "-" then "" else . end)
    | {apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview",
       spec: {user: $sa, groups: ["system:serviceaccounts", "system:serviceaccounts:koord-queue", "system:authenticated"],
              resourceAttributes: {verb: .[0], group: .[1], resource: .[2], subresource: .[3], namespace: .[4], name: .[5]}}}]}'
}
answers() { # answers ROW...: a line "true|false ROW" per row
  reviews "$@" | kc create -f - -o json 2>"$err" | jq -r 'if .kind == "List" then .items[] else . end
    | "\(.status.allowed) \(.spec.resourceAttributes | [.verb, .group, .resource, .subresource, .namespace, .name]
        | map(if . == "" or . == null then "-" else . end) | join(" "))"'
}
answers "${allowed[@]}" >"$scratch/allowed.out"
answers "${denied[@]}" >"$scratch/denied.out"
check "an answer per review (allowed)" test "$(wc -l <"$scratch/allowed.out")" = "${#allowed[@]}"
check "an answer per review (denied)" test "$(wc -l <"$scratch/denied.out")" = "${#denied[@]}"
while read -r answer rest; do
  if [ "$answer" = true ]; then pass; else fail "the ServiceAccount may not: $rest"; fi
done <"$scratch/allowed.out"
while read -r answer rest; do
  if [ "$answer" = true ]; then fail "the ServiceAccount may, but must not: $rest"; else pass; fi
done <"$scratch/denied.out"
# kubectl auth can-i (impersonation, SelfSubjectAccessReview) agrees; one of each kind.
can() { kc auth can-i --as="$sa" "$@" >/dev/null 2>&1; }
check "kubectl auth can-i: patch queueunits/status" can patch queueunits.scheduling.x-k8s.io --subresource=status -A
check "kubectl auth can-i: get the legacy Lease" can get leases.coordination.k8s.io/example-lease -n default
if can delete queueunits.scheduling.x-k8s.io -A; then fail "kubectl auth can-i: delete queueunits is allowed"; else pass; fi
# Real requests as the ServiceAccount, the way koordq makes them.
as() { kc --as="$sa" "$@" >"$out" 2>"$err"; }
check "as the ServiceAccount: list QueueUnits in all namespaces" as get queueunits.scheduling.x-k8s.io -A
# kubectl patch --subresource=status GETs the status first, which koordq never does: send koordq's
# merge-PATCH itself, impersonating the ServiceAccount.
as_patch() { # as_patch PATH BODY: merge-PATCH as the ServiceAccount; prints the HTTP code
  curl -sS -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
    -H "Impersonate-User: $sa" -H 'Impersonate-Group: system:serviceaccounts' -H 'Impersonate-Group: system:serviceaccounts:koord-queue' \
    -H 'Content-Type: application/merge-patch+json' -X PATCH -d "$2" -o "$out" -w '%{http_code}' "$KOORDQ_APISERVER_URL$1"
}
check "as the ServiceAccount: merge-PATCH a QueueUnit's status" test "$(as_patch \
  /apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/queueunits/job-a/status \
  '{"status": {"phase": "Dequeued", "message": "Dequeued because schedule successfully"}}')" = 200
check "as the ServiceAccount: merge-PATCH spec.queue" as patch queueunits.scheduling.x-k8s.io job-a -n default --type=merge -p '{"spec": {"queue": "team-b"}}'
check "as the ServiceAccount: list ElasticQuotas" as get elasticquotas.scheduling.sigs.k8s.io -A
printf '{"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "Queue", "metadata": {"name": "team-a", "namespace": "koord-queue"}, "spec": {"queuePolicy": "Priority", "priority": 1000}}' >"$scratch/queue.json"
check "as the ServiceAccount: create a Queue" as create -f "$scratch/queue.json"
check "as the ServiceAccount: merge-PATCH a Queue's status" test "$(as_patch \
  /apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues/team-a/status \
  '{"status": {"queueItemDetails": {"active": [], "backoff": []}}}')" = 200
check "as the ServiceAccount: delete a Queue" as delete queues.scheduling.x-k8s.io team-a -n koord-queue
printf '{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "koordq", "namespace": "koord-queue"}, "spec": {"holderIdentity": "koordq-0_1", "leaseDurationSeconds": 15}}' >"$scratch/lease.json"
check "as the ServiceAccount: create the election Lease" as create -f "$scratch/lease.json"
check "as the ServiceAccount: update the election Lease" as replace -f <(kc get lease koordq -n koord-queue -o json | jq '.spec.holderIdentity = "koordq-1_2"')
printf '{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "example-lease", "namespace": "default"}, "spec": {}}' | kc create -f - >/dev/null 2>&1
check "as the ServiceAccount: read the legacy Lease" as get lease example-lease -n default
check "as the ServiceAccount: read the request-header CA" as get configmap extension-apiserver-authentication -n kube-system
printf '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "koordq-0", "namespace": "koord-queue"}, "spec": {"containers": [{"name": "koordq", "image": "koordq:0.1.0"}]}}' | kc create -f - >/dev/null 2>&1
check "as the ServiceAccount: label its own Pod leader" as patch pod koordq-0 -n koord-queue --type=merge -p '{"metadata": {"labels": {"koord-queue-leader": "true"}}}'
printf '{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "job-a.1", "namespace": "default"}, "involvedObject": {"kind": "QueueUnit", "name": "job-a", "namespace": "default"}, "reason": "Dequeued", "message": "m", "type": "Normal", "source": {"component": "koord-queue-controller"}}' >"$scratch/event.json"
check "as the ServiceAccount: create an Event" as create -f "$scratch/event.json"
if as delete queueunits.scheduling.x-k8s.io job-a -n default; then fail "the ServiceAccount deleted a QueueUnit"; else
  check "a denied request names RBAC's Forbidden" grep -q Forbidden "$err"
fi
phase "RBAC and the CRDs on the real kube-apiserver"
timetravel

# The visibility overlay for real: with no leader (no Pod labelled koord-queue-leader with
# endpoints) the APIService is not Available (docs/operations.md, troubleshooting).
# The control plane runs no endpoints controller: create the Endpoints it would, without addresses.
kc label pod koordq-0 -n koord-queue koord-queue-leader- >/dev/null 2>&1
printf '{"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "koordq-visibility", "namespace": "koord-queue"}, "subsets": []}' |
  kc create -f - >/dev/null 2>&1
kc apply -f "$(render overlays/visibility)" >"$out" 2>"$err" || fail "kubectl apply of the visibility overlay"
reason=""
for _ in $(seq 1 50); do
  reason=$(kc get apiservice v1alpha1.visibility.koord-queue.x-k8s.io -o jsonpath='{.status.conditions[?(@.type=="Available")].reason}' 2>/dev/null)
  [ -n "$reason" ] && break
  sleep 0.2
done
check "the APIService is not Available without endpoints (reason $reason)" test "$reason" = MissingEndpoints
# Then the Service gets an endpoint, as when a leader is labelled: a koordq visibility server that
# trusts the front-proxy CA. Endpoints reject loopback, so it is reached on the host's own address.
host_ip=$(ip -4 -o addr show scope global 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -n1)
if [ -z "$host_ip" ]; then
  fail "no global IPv4 address on this host: the APIService cannot be given an endpoint"
else
  vlog="$scratch/serve-visibility.log"
  (cd "$scratch" && exec "$koordq" serve --simulate --simulate-speed 4 --journal-dir "$scratch/journal-visibility" \
    --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0 \
    --visibility-client-ca-file "$KOORDQ_FRONT_PROXY_CA") >"$vlog" 2>&1 &
  vis_pid=$!
  for _ in $(seq 1 200); do grep -q 'visibility API listens on' "$vlog" && break; sleep 0.1; done
  vis_port=$(sed -n 's|.*visibility API listens on https://:\([0-9]*\).*|\1|p' "$vlog" | head -n1)
  # A simulation keeps no APIService's caBundle and serves a certificate for localhost only (a
  # cluster serve sets the caBundle itself: pod_start_test.sh): this APIService skips verification.
  kc patch apiservice v1alpha1.visibility.koord-queue.x-k8s.io --type=merge \
    -p '{"spec": {"insecureSkipTLSVerify": true}}' >"$out" 2>"$err" || fail "let the APIService skip verification"
  printf '{"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "koordq-visibility", "namespace": "koord-queue"},
    "subsets": [{"addresses": [{"ip": "%s"}], "ports": [{"name": "visibility", "port": %s}]}]}' "$host_ip" "${vis_port:-1}" |
    kc replace -f - >"$out" 2>"$err" || fail "give the visibility Service an endpoint"
  kc wait --for condition=Available --timeout=30s apiservice/v1alpha1.visibility.koord-queue.x-k8s.io >"$out" 2>"$err"
  check "the APIService is Available once its Service has an endpoint" test $? = 0
  # Available comes a moment (about 0.5 s) before proxying works: poll the real path.
  for _ in $(seq 1 50); do
    kc get --raw /apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues >"$scratch/vis.json" 2>"$err" &&
      jq_true '.kind == "QueueList" and (.items | length) > 0' "$scratch/vis.json" && break
    sleep 0.2
  done
  check "kubectl get --raw through the aggregator reaches koordq's visibility API" jq_true '.kind == "QueueList" and (.items | length) > 0' "$scratch/vis.json"
  kc get --raw /apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/nope/queueunits >"$out" 2>"$err"
  check "koordq's own 404 Status passes through the aggregator" grep -q 'queue.scheduling.x-k8s.io "nope" not found' "$err"
  kill "$vis_pid" 2>/dev/null
  wait "$vis_pid" 2>/dev/null
  vis_pid=""
fi
kc delete apiservice v1alpha1.visibility.koord-queue.x-k8s.io >/dev/null 2>&1
phase "visibility overlay"

# --- docs/operations.md's install, own overlay, migration and uninstall, as written -------------------------
kubectl() { "$newest" "$@"; }
kubectl kustomize ops/kubernetes/base | less >"$out" 2>"$err"
check "kubectl kustomize ops/kubernetes/base | less: the base as rendered" cmp -s "$out" "$(render base)"
kubectl apply -k ops/kubernetes/base >"$out" 2>"$err"
check "kubectl apply -k ops/kubernetes/base" test $? = 0
kubectl apply -k ops/kubernetes/overlays/podmonitor >"$out" 2>"$err"
check "kubectl apply -k ops/kubernetes/overlays/podmonitor: PodMonitor koordq" kc get podmonitor -n koord-queue koordq
kubectl -n koord-queue delete podmonitor koordq >"$out" 2>"$err"
check "kubectl -n koord-queue delete podmonitor koordq" test $? = 0
# The signing key's Secret.
"$koordq" journal keygen --private-key journal.key --public-key journal.pub >"$out" 2>"$err"
check "journal keygen writes journal.key and journal.pub" test -s journal.key -a -s journal.pub
kubectl -n koord-queue create secret generic koordq-journal-key --from-file=journal.key --from-file=journal.pub >"$out" 2>"$err"
check "Secret koordq-journal-key holds journal.key and journal.pub" jq_true '.data | keys == ["journal.key", "journal.pub"]' \
  <(kc get secret -n koord-queue koordq-journal-key -o json)
# A witness entry of a replaced journal, removed by hand as the document says.
kc -n koord-queue patch configmap koordq-journal-witness --type=merge \
  -p '{"data": {"00000000-0000-4000-8000-000000000000": "{\"entries\": [{\"seq\": 7}]}", "kept": "{\"entries\": []}"}}' >"$out" 2>"$err"
kubectl -n koord-queue patch configmap koordq-journal-witness --type=json -p '[{"op":"remove","path":"/data/00000000-0000-4000-8000-000000000000"}]' >"$out" 2>"$err"
check "patch --type=json removes the replaced journal's entry, and only it" jq_true '.data | keys == ["kept"]' \
  <(kc get configmap -n koord-queue koordq-journal-witness -o json)
# Your own overlay: the document's kustomization.yaml, and a resources.yaml that changes one field.
mkdir -p my-koordq
sed -n '/^# my-koordq\/kustomization.yaml$/,/^```$/p' "$repo/docs/operations.md" | sed '$d' >my-koordq/kustomization.yaml
cat >my-koordq/resources.yaml <<'YAML'
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: koordq, namespace: koord-queue}
spec:
  template:
    spec:
      containers:
      - name: koordq
        resources: {limits: {memory: 6Gi}}
YAML
kubectl apply -k my-koordq >"$out" 2>"$err"
check "kubectl apply -k my-koordq" test $? = 0
kc get statefulset -n koord-queue koordq -o json >"$scratch/sts-applied.json"
check "… sets the overlay's image, registry.example.com/koordq:0.1.0" jq_true \
  '.spec.template.spec.containers[0].image == "registry.example.com/koordq:0.1.0"' "$scratch/sts-applied.json"
check "… changes the memory limit and keeps the rest (args, the memory request)" jq_true \
  '.spec.template.spec.containers[0] | .resources.limits.memory == "6Gi" and .resources.requests.memory != null and (.args | index("serve")) == 0' \
  "$scratch/sts-applied.json"
check "… and applies the visibility overlay's Service" kc get service -n koord-queue koordq-visibility
# Migration: a Koord-Queue controller to stop (its Deployment; nothing runs it here).
kc create deployment koord-queue -n koord-queue --image=koord-queue:v1 >"$out" 2>"$err"
kubectl get deploy -A | grep koord-queue >"$out" 2>"$err"
check "kubectl get deploy -A | grep koord-queue finds it" grep -Eq '^koord-queue +koord-queue ' "$out"
kubectl -n koord-queue scale deploy/koord-queue --replicas=0 >"$out" 2>"$err"
check "kubectl -n <ns> scale deploy/<name> --replicas=0" test "$(kc get deploy -n koord-queue koord-queue -o jsonpath='{.spec.replicas}')" = 0
kubectl -n default get lease example-lease -o jsonpath='{.spec.holderIdentity}' >"$out" 2>"$err"
check "the legacy Lease's holder: empty once released" test $? = 0 -a ! -s "$out"
kubectl -n koord-queue get lease koordq -o jsonpath='{.spec.holderIdentity}' >"$out" 2>"$err"
check "koordq's Lease names its holder" grep -qx 'koordq-1_2' "$out"
kubectl apply -k ops/kubernetes/overlays/visibility >"$out" 2>"$err"
check "kubectl apply -k ops/kubernetes/overlays/visibility" kc get apiservice v1alpha1.visibility.koord-queue.x-k8s.io
kubectl -n koord-queue scale statefulset/koordq --replicas=0 >"$out" 2>"$err"
check "rolling back: kubectl -n koord-queue scale statefulset/koordq --replicas=0" \
  test "$(kc get statefulset -n koord-queue koordq -o jsonpath='{.spec.replicas}')" = 0
# Migration under Koord-Queue's names: its Deployment deleted, the compat overlay in its place.
kubectl -n koord-queue delete deployment koord-queue >"$out" 2>"$err"
check "kubectl -n koord-queue delete deployment koord-queue" test $? = 0
kubectl apply -k ops/kubernetes/overlays/koord-queue-compat >"$out" 2>"$err"
check "kubectl apply -k ops/kubernetes/overlays/koord-queue-compat: Deployment koord-queue runs container controller" \
  test "$(kc get deploy -n koord-queue koord-queue -o jsonpath='{.spec.template.spec.containers[*].name}')" = controller
kubectl -n koord-queue get events --field-selector reason=JournalQuarantined >"$out" 2>"$err"
check "kubectl get events --field-selector reason=JournalQuarantined: none here" grep -q '^No resources found' "$out" "$err"
# Uninstall: every object of koordq's but the namespace, the CRDs and the witness ConfigMap goes.
kubectl delete statefulset,deployment,service,serviceaccount,role,rolebinding -A -l app.kubernetes.io/name=koordq >"$out" 2>"$err"
check "uninstall: delete statefulset,deployment,service,serviceaccount,role,rolebinding" test $? = 0
kubectl delete clusterrole,clusterrolebinding,apiservice -l app.kubernetes.io/name=koordq >"$out" 2>"$err"
check "uninstall: delete clusterrole,clusterrolebinding,apiservice" test $? = 0
kubectl -n koord-queue delete pvc -l app.kubernetes.io/name=koordq >"$out" 2>"$err" &
delete_pid=$!
# kubectl waits for the claim to go, which its pvc-protection finalizer holds until
# kube-controller-manager (not run here) sees no Pod using it: do what that controller does.
for _ in $(seq 1 50); do
  [ -n "$(kc get pvc -n koord-queue koord-queue-journal -o jsonpath='{.metadata.deletionTimestamp}' 2>/dev/null)" ] && break
  sleep 0.2
done
kc patch pvc -n koord-queue koord-queue-journal --type=merge -p '{"metadata": {"finalizers": null}}' >/dev/null 2>&1
wait "$delete_pid"
check "uninstall: delete pvc (the compat overlay's koord-queue-journal)" grep -q 'persistentvolumeclaim "koord-queue-journal" deleted' "$out"
check "nothing of those kinds is left" test -z "$(kc get statefulset,deployment,service,serviceaccount,role,rolebinding,pvc -A \
  -l app.kubernetes.io/name=koordq -o name 2>&1; kc get clusterrole,clusterrolebinding,apiservice -l app.kubernetes.io/name=koordq -o name 2>&1)"
check "the namespace stays" kc get namespace koord-queue
check "the CRDs stay" kc get crd queueunits.scheduling.x-k8s.io queues.scheduling.x-k8s.io
check "… and with them the QueueUnits" kc get queueunit -n default job-a
phase "install, overlays, migration and uninstall"

# --- Prometheus scrapes koordq: every dashboard expression has data ------------------------------------
q() { # q EXPR: the instant query's JSON result, at most 5 s
  timeout 5 promtool query instant -o json "$P" "$1" 2>"$err"
}
for _ in $(seq 1 300); do
  [ "$(q 'count_over_time(up{job="koord-queue-exporter"}[5m]) >= 8' | jq 'length' 2>/dev/null)" = 1 ] && break
  sleep 0.2
done
check "Prometheus scraped koordq at least 8 times" test "$(q 'max_over_time(up{job="koord-queue-exporter"}[5m])' | jq -r '.[0].value[1]')" = 1
timetravel
sleep 2 # one more scrape after the last time-travel query
# rest_client_*: under --simulate koordq sends no request to an API server, so these cluster-only
# families have no series; their expressions must still evaluate.
exempt='rest_client_requests_total|rest_client_request_duration_seconds'
jq -r '.panels[].targets[]?.expr' "$dash" | sed -e 's/\$job/koord-queue-exporter/g' -e 's/\$interval/5m/g' \
  -e 's/\$quota/.*/g; s/\$namespace/.*/g; s/\$resource/.*/g; s/\$queue/.*/g' >"$scratch/exprs"
check "every variable of the expressions is substituted" test "$(grep -c '\$' "$scratch/exprs")" = 0
n_exprs=0
while IFS= read -r expr; do
  n_exprs=$((n_exprs + 1))
  if ! q "$expr" >"$scratch/result.json"; then
    fail "Prometheus rejects: $expr"
  elif echo "$expr" | grep -Eq "$exempt"; then
    pass
  elif jq_true '[.[] | .value[1] | select(. != "NaN" and . != "+Inf" and . != "-Inf")] | length > 0' "$scratch/result.json"; then
    pass
  else
    fail "no data (or only NaN) for: $expr ($(head -c 200 "$scratch/result.json"))"
  fi
done <"$scratch/exprs"
echo "dashboard expressions evaluated: $n_exprs"
curl -s "$P/api/v1/rules" >"$scratch/rules.out"
check "Prometheus loaded the 8 alert rules, all healthy" jq_true '[.data.groups[].rules[]] | length == 8 and all(.health == "ok")' "$scratch/rules.out"
check "no alert fires on a healthy koordq" test "$(q 'ALERTS{alertstate="firing"}' | jq length)" = 0
phase "Prometheus queries"

# --- the journal commands of docs/operations.md -----------------------------------------------------------
(cd "$scratch" && "$koordq" journal export --journal-dir "$journal" --to rev:2000 >"$scratch/export.ndjson") 2>"$err"
check "journal export of a live journal" test -s "$scratch/export.ndjson"
run journal verify --export "$scratch/export.ndjson"
check "journal verify --export of the live export" grep -q '^ok: [0-9]* records' "$out"
run replay --export "$scratch/export.ndjson" --verify
check "replay --export --verify of the live export" test "$code" = 0
# The journal stream serves export lines: read from near the head (a reader more than
# --stream-max-lag records behind is told "too slow"), its first 200 lines are byte for byte the
# export of the same records, whose chain and trailer journal verify checks.
last_seq=$("$koordq" journal stat --journal-dir "$journal" -o json 2>"$err" | jq -r .lastSeq)
from=$((last_seq > 1000 ? last_seq - 1000 : 0))
curl -sS --max-time 20 "http://127.0.0.1:$debug_port/apis/journal/v1/records?from=$from" 2>"$err" |
  head -n 200 >"$scratch/stream.ndjson"
(cd "$scratch" && "$koordq" journal export --journal-dir "$journal" --from "rev:$((from + 1))" \
  --to "rev:$((from + 200))" >"$scratch/export-range.ndjson") 2>"$err"
run journal verify --export "$scratch/export-range.ndjson"
check "the export of the streamed range verifies" grep -q "^ok: 200 records, seq $((from + 1))\.\." "$out"
check "the journal stream's lines are the export's" cmp -s "$scratch/stream.ndjson" <(head -n 200 "$scratch/export-range.ndjson")
# Every koordq command line of docs/operations.md names a command and flags its --help lists.
grep -o 'koordq \(journal [a-z]*\|replay\|at\|explain\|console\|serve\)[^`|&;]*' "$repo/docs/operations.md" | sort -u >"$scratch/doc-commands"
check "docs/operations.md shows koordq commands" test "$(wc -l <"$scratch/doc-commands")" -ge 8
while read -r _ cmd rest; do
  [ "$cmd" = journal ] && { cmd="journal ${rest%% *}"; rest="${rest#* }"; }
  # shellcheck disable=SC2086
  help="$("$koordq" $cmd --help 2>&1)"
  for flag in $(echo "$rest" | grep -o -- '--[a-z-]*' | sort -u); do
    if grep -qE -- "^ +(-[a-z], )?$flag( |,|\$)" <<<"$help"; then pass; else fail "docs/operations.md: koordq $cmd has no flag $flag"; fi
  done
done <"$scratch/doc-commands"
# The flags the text names on their own (`--legacy-lease-guard`, …) are serve's, journal export's or
# journal verify's.
helps="$("$koordq" serve --help; "$koordq" journal export --help; "$koordq" journal verify --help)"
for flag in $(grep -o '`--[a-z-]*' "$repo/docs/operations.md" | tr -d '`' | sort -u); do
  if grep -qE -- "^ +(-[a-z], )?$flag( |,|\$)" <<<"$helps"; then pass; else fail "docs/operations.md names an unknown flag $flag"; fi
done
kill -TERM "$serve_pid"
for _ in $(seq 1 100); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
wait "$serve_pid" 2>/dev/null
serve_pid=""
# The document's offline commands, from the directory that holds the stopped replica's journal.
cd "$scratch" || exit 1
"$koordq" journal checkpoint --journal-dir journal copy >"$out" 2>"$err"
check "journal checkpoint --journal-dir journal copy, serve stopped" grep -q '^checkpoint of seq [0-9]* written to .*copy$' "$out"
"$koordq" journal verify --journal-dir copy >"$out" 2>"$err"
check "journal verify --journal-dir copy" grep -q '^ok: ' "$out"
"$koordq" journal stat --journal-dir copy >"$out" 2>"$err"
check "journal stat --journal-dir copy: the head hash" grep -Eq '^head: +[0-9a-f]{64}$' "$out"
# The document's month, as it falls in this journal: from the second after its first record (stat
# prints milliseconds, the record's time is finer) to its last record.
first="$("$koordq" journal stat --journal-dir copy -o json | jq -r .firstTime)"
from="$(date -u -d "@$(($(date -u -d "$first" +%s) + 1))" +%FT%TZ)"
to="$("$koordq" journal stat --journal-dir copy -o json | jq -r .lastTime)"
"$koordq" journal export --journal-dir copy --format audit --from "$from" --to "$to" >audit.jsonl 2>"$err"
check "journal export --format audit --from --to: audit Events ending in the trailer" jq_true -s \
  'length > 1 and all(.apiVersion == "audit.k8s.io/v1") and .[-1].verb == "export-trailer"' audit.jsonl
run journal export --journal-dir copy --format audit --to rev:5
check "journal export --format audit of records" test "$(jq -r .apiVersion "$out" | sort -u)" = audit.k8s.io/v1
"$koordq" journal export --journal-dir copy >journal.ndjson && "$koordq" journal verify --export journal.ndjson >"$out" 2>"$err"
check "journal export >journal.ndjson && journal verify --export journal.ndjson" grep -q '^ok: [0-9]* records' "$out"
phase "journal commands"

finish
