#!/usr/bin/env bash
# `koordq replay` end to end (behaviour.md §24.3, design.md §3): a virtual-clock simulation replays
# to a byte-stable summary (the golden file), as JSON, up to a mid-way WHEN, and verifies every
# recorded round, from the journal and from its export; --what-if prints its golden tables; a wall-clock run killed with SIGKILL and
# restarted still verifies; bad input gets its exit code and a one-line message.
#
# Usage: replay_test.sh path/to/koordq GOLDEN_DIR
# Regenerate the golden file after a deliberate change of the simulator or the decision logic:
#   KOORDQ_REGENERATE_GOLDEN=1 bash tests/e2e/replay_test.sh build-replay/cmd/koordq tests/golden
# (writes GOLDEN_DIR/replay_seed3_60s*.txt instead of comparing; review the diff before committing).
set -uo pipefail

koordq="$(readlink -f "${1:?usage: replay_test.sh path/to/koordq GOLDEN_DIR}")"
golden_dir="$(readlink -f "${2:?usage: replay_test.sh path/to/koordq GOLDEN_DIR}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
golden="$golden_dir/replay_seed3_60s.txt"

j="$scratch/sim"
(cd "$scratch" && timeout 300 "$koordq" serve --simulate --simulate-clock virtual --seed 3 \
  --simulate-duration 60s --journal-dir "$j") >"$scratch/sim.log" 2>&1
check "the virtual-clock simulation exits 0" test $? -eq 0

# Plain replay: the golden summary.
run replay --journal-dir "$j"
if [ "${KOORDQ_REGENERATE_GOLDEN:-}" = 1 ]; then
  cp "$out" "$golden"
  echo "wrote $golden"
fi
check "replay exits 0" test "$code" -eq 0
check "replay prints the golden summary" diff -u "$golden" "$out"
check "replay prints three lines" test "$(wc -l <"$out")" -eq 3
last=$("$koordq" journal stat --journal-dir "$j" -o json | jq .lastSeq)
check "the summary is at the newest revision" grep -q "^revision $last (" "$out"

run replay --journal-dir "$j" -o json
check "replay -o json exits 0" test "$code" -eq 0
check "replay -o json has the shape of §24.3" jq_true --argjson last "$last" \
  '(keys_unsorted == ["journal","revision","time","records","queues","quotas","units","phases"])
   and .revision == $last and .records == $last and .units > 0 and .queues > 0 and .quotas > 0
   and ([.phases[]] | add) == .units' "$out"
check "the JSON agrees with the text" test "$(jq -r '"queues \(.queues), quotas \(.quotas), units \(.units)"' "$out")" \
  = "$(sed -n 3p "$golden" | sed 's/ (.*//')"
uuid=$(jq -r .journal "$out")
time_mid=$(jq -r .time "$out")

# Verify every recorded round.
run replay --journal-dir "$j" --verify
check "replay --verify exits 0" test "$code" -eq 0
check "replay --verify reports the decisions and rounds" grep -Eq "^verified [0-9]+ decisions in [1-9][0-9]* rounds, $last records, [1-9][0-9]* snapshots$" "$out"
run replay --journal-dir "$j" --verify -o json
check "replay --verify -o json" jq_true --argjson last "$last" \
  '.records == $last and .rounds > 0 and .decisions > 0 and (has("divergence") | not)' "$out"

# --to: a revision and a time half-way.
mid=$((last / 2))
run replay --journal-dir "$j" --to "rev:$mid" -o json
check "--to rev:N replays up to N" jq_true --argjson mid "$mid" '.revision == $mid and .records == $mid' "$out"
mid_time=$(jq -r .time "$out")
run replay --journal-dir "$j" --to "$mid_time" -o json
# (times print to the millisecond: records later in that millisecond than $mid_time are after it)
check "--to TIME replays up to the last record at that time" jq_true --argjson mid "$mid" \
  --arg t "$mid_time" '.revision <= $mid and .revision > 0 and .time <= $t' "$out"
run replay --journal-dir "$j" --to "rev:$mid" --verify
check "--verify --to stops there" grep -Eq "^verified [0-9]+ decisions in [0-9]+ rounds, $mid records, [0-9]+ snapshots$" "$out"

