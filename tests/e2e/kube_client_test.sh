#!/usr/bin/env bash
# kube/client against a real kube-apiserver (tests/controlplane, design.md §7): auth by token and by
# client certificate, a TLS failure with a wrong CA, a paginated LIST, a WATCH that resumes across
# server timeouts without relisting, nothing lost or duplicated while objects are created, patched
# and deleted, a prompt stop; then, with --watch-cache=false and etcd compacted, the 410 on a
# reconnect and the relist that follows.
# Usage: kube_client_test.sh path/to/kube_watch_probe
set -uo pipefail

probe="$(readlink -f "${1:?usage: kube_client_test.sh path/to/kube_watch_probe}")"
koordq="$probe"  # lib.sh's run() is not used here
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

planes=()
probe_pid=""
cleanup() {
  [ -n "$probe_pid" ] && kill "$probe_pid" 2>/dev/null
  for p in "${planes[@]}"; do stop_control_plane "$p"; done
  rm -rf "$scratch"
}
trap cleanup EXIT

start_plane() { # start_plane DIR [APISERVER FLAGS]
  planes+=("$1")
  KOORDQ_APISERVER_EXTRA_ARGS="${2:-}" start_control_plane "$1"
}

api() { # api METHOD PATH [BODY]: prints the HTTP code; the body goes to $scratch/api.out
  local type=application/json
  [ "$1" = PATCH ] && type=application/merge-patch+json
  curl -sS --http1.1 -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
    -H "Content-Type: $type" -X "$1" "$KOORDQ_APISERVER_URL$2" ${3:+-d "$3"} -o "$scratch/api.out" -w '%{http_code}'
}
qu_path() { echo "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/$1/queueunits"; }
new_qu() { # new_qu NS NAME
  api POST "$(qu_path "$1")" "{\"apiVersion\":\"scheduling.x-k8s.io/v1alpha1\",\"kind\":\"QueueUnit\",\"metadata\":{\"name\":\"$2\"},\"spec\":{\"resource\":{\"cpu\":\"1\"}}}"
}
new_queue() { # new_queue NS NAME
  api POST "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/$1/queues" "{\"apiVersion\":\"scheduling.x-k8s.io/v1alpha1\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"$2\"},\"spec\":{}}"
}
new_quota() { # new_quota NS NAME
  api POST "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/$1/elasticquotas" "{\"apiVersion\":\"scheduling.sigs.k8s.io/v1alpha1\",\"kind\":\"ElasticQuota\",\"metadata\":{\"name\":\"$2\"},\"spec\":{\"max\":{\"cpu\":\"10\"},\"min\":{\"cpu\":\"5\"}}}"
}

start_probe() { # start_probe OUT [ARGS]
  local out=$1
  shift
  "$probe" "$@" >"$out" 2>&1 &
  probe_pid=$!
}
stop_probe() { # stop_probe: SIGTERM, and the probe must be gone within 3 s
  local i
  kill -TERM "$probe_pid"
  for i in $(seq 30); do
    kill -0 "$probe_pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$probe_pid" 2>/dev/null; then
    kill -KILL "$probe_pid"
    probe_pid=""
    return 1
  fi
  wait "$probe_pid" 2>/dev/null
  probe_pid=""
}
wait_for() { # wait_for SECONDS COMMAND...: polls COMMAND every 0.2 s
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 0.2
  done
}
relists() { grep -c "^relist $2 " "$1"; }
# What the probe's sink says the resource holds: the last relist's items, then the events after it.
probe_state() { # probe_state OUT RESOURCE → "ns/name uid rv" lines, sorted
  awk -v r="$2" '
    $1 == "relist" && $2 == r { delete s }
    $1 == "item" && $2 == r { s[$3] = $4 " " $5 }
    $1 == "event" && $2 == r { if ($3 == "DELETED") delete s[$4]; else s[$4] = $5 " " $6 }
    END { for (k in s) print k, s[k] }' "$1" | sort
}
server_state() { # server_state PATH → the same from a LIST
  api GET "$1" >/dev/null
  jq -r '.items[] | "\(.metadata.namespace)/\(.metadata.name) \(.metadata.uid) \(.metadata.resourceVersion)"' \
    "$scratch/api.out" | sort
}
same_state() { # same_state OUT RESOURCE PATH
  [ "$(probe_state "$1" "$2")" = "$(server_state "$3")" ]
}

# --- Phase 1: the watch cache on (bookmarks, resumed watches) ---
start_plane "$scratch/cp1"
check "namespace team-a is created" test "$(api POST /api/v1/namespaces '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a"}}')" = 201
created=0
for i in $(seq 1 60); do
  [ "$(new_qu koord-queue "pre-$i")" = 201 ] && created=$((created + 1))
  [ "$(new_qu team-a "pre-$i")" = 201 ] && created=$((created + 1))
done
check "120 QueueUnits are created before the probe starts" test "$created" = 120
check "a Queue in the queue namespace is created" test "$(new_queue koord-queue q-a)" = 201
check "a Queue in another namespace is created" test "$(new_queue team-a q-elsewhere)" = 201
check "an ElasticQuota is created" test "$(new_quota team-a eq-a)" = 201
check "a second ElasticQuota is created" test "$(new_quota koord-queue eq-b)" = 201

"$probe" --once >"$out" 2>"$err"
check "token auth (current context): the probe lists every resource" grep -qx "list queueunits 120" "$out"
"$probe" --once --kubeconfig "$KUBECONFIG" --context koordq-e2e-cert >"$out" 2>"$err"
check "client-certificate auth: the probe lists every resource" grep -qx "list queueunits 120" "$out"
sed "s|certificate-authority-data: .*|certificate-authority-data: $(base64 -w0 <"$KOORDQ_FRONT_PROXY_CA")|" \
  "$KUBECONFIG" >"$scratch/wrong-ca.kubeconfig"
