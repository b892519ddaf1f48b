#!/usr/bin/env bash
# The journal archive (behaviour.md §26) against a real S3 server: Ceph's RADOS Gateway, started
# by scripts/s3-server.sh in the scratch directory. A virtual-clock simulation archives its whole
# journal under Object Lock; `archive ls|verify|export` read it back, and replay, `at` and journal
# verify over the archive alone give the local journal's answers. Then what an archive must
# survive and catch: the gateway gone for a while under a running serve (nothing lost, the backlog
# uploaded after, the failures counted), Object Lock refusing a delete, and a deleted, truncated or
# foreign segment each named by `archive verify`; wrong credentials, a missing bucket and a bucket
# without the lock named with their fix.
#   archive_test.sh KOORDQ S3_CLIENT_PROBE S3_SERVER_SH
set -uo pipefail
koordq="$(readlink -f "$1")"
probe="$(readlink -f "$2")"
s3_server="$(readlink -f "$3")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
server_dir="$scratch/s3"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill -9 "$serve_pid" 2>/dev/null
  bash "$s3_server" stop "$server_dir" >/dev/null 2>&1
  rm -rf "$scratch"
}
trap cleanup EXIT

if ! bash "$s3_server" start "$server_dir" >"$scratch/s3-server.log" 2>&1; then
  echo "FAIL: s3-server.sh start failed:"
  tail -n 40 "$scratch/s3-server.log"
  exit 1
fi
grep '^s3-server: ' "$scratch/s3-server.log"
# shellcheck disable=SC1091
. "$server_dir/env"
bucket="$KOORDQ_S3_BUCKET"
url="s3://$bucket/clusters"

# 1. A simulation with a signing key archives its journal; the tail is sealed at its orderly end.
journal="$scratch/journal"
run journal keygen --private-key journal.pem --public-key journal.pub.pem
run serve --simulate --simulate-clock virtual --simulate-duration 2m --seed 7 --journal-dir "$journal" \
  --enable-api-handler=false --enable-visibility-server=false --metrics-bind-address 127.0.0.1:0 \
  --archive-url "$url" --archive-segment-records 5000 --archive-lock-days 1 \
  --journal-signing-key-file "$scratch/journal.pem" --v=2
check "the simulation ends with exit 0" test "$code" = 0
check "its start names the archive, without the secret" grep -q "journal archive: $url through" "$err"
check "no secret key in its log" test "$(grep -c -F "$AWS_SECRET_ACCESS_KEY" "$err")" = 0
"$koordq" journal stat --journal-dir "$journal" -o json >"$scratch/stat.json"
last_seq="$(jq -r .lastSeq "$scratch/stat.json")"
uuid="$(jq -r .journal "$scratch/stat.json")"
check "the journal has records" test "$last_seq" -gt 5000

run archive ls --archive-url "$url"
check "archive ls names the simulator's journal and its whole seq range" \
  grep -Eq "^cluster simulator journal $uuid: [0-9]+ segments, seq 1\.\.$last_seq, [0-9]+ bytes, 20" "$out"
run archive ls --archive-url "$url" -o json
# shellcheck disable=SC2016  # jq's variables
check "and as JSON" jq_true --arg u "$uuid" --argjson l "$last_seq" \
  '.journals | length == 1 and .[0].journal == $u and .[0].firstSeq == 1 and .[0].lastSeq == $l' "$out"
segments="$(jq -r '.journals[0].segments' "$out")"
check "segments of 5000 records" test "$segments" = $(((last_seq + 4999) / 5000))
run archive verify --archive-url "$url"
check "archive verify passes" grep -Eq "^ok: $segments segments, $last_seq records, seq 1\.\.$last_seq, head [0-9a-f]{64}$" "$out"
local_head="$("$koordq" journal verify --journal-dir "$journal" | sed -E 's/.*head ([0-9a-f]{64}).*/\1/')"
check "with the local journal's head" grep -q "head $local_head" "$out"

# The commands of docs/operations.md "Archive the journal to S3", as written there.
archive="$url"
cd "$scratch" || exit 1
"$koordq" archive ls --archive-url "$archive" >"$out" 2>"$err"
check "operations.md: archive ls" grep -q "^cluster simulator journal $uuid: " "$out"
"$koordq" archive verify --archive-url "$archive" --journal "$uuid" --public-key journal.pub.pem >"$out" 2>"$err"
check "operations.md: archive verify --public-key: every segment signed by the journal's key" \
  grep -Eq "^ok: $segments segments, .*, signed by key [0-9a-f]{16}$" "$out"
