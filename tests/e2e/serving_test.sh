#!/usr/bin/env bash
# The serving surfaces of `koordq serve --simulate` with real clients over loopback (behaviour.md
# §15–§18): curl, promtool, a Prometheus server, kubectl `get --raw` and python3-kubernetes.
# Metrics (families, format, no duplicate series), /healthz and /readyz; the debug API; the
# visibility API over TLS with client certificates (discovery, every path and parameter, Status
# errors); time travel; bad requests (unknown paths, bad parameters, oversized queries, no client
# certificate, a header that never ends or comes a line a second, a TLS handshake that never ends,
# more connections than --max-connections) answered as the spec says while the server keeps serving;
# a clean stop on SIGTERM.
# Usage: serving_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: serving_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

journal="$scratch/journal"
log="$scratch/serve.log"
(cd "$scratch" && exec "$koordq" serve --simulate --simulate-speed 4 --simulate-duration 10m --journal-dir "$journal" \
  --metrics-bind-address 127.0.0.1:0 --api-handler-port 0 --visibility-port 0 --max-connections 16) >"$log" 2>&1 &
serve_pid=$!
prom_pid=""
cleanup() {
  kill "$serve_pid" 2>/dev/null
  [ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

# The start log prints a curl line per surface once the initial sync is done.
for _ in $(seq 1 200); do
  grep -q 'curl http://127.0.0.1:[0-9]*/metrics' "$log" && break
  sleep 0.1
done
metrics_port=$(sed -n 's|.*curl http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$log" | head -n1)
debug_port=$(sed -n 's|.*curl http://127.0.0.1:\([0-9]*\)/apis/v1/queue.*|\1|p' "$log" | head -n1)
vis_port=$(sed -n 's|.*https://localhost:\([0-9]*\)/apis/visibility.*|\1|p' "$log" | head -n1)
if [ -z "$metrics_port" ] || [ -z "$debug_port" ] || [ -z "$vis_port" ]; then
  echo "FAIL: serve --simulate did not print its curl lines"
  sed 's/^/  log: /' "$log" | head -n 30
  exit 1
fi
M="http://127.0.0.1:$metrics_port"
D="http://127.0.0.1:$debug_port"
V="https://localhost:$vis_port"
certs="$journal/simulate-certs"
tls=(--cacert "$certs/serving.crt" --cert "$certs/client.crt" --key "$certs/client.key")
P=/apis/visibility.koord-queue.x-k8s.io/v1alpha1
sleep 3 # let the simulation admit, fail and back off a few units

# status BODYFILE URL [CURL ARGS...]: prints the HTTP status, the body goes to BODYFILE.
status() {
  local body=$1 url=$2
  shift 2
  curl -s -o "$body" -w '%{http_code}' "$@" "$url"
}
b="$scratch/body"
h="$scratch/headers"

# --- metrics, /healthz, /readyz (§15) -------------------------------------------------------------
check "/healthz answers ok" test "$(status "$b" "$M/healthz")$(cat "$b")" = "200ok"
check "/readyz is ready after the initial sync" test "$(status "$b" "$M/readyz")$(cat "$b")" = "200ok"
check "an unknown metrics path is 404 page not found" \
  test "$(status "$b" "$M/nope")$(cat "$b")" = "404404 page not found"
curl -s -D "$h" -o "$scratch/metrics" "$M/metrics"
check "/metrics has the text format content type" grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$h"
promtool check metrics <"$scratch/metrics" >"$scratch/lint" 2>&1
lint=$?
if [ $lint -eq 0 ] || { [ $lint -eq 3 ] && ! grep -v 'counter metrics should have "_total" suffix' "$scratch/lint" | grep -q .; }; then
  pass
else
  fail "promtool check metrics found more than the Koord-Queue counter names: $(head -n 5 "$scratch/lint")"
fi
dups=$(grep -v '^#' "$scratch/metrics" | sed 's/ [^ ]*$//' | sort | uniq -d)
check "no duplicate series" test -z "$dups"
for family in queueunits_in_active_queue queueunits_in_backoff_queue dequeued_quota_usage_by_quota \
  dequeued_quota_usage_by_namespace queueunits_by_job_type queueunits_coming_rate_by_job_type job_schedule_attempts \
  koordq_admission_wait_seconds job_scheduling_algorithm_latency job_scheduling_e2e_latency process_cpu_seconds_total \
  process_resident_memory_bytes process_start_time_seconds process_open_fds koordq_journal_appended_records_total \
  koordq_journal_appended_bytes_total koordq_journal_fsync_batch_records koordq_journal_fsync_duration_seconds \
  koordq_journal_last_sequence koordq_journal_ingest_lag_seconds koordq_journal_quarantines_total \
  koordq_last_applied_sequence koordq_leader koordq_relists_total koordq_build_info; do
  check "/metrics serves $family" grep -q "^# TYPE $family " "$scratch/metrics"
done
check "the simulator leads" grep -qx 'koordq_leader 1' "$scratch/metrics"
check "a relist per resource at start" grep -q '^koordq_relists_total{resource="queueunits"} 1$' "$scratch/metrics"
check "e2e buckets in milliseconds, 1 × 4^k" grep -q '^job_scheduling_e2e_latency_bucket{le="16777216"}' "$scratch/metrics"
check "build info carries the version" grep -q '^koordq_build_info{revision="[0-9a-f unknow]*",version="0.1.0"} 1$' \
  "$scratch/metrics"

# --- debug API (§17) ---------------------------------------------------------------------------------
code=$(curl -s -D "$h" -o "$b" -w '%{http_code}' "$D/apis/v1/queue")
check "debug /apis/v1/queue answers 200" test "$code" = 200
check "debug answers are indented with tabs" grep -qP '^\t"_unassigned": \[' "$b"
check "debug answers carry X-Koordq-Revision" grep -qi '^x-koordq-revision: [0-9]' "$h"
check "debug answers carry X-Koordq-Journal" grep -qi '^x-koordq-journal: [0-9a-f-]\{36\}' "$h"
check "debug queue has the Koord-Queue fields" jq_true '.["team-data"] | has("Policy") and has("Active") and has("Backoff") and has("Assumed") and has("BlockedQuotas")' "$b"
check "debug elasticquota answers" test "$(status "$b" "$D/apis/v1/elasticquota")" = 200
check "elasticquota values are internal integers" jq_true '.["team-data"].Max.cpu | type == "number"' "$b"
check "debug userquota answers" test "$(status "$b" "$D/apis/v1/userquota")" = 200
check "userquota counts per namespace" jq_true '[.[] | .Count] | add > 0' "$b"
check "debug unknown path: 404 {\"error\": \"not found\"}" \
  test "$(status "$b" "$D/apis/v1/nope")$(jq -c . "$b")" = '404{"error":"not found"}'
check "debug POST: 405" test "$(status "$b" "$D/apis/v1/queue" -X POST)$(jq -r .error "$b")" = '405method not allowed'
check "debug bad revision: 400 with the spec message" \
  test "$(status "$b" "$D/apis/v1/queue?revision=abc")$(jq -r .error "$b")" = \
  '400invalid value "abc" for parameter revision: must be an integer >= 1'
check "debug revision past the latest: 400" test "$(status "$b" "$D/apis/v1/queue?revision=999999999")" = 400
check "debug asOf in the future: 400" test "$(status "$b" "$D/apis/v1/queue?asOf=2999-01-01T00:00:00Z")" = 400
check "debug asOf before the journal: 410" \
  test "$(status "$b" "$D/apis/v1/queue?asOf=2000-01-01T00:00:00Z")$(jq -r '.error | startswith("time 2000-01-01T00:00:00Z is older than the oldest retained revision 1 (")' "$b")" = '410true'
code=$(curl -s -D "$h" -o "$b" -w '%{http_code}' "$D/apis/v1/queue?revision=3")
check "debug time travel to revision 3" test "$code" = 200
check "the answer names revision 3" grep -qi '^x-koordq-revision: 3' "$h"
check "at revision 3 the relist had not brought the queues in yet" jq_true 'keys == ["_unassigned"]' "$b"

# --- the checkpoint endpoint (§17.1): a header, a root, 0700, no escape ----------------------------
C="$D/apis/journal/v1/checkpoint"
root="$journal/checkpoints"
check "checkpoint without X-Koordq-Checkpoint: 403 naming the header" \
  test "$(status "$b" "$C?dir=$root/a" -X POST)$(jq -r .error "$b")" = \
  '403a checkpoint request needs the header X-Koordq-Checkpoint: 1 (koordq journal checkpoint sends it)'
check "nothing was written without the header" test ! -e "$root/a"
check "checkpoint under the root: 200 with its seq" \
  test "$(status "$b" "$C?dir=$root/x/a" -X POST -H 'X-Koordq-Checkpoint: 1')$(jq -r '.seq > 0' "$b")" = 200true
check "the root, the directory on the way and the checkpoint are 0700" \
  test "$(stat -c %a "$root" "$root/x" "$root/x/a" | sort -u)" = 700
check "the checkpoint verifies" "$koordq" journal verify --journal-dir "$root/x/a"
check "checkpoint outside the root: 409 naming the root and the flag" \
  test "$(status "$b" "$C?dir=$scratch/outside" -X POST -H 'X-Koordq-Checkpoint: 1')$(jq -r .error "$b")" = \
  "409the checkpoint's directory $scratch/outside is not under $root (--journal-checkpoint-root): name one under it"
check "checkpoint through ..: 409" \
  test "$(status "$b" "$C?dir=$root/../../escaped" -X POST -H 'X-Koordq-Checkpoint: 1')" = 409
mkdir -p "$scratch/elsewhere" && ln -s "$scratch/elsewhere" "$root/link"
check "checkpoint through a symbolic link: 409" \
  test "$(status "$b" "$C?dir=$root/link/a" -X POST -H 'X-Koordq-Checkpoint: 1')" = 409
check "nothing was written outside the root" test -z "$(ls -A "$scratch/elsewhere")" -a ! -e "$scratch/outside" -a ! -e "$scratch/escaped"
run journal checkpoint --journal-dir "$journal" "$root/by-command"
check "koordq journal checkpoint through the running serve (it sends the header)" \
  test "$code" -eq 0 -a -d "$root/by-command/db"

# --- journal stream (§17.5) ---------------------------------------------------------------------------
J="$D/apis/journal/v1/records"
curl -s -D "$h" -o "$scratch/stream" "$J"
check "the stream is NDJSON" grep -qi '^content-type: application/x-ndjson' "$h"
n=$(wc -l <"$scratch/stream")
"$koordq" journal export --journal-dir "$journal" 2>/dev/null | head -n "$n" >"$scratch/export"
check "stream lines are byte-identical to journal export ($n lines)" cmp -s "$scratch/stream" "$scratch/export"
check "the stream starts at seq 1" test "$(head -n1 "$scratch/stream" | jq .seq)" = 1
tenth=$(sed -n 10p "$scratch/stream" | jq .seq)
check "from=<seq> resumes right after it" test "$(curl -s "$J?from=$tenth" | head -n1 | jq .seq)" = $((tenth + 1))
check "kind filters keep only that kind"   test "$(curl -s "$J?kind=round" | jq -r .kind | sort -u)" = round
check "namespace filters drop records about no object"   test "$(curl -s "$J?namespace=nlp" | jq -r .kind | grep -c -E 'tick|config|relist')" = 0

# §24.4: a checkpoint of the live journal, made by the serve that owns it (over its debug listener).
# It writes under --journal-checkpoint-root only (default <journal-dir>/checkpoints).
"$koordq" journal checkpoint --journal-dir "$journal" "$journal/checkpoints/live" >"$out" 2>"$err"
check "journal checkpoint of a live journal goes through the running serve" grep -qE '^checkpoint of seq [0-9]+ written to ' "$out"
"$koordq" journal verify --journal-dir "$journal/checkpoints/live" >"$out" 2>"$err"
check "the live checkpoint verifies" grep -q '^ok: ' "$out"
"$koordq" journal checkpoint --journal-dir "$journal" "$scratch/checkpoint" >"$out" 2>"$err"
check "a live checkpoint outside the root is refused, naming the root" grep -q \
  "the serve holding the journal refused the checkpoint: the checkpoint's directory $scratch/checkpoint is not under $journal/checkpoints (--journal-checkpoint-root): name one under it" "$err"
check "the checkpoint endpoint is POST only" test "$(curl -s -o /dev/null -w '%{http_code}' "$D/apis/journal/v1/checkpoint?dir=/tmp/x")" = 405
check "a relative checkpoint dir is refused" test "$(curl -s -X POST -H 'X-Koordq-Checkpoint: 1' "$D/apis/journal/v1/checkpoint?dir=rel" | jq -r .error)" = \
  "dir must be an absolute path that does not exist yet"
head_seq=$(tail -n1 "$scratch/stream" | jq .seq)
curl -s --max-time 3 "$J?from=$head_seq&follow=true" >"$scratch/follow"
check "follow=true sends records as they become durable" test "$(head -n1 "$scratch/follow" | jq .seq)" = $((head_seq + 1))
check "stream bad from: 400" test "$(status "$b" "$J?from=x")$(jq -r .error "$b")" = \
  '400invalid value "x" for parameter from: must be an integer >= 0'
check "stream bad kind: 400" test "$(status "$b" "$J?kind=bogus")" = 400

# --- visibility API (§16) ----------------------------------------------------------------------------
check "visibility /healthz needs no certificate" test "$(status "$b" "$V/healthz" --cacert "$certs/serving.crt")$(cat "$b")" = 200ok
check "visibility without a client certificate: 401 Status" \
  test "$(status "$b" "$V$P/queues" --cacert "$certs/serving.crt")$(jq -r '.kind + .reason' "$b")" = 401StatusUnauthorized
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=intruder -days 1 \
  -keyout "$scratch/other.key" -out "$scratch/other.crt" >/dev/null 2>&1
check "visibility with a certificate of another CA: 401" \
  test "$(status "$b" "$V$P/queues" --cacert "$certs/serving.crt" --cert "$scratch/other.crt" --key "$scratch/other.key")" = 401
curl -s -D "$h" -o "$b" "${tls[@]}" "$V/apis"
check "GET /apis: legacy APIGroupList" jq_true '.kind == "APIGroupList" and .groups[0].name == "visibility.koord-queue.x-k8s.io"' "$b"
check "GET /apis varies by Accept" grep -qi '^vary: accept' "$h"
curl -s -D "$h" -o "$b" "${tls[@]}" -H 'Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' "$V/apis"
check "aggregated discovery for kubectl 1.27+" jq_true '.kind == "APIGroupDiscoveryList" and .apiVersion == "apidiscovery.k8s.io/v2"' "$b"
check "aggregated discovery content type" grep -qi '^content-type: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' "$h"
check "APIGroup" test "$(curl -s "${tls[@]}" "$V/apis/visibility.koord-queue.x-k8s.io" | jq -r .kind)" = APIGroup
check "APIResourceList" test "$(curl -s "${tls[@]}" "$V$P" | jq -r '.resources | map(.name) | join(",")')" = \
  "elasticquotas,elasticquotas/queueunits,queues,queues/queueunits"
check "/openapi/v2" test "$(curl -s "${tls[@]}" "$V/openapi/v2" | jq -r .swagger)" = 2.0
check "/openapi/v3 is 404" test "$(status "$b" "$V/openapi/v3" "${tls[@]}")" = 404
check "QueueList" jq_true '.kind == "QueueList" and (.items | length) > 0 and (.metadata.resourceVersion | test("^[0-9]+$"))' \
  <(curl -s "${tls[@]}" "$V$P/queues")
check "a Queue summary" jq_true '.kind == "Queue" and .metadata.name == "team-data" and has("activeCount")' \
  <(curl -s "${tls[@]}" "$V$P/queues/team-data")
curl -s "${tls[@]}" "$V$P/queues/team-data/queueunits?phase=Enqueued,Dequeued,Running,Succeed,Failed,Reserved" >"$b"
check "a queue's QueueUnitsSummary" jq_true '.kind == "QueueUnitsSummary" and (.items | type) == "array"' "$b"
check "waiting units come first, positions counting from 0" \
  jq_true '[.items[] | select(has("positionInQueue")) | .positionInQueue] as $p | $p == [range(0; $p | length)]' "$b"
check "ElasticQuotaList" jq_true '.kind == "ElasticQuotaList" and (.items | map(.metadata.name) | index("team-data")) != null' \
  <(curl -s "${tls[@]}" "$V$P/elasticquotas")
check "an ElasticQuota summary" jq_true '.kind == "ElasticQuota" and .parent != null and (.used | type) == "object"' \
  <(curl -s "${tls[@]}" "$V$P/elasticquotas/team-data")
check "a quota's QueueUnitsSummary" jq_true '.kind == "QueueUnitsSummary"' \
  <(curl -s "${tls[@]}" "$V$P/elasticquotas/team-data/queueunits?limit=5&offset=0")
check "limit pages the list" jq_true '(.items | length) == 1 and .metadata.remainingItemCount > 0' \
  <(curl -s "${tls[@]}" "$V$P/queues?limit=1")
expect_status() { # DESCRIPTION PATH CODE REASON MESSAGE
  local code
  code=$(status "$b" "$V$2" "${tls[@]}")
  if [ "$code" = "$3" ] && jq -e --argjson c "$3" --arg r "$4" --arg m "$5" \
    '.kind == "Status" and .code == $c and .reason == $r and .message == $m' "$b" >/dev/null; then
    pass
  else
    fail "$1: got $code $(head -c 300 "$b")"
  fi
}
expect_status "unknown queue" "$P/queues/nope" 404 NotFound 'queue.scheduling.x-k8s.io "nope" not found'
expect_status "unknown quota" "$P/elasticquotas/nope/queueunits" 404 NotFound \
  'elasticquota.scheduling.sigs.k8s.io "nope" not found'
expect_status "unknown path" "$P/widgets" 404 NotFound 'the server could not find the requested resource'
expect_status "bad offset" "$P/queues?offset=-1" 400 BadRequest 'invalid value "-1" for parameter offset: must be an integer >= 0'
expect_status "bad limit" "$P/queues?limit=0" 400 BadRequest \
  'invalid value "0" for parameter limit: must be an integer between 1 and 10000'
expect_status "bad phase" "$P/queues/team-data/queueunits?phase=Running,Bogus" 400 BadRequest \
  'invalid value "Running,Bogus" for parameter phase: unknown phase "Bogus"'
expect_status "bad queue" "$P/queues/team-data/queueunits?queue=Bad_Name" 400 BadRequest \
  'invalid value "Bad_Name" for parameter queue: must be a valid object name'
expect_status "bad asOf" "$P/queues?asOf=noon" 400 BadRequest \
  'invalid value "noon" for parameter asOf: must be an RFC3339 time not in the future'
expect_status "asOf and revision" "$P/queues?asOf=2026-01-01T00:00:00Z&revision=2" 400 BadRequest \
  'parameters asOf and revision are mutually exclusive'
expect_status "bad revision" "$P/queues?revision=abc" 400 BadRequest \
  'invalid value "abc" for parameter revision: must be an integer >= 1'
expect_status "asOf in the future" "$P/queues/team-data?asOf=2999-01-01T00:00:00Z" 400 BadRequest \
  'invalid value "2999-01-01T00:00:00Z" for parameter asOf: must be an RFC3339 time not in the future'
live=$(curl -s "${tls[@]}" "$V$P/queues" | jq -r .metadata.resourceVersion)
code=$(status "$b" "$V$P/elasticquotas?revision=999999999" "${tls[@]}")
check "a revision past the latest: 400 Status naming the latest revision (>= $live)" jq_true --arg code "$code" \
  --argjson live "$live" '$code == "400" and .kind == "Status" and .code == 400 and .reason == "BadRequest" and
    (.message | capture("^revision 999999999 is newer than the latest revision (?<m>[0-9]+)$").m | tonumber) >= $live' "$b"
# The journal starts after this time, so it is older than the oldest retained record (revision 1).
first_time=$(head -n1 "$scratch/stream" | jq -r .time)
expect_status "asOf before the journal" "$P/queues/team-data/queueunits?asOf=2000-01-01T00:00:00Z" 410 Expired \
  "time 2000-01-01T00:00:00Z is older than the oldest retained revision 1 ($first_time)"
check "a revision answer names its revision" \
  test "$(curl -s "${tls[@]}" "$V$P/queues?revision=5" | jq -r .metadata.resourceVersion)" = 5
check "POST: 405 Status" test "$(status "$b" "$V$P/queues" "${tls[@]}" -X POST)$(jq -r .reason "$b")" = 405MethodNotAllowed
check "a 11 KB query string: 414" test "$(status "$b" "$V$P/queues?x=$(head -c 11000 /dev/zero | tr '\0' a)" "${tls[@]}")" = 414
check "a 20 KB query string: 431" test "$(status "$b" "$V$P/queues?x=$(head -c 20000 /dev/zero | tr '\0' a)" "${tls[@]}")" = 431
check "the visibility API keeps serving" test "$(status "$b" "$V$P/queues" "${tls[@]}")" = 200

# A header that never ends is answered 408 after 10 s; more connections than --max-connections
# are closed at once (the debug server has the same limits).
/usr/bin/python3 - "$debug_port" >"$scratch/limits" 2>&1 <<'PY'
import socket, sys, time
port = int(sys.argv[1])
slow = socket.create_connection(("127.0.0.1", port))
slow.sendall(b"GET /apis/v1/queue HTTP/1.1\r\nHost: x\r\n")
start = time.time()
slow.settimeout(15)
answer = slow.recv(4096)
print("slowloris", answer.split(b"\r\n")[0].decode(), round(time.time() - start))
held = [socket.create_connection(("127.0.0.1", port)) for _ in range(16)]
time.sleep(0.5)
extra = socket.create_connection(("127.0.0.1", port))
# Closed at accept; the wait only covers a server starved of CPU by a loaded host.
extra.settimeout(10)
try:
    data = extra.recv(100)
    print("extra closed" if data == b"" else "extra answered")
except (ConnectionResetError, socket.timeout) as e:
    print("extra reset" if isinstance(e, ConnectionResetError) else "extra open")
for s in held:
    s.close()
PY
check "a header that never ends gets 408 after about 10 s" grep -qE '^slowloris HTTP/1.1 408 Request Timeout (9|10|11)$' "$scratch/limits"
check "a connection beyond --max-connections is closed without an answer" grep -qE '^extra (closed|reset)$' "$scratch/limits"
grep -qE '^slowloris .*408.*$' "$scratch/limits" && grep -qE '^extra (closed|reset)$' "$scratch/limits" ||
  sed 's/^/  limits: /' "$scratch/limits"
sleep 0.5
check "the debug API keeps serving" test "$(status "$b" "$D/apis/v1/queue")" = 200

# The visibility server has the same limits over TLS. A client that completes the handshake and then
# sends its header a line a second, and one that never completes the handshake, are both closed 10 s
# after being accepted (the first with a 408 Status); a connection beyond --max-connections is closed
# before any handshake.
/usr/bin/python3 - "$vis_port" "$certs" >"$out" 2>"$err" <<'PY'
import json, socket, ssl, sys, threading, time
port, certs = int(sys.argv[1]), sys.argv[2]
context = ssl.create_default_context(cafile=certs + "/serving.crt")
context.load_cert_chain(certs + "/client.crt", certs + "/client.key")
results = {}  # printed once both threads are done, so their lines do not interleave

def header_drip():
    start = time.time()
    s = context.wrap_socket(socket.create_connection(("127.0.0.1", port)), server_hostname="localhost")
    s.sendall(b"GET /apis HTTP/1.1\r\nHost: localhost\r\n")
    s.settimeout(1)
    answer, line = b"", 0
    while time.time() - start < 20:
        try:
            data = s.recv(65536)
        except socket.timeout:
            if not answer:
                try:
                    s.sendall(b"X-Drip-%d: x\r\n" % line)
                except OSError:
                    break
                line += 1
            continue
        except (ssl.SSLError, OSError):
            break
        if not data:
            break
        answer += data
    head, _, body = answer.partition(b"\r\n\r\n")
    status = json.loads(body) if body else {}
    results["drip"] = [head.split(b"\r\n")[0].decode(), status.get("kind"), status.get("code"), status.get("reason"),
                       repr(status.get("message")), "lines", line, "closed after", round(time.time() - start)]

def stalled_handshake():
    start = time.time()
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"\x16\x03\x01")  # the start of a ClientHello record, never finished
    s.settimeout(20)
    try:
        outcome = "closed" if s.recv(100) == b"" else "answered"
    except ConnectionResetError:
        outcome = "closed"
    except socket.timeout:
        outcome = "open"
    results["handshake"] = [outcome, "after", round(time.time() - start)]

slow = [threading.Thread(target=header_drip), threading.Thread(target=stalled_handshake)]
for t in slow:
    t.start()
for t in slow:
    t.join()
for name, result in results.items():
    print(name, *result)
time.sleep(0.5)
held = [socket.create_connection(("127.0.0.1", port)) for _ in range(16)]
time.sleep(0.5)
start = time.time()
extra = socket.create_connection(("127.0.0.1", port))
# Closed at accept; the wait only covers a server starved of CPU by a loaded host.
extra.settimeout(10)
try:
    outcome = "closed" if extra.recv(100) == b"" else "answered"
except ConnectionResetError:
    outcome = "closed"
except socket.timeout:
    outcome = "open"
print("extra", outcome, "after", round(time.time() - start))
for s in held:
    s.close()
PY
check "TLS, a header sent a line a second: 408 Status after about 10 s, then closed" grep -qE \
  "^drip HTTP/1.1 408 Request Timeout Status 408 Timeout 'request header not received within 10s' lines ([5-9]|1[0-9]) closed after (9|10|11)$" \
  "$out"
check "TLS, a handshake that never completes is closed after about 10 s" grep -qE '^handshake closed after (9|10|11)$' \
  "$out"
check "TLS, a connection beyond --max-connections is closed at once" grep -qE '^extra closed after 0$' "$out"
sleep 0.5
check "the visibility API keeps serving after the slow and extra clients" \
  test "$(status "$b" "$V$P/queues" "${tls[@]}")$(jq -r .kind "$b")" = 200QueueList

# --- kubectl and python3-kubernetes against the visibility API ----------------------------------------
kubeconfig="$scratch/kubeconfig"
cat >"$kubeconfig" <<EOF2
apiVersion: v1
kind: Config
clusters: [{name: koordq, cluster: {server: "$V", certificate-authority: "$certs/serving.crt"}}]
users: [{name: sre, user: {client-certificate: "$certs/client.crt", client-key: "$certs/client.key"}}]
contexts: [{name: koordq, context: {cluster: koordq, user: sre}}]
current-context: koordq
EOF2
kubectls=()
for k in /usr/lib/google-cloud-sdk/bin/kubectl.1.2[0-9] /usr/lib/google-cloud-sdk/bin/kubectl.1.3[0-9] \
  "${KOORDQ_CONTROLPLANE_CACHE:-/var/cache/koordq-controlplane}/kubectl"; do
  [ -x "$k" ] && kubectls+=("$k")
done
if [ ${#kubectls[@]} -eq 0 ] && command -v kubectl >/dev/null; then kubectls+=("$(command -v kubectl)"); fi
if [ ${#kubectls[@]} -eq 0 ]; then
  echo "SKIP: no kubectl on this machine; kubectl get --raw not checked"
fi
for k in "${kubectls[@]}"; do
  v=$(basename "$k")
  for path in /apis "$P" "$P/queues" "$P/queues/team-data" "$P/queues/team-data/queueunits?limit=3" \
    "$P/elasticquotas" "$P/elasticquotas/team-data" "$P/elasticquotas/team-data/queueunits?phase=Running"; do
    check "$v get --raw $path" bash -c '"$1" --kubeconfig "$2" get --raw "$3" | jq -e . >/dev/null' _ "$k" "$kubeconfig" "$path"
  done
  KUBECONFIG="$kubeconfig" "$k" get --raw "$P/queues/nope" >"$out" 2>"$err"
  check "$v shows the NotFound Status" grep -q 'NotFound\|not found' "$err"
done
/usr/bin/python3 - "$V" "$certs" >"$out" 2>"$err" <<'PY'
import json, sys
from kubernetes import client
url, certs = sys.argv[1], sys.argv[2]
c = client.Configuration()
c.host = url
c.ssl_ca_cert = certs + "/serving.crt"
c.cert_file = certs + "/client.crt"
c.key_file = certs + "/client.key"
api = client.ApiClient(c)
data, status, _ = api.call_api("/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues", "GET",
                               response_type="object", _return_http_data_only=False)
assert status == 200 and data["kind"] == "QueueList", (status, data)
data, status, _ = api.call_api("/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/team-data/queueunits", "GET",
                               response_type="object", _return_http_data_only=False)
assert status == 200 and data["kind"] == "QueueUnitsSummary"
print("python ok", len(data["items"]))
PY
check "python3-kubernetes reads the visibility API with call_api" grep -q '^python ok' "$out"

# --- a real Prometheus scrapes koordq: the dashboard's queries return data ----------------------------
if command -v prometheus >/dev/null; then
  prom_port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  cat >"$scratch/prometheus.yml" <<EOF2
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: koord-queue-exporter
    static_configs: [{targets: ["127.0.0.1:$metrics_port"]}]
EOF2
  prometheus --config.file="$scratch/prometheus.yml" --storage.tsdb.path="$scratch/tsdb" \
    --web.listen-address="127.0.0.1:$prom_port" >"$scratch/prometheus.log" 2>&1 &
  prom_pid=$!
  sleep 12
  # dashboard.md's expressions; rest_client_* need an API server (not under --simulate).
  while IFS= read -r expr; do
    [ -z "$expr" ] && continue
    if promtool query instant "http://127.0.0.1:$prom_port" "$expr" 2>&1 | grep -q '=>'; then
      pass
    else
      fail "Prometheus has no data for: $expr"
    fi
  done <<'EXPRS'
dequeued_quota_usage_by_quota{job="koord-queue-exporter",resource="cpu"}/1000
dequeued_quota_usage_by_namespace{job="koord-queue-exporter",resource="cpu"}
dequeued_quota_usage_by_quota{job="koord-queue-exporter",resource="memory"}
dequeued_quota_usage_by_namespace{job="koord-queue-exporter",resource="memory"}
queueunits_by_job_type{job="koord-queue-exporter"}
sum(irate(queueunits_coming_rate_by_job_type{job="koord-queue-exporter", status="Enqueued"}[1m])) by (namespace)
queueunits_in_active_queue{job="koord-queue-exporter"}
queueunits_in_backoff_queue{job="koord-queue-exporter"}
rate(job_schedule_attempts{job="koord-queue-exporter",result="scheduled"}[1m])
histogram_quantile(0.99, sum(rate(job_scheduling_algorithm_latency_bucket{job="koord-queue-exporter",}[1m])) by (le))
histogram_quantile(0.99, sum(rate(job_scheduling_e2e_latency_bucket{job="koord-queue-exporter"}[1m])) by (le))
irate(process_cpu_seconds_total{job="koord-queue-exporter"}[1m])*100
process_resident_memory_bytes{job="koord-queue-exporter"}
EXPRS
else
  fail "prometheus is not installed (scripts/install-deps.sh installs it)"
fi

# --- a clean stop -----------------------------------------------------------------------------------
kill -TERM "$serve_pid"
for _ in $(seq 1 100); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
wait "$serve_pid"
check "SIGTERM stops serve with exit 0" test $? -eq 0
check "the listeners are closed after the stop" test "$(status "$b" "$M/healthz")" = 000
finish
