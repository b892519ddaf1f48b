#!/usr/bin/env bash
# bench/visibility_load against its own fixed-body server (--serve-fixed): a client certificate
# is presented and verified, answers are counted with their size, a missing certificate shows as
# errors instead of answers, the open loop never sends faster than --rate, and bad flags exit 2
# naming the problem. No performance is asserted.
# Usage: visibility_load_test.sh path/to/visibility_load
set -uo pipefail

load="$(readlink -f "${1:?usage: visibility_load_test.sh path/to/visibility_load}")"
koordq="$load"  # lib.sh expects it; its run() is not used here
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

# A CA, a serving certificate for localhost signed by it, and a client certificate signed by it.
certs="$scratch/certs"
mkdir -p "$certs"
(
  cd "$certs" || exit 1
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=test-ca \
    -keyout ca.key -out ca.crt
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost -keyout serving.key \
    -out serving.csr
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >serving.ext
  openssl x509 -req -in serving.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -extfile serving.ext \
    -out serving.crt
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=front-proxy-client -keyout client.key \
    -out client.csr
  openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -out client.crt
) >/dev/null 2>&1 || {
  echo "FAIL: openssl could not make the test certificates"
  exit 1
}

"$load" --serve-fixed 2000 --cert "$certs/serving.crt" --key "$certs/serving.key" --ca "$certs/ca.crt" \
  >"$scratch/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$scratch"' EXIT
port=""
for _ in $(seq 100); do
  port=$(grep -Eo '127\.0\.0\.1:[0-9]+' "$scratch/server.log" | grep -Eo '[0-9]+$') && [[ -n $port ]] && break
  sleep 0.05
done
check "the fixed server prints its port" test -n "$port"
url="https://localhost:$port/x?n={seq}"
client=(--cert "$certs/client.crt" --key "$certs/client.key" --ca "$certs/ca.crt")

# Closed loop with a client certificate: every answer is a 200 of 2000 body bytes.
"$load" --url "$url" "${client[@]}" -c 2 --duration 1s --warmup 200ms --json >"$out" 2>"$err"
check "closed loop exits 0" test $? -eq 0
check "closed loop gets answers" jq_true '.requests > 0' "$out"
check "every answer is a 200" jq_true '.errors == 0 and .status["200"] == .requests' "$out"
check "bytes are counted (body and header)" jq_true '.bytes_per_s >= 2000 * .req_per_s' "$out"
check "percentiles are ordered" jq_true \
  '.latency_ms | .p50 > 0 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= ."p99.9" and ."p99.9" <= .max' "$out"
check "both connections are open" jq_true '.connections == 2 and .mode == "closed"' "$out"

# The text report names the figures.
"$load" --url "$url" "${client[@]}" --duration 300ms --warmup 0s >"$out" 2>"$err"
check "text report has requests, latency and status lines" \
  bash -c "grep -q '^requests ' '$out' && grep -q '^latency .*p99.9' '$out' && grep -q '^status .*200:' '$out'"

# Open loop: never more answers than the schedule allows.
"$load" --url "$url" "${client[@]}" -c 4 --rate 200 --duration 1s --warmup 0s --json >"$out" 2>"$err"
check "open loop gets answers" jq_true '.requests > 0 and .mode == "open" and .rate == 200' "$out"
check "open loop keeps to the rate" jq_true '.requests <= 201' "$out"

# Without a client certificate the server refuses the connection: errors, no answers.
"$load" --url "$url" --ca "$certs/ca.crt" --duration 500ms --warmup 0s --json >"$out" 2>"$err"
check "no certificate: no answers" jq_true '.requests == 0' "$out"
check "no certificate: transport errors are counted" jq_true '.errors > 0 and (.transport_errors | length) > 0' "$out"

# The server's certificate is verified unless --insecure.
"$load" --url "$url" --cert "$certs/client.crt" --key "$certs/client.key" --ca "$certs/client.crt" \
  --duration 300ms --warmup 0s >"$out" 2>"$err"
check "an untrusted server is not loaded" test $? -eq 1
check "the refusal names the handshake" grep -q "TLS handshake" "$err"
"$load" --url "$url" --cert "$certs/client.crt" --key "$certs/client.key" --insecure --duration 300ms \
  --warmup 0s --json >"$out" 2>"$err"
check "--insecure skips verification" jq_true '.requests > 0' "$out"

# Usage errors exit 2 and name the problem.
"$load" --url "http://localhost:$port/" --insecure >"$out" 2>"$err"
check "http:// is refused with 2" test $? -eq 2
check "the message names https://" grep -q "https://" "$err"
"$load" --url "$url" "${client[@]}" --duration soon >"$out" 2>"$err"
check "a bad duration is refused with 2" test $? -eq 2
check "the message names the value" grep -q '"soon"' "$err"
"$load" --url "$url" >"$out" 2>"$err"
check "no --ca and no --insecure is refused with 2" test $? -eq 2
"$load" --url "$url" --cert "$certs/client.crt" --ca "$certs/ca.crt" >"$out" 2>"$err"
check "--cert without --key is refused with 2" test $? -eq 2
"$load" --url "$url" --cert "$scratch/missing.crt" --key "$certs/client.key" --ca "$certs/ca.crt" >"$out" 2>"$err"
check "a missing certificate file is refused with 2" test $? -eq 2
check "the message names the TLS material" grep -q "TLS material" "$err"

finish
