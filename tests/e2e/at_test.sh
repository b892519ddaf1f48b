#!/usr/bin/env bash
# `koordq at WHEN OBJECT` (behaviour.md §24.1) over a virtual-clock simulator journal: every OBJECT
# in every output form against golden files; WHEN as a time; --export (file and stdin); bad input
# with its messages and exit codes (§24). Then `at` against the live APIs: a wall-clock
# `serve --simulate` answers the debug and visibility endpoints at a revision, and `at` prints the
# same bytes for that revision while serve keeps writing the journal.
#
# The golden files tests/golden/at-seed3-* are the outputs at rev:$rev over the journal of
#   koordq serve --simulate --simulate-clock virtual --seed 3 --simulate-duration 60s --journal-dir DIR
# They change when the simulator's scenario, the decision logic or a rendering changes. To
# regenerate them, from the repository root with a fresh build:
#   KOORDQ_REGENERATE_GOLDEN=1 bash tests/e2e/at_test.sh build/cmd/koordq tests/golden
# then read the diff: every changed line should be explained by the change you made.
# Usage: at_test.sh path/to/koordq GOLDEN_DIR
set -uo pipefail

koordq="$(readlink -f "${1:?usage: at_test.sh path/to/koordq GOLDEN_DIR}")"
golden_dir="$(readlink -f "${2:?usage: at_test.sh path/to/koordq GOLDEN_DIR}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

rev=3000
queue=team-nlp
quota=team-nlp
unit=nlp/nlp-finetune-4mkbf
j="$scratch/journal"

(cd "$scratch" && timeout 300 "$koordq" serve --simulate --simulate-clock virtual --seed 3 \
  --simulate-duration 60s --journal-dir "$j" --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 \
  --visibility-port 0) >"$scratch/serve.log" 2>&1
check "the simulator writes the journal" test $? -eq 0

# golden NAME ARGS...: `at rev:$rev ARGS...` exits 0 and prints tests/golden/at-seed3-NAME.
golden() {
  local name=$1
  shift
  run at "rev:$rev" "$@" --journal-dir "$j"
  local file="$golden_dir/at-seed3-$name"
  if [ -n "${KOORDQ_REGENERATE_GOLDEN:-}" ]; then cp "$out" "$file"; fi
  check "at rev:$rev $* exits 0" test "$code" -eq 0
  if diff -u "$file" "$out" >"$scratch/golden.diff"; then pass; else
    fail "at rev:$rev $* prints $file (see the header of this script to regenerate it)"
    head -n 20 "$scratch/golden.diff"
  fi
  cp "$out" "$scratch/$name"
}

page=(--phase Running,Enqueued --limit 3 --offset 1)
for form in json yaml table; do
  golden "queues.$form" queues -o "$form"
  golden "quotas.$form" quotas -o "$form"
  golden "queue.$form" queue "$queue" -o "$form"
  golden "quota-page.$form" quota "$quota" "${page[@]}" -o "$form"
done
for form in json yaml; do
  golden "unit.$form" unit "$unit" -o "$form"
  for view in elasticquota queue userquota; do golden "debug-$view.$form" debug "$view" -o "$form"; done
done
golden metrics.txt metrics

# What the goldens hold, checked against the spec rather than against themselves.
check "json is one document and a newline" test "$(tail -c 1 "$scratch/queues.json" | od -An -c | tr -d ' ')" = '\n'
check "the list carries the revision" jq_true --arg r "$rev" '.kind == "QueueList" and .metadata.resourceVersion == $r' \
  "$scratch/queues.json"
check "queue NAME is the queue's QueueUnitsSummary" jq_true '.kind == "QueueUnitsSummary" and (.items | length) > 0' \
  "$scratch/queue.json"
check "--phase, --limit and --offset page the summary" jq_true \
  '(.items | length) == 3 and all(.items[]; .phase == "Running" or .phase == "Enqueued") and .metadata.remainingItemCount > 0' \
  "$scratch/quota-page.json"
check "the unit view is a summary item followed by status" jq_true --arg u "$unit" \
  '(keys_unsorted | first) == "metadata" and (keys_unsorted | last) == "status" and (.metadata.namespace + "/" + .metadata.name) == $u and .status.phase == .phase' \
  "$scratch/unit.json"
check "yaml is the same document as json" \
  test "$(python3 -c 'import sys, yaml, json; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$scratch/debug-queue.yaml")" = \
  "$(jq -c . "$scratch/debug-queue.json" | python3 -c 'import sys, json; print(json.dumps(json.loads(sys.stdin.read())))')"
