#!/usr/bin/env bash
# Drives the real koordq binary through its command line (behaviour.md §21, §24): help of every
# command, usage errors, and a short `serve --simulate` run.
# Usage: cli_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cli_test.sh path/to/koordq}")"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/koordq-cli-e2e.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

passed=0
failed=0
out="$scratch/stdout"
err="$scratch/stderr"

pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
  sed 's/^/  stdout: /' "$out" | head -n 5
  sed 's/^/  stderr: /' "$err" | head -n 5
}

# run ARGS...: runs koordq (at most 120 s) and sets $code.
run() {
  (cd "$scratch" && timeout 120 "$koordq" "$@") >"$out" 2>"$err"
  code=$?
}

# expect_code CODE DESCRIPTION
expect_code() {
  if [ "$code" -eq "$1" ]; then pass; else fail "$2: exit code $code, want $1"; fi
}

# expect_usage_error DESCRIPTION PATTERN: exit code 2, nothing on stdout, one stderr line matching PATTERN.
expect_usage_error() {
  local lines
  lines=$(wc -l <"$err")
  if [ "$code" -eq 2 ] && [ ! -s "$out" ] && [ "$lines" -eq 1 ] && grep -qE -- "$2" "$err"; then
    pass
  else
    fail "$1: exit code $code, $lines stderr lines, want 2 and one line matching '$2'"
  fi
}

