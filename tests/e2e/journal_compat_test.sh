#!/usr/bin/env bash
# A journal and an export written before HEAD at creation, the retention cut's prevHash, export
# trailers and signatures (tests/fixtures/journal-d627e47-seed7): today's koordq still opens it as
# serve does, folds it, time-travels in it, exports it and verifies its chain; `replay --verify`
# verifies it or names in one line the decision-logic version that wrote it. The old export has no
# trailer, so verify refuses it as possibly cut, saying so; its records are read as before.
# Usage: journal_compat_test.sh path/to/koordq FIXTURE_DIR
set -uo pipefail

koordq="$(readlink -f "${1:?usage: journal_compat_test.sh path/to/koordq FIXTURE_DIR}")"
fixture="$(readlink -f "${2:?usage: journal_compat_test.sh path/to/koordq FIXTURE_DIR}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

tar -xzf "$fixture/journal-and-export.tar.gz" -C "$scratch"
j="$scratch/journal"
old_export="$scratch/export.ndjson"
head_hash=4ed2bf37d8c7b0d414c21e6091ec6fd8d7dcbfe100fb3bee58d0742f90d77833

run journal verify --journal-dir "$j"
check "the old journal's chain verifies" test "$code" -eq 0 -a "$(cat "$out")" = "ok: 833 records, seq 1..833, head $head_hash"

run replay --journal-dir "$j"
check "the old journal folds to the state the old koordq printed" diff -u "$fixture/replay.txt" "$out"

run replay --journal-dir "$j" --verify
if [ "$code" -eq 0 ]; then
  check "replay --verify verifies the old journal" grep -q "^verified .* 833 records, 1 snapshots$" "$out"
else
  check "replay --verify names the decision-logic version that wrote the old journal, in one line" \
    test "$code" -eq 1 -a "$(wc -l <"$err")" -eq 1
  check "… and that this binary runs another" grep -q "written by decision-logic version .* this binary runs version" "$err"
fi

for object in queues quotas; do
  run at rev:400 "$object" --journal-dir "$j" -o json
  check "at rev:400 $object answers as the old koordq did" diff -u "$fixture/at-rev400-$object.json" "$out"
done

run journal export --journal-dir "$j" "$scratch/new.ndjson"
check "the old journal exports" test "$code" -eq 0
check "… to the old export's lines" cmp <(head -n 833 "$scratch/new.ndjson") "$old_export"
check "… followed by a trailer naming its head" jq_true -s \
  "length == 834 and .[833].trailer.head == \"$head_hash\" and .[833].trailer.records == 833" "$scratch/new.ndjson"
run journal verify --export "$scratch/new.ndjson"
check "the new export of the old journal verifies" test "$code" -eq 0 -a "$(cat "$out")" = "ok: 833 records, seq 1..833, head $head_hash"

run journal verify --export "$old_export"
check "the old export, without a trailer, is refused with exit 1" test "$code" -eq 1
check "… saying it may be cut or older than trailers" grep -q "without its trailer: it was cut at its end, or written by a koordq before export trailers" "$err"
run replay --export "$old_export"
check "the old export's records still fold" diff -u "$fixture/replay.txt" "$out"

# Opening as serve does (recovery, HEAD, the verified point): a checkpoint opens it as the writer.
run journal checkpoint --journal-dir "$j" "$scratch/copy"
check "the old journal opens as the writer" test "$code" -eq 0 -a "$(cat "$out")" = "checkpoint of seq 833 written to $scratch/copy"
run journal verify --journal-dir "$j"
check "… and verifies after that open" test "$code" -eq 0

finish
