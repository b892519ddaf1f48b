#!/usr/bin/env bash
# koordq's image started under podman the way the kubelet starts the container of the StatefulSet of
# ops/kubernetes/base, against the real kube-apiserver of tests/controlplane with RBAC on:
# - the container as the rendered base (kubectl kustomize, read with jq) declares it: its args and
#   env (POD_NAME, POD_NAMESPACE from the Pod's fields), user, group and fsGroup, read-only root
#   filesystem with no writable /tmp, capabilities dropped, no privilege escalation, memory limit and
#   cpu shares, and its journal volume mounted where volumeMounts says, from a host directory owned
#   by 65532; the ServiceAccount's token (TokenRequest, bound to the Pod), ca.crt and namespace
#   mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount, and
#   KUBERNETES_SERVICE_HOST/PORT naming the API server. The base's ServiceAccount and RBAC are
#   applied first, and a Pod object koordq-0 is created from the StatefulSet's template (no kubelet
#   runs: the object is just there, for the leader label and the bound token);
# - it leads, puts koord-queue-leader=true on that Pod, admits a QueueUnit into an ElasticQuota
#   (status.phase Dequeued) and leaves the one that does not fit waiting; the kubelet's probes
#   (/healthz, /readyz on the port named metrics) answer 200 and /metrics is scraped at the Pod's
#   address with the leader's queueing series; no request is Forbidden;
# - the visibility API through the aggregator: the visibility overlay's Service and APIService, with
#   the Endpoints an endpoints controller would write for the leader (the control plane runs none);
# - `podman kill` and a new `podman run` over the same volume (a container restart): the journal is
#   resumed ("state restored at seq"), the stale leader label is removed, the Lease is taken again
#   once the killed holder's has expired, and a new unit is admitted; `podman stop` with the
#   grace period ends it with exit 0, and the host's `koordq replay --verify` accepts the journal;
# - bad input: without the token mount, and with the journal volume mounted read-only (once over the
#   journal written above, once empty), the container exits with code 2 or 3 (behaviour.md §24) after
#   exactly one error line naming the problem, not a crash; a journal whose HEAD was deleted is
#   quarantined on the next start, with the JournalQuarantined event on the Pod;
# - docs/operations.md's commands, as written: `kubectl apply -k` of the base and the visibility
#   overlay, the install's and troubleshooting's `kubectl get`s, the visibility API's `get --raw`s,
#   the debug API's curls and the journal stream in the Pod's network namespace, and the journal
#   commands run in the container with `kubectl exec` (podman exec, as no kubelet runs) and its log
#   with `kubectl logs`.
# The whole test runs in a network namespace of its own (`unshare -n`): it stands for the Pod's
# network, with the Pod's address 192.0.2.10 on its loopback (Endpoints may not name 127.0.0.0/8),
# and `--network=host` puts the container into it, so the StatefulSet's fixed ports (10259, 8082,
# 19876) cannot collide with anything outside. The image is built (scripts/build-image.sh, which
# downloads from Debian's archive) and loaded into podman before entering it.
# Skipped, with the reason, when not root or when podman or `unshare -n` is unusable. Containers,
# the image and the control plane are removed on every exit; KOORDQ_E2E_KEEP=1 keeps the scratch
# directory (container logs, the journal volume). Usage: pod_start_test.sh path/to/koordq
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -uo pipefail

koordq="$(readlink -f "${1:?usage: pod_start_test.sh path/to/koordq}")"
repo="$(cd "$(dirname "$0")/../.." && pwd)"