# The export replays and verifies the same.
"$koordq" journal export --journal-dir "$j" "$scratch/export.ndjson"
run replay --export "$scratch/export.ndjson"
check "replay --export prints the golden summary" diff -u "$golden" "$out"
run replay --export - --verify <"$scratch/export.ndjson"
check "replay --export - --verify reads stdin and verifies" grep -Eq "^verified [0-9]+ decisions in [1-9][0-9]* rounds, $last records, 0 snapshots$" "$out"

# What-if: the golden tables (more quota for platform and team-data; a shorter maximum backoff),
# the JSON agreeing with the text, and settings that change nothing reporting no difference.
whatif() { # whatif GOLDEN_NAME ARGS...
  local name="$1"
  shift
  run replay --journal-dir "$j" "$@"
  if [ "${KOORDQ_REGENERATE_GOLDEN:-}" = 1 ]; then
    cp "$out" "$golden_dir/$name"
    echo "wrote $golden_dir/$name"
  fi
  check "replay $* exits 0" test "$code" -eq 0
  check "replay $* prints the golden $name" diff -u "$golden_dir/$name" "$out"
}
whatif replay_seed3_60s_whatif_quota.txt --what-if quota.platform.max.cpu=448 --what-if quota.team-data.max.cpu=256
check "more quota admits units earlier and none later" grep -Eq "^earlier [1-9][0-9]*, later 0, " "$out"
whatif replay_seed3_60s_whatif_backoff.txt --what-if pod-max-backoff-seconds=2
run replay --journal-dir "$j" --what-if quota.platform.max.cpu=448 --what-if quota.team-data.max.cpu=256 -o json
check "replay --what-if -o json has the shape of §24.3" jq_true \
  '(keys_unsorted == ["changes","units","summary"])
   and .changes == {"quota.platform.max.cpu": "448", "quota.team-data.max.cpu": "256"}
   and (.units | length) > 0
   and all(.units[]; keys_unsorted == ["namespace","name","uid","queue","recordedAdmission","whatIfAdmission",
                                        "deltaSeconds","estimated"])
   and (.summary | keys_unsorted) == ["earlier","later","unchanged","newlyAdmitted","noLongerAdmitted"]
   and (.units | length) == .summary.earlier + .summary.later + .summary.newlyAdmitted + .summary.noLongerAdmitted' \
  "$out"
check "the what-if JSON agrees with the text" test \
  "$(jq -r '.summary | "earlier \(.earlier), later \(.later), unchanged \(.unchanged), newly admitted \(.newlyAdmitted), no longer admitted \(.noLongerAdmitted)"' "$out")" \
  = "$(tail -n 1 "$golden_dir/replay_seed3_60s_whatif_quota.txt")"
run replay --journal-dir "$j" --what-if oversellrate=1 --what-if quota.no-such-quota.max.cpu=1
check "settings that change nothing report no difference" \
  grep -Eqx "earlier 0, later 0, unchanged [1-9][0-9]*, newly admitted 0, no longer admitted 0" "$out"
check "settings that change nothing print no table" test "$(wc -l <"$out")" -eq 1
# Any other policy value is a valid, unsupported one (§2.3, §6.6): that queue admits nothing.
run replay --journal-dir "$j" --what-if queue.team-data.policy=FIFO -o json
check "an unsupported policy is a valid what-if" test "$code" -eq 0
check "an unsupported policy admits none of its queue's units" jq_true \
  '[.units[] | select(.queue == "team-data")] | length > 0 and all(.[]; .whatIfAdmission == null)
   and any(.[]; .recordedAdmission != null)' "$out"
# On a terminal the what-if shows its progress like replay and clears it (the 3 passes over this
# journal walk more records than one progress interval, kProgressEvery).
(cd "$scratch" && script -q -e -c "'$koordq' replay --journal-dir '$j' --what-if quota.platform.max.cpu=448 >/dev/null" \
  "$scratch/terminal.txt" </dev/null >/dev/null)
check "replay --what-if on a terminal shows its progress" grep -q 're-deciding \[' "$scratch/terminal.txt"

