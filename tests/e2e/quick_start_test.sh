#!/usr/bin/env bash
# README.md's commands, as written, from a directory laid out as a checkout (scripts/ and
# build/cmd/koordq, the binary under test):
# - the quick start's journal commands (K=build/cmd/koordq) over the journal a simulation leaves in
#   ./koordq-data/journal (serve --simulate's default, two virtual minutes of it): journal stat,
#   export, export piped into verify, replay --verify, explain of a unit, at rev:3000 as a table, at
#   a minute ago, and the console, which serves its page at the URL it prints (and docs/operations.md's
#   console over a copy);
# - `scripts/install-deps.sh --build` finds every package present;
# - `ctest -L static` in the build tree passes.
# As root it runs in a network namespace of its own (`unshare -n`), so that the console's default
# port 19877 cannot collide with anything outside. Usage: quick_start_test.sh path/to/koordq
set -uo pipefail

if [ "${KOORDQ_QUICK_START_NETNS:-}" != 1 ] && [ "$(id -u)" = 0 ] && unshare -n -- true 2>/dev/null; then
  KOORDQ_QUICK_START_NETNS=1 exec unshare -n -- bash "$0" "$@"
fi
[ "${KOORDQ_QUICK_START_NETNS:-}" = 1 ] && ip link set lo up

koordq="$(readlink -f "${1:?usage: quick_start_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
build_dir="$(dirname "$(dirname "$koordq")")" # build/cmd/koordq: the build tree is build/
console_pid=""
cleanup() {
  [ -n "$console_pid" ] && kill "$console_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

cd "$scratch" || exit 1
mkdir -p build/cmd
ln -s "$koordq" build/cmd/koordq
ln -s "$repo/scripts" scripts

# What `./scripts/simulate.sh` leaves behind, on a virtual clock so that it takes seconds.
t=$SECONDS
build/cmd/koordq serve --simulate --simulate-clock virtual --simulate-duration 2m \
  --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0 >simulate.log 2>&1
check "serve --simulate writes ./koordq-data/journal" test -s koordq-data/journal/HEAD
echo "two simulated minutes: $((SECONDS - t)) s"

K=build/cmd/koordq
$K journal stat --journal-dir koordq-data/journal >"$out" 2>"$err"
check "journal stat: records by kind" grep -Eq '^kinds: +config=1,.*round=[1-9]' "$out"
check "journal stat: the head hash" grep -Eq '^head: +[0-9a-f]{64}$' "$out"
$K journal export --journal-dir koordq-data/journal | head >"$out" 2>"$err"
check "journal export | head: ten records, one a line" test "$(jq -c .seq "$out" 2>/dev/null | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 9 10 "
$K journal export --journal-dir koordq-data/journal | $K journal verify --export - >"$out" 2>"$err"
check "journal export | journal verify --export -: ok" grep -q '^ok: [0-9]* records' "$out"
$K replay --journal-dir koordq-data/journal --verify >"$out" 2>"$err"
check "replay --verify re-decides every round" grep -Eq '^verified [0-9]+ decisions in [1-9][0-9]* rounds' "$out"
# NS/NAME: a unit the simulation admitted.
unit="$($K journal export --journal-dir koordq-data/journal |
  jq -r 'select(.kind == "watch" and .body.watch.objectKind == "queueUnit") | "\(.body.watch.namespace)/\(.body.watch.name)"' 2>/dev/null |
  head -n 1)"
check "the journal names a unit to explain ($unit)" test -n "$unit"
# shellcheck disable=SC2086 # the document's words; a unit's name has no blanks
$K explain $unit --journal-dir koordq-data/journal >"$out" 2>"$err"
check "explain $unit tells its story" grep -q "${unit#*/}" "$out"
$K at rev:3000 queues --journal-dir koordq-data/journal -o table >"$out" 2>"$err"
check "at rev:3000 queues -o table" grep -q '^NAME' "$out"
$K at "$(date -u -d '1 min ago' +%FT%TZ)" debug queue --journal-dir koordq-data/journal >"$out" 2>"$err"
check "at a minute ago: debug queue, as JSON" jq_true 'type == "object" and length > 0' "$out"
# console_serves LOG: the console started with that log prints the default URL and serves its page there.
console_serves() {
  local url=""
  for _ in $(seq 1 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/console/' "$1" | head -n 1)
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ "$url" = http://127.0.0.1:19877/console/ ] && curl -sf -o /dev/null "$url"
}
stop_console() {
  kill "$console_pid" 2>/dev/null
  wait "$console_pid" 2>/dev/null
  console_pid=""
}
$K console --journal-dir koordq-data/journal >console.log 2>&1 &
console_pid=$!
check "console prints http://127.0.0.1:19877/console/ and serves the page there" console_serves console.log
stop_console
# docs/operations.md's console over a copy of a journal.
"$koordq" journal checkpoint --journal-dir koordq-data/journal copy >"$out" 2>"$err"
# (replayed here rather than in ops_test.sh, whose journal is ten times larger)
"$koordq" replay --journal-dir copy --verify >"$out" 2>"$err"
check "replay --journal-dir copy --verify" grep -Eq '^verified [0-9]+ decisions in [1-9][0-9]* rounds' "$out"
"$koordq" console --journal-dir ./copy >console-copy.log 2>&1 &
console_pid=$!
check "console --journal-dir ./copy serves the copy's console" console_serves console-copy.log
stop_console

scripts/install-deps.sh --build >"$out" 2>"$err"
check "scripts/install-deps.sh --build: every package present" grep -q '^install-deps: all [0-9]* packages present$' "$out"

t=$SECONDS
(cd "$build_dir" && ctest -L static) >"$out" 2>"$err"
check "ctest -L static in $build_dir" grep -q '^100% tests passed' "$out"
echo "ctest -L static: $((SECONDS - t)) s"
finish