check "the debug bodies are indented with tabs" grep -qP '^\t"' "$scratch/debug-queue.json"
check "tables have the columns of §24.1" grep -qx 'NAME *POLICY *ACTIVE *BACKOFF *ASSUMED *PHASES' "$scratch/queues.table"
check "… one row per item" test "$(($(wc -l <"$scratch/quotas.table") - 1))" -eq "$(jq '.items | length' "$scratch/quotas.json")"
check "metrics are the families rebuilt from the journal, without process-local ones" \
  test "$(grep '^# TYPE' "$scratch/metrics.txt" | awk '{print $3}' | tr '\n' ' ')" = \
  "dequeued_quota_usage_by_namespace dequeued_quota_usage_by_quota job_schedule_attempts job_scheduling_e2e_latency koordq_admission_wait_seconds queueunits_by_job_type queueunits_coming_rate_by_job_type queueunits_in_active_queue queueunits_in_backoff_queue "
if command -v promtool >/dev/null; then
  # The Koord-Queue counters keep their names without `_total` (§15.2): the only lint allowed.
  promtool check metrics <"$scratch/metrics.txt" >"$scratch/lint" 2>&1
  lint=$?
  if [ $lint -eq 0 ] || { [ $lint -eq 3 ] && ! grep -v 'counter metrics should have "_total" suffix' "$scratch/lint" | grep -q .; }; then
    pass
  else
    fail "promtool check metrics found more than the Koord-Queue counter names: $(head -n 5 "$scratch/lint")"
  fi
fi

# Without -o, off a terminal: json.
run at "rev:$rev" queues --journal-dir "$j"
check "the default off a terminal is json" cmp -s "$out" "$scratch/queues.json"

# WHEN as a time: the state after the last record at or before it (as journal export --to cuts).
time=$("$koordq" journal export --journal-dir "$j" --from "rev:$rev" --to "rev:$rev" | head -n 1 | jq -r .time)
time_seq=$("$koordq" journal export --journal-dir "$j" --to "$time" | tail -n 1 | jq .trailer.lastSeq)
run at "rev:$time_seq" debug queue --journal-dir "$j"
cp "$out" "$scratch/at-time-rev"
run at "$time" debug queue --journal-dir "$j"
check "WHEN as a time is the revision journal export --to cuts at" cmp -s "$out" "$scratch/at-time-rev"
run at 2030-01-01T00:00:00Z queues --journal-dir "$j" -o json
check "a time after the newest record shows the latest revision" \
  jq_true --arg r "$("$koordq" journal stat --journal-dir "$j" -o json | jq -r .lastSeq)" '.metadata.resourceVersion == $r' "$out"

# --export reads the same history, from a file and from stdin.
"$koordq" journal export --journal-dir "$j" "$scratch/export.ndjson"
run at "rev:$rev" debug elasticquota --export "$scratch/export.ndjson"
check "--export shows the same state" cmp -s "$out" "$scratch/debug-elasticquota.json"
(cd "$scratch" && "$koordq" at "rev:$rev" quota "$quota" "${page[@]}" -o table --export - <"$scratch/export.ndjson") \
  >"$out" 2>"$err"
check "--export - reads stdin" cmp -s "$out" "$scratch/quota-page.table"

# bad CODE MESSAGE ARGS...: `at ARGS...` exits CODE with the one-line MESSAGE on stderr.
bad() {
  local want_code=$1 message=$2
  shift 2
  run at "$@"
  check "at $* exits $want_code" test "$code" -eq "$want_code"
  check "… with: $message" grep -qxF "koordq at: $message" "$err"
  check "… and prints nothing on stdout" test ! -s "$out"
}
bad 1 'queue.scheduling.x-k8s.io "no-such-queue" not found' "rev:$rev" queue no-such-queue --journal-dir "$j"
bad 1 'elasticquota.scheduling.sigs.k8s.io "no-such-quota" not found' "rev:$rev" quota no-such-quota --journal-dir "$j"
bad 1 'queueunit "nlp/no-such-unit" not found' "rev:$rev" unit nlp/no-such-unit --journal-dir "$j"
bad 1 'queueunit "nlp/no-such-unit" not found' "rev:$rev" unit nlp/no-such-unit --export "$scratch/export.ndjson"
bad 2 'time 2020-01-01T00:00:00Z is older than the oldest retained revision 1 (2026-01-01T00:00:00.000Z)' \
  2020-01-01T00:00:00Z queues --journal-dir "$j"
bad 2 "invalid value \"2200-01-01T00:00:00Z\" for WHEN: must be an RFC3339 time not in the future (or rev:N); see 'koordq at --help'" \
  2200-01-01T00:00:00Z queues --journal-dir "$j"
