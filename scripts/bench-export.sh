#!/usr/bin/env bash
# The "Export and verify" figures of BENCHMARKS.md: `journal export` and `journal verify --export`
# from a file and from a pipe, in records/s, each beside the raw libraries doing the same reading
# in the same run (export_bench: a raw RocksDB scan of the same records, SHA-256 of the same
# bytes read the same way), then the same through the koordq binary against cat and sha256sum.
# The journal is the simulator's default scenario (seed 7, SIM_DURATION of simulated time, default
# 10m, about 186k records), or JOURNAL=DIR to reuse one.
# BASELINE=path/to/another/koordq also times that binary (say, one built from main) in the same rounds.
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

# One command's wall seconds and records/s, and its CPU seconds (user + system, every process of
# the pipeline) and records per CPU second, which a busy host disturbs less.
timed() {
  local name="$1" t
  shift
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1)
  awk -v n="$name" -v t="$t" -v r="$records" 'BEGIN {
    split(t, f, " "); cpu = f[2] + f[3]
    printf "%-52s %7.3f s %9.0f records/s   cpu %6.3f s %9.0f records/cpu-s\n", n, f[1], r / f[1], cpu, r / cpu }'
}
export_file="$work/export.ndjson"
"$koordq" journal export --journal-dir "$journal" "$export_file"
export_to_null() { "$1" journal export --journal-dir "$journal"; }
export_to_pipe() { "$1" journal export --journal-dir "$journal" | cat; }
# The pipes are the point: what a reader of standard input gets from another process.
# shellcheck disable=SC2002
raw_hash_of_pipe() { cat "$export_file" | sha256sum; }
verify_file() { "$1" journal verify --export "$export_file"; }
verify_redirected() { "$1" journal verify --export - <"$export_file"; }
# shellcheck disable=SC2002
verify_pipe() { cat "$export_file" | "$1" journal verify --export -; }
# BASELINE=path/to/another/koordq times the same commands with that binary in the same rounds.
binaries=("$koordq")
if [ -n "${BASELINE:-}" ]; then binaries+=("$BASELINE"); fi
for round in 1 2 3; do
  echo "round $round"
  timed "raw: cat FILE | sha256sum" raw_hash_of_pipe
  for binary in "${binaries[@]}"; do
    label=""
    if [ "$binary" != "$koordq" ]; then label=" (baseline)"; fi
    timed "export > /dev/null$label" export_to_null "$binary"
    timed "export | cat > /dev/null$label" export_to_pipe "$binary"
    timed "verify --export FILE$label" verify_file "$binary"
    timed "verify --export - < FILE$label" verify_redirected "$binary"
    timed "cat FILE | verify --export -$label" verify_pipe "$binary"
  done
done