# --- outside the network namespace: the image, loaded into podman ------------------------------------
if [ "${KOORDQ_POD_NETNS:-}" != 1 ]; then
  skip() {
    echo "SKIP: $*"
    echo "0 passed, 0 failed"
    exit 0
  }
  [ "$(id -u)" = 0 ] || skip "needs root (scripts/build-image.sh, unshare -n, ip addr); the CI runs the tests as root"
  outer="$(mktemp -d "${TMPDIR:-/tmp}/koordq-pod-e2e.XXXXXX")"
  run_id="$$"
  tag="localhost/koordq-pod-e2e:$run_id"
  # shellcheck disable=SC2317 # run by the EXIT trap
  outer_cleanup() {
    trap '' INT TERM
    if command -v podman >/dev/null; then
      podman ps -aq --filter "label=koordq-pod-e2e=$run_id" 2>/dev/null | xargs -r podman rm -f >/dev/null 2>&1
      podman rmi -f "$tag" >/dev/null 2>&1
    fi
    rm -rf "$outer"
  }
  trap outer_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # podman reads its settings from CONTAINERS_CONF only: nothing in /etc is changed.
  printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' >"$outer/containers.conf"
  export CONTAINERS_CONF="$outer/containers.conf"
  if ! command -v podman >/dev/null || ! podman info >"$outer/podman-info.log" 2>&1; then
    skip "podman is not usable here ($(tail -n 1 "$outer/podman-info.log" 2>/dev/null))"
  fi
  unshare -n -- true 2>"$outer/unshare.log" || skip "unshare -n does not work here ($(tail -n 1 "$outer/unshare.log"))"
  for tool in skopeo mmdebstrap jq python3 curl ip; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (scripts/install-deps.sh installs it)"; exit 1; }
  done
  # Building kube-apiserver downloads from Debian's archive: before the namespace, which has no network.
  if ! bash "${KOORDQ_CONTROLPLANE_DIR:-$repo/tests/controlplane}/build-kube-apiserver.sh" >"$outer/build-apiserver.log" 2>&1; then
    echo "FAIL: building kube-apiserver failed:"
    tail -n 20 "$outer/build-apiserver.log"
    exit 1
  fi
  if ! bash "$repo/scripts/build-image.sh" --no-load --out "$outer/image" "$koordq" >"$outer/build-image.log" 2>&1; then
    echo "FAIL: scripts/build-image.sh:"
    tail -n 20 "$outer/build-image.log"
    exit 1
  fi
  archive="$(find "$outer/image" -name 'koordq-*.oci.tar' | head -n 1)"
  if ! skopeo copy -q "oci-archive:$archive" "containers-storage:$tag" >"$outer/load.log" 2>&1; then
    echo "FAIL: loading the image into podman:"
    tail -n 20 "$outer/load.log"
    exit 1
  fi
  # In the background, so that a signal here reaches it at once (its own traps clean up inside).
  KOORDQ_POD_NETNS=1 KOORDQ_POD_IMAGE="$tag" KOORDQ_POD_RUN_ID="$run_id" unshare -n -- bash "${BASH_SOURCE[0]}" "$koordq" &
  inner=$!
  trap 'kill -TERM "$inner" 2>/dev/null; wait "$inner"; exit 130' INT
  trap 'kill -TERM "$inner" 2>/dev/null; wait "$inner"; exit 143' TERM
  wait "$inner"
  exit $?
fi

# --- inside it: the Pod's network ---------------------------------------------------------------------
pod_ip=192.0.2.10
ip link set lo up
ip addr add "$pod_ip/32" dev lo
image="$KOORDQ_POD_IMAGE"
run_id="$KOORDQ_POD_RUN_ID"

# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
export KOORDQ_APISERVER_AUTHORIZATION=RBAC
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"
containers_cleanup() {
  podman ps -aq --filter "label=koordq-pod-e2e=$run_id" 2>/dev/null | xargs -r podman rm -f >/dev/null 2>&1
}
trap 'trap "" INT TERM; containers_cleanup; cluster_cleanup' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the manifests, rendered ----------------------------------------------------------------------------
json() { # YAML FILE: one JSON object per line
  python3 -c 'import sys, yaml, json
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d: print(json.dumps(d))' "$1"
}
for o in base overlays/visibility; do
  "$KOORDQ_KUBECTL" kustomize "$repo/ops/kubernetes/$o" >"$scratch/rendered.yaml" 2>"$err" || fail "kubectl kustomize $o"
  json "$scratch/rendered.yaml" >"$scratch/$(basename "$o").json" || fail "the rendered $o is not YAML"
done
jq -c 'select(.kind == "StatefulSet" and .metadata.name == "koordq")' "$scratch/base.json" >"$scratch/sts.json"
check "the base renders StatefulSet koordq" test -s "$scratch/sts.json"
pod_ns="$(jq -r .metadata.namespace "$scratch/sts.json")"
pod_name="$(jq -r .metadata.name "$scratch/sts.json")-0"
version="$(sed -n 's/^project(koordq VERSION \([^ )]*\).*/\1/p' "$repo/CMakeLists.txt")"
check "the StatefulSet's image is koordq:$version, the image built here" \
  jq_true --arg i "koordq:$version" '.spec.template.spec.containers[0].image == $i' "$scratch/sts.json"

