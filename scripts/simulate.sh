#!/usr/bin/env bash
# Quick start: installs what is missing, builds koordq and runs `koordq serve --simulate`
# (the built-in cluster simulator). Extra arguments are passed to `koordq serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/koordq-ccache}"
bash scripts/install-deps.sh --build
# The flags of the README test command's main build, so that either command reuses the other's.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKOORDQ_DEBUG_INFO=lines -DKOORDQ_UNITY_BUILD=ON >/dev/null
ninja -C build koordq
exec build/cmd/koordq serve --simulate "$@"
