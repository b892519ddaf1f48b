#!/usr/bin/env bash
# The simulator figures of BENCHMARKS.md: the virtual-clock simulation of a scenario (default: the
# built-in one, seed 7, 10m of simulated time), RUNS times, against folding the same journal
# (`koordq replay`, the decision state alone) and a raw scan of it (`koordq journal stat`), each
# timed in the same run. With --large, the scenario is scripts/make-scenario.py's 1,000 queues and
# 10,000 live units, for SIM_DURATION (default 1h).
# Usage: scripts/bench-simulate.sh [--large] [BUILD_DIR]   (BUILD_DIR default build; RUNS default 3)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
large=0
if [ "${1:-}" = "--large" ]; then
  large=1
  shift
fi
build="${1:-build}"
runs="${RUNS:-3}"
koordq="$build/cmd/koordq"
ninja -C "$build" koordq >/dev/null
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-simulate.XXXXXX")"
trap 'rm -rf "$work"' EXIT
scenario=(--seed 7)
duration="${SIM_DURATION:-10m}"
if [ "$large" = 1 ]; then
  python3 "$here/make-scenario.py" --queues 1000 --units 10000 >"$work/large.yaml"
  scenario=(--seed 7 --scenario "$work/large.yaml")
  duration="${SIM_DURATION:-1h}"
fi

# seconds COMMAND...: wall seconds of COMMAND (its output discarded), to stdout.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { print e - s }'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$runs"); do
  rm -rf "$work/journal"
  sim=$(seconds "$koordq" serve --simulate --simulate-clock virtual "${scenario[@]}" \
    --simulate-duration "$duration" --journal-dir "$work/journal" --metrics-bind-address 127.0.0.1:0 \
    --visibility-port 0 --api-handler-port 0)
  records=$("$koordq" journal stat --journal-dir "$work/journal" -o json | jq .records)
  fold=$(seconds "$koordq" replay --journal-dir "$work/journal")
  scan=$(seconds "$koordq" journal stat --journal-dir "$work/journal")
  awk -v run="$run" -v n="$records" -v sim="$sim" -v fold="$fold" -v scan="$scan" 'BEGIN {
    printf "run %d: %d records; simulate %.2f s (%.0f records/s); replay %.2f s (%.0f/s); stat scan %.2f s; simulate / replay %.2fx\n",
      run, n, sim, n / sim, fold, n / fold, scan, fold / sim }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
