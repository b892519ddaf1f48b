#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (ASan+UBSan, every fuzzed library instrumented) and
# fuzzes one of them, starting from a scratch copy of its saved corpus.
#   scripts/fuzz.sh TARGET [SECONDS=600] [RUNS]   TARGET: any tests/fuzz/<TARGET>_fuzz.cpp
# With RUNS it stops after that many executions (or SECONDS, whichever comes first).
# New interesting inputs stay in the scratch directory it prints; merge the worth-keeping ones
# into tests/fuzz/corpus/TARGET/ (small files), which CI replays as ordinary tests.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [RUNS]  (TARGET: $(ls tests/fuzz/*_fuzz.cpp | sed 's#.*/##; s#_fuzz.cpp##' | tr '\n' ' '))}"
seconds="${2:-600}"
runs="${3:--1}"
[ -f "tests/fuzz/${target}_fuzz.cpp" ] || { echo "no fuzz target tests/fuzz/${target}_fuzz.cpp" >&2; exit 2; }
command -v clang++-14 >/dev/null || { echo "clang-14 is missing: run scripts/install-deps.sh" >&2; exit 1; }
export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/koordq-ccache}"
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKOORDQ_FUZZ=ON -DKOORDQ_BENCH=OFF -DKOORDQ_UNITY_BUILD=ON -DKOORDQ_DEBUG_INFO=lines >/dev/null
ninja -C build-fuzz "fuzz_${target}"
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-fuzz-${target}.XXXXXX")"
cp -r "tests/fuzz/corpus/${target}/." "$work/"
dict=()
[ -f "tests/fuzz/${target}.dict" ] && dict=(-dict="tests/fuzz/${target}.dict")
echo "fuzzing ${target} for ${seconds}s; corpus in ${work}"
exec "build-fuzz/tests/fuzz_${target}" -max_total_time="$seconds" -runs="$runs" -print_final_stats=1 "${dict[@]}" "$work"
