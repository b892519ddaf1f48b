#!/usr/bin/env bash
# Tick records per second, idle and under load (BENCHMARKS.md, "Decision core"): builds koordq in
# build-bench/ (RelWithDebInfo), runs `koordq serve --simulate` for SECONDS of wall time (default
# 20, then SIGINT) on an idle scenario (one quota, one queue, no arrivals) and on the built-in
# `default` scenario, each over a fresh journal under DIR (default $TMPDIR, else /tmp, removed on
# exit), and reports the journal's tick count (`koordq journal stat -o json`) per second and the
# process's CPU time.
#   scripts/bench-ticks.sh [DIR] [SECONDS] [extra serve flags]
set -euo pipefail
cd "$(dirname "$0")/.."

parent="${TMPDIR:-/tmp}"
if [[ $# -gt 0 && $1 != --* && ! $1 =~ ^[0-9]+$ ]]; then
  parent="$1"
  shift
fi
seconds=20
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  seconds="$1"
  shift
fi
mkdir -p "$parent"

cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build-bench koordq
koordq="$PWD/build-bench/cmd/koordq"

data="$(mktemp -d "$parent/koordq-bench-ticks-XXXXXX")"
trap 'rm -rf "$data"' EXIT
trap 'exit 130' INT TERM

cat >"$data/idle.yaml" <<'YAML'
name: idle
description: One quota and its queue; nothing ever arrives.
quotas:
  - name: idle
    max: {cpu: "8"}
queues:
  - name: idle
jobClasses:
  - name: none
    kind: Job
    namespaces: [idle]
    quota: idle
    request: {cpu: "1"}
    arrivalsPerMinute: 0
    runTime: 10s
YAML

# Ports of our own, so that runs next to other serve processes do not collide.
port_base=$((20000 + ($$ % 10000) * 4))

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %8s %9s %8s %8s %10s %8s\n' scenario seconds records ticks rounds ticks/s cpu_s
for scenario in idle default; do
  dir="$data/$scenario"
  spec="$scenario"
  [[ $scenario == idle ]] && spec="$data/idle.yaml"
  start=$(date +%s.%N)
  # serve runs until SIGINT (an orderly shutdown, like an operator's) after SECONDS of wall time;
  # timeout exits 124 when it had to send the signal. GNU time writes "user sys" to its own file;
  # serve's output goes to a log.
  rc=0
  /usr/bin/time -f '%U %S' -o "$data/$scenario.time" \
    timeout --signal=INT --kill-after=30 "$seconds" \
    "$koordq" serve --simulate --scenario "$spec" --journal-dir "$dir" \
    --metrics-bind-address "127.0.0.1:$port_base" --api-handler-port "$((port_base + 1))" \
    --enable-visibility-server=false "$@" >"$data/$scenario.log" 2>&1 || rc=$?
  if ((rc != 0 && rc != 124)); then
    echo "bench-ticks: serve ($scenario) exited with $rc; its log:" >&2
    tail -20 "$data/$scenario.log" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  stat="$("$koordq" journal stat --journal-dir "$dir" -o json)"
  records=$(jq '.records' <<<"$stat")
  ticks=$(jq '.kinds.tick // 0' <<<"$stat")
  rounds=$(jq '.kinds.round // 0' <<<"$stat")
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  cpu=$(tail -1 "$data/$scenario.time" | awk '{ printf "%.2f", $1 + $2 }')
  printf '%-8s %8s %9s %8s %8s %10s %8s\n' "$scenario" "$wall" "$records" "$ticks" "$rounds" \
    "$(awk -v t="$ticks" -v s="$seconds" 'BEGIN { printf "%.1f", t / s }')" "$cpu"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
