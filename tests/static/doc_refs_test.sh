#!/usr/bin/env bash
# scripts/check-doc-refs.py: the repository's own references resolve, and the check fails, naming
# the file and line, on a section that does not exist (also one listed after the first, one broken
# over two comment lines, a bare one inside docs/ and a bare one in code, which is behaviour.md's),
# on a document that does not exist, and on a relative markdown link to a missing file.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
check="$repo/scripts/check-doc-refs.py"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

if ! python3 "$check" "$repo"; then
  fail "the repository's references do not all resolve (lines above)"
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/docs" "$scratch/src"
cat >"$scratch/docs/design.md" <<'DOC'
# Design
## 1. Data flow
See §1 and §4.
### 1.2 Detail
[good](../src/good.cpp) [bad](missing.md) [anchor](#data-flow) [web](https://example.com/x.md)
DOC
cat >"$scratch/docs/behaviour.md" <<'DOC'
# Behaviour
## 7. Attempts
DOC
printf '%s\n' 'x' >"$scratch/src/good.cpp"
cat >"$scratch/src/bad.cpp" <<'CODE'
// Fine: design.md §1, §1.2.
// Broken: design.md §1, §3; behaviour.md §2.
// Broken over two lines: design.md
// §1.3.
// Bare, so behaviour.md's: §7 resolves, §8 does not; operations.md §1 has no document.
CODE

set +e
output="$(python3 "$check" "$scratch" 2>&1)"
status=$?
set -e
[[ $status -eq 1 ]] || fail "exit status $status on broken references, want 1"
expect() {
  grep -qF -- "$1" <<<"$output" || fail "no line '$1' in: $output"
}
expect "src/bad.cpp:2: design.md §3: docs/design.md has no heading numbered 3"
expect "src/bad.cpp:2: behaviour.md §2: docs/behaviour.md has no heading numbered 2"
expect "src/bad.cpp:3: design.md §1.3: docs/design.md has no heading numbered 1.3"
expect "src/bad.cpp:5: behaviour.md §8: docs/behaviour.md has no heading numbered 8"
expect "src/bad.cpp:5: operations.md §1: there is no docs/operations.md"
expect "docs/design.md:3: design.md §4: docs/design.md has no heading numbered 4"
expect "docs/design.md:5: link to missing.md: docs/missing.md does not exist"
[[ $(grep -c '^src/bad.cpp:1:\|good.cpp\|#data-flow\|example.com' <<<"$output") -eq 0 ]] ||
  fail "a reference that resolves was reported: $output"
[[ $(grep -c '^[^ ]*:[0-9]*: ' <<<"$output") -eq 7 ]] || fail "want exactly 7 problems, got: $output"

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "PASS: references resolve, and broken ones are named"
