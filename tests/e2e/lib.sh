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

# build_kube_apiserver LOG: the harness's kube-apiserver (built, or found in its cache), tried up to
# three times: its download of Debian's source package fails now and then on a transient network
# error (a DNS lookup of deb.debian.org), which a fresh CI machine must survive. Needs $H.
build_kube_apiserver() {
  local attempt
  for attempt in 1 2 3; do
    bash "$H/build-kube-apiserver.sh" >"$1" 2>&1 && return 0
    [ "$attempt" = 3 ] || sleep $((attempt * 15))
  done
  return 1
}

# The closing line the CI reads, and the exit status.
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