last=$("$koordq" journal stat --journal-dir "$j" -o json | jq -r .lastSeq)
bad 2 "revision 99999999 is newer than the latest revision $last" rev:99999999 debug queue --journal-dir "$j"
bad 2 "revision 99999999 is newer than the latest revision $last" rev:99999999 debug queue --export "$scratch/export.ndjson"
bad 2 'invalid value "0" for parameter limit: must be an integer between 1 and 10000' \
  "rev:$rev" queue "$queue" --limit 0 --journal-dir "$j"
bad 2 'invalid value "+1" for parameter offset: must be an integer >= 0' "rev:$rev" queues --offset +1 --journal-dir "$j"
bad 2 'invalid value "Running,Done" for parameter phase: unknown phase "Done"' \
  "rev:$rev" quota "$quota" --phase Running,Done --journal-dir "$j"
bad 2 "-o table is not available for unit and debug views: use -o json or -o yaml; see 'koordq at --help'" \
  "rev:$rev" unit "$unit" -o table --journal-dir "$j"
bad 2 "-o table is not available for unit and debug views: use -o json or -o yaml; see 'koordq at --help'" \
  "rev:$rev" debug queue -o table --journal-dir "$j"
run at "rev:$rev" queues --journal-dir "$scratch/missing"
check "a missing journal is exit 3" test "$code" -eq 3
{
  head -n 5 "$scratch/export.ndjson"
  echo '{"seq": 6, "oops"'
} >"$scratch/corrupt.ndjson"
run at rev:3 queues --export "$scratch/corrupt.ndjson"
check "a corrupt export is exit 3" test "$code" -eq 3
check "… naming the broken record" grep -q "koordq at: the export $scratch/corrupt.ndjson is broken at seq 6" "$err"
sed -n '1,3p;5,$p' "$scratch/export.ndjson" >"$scratch/gap.ndjson"
run at rev:3 queues --export "$scratch/gap.ndjson"
check "an export with a missing record is exit 3" test "$code" -eq 3

# --- at equals the live APIs ---------------------------------------------------------------------
live="$scratch/live"
log="$scratch/live.log"
(cd "$scratch" && exec "$koordq" serve --simulate --simulate-duration 10m --journal-dir "$live" \
  --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0) >"$log" 2>&1 &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 1 200); do
  grep -q 'curl http://127.0.0.1:[0-9]*/apis/v1/queue' "$log" && break
  sleep 0.1
done
debug_port=$(sed -n 's|.*curl http://127.0.0.1:\([0-9]*\)/apis/v1/queue.*|\1|p' "$log" | head -n1)
vis_port=$(sed -n 's|.*https://localhost:\([0-9]*\)/apis/visibility.*|\1|p' "$log" | head -n1)
if [ -z "$debug_port" ] || [ -z "$vis_port" ]; then
  fail "serve --simulate printed its curl lines"
  sed 's/^/  log: /' "$log" | head -n 20
else
  sleep 2 # let the simulation admit a few units
  D="http://127.0.0.1:$debug_port"
  V="https://localhost:$vis_port/apis/visibility.koord-queue.x-k8s.io/v1alpha1"
  certs="$live/simulate-certs"
  tls=(--cacert "$certs/serving.crt" --cert "$certs/client.crt" --key "$certs/client.key")
  n=$(curl -s -D - -o /dev/null "$D/apis/v1/queue" | tr -d '\r' | sed -n 's/^X-Koordq-Revision: //Ip')
  check "the debug API names the revision it answered from" test -n "$n"
  for view in queue elasticquota userquota; do
    curl -s -D "$scratch/h" -o "$scratch/live-$view" "$D/apis/v1/$view?revision=$n"
    check "the debug API answers ?revision=$n from revision $n" grep -qix "X-Koordq-Revision: $n" <(tr -d '\r' <"$scratch/h")
    echo >>"$scratch/live-$view"
    run at "rev:$n" debug "$view" --journal-dir "$live"
    check "at rev:$n debug $view equals GET /apis/v1/$view?revision=$n byte for byte (while serve runs)" \
      cmp "$out" "$scratch/live-$view"
  done
  for path in "queues" "elasticquotas" "queues/$queue/queueunits?phase=Enqueued,Running&limit=5" \
    "elasticquotas/$quota/queueunits"; do
    curl -s "${tls[@]}" -o "$scratch/live-vis" "$V/$path$([[ $path == *\?* ]] && echo '&' || echo '?')revision=$n"
    echo >>"$scratch/live-vis"
    case $path in
      queues) args=(queues) ;;
      elasticquotas) args=(quotas) ;;
      queues/*) args=(queue "$queue" --phase Enqueued,Running --limit 5) ;;
      *) args=(quota "$quota") ;;
    esac
    run at "rev:$n" "${args[@]}" -o json --journal-dir "$live"
    check "at rev:$n ${args[*]} equals GET …/$path at revision $n byte for byte" cmp "$out" "$scratch/live-vis"
  done
fi

finish
