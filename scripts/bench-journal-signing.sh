#!/usr/bin/env bash
# What the journal's signing key costs (BENCHMARKS.md, "Journal", "Signing"): a simulated serve
# (virtual clock, seed 7, 1 min) with and without --journal-signing-key-file, the HEAD writes it
# signs, the Ed25519 signature alone (openssl speed), and `journal export` of that journal with and
# without a key, each REPEAT times (default 5), fastest run kept. Prints ratios signed / unsigned.
#   scripts/bench-journal-signing.sh path/to/koordq [REPEAT]
set -euo pipefail

koordq="$(readlink -f "${1:?usage: bench-journal-signing.sh path/to/koordq [REPEAT]}")"
repeat="${2:-5}"
work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-bench-signing.XXXXXX")"
trap 'rm -rf "$work"' EXIT

"$koordq" journal keygen --private-key "$work/key.pem" --public-key "$work/key.pub.pem" >/dev/null

# fastest COMMAND...: the fastest of $repeat runs, in seconds.
fastest() {
  local best="" start end t
  for _ in $(seq "$repeat"); do
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" -eq 1 ]; then best=$t; fi
  done
  echo "$best"
}

serve_once() {
  rm -rf "$work/j-$1"
  "$koordq" serve --simulate --simulate-clock virtual --simulate-duration 1m --seed 7 --journal-dir "$work/j-$1" \
    "${@:2}"
}

unsigned_serve=$(fastest serve_once plain)
signed_serve=$(fastest serve_once signed --journal-signing-key-file "$work/key.pem")
records=$("$koordq" journal stat --journal-dir "$work/j-plain" -o json | jq .records)
echo "serve, $records records: unsigned ${unsigned_serve}s, signed ${signed_serve}s, ratio $(echo "scale=3; $signed_serve / $unsigned_serve" | bc)"
openssl speed -seconds 2 ed25519 2>/dev/null | grep -E "^ *253 bits EdDSA" || true

unsigned_export=$(fastest "$koordq" journal export --journal-dir "$work/j-plain" "$work/plain.ndjson")
signed_export=$(fastest "$koordq" journal export --journal-dir "$work/j-plain" --journal-signing-key-file "$work/key.pem" "$work/signed.ndjson")
echo "export, $records lines: unsigned ${unsigned_export}s, signed ${signed_export}s, ratio $(echo "scale=3; $signed_export / $unsigned_export" | bc)"
unsigned_verify=$(fastest "$koordq" journal verify --export "$work/plain.ndjson")
signed_verify=$(fastest "$koordq" journal verify --export "$work/signed.ndjson" --public-key "$work/key.pub.pem")
echo "verify --export: unsigned ${unsigned_verify}s, with --public-key ${signed_verify}s, ratio $(echo "scale=3; $signed_verify / $unsigned_verify" | bc)"
