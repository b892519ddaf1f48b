#!/usr/bin/env bash
# scripts/check-doc-commands.py: every command README.md and docs/operations.md show is run by a test
# script under tests/ (or listed in tests/static/doc_commands_exempt.txt with the reason), and the
# check fails, naming the document, the line and the command, on a command no test runs: a fenced
# one, one continued over two lines, an inline one, one a test only mentions in a comment, one whose
# placeholder the test does not fill in; and on an exemption the documents no longer need.
# shellcheck disable=SC2016 # the expected lines quote commands in backquotes, with their $ signs
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
check="$repo/scripts/check-doc-commands.py"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

if ! python3 "$check" "$repo"; then
  fail "a command of README.md or docs/operations.md is run by no test (lines above)"
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# --list names what runs each command.
(cd "$repo" && scripts/check-doc-commands.py --list) >"$scratch/list" 2>&1 ||
  fail "check-doc-commands.py --list: $(tail -n 3 "$scratch/list")"
grep -A1 -E '^README.md:[0-9]+: \$K journal stat --journal-dir koordq-data/journal$' "$scratch/list" |
  grep -qx '    run by tests/e2e/quick_start_test.sh' || fail "--list does not say that quick_start_test.sh runs journal stat"
mkdir -p "$scratch/docs" "$scratch/tests/e2e" "$scratch/tests/static"
cat >"$scratch/README.md" <<'DOC'
# Example

```sh
koordq journal stat --journal-dir data     # covered
koordq replay --journal-dir data \
  --verify
```

Run `kubectl get pods -A` or `kubectl apply`; see `scripts/fuzz.sh TARGET [SECONDS]`.
DOC
cat >"$scratch/docs/operations.md" <<'DOC'
# Operating

```sh
skopeo copy oci-archive:koordq.oci.tar docker://registry.example.com/koordq:1
kubectl -n koord-queue port-forward pod/koordq-0 19876:19876
kubectl delete -k ops
```

Then `kubectl -n <ns> scale deploy/<name>
--replicas=0`, which is commented out in the test.
DOC
cat >"$scratch/tests/e2e/example_test.sh" <<'SH'
"$koordq" journal stat --journal-dir data >"$out"
# kubectl -n koord-queue scale deploy/koord-queue --replicas=0
skopeo copy oci-archive:koordq.oci.tar docker://registry.example.com/koordq:1
SH
cat >"$scratch/tests/static/doc_commands_exempt.txt" <<'TXT'
[not run] needs a kubelet
    kubectl -n koord-queue port-forward pod/koordq-0 19876:19876
    kubectl -n koord-queue port-forward pod/koordq-1 19876:19876
[mention] not to be run
    kubectl delete -k ops
TXT

set +e
output="$(python3 "$check" "$scratch" 2>&1)"
status=$?
set -e
[[ $status -eq 1 ]] || fail "exit status $status on uncovered commands, want 1"
expect() {
  grep -qF -- "$1" <<<"$output" || fail "no line '$1' in: $output"
}
expect 'README.md:5: `koordq replay --journal-dir data --verify` is run by no test under tests/'
expect 'README.md:9: `kubectl get pods -A` is run by no test under tests/'
expect 'docs/operations.md:4: `skopeo copy oci-archive:koordq.oci.tar docker://registry.example.com/koordq:1` is run by no test under tests/ (looked for `skopeo copy oci-archive:koordq.oci.tar docker://$registry/koordq:1`)'
expect 'docs/operations.md:9: `kubectl -n <ns> scale deploy/<name> --replicas=0` is run by no test under tests/ (looked for `kubectl -n koord-queue scale deploy/koord-queue --replicas=0`)'
expect 'tests/static/doc_commands_exempt.txt:3: `kubectl -n koord-queue port-forward pod/koordq-1 19876:19876` is listed, but neither document shows it'
[[ $(grep -c 'journal stat\|kubectl apply`\|fuzz.sh\|pod/koordq-0\|delete -k' <<<"$output") -eq 0 ]] ||
  fail "a covered, exempted or merely named command was reported: $output"
[[ $(grep -c '^[^ ]*:[0-9]*: ' <<<"$output") -eq 5 ]] || fail "want exactly 5 problems, got: $output"

# Once the test runs the placeholder's value, the command is covered.
printf '%s\n' 'kubectl -n koord-queue scale deploy/koord-queue --replicas=0' >>"$scratch/tests/e2e/example_test.sh"
output="$(python3 "$check" "$scratch" 2>&1 || true)"
[[ $(grep -c 'scale deploy' <<<"$output") -eq 0 ]] || fail "the test's scale command does not cover the document's: $output"

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "PASS: every documented command is run by a test, and one that is not is named"
