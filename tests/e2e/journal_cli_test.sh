#!/usr/bin/env bash
# Drives `koordq journal import|stat|verify|export|checkpoint` on real journals (behaviour.md §24.4):
# recorded watch events in, the chain checked, exports that verify, tampering caught, exit codes.
# Usage: journal_cli_test.sh path/to/koordq FIXTURES_DIR
set -uo pipefail

koordq="$(readlink -f "${1:?usage: journal_cli_test.sh path/to/koordq FIXTURES_DIR}")"
fixtures="$(readlink -f "${2:?usage: journal_cli_test.sh path/to/koordq FIXTURES_DIR}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

j="$scratch/journal"
events="$scratch/events.json"
{
  # One watch event per line, then a pretty-printed value (concatenated JSON), then a skipped kind.
  cat "$fixtures/queue_unit_watch_event.json"
  echo
  printf '{"type": "ADDED", "time": "2026-04-20T08:00:00Z",\n "object": %s}\n' "$(cat "$fixtures/elastic_quota.json")"
  printf '{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}}\n'
  printf '{"type":"ADDED","object":%s}\n' "$(cat "$fixtures/queue.json")"
} >"$events"

run journal import --journal-dir "$j" "$events"
check "import reports what it appended" test "$code" -eq 0 -a "$(cat "$out")" = "imported 3 records (seq 1..3)"
check "import warns about the skipped kind" grep -q "skipped an object of kind ConfigMap" "$err"
check "the journal's redaction key is 64 hex digits, mode 0600" \
  test "$(stat -c %a "$j/redaction.key")$(grep -cx '[0-9a-f]\{64\}' "$j/redaction.key")" = 6001

run journal stat --journal-dir "$j"
check "stat counts watch records" grep -qx "kinds:      watch=3" "$out"
check "stat names the seq range" grep -qx "seq:        1..3" "$out"
run journal stat --journal-dir "$j" -o json
check "stat -o json is JSON" jq_true '.records == 3 and .kinds.watch == 3 and (.head | length) == 64' "$out"
head_hash=$(jq -r .head "$out")

run journal verify --journal-dir "$j"
check "verify passes and prints the head" test "$code" -eq 0 -a "$(cat "$out")" = "ok: 3 records, seq 1..3, head $head_hash"

run journal export --journal-dir "$j" "$scratch/export.ndjson"
check "export writes one line per record and the trailer" test "$code" -eq 0 -a "$(wc -l <"$scratch/export.ndjson")" -eq 4
check "export lines are JSON with seq and canonical bytes" jq_true -s '.[:3] | map(.seq) == [1,2,3] and all(.b | length > 0)' \
  "$scratch/export.ndjson"
check "the trailer names the records and the head" jq_true -s \
  ".[3].trailer | .firstSeq == 1 and .lastSeq == 3 and .records == 3 and .head == \"$head_hash\"" "$scratch/export.ndjson"
run journal verify --export "$scratch/export.ndjson"
check "the export verifies to the same head" test "$code" -eq 0 -a "$(cat "$out")" = "ok: 3 records, seq 1..3, head $head_hash"
run journal verify --export - <"$scratch/export.ndjson"
check "verify reads an export from stdin" test "$code" -eq 0

sed 's/"team-a"/"team-b"/' "$scratch/export.ndjson" >"$scratch/tampered.ndjson"
run journal verify --export "$scratch/tampered.ndjson"
check "an edited export fails verification with exit 1" test "$code" -eq 1
check "the failure names the first bad seq" grep -q "broken at seq 1" "$err"

run journal export --journal-dir "$j" --from rev:2 --to rev:2
check "--from/--to select an inclusive range" test "$code" -eq 0 -a "$(jq -s 'map(.seq // .trailer.firstSeq)' -c "$out")" = "[2,2]"
run journal export --journal-dir "$j" --from rev:9
check "a revision newer than the latest is exit 2" test "$code" -eq 2
check "… with the message of the visibility API" grep -q "revision 9 is newer than the latest revision 3" "$err"

