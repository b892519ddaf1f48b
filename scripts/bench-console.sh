#!/usr/bin/env bash
# The console's scrub step, server side: `koordq console` over a journal, then STEPS revisions
# spread over it in random order, each fetched the way the page fetches an instant (the quota
# tree and the queue list at that revision, one after the other); prints p50/p90/p99 of the step
# and while dragging forward (a step folds on from the state cached before it) and back, and, for comparison in the same run, of `koordq at rev:N quotas` (a process per call, so it
# includes start-up and the journal's open) over the same revisions. Also the page's weight.
# KOORDQ=BINARY measures another build (a baseline in the same run).
# Usage: scripts/bench-console.sh [JOURNAL_DIR] [STEPS]
#        scripts/bench-console.sh --huge [QUOTAS UNITS [STEPS]]
#   Without JOURNAL_DIR, writes the simulator's default scenario for 10 virtual minutes (seed 7).
#   --huge: imports the watch events of scripts/make-watch-events.py (default 10,000 quotas and
#   100,000 units; an imported journal has no snapshots) and measures what the page asks of a huge
#   tree: the first instant, random instants and dragging (the tree cut at 500 quotas, 500 Queues),
#   a unit found by name, the difference between two instants.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
koordq="${KOORDQ:-$repo/build/cmd/koordq}"
huge=""
if [ "${1:-}" = "--huge" ]; then
  huge=1
  shift
fi
journal="${1:-}"
steps="${2:-200}"
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-console.XXXXXX")"
trap 'kill "$console_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
console_pid=""

if [ -n "$huge" ]; then
  quotas="${1:-10000}"
  units="${2:-100000}"
  steps="${3:-20}"
  journal="$work/journal"
  t0=$(date +%s.%N)
  /usr/bin/python3 "$repo/scripts/make-watch-events.py" --quotas "$quotas" --units "$units" >"$work/events.ndjson"
  t1=$(date +%s.%N)
  "$koordq" journal import --journal-dir "$journal" "$work/events.ndjson" >&2
  t2=$(date +%s.%N)
  echo "huge tree: $quotas quotas, $units units; events written in $(echo "$t1 - $t0" | bc) s, imported in $(echo "$t2 - $t1" | bc) s"
elif [ -z "$journal" ]; then
  journal="$work/journal"
  echo "writing the simulator's journal (10 virtual minutes, seed 7)…" >&2
  (cd "$work" && "$koordq" serve --simulate --simulate-clock virtual --simulate-duration 10m --seed 7 \
    --journal-dir "$journal" --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 >"$work/simulate.log" 2>&1)
fi
head=$("$koordq" journal stat --journal-dir "$journal" -o json | jq .records)

"$koordq" console --journal-dir "$journal" --listen 127.0.0.1:0 >"$work/console.log" 2>&1 &
console_pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/console/' "$work/console.log" | head -n 1) && [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "koordq console did not start: $(cat "$work/console.log")" >&2; exit 1; }

# Steps are measured once the timeline is indexed: until then the follower's thread reads the
# whole journal beside the requests (BENCHMARKS.md "The scrub step after the timeline is indexed").
t0=$(date +%s.%N)
until [ "$(curl -sS "${url}api/journal" | jq '.indexed >= .head')" = true ]; do sleep 0.2; done
echo "timeline indexed $(echo "$(date +%s.%N) - $t0" | bc) s after the console started; load average $(cut -d' ' -f1-3 /proc/loadavg)"

weight=0
for asset in "" console.js console.css; do
  weight=$((weight + $(curl -sS "$url$asset" | wc -c)))
done

# What both measurements below share: percentiles, and walks through the revisions.
cat >"$work/console_steps.py" <<'PY'
import random


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] * 1000


def walk(head, first, sign, low, high, n=50):
    # n revisions from `first`, each low..high records after (sign 1) or before (sign -1) the last.
    out, r = [], first
    for _ in range(n):
        out.append(min(head, max(1, r)))
        r += sign * random.randrange(low, high)
    return out
PY

if [ -n "$huge" ]; then
  PYTHONPATH="$work" /usr/bin/python3 - "$url" "$head" "$steps" "$koordq" "$journal" <<'PY'
import json, random, subprocess, sys, time, urllib.request
from console_steps import pct, walk
url, head, steps, koordq, journal = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
random.seed(7)

def get(path):
    t = time.perf_counter()
    body = urllib.request.urlopen(url + "api/" + path).read()
    return time.perf_counter() - t, body

def instant(r):
    a, tree = get("tree?revision=%d&limit=500" % r)
    b, queues = get("at?revision=%d&object=queues&limit=500" % r)
    return a + b, len(tree) + len(queues)