# expect_help COMMAND... -- WORDS...: `koordq COMMAND --help` exits 0 and mentions every word.
expect_help() {
  local command=()
  while [ "$1" != "--" ]; do
    command+=("$1")
    shift
  done
  shift
  run "${command[@]}" --help
  if [ "$code" -ne 0 ] || [ -s "$err" ]; then
    fail "koordq ${command[*]} --help: exit code $code"
    return
  fi
  local word missing=()
  for word in "$@"; do
    grep -qF -- "$word" "$out" || missing+=("$word")
  done
  if [ ${#missing[@]} -eq 0 ]; then pass; else fail "koordq ${command[*]} --help does not mention: ${missing[*]}"; fi
}

# The flags of behaviour.md §21, their Koord-Queue spellings and the ignored Koord-Queue flags.
serve_flags=(
  --kubeconfig --qps --burst --watch-timeout --oversellrate --pod-initial-backoff-seconds --podInitialBackoffSeconds
  --pod-max-backoff-seconds --podMaxBackoffSeconds --schedule-suspend-time-ms --scheduleSuspendTimeInMillSecond
  --default-reclaim-protect-time --queue-namespace --queue-items-max --actor-threads --enable-api-handler --enableApiHandler
  --api-handler-bind-address --api-handler-port --enable-visibility-server --enableVisibilityServer
  --visibility-port --visibility-tls-cert-file --visibility-tls-key-file --visibility-client-ca-file
  --visibility-requestheader-allowed-names --visibility-apiservice
  --max-connections --max-inflight-timetravel --timetravel-cache-mb --stream-max-lag --metrics-bind-address
  --leader-elect --leaderElection --leader-election-id --leader-election-namespace --leader-elect-lease-duration
  --leader-elect-renew-deadline --leader-elect-retry-period --legacy-lease-guard --journal-dir
  --journal-max-batch-delay --journal-retention --journal-max-size --snapshot-every --snapshot-retention
  --journal-raw-objects --journal-on-corruption --journal-signing-key-file --journal-witness-configmap
  --journal-witness-period --journal-witness-history --tick-min-interval --journal-checkpoint-root --archive-url
  --archive-segment-records --archive-segment-interval --archive-lock-days --archive-lock-mode --archive-addressing
  --simulate --scenario --seed --simulate-speed
  --simulate-clock --simulate-duration "--v "
  --config --strictDequeueMode --queue-list --default-queue-policy --defaultPreemptible --enableParentLimit
  --feature-gates --admissionCheckControllerWorker
)

# The flags of every reader of the archive (behaviour.md §26.6).
archive_read_flags=(--archive-url --archive-addressing --archive-cluster --archive-journal --archive-cache
  --archive-cache-size --archive-stats)

# Help of every command.
expect_help -- serve replay at explain console journal archive version
expect_help serve -- "${serve_flags[@]}" "Exit codes"
expect_help at -- WHEN OBJECT --journal-dir --export -o --phase --limit --offset queues "queue NAME" quotas \
  "quota NAME" "unit NS/NAME" metrics koordq_admission_wait_seconds "debug elasticquota" "debug queue" \
  "debug userquota" "${archive_read_flags[@]}" "Exit codes"
expect_help explain -- NS/NAME --journal-dir --export --uid --at -o "${archive_read_flags[@]}" "Exit codes"
expect_help console -- --journal-dir --listen --state-cache-mb /console/ "Exit codes"
expect_help replay -- --journal-dir --export --to --verify --what-if -o oversellrate pod-initial-backoff-seconds \
  pod-max-backoff-seconds queue.NAME.policy queue.NAME.annotation.KEY quota.NAME.max.RESOURCE \
  "${archive_read_flags[@]}" "Exit codes"
expect_help journal -- import export verify stat checkpoint
expect_help journal import -- --journal-dir "FILE|-" "Exit codes"
expect_help journal export -- --journal-dir --format --from --to "FILE|-" "${archive_read_flags[@]}" "Exit codes"
expect_help journal verify -- --journal-dir --export --public-key --witness --witness-configmap --kubeconfig \
  --witness-file "${archive_read_flags[@]}" "Exit codes"
expect_help journal stat -- --journal-dir -o "${archive_read_flags[@]}" "Exit codes"
expect_help journal checkpoint -- --journal-dir DIR "Exit codes"
expect_help archive -- ls verify export
expect_help archive ls -- --archive-url --archive-addressing --times -o "Exit codes"
expect_help archive verify -- --archive-url --cluster --journal --public-key "Exit codes"
expect_help archive export -- --archive-url --cluster --journal --from-seq --to-seq "FILE|-" "Exit codes"
expect_help version -- "koordq version"

# Usage errors: exit code 2 and one line naming the problem.
run
expect_usage_error "no command" "^koordq: missing command"
run frobnicate
expect_usage_error "unknown command" '^koordq: unknown command "frobnicate"'
run serve --no-such-flag
expect_usage_error "unknown serve flag" "^koordq serve: unknown flag --no-such-flag; see 'koordq serve --help'$"
run at rev:1 queues --no-such-flag
expect_usage_error "unknown at flag" "^koordq at: unknown flag --no-such-flag"
run journal stat --bogus=1
expect_usage_error "unknown journal stat flag" "^koordq journal stat: unknown flag --bogus"
run serve --pod-max-backoff-seconds abc
expect_usage_error "bad integer" \
  '^koordq serve: invalid value "abc" for --pod-max-backoff-seconds: must be an integer >= --pod-initial-backoff-seconds \(1\)'
run serve --leader-elect-lease-duration=forever
expect_usage_error "bad duration" 'invalid value "forever" for --leader-elect-lease-duration'
run serve --oversellrate 1.0000001
expect_usage_error "oversellrate with 7 fractional digits" 'invalid value "1.0000001" for --oversellrate'
run serve --journal-raw-objects=everything
expect_usage_error "bad enum" 'invalid value "everything" for --journal-raw-objects'
run serve --qps
expect_usage_error "missing value" "flag --qps needs a value"
run serve --seed 7
expect_usage_error "--seed without --simulate" "^koordq serve: --seed requires --simulate"
run serve --simulate-clock virtual
expect_usage_error "--simulate-clock without --simulate" "--simulate-clock requires --simulate"
run at rev:0 queues
expect_usage_error "revision 0" 'invalid value "rev:0" for WHEN'
run replay --verify --what-if oversellrate=2
expect_usage_error "--verify with --what-if" "--verify and --what-if exclude each other"
run replay --what-if nonsense=1
expect_usage_error "unknown what-if key" '^koordq replay: unknown what-if key "nonsense"$'
run replay --what-if oversellrate=-1
expect_usage_error "invalid what-if value" '^koordq replay: invalid what-if value "-1" for oversellrate$'
run replay --what-if oversellrate
expect_usage_error "a what-if key without its value" '^koordq replay: invalid what-if value "" for oversellrate$'
run replay --what-if pod-initial-backoff-seconds=10 --what-if pod-max-backoff-seconds=5
expect_usage_error "a what-if maximum backoff below the initial one" \
  '^koordq replay: invalid what-if value "5" for pod-max-backoff-seconds$'
mkdir -p "$scratch/existing"
run journal checkpoint "$scratch/existing"
expect_usage_error "checkpoint into an existing directory" "already exists"

# serve --simulate runs (and creates its journal directory) and stops at --simulate-duration.
run serve --simulate --simulate-duration 1s --journal-dir "$scratch/journal"
expect_code 0 "serve --simulate --simulate-duration 1s"
if [ -d "$scratch/journal" ]; then pass; else fail "serve --simulate did not create --journal-dir"; fi
if grep -qF "curl http://127.0.0.1:19876/apis/v1/queue" "$err" && grep -qF "curl http://127.0.0.1:10259/metrics" "$err"; then
  pass
else
  fail "serve --simulate does not log the curl lines"
fi
if grep -qE '^I[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} +[0-9]+ [a-z_]+\.cpp:[0-9]+\] ' "$err"; then
  pass
else
  fail "serve does not log in klog format"
fi

# Flag spellings: camelCase aliases, --name=value, a boolean alone, --flag=false, an empty value.
run serve --simulate --simulate-duration=1s --journal-dir="$scratch/journal" --podInitialBackoffSeconds=2 \
  --podMaxBackoffSeconds 4 --enableApiHandler --leaderElection=false --legacy-lease-guard= --v=1 --config=x.yaml
expect_code 0 "serve with Koord-Queue spellings"
if grep -qE '^W.*flag --config is accepted for compatibility with Koord-Queue and ignored' "$err"; then
  pass
else
  fail "ignored flag --config logs no warning"
fi
if grep -qF -- "--pod-max-backoff-seconds=4" "$err"; then pass; else fail "--v=1 does not log the effective configuration"; fi

# The default --simulate journal directory is created relative to the working directory.
run serve --simulate --simulate-duration 1s
expect_code 0 "serve --simulate with the default journal directory"
if [ -d "$scratch/koordq-data/journal" ]; then pass; else fail "serve --simulate did not create ./koordq-data/journal"; fi

# Offline commands until the journal exists: a missing journal is exit code 3.
run at rev:1 queues --journal-dir "$scratch/no-journal"
expect_code 3 "at with a missing journal directory"

run version
if [ "$code" -eq 0 ] && grep -qE '^koordq 0\.1\.0 \(([0-9a-f]{40}|unknown)\)$' "$out"; then
  pass
else
  fail "version"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
