#!/usr/bin/env bash
# The Replay figures of BENCHMARKS.md: makes a journal with a virtual-clock simulation (seed 3,
# SIM_DURATION of simulated time, default 10m), then runs replay_bench on it: full replay and
# full --verify against a raw JournalReader cursor scan of the same journal, in the same run.
# Usage: scripts/bench-replay.sh [BUILD_DIR] [benchmark flags]   (BUILD_DIR default build-replay)
set -euo pipefail
build="${1:-build-replay}"
shift || true
ninja -C "$build" koordq replay_bench >/dev/null
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-replay.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$build/cmd/koordq" serve --simulate --simulate-clock virtual --seed 3 \
  --simulate-duration "${SIM_DURATION:-10m}" --journal-dir "$work/journal" >"$work/serve.log" 2>&1
"$build/cmd/koordq" journal stat --journal-dir "$work/journal" | sed -n '2,5p'
KOORDQ_BENCH_REPLAY_JOURNAL="$work/journal" "$build/bench/replay_bench" "$@"
