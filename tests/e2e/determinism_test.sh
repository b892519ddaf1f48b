#!/usr/bin/env bash
# The virtual clock's promise under load (design.md §3): one scenario and seed write the same
# journal however busy the machine is. Two runs of seed 7 side by side, with a third process busy
# on the cores, end with the same head hash; the same for two runs with 2 decision-actor threads;
# the 1-thread and 2-thread journals hold the same records but for the config record (which names
# the thread count); and every journal passes `replay --verify`.
# Usage: determinism_test.sh path/to/koordq
# KOORDQ_DETERMINISM_DURATION (default 2m) sets the simulated time of each run; an hour
# (`60m`, about 1.1M records a run) is the long check BENCHMARKS.md reports.
set -uo pipefail

koordq="$(readlink -f "${1:?usage: determinism_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
duration="${KOORDQ_DETERMINISM_DURATION:-2m}"

# A process busy on every core for as long as the runs last.
busy_pids=()
start_busy() {
  local i
  for i in $(seq 1 "$(nproc)"); do
    (while :; do :; done) &
    busy_pids+=("$!")
    : "$i"
  done
}
stop_busy() {
  kill "${busy_pids[@]}" 2>/dev/null
  wait "${busy_pids[@]}" 2>/dev/null
  busy_pids=()
}
trap 'stop_busy; rm -rf "$scratch"' EXIT

simulate() { # simulate NAME THREADS: in the background, pid appended to $run_pids
  (cd "$scratch" && exec timeout 1800 "$koordq" serve --simulate --simulate-clock virtual --seed 7 \
    --simulate-duration "$duration" --journal-dir "$scratch/$1" --actor-threads "$2" \
    --metrics-bind-address 127.0.0.1:0 --visibility-port 0 --api-handler-port 0) >"$scratch/$1.log" 2>&1 &
  run_pids+=("$!")
}
await_runs() {
  local p ok=0
  for p in "${run_pids[@]}"; do wait "$p" || ok=1; done
  run_pids=()
  return "$ok"
}
head_of() { "$koordq" journal verify --journal-dir "$scratch/$1" | sed -n 's/.*head \([0-9a-f]*\)$/\1/p'; }
bodies() { "$koordq" journal export --journal-dir "$scratch/$1" | jq -c 'select(.kind != null and .kind != "config") | .body'; }

run_pids=()
start_busy
simulate one-a 1
simulate one-b 1
check "two 1-thread runs side by side, under load, exit 0" await_runs
simulate two-a 2
simulate two-b 2
check "two 2-thread runs side by side, under load, exit 0" await_runs
stop_busy

head_one=$(head_of one-a)
head_two=$(head_of two-a)
check "the journals verify" test -n "$head_one" -a -n "$head_two"
check "1 thread: both runs end with the same head ($head_one)" test "$head_one" = "$(head_of one-b)"
check "2 threads: both runs end with the same head ($head_two)" test "$head_two" = "$(head_of two-b)"
check "1 and 2 threads write the same records but the config record" cmp -s <(bodies one-a) <(bodies two-a)
records=$("$koordq" journal stat --journal-dir "$scratch/one-a" -o json | jq .records)
echo "each run: $records records over $duration of simulated time"
check "the runs journaled thousands of records" test "$records" -gt 10000
verify_journal "the 1-thread run" "$scratch/one-a"
verify_journal "the 2-thread run" "$scratch/two-a"

finish
