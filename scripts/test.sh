#!/usr/bin/env bash
# koordq's whole test suite, from a fresh Debian 12 machine with only git and this repository:
#   1. installs every missing Debian package (scripts/install-deps.sh, needs root);
#   2. builds with ASan+UBSan (-O0: it compiles in about two thirds of the time of -O1, which is more
#      than the tests lose running slower) what the unit and property tests need (target
#      koordq_unit_tests) and runs them there;
#   3. builds RelWithDebInfo (everything: binary, tests, benchmarks) and runs every test
#      once: unit, property and end-to-end. ctest's summary of this run is the last output.
# Both builds keep line-level debug information only (-DKOORDQ_DEBUG_INFO=lines: stack traces
# with file:line, no variables), which compiles about a quarter faster than full -g, and compile
# the libraries as unity builds (-DKOORDQ_UNITY_BUILD=ON; the tests always are), which shares the
# heavy headers' instantiations between the files of a unit (BENCHMARKS.md, build time).
# Build trees: build/ (main) and build-asan/. Compiler cache: $CCACHE_DIR, default
# ~/.cache/koordq-ccache, outside the clone. Test scratch data goes to $TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."

export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/koordq-ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
jobs="${KOORDQ_JOBS:-$(nproc)}"

script_start=$SECONDS
stage_start=$SECONDS
stage() {
  printf '\n=== %s ===\n' "$1"
  stage_start=$SECONDS
}
stage_done() {
  printf '=== %s: %ds (total %ds) ===\n' "$1" $((SECONDS - stage_start)) $((SECONDS - script_start))
}

stage "install dependencies"
bash scripts/install-deps.sh
stage_done "install dependencies"

stage "sanitizer build (ASan+UBSan, -O0)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="-O0" -DCMAKE_C_FLAGS="-O0" \
  -DKOORDQ_SANITIZE=ON -DKOORDQ_BENCH=OFF -DKOORDQ_DEBUG_INFO=lines -DKOORDQ_UNITY_BUILD=ON >/dev/null
ninja -C build-asan -j "$jobs" koordq_unit_tests
stage_done "sanitizer build"

stage "unit and property tests under ASan+UBSan"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# A quarter of rapidcheck's 100 cases per property here: every property's code paths still run
# under the sanitizers, and the main build's run below checks the invariants on all 100.
export RC_PARAMS="${RC_PARAMS_SANITIZER:-max_success=25}"
(cd build-asan && ctest -L 'unit|property' -j "$jobs" --output-on-failure)
unset ASAN_OPTIONS UBSAN_OPTIONS RC_PARAMS
stage_done "sanitizer tests"

stage "main build (RelWithDebInfo)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKOORDQ_DEBUG_INFO=lines -DKOORDQ_UNITY_BUILD=ON >/dev/null
ninja -C build -j "$jobs"
stage_done "main build"

ccache --show-stats 2>/dev/null | grep -iE 'hits|misses' | head -n 3 || true
stage "all tests: unit, property, end-to-end"
cd build
exec ctest -j "$jobs" --output-on-failure
