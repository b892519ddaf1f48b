#!/usr/bin/env bash
# `koordq explain NS/NAME` (behaviour.md §24.2) over a virtual-clock simulator journal: the story of
# one unit that had a failed attempt and later an admission, compared with a golden file; -o json
# checked with jq (key order, phases, positions, quota paths); --uid, --at and --export; bad
# input with its exit codes (§24).
#
# The golden file is the text output for $unit over the journal of
#   koordq serve --simulate --simulate-clock virtual --seed 3 --simulate-duration 60s --journal-dir DIR
# It changes when the simulator's scenario, the decision logic or explain's summaries change. To
# regenerate it, from the repository root with a fresh build:
#   d=$(mktemp -d) && build/koordq serve --simulate --simulate-clock virtual --seed 3 \
#     --simulate-duration 60s --journal-dir "$d/j" >/dev/null 2>&1 &&
#   build/koordq explain --journal-dir "$d/j" "$unit" >tests/golden/explain_seed3.txt
# then read the diff: every line should be explained by the change you made. If $unit no longer
# has both a `fail:` and an `admit:` entry, pick another one (jq over `explain -o json`) and update
# $unit below.
# Usage: explain_test.sh path/to/koordq GOLDEN_DIR
set -uo pipefail

koordq="$(readlink -f "${1:?usage: explain_test.sh path/to/koordq GOLDEN_DIR}")"
golden_dir="$(readlink -f "${2:?usage: explain_test.sh path/to/koordq GOLDEN_DIR}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

unit="speech/speech-train-bps6w"
golden="$golden_dir/explain_seed3.txt"
j="$scratch/journal"

(cd "$scratch" && timeout 300 "$koordq" serve --simulate --simulate-clock virtual --seed 3 \
  --simulate-duration 60s --journal-dir "$j") >"$scratch/serve.log" 2>&1
check "the simulator writes the journal" test $? -eq 0

start=$(date +%s%N)
run explain --journal-dir "$j" "$unit"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
echo "explain $unit over $("$koordq" journal stat --journal-dir "$j" -o json | jq .records) records: ${elapsed_ms} ms"
check "explain exits 0" test "$code" -eq 0
if diff -u "$golden" "$out" >"$scratch/golden.diff"; then pass; else
  fail "the story matches $golden (see the header of this script to regenerate it)"
  head -n 40 "$scratch/golden.diff"
fi
check "the story has a failed attempt with its quota path" grep -qE '^    [^ ]+ [^ ]+: used [0-9]+ \+ request [0-9]+ > [0-9]+$' "$out"
check "the story has an admission" grep -qE '  #[0-9]+  round  admit: ' "$out"
cp "$out" "$scratch/text"

run explain --journal-dir "$j" "$unit" -o json
cp "$out" "$scratch/json"
check "-o json exits 0" test "$code" -eq 0
check "-o json has the top-level keys in order" \
  jq_true 'keys_unsorted == ["namespace","name","uid","otherUIDs","entries"]' "$scratch/json"
check "-o json names the unit" jq_true --arg u "$unit" '(.namespace + "/" + .name) == $u and (.uid | length) > 0' \
  "$scratch/json"
check "every entry has its keys in the order seq,time,kind,summary,phase,position,quotaPath" jq_true '
  ["seq","time","kind","summary","phase","position","quotaPath"] as $order
  | all(.entries[]; keys_unsorted as $ks
        | $ks[0:4] == ["seq","time","kind","summary"] and [$order[] | select(. as $k | $ks | index($k))] == $ks)' \
  "$scratch/json"
check "entries are in seq order" jq_true '[.entries[].seq] as $s | $s == ($s | sort)' "$scratch/json"
check "one entry per text line with a #seq" \
  test "$(jq '.entries | length' "$scratch/json")" -eq "$(grep -c '  #[0-9]*  ' "$scratch/text")"
check "kinds are record kinds" jq_true '[.entries[].kind] | all(. == "watch" or . == "round" or . == "outcome")' \
  "$scratch/json"
check "quotaPath only on attempts, with a failing level on a failed one" jq_true '
  [.entries[] | select(.quotaPath) | .summary | test("^(admit|reserve|fail): ")] | all' "$scratch/json"
check "a failed attempt has a level that did not pass" jq_true '
  [.entries[] | select(.summary | startswith("fail: limited")) | .quotaPath | any(.pass == false)] | any' \
  "$scratch/json"
check "positions are 1-based" jq_true '
  [.entries[] | select(.position) | .position >= 1] | all' "$scratch/json"
check "the summary ends with the position exactly when the unit waits" jq_true '
  all(.entries[]; if .position then (.position as $p | .summary | endswith(", position \($p)")) else (.summary | test(", position [0-9]+$") | not) end)' \
  "$scratch/json"
