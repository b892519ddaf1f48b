#!/usr/bin/env bash
# A leader whose journal cannot be written (behaviour.md §19, "Journal write failure") on the real
# kube-apiserver: its journal lives on a small tmpfs that a filler file fills up. The next append
# fails: the leader logs it, answers /readyz 503, removes its Pod label, releases the Lease, drops
# koordq_leader to 0, pauses watch ingestion and keeps running. Once the filler is gone the append
# succeeds: ingestion resumes with a relist, /readyz is 200, the replica leads again and decides the
# QueueUnit created while it could not write. Then a follower's journal fills: it stops campaigning,
# so the Lease the leader gives up on SIGTERM stays free until the follower's appends succeed again.
# Both journals verify and SIGTERM ends each replica with exit 0.
# Needs root (mount).
# Usage: cluster_journal_failure_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_journal_failure_test.sh path/to/koordq}")"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: needs root (mount -t tmpfs); the CI runs the tests as root"
  exit 0
fi
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

# The journal's disk: 128 MiB, of which a ballast file takes 96 MiB before koordq starts. RocksDB
# reserves a new log file ahead (1.1 × the 64 MiB write buffer); on a disk with room for that the
# appends would fill the reservation, not the disk, and could not fail. Freeing filler and ballast
# must leave more free than RocksDB's reserved buffer (that same 64 MiB): only then does RocksDB
# clear its no-space error (tests/reliability/disk_full_test.cpp).
disk="$scratch/disk"
mkdir -p "$disk"
follower_disk="$scratch/follower-disk"
mkdir -p "$follower_disk"
unmount_disk() {
  for d in "$disk" "$follower_disk"; do
    mountpoint -q "$d" && { umount "$d" || umount -l "$d"; }
  done
}
cleanup() {
  for p in "${koordq_pids[@]}"; do
    kill -9 "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  unmount_disk
  cluster_cleanup
}
trap cleanup EXIT
if ! mount -t tmpfs -o size=128m,nosuid,nodev tmpfs "$disk"; then
  echo "FAIL: cannot mount a tmpfs on $disk"
  exit 1
fi
journal="$disk/journal"
ballast="$disk/ballast"
filler="$disk/filler"
dd if=/dev/zero of="$ballast" bs=1M count=96 status=none

k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "4"}}
---
apiVersion: v1
kind: Pod
metadata: {name: koordq-0, namespace: koord-queue}
spec: {containers: [{name: koordq, image: koordq}]}
YAML
holder() { k get lease -n koord-queue koordq -o jsonpath='{.spec.holderIdentity}'; }
held() { test -n "$(holder)"; }
released() { test -z "$(holder)"; }
leader_label() { k get pod -n koord-queue koordq-0 -o jsonpath='{.metadata.labels.koord-queue-leader}'; }
labelled() { test "$(leader_label)" = true; }
unlabelled() { test -z "$(leader_label)"; }

log="$scratch/serve.log"
unit job1 1
POD_NAME=koordq-0 POD_NAMESPACE=koord-queue start_serve "$log" --journal-dir "$journal" \
  --leader-election-namespace koord-queue --leader-elect-lease-duration 6s --leader-elect-renew-deadline 4s \
  --leader-elect-retry-period 1s --enable-visibility-server=false --v=1 || fail "serve did not start"
pid=$serve_pid
M="http://127.0.0.1:$(bound_port "$log" metrics)"
leader_gauge() { curl -s "$M/metrics" | sed -n 's/^koordq_leader \([0-9]*\).*/\1/p'; }
leads() { test "$(leader_gauge)" = 1; }
follows() { test "$(leader_gauge)" = 0; }
readyz_code() { curl -s -o /dev/null -w '%{http_code}' "$M/readyz"; }
ready() { test "$(readyz_code)" = 200; }
not_ready() { test "$(readyz_code)" = 503; }
running() { kill -0 "$pid" 2>/dev/null; }

check "the replica leads" eventually 20 leads
check "and admits job1" eventually 15 is_dequeued job1
check "its Pod carries the leader label" eventually 10 labelled
check "the Lease names it" held
check "/readyz is 200" ready

