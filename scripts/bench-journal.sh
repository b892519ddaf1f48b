#!/usr/bin/env bash
# The journal benchmarks (BENCHMARKS.md, "Journal"): builds bench/journal_bench alone in
# build-bench/ (RelWithDebInfo) and runs it with its scratch data in a fresh directory under DIR
# (default $TMPDIR, else /tmp), removed on exit. The big journal takes ≈1.1 GB at its peak; the
# script refuses to start with less than 5 GiB free there.
#   scripts/bench-journal.sh [DIR] [--benchmark_filter=... and other benchmark flags]
# KOORDQ_BENCH_BIG_RECORDS sets the big journal's record count (default 10 000 000).
set -euo pipefail
cd "$(dirname "$0")/.."

parent="${TMPDIR:-/tmp}"
if [[ $# -gt 0 && $1 != --* ]]; then
  parent="$1"
  shift
fi
mkdir -p "$parent"

min_free_kib=$((5 * 1024 * 1024))
free_kib=$(df -Pk "$parent" | awk 'NR == 2 { print $4 }')
if ((free_kib < min_free_kib)); then
  echo "bench-journal: only $((free_kib / 1024)) MiB free in $parent; the benchmarks need 5 GiB" >&2
  exit 1
fi

cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build-bench journal_bench

data="$(mktemp -d "$parent/koordq-bench-journal-XXXXXX")"
trap 'rm -rf "$data"' EXIT
trap 'exit 130' INT TERM

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "data: $data ($((free_kib / 1024 / 1024)) GiB free)"
TMPDIR="$data" build-bench/bench/journal_bench --benchmark_counters_tabular=true "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
