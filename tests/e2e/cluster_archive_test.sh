#!/usr/bin/env bash
# The journal archive of a cluster (behaviour.md §26.2) on the real kube-apiserver and Ceph RGW: of
# two replicas only the leader uploads, under the cluster's identity; SIGKILL of the leader in the
# middle of its work and the follower's takeover leave each journal's archive whole (the new leader
# archives its own journal), and the old leader, back and leading again, continues its archive
# where it left off without uploading a segment twice. Each archive verifies and replays as its
# local journal does.
# Usage: cluster_archive_test.sh KOORDQ S3_CLIENT_PROBE S3_SERVER_SH
set -uo pipefail

koordq="$(readlink -f "$1")"
probe="$(readlink -f "$2")"
s3_server="$(readlink -f "$3")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"
trap 'bash "$s3_server" stop "$scratch/s3" >/dev/null 2>&1; cluster_cleanup' EXIT
if ! bash "$s3_server" start "$scratch/s3" >"$scratch/s3-server.log" 2>&1; then
  echo "FAIL: s3-server.sh start failed:"
  tail -n 40 "$scratch/s3-server.log"
  exit 1
fi
# shellcheck disable=SC1091
. "$scratch/s3/env"
archive="s3://$KOORDQ_S3_BUCKET/prod"

k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "100"}}
---
apiVersion: v1
kind: Pod
metadata: {name: koordq-r1, namespace: koord-queue}
spec: {containers: [{name: koordq, image: koordq}]}
---
apiVersion: v1
kind: Pod
metadata: {name: koordq-r2, namespace: koord-queue}
spec: {containers: [{name: koordq, image: koordq}]}
YAML
cluster_uid="$(k get namespace kube-system -o jsonpath='{.metadata.uid}')"
metric() { curl -s "http://127.0.0.1:$(bound_port "$scratch/r$1.log" metrics)/metrics" | sed -nE "s/^$2 ([0-9.e+]+)$/\1/p"; }
leads() { test "$(metric "$1" koordq_leader)" = 1; }
serve_replica() { # serve_replica N: replica koordq-rN, short lease, segments of 20 records or 1 s
  POD_NAME="koordq-r$1" POD_NAMESPACE=koord-queue start_serve "$scratch/r$1.log" --journal-dir "$scratch/r$1" \
    --leader-election-namespace koord-queue --leader-elect-lease-duration 6s --leader-elect-renew-deadline 4s \
    --leader-elect-retry-period 1s --enable-visibility-server=false --archive-url "$archive" \
    --archive-segment-records 20 --archive-segment-interval 1s --v=2
}
journal_of() { "$koordq" journal stat --journal-dir "$scratch/r$1" -o json | jq -r .journal; }
last_of() { "$koordq" journal stat --journal-dir "$scratch/r$1" -o json | jq -r .lastSeq; }
archived_of() { metric "$1" koordq_archive_archived_seq; }

serve_replica 1 && pid1=$serve_pid
check "replica 1 leads" eventually 20 leads 1
serve_replica 2 && pid2=$serve_pid
for i in $(seq 1 12); do unit "job$i" 1; done
check "the leader admits the units" eventually 30 is_dequeued job12
check "and archives its journal" eventually 20 sh -c "test \"\$(curl -s http://127.0.0.1:$(bound_port "$scratch/r1.log" metrics)/metrics | sed -nE 's/^koordq_archive_segments_total ([0-9]+)$/\1/p')\" -ge 2"
check "the follower uploads nothing" test "$(metric 2 koordq_archive_segments_total)" = 0
journal1="$(journal_of 1)"

# SIGKILL of the leader while it works; the follower takes over and archives its own journal.
for i in $(seq 13 18); do unit "job$i" 1; done
kill -9 "$pid1"
wait "$pid1" 2>/dev/null
check "replica 2 takes over" eventually 30 leads 2
check "and admits what arrived" eventually 30 is_dequeued job18
caught_up() { test "$(archived_of "$1")" -ge "$(last_of_live "$1")"; }
last_of_live() { metric "$1" koordq_journal_last_sequence; }
check "replica 2 archives its journal up to its head" eventually 30 caught_up 2
journal2="$(journal_of 2)"

# Replica 1 back: it follows, then leads again once replica 2 stops, and continues its archive.
serve_replica 1 && pid1=$serve_pid
check "replica 1 is back as a follower" eventually 20 grep -q 'initial sync complete' "$scratch/r1.log"
kill -TERM "$pid2"
wait "$pid2"
check "SIGTERM ends replica 2 with exit 0 (its tail uploaded)" test $? = 0
check "replica 1 leads again" eventually 30 leads 1
unit job19 1
check "and admits job19" eventually 30 is_dequeued job19
check "replica 1 archives its journal up to its head" eventually 30 caught_up 1
kill -TERM "$pid1"
wait "$pid1"

run archive ls --archive-url "$archive"
check "archive ls: both journals under the cluster's identity" \
  test "$(grep -c "^cluster $cluster_uid journal \($journal1\|$journal2\): " "$out")" = 2
"$probe" list "$KOORDQ_S3_BUCKET" "prod/$cluster_uid/$journal1/segments/" 1000 | grep -v '^pages=' |
  sed -E 's|.*/([0-9]+)-([0-9]+)\.ndjson\.zst .*|\1 \2|' >"$scratch/segments1"
# shellcheck disable=SC2016  # awk's fields
check "no range of replica 1's journal was uploaded twice" awk 'NR > 1 && $1 + 0 != last + 1 { bad = 1 } { last = $2 + 0 } END { exit bad }' "$scratch/segments1"
for r in 1 2; do
  j="$(journal_of "$r")"
  run archive verify --archive-url "$archive" --journal "$j"
  check "replica $r's archive verifies up to its journal's last seq" grep -q "^ok: .* seq 1\.\.$(last_of "$r")," "$out"
  "$koordq" archive export --archive-url "$archive" --journal "$j" "$scratch/archived$r.ndjson" 2>"$err"
  run replay --verify --export "$scratch/archived$r.ndjson"
  check "replay --verify of replica $r's journal from the archive alone" grep -q '^verified ' "$out"
done
finish
