#!/usr/bin/env bash
# The visibility API end to end over TLS with a client certificate (BENCHMARKS.md, "Serving
# surfaces"): builds koordq and bench/visibility_load in $BUILD_DIR (default build-bench,
# RelWithDebInfo), fills a deep-queue scenario's queue with `koordq serve --simulate` on the virtual
# clock over a fresh journal under $TMPDIR, serves that journal on the wall clock with arrivals off,
# waits for /readyz and the visibility port, then loads
#   - the 10-item page, closed loop and open loop at fixed rates,
#   - the 1,000-item page uncached (a parameter that changes per request misses the response
#     cache, which is keyed by path and parameters) and cached (the same URL again),
# and, in the same run, the baseline: visibility_load --serve-fixed, a bare Boost.Beast + OpenSSL
# server with the same client-certificate verification answering a body of the same size.
# Each load runs REPEAT times (default 3); the table shows the median of each figure.
# The server (koordq or the baseline) is pinned to the last core, the client to the first.
#   scripts/bench-visibility.sh [SCENARIO.yaml ...]   (default bench/visibility-deep-queue-10k.yaml)
# Environment: BUILD_DIR, REPEAT, DURATION (Go duration, default 5s), WARMUP (default 1s),
# RATES_SMALL (default "1000 2000 5000"), RATES_LARGE (default "300"), RATES_CACHED (default "2000"),
# CONNECTIONS (closed loop, default 4), OPEN_CONNECTIONS (open loop, default 32).
set -euo pipefail
cd "$(dirname "$0")/.."