run journal export --journal-dir "$j" --format audit
check "audit export is audit.k8s.io/v1 events" jq_true -s \
  'length == 4 and all(.apiVersion == "audit.k8s.io/v1" and .kind == "Event") and (.[:3] | all(.annotations["koordq.io/seq"] != null))' "$out"
check "… ending with the export's trailer in an Event" jq_true -s \
  '.[3].verb == "export-trailer" and (.[3].annotations["koordq.io/trailer"] | fromjson | .lastSeq == 3 and .records == 3)' "$out"

run journal checkpoint --journal-dir "$j" "$scratch/copy"
check "checkpoint reports the seq it copied" test "$code" -eq 0 -a "$(cat "$out")" = "checkpoint of seq 3 written to $scratch/copy"
run journal verify --journal-dir "$scratch/copy"
check "the checkpoint verifies to the same head" test "$(cat "$out")" = "ok: 3 records, seq 1..3, head $head_hash"

printf '{"type":"ADDED","object":%s}\n{"type": "MODIFIED" oops\n' "$(cat "$fixtures/queue.json")" >"$scratch/bad.json"
run journal import --journal-dir "$j" "$scratch/bad.json"
check "malformed import input is exit 2" test "$code" -eq 2
check "… naming the byte offset" grep -q "byte offset" "$err"
run journal stat --journal-dir "$j" -o json
check "records before the malformed value stay" jq_true '.records == 4' "$out"

# A signing key: serve signs HEAD, the snapshot anchors and the retention cut; verify checks them.
run journal keygen --private-key "$scratch/key.pem" --public-key "$scratch/key.pub.pem"
check "keygen writes a key pair and names its id" grep -q "^key [0-9a-f]\{16\}: private key .* (mode 0600)" "$out"
check "… the private key with mode 0600" test "$(stat -c %a "$scratch/key.pem")" = 600
run journal keygen --private-key "$scratch/key.pem" --public-key "$scratch/other.pub.pem"
check "keygen never overwrites a key (exit 2)" test "$code" -eq 2
run serve --simulate --simulate-clock virtual --simulate-duration 3s --seed 7 --journal-dir "$scratch/signed" \
  --journal-signing-key-file "$scratch/key.pem"
check "serve runs with a signing key" test "$code" -eq 0
check "… and HEAD carries its signature" grep -q "^signature [0-9a-f]\{16\} " "$scratch/signed/HEAD"
signed_head=$("$koordq" journal stat --journal-dir "$scratch/signed" -o json | jq -r .head)
piped=$("$koordq" journal export --journal-dir "$scratch/signed" | "$koordq" journal verify --export - 2>&1)
check "an export piped into verify --export - verifies to the journal's head" \
  grep -q "^ok: [0-9]* records, seq 1\.\.[0-9]*, head $signed_head$" <<<"$piped"
cut_piped=$("$koordq" journal export --journal-dir "$scratch/signed" | head -n 100 | "$koordq" journal verify --export - 2>&1)
check "… and one cut short in the pipe names where it ends" grep -q "broken at seq 101: the export ends at line 100" <<<"$cut_piped"
run journal verify --journal-dir "$scratch/signed" --public-key "$scratch/key.pub.pem"
check "verify --public-key passes on the signed journal" grep -q "^ok: .*, signed by key [0-9a-f]\{16\} up to seq [0-9]*$" "$out"
run journal verify --journal-dir "$j" --public-key "$scratch/key.pub.pem"
check "verify --public-key refuses an unsigned journal with exit 1" test "$code" -eq 1
check "… naming HEAD as not signed" grep -q "broken at seq 4: HEAD (seq 4) is not signed" "$err"

run journal stat --journal-dir "$scratch/missing"
check "a missing journal is exit 3" test "$code" -eq 3

finish
