#!/usr/bin/env bash
# `koordq serve --simulate` end to end (behaviour.md §21, design.md §3): the virtual clock writes
# byte-identical journals for one seed, the journal verifies, it holds every record kind the loop
# writes, a different seed differs, 1 and 4 decision-actor threads write the same records, and a
# restart over the journal continues it.
# Usage: simulate_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: simulate_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

simulate() { # simulate DIR SEED DURATION [FLAG...]
  local dir=$1 seed=$2 duration=$3
  shift 3
  (cd "$scratch" && timeout 300 "$koordq" serve --simulate --simulate-clock virtual --seed "$seed" \
    --simulate-duration "$duration" --journal-dir "$dir" "$@") >"$dir.log" 2>&1
}
bodies() { "$koordq" journal export --journal-dir "$1" | jq -c 'select(.kind != "config") | .body'; }
head_of() { "$koordq" journal verify --journal-dir "$1" | sed -n 's/.*head \([0-9a-f]*\)$/\1/p'; }

simulate "$scratch/a" 7 90s
check "a virtual run exits 0" test $? -eq 0
simulate "$scratch/b" 7 90s
check "a second run exits 0" test $? -eq 0
head_a=$(head_of "$scratch/a")
head_b=$(head_of "$scratch/b")
check "the journal verifies" test -n "$head_a"
check "one scenario and seed give byte-identical journals" test "$head_a" = "$head_b"

"$koordq" journal stat --journal-dir "$scratch/a" -o json >"$scratch/stat.json"
check "the run admitted, failed and published (round, outcome and watch records)" \
  jq -e '.kinds.config == 1 and .kinds.round > 0 and .kinds.outcome > 0 and .kinds.watch > 0' "$scratch/stat.json"
check "the start journals a relist epoch per resource (begin and end)" jq -e '.kinds.relist == 6' "$scratch/stat.json"
check "the run stored a state snapshot on shutdown" jq -e '.snapshots >= 1' "$scratch/stat.json"
check "records carry virtual time from 2026-01-01" \
  jq -e '.firstTime == "2026-01-01T00:00:00.000Z" and .lastTime <= "2026-01-01T00:01:30.000Z"' "$scratch/stat.json"
"$koordq" journal export --journal-dir "$scratch/a" >"$scratch/a.ndjson"
check "admissions were decided" grep -q '"kind":"admit"' "$scratch/a.ndjson"
check "failed attempts carry the quota text" grep -q 'limited quotaName:' "$scratch/a.ndjson"

simulate "$scratch/c" 8 90s
check "another seed writes another journal" test "$(head_of "$scratch/c")" != "$head_a"

# The config record names the thread count; every other record must be the same.
simulate "$scratch/t1" 7 60s --actor-threads 1
simulate "$scratch/t4" 7 60s --actor-threads 4
simulate "$scratch/t0" 7 60s
check "1 and 4 actor threads write the same records" cmp -s <(bodies "$scratch/t1") <(bodies "$scratch/t4")
check "and the loop deciding on its own thread (--actor-threads 0) the same as the actors" \
  cmp -s <(bodies "$scratch/t0") <(bodies "$scratch/t1")
check "the thread count is in the config record" \
  bash -c "'$koordq' journal export --journal-dir '$scratch/t4' | head -1 | grep -q '\"actor-threads\",\"value\":\"4\"'"

records_before=$(jq .records "$scratch/stat.json")
simulate "$scratch/a" 7 30s
check "a restart over the journal exits 0" test $? -eq 0
"$koordq" journal stat --journal-dir "$scratch/a" -o json >"$scratch/stat2.json"
check "the restart starts from the snapshot" grep -q "state restored at seq [0-9]* (snapshot at seq" "$scratch/a.log"
check "the restart continues the journal with a relist epoch" \
  jq -e --argjson n "$records_before" '.records > $n and .kinds.config == 2 and .kinds.relist == 12' \
  "$scratch/stat2.json"
check "the continued journal verifies" test -n "$(head_of "$scratch/a")"
verify_journal "the restarted virtual run" "$scratch/a"

finish