# A wall-clock run killed with SIGKILL, then restarted over the same journal.
w="$scratch/wall"
(cd "$scratch" && exec "$koordq" serve --simulate --seed 3 --journal-dir "$w" --snapshot-every 500) \
  >"$scratch/wall1.log" 2>&1 &
wall_pid=$!
sleep 5
{
  kill -KILL "$wall_pid"
  wait "$wall_pid"
  wall_code=$?
} 2>/dev/null
check "the wall-clock run was killed with SIGKILL" test "$wall_code" -eq 137
(cd "$scratch" && timeout 60 "$koordq" serve --simulate --seed 3 --journal-dir "$w" --snapshot-every 500 \
  --simulate-duration 3s) >"$scratch/wall2.log" 2>&1
check "the restart exits 0" test $? -eq 0
check "the restarted journal holds two config records" \
  test "$("$koordq" journal stat --journal-dir "$w" -o json | jq .kinds.config)" -eq 2
run replay --journal-dir "$w" --verify
check "the killed and restarted journal verifies" grep -Eq "^verified [0-9]+ decisions in [1-9][0-9]* rounds" "$out"
run replay --journal-dir "$w"
check "the killed and restarted journal replays" test "$code" -eq 0

# Bad input: exit codes of §24 and one line on stderr.
bad() { # bad DESCRIPTION EXIT_CODE PATTERN ARGS...
  local what="$1" want="$2" pattern="$3"
  shift 3
  run "$@"
  check "$what: exit $want" test "$code" -eq "$want"
  check "$what: one line on stderr" test "$(wc -l <"$err")" -eq 1
  check "$what: names the problem" grep -q -- "$pattern" "$err"
}
bad "an invalid WHEN" 2 'invalid value "yesterday" for --to' replay --journal-dir "$j" --to yesterday
bad "rev:0" 2 'invalid value "rev:0" for --to' replay --journal-dir "$j" --to rev:0
bad "a revision past the end" 2 "revision 99999999 is newer than the latest revision $last" \
  replay --journal-dir "$j" --to rev:99999999
bad "a time before the first record" 2 "time 2000-01-01T00:00:00Z is older than the oldest retained revision 1" \
  replay --journal-dir "$j" --to 2000-01-01T00:00:00Z
bad "a time in the future" 2 "must be an RFC3339 time not in the future" \
  replay --journal-dir "$j" --to 2200-01-01T00:00:00Z
bad "a missing journal" 3 "journal directory $scratch/nothing does not exist" replay --journal-dir "$scratch/nothing"
mkdir -p "$scratch/empty"
bad "a directory that is no journal" 3 "$scratch/empty" replay --journal-dir "$scratch/empty"
bad "a missing export" 3 "export file $scratch/none.ndjson does not exist" replay --export "$scratch/none.ndjson"
sed '5s/"kind":"/"kind":"x/' "$scratch/export.ndjson" >"$scratch/broken.ndjson"
bad "an export with a broken chain" 3 "is broken at seq 5" replay --export "$scratch/broken.ndjson"
echo "not json" >"$scratch/garbage.ndjson"
bad "an export that is not NDJSON" 3 "is not a journal export (line 1" replay --export "$scratch/garbage.ndjson"
bad "--verify with --what-if" 2 "exclude each other" replay --journal-dir "$j" --verify --what-if oversellrate=2
bad "an unknown what-if key" 2 'unknown what-if key "nope"' replay --journal-dir "$j" --what-if nope=1
bad "an invalid what-if value" 2 'invalid what-if value "abc" for oversellrate' \
  replay --journal-dir "$j" --what-if oversellrate=abc
bad "an invalid what-if quantity" 2 'invalid what-if value "lots" for quota.team-data.max.cpu' \
  replay --journal-dir "$j" --what-if quota.team-data.max.cpu=lots
bad "an initial backoff above the journal's maximum" 2 \
  'invalid what-if value "30" for pod-initial-backoff-seconds' replay --journal-dir "$j" --what-if pod-initial-backoff-seconds=30
bad "--export with --journal-dir" 2 "exclude each other" replay --journal-dir "$j" --export "$scratch/export.ndjson"
bad "an unknown output" 2 '"yaml"' replay --journal-dir "$j" -o yaml
: "$uuid" "$time_mid"

finish
