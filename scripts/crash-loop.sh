#!/usr/bin/env bash
# The long journal crash loop (tests/reliability/crash_loop_test.cpp): SIGKILLs a journal writer
# process KILLS times (default 500), auditing the journal after every kill.
# Usage: scripts/crash-loop.sh [KILLS] [SEED]
# Build tree: $KOORDQ_BUILD_DIR, default build (RelWithDebInfo, as scripts/test.sh makes it),
# configured when missing.
# Scratch data goes to $TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."

kills="${1:-500}"
build="${KOORDQ_BUILD_DIR:-build}"
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$build" journal_crash_loop_test journal_crash_writer

export KOORDQ_CRASH_KILLS="$kills"
if [[ $# -ge 2 ]]; then export KOORDQ_CRASH_SEED="$2"; fi
exec "$build/tests/journal_crash_loop_test" --gtest_filter='CrashLoop.*' --gtest_color=no