build="${BUILD_DIR:-build-bench}"
repeat="${REPEAT:-3}"
duration="${DURATION:-5s}"
warmup="${WARMUP:-1s}"
rates_small="${RATES_SMALL:-1000 2000 5000}"
rates_large="${RATES_LARGE:-300}"
rates_cached="${RATES_CACHED:-2000}"
connections="${CONNECTIONS:-4}"
open_connections="${OPEN_CONNECTIONS:-32}"
scenarios=("$@")
((${#scenarios[@]})) || scenarios=(bench/visibility-deep-queue-10k.yaml)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKOORDQ_BENCH=ON >/dev/null
ninja -C "$build" koordq visibility_load >/dev/null
koordq="$PWD/$build/cmd/koordq"
load="$PWD/$build/bench/visibility_load"

last_cpu=$(($(nproc) - 1))
server_pin=(taskset -c "$last_cpu")
client_pin=(taskset -c 0)
((last_cpu > 0)) || server_pin=() client_pin=()

work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-visibility-XXXXXX")"
server_pid=""
stop_server() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# Waits until FILE has a line matching REGEX and prints its last number.
wait_for_log() {
  local file="$1" regex="$2" what="$3"
  for _ in $(seq 600); do
    if line=$(grep -Eo "$regex" "$file" | tail -1) && [[ -n $line ]]; then
      grep -Eo '[0-9]+$' <<<"$line"
      return
    fi
    if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "bench-visibility: $what did not appear in $file; its end:" >&2
  tail -20 "$file" >&2
  exit 1
}

certs=""
tls_args() { echo --cert "$certs/client.crt" --key "$certs/client.key" --ca "$certs/serving.crt"; }

clock_ticks=$(getconf CLK_TCK)
server_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }

# Runs one load REPEAT times and prints the row: medians of req/s, p50, p90, p99, p99.9, max, the
# server's CPU time per request (the whole process over the whole run, warm-up included, divided by
# every answer received: robust to a shared machine, where the wall-clock figures are not), and the
# error and not-sent counts of the worst repetition. Keeps each JSON in $work/runs/.
row_number=0
run_load() {
  local label="$1" url="$2"
  shift 2
  row_number=$((row_number + 1))
  local out="$work/runs/$row_number"
  mkdir -p "$out"
  for i in $(seq "$repeat"); do
    local before after
    before=$(server_ticks)
    # shellcheck disable=SC2046
    "${client_pin[@]}" "$load" --url "$url" $(tls_args) --duration "$duration" --warmup "$warmup" --json "$@" \
      >"$out/$i.raw"
    after=$(server_ticks)
    jq --argjson cpu "$(awk -v t=$((after - before)) -v hz="$clock_ticks" 'BEGIN { print t / hz }')" \
      '. + {server_cpu_s: $cpu}' "$out/$i.raw" >"$out/$i.json"
  done
  jq -s -r --arg row "$label" '
    def median(f): (map(f) | sort) as $v | $v[($v | length - 1) / 2 | floor];
    [$row,
     (median(.req_per_s) | floor | tostring),
     (median(.latency_ms.p50) * 1000 | round / 1000 | tostring),
     (median(.latency_ms.p90) * 1000 | round / 1000 | tostring),
     (median(.latency_ms.p99) * 1000 | round / 1000 | tostring),
     (median(.latency_ms["p99.9"]) * 1000 | round / 1000 | tostring),
     (median(.latency_ms.max) * 1000 | round / 1000 | tostring),
     (median(.server_cpu_s * 1000 / ([.completed_total, 1] | max)) * 1000 | round / 1000 | tostring),
     (map(.errors) | max | tostring),
     (map(.not_sent) | max | tostring)] | @tsv' "$out"/*.json |
    awk -F'\t' '{ printf "%-44s %8s %8s %8s %8s %8s %8s %9s %6s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' |
    tee -a "$work/table"
}
header() {
  printf '%-44s %8s %8s %8s %8s %8s %8s %9s %6s %8s\n' load req/s p50_ms p90_ms p99_ms p99.9_ms max_ms srv_ms/req \
    errors not_sent
}
median_rps() { jq -s '(map(.req_per_s) | sort) as $v | $v[($v | length - 1) / 2 | floor]' "$work/runs/$1"/*.json; }
median_cpu() {
  jq -s '(map(.server_cpu_s / ([.completed_total, 1] | max)) | sort) as $v | $v[($v | length - 1) / 2 | floor]' \
    "$work/runs/$1"/*.json
}

body_bytes() { curl -s --cacert "$certs/serving.crt" --cert "$certs/client.crt" --key "$certs/client.key" "$1" | wc -c; }

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server on core $last_cpu, client on core 0; each row the median of $repeat runs of $duration (after $warmup)"
for scenario in "${scenarios[@]}"; do
  name="$(basename "$scenario" .yaml)"
  journal="$work/$name/journal"
  log="$work/$name/serve.log"
  mkdir -p "$work/$name"
  depth=$(grep -Eo 'maxUnits: [0-9]+' "$scenario" | grep -Eo '[0-9]+')
  per_minute=$(grep -Eo 'arrivalsPerMinute: [0-9]+' "$scenario" | grep -Eo '[0-9]+')
  # Fill the queue on the virtual clock (as fast as the simulator goes, the same journal every
  # time), then serve it on the wall clock with arrivals off: the journal stays quiet while it is
  # loaded (only the Block queue's head is retried), so the cached page stays cached.
  fill_seconds=$((depth * 60 / per_minute + 10))
  echo "scenario $scenario: filling the queue ($depth units, ${fill_seconds}s of virtual time)"
  "$koordq" serve --simulate --scenario "$scenario" --journal-dir "$journal" --simulate-clock virtual \
    --simulate-duration "${fill_seconds}s" --enable-visibility-server=false --enable-api-handler=false \
    --metrics-bind-address 127.0.0.1:0 >"$work/$name/fill.log" 2>&1 ||
    { echo "bench-visibility: filling failed; its log:" >&2; tail -20 "$work/$name/fill.log" >&2; exit 1; }
  sed -E 's/arrivalsPerMinute: [0-9]+/arrivalsPerMinute: 0/' "$scenario" >"$work/$name/quiet.yaml"
  "${server_pin[@]}" "$koordq" serve --simulate --scenario "$work/$name/quiet.yaml" --journal-dir "$journal" \
    --visibility-port 0 --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 >"$log" 2>&1 &
  server_pid=$!
  metrics_port=$(wait_for_log "$log" 'listen on 127\.0\.0\.1:[0-9]+' "the metrics address")
  for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$metrics_port/readyz" >/dev/null && break
    sleep 0.1
  done
  port=$(wait_for_log "$log" 'visibility API listens on https://[^ ]*:[0-9]+' "the visibility address")
  certs="$journal/simulate-certs"
  api="https://localhost:$port/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/deep"
  # The queue is full once every unit but the running one waits.
  waiting=0
  for _ in $(seq 100); do
    waiting=$(curl -s --cacert "$certs/serving.crt" --cert "$certs/client.crt" --key "$certs/client.key" "$api" |
      jq '.phaseCounts.Enqueued // 0')
    ((waiting >= depth - 1)) && break
    sleep 0.25
  done
  echo
  echo "scenario $scenario: queue deep holds $waiting waiting units"
  small_bytes=$(body_bytes "$api/queueunits?limit=10")
  large_bytes=$(body_bytes "$api/queueunits?limit=1000")
  echo "10-item page $small_bytes bytes, 1,000-item page $large_bytes bytes"
  header
  run_load "10-item page, closed, $connections conns" "$api/queueunits?limit=10" -c "$connections"
  small_closed=$row_number
  for rate in $rates_small; do
    run_load "10-item page, open $rate/s" "$api/queueunits?limit=10" -c "$open_connections" --rate "$rate"
  done
  run_load "1,000-item page uncached, closed, $connections conns" "$api/queueunits?limit=1000&nocache={seq}" \
    -c "$connections"
  large_uncached=$row_number
  for rate in $rates_large; do
    run_load "1,000-item page uncached, open $rate/s" "$api/queueunits?limit=1000&nocache={seq}" \
      -c "$open_connections" --rate "$rate"
  done
  run_load "1,000-item page cached, closed, $connections conns" "$api/queueunits?limit=1000" -c "$connections"
  large_cached=$row_number
  for rate in $rates_cached; do
    run_load "1,000-item page cached, open $rate/s" "$api/queueunits?limit=1000" -c "$open_connections" \
      --rate "$rate"
  done
  stop_server

  for size in "$small_bytes" "$large_bytes"; do
    "${server_pin[@]}" "$load" --serve-fixed "$size" --cert "$certs/serving.crt" --key "$certs/serving.key" \
      --ca "$certs/client-ca.crt" >"$work/$name/fixed-$size.log" 2>&1 &
    server_pid=$!
    fixed_port=$(wait_for_log "$work/$name/fixed-$size.log" 'listening on 127\.0\.0\.1:[0-9]+' "the baseline address")
    fixed="https://localhost:$fixed_port/fixed"
    run_load "baseline $size B, closed, $connections conns" "$fixed" -c "$connections"
    if [[ $size == "$small_bytes" ]]; then
      fixed_small=$row_number
      for rate in $rates_small; do
        run_load "baseline $size B, open $rate/s" "$fixed" -c "$open_connections" --rate "$rate"
      done
    else
      fixed_large=$row_number
      for rate in $rates_cached; do
        run_load "baseline $size B, open $rate/s" "$fixed" -c "$open_connections" --rate "$rate"
      done
    fi
    stop_server
  done

  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
  # On a shared machine the wall-clock ratio favours the process with more threads (the scheduler
  # shares a core per thread); the CPU time per request does not depend on that.
  echo "koordq / baseline of the same size, closed loop (same run):   server CPU per request   req/s"
  for pair in "10-item page:$small_closed:$fixed_small" "1,000-item page, cached:$large_cached:$fixed_large" \
    "1,000-item page, uncached:$large_uncached:$fixed_large"; do
    IFS=: read -r what koordq_row fixed_row <<<"$pair"
    printf '  %-58s %6s× %12s×\n' "$what" "$(ratio "$(median_cpu "$koordq_row")" "$(median_cpu "$fixed_row")")" \
      "$(ratio "$(median_rps "$koordq_row")" "$(median_rps "$fixed_row")")"
  done
done
echo
echo "load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