# The disk fills up; job2 makes the leader append.
dd if=/dev/zero of="$filler" bs=1M status=none 2>/dev/null
check "the filler leaves the tmpfs full" test "$(df --output=avail -k "$disk" | tail -n1 | tr -d ' ')" -lt 64
unit job2 1
check "the failed append is logged" eventually 20 grep -q 'journal write failed: .*; releasing leadership' "$log"
grep -m1 'journal write failed' "$log"
check "/readyz answers 503" eventually 5 not_ready
curl -s "$M/readyz" >"$out"
check "naming the failing journal write and its error" grep -q '^journal write failing: .*No space left on device' "$out"
check "koordq_leader drops to 0" eventually 5 follows
check "the Pod label is removed" eventually 10 unlabelled
check "the Lease is released (no holder)" eventually 10 released
check "for 1 s" test "$(k get lease -n koord-queue koordq -o jsonpath='{.spec.leaseDurationSeconds}')" = 1
check "watch ingestion pauses" grep -q 'watch ingestion paused until the journal can be written' "$log"
check "the process keeps running" running
sleep 3
check "job2 is not decided while the journal cannot be written" test -z "$(phase_of job2)"
check "the Lease stays released while it fails" released
check "nor does it lead again" follows
check "still running after 3 s of retries" running
check "/readyz still answers 503" not_ready

# A unit changed while ingestion is paused: only the relist on resumption can bring it in.
unit job3 1
rm -f "$filler" "$ballast"
check "journal writes succeed again" eventually 40 grep -q 'journal writes succeed again: ingestion resumes' "$log"
check "ingestion resumes with a relist" eventually 5 grep -q 'watch ingestion resumed: relisting every watched resource' "$log"
check "/readyz is 200 again" eventually 10 ready
check "the replica leads again" eventually 20 leads
check "the Lease names it again" eventually 10 held
check "its Pod carries the label again" eventually 10 labelled
check "job2, created when the append failed, is admitted" eventually 20 is_dequeued job2
check "job3, created while ingestion was paused, is admitted" eventually 20 is_dequeued job3
check "job1 keeps its one admission" test \
  "$(k get queueunit -n default job1 -o jsonpath='{.status.attempts}/{.status.admissions[0].replicas}')" = 1/1

# A follower whose journal cannot be written stops campaigning: with the leader gone, it must not
# take the Lease (and hold it without deciding) until its own appends succeed again.
mount -t tmpfs -o size=128m,nosuid,nodev tmpfs "$follower_disk" || fail "cannot mount a tmpfs on $follower_disk"
dd if=/dev/zero of="$follower_disk/ballast" bs=1M count=96 status=none
k apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: koordq-1, namespace: koord-queue}
spec: {containers: [{name: koordq, image: koordq}]}
YAML
follower_log="$scratch/follower.log"
POD_NAME=koordq-1 POD_NAMESPACE=koord-queue start_serve "$follower_log" --journal-dir "$follower_disk/journal" \
  --leader-election-namespace koord-queue --leader-elect-lease-duration 6s --leader-elect-renew-deadline 4s \
  --leader-elect-retry-period 1s --enable-visibility-server=false --v=1 || fail "the second replica did not start"
follower_pid=$serve_pid
F="http://127.0.0.1:$(bound_port "$follower_log" metrics)"
check "a second replica syncs as a follower" eventually 20 grep -q 'initial sync complete' "$follower_log"
holder_is() { case "$(holder)" in "$1"_*) return 0 ;; *) return 1 ;; esac; }
check "while the first one keeps the Lease" holder_is koordq-0
dd if=/dev/zero of="$follower_disk/filler" bs=1M status=none 2>/dev/null
unit job4 500m
check "the leader admits job4" eventually 20 is_dequeued job4
check "the follower's failed append is logged" eventually 20 \
  grep -q 'journal write failed: .*; campaigning stops until an append succeeds' "$follower_log"
check "the follower's /readyz answers 503" eventually 5 \
  test "$(curl -s -o /dev/null -w '%{http_code}' "$F/readyz")" = 503
kill -TERM "$pid"
wait "$pid"
check "SIGTERM ends the leader with exit 0" test $? = 0
unit job5 500m
sleep 6
check "the failing follower does not take the released Lease" test -z "$(holder)"
check "nor decide job5" test -z "$(phase_of job5)"
rm -f "$follower_disk/filler" "$follower_disk/ballast"
check "the follower's journal writes succeed again" eventually 40 \
  grep -q 'journal writes succeed again: ingestion resumes' "$follower_log"
check "then it takes the Lease" eventually 20 holder_is koordq-1
check "and admits job5, created while it could not write" eventually 20 is_dequeued job5
kill -TERM "$follower_pid"
wait "$follower_pid"
check "SIGTERM ends the follower with exit 0" test $? = 0

for j in "$journal" "$follower_disk/journal"; do
  "$koordq" journal verify --journal-dir "$j" >"$out" 2>"$err"
  check "the journal $j verifies" grep -q '^ok:' "$out"
  "$koordq" replay --verify --journal-dir "$j" >"$out" 2>"$err"
  check "and replays with identical rounds" grep -q '^verified ' "$out"
done
finish
