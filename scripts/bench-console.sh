#!/usr/bin/env bash
# The console's scrub step, server side: `koordq console` over a journal, then STEPS revisions
# spread over it in random order, each fetched the way the page fetches an instant (the quota
# tree and the queue list at that revision, one after the other); prints p50/p90/p99 of the step
# and while dragging forward (a step folds on from the state cached before it), and, for comparison in the same run, of `koordq at rev:N quotas` (a process per call, so it
# includes start-up and the journal's open) over the same revisions. Also the page's weight.
# Usage: scripts/bench-console.sh [JOURNAL_DIR] [STEPS]
#   Without JOURNAL_DIR, writes the simulator's default scenario for 10 virtual minutes (seed 7).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
koordq="${KOORDQ:-$repo/build/cmd/koordq}"
journal="${1:-}"
steps="${2:-200}"
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-console.XXXXXX")"
trap 'kill "$console_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
console_pid=""

if [ -z "$journal" ]; then
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

weight=0
for asset in "" console.js console.css; do
  weight=$((weight + $(curl -sS "$url$asset" | wc -c)))
done

/usr/bin/python3 - "$url" "$head" "$steps" "$koordq" "$journal" "$weight" <<'PY'
import random, subprocess, sys, time, urllib.request
url, head, steps, koordq, journal, weight = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
random.seed(7)
revisions = random.sample(range(1, head + 1), min(steps, head))

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] * 1000

def scrub(revisions):
    out = []
    for r in revisions:
        t = time.perf_counter()
        for obj in ("quotas", "queues"):
            urllib.request.urlopen("%sapi/at?revision=%d&object=%s" % (url, r, obj)).read()
        out.append(time.perf_counter() - t)
    return out

# Dragging: the scrubber moves forward a few hundred records at a time from a random start.
start = random.randrange(1, max(2, head - 50 * 400))
drag = scrub([min(head, start + i * random.randrange(50, 400)) for i in range(50)])
step = []
for r in revisions:
    t = time.perf_counter()
    for obj in ("quotas", "queues"):
        urllib.request.urlopen("%sapi/at?revision=%d&object=%s" % (url, r, obj)).read()
    step.append(time.perf_counter() - t)
cli = []
for r in revisions[: max(10, len(revisions) // 10)]:
    t = time.perf_counter()
    subprocess.run([koordq, "at", "rev:%d" % r, "quotas", "-o", "json", "--journal-dir", journal], capture_output=True, check=True)
    cli.append(time.perf_counter() - t)
print("journal: %d records; %d scrub steps at random revisions" % (head, len(step)))
print("console step (quotas + queues), random revisions: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms" % (pct(step, 50), pct(step, 90), pct(step, 99)))
print("console step while dragging forward (50 steps of 50-400 records): p50 %.1f ms, p99 %.1f ms" % (pct(drag, 50), pct(drag, 99)))
print("koordq at rev:N quotas (process): p50 %.1f ms, p99 %.1f ms over %d calls; step p50 / at p50 = %.2f" % (
    pct(cli, 50), pct(cli, 99), len(cli), pct(step, 50) / pct(cli, 50)))
print("page weight: %d bytes (index.html + console.js + console.css, uncompressed, no other request)" % weight)
PY