"$koordq" journal keygen --private-key other.pem --public-key other.pub.pem >/dev/null 2>&1
"$koordq" archive verify --archive-url "$archive" --journal "$uuid" --public-key other.pub.pem >"$out" 2>"$err"
check "another key's public half is refused with exit 1" test $? = 1
"$koordq" archive export --archive-url "$archive" --journal "$uuid" archived.ndjson 2>"$err"
check "operations.md: archive export" test -s archived.ndjson
instant="2026-01-01T00:01:00Z"
# shellcheck disable=SC2086  # as operations.md writes it
"$koordq" at $instant queue team-vision --export archived.ndjson >"$out" 2>"$err"
cp "$out" at-archived.json
"$koordq" at "$instant" queue team-vision --journal-dir "$journal" >"$out" 2>"$err"
check "operations.md: at over the export equals at over the journal" cmp -s "$out" at-archived.json
unit="$("$koordq" at "$instant" queue team-vision -o json --export archived.ndjson |
  jq -r '.items[0].metadata | .namespace + "/" + .name')"
# shellcheck disable=SC2086  # as operations.md writes it
"$koordq" explain $unit --export archived.ndjson >"$out" 2>"$err"
cp "$out" explain-archived.txt
"$koordq" explain "$unit" --journal-dir "$journal" >"$out" 2>"$err"
check "operations.md: explain $unit over the export equals explain over the journal" cmp -s "$out" explain-archived.txt
check "and tells a story" test "$(wc -l <explain-archived.txt)" -gt 2
cd - >/dev/null || exit 1

"$koordq" archive export --archive-url "$url" "$scratch/archived.ndjson" 2>"$err"
check "archive export writes one export" test -s "$scratch/archived.ndjson"
run journal verify --export "$scratch/archived.ndjson"
check "that journal verify --export accepts" grep -q "^ok: $last_seq records, seq 1\.\.$last_seq, head $local_head" "$out"
run replay --verify --export "$scratch/archived.ndjson"
check "replay --verify from the archive alone" grep -q '^verified ' "$out"
mid=$((last_seq / 2))
run at "rev:$mid" queues -o json --export "$scratch/archived.ndjson"
cp "$out" "$scratch/at-archive.json"
run at "rev:$mid" queues -o json --journal-dir "$journal"
check "at rev:$mid from the archive equals the local journal's answer" cmp -s "$out" "$scratch/at-archive.json"
run at "rev:$mid" quotas -o json --export "$scratch/archived.ndjson"
cp "$out" "$scratch/at-quotas-archive.json"
run at "rev:$mid" quotas -o json --journal-dir "$journal"
check "and so does its quotas view" cmp -s "$out" "$scratch/at-quotas-archive.json"
"$koordq" archive export --archive-url "$url" --from-seq 1001 --to-seq 2000 "$scratch/range.ndjson" 2>"$err"
run journal verify --export "$scratch/range.ndjson"
check "a range exports and verifies on its own" grep -q '^ok: 1000 records, seq 1001\.\.2000' "$out"

# 2. Object Lock: every segment is locked, and a locked version cannot be deleted.
first_key="clusters/simulator/$uuid/segments/$(printf '%020d-%020d' 1 5000).ndjson.zst"
"$probe" head "$bucket" "$first_key" >"$out" 2>"$err"
check "a segment is under GOVERNANCE retention" grep -q 'lock=GOVERNANCE until=20' "$out"
version="$(sed -E 's/.* version=([^ ]+) .*/\1/' "$out")"
"$probe" delete "$bucket" "$first_key" "$version" >"$out" 2>"$err"
check "deleting its version is refused" grep -q '^error kind=access-denied' "$out" "$err"

# 3. Tampering under a prefix without the lock, each caught by archive verify with exit 1.
copy_url="s3://$bucket/tamper"
copy_prefix="tamper/simulator/$uuid/segments"
for first in 1 5001 10001; do
  key="$(printf '%020d-%020d' "$first" $((first + 4999))).ndjson.zst"
  "$probe" get "$bucket" "clusters/simulator/$uuid/segments/$key" >"$scratch/$key"
  "$probe" put "$bucket" "$copy_prefix/$key" "$scratch/$key" >/dev/null
done
run archive verify --archive-url "$copy_url"
check "a copy of the first three segments verifies" grep -q '^ok: 3 segments, 15000 records, seq 1\.\.15000' "$out"
middle="$(printf '%020d-%020d' 5001 10000).ndjson.zst"
"$probe" delete "$bucket" "$copy_prefix/$middle" >/dev/null
run archive verify --archive-url "$copy_url"
check "a deleted segment: exit 1" test "$code" = 1
check "naming the missing seqs" grep -q 'seq 5001\.\.10000 is missing' "$err"
head -c 1000 "$scratch/$middle" >"$scratch/truncated"
"$probe" put "$bucket" "$copy_prefix/$middle" "$scratch/truncated" >/dev/null
run archive verify --archive-url "$copy_url"
check "a truncated segment: exit 1, named" grep -q "segment $copy_prefix/$middle: .*truncated" "$err"
last="$(printf '%020d-%020d' 10001 15000).ndjson.zst"
"$probe" put "$bucket" "$copy_prefix/$middle" "$scratch/$last" >/dev/null
run archive verify --archive-url "$copy_url"
check "a segment holding other records than its key names: exit 1" grep -q "segment $copy_prefix/$middle: holds seq 10001\.\.15000, not the 5001\.\.10000" "$err"
"$probe" put "$bucket" "$copy_prefix/$middle" "$scratch/$middle" >/dev/null
"$probe" put "$bucket" "tamper/simulator/another-journal/segments/$middle" "$scratch/$middle" >/dev/null
run archive verify --archive-url "$copy_url"
check "two journals: verify asks which" grep -q 'holds 2 journals' "$err"
run archive verify --archive-url "$copy_url" --journal another-journal
check "a segment of another journal under a journal's prefix: exit 1" grep -q "holds journal $uuid, not the another-journal its key names" "$err"
run archive verify --archive-url "$copy_url" --journal "$uuid"
check "the restored copy verifies again" grep -q '^ok: 3 segments' "$out"

