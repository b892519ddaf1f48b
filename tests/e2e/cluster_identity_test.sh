#!/usr/bin/env bash
# A journal belongs to one cluster (behaviour.md §2.1): koordq serve records the uid of the
# kube-system Namespace at a journal's first start and starts again on it against the same cluster;
# against a second control plane (another cluster) it refuses the journal with one log line naming
# both clusters and the fix, exit code 3, and not one byte in the journal directory changed. A
# simulator journal and a cluster journal refuse each other the same way.
# Usage: cluster_identity_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_identity_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

journal="$scratch/journal"
first_kubeconfig="$KUBECONFIG"
uid_a="$(k get namespace kube-system -o jsonpath='{.metadata.uid}')"
check "the first cluster's kube-system Namespace has a uid" test -n "$uid_a"

# serve_until_synced LOG KUBECONFIG: serve on $journal until its initial sync, then SIGTERM; exit 0.
serve_until_synced() {
  local log="$1"
  KUBECONFIG="$2" start_serve "$log" --leader-elect=false --journal-dir "$journal" --v=1
  eventually 60 grep -q 'initial sync complete' "$log"
  local synced=$?
  kill -TERM "$serve_pid"
  wait "$serve_pid"
  local code=$?
  [ "$synced" -eq 0 ] && [ "$code" -eq 0 ]
}
check "serve on a new journal syncs and stops with 0" serve_until_synced "$scratch/first.log" "$first_kubeconfig"
check "it logs the cluster's identity at --v=1" grep -q "cluster identity: kube-system Namespace uid $uid_a" "$scratch/first.log"
check "serve on the same cluster's journal again syncs and stops with 0" serve_until_synced "$scratch/again.log" "$first_kubeconfig"
check "the restart resumed the journal" grep -q 'state restored at seq' "$scratch/again.log"

# Every file of the journal directory, with its bytes' digest.
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
fingerprint "$journal" >"$scratch/before.sums"

# A second cluster: its own etcd and kube-apiserver, its own kube-system Namespace.
start_control_plane "$scratch/cp2"
trap 'stop_control_plane "$scratch/cp2"; cluster_cleanup' EXIT
second_kubeconfig="$KUBECONFIG"
uid_b="$(k get namespace kube-system -o jsonpath='{.metadata.uid}')"
check "the second cluster's kube-system Namespace has another uid" test -n "$uid_b" -a "$uid_b" != "$uid_a"

timeout 60 "$koordq" serve --kubeconfig "$second_kubeconfig" --leader-elect=false --metrics-bind-address 127.0.0.1:0 \
  --journal-dir "$journal" >"$scratch/other.log" 2>&1
code=$?
check "serve on another cluster's journal exits 3" test "$code" -eq 3
check "one error line names both clusters and the fix" test "$(grep -c '^E' "$scratch/other.log")" -eq 1
check "the line says which journal belongs to which cluster" grep -q "cannot open the journal: journal $journal belongs to the cluster whose kube-system Namespace has uid $uid_a, not to the cluster whose kube-system Namespace has uid $uid_b that this koordq serves; nothing in it was changed: give this koordq its own empty volume (or --journal-dir), or start it against the cluster that wrote the journal" "$scratch/other.log"
fingerprint "$journal" >"$scratch/after.sums"
check "not one byte of the journal directory changed" cmp -s "$scratch/before.sums" "$scratch/after.sums"

# The simulator's journal and a cluster's refuse each other.
(cd "$scratch" && timeout 120 "$koordq" serve --simulate --simulate-clock virtual --seed 1 --simulate-duration 10s \
  --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0 --journal-dir "$journal") >"$scratch/simulate-on-cluster.log" 2>&1
check "serve --simulate on a cluster's journal exits 3" test $? -eq 3
check "it names the cluster and the simulator" grep -q "belongs to the cluster whose kube-system Namespace has uid $uid_a, not to the simulator (serve --simulate)" "$scratch/simulate-on-cluster.log"
fingerprint "$journal" >"$scratch/after-simulate.sums"
check "serve --simulate changed nothing in it either" cmp -s "$scratch/before.sums" "$scratch/after-simulate.sums"

simulated="$scratch/simulated"
(cd "$scratch" && timeout 120 "$koordq" serve --simulate --simulate-clock virtual --seed 1 --simulate-duration 10s \
  --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0 --journal-dir "$simulated") >"$scratch/simulate.log" 2>&1
check "a simulator journal is written" test $? -eq 0
timeout 60 "$koordq" serve --kubeconfig "$first_kubeconfig" --leader-elect=false --metrics-bind-address 127.0.0.1:0 \
  --journal-dir "$simulated" >"$scratch/cluster-on-simulator.log" 2>&1
check "serve on a cluster with a simulator journal exits 3" test $? -eq 3
check "it names the simulator and the cluster" grep -q "belongs to the simulator (serve --simulate), not to the cluster whose kube-system Namespace has uid $uid_a" "$scratch/cluster-on-simulator.log"

verify_journal "the first cluster's journal" "$journal"
finish