first, size = instant(head)
print("first instant (head, cold: the state folded from seq 1): %.0f ms, %d bytes of JSON" % (first * 1000, size))
again, _ = instant(head)
print("the same instant again (cached state): %.1f ms" % (again * 1000))
rand = [instant(r)[0] for r in random.sample(range(1, head + 1), steps)]
print("random instants (%d): p50 %.0f ms, p90 %.0f ms, p99 %.0f ms" % (steps, pct(rand, 50), pct(rand, 90), pct(rand, 99)))
start = head - 50 * 200
drag = [instant(r)[0] for r in walk(head, start, 1, 50, 200)]
print("dragging forward (50 instants 50-200 records apart): p50 %.1f ms, p99 %.1f ms" % (pct(drag, 50), pct(drag, 99)))
t, body = get("at?revision=%d&object=units&match=job-0001&limit=200" % head)
print("find units named like job-0001: %.1f ms, %d found" % (t * 1000, len(json.loads(body)["items"])))
t, body = get("at?revision=%d&object=queues&match=team-0004&limit=500" % head)
print("find queues named like team-0004: %.1f ms" % (t * 1000))
t, body = get("at?revision=%d&object=queue&name=team-00000&limit=1000" % head)
print("the big queue's first 1000 units: %.1f ms, %d bytes" % (t * 1000, len(body)))
t, body = get("diff?revision=%d&compare=%d&limit=200" % (head, head - 500))
d = json.loads(body)
print("difference head vs head-500, one request: %.1f ms (moved %d, quota changes %d)" % (
    t * 1000, d["moved"]["total"], d["quotaChanges"]["total"]))
cli = []
for r in random.sample(range(1, head + 1), 3):
    t = time.perf_counter()
    subprocess.run([koordq, "at", "rev:%d" % r, "quotas", "-o", "json", "--journal-dir", journal], capture_output=True, check=True)
    cli.append(time.perf_counter() - t)
print("koordq at rev:N quotas (process, 3 calls): p50 %.0f ms; random instant p50 / at p50 = %.2f" % (
    pct(cli, 50), pct(rand, 50) / pct(cli, 50)))
PY
  exit 0
fi

PYTHONPATH="$work" /usr/bin/python3 - "$url" "$head" "$steps" "$koordq" "$journal" "$weight" <<'PY'
import random, subprocess, sys, time, urllib.request
from console_steps import pct, walk
url, head, steps, koordq, journal, weight = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
random.seed(7)
revisions = random.sample(range(1, head + 1), min(steps, head))
# What the page fetches for one instant: the quota tree and the queue list, both cut at 500.
PAGE = ("tree?revision=%d&limit=500", "at?revision=%d&object=queues&limit=500")


def scrub(revisions, parts=None):
    out = []
    for r in revisions:
        t = time.perf_counter()
        for i, path in enumerate(PAGE):
            started = time.perf_counter()
            urllib.request.urlopen(url + "api/" + path % r).read()
            if parts is not None:
                parts[i].append(time.perf_counter() - started)
        out.append(time.perf_counter() - t)
    return out

# Dragging: the scrubber moves forward a few hundred records at a time from a random start.
start = random.randrange(1, max(2, head - 50 * 400))
drag = scrub(walk(head, start, 1, 50, 400))
# Stepping back: the same from a random end, backwards (each step restores from a snapshot).
end = random.randrange(min(head, 50 * 400 + 1), head + 1)
back = scrub(walk(head, end, -1, 50, 400))
parts = ([], [])
step = scrub(revisions, parts)
cli = []
for r in revisions[: max(10, len(revisions) // 10)]:
    t = time.perf_counter()
    subprocess.run([koordq, "at", "rev:%d" % r, "quotas", "-o", "json", "--journal-dir", journal], capture_output=True, check=True)
    cli.append(time.perf_counter() - t)
print("journal: %d records; %d scrub steps at random revisions" % (head, len(step)))
print("console step (tree + queues), random revisions: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms" % (pct(step, 50), pct(step, 90), pct(step, 99)))
print("  of which the quota tree (rebuilds the state): p50 %.1f ms, p99 %.1f ms; the Queue list (the state rebuilt): p50 %.1f ms, p99 %.1f ms" % (
    pct(parts[0], 50), pct(parts[0], 99), pct(parts[1], 50), pct(parts[1], 99)))
print("console step while dragging forward (50 steps of 50-400 records): p50 %.1f ms, p99 %.1f ms" % (pct(drag, 50), pct(drag, 99)))
print("console step while dragging back (50 steps of 50-400 records): p50 %.1f ms, p99 %.1f ms" % (pct(back, 50), pct(back, 99)))
print("koordq at rev:N quotas (process): p50 %.1f ms, p99 %.1f ms over %d calls; step p50 / at p50 = %.2f" % (
    pct(cli, 50), pct(cli, 99), len(cli), pct(step, 50) / pct(cli, 50)))
print("page weight: %d bytes (index.html + console.js + console.css, uncompressed, no other request)" % weight)
PY
