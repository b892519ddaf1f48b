# shellcheck shell=bash disable=SC2154  # sourced by the tests once they have set $koordq
# Shared by the bash end-to-end tests: a scratch directory, pass/fail counting, checks, and the
# closing `N passed, N failed` line. Source it after setting $koordq; it sets $scratch, $out, $err.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/koordq-e2e.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
out="$scratch/stdout"
err="$scratch/stderr"
: >"$out"
: >"$err"

pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
  sed 's/^/  stdout: /' "$out" | head -n 5
  sed 's/^/  stderr: /' "$err" | head -n 5
}

# run ARGS...: runs koordq in the scratch directory (at most 120 s) and sets $code.
run() {
  (cd "$scratch" && timeout 120 "$koordq" "$@") >"$out" 2>"$err"
  code=$?
}

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds (its output is discarded).
check() {
  local what="$1"
  shift
  if "$@" >/dev/null; then pass; else fail "$what"; fi
}

jq_true() { jq -e "$@" >/dev/null; }

# eventually SECONDS COMMAND...: COMMAND succeeds within SECONDS (polled every 0.2 s).
eventually() {
  local deadline=$((SECONDS + $1))
  shift
  while [ $SECONDS -le $deadline ]; do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  return 1
}


# verify_journal DESCRIPTION DIR: `replay --verify` over the journal in DIR (after the processes
# that wrote it stopped) exits 0: every recorded round re-decides the same, and every snapshot a
# restart resumed from equals the fold of the records up to it. The check of every test that
# restarts koordq: a restarted process must decide as the replay of its own journal does.
verify_journal() {
  run replay --journal-dir "$2" --verify
  if [ "$code" -eq 0 ] && grep -Eq '^verified [0-9]+ decisions in [0-9]+ rounds, [0-9]+ records, [0-9]+ snapshots$' "$out"; then
    pass
  else
    fail "$1: replay --verify of $2 (exit $code)"
    sed -n '1,30p' "$out"
  fi
}

# The Kubernetes control plane of the cluster tests: tests/controlplane (KOORDQ_CONTROLPLANE_DIR
# names another directory with its scripts).
controlplane_dir="${KOORDQ_CONTROLPLANE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../controlplane" && pwd)}"
# build_kube_apiserver LOG: kube-apiserver and kubectl, built once into the control plane's cache
# (build-kube-apiserver.sh, which retries its downloads), or found there.
build_kube_apiserver() { bash "$controlplane_dir/build-kube-apiserver.sh" >"$1" 2>&1; }
# start_control_plane DIR: builds (or finds cached) kube-apiserver, starts a control plane in DIR
# (log DIR.log) and sources DIR/env; on failure says why and exits 1. KOORDQ_APISERVER_EXTRA_ARGS
# and KOORDQ_APISERVER_AUTHORIZATION (RBAC) in the environment go to control-plane.sh.
start_control_plane() {
  if ! build_kube_apiserver "$1.build.log"; then
    echo "FAIL: building kube-apiserver failed:"
    tail -n 20 "$1.build.log"
    exit 1
  fi
  if ! bash "$controlplane_dir/control-plane.sh" start "$1" >"$1.log" 2>&1; then
    echo "FAIL: control-plane.sh start failed:"
    tail -n 20 "$1.log"
    exit 1
  fi
  # shellcheck disable=SC1091
  . "$1/env"
}
# stop_control_plane DIR: stops what start_control_plane started there (if anything).
stop_control_plane() { bash "$controlplane_dir/control-plane.sh" stop "$1" >/dev/null 2>&1 || true; }

# The closing line the CI reads, and the exit status.
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