# 4. Bad configuration, named with its fix.
AWS_SECRET_ACCESS_KEY=wrong-secret run archive ls --archive-url "$url"
check "a wrong secret key: exit 3" test "$code" = 3
check "named as a credentials problem" grep -qi 'secret' "$err"
run archive ls --archive-url "s3://no-such-bucket-koordq/x"
check "a missing bucket: exit 3, named" grep -q 'no-such-bucket-koordq' "$err"
run archive ls --archive-url "https://$bucket"
check "a URL that is not s3://: exit 2" test "$code" = 2
plain_bucket="koordq-plain"
empty_sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
status="$(curl -sS -o /dev/null -w '%{http_code}' --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
  --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -X PUT -H "x-amz-content-sha256: $empty_sha256" \
  "$AWS_ENDPOINT_URL/$plain_bucket")"
check "a bucket without Object Lock is made" test "$status" = 200
run serve --simulate --simulate-clock virtual --simulate-duration 20s --seed 1 --journal-dir "$scratch/plain" \
  --enable-api-handler=false --enable-visibility-server=false --metrics-bind-address 127.0.0.1:0 \
  --archive-url "s3://$plain_bucket/x" --archive-lock-days 1
check "--archive-lock-days on a bucket without Object Lock: the simulation still runs to its end" test "$code" = 0
check "the log names the missing lock and the fix, once" \
  test "$(grep -c "bucket $plain_bucket has no Object Lock, which --archive-lock-days 1 needs; create the bucket with Object Lock enabled" "$err")" = 1
run archive ls --archive-url "s3://$plain_bucket/x"
check "and nothing was uploaded unlocked" grep -q "holds no journal" "$out"

# 5. A serve with a wall clock while the gateway goes away and comes back: ingest goes on, the
# failures are counted, and the backlog is uploaded after.
live="$scratch/live-journal"
"$koordq" serve --simulate --journal-dir "$live" --enable-api-handler=false --enable-visibility-server=false \
  --metrics-bind-address 127.0.0.1:0 --archive-url "s3://$bucket/live" --archive-segment-records 200 \
  --archive-segment-interval 2s >"$scratch/live.log" 2>&1 &
serve_pid=$!
port=""
for _ in $(seq 1 100); do
  port="$(sed -nE 's/.*metrics, \/healthz and \/readyz listen on [^:]*:([0-9]+).*/\1/p' "$scratch/live.log" | head -n1)"
  [ -n "$port" ] && break
  sleep 0.1
done
metric() { curl -s "http://127.0.0.1:$port/metrics" | sed -nE "s/^$1(\{[^}]*\})? ([0-9.e+]+)$/\2/p" | head -n1; }
archived_some() { [ "$(metric koordq_archive_archived_seq)" -gt 0 ] 2>/dev/null; }
check "a serve archives while it runs" eventually 30 archived_some
rgw_pid="$(cat "$server_dir/run/client.rgw.a.pid")"
kill -9 "$rgw_pid"
sleep 8
failures_counted() { curl -s "http://127.0.0.1:$port/metrics" | grep -q '^koordq_archive_failures_total{kind="connection"}'; }
check "failures are counted by kind while the gateway is gone" failures_counted
lag="$(metric koordq_archive_lag_records)"
check "and the lag grows" test "${lag%.*}" -gt 0
check "the serve keeps running" kill -0 "$serve_pid"
down_archived="$(metric koordq_archive_archived_seq)"
down_durable=$((${down_archived%.*} + ${lag%.*}))
radosgw -c "$server_dir/ceph.conf" -n client.rgw.a
caught_up() {
  local a
  a="$(metric koordq_archive_archived_seq)"
  [ -n "$a" ] && [ "${a%.*}" -ge "$down_durable" ]
}
check "after the gateway is back, the backlog is uploaded" eventually 60 caught_up
check "the recovery is logged" grep -q 'uploads succeed again' "$scratch/live.log"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM ends it with exit 0" test $? = 0
serve_pid=""
live_last="$("$koordq" journal stat --journal-dir "$live" -o json | jq -r .lastSeq)"
run archive verify --archive-url "s3://$bucket/live"
check "the live archive verifies, whole up to the journal's end" grep -q "^ok: .* seq 1\.\.$live_last," "$out"
finish