check "phases after the admission" jq_true '[.entries[] | select(.summary | startswith("admit: ")) | .phase] | all(. != "Enqueued")' \
  "$scratch/json"

# --at ends the history: at the seq of the admission, the last entry is the admission.
admit_seq=$(jq '[.entries[] | select(.summary | startswith("admit: ")) | .seq] | first' "$scratch/json")
run explain --journal-dir "$j" "$unit" --at "rev:$admit_seq" -o json
check "--at rev:N ends the history at N" jq_true --argjson n "$admit_seq" '.entries | last | .seq == $n' "$out"
admit_time=$(jq -r --argjson n "$admit_seq" '.entries[] | select(.seq == $n) | .time' "$scratch/json")
at_seq=$("$koordq" journal export --journal-dir "$j" --to "$admit_time" | tail -n 1 | jq .trailer.lastSeq)
run explain --journal-dir "$j" "$unit" --at "rev:$at_seq"
cp "$out" "$scratch/at-rev"
run explain --journal-dir "$j" "$unit" --at "$admit_time"
check "--at TIME ends the history where journal export --to TIME does" cmp -s "$out" "$scratch/at-rev"
check "… before the end of the journal" test "$(wc -l <"$out")" -lt "$(wc -l <"$scratch/text")"

# --export gives the same story, from a file and from stdin.
"$koordq" journal export --journal-dir "$j" "$scratch/export.ndjson"
run explain --export "$scratch/export.ndjson" "$unit"
check "--export tells the same story" cmp -s "$out" "$scratch/text"
(cd "$scratch" && "$koordq" explain --export - "$unit" <"$scratch/export.ndjson") >"$out" 2>"$err"
check "--export - reads stdin" cmp -s "$out" "$scratch/text"
run explain --export "$scratch/export.ndjson" "$unit" --at "rev:$admit_seq" -o json
check "--at with --export ends the history there" jq_true --argjson n "$admit_seq" '.entries | last | .seq == $n' "$out"

# --uid: the unit's own UID is accepted; an unknown one is exit 1.
uid=$(jq -r .uid "$scratch/json")
run explain --journal-dir "$j" "$unit" --uid "$uid"
check "--uid with the unit's UID tells the same story" cmp -s "$out" "$scratch/text"
run explain --journal-dir "$j" "$unit" --uid no-such-uid
check "an unknown --uid is exit 1" test "$code" -eq 1
check "… naming the unit" grep -q "queueunit \"$unit\" not found with uid no-such-uid" "$err"

# Bad input.
run explain --journal-dir "$j" default/no-such-unit
check "an unknown unit is exit 1" test "$code" -eq 1
check "… with the message of §24.1" grep -qx 'koordq explain: queueunit "default/no-such-unit" not found' "$err"
run explain --journal-dir "$j" no-slash
check "a name without a namespace is exit 2" test "$code" -eq 2
run explain --journal-dir "$j" "$unit" --at yesterday
check "a bad WHEN is exit 2" test "$code" -eq 2
run explain --journal-dir "$j" "$unit" --at rev:99999999
check "a revision newer than the latest is exit 2" test "$code" -eq 2
check "… with the message of the visibility API" grep -q "revision 99999999 is newer than the latest revision" "$err"
run explain --journal-dir "$j" "$unit" --at 2020-01-01T00:00:00Z
check "a time before the oldest record is exit 2" test "$code" -eq 2
check "… naming the oldest revision" grep -q "is older than the oldest retained revision 1" "$err"
run explain --export "$scratch/export.ndjson" "$unit" --at rev:99999999
check "--export: a revision newer than the latest is exit 2" test "$code" -eq 2
run explain --export "$scratch/export.ndjson" "$unit" --at 2020-01-01T00:00:00Z
check "--export: a time before the oldest record is exit 2" test "$code" -eq 2
run explain --journal-dir "$scratch/missing" "$unit"
check "a missing journal is exit 3" test "$code" -eq 3
mkdir -p "$scratch/empty-dir"
run explain --journal-dir "$scratch/empty-dir" "$unit"
check "a directory without a journal is exit 3" test "$code" -eq 3
run explain --export "$scratch/missing.ndjson" "$unit"
check "a missing export is exit 3" test "$code" -eq 3
{
  head -n 5 "$scratch/export.ndjson"
  echo '{"seq": 6, "oops"'
} >"$scratch/corrupt.ndjson"
run explain --export "$scratch/corrupt.ndjson" "$unit"
check "a corrupt export is exit 3" test "$code" -eq 3
check "… naming the line" grep -q "export line 6" "$err"
sed -n '1,3p;5,$p' "$scratch/export.ndjson" >"$scratch/gap.ndjson"
run explain --export "$scratch/gap.ndjson" "$unit"
check "an export with a missing record is exit 3" test "$code" -eq 3

finish