"$probe" --once --kubeconfig "$scratch/wrong-ca.kubeconfig" >"$out" 2>"$err"
code=$?
check "a wrong CA fails the TLS handshake (exit 1)" test "$code" = 1
check "the TLS error says so" grep -q "TLS handshake: certificate verify failed" "$err"
check "no error message carries the token" bash -c "! grep -qF '$KOORDQ_APISERVER_TOKEN' '$err'"
printf 'apiVersion: v1\nkind: Config\ncurrent-context: nope\n' >"$scratch/bad.kubeconfig"
"$probe" --once --kubeconfig "$scratch/bad.kubeconfig" >"$out" 2>"$err"
check "a kubeconfig without the named context is refused" grep -q 'bad.kubeconfig: context "nope" is not defined' "$err"

watch1="$scratch/watch1.out"
start_probe "$watch1" --page-size 50 --watch-timeout 3
check "the probe relists QueueUnits" wait_for 30 grep -q "^relist queueunits " "$watch1"
check "the probe relists Queues" wait_for 10 grep -q "^relist queues " "$watch1"
check "the probe relists ElasticQuotas" wait_for 10 grep -q "^relist elasticquotas " "$watch1"
check "the paginated LIST (page size 50) holds all 120 QueueUnits" grep -q "^relist queueunits [0-9]* 120$" "$watch1"
check "the Queues LIST holds only the queue namespace's Queue" grep -q "^relist queues [0-9]* 1$" "$watch1"

for i in $(seq 1 15); do new_qu team-a "new-$i" >/dev/null; done
for i in $(seq 1 10); do api PATCH "$(qu_path koord-queue)/pre-$i" '{"metadata":{"labels":{"round":"1"}}}' >/dev/null; done
for i in $(seq 11 18); do api DELETE "$(qu_path team-a)/pre-$i" >/dev/null; done
sleep 4 # every watch (timeoutSeconds=3) ends and resumes at least once in between
for i in $(seq 16 30); do new_qu koord-queue "new-$i" >/dev/null; done
for i in $(seq 1 10); do api PATCH "$(qu_path koord-queue)/pre-$i" '{"metadata":{"labels":{"round":"2"}}}' >/dev/null; done
for i in $(seq 19 25); do api DELETE "$(qu_path team-a)/pre-$i" >/dev/null; done
new_queue koord-queue q-b >/dev/null
api PATCH /apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/elasticquotas/eq-a '{"spec":{"max":{"cpu":"20"}}}' >/dev/null
api DELETE /apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/koord-queue/elasticquotas/eq-b >/dev/null
sleep 4

check "the probe's QueueUnits equal the server's (nothing lost)" \
  wait_for 20 same_state "$watch1" queueunits /apis/scheduling.x-k8s.io/v1alpha1/queueunits
check "the probe's Queues equal the server's queue namespace" \
  wait_for 10 same_state "$watch1" queues /apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues
check "the probe's ElasticQuotas equal the server's" \
  wait_for 10 same_state "$watch1" elasticquotas /apis/scheduling.sigs.k8s.io/v1alpha1/elasticquotas
check "every create, patch and delete arrived as one event (30 + 20 + 15)" \
  test "$(grep -c '^event queueunits ' "$watch1")" = 65
check "no event is delivered twice" test -z "$(grep '^event ' "$watch1" | awk '{print $5, $6}' | sort | uniq -d)"
check "BOOKMARKs arrive (timeoutSeconds is set)" grep -q "^bookmark queueunits " "$watch1"
check "resumed watches never relisted" test "$(relists "$watch1" queueunits)" = 1
check "no problem was reported" bash -c "! grep -q '^problem ' '$watch1'"
check "the probe stops within 3 s of SIGTERM" stop_probe
check "the probe reports that it stopped" grep -qx stopped "$watch1"
stop_control_plane "$scratch/cp1"

# --- Phase 2: --watch-cache=false, etcd compacted: a reconnect gets the ERROR 410 and relists ---
start_plane "$scratch/cp2" --watch-cache=false
watch2="$scratch/watch2.out"
start_probe "$watch2" --watch-timeout 2
check "phase 2: the probe relists QueueUnits" wait_for 30 grep -q "^relist queueunits " "$watch2"
check "phase 2: a QueueUnit is created" test "$(new_qu koord-queue before-compaction)" = 201
check "phase 2: its ADDED arrives" wait_for 10 grep -q "^event queueunits ADDED koord-queue/before-compaction " "$watch2"
for i in 1 2 3; do
  api POST /api/v1/namespaces/default/configmaps "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"bump-$i\"}}" >/dev/null
done
revision=$(etcdctl endpoint status -w json | jq '.[0].Status.header.revision')
check "etcd is compacted to its head revision" etcdctl compact "$revision"
check "the reconnect from the compacted resourceVersion gets a 410" \
  wait_for 15 grep -q "^problem queueunits .*too old (410); relisting" "$watch2"
check "a relist follows the 410" wait_for 15 test "$(relists "$watch2" queueunits)" -ge 2
check "the relist holds the QueueUnit" bash -c "awk '/^relist queueunits /{n++} n>=2 && /^item queueunits koord-queue\/before-compaction /{f=1} END{exit !f}' '$watch2'"
check "phase 2: a QueueUnit created after the relist" test "$(new_qu koord-queue after-relist)" = 201
check "phase 2: its ADDED arrives on the new watch" \
  wait_for 10 grep -q "^event queueunits ADDED koord-queue/after-relist " "$watch2"
check "phase 2: the probe stops within 3 s" stop_probe

finish
