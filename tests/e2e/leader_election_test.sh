#!/usr/bin/env bash
# kube/leader and kube/events against a real kube-apiserver (tests/controlplane, behaviour.md §19,
# §13.2): a first replica creates the Lease, labels its Pod and records an Event twice (count 2);
# a second follows it, takes over once it is stopped (the Lease released), and a third takes over
# from a killed one after the lease duration; a held legacy Lease keeps a replica from leading
# until it is deleted.
# Usage: leader_election_test.sh path/to/leader_probe
set -uo pipefail

probe="$(readlink -f "${1:?usage: leader_election_test.sh path/to/leader_probe}")"
koordq="$probe"  # lib.sh's run() is not used here
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

plane="$scratch/cp"
declare -A pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  stop_control_plane "$plane"
  rm -rf "$scratch"
}
trap cleanup EXIT
start_control_plane "$plane"

api() { # api METHOD PATH [BODY]: prints the HTTP code; the body goes to $scratch/api.out
  local type=application/json
  [ "$1" = PATCH ] && type=application/merge-patch+json
  curl -sS --http1.1 -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
    -H "Content-Type: $type" -X "$1" "$KOORDQ_APISERVER_URL$2" ${3:+-d "$3"} -o "$scratch/api.out" -w '%{http_code}'
}
wait_for() { # wait_for SECONDS COMMAND...: polls COMMAND every 0.2 s
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 0.2
  done
}
lease=/apis/coordination.k8s.io/v1/namespaces/koord-queue/leases/koordq
legacy=/apis/coordination.k8s.io/v1/namespaces/default/leases/example-lease
holder() { api GET "$lease" >/dev/null && jq -r '.spec.holderIdentity // ""' "$scratch/api.out"; }
holder_is() { [ "$(holder)" = "$1" ]; }
transitions() { api GET "$lease" >/dev/null && jq -r '.spec.leaseTransitions' "$scratch/api.out"; }
labelled() { # labelled POD: the Pod carries koord-queue-leader=true
  api GET "/api/v1/namespaces/koord-queue/pods/$1" >/dev/null &&
    [ "$(jq -r '.metadata.labels["koord-queue-leader"] // ""' "$scratch/api.out")" = true ]
}
unlabelled() { ! labelled "$1"; }
event_count() { api GET /api/v1/namespaces/koord-queue/events >/dev/null && jq '.items | length' "$scratch/api.out"; }
new_pod() {
  api POST /api/v1/namespaces/koord-queue/pods \
    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"$1\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"
}
start_probe() { # start_probe NAME [ARGS]: identity NAME, Pod koord-queue/NAME; output in $scratch/NAME.{out,err}
  local name=$1
  shift
  "$probe" --identity "$name" --pod "koord-queue/$name" "$@" >"$scratch/$name.out" 2>"$scratch/$name.err" &
  pids[$name]=$!
}
says() { grep -qx "$2" "$scratch/$1.out"; }
stop_probe() { # stop_probe NAME: SIGTERM, gone within 10 s with exit 0
  local pid=${pids[$1]} _
  kill -TERM "$pid"
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && return 1
  wait "$pid"
  local code=$?
  unset "pids[$1]"
  [ "$code" = 0 ]
}

for p in replica-a replica-b replica-c replica-d; do
  check "Pod $p is created" test "$(new_pod "$p")" = 201
done

# A first replica: no Lease yet, no legacy Lease.
start_probe replica-a
check "replica-a leads" wait_for 20 says replica-a "started replica-a"
check "replica-a holds the Lease" holder_is replica-a
check "the Lease says 4 s" bash -c "jq -e '.spec.leaseDurationSeconds == 4 and .spec.leaseTransitions == 0' '$scratch/api.out'"
check "replica-a's Pod is labelled" labelled replica-a
check "replica-a logged became leader" grep -q '] became leader$' "$scratch/replica-a.err"
check "both writes of its Event succeeded" wait_for 10 test "$(grep -c '^outcome success 20[01]$' "$scratch/replica-a.out")" = 2
api GET /api/v1/namespaces/koord-queue/events/probe-unit.0000000000000100 >/dev/null
check "the Event was counted twice under its first name" \
  jq_true '.count == 2 and .reason == "FailedScheduling" and .type == "Warning" and .source.component == "koord-queue-controller" and .reportingComponent == "koord-queue-controller" and .reportingInstance == "replica-a" and .involvedObject.name == "probe-unit"' "$scratch/api.out"
check "no other Event was written" test "$(event_count)" = 1

# A second replica follows, then takes over once the first stops.
start_probe replica-b
check "replica-b sees replica-a lead" wait_for 20 says replica-b "new-leader replica-a"
check "replica-b logged the new leader" grep -q '] new leader elected: replica-a$' "$scratch/replica-b.err"
sleep 2
check "replica-b does not lead while replica-a renews" bash -c "! grep -q '^started' '$scratch/replica-b.out'"
check "replica-b's Pod is not labelled" unlabelled replica-b
check "replica-a stops on SIGTERM with exit 0" stop_probe replica-a
check "replica-a's label was removed" unlabelled replica-a
check "replica-b takes over the released Lease within 4 s" wait_for 4 says replica-b "started replica-b"
check "replica-b holds the Lease, one transition later" test "$(holder) $(transitions)" = "replica-b 1"
check "replica-b's Pod is labelled" labelled replica-b

# A killed leader: the next one waits for the lease duration by its own clock.
kill -KILL "${pids[replica-b]}"
wait "${pids[replica-b]}" 2>/dev/null
unset "pids[replica-b]"
start_probe replica-c
check "replica-c sees replica-b" wait_for 20 says replica-c "new-leader replica-b"
check "replica-c takes over a killed leader's Lease" wait_for 20 says replica-c "started replica-c"
check "replica-c holds the Lease, two transitions in" test "$(holder) $(transitions)" = "replica-c 2"
check "replica-c stops" stop_probe replica-c

# The legacy-lease guard.
now=$(date -u +%Y-%m-%dT%H:%M:%S.000000Z)
check "a legacy Lease held by Koord-Queue is created" test "$(api POST /apis/coordination.k8s.io/v1/namespaces/default/leases \
  "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"example-lease\"},\"spec\":{\"holderIdentity\":\"koord-queue-7d9f\",\"leaseDurationSeconds\":3600,\"renewTime\":\"$now\"}}")" = 201
start_probe replica-d
check "replica-d logs that the legacy Lease is held" wait_for 10 grep -q \
  '] not leading: legacy lease default/example-lease is held by koord-queue-7d9f (--legacy-lease-guard)$' "$scratch/replica-d.err"
sleep 3
check "replica-d does not lead while it is held" bash -c "! grep -q '^started' '$scratch/replica-d.out'"
check "replica-d has not touched the election Lease" holder_is ""
check "the legacy Lease is deleted" test "$(api DELETE "$legacy")" = 200
check "replica-d leads once the legacy Lease is gone" wait_for 10 says replica-d "started replica-d"
check "replica-d stops" stop_probe replica-d
check "the Lease is released on stop" holder_is ""
check "no probe printed a fatal error" bash -c "! grep -h '^fatal' '$scratch'/replica-*.out"

finish
