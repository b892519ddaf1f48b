#!/usr/bin/env bash
# The journaled metric state across a restart (behaviour.md §15.4): the queueing counters,
# job_scheduling_e2e_latency and koordq_admission_wait_seconds resume their values after a restart
# over an intact journal (never back to zero, never counted twice by the replay), while
# job_scheduling_algorithm_latency, a process-local measurement, starts from zero.
# Per series: the scrape before the stop ≤ `koordq at rev:<last seq of that run> metrics` ≤ the
# first scrape after the restart, and the replayed value equals the journal's own at that seq.
# Usage: metrics_restart_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: metrics_restart_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

journal="$scratch/journal"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

# start LOG: serve --simulate over $journal; sets serve_pid and M (the metrics address).
start() {
  local log=$1 port=""
  (cd "$scratch" && exec "$koordq" serve --simulate --simulate-speed 8 --journal-dir "$journal" \
    --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0) >"$log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 1 300); do
    port=$(sed -n 's|.*curl http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$log" | head -n1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  M="http://127.0.0.1:$port"
  [ -n "$port" ]
}

# journaled FILE: the journaled series of a metrics text, one "name{labels} value" per line, sorted.
journaled() {
  grep -E '^(queueunits_coming_rate_by_job_type|job_schedule_attempts|job_scheduling_e2e_latency_(count|sum|bucket)|koordq_admission_wait_seconds_(count|sum|bucket))[{ ]' "$1" | sort
}

# not_less A B: every series of A is in B with a value at least A's (counters and histograms).
not_less() {
  awk 'NR == FNR { a[$1] = $2; next } { b[$1] = $2 }
       END { bad = 0
             for (k in a) if (!(k in b) || b[k] + 0 < a[k] + 0) { print "  " k ": " a[k] " then " (k in b ? b[k] : "absent") > "/dev/stderr"; bad = 1 }
             exit bad }' "$1" "$2"
}

check "the first run starts and prints its metrics address" start "$scratch/first.log"
sleep 6 # admissions, failed attempts and completions at 8× speed
curl -s "$M/metrics" >"$scratch/before.txt"
journaled "$scratch/before.txt" >"$scratch/before"
check "the first run counted attempts, arrivals and admission waits" \
  bash -c "grep -q '^job_schedule_attempts{' '$scratch/before' && grep -q '^queueunits_coming_rate_by_job_type{' '$scratch/before' && grep -q '^koordq_admission_wait_seconds_count{' '$scratch/before'"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "the first run exits 0 on SIGTERM" test $? -eq 0
serve_pid=""

last=$("$koordq" journal stat --journal-dir "$journal" -o json | jq -r .lastSeq)
"$koordq" at "rev:$last" metrics --journal-dir "$journal" >"$scratch/at.txt"
journaled "$scratch/at.txt" >"$scratch/at"
check "the journal's counters at its last record are at least the last scrape's" not_less "$scratch/before" "$scratch/at"

check "the second run starts over the journal" start "$scratch/second.log"
curl -s "$M/metrics" >"$scratch/after.txt"
journaled "$scratch/after.txt" >"$scratch/after"
check "after the restart every journaled series resumes at least where the journal ended" \
  not_less "$scratch/at" "$scratch/after"
attempts() { awk '/^job_schedule_attempts/ { s += $2 } END { print s + 0 }' "$1"; }
check "the restart does not count the journal's attempts again (far fewer new ones than the journal holds)" \
  test $(($(attempts "$scratch/after") - $(attempts "$scratch/at"))) -lt "$(attempts "$scratch/at")"
algorithm_count() { sed -n 's/^job_scheduling_algorithm_latency_count \([0-9]*\)$/\1/p' "$1"; }
check "job_scheduling_algorithm_latency is process-local: it starts again below the first run's count" \
  test "$(algorithm_count "$scratch/after.txt")" -lt "$(algorithm_count "$scratch/before.txt")"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "the second run exits 0 on SIGTERM" test $? -eq 0
serve_pid=""
verify_journal "the restarted simulation's journal" "$journal"

finish
