# shellcheck shell=bash disable=SC2154  # sourced after lib.sh, which sets $scratch and $koordq
# Shared by the end-to-end tests that run `koordq serve` against the real kube-apiserver of
# tests/controlplane. Source it after lib.sh; it builds (or finds cached) kube-apiserver, starts a
# control plane in $scratch/cp (stopped on exit, with every process in $koordq_pids killed) and
# sources its env (KOORDQ_E2E_KEEP=1 keeps $scratch: logs, journals). Helpers: k (kubectl on it),
# start_serve, bound ports, unit, phase_of, is_dequeued (and lib.sh's eventually).
# KOORDQ_APISERVER_AUTHORIZATION=RBAC (exported before sourcing): the API server authorizes with RBAC.
koordq_pids=()
cluster_cleanup() {
  for p in "${koordq_pids[@]}"; do
    kill -9 "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  stop_control_plane "$scratch/cp"
  if [ -n "${KOORDQ_E2E_KEEP:-}" ]; then echo "kept $scratch"; else rm -rf "$scratch"; fi
}
trap cluster_cleanup EXIT
start_control_plane "$scratch/cp"
if [ -z "${KOORDQ_KUBECTL:-}" ]; then
  echo "FAIL: no kubectl (build-kube-apiserver.sh puts kubectl 1.20 into the control plane's cache)"
  exit 1
fi
k() { "$KOORDQ_KUBECTL" --kubeconfig "$KUBECONFIG" "$@"; }

# eventually is in lib.sh.

# start_serve LOG ARGS...: koordq serve against the control plane, in the background; its pid in
# $serve_pid (and $koordq_pids); waits until the metrics listener is up.
start_serve() {
  local log="$1"
  shift
  : >"$log"
  "$koordq" serve --kubeconfig "$KUBECONFIG" --metrics-bind-address 127.0.0.1:0 "$@" >>"$log" 2>&1 &
  serve_pid=$!
  koordq_pids+=("$serve_pid")
  await_listening "$log"
}
# await_listening LOG: a serve started with that log has its metrics listener up (within 10 s).
await_listening() {
  for _ in $(seq 1 100); do
    grep -q '/readyz listen on' "$1" && return 0
    sleep 0.1
  done
  return 1
}
# unit NAME CPU [NS]: a QueueUnit of quota team-a requesting CPU (namespace default unless NS).
unit() {
  k apply -f - >/dev/null <<YAML
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: $1, namespace: ${3:-default}, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {cpu: "$2"}}
YAML
}
# phase_of NAME [NS], is_dequeued NAME [NS]: a QueueUnit's status.phase, and whether it is Dequeued.
phase_of() { k get queueunit -n "${2:-default}" "$1" -o jsonpath='{.status.phase}'; }
is_dequeued() { test "$(phase_of "$@")" = Dequeued; }
# bound_port LOG metrics|debug|visibility: the port a listener of that serve bound.
bound_port() {
  case "$2" in
    metrics) sed -n 's|.*/readyz listen on 127.0.0.1:\([0-9]*\).*|\1|p' "$1" | head -n1 ;;
    debug) sed -n 's|.*debug API listens on http://127.0.0.1:\([0-9]*\).*|\1|p' "$1" | head -n1 ;;
    visibility) sed -n 's|.*visibility API listens on https://:\([0-9]*\).*|\1|p' "$1" | head -n1 ;;
  esac
}
