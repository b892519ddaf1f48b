#!/usr/bin/env bash
# The web console (behaviour.md §25) in a real browser: `koordq console` over a virtual-clock
# simulator journal, and the console a running `serve --simulate` serves under /console/ on its
# debug listener while it writes its journal. console_browser.py drives headless Chromium
# (Debian's chromium and chromium-driver through python3-selenium) and compares what the page
# shows with `koordq at` and `koordq explain` for the same revision. The API's bad input is
# checked with curl. Screenshots stay in the scratch directory when KOORDQ_KEEP_SCRATCH is set.
# Usage: console_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: console_test.sh path/to/koordq}")"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=tests/e2e/lib.sh
. "$here/lib.sh"
if [ -n "${KOORDQ_KEEP_SCRATCH:-}" ]; then trap - EXIT; echo "scratch: $scratch"; fi

j="$scratch/journal"
(cd "$scratch" && timeout 300 "$koordq" serve --simulate --simulate-clock virtual --seed 7 \
  --simulate-duration 90s --journal-dir "$j" --metrics-bind-address 127.0.0.1:0 --api-handler-port 0) \
  >"$scratch/simulate.log" 2>&1
check "the simulator writes the journal" test $? -eq 0

# Bad flags and a missing journal: one line naming the problem, exit 2 or 3.
run console --journal-dir "$j" --listen nonsense
check "--listen without a port: exit 2 naming --listen" test "$code" = 2 -a "$(grep -c -- '--listen' "$err")" -ge 1
run console --journal-dir "$scratch/nothing-here"
check "a journal that is not there: exit 3 naming the directory" test "$code" = 3 -a "$(grep -c 'nothing-here' "$err")" -ge 1

# `koordq console` prints its URL; port 0 takes a free one.
"$koordq" console --journal-dir "$j" --listen 127.0.0.1:0 >"$scratch/console.log" 2>&1 &
console_pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/console/' "$scratch/console.log" | head -n 1)
  [ -n "$url" ] && break
  sleep 0.1
done
check "koordq console prints the URL of the console" test -n "$url"
api="${url}api"

# The page and its assets come from the binary, under a policy that allows no other origin.
curl -sS -D "$scratch/index.h" -o "$scratch/index.html" "$url"
check "the page is served" grep -q '<title>koordq console</title>' "$scratch/index.html"
check "no script or style comes from elsewhere" grep -qi "content-security-policy: default-src 'self'" "$scratch/index.h"
check "the script is served" curl -sSf -o /dev/null "${url}console.js"

# The API's answers and its errors ({"error": …}, a status that names the problem).
status() { curl -s -o "$out" -w '%{http_code}' "$1"; }
check "journal: head and uuid" test "$(status "$api/journal")" = 200
head=$(jq .head "$out")
check "the head is the journal's last record" test "$head" = "$("$koordq" journal stat --journal-dir "$j" -o json | jq .records)"
code=$(status "$api/at?revision=$((head + 5))&object=quotas")
check "a revision after the head: 400 naming it" test "$code" = 400 -a "$(jq -r .error "$out" | grep -c 'newer than')" = 1
code=$(status "$api/at?at=1999-01-01T00:00:00Z&object=quotas")
check "a time before the journal: 400 naming it" test "$code" = 400 -a "$(jq -r .error "$out" | grep -c 'older than')" = 1
code=$(status "$api/at?revision=abc&object=quotas")
check "a malformed revision: 400" test "$code" = 400
code=$(status "$api/at?revision=10&object=bogus")
check "an unknown object: 400 listing the known ones" test "$code" = 400 -a "$(jq -r .error "$out" | grep -c 'queues, quotas')" = 1
code=$(status "$api/explain?namespace=nosuch&name=unit")
check "an unknown unit: 404 queueunit not found" test "$code" = 404 -a "$(jq -r .error "$out" | grep -c 'queueunit "nosuch/unit" not found')" = 1
code=$(status "$api/timeline?buckets=0")
check "a bucket count out of range: 400" test "$code" = 400
code=$(status "$api/timeline?bogus=1")
check "an unknown timeline parameter: 400" test "$code" = 400
code=$(status "$api/nothing")
check "an unknown endpoint: 404 listing the endpoints" test "$code" = 404
code=$(curl -s -o "$out" -w '%{http_code}' -X POST "$api/journal")
check "a POST: 405" test "$code" = 405
# The state at a revision is byte for byte what `koordq at` prints.
for object in queues quotas; do
  curl -sS "$api/at?revision=$((head / 2))&object=$object" >"$scratch/api-$object.json"
  "$koordq" at "rev:$((head / 2))" "$object" -o json --journal-dir "$j" >"$scratch/cli-$object.json"
  check "at $object over the API equals koordq at" cmp -s <(jq -S . "$scratch/api-$object.json") <(jq -S . "$scratch/cli-$object.json")
done
# The timeline holds every record once it is indexed.
for _ in $(seq 1 100); do
  [ "$(curl -s "$api/timeline" | jq .indexed)" = "$head" ] && break
  sleep 0.2
done
curl -sS "$api/timeline?buckets=50" >"$scratch/timeline.json"
check "the timeline covers the journal in at most 50 buckets" jq_true \
  "(.buckets | length) <= 50 and .buckets[0].firstSeq == 1 and .buckets[-1].lastSeq == $head" "$scratch/timeline.json"
admits=$("$koordq" journal export --journal-dir "$j" | jq -s '[.[] | select(.kind == "round") | .body.round.decisions // [] | .[] | select(.kind == "admit" or .kind == "reserve")] | length')
check "its admissions are the journal's admit and reserve decisions ($admits)" jq_true \
  "([.buckets[].admissions] | add) == $admits" "$scratch/timeline.json"