# The container as the kubelet makes it from the Pod spec, in podman's words (one argument a line).
jq -r --arg pod "$pod_name" --arg ns "$pod_ns" '
  def bytes: capture("^(?<n>[0-9]+)(?<u>Ki|Mi|Gi|Ti|k|M|G|T)?$")
    | (.n | tonumber) * {"": 1, Ki: 1024, Mi: 1048576, Gi: 1073741824, Ti: 1099511627776,
                         k: 1000, M: 1000000, G: 1000000000, T: 1000000000000}[.u // ""];
  def millicores: if endswith("m") then .[:-1] | tonumber else tonumber * 1000 end;
  .spec.template.spec as $p | $p.containers[0] as $c
  | ($p.securityContext // {}) as $psc | ($psc + ($c.securityContext // {})) as $sc
  | if $c.command then error("the container sets command: not mapped here") else . end
  | if ($sc.runAsUser | type) != "number" then error("no runAsUser") else . end
  | if $sc.runAsNonRoot and $sc.runAsUser == 0 then error("runAsNonRoot with user 0") else . end
  | ["--user=\($sc.runAsUser):\($sc.runAsGroup // $sc.runAsUser)"]
    + (if $psc.fsGroup then ["--group-add=\($psc.fsGroup)"] else [] end)
    + (if $sc.readOnlyRootFilesystem then ["--read-only", "--read-only-tmpfs=false"] else [] end)
    + [($sc.capabilities.drop // [])[] | "--cap-drop=\(.)"]
    + [($sc.capabilities.add // [])[] | "--cap-add=\(.)"]
    + (if $sc.allowPrivilegeEscalation == false then ["--security-opt=no-new-privileges"] else [] end)
    + (if $c.resources.limits.memory then ["--memory=\($c.resources.limits.memory | bytes)"] else [] end)
    + (if $c.resources.requests.cpu then
        ["--cpu-shares=\([2, ($c.resources.requests.cpu | millicores) * 1024 / 1000 | floor] | max)"] else [] end)
    + (if $c.resources.limits.cpu then ["--cpus=\(($c.resources.limits.cpu | millicores) / 1000)"] else [] end)
    + [($c.volumeMounts // [])[] | .name as $n | .mountPath as $m
       | select(any(($p.volumes // [])[]; .name == $n and has("emptyDir"))) | "--tmpfs=\($m):rw,mode=1777"]
    + [($c.env // [])[] | "--env=\(.name)=\(
        if .value != null then .value
        elif .valueFrom.fieldRef.fieldPath == "metadata.name" then $pod
        elif .valueFrom.fieldRef.fieldPath == "metadata.namespace" then $ns
        else error("env \(.name): not mapped here") end)"]
  | .[]' "$scratch/sts.json" >"$scratch/podman-args" 2>"$err" || fail "the StatefulSet's container maps onto podman flags"
mapfile -t pod_flags <"$scratch/podman-args"
mapfile -t args < <(jq -r '.spec.template.spec.containers[0].args[]' "$scratch/sts.json")
check "the container's args start with serve" test "${args[0]:-}" = serve
mount_path="$(jq -r '.spec.template.spec.containers[0].volumeMounts[] | select(.name == "journal") | .mountPath' "$scratch/sts.json")"
check "volumeMounts: the journal at $mount_path, writable, and emptyDirs (tmpfs here)" jq_true '.spec.template.spec as $p
  | ($p.containers[0].volumeMounts | map(select(.name == "journal")) | length == 1 and (.[0].readOnly | not))
  and ($p.containers[0].volumeMounts | map(select(.name != "journal"))
       | all(.name as $n | $p.volumes | any(.name == $n and has("emptyDir"))))' "$scratch/sts.json"
journal_in_pod="$(printf '%s\n' "${args[@]}" | sed -n 's/^--journal-dir=//p')"
check "--journal-dir ($journal_in_pod) is on the volume" test "${journal_in_pod#"$mount_path"/}" != "$journal_in_pod"
port_of() { jq -r --arg n "$1" '.spec.template.spec.containers[0].ports[] | select(.name == $n) | .containerPort' "$scratch/sts.json"; }
metrics_port="$(port_of metrics)"
visibility_port="$(port_of visibility)"
grace="$(jq -r '.spec.template.spec.terminationGracePeriodSeconds // 30' "$scratch/sts.json")"
fs_group="$(jq -r '.spec.template.spec.securityContext.fsGroup // 0' "$scratch/sts.json")"

# --- the ServiceAccount, its RBAC and the Pod object -------------------------------------------------------
# kubectl as docs/operations.md runs it, on the control plane. `exec` and `logs` go to the kubelet,
# which the control plane does not run: here they reach the container that stands for the Pod
# ($pod_container) through podman, as the kubelet would; everything else goes to the API server.
pod_container=""
kubectl() {
  local -a words=("$@") positional=()
  local i=0
  while [ $i -lt ${#words[@]} ] && [ "${words[$i]}" != -- ]; do
    case "${words[$i]}" in
      -n | -c) i=$((i + 1)) ;;
      -*) ;;
      *) positional+=("${words[$i]}") ;;
    esac
    i=$((i + 1))
  done
  case "${positional[0]:-}" in
    exec | logs)
      case "${positional[1]:-}" in
        "$pod_name" | "pod/$pod_name" | deployment/koord-queue) ;;
        *) echo "kubectl ${positional[0]}: no container stands for ${positional[1]:-}" >&2; return 1 ;;
      esac
      if [ "${positional[0]}" = logs ]; then podman logs "$pod_container" 2>&1; else podman exec "$pod_container" "${words[@]:$((i + 1))}"; fi
      ;;
    *) "$KOORDQ_KUBECTL" "$@" ;;
  esac
}
# The document's commands run in a directory that has the repository's ops/; what they write stays there.
mkdir -p "$scratch/work"
ln -s "$repo/ops" "$scratch/work/ops"
cd "$scratch/work" || exit 1
kubectl apply -k ops/kubernetes/base >"$out" 2>"$err"
check "kubectl apply -k ops/kubernetes/base" test $? = 0
# The Pod the StatefulSet controller would create: the template, its name, hostname and subdomain, the
# pod-name label, and the volume of the claim from volumeClaimTemplates.
jq -c --arg pod "$pod_name" '{apiVersion: "v1", kind: "Pod",
  metadata: {name: $pod, namespace: .metadata.namespace,
             labels: (.spec.template.metadata.labels + {"statefulset.kubernetes.io/pod-name": $pod})},
  spec: (.spec.template.spec + {hostname: $pod, subdomain: .spec.serviceName,
         volumes: ((.spec.template.spec.volumes // []) + [.spec.volumeClaimTemplates[] | {name: .metadata.name,
                   persistentVolumeClaim: {claimName: "\(.metadata.name)-\($pod)"}}])})}' \
  "$scratch/sts.json" >"$scratch/pod.json"
check "the Pod $pod_ns/$pod_name is created from the StatefulSet's template" k create -f "$scratch/pod.json"
pod_uid="$(k get pod -n "$pod_ns" "$pod_name" -o jsonpath='{.metadata.uid}')"

# The service-account volume as the kubelet projects it: a token bound to the Pod, ca.crt, namespace.
sa_dir="$scratch/serviceaccount"
mkdir -p "$sa_dir"
jq -n --arg pod "$pod_name" --arg uid "$pod_uid" '{apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest",
  spec: {expirationSeconds: 3607, boundObjectRef: {apiVersion: "v1", kind: "Pod", name: $pod, uid: $uid}}}' \
  >"$scratch/token-request.json"
sa_name="$(jq -r '.spec.template.spec.serviceAccountName' "$scratch/sts.json")"
k create --raw "/api/v1/namespaces/$pod_ns/serviceaccounts/$sa_name/token" -f "$scratch/token-request.json" \
  >"$scratch/token-response.json" 2>"$err"
jq -j '.status.token // empty' "$scratch/token-response.json" >"$sa_dir/token" 2>/dev/null
check "the TokenRequest API mints a token for ServiceAccount $pod_ns/$sa_name, bound to the Pod" test -s "$sa_dir/token"
cp "$KOORDQ_APISERVER_CA" "$sa_dir/ca.crt"
printf '%s' "$pod_ns" >"$sa_dir/namespace"
chmod 0755 "$sa_dir"
chmod 0644 "$sa_dir"/*
sa_mount=(-v "$sa_dir:/var/run/secrets/kubernetes.io/serviceaccount:ro")
api_host="${KOORDQ_APISERVER_URL#https://}"
api_env=(--env "KUBERNETES_SERVICE_HOST=${api_host%:*}" --env "KUBERNETES_SERVICE_PORT=${api_host##*:}")

new_volume() { # DIR: an empty journal volume, owned as the kubelet leaves it for fsGroup
  mkdir -p "$1"
  chown "65532:$fs_group" "$1"
}
volume="$scratch/volume"
new_volume "$volume"

# pod_run NAME [PODMAN FLAGS...]: the container, detached; `podman logs NAME` has its output.
# pod_run_attached NAME [PODMAN FLAGS...]: in the foreground, output in $scratch/NAME.log, $code.
podman_flags() { # NAME: the flags every run shares
  printf '%s\n' --name "$1" --label "koordq-pod-e2e=$run_id" --pull=never --network=host \
    --hostname "$pod_name" --log-driver=k8s-file --stop-timeout "$grace" "${pod_flags[@]}"
}
pod_run() {
  local name="$1" flags
  shift
  mapfile -t flags < <(podman_flags "$name")
  podman run -d "${flags[@]}" "$@" "$image" "${args[@]}" >"$out" 2>"$err"
}
pod_run_attached() {
  local name="$1" flags
  shift
  mapfile -t flags < <(podman_flags "$name")
  timeout 120 podman run "${flags[@]}" "$@" "$image" "${args[@]}" >"$scratch/$name.log" 2>&1
  code=$?
}
logs() { podman logs "$1" >"$scratch/$1.log" 2>&1; } # NAME: refreshes $scratch/NAME.log
log_has() { logs "$1" && grep -q "$2" "$scratch/$1.log"; } # NAME PATTERN
running() { [ "$(podman inspect -f '{{.State.Running}}' "$1" 2>/dev/null)" = true ]; }
leader_label() { k get pod -n "$pod_ns" "$pod_name" -o jsonpath='{.metadata.labels.koord-queue-leader}'; }
label_is() { test "$(leader_label)" = "$1"; }
probe() { test "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$pod_ip:$1$2")" = 200; } # PORT PATH
metrics() { curl -sf --max-time 5 "http://$pod_ip:$metrics_port/metrics" >"$scratch/metrics.txt"; }
metric_is() { metrics && grep -qxF "$1" "$scratch/metrics.txt"; } # the whole sample line

k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "4"}}
YAML
unit job1 2
unit job2 3
# A tenant's unit in its own namespace, in the same queue: it does not fit either.
k create namespace team-a >"$out" 2>"$err" || fail "create namespace team-a"
unit job4 3 team-a

# --- the first start ---------------------------------------------------------------------------------------
c1="$pod_name-1"
if pod_run "$c1" -v "$volume:$mount_path" "${sa_mount[@]}" "${api_env[@]}"; then pass; else fail "podman run $c1"; fi
pod_container="$c1"
check "it uses the mounted service account" eventually 20 log_has "$c1" \
  "API server ${api_host%:*}:${api_host##*:} (in-cluster service account)"
check "it becomes leader" eventually 30 log_has "$c1" "became leader"
check "the Pod object carries koord-queue-leader=true" eventually 15 label_is true
check "job1 is admitted (Dequeued)" eventually 30 is_dequeued job1
waits_on_quota() { # NAME: not admitted, with the quota check's message
  k get queueunit -n default "$1" -o jsonpath='{.status.phase}|{.status.message}' | grep -Eq '^(Enqueued)?\|limited quotaName:team-a'
}
check "job2, which does not fit, waits with the quota's message" eventually 20 waits_on_quota job2
for p in liveness readiness; do
  path="$(jq -r ".spec.template.spec.containers[0].${p}Probe.httpGet.path" "$scratch/sts.json")"
  port="$(port_of "$(jq -r ".spec.template.spec.containers[0].${p}Probe.httpGet.port" "$scratch/sts.json")")"
  check "the ${p} probe (GET $pod_ip:$port$path) answers 200" eventually 20 probe "$port" "$path"
done
check "/metrics at $pod_ip:$metrics_port: koordq_leader 1" eventually 10 metric_is "koordq_leader 1"
check "/metrics: team-a's quota usage is job1's 2000 millicores" eventually 20 \
  metric_is 'dequeued_quota_usage_by_quota{quota="team-a",resource="cpu"} 2000'
check "/metrics: a scheduled attempt on queue team-a" grep -Eq '^job_schedule_attempts\{queue="team-a",result="scheduled"\} [1-9]' "$scratch/metrics.txt"
check "/metrics: koordq_build_info" grep -q '^koordq_build_info{' "$scratch/metrics.txt"
# docs/operations.md's install and troubleshooting commands, as written.
kubectl -n koord-queue get pods -L koord-queue-leader >"$out" 2>"$err"
check "get pods -L koord-queue-leader: $pod_name leads" grep -Eq "^$pod_name .* true\$" "$out"
kubectl get queueunits >"$out" 2>"$err"
check "get queueunits: job1 Dequeued, with the printer columns" grep -Eq '^job1 +Dequeued +([0-9]+ +)?team-a +[0-9]+ +[0-9]+s$' "$out"
kubectl -n koord-queue get lease koordq -o yaml >"$out" 2>"$err"
check "get lease koordq -o yaml names $pod_name the holder" grep -Eq "holderIdentity: ${pod_name}_" "$out"
kubectl -n koord-queue get lease koordq -o jsonpath='{.spec.holderIdentity}' >"$out" 2>"$err"
check "get lease koordq -o jsonpath: <pod>_<uuid>" grep -Eqx "${pod_name}_[0-9a-f-]{36}" "$out"
kubectl -n koord-queue get pods -l koord-queue-leader=true >"$out" 2>"$err"
check "get pods -l koord-queue-leader=true: $pod_name" test "$(awk 'NR > 1 {print $1}' "$out")" = "$pod_name"
check "the journal on the volume belongs to the container's user" test "$(stat -c %u:%g "$volume/${journal_in_pod#"$mount_path"/}/HEAD" 2>/dev/null)" = 65532:65532

# --- the visibility API through the aggregator ---------------------------------------------------------------
# The overlay's Service and APIService as rendered, and the Endpoints the endpoints controller would
# derive from the Service's selector (the leader Pod) and its targetPort (the Pod's port by name).
jq -c 'select((.kind == "Service" and .metadata.name == "koordq-visibility") or .kind == "APIService")' \
  "$scratch/visibility.json" >"$scratch/visibility-objects.json"
jq -c --arg ip "$pod_ip" --arg pod "$pod_name" --argjson port "$visibility_port" \
  'select(.kind == "Service") | {apiVersion: "v1", kind: "Endpoints", metadata: {name: .metadata.name, namespace: .metadata.namespace},
    subsets: [{addresses: [{ip: $ip, targetRef: {kind: "Pod", name: $pod, namespace: .metadata.namespace}}],
               ports: [.spec.ports[] | {name, port: $port, protocol}]}]}' \
  "$scratch/visibility-objects.json" >"$scratch/visibility-endpoints.json"
kubectl apply -k ops/kubernetes/overlays/visibility >"$out" 2>"$err"
check "kubectl apply -k ops/kubernetes/overlays/visibility" test $? = 0
check "the Endpoints of the visibility Service apply" k apply -f "$scratch/visibility-endpoints.json"
apiservice="$(jq -r 'select(.kind == "APIService") | .metadata.name' "$scratch/visibility-objects.json")"
V="/apis/$(jq -r 'select(.kind == "APIService") | .spec.group + "/" + .spec.version' "$scratch/visibility-objects.json")"
check "APIService $apiservice becomes Available" k wait --for condition=Available --timeout=60s "apiservice/$apiservice"
raw() { k get --raw "$1" >"$out" 2>"$err"; }
# Available comes a moment before the proxy route works: poll the real path.
check "the aggregator reaches koordq's visibility API" eventually 30 raw "$V/queues"
if raw "$V/queues/team-a/queueunits"; then
  check "$V/queues/team-a/queueunits: job2 and job4 wait first, then job1" jq_true \
    '.kind == "QueueUnitsSummary" and (.items | map(.metadata.name)) == ["job2", "job4", "job1"]' "$out"
else
  fail "GET $V/queues/team-a/queueunits through the aggregator"
fi
# docs/operations.md's visibility commands, as written.
kubectl get apiservice v1alpha1.visibility.koord-queue.x-k8s.io >"$out" 2>"$err"
check "get apiservice: AVAILABLE True" grep -Eq '^v1alpha1.visibility.koord-queue.x-k8s.io +koord-queue/koordq-visibility +True ' "$out"
kubectl get --raw /apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues >"$out" 2>"$err"
check "get --raw …/queues: a QueueList with team-a" jq_true '.kind == "QueueList" and (.items | map(.metadata.name) | index("team-a"))' "$out"
kubectl get --raw '/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/team-a/queueunits?phase=Enqueued&limit=20' >"$out" 2>"$err"
check "get --raw …/queues/team-a/queueunits?phase=Enqueued&limit=20: job2, job4" jq_true \
  '(.items | map(.metadata.name)) == ["job2", "job4"]' "$out"
kubectl get --raw /apis/visibility.koord-queue.x-k8s.io/v1alpha1/namespaces/team-a/queues/team-a/queueunits >"$out" 2>"$err"
check "get --raw …/namespaces/team-a/queues/team-a/queueunits: job4 only" jq_true '(.items | map(.metadata.name)) == ["job4"]' "$out"
if raw "$V/elasticquotas/team-a"; then
  check "$V/elasticquotas/team-a: 2 cpu used" jq_true '.kind == "ElasticQuota" and .used.cpu == "2"' "$out"
else
  fail "GET $V/elasticquotas/team-a through the aggregator"
fi
logs "$c1"
check "no request was Forbidden" test -z "$(grep -i forbidden "$scratch/$c1.log")"
check "no error in the log" test -z "$(grep '^E' "$scratch/$c1.log")"

# --- a container restart: podman kill, a new container over the same volume ---------------------------------------
seq_before="$(curl -sf "http://$pod_ip:$metrics_port/metrics" | sed -n 's/^koordq_last_applied_sequence \([0-9]*\)$/\1/p')"
# An instant at which job3 does not exist yet, for time travel after the restart.
instant="$(date -u +%FT%TZ)"
sleep 1
podman kill "$c1" >"$out" 2>"$err"
check "podman kill $c1: it ends by SIGKILL (137)" test "$(podman wait "$c1" 2>/dev/null)" = 137
c2="$pod_name-2"
if pod_run "$c2" -v "$volume:$mount_path" "${sa_mount[@]}" "${api_env[@]}"; then pass; else fail "podman run $c2"; fi
pod_container="$c2"
check "the journal is resumed: state restored at seq" eventually 30 log_has "$c2" 'state restored at seq [1-9]'
restored="$(sed -n 's/.*state restored at seq \([0-9]*\).*/\1/p' "$scratch/$c2.log" | head -n 1)"
check "… at seq $restored, at or after the last applied before the kill (${seq_before:-?})" test "${restored:-0}" -ge "${seq_before:-1}"
check "the restarted replica removes the stale leader label first" eventually 15 label_is ""
check "it leads again once the killed holder's Lease has expired" eventually 45 log_has "$c2" "became leader"
check "the Pod carries the leader label again" eventually 15 label_is true
unit job3 1
check "a unit created after the restart is admitted" eventually 30 is_dequeued job3
check "job1 stays admitted" is_dequeued job1
check "/metrics after the restart: team-a's usage is 3000 millicores" eventually 20 \
  metric_is 'dequeued_quota_usage_by_quota{quota="team-a",resource="cpu"} 3000'
units_listed() { raw "$V/queues/team-a/queueunits" && jq_true '(.items | map(.metadata.name) | sort) == ["job1", "job2", "job3", "job4"]' "$out"; }
check "the aggregator reaches the restarted leader, which lists job1 to job4" eventually 30 units_listed

# --- docs/operations.md's debug API, journal copy and log commands, as written ----------------------------------
# The port-forward is not needed: the test's network namespace is the Pod's, where the debug listener is.
leader=$(kubectl -n koord-queue get pods -l koord-queue-leader=true -o name)
check "leader=\$(kubectl … -o name) is pod/$pod_name" test "$leader" = "pod/$pod_name"
curl http://127.0.0.1:19876/apis/v1/elasticquota >"$out" 2>"$err"
check "curl …/apis/v1/elasticquota: team-a" grep -q '"team-a"' "$out"
curl http://127.0.0.1:19876/apis/v1/queue >"$out" 2>"$err"
check "curl …/apis/v1/queue: job3 in team-a" grep -q '"job3"' "$out"
curl http://127.0.0.1:19876/apis/v1/userquota >"$out" 2>"$err"
check "curl …/apis/v1/userquota: namespace team-a" grep -q '"team-a"' "$out"
curl "http://127.0.0.1:19876/apis/v1/queue?asOf=$instant" >"$out" 2>"$err"
check "curl …/apis/v1/queue?asOf=$instant: job2, no job3 yet" bash -c 'grep -q "\"job2\"" "$1" && ! grep -q "\"job3\"" "$1"' _ "$out"
revision="$seq_before"
curl "http://127.0.0.1:19876/apis/v1/queue?revision=$revision" >"$out" 2>"$err"
check "curl …/apis/v1/queue?revision=$revision: job2, no job3 yet" bash -c 'grep -q "\"job2\"" "$1" && ! grep -q "\"job3\"" "$1"' _ "$out"
curl -sS http://127.0.0.1:19876/apis/journal/v1/records >koordq-journal.ndjson
check "the journal stream: records from seq 1" jq_true -s '.[0].seq == 1 and length > 100' koordq-journal.ndjson
"$koordq" replay --export koordq-journal.ndjson --verify >"$out" 2>"$err"
check "replay --export --verify of the journal stream" grep -Eq '^verified [0-9]+ decisions in [1-9][0-9]* rounds' "$out"
# shellcheck disable=SC2086 # the document's words; an RFC3339 time has no blanks
"$koordq" at $instant queues --export koordq-journal.ndjson -o table >"$out" 2>"$err"
check "at $instant queues --export -o table: team-a" grep -q '^team-a ' "$out"
unit=default/job1
"$koordq" explain $unit --export koordq-journal.ndjson >"$out" 2>"$err"
check "explain $unit --export: admitted" grep -q 'Dequeued' "$out"
mv koordq-journal.ndjson stream.ndjson
kubectl exec -n koord-queue koordq-0 -- koordq journal export --journal-dir /var/lib/koordq/journal >koordq-journal.ndjson
check "kubectl exec … journal export gives the stream's lines, and later ones" cmp -s stream.ndjson <(head -n "$(wc -l <stream.ndjson)" koordq-journal.ndjson)
"$koordq" journal verify --export koordq-journal.ndjson >"$out" 2>"$err"
check "journal verify --export of the Pod's export" grep -q '^ok: [0-9]* records, seq 1\.\.' "$out"
kubectl -n koord-queue exec koordq-0 -- koordq journal stat --journal-dir /var/lib/koordq/journal >"$out" 2>"$err"
check "kubectl exec … journal stat" grep -Eq '^head: +[0-9a-f]{64}$' "$out"
kubectl -n koord-queue exec koordq-0 -- koordq journal checkpoint --journal-dir /var/lib/koordq/journal /var/lib/koordq/journal/checkpoints/copy >"$out" 2>"$err"
check "kubectl exec … journal checkpoint: the running serve makes it" grep -Eq '^checkpoint of seq [0-9]+ written to /var/lib/koordq/journal/checkpoints/copy$' "$out"
kubectl -n koord-queue exec koordq-0 -- koordq journal verify --journal-dir /var/lib/koordq/journal/checkpoints/copy >"$out" 2>"$err"
check "kubectl exec … journal verify of the checkpoint" grep -q '^ok: ' "$out"
kubectl -n koord-queue exec koordq-0 -- koordq replay --journal-dir /var/lib/koordq/journal/checkpoints/copy --verify >"$out" 2>"$err"
check "kubectl exec … replay --verify of the checkpoint" grep -Eq '^verified [0-9]+ decisions' "$out"
kubectl -n koord-queue exec koordq-0 -- koordq journal export --journal-dir /var/lib/koordq/journal/checkpoints/copy >copy.ndjson
"$koordq" journal verify --export copy.ndjson >"$out" 2>"$err"
check "the checkpoint's export, out of the Pod, verifies" grep -q '^ok: ' "$out"
kubectl -n koord-queue logs deployment/koord-queue -c controller | grep -m1 "became leader" >"$out" 2>"$err"
check "kubectl logs … | grep -m1 \"became leader\"" grep -q 'became leader' "$out"
podman stop -t "$grace" "$c2" >"$out" 2>"$err"
check "podman stop (SIGTERM, grace ${grace} s): exit 0" test "$(podman wait "$c2" 2>/dev/null)" = 0
check "stopping removes the leader label" label_is ""
check "stopping releases the Lease" test -z "$(k get lease -n "$pod_ns" koordq -o jsonpath='{.spec.holderIdentity}')"
logs "$c2"
check "no request was Forbidden after the restart" test -z "$(grep -i forbidden "$scratch/$c2.log")"
verify_journal "the journal of both containers" "$volume/${journal_in_pod#"$mount_path"/}"

# --- bad input: one clear line and exit 2 or 3, not a crash ---------------------------------------------------------
# expect_refusal NAME CODE PATTERN: the attached run of NAME exited with CODE after exactly one error
# line (klog severity E), which matches PATTERN; no fatal line, no abort.
expect_refusal() {
  local log="$scratch/$1.log" errors
  errors="$(grep -c '^[EF]' "$log")"
  if [ "$code" = "$2" ] && [ "$errors" = 1 ] && grep '^E' "$log" | grep -q "$3" &&
    ! grep -Eq 'terminate called|Segmentation fault|Aborted|core dumped|AddressSanitizer' "$log"; then
    pass
  else
    fail "$1: exit $code (expected $2), $errors error lines (expected 1 matching '$3')"
    tail -n 8 "$log"
  fi
}
c3="$pod_name-no-token"
new_volume "$scratch/volume-no-token"
pod_run_attached "$c3" -v "$scratch/volume-no-token:$mount_path" "${api_env[@]}"
expect_refusal "$c3" 2 'serviceaccount/token: No such file or directory; check that the file exists'
c4="$pod_name-ro-journal"
pod_run_attached "$c4" -v "$volume:$mount_path:ro" "${sa_mount[@]}" "${api_env[@]}"
expect_refusal "$c4" 3 'cannot open the journal: .*Read-only file system'
c5="$pod_name-ro-empty"
new_volume "$scratch/volume-ro-empty"
pod_run_attached "$c5" -v "$scratch/volume-ro-empty:$mount_path:ro" "${sa_mount[@]}" "${api_env[@]}"
expect_refusal "$c5" 3 "cannot create the journal directory $journal_in_pod: Read-only file system"
verify_journal "the journal after the read-only start" "$volume/${journal_in_pod#"$mount_path"/}"

# --- a quarantined journal, as docs/operations.md's troubleshooting finds it ------------------------------------------
# A journal whose HEAD file was deleted is corrupt (behaviour.md §21): the next start moves it aside
# beside itself on the volume, starts a new one and records the JournalQuarantined event on its Pod.
rm -f "$volume/${journal_in_pod#"$mount_path"/}/HEAD"
c6="$pod_name-quarantine"
if pod_run "$c6" -v "$volume:$mount_path" "${sa_mount[@]}" "${api_env[@]}"; then pass; else fail "podman run $c6"; fi
pod_container="$c6"
check "the damaged journal is quarantined and a new one started" eventually 30 log_has "$c6" 'state restored at seq\|initial sync complete'
quarantined_at="$(find "$volume" -maxdepth 1 -name "$(basename "$journal_in_pod").quarantined-*" -printf '%f\n' | sed 's/.*\.quarantined-//' | head -n 1)"
check "the quarantined journal is beside the new one on the volume ($quarantined_at)" test -n "$quarantined_at"
events_named() { kubectl -n koord-queue get events --field-selector reason=JournalQuarantined >"$out" 2>"$err" && grep -q "pod/$pod_name .*journal corrupt at seq" "$out"; }
check "kubectl get events --field-selector reason=JournalQuarantined shows it on pod/$pod_name" eventually 20 events_named
# shellcheck disable=SC2086 # the document's words; the time has no blanks
kubectl -n koord-queue exec koordq-0 -- koordq journal verify --journal-dir /var/lib/koordq/journal.quarantined-$quarantined_at >"$out" 2>"$err"
code=$?
check "kubectl exec … journal verify of the quarantined journal: exit 1, naming the missing HEAD" \
  test "$code" = 1 -a "$(grep -c 'HEAD' "$out" "$err" | awk -F: '{s += $2} END {print s}')" -ge 1
podman stop -t "$grace" "$c6" >/dev/null 2>&1

if [ "$failed" -gt 0 ]; then
  for c in "$c1" "$c2"; do
    logs "$c" && { echo "--- the end of $c's log:"; tail -n 20 "$scratch/$c.log"; }
  done
fi
finish
