#!/usr/bin/env bash
# The "Export and verify" figures of BENCHMARKS.md: `journal export` and `journal verify --export`
# from a file and from a pipe, in records/s, each beside the raw libraries doing the same reading
# in the same run (export_bench: a raw RocksDB scan of the same records, SHA-256 of the same
# bytes read the same way), then the same through the koordq binary against cat and sha256sum.
# The journal is the simulator's default scenario (seed 7, SIM_DURATION of simulated time, default
# 10m, about 186k records), or JOURNAL=DIR to reuse one.
# Usage: scripts/bench-export.sh [BUILD_DIR] [benchmark flags]   (BUILD_DIR default build)
set -euo pipefail
build="${1:-build}"
shift || true
ninja -C "$build" koordq export_bench >/dev/null
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-export.XXXXXX")"
trap 'rm -rf "$work"' EXIT
koordq="$build/cmd/koordq"
journal="${JOURNAL:-$work/journal}"
if [ -z "${JOURNAL:-}" ]; then
  "$koordq" serve --simulate --simulate-clock virtual --seed 7 --simulate-duration "${SIM_DURATION:-10m}" \
    --journal-dir "$journal" --metrics-bind-address 127.0.0.1:0 --visibility-port 0 --api-handler-port 0 \
    >"$work/serve.log" 2>&1
fi
records=$("$koordq" journal stat --journal-dir "$journal" -o json | sed -n 's/.*"records":\([0-9]*\).*/\1/p')
echo "journal: $records records"
KOORDQ_EXPORT_BENCH_JOURNAL="$journal" "$build/bench/export_bench" "$@"

# One command's wall seconds and records/s; the figures of one row come from one run each, in turn.
timed() {
  local name="$1"
  shift
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v n="$name" -v s="$start" -v e="$end" -v r="$records" \
    'BEGIN { printf "%-44s %7.3f s %9.0f records/s\n", n, e - s, r / (e - s) }'
}
export_file="$work/export.ndjson"
"$koordq" journal export --journal-dir "$journal" "$export_file"
export_to_null() { "$koordq" journal export --journal-dir "$journal"; }
export_to_pipe() { "$koordq" journal export --journal-dir "$journal" | cat; }
# The pipes are the point: what a reader of standard input gets from another process.
# shellcheck disable=SC2002
raw_hash_of_pipe() { cat "$export_file" | sha256sum; }
verify_file() { "$koordq" journal verify --export "$export_file"; }
verify_redirected() { "$koordq" journal verify --export - <"$export_file"; }
# shellcheck disable=SC2002
verify_pipe() { cat "$export_file" | "$koordq" journal verify --export -; }
for round in 1 2 3; do
  echo "round $round"
  timed "koordq journal export > /dev/null" export_to_null
  timed "koordq journal export | cat > /dev/null" export_to_pipe
  timed "raw: cat FILE | sha256sum" raw_hash_of_pipe
  timed "koordq journal verify --export FILE" verify_file
  timed "koordq journal verify --export - < FILE" verify_redirected
  timed "cat FILE | koordq journal verify --export -" verify_pipe
done