/usr/bin/python3 "$here/console_browser.py" "$koordq" "$url" "$j" "$scratch" >"$scratch/browser.log" 2>&1
browser=$?
sed 's/^/  browser: /' "$scratch/browser.log"
check "the console in Chromium over koordq console" test "$browser" -eq 0
kill "$console_pid" 2>/dev/null
wait "$console_pid" 2>/dev/null

# A huge tree, at a size that keeps the test short and still cuts every list the page shows
# (2,500 quotas and 2,478 queues against pages of 500, a queue of 1,500 units against 1,000, 12,000
# units): scripts/make-watch-events.py through `koordq journal import`. BENCHMARKS.md measures the
# full size (10,000 quotas, 100,000 units) with scripts/bench-console.sh --huge.
hj="$scratch/huge"
/usr/bin/python3 "$here/../../scripts/make-watch-events.py" --quotas 2500 --departments 20 --units 12000 \
  --big-queue 1500 --modified 200 >"$scratch/huge.ndjson"
run journal import --journal-dir "$hj" "$scratch/huge.ndjson"
check "the huge tree's watch events are imported" test "$code" -eq 0
start_console() {  # DIR [FLAG…]: starts `koordq console` on DIR, sets console_pid and url
  "$koordq" console --journal-dir "$1" --listen 127.0.0.1:0 "${@:2}" >"$scratch/console-$(basename "$1").log" 2>&1 &
  console_pid=$!
  url=""
  for _ in $(seq 1 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/console/' "$scratch/console-$(basename "$1").log" | head -n 1)
    [ -n "$url" ] && break
    sleep 0.1
  done
}
start_console "$hj"
code=$(status "${url}api/tree?revision=1000&limit=0")
check "a tree limit of 0: 400" test "$code" = 400
code=$(status "${url}api/at?object=units")
check "finding units without match: 400 naming match" test "$code" = 400 -a "$(jq -r .error "$out" | grep -c 'match')" = 1
code=$(status "${url}api/diff?revision=100")
check "a difference without compare: 400 naming compare" test "$code" = 400 -a "$(jq -r .error "$out" | grep -c 'compare')" = 1
/usr/bin/python3 "$here/console_browser.py" "$koordq" "$url" "$hj" "$scratch" --huge >"$scratch/browser-huge.log" 2>&1
browser=$?
sed 's/^/  huge browser: /' "$scratch/browser-huge.log"
check "the console in Chromium over a huge tree" test "$browser" -eq 0
kill "$console_pid" 2>/dev/null
wait "$console_pid" 2>/dev/null
# A cache too small for two of these states: a step forward folds the cached state in place
# (taken out of the cache, not copied); both revisions still read exactly as `koordq at` prints.
start_console "$hj" --state-cache-mb 40
for rev in 15000 15100 15000; do
  curl -sS "${url}api/at?revision=$rev&object=queue&name=team-00000" >"$scratch/take-$rev.json"
  "$koordq" at "rev:$rev" queue team-00000 -o json --journal-dir "$hj" >"$scratch/take-cli-$rev.json"
  check "revision $rev with states taken out of a small cache equals koordq at" \
    cmp -s <(jq -S . "$scratch/take-$rev.json") <(jq -S . "$scratch/take-cli-$rev.json")
done
kill "$console_pid" 2>/dev/null
wait "$console_pid" 2>/dev/null

# A journal quarantined while the console reads it (behaviour.md §21: a serve finds it corrupt).
qj="$scratch/quarantine"
cp -a "$j" "$qj"
start_console "$qj"
/usr/bin/python3 "$here/console_browser.py" "$koordq" "$url" "$qj" "$scratch" --quarantine \
  >"$scratch/browser-quarantine.log" 2>&1
browser=$?
sed 's/^/  quarantine browser: /' "$scratch/browser-quarantine.log"
check "the console in Chromium over a journal quarantined under it" test "$browser" -eq 0
check "koordq console logs that the journal was moved aside" grep -q "quarantined to" "$scratch/console-quarantine.log"
kill "$console_pid" 2>/dev/null
wait "$console_pid" 2>/dev/null

# A running serve: the same console on its debug listener, following the journal it writes.
lj="$scratch/live"
(cd "$scratch" && exec "$koordq" serve --simulate --simulate-speed 20 --seed 7 --journal-dir "$lj" \
  --metrics-bind-address 127.0.0.1:0 --api-handler-port 0) >"$scratch/serve.log" 2>&1 &
serve_pid=$!
debug=""
for _ in $(seq 1 200); do
  [ -s "$lj/serve-debug-listener" ] && debug=$(head -n 1 "$lj/serve-debug-listener") && break
  sleep 0.1
done
check "serve writes its debug listener" test -n "$debug"
check "serve logs the console's URL" grep -q "console at http://.*/console/" "$scratch/serve.log"
sleep 3
/usr/bin/python3 "$here/console_browser.py" "$koordq" "http://$debug/console/" "$lj" "$scratch" --follow \
  >"$scratch/browser-live.log" 2>&1
browser=$?
sed 's/^/  live browser: /' "$scratch/browser-live.log"
check "the console in Chromium over a running serve" test "$browser" -eq 0
check "the debug API still answers beside the console" curl -sSf -o /dev/null "http://$debug/apis/v1/queue"
kill -TERM "$serve_pid" 2>/dev/null
wait "$serve_pid" 2>/dev/null

finish
