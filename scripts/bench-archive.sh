#!/usr/bin/env bash
# The "Journal archive" figures of BENCHMARKS.md, against Ceph RGW from scripts/s3-server.sh (or
# the server of an env file given as S3_ENV=FILE):
#  - the archive writer: serve's archiver uploading the simulator's journal (seed 7, SIM_DURATION of
#    simulated time, default 10m) in segments of SEGMENT records (default 10000), timed from its
#    first listing to its last upload in its own log, against raw PUTs of the same objects through
#    the same S3 client in the same run (ratio raw ÷ archive: 1.0 means building the segments costs
#    nothing beside the upload);
#  - bytes per record: the bucket's against the journal's on disk and the export's;
#  - `at rev:N` with --archive-url cold (an empty segment cache) and warm (the cache holds what it
#    needs) against `at` over the local journal, and the former way (archive export, then at over
#    the export) in the same run.
# Usage: scripts/bench-archive.sh [BUILD_DIR]   (BUILD_DIR default build)
set -euo pipefail
build="$(readlink -f "${1:-build}")"
cd "$(dirname "$0")/.."
ninja -C "$build" koordq s3_client_probe >/dev/null
koordq="$build/cmd/koordq"
probe="$build/tests/s3_client_probe"
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-archive.XXXXXX")"
server=""
cleanup() {
  [ -n "$server" ] && bash scripts/s3-server.sh stop "$server" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
if [ -n "${S3_ENV:-}" ]; then
  # shellcheck disable=SC1090
  . "$S3_ENV"
else
  server="$work/s3"
  bash scripts/s3-server.sh start "$server" >"$work/s3.log" 2>&1 || { tail -n 20 "$work/s3.log"; exit 1; }
  # shellcheck disable=SC1091
  . "$server/env"
fi
bucket="$KOORDQ_S3_BUCKET"
run_id="bench-$(date +%s)"
segment="${SEGMENT:-10000}"

journal="$work/journal"
"$koordq" serve --simulate --simulate-clock virtual --seed 7 --simulate-duration "${SIM_DURATION:-10m}" \
  --journal-dir "$journal" --metrics-bind-address 127.0.0.1:0 --enable-api-handler=false \
  --enable-visibility-server=false >"$work/sim.log" 2>&1
"$koordq" journal stat --journal-dir "$journal" -o json >"$work/stat.json"
records=$(jq -r .records "$work/stat.json")
disk_bytes=$(jq -r .bytes "$work/stat.json")
echo "journal: $records records, $disk_bytes bytes on disk, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# The archive writer: a serve that continues the journal uploads all of it at its start.
"$koordq" serve --simulate --simulate-clock virtual --seed 7 --simulate-duration 1ms --journal-dir "$journal" \
  --metrics-bind-address 127.0.0.1:0 --enable-api-handler=false --enable-visibility-server=false \
  --archive-url "s3://$bucket/$run_id" --archive-segment-records "$segment" --v=2 >"$work/archive.log" 2>&1
# On a loaded host the orderly stop's 10 s may end before everything is up (the writer figure is this
# first pass's); later passes continue where it stopped, until the archive holds every record and
# snapshot, so that `at` below reads a whole archive.
for _ in 1 2 3 4 5 6 7 8 9 10; do
  "$koordq" archive ls --archive-url "s3://$bucket/$run_id" -o json --times=false >"$work/ls.json"
  "$koordq" journal stat --journal-dir "$journal" -o json >"$work/stat-now.json"
  [ "$(jq -r '.journals[0].lastSeq' "$work/ls.json")" = "$(jq -r .lastSeq "$work/stat-now.json")" ] &&
    [ "$(jq -r '.journals[0].snapshots' "$work/ls.json")" = "$(jq -r .snapshots "$work/stat-now.json")" ] && break
  "$koordq" serve --simulate --simulate-clock virtual --seed 7 --simulate-duration 1ms --journal-dir "$journal" \
    --metrics-bind-address 127.0.0.1:0 --enable-api-handler=false --enable-visibility-server=false \
    --archive-url "s3://$bucket/$run_id" --archive-segment-records "$segment" >"$work/archive-more.log" 2>&1
done
seconds_of() { awk '{ split($2, t, ":"); print t[1] * 3600 + t[2] * 60 + t[3] }'; }
t0=$(grep -m1 'journal archive s3://.*: holds journal' "$work/archive.log" | seconds_of)
t1=$(grep 'journal archive: segment seq' "$work/archive.log" | tail -n1 | seconds_of)
archived=$(grep -c 'journal archive: segment seq' "$work/archive.log")
archived_records=$(sed -nE 's/.*journal archive: segment seq [0-9]+\.\.[0-9]+ \(([0-9]+) records.*/\1/p' "$work/archive.log" |
  awk '{ n += $1 } END { print n }')
archive_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')

# Raw PUTs of the same objects through the same client.
"$koordq" archive ls --archive-url "s3://$bucket/$run_id" -o json --times=false >"$work/ls.json"
snapshot_count=$(jq -r '.journals[0].snapshots' "$work/ls.json")
"$probe" list "$bucket" "$run_id/" 1000 | grep -v '^pages=' | cut -d' ' -f1 | grep '/segments/' >"$work/keys"
mkdir -p "$work/objects"
i=0
while read -r key; do
  i=$((i + 1))
  "$probe" get "$bucket" "$key" >"$work/objects/$i"
done <"$work/keys"
start=$(date +%s.%N)
for f in "$work/objects"/*; do "$probe" put "$bucket" "raw-$run_id/$(basename "$f")" "$f" >/dev/null; done
raw_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
bucket_bytes=$(cat "$work/objects"/* | wc -c)
"$koordq" journal export --journal-dir "$journal" "$work/export.ndjson"
export_bytes=$(stat -c %s "$work/export.ndjson")

objects=$(wc -l <"$work/keys")
awk -v r="$archived_records" -v n="$archived" -v a="$archive_s" -v w="$raw_s" -v o="$objects" 'BEGIN {
  printf "archive writer: %d segments (%d records) in %.3f s = %.0f records/s; raw PUT of all %d segment objects %.3f s; raw / archive per segment %.2f\n",
    n, r, a, r / a, o, w, (w / o) / (a / n) }'
awk -v r="$records" -v b="$bucket_bytes" -v d="$disk_bytes" -v e="$export_bytes" 'BEGIN {
  printf "bytes per record: bucket %.0f, journal on disk %.0f, export %.0f (export / bucket %.1fx)\n",
    b / r, d / r, e / r, e / b }'
echo "snapshots in the bucket: $snapshot_count, $(jq -r '.journals[0].bytes' "$work/ls.json") bytes with the segments"

# `at` from the archive, cold and warm, against the local journal (median of 5 each).
mid=$((records / 2))
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
time_of() {
  local s
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", b - a }'
}
at_archive() { "$koordq" at "rev:$mid" queues -o json --archive-url "s3://$bucket/$run_id" --archive-cache "$work/cache"; }
cold() {
  rm -rf "$work/cache"
  at_archive
}
pipeline() {
  "$koordq" archive export --archive-url "s3://$bucket/$run_id" "$work/cold.ndjson" &&
    "$koordq" at "rev:$mid" queues -o json --export "$work/cold.ndjson"
}
cold_s=$(for _ in 1 2 3 4 5; do time_of cold; done | median)
at_archive >/dev/null 2>&1
warm_s=$(for _ in 1 2 3 4 5; do time_of at_archive; done | median)
local_s=$(for _ in 1 2 3 4 5; do time_of "$koordq" at "rev:$mid" queues -o json --journal-dir "$journal"; done | median)
pipeline_s=$(for _ in 1 2 3 4 5; do time_of pipeline; done | median)
"$koordq" at "rev:$mid" queues -o json --archive-url "s3://$bucket/$run_id" --archive-cache off --archive-stats \
  2>&1 >/dev/null | sed 's/^/  /'
awk -v c="$cold_s" -v w="$warm_s" -v l="$local_s" -v p="$pipeline_s" -v m="$mid" 'BEGIN {
  printf "at rev:%d queues: archive cold %.3f s, warm %.3f s, local journal %.3f s (cold / local %.1fx, warm / local %.1fx); archive export | at --export %.3f s\n",
    m, c, w, l, c / l, w / l, p }'
