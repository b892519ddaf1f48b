#!/usr/bin/env bash
# The journal archive (behaviour.md §26) against a real S3 server: Ceph's RADOS Gateway, started
# by scripts/s3-server.sh in the scratch directory. A virtual-clock simulation archives its whole
# journal and its snapshots under Object Lock; `archive ls|verify|export` read it back, and replay,
# `at`, explain and journal export|verify|stat with --archive-url (alone, through the segment cache,
# or before a local journal whose oldest records retention dropped) give the local journal's
# answers. Then what an archive must survive and catch: the gateway gone for a while under a running
# serve (nothing lost, the backlog uploaded after, the failures counted), clocks an hour apart (the
# same), Object Lock refusing a delete, and a deleted, truncated or foreign segment or snapshot each
# named by `archive verify`; wrong credentials, a missing bucket and a bucket without the lock named
# with their fix.
#   archive_test.sh KOORDQ S3_CLIENT_PROBE S3_SERVER_SH
set -uo pipefail
koordq="$(readlink -f "$1")"
probe="$(readlink -f "$2")"
s3_server="$(readlink -f "$3")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
server_dir="$scratch/s3"
# The readers' default segment cache, inside the scratch directory.
export XDG_CACHE_HOME="$scratch/xdg"
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
  --archive-url "$url" --archive-segment-records 5000 --archive-lock-days 1 --snapshot-every 4000 \
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
  grep -Eq "^cluster simulator journal $uuid: [0-9]+ segments, seq 1\.\.$last_seq, [1-9][0-9]* snapshots, [0-9]+ bytes, 20" "$out"
run archive ls --archive-url "$url" -o json
# shellcheck disable=SC2016  # jq's variables
check "and as JSON" jq_true --arg u "$uuid" --argjson l "$last_seq" \
  '.journals | length == 1 and .[0].journal == $u and .[0].firstSeq == 1 and .[0].lastSeq == $l' "$out"
cp "$out" "$scratch/ls.json"
segments="$(jq -r '.journals[0].segments' "$out")"
check "segments of 5000 records" test "$segments" = $(((last_seq + 4999) / 5000))
snapshots="$(jq -r '.journals[0].snapshots' "$out")"
check "with the journal's snapshots" test "$snapshots" = "$("$koordq" journal stat --journal-dir "$journal" -o json | jq -r .snapshots)"
run archive verify --archive-url "$url"
check "archive verify passes, snapshots too" grep -Eq "^ok: $segments segments, $last_seq records, seq 1\.\.$last_seq, head [0-9a-f]{64}, $snapshots snapshots$" "$out"
local_head="$("$koordq" journal verify --journal-dir "$journal" | sed -E 's/.*head ([0-9a-f]{64}).*/\1/')"
check "with the local journal's head" grep -q "head $local_head" "$out"

# The commands of docs/operations.md "Archive the journal to S3", as written there.
archive="$url"
cd "$scratch" || exit 1
"$koordq" archive ls --archive-url "$archive" >"$out" 2>"$err"
check "operations.md: archive ls" grep -q "^cluster simulator journal $uuid: " "$out"
"$koordq" archive verify --archive-url "$archive" --journal "$uuid" --public-key journal.pub.pem >"$out" 2>"$err"
check "operations.md: archive verify --public-key: every segment signed by the journal's key" \
  grep -Eq "^ok: $segments segments, .*, $snapshots snapshots, signed by key [0-9a-f]{16}$" "$out"
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
# shellcheck disable=SC2086  # as operations.md writes it
"$koordq" at $instant queue team-vision --archive-url "$archive" --archive-journal "$uuid" >"$out" 2>"$err"
check "operations.md: at --archive-url equals at over the journal" cmp -s "$out" at-archived.json
# shellcheck disable=SC2086  # as operations.md writes it
"$koordq" explain $unit --archive-url "$archive" --archive-journal "$uuid" >"$out" 2>"$err"
check "operations.md: explain --archive-url equals explain over the journal" cmp -s "$out" explain-archived.txt
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

# 1b. The readers take --archive-url themselves (behaviour.md §26.6): answers byte-equal to the
# local journal's, only the segments a range needs read, through a checked segment cache.
cache="$scratch/cache"
run at "rev:$mid" queues -o json --archive-url "$url" --archive-cache "$cache" --archive-stats
check "at rev:$mid --archive-url equals the local journal's answer" cmp -s "$out" "$scratch/at-archive.json"
check "it started from an archived snapshot" grep -q "read from the snapshot at seq" "$err"
check "and read only the segments from there: not all $segments" \
  test "$(sed -nE 's/.*: ([0-9]+) segments of the archive .*/\1/p' "$err")" -lt "$segments"
check "the segments it fetched are in the cache" test "$(find "$cache" -name '*.zst' | wc -l)" -gt 0
run at "rev:$mid" queues -o json --archive-url "$url" --archive-cache "$cache" --archive-stats
check "warm: the same answer" cmp -s "$out" "$scratch/at-archive.json"
check "warm: every segment from the cache, none fetched" grep -q ': 0 fetched, [1-9][0-9]* from the cache' "$err"
for f in "$cache"/*.zst; do printf 'x' | dd of="$f" bs=1 seek=100 conv=notrunc 2>/dev/null; done
run at "rev:$mid" queues -o json --archive-url "$url" --archive-cache "$cache" --archive-stats
check "altered cached copies are refused and fetched again: the same answer" cmp -s "$out" "$scratch/at-archive.json"
check "each named as fetched again" grep -qE ': 0 fetched, 0 from the cache .*, [1-9][0-9]* fetched again' "$err"
run at "rev:$mid" quotas -o json --archive-url "$url" --archive-cache off
check "--archive-cache off: the quotas view equals the local journal's" cmp -s "$out" "$scratch/at-quotas-archive.json"
run at "rev:$mid" queues -o json --archive-url "$url"
check "the default cache is \$XDG_CACHE_HOME/koordq/archive" test -d "$XDG_CACHE_HOME/koordq/archive"
run replay --verify --archive-url "$url"
check "replay --verify --archive-url" grep -q '^verified ' "$out"
run replay --to "rev:$mid" --archive-url "$url"
cp "$out" "$scratch/replay-archive.txt"
run replay --to "rev:$mid" --journal-dir "$journal"
check "replay --to rev:$mid from the archive equals the local journal's" cmp -s "$out" "$scratch/replay-archive.txt"
run explain "$unit" --archive-url "$url"
check "explain --archive-url equals explain over the journal" cmp -s "$out" "$scratch/explain-archived.txt"
run journal export --archive-url "$url"
cp "$out" "$scratch/export-archive.ndjson"
run journal export --journal-dir "$journal"
check "journal export --archive-url is byte-equal to the journal's" cmp -s "$out" "$scratch/export-archive.ndjson"
run journal export --from rev:6001 --to rev:7000 --archive-url "$url" --archive-cache off --archive-stats
check "a range: one segment read" grep -q ': 1 segments of the archive' "$err"
cp "$out" "$scratch/range-archive.ndjson"
run journal export --from rev:6001 --to rev:7000 --journal-dir "$journal"
check "and byte-equal to the journal's export of that range" cmp -s "$out" "$scratch/range-archive.ndjson"
run journal verify --archive-url "$url" --public-key "$scratch/journal.pub.pem"
check "journal verify --archive-url: the local journal's head, every segment signed" \
  grep -Eq "^ok: $last_seq records, seq 1\.\.$last_seq, head $local_head, signed by key [0-9a-f]{16} up to seq $last_seq$" "$out"
run journal stat --archive-url "$url" -o json
# shellcheck disable=SC2016  # jq's variables
check "journal stat --archive-url: the journal's records and seqs" \
  jq_true --arg u "$uuid" --argjson l "$last_seq" '.journal == $u and .records == $l and .lastSeq == $l' "$out"
run at "rev:$((last_seq + 1))" queues --archive-url "$url"
check "a revision past the archive: exit 2, as for the journal" test "$code" = 2
run at "rev:1" queues --archive-url "$url" --export "$scratch/archived.ndjson"
check "--archive-url with --export: exit 2" test "$code" = 2
run at "rev:1" queues --archive-cluster simulator
check "--archive-cluster without --archive-url: exit 2, named" grep -q -- '--archive-cluster needs --archive-url' "$err"

# 2. Object Lock: every segment is locked, and a locked version cannot be deleted.
first_key="clusters/simulator/$uuid/segments/$(printf '%020d-%020d' 1 5000).ndjson.zst"
"$probe" head "$bucket" "$first_key" >"$out" 2>"$err"
check "a segment is under GOVERNANCE retention" grep -q 'lock=GOVERNANCE until=20' "$out"
version="$(sed -E 's/.* version=([^ ]+) .*/\1/' "$out")"
"$probe" delete "$bucket" "$first_key" "$version" >"$out" 2>"$err"
check "deleting its version is refused" grep -q '^error kind=access-denied' "$out" "$err"
first_snapshot="$(jq -r '.journals[0].snapshotSeqs[0]' "$scratch/ls.json")"
"$probe" head "$bucket" "clusters/simulator/$uuid/snapshots/$(printf '%020d' "$first_snapshot").snapshot.zst" >"$out" 2>"$err"
check "so is a snapshot" grep -q 'lock=GOVERNANCE until=20' "$out"

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
snap_seqs="$(jq -r '[.journals[0].snapshotSeqs[] | select(. <= 15000)] | .[0:2] | join(" ")' "$scratch/ls.json")"
read -r snap_a snap_b <<<"$snap_seqs"
snap_key() { printf 'snapshots/%020d.snapshot.zst' "$1"; }
"$probe" get "$bucket" "clusters/simulator/$uuid/$(snap_key "$snap_a")" >"$scratch/snap-a"
"$probe" get "$bucket" "clusters/simulator/$uuid/$(snap_key "$snap_b")" >"$scratch/snap-b"
"$probe" put "$bucket" "tamper/simulator/$uuid/$(snap_key "$snap_a")" "$scratch/snap-a" >/dev/null
run archive verify --archive-url "$copy_url" --journal "$uuid"
check "a copied snapshot verifies with its segments" grep -q '^ok: 3 segments, .*, 1 snapshots$' "$out"
"$probe" put "$bucket" "tamper/simulator/$uuid/$(snap_key "$snap_a")" "$scratch/snap-b" >/dev/null
run archive verify --archive-url "$copy_url" --journal "$uuid"
check "another seq's snapshot under a snapshot's key: exit 1, named" \
  grep -q "snapshot tamper/simulator/$uuid/$(snap_key "$snap_a"): snapshot at seq $snap_a: holds seq $snap_b" "$err"
run at "rev:$((snap_a + 10))" queues -o json --archive-url "$copy_url" --archive-journal "$uuid" --archive-cache off
check "at refuses that snapshot with a warning" grep -q "warning: snapshot tamper/.*rebuilding from the archive's first record instead" "$err"
cp "$out" "$scratch/at-refused.json"
run at "rev:$((snap_a + 10))" queues -o json --journal-dir "$journal"
check "and answers from the records, as the journal does" cmp -s "$out" "$scratch/at-refused.json"
"$probe" put "$bucket" "tamper/simulator/$uuid/$(snap_key "$snap_a")" "$scratch/truncated" >/dev/null
run archive verify --archive-url "$copy_url" --journal "$uuid"
check "a truncated snapshot: exit 1, named" grep -q "snapshot tamper/simulator/$uuid/$(snap_key "$snap_a"): .*truncated" "$err"

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
  --archive-segment-interval 2s --snapshot-every 100 --journal-retention 3s >"$scratch/live.log" 2>&1 &
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
check "failures are counted by kind while the gateway is gone" eventually 15 failures_counted
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
live_uuid="$("$koordq" journal stat --journal-dir "$live" -o json | jq -r .journal)"
"$probe" list "$bucket" "live/simulator/$live_uuid/segments/" 1000 | grep -v '^pages=' | cut -d' ' -f1 >"$scratch/cut-keys"
first_key="$(head -n1 "$scratch/cut-keys")"
gap_end="${first_key##*-}"
gap_end=$((10#${gap_end%%.*}))
# Past the first segment and the seq after it, so that the first segment alone leaves a gap.
live_dropped() { [ "$("$koordq" journal stat --journal-dir "$live" -o json | jq -r .firstSeq)" -gt $((gap_end + 2)) ]; }
check "retention then drops archived records" eventually 30 live_dropped
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM ends it with exit 0" test $? = 0
serve_pid=""
live_last="$("$koordq" journal stat --journal-dir "$live" -o json | jq -r .lastSeq)"
run archive verify --archive-url "s3://$bucket/live"
check "the live archive verifies, whole up to the journal's end" grep -q "^ok: .* seq 1\.\.$live_last," "$out"

# 5b. The live journal continues its archive: retention dropped its oldest records (archived
# first), which only the archive holds now.
cut="$live"
cut_url="s3://$bucket/live"
cut_first="$("$koordq" journal stat --journal-dir "$cut" -o json | jq -r .firstSeq)"
cut_last="$("$koordq" journal stat --journal-dir "$cut" -o json | jq -r .lastSeq)"
check "its local journal starts after seq 1 (at $cut_first)" test "$cut_first" -gt 1
old=$((cut_first - 1))
run at "rev:$old" queues -o json --journal-dir "$cut"
check "a revision before the local journal's first is not in it" test "$code" = 2
run at "rev:$old" queues -o json --archive-url "$cut_url" --journal-dir "$cut"
cp "$out" "$scratch/at-old-joined.json"
check "with the archive it is" test "$code" = 0
run at "rev:$old" queues -o json --archive-url "$cut_url"
check "and equals the archive alone's answer" cmp -s "$out" "$scratch/at-old-joined.json"
run at "rev:$cut_last" queues -o json --archive-url "$cut_url" --journal-dir "$cut"
cp "$out" "$scratch/at-new-joined.json"
run at "rev:$cut_last" queues -o json --journal-dir "$cut"
check "a revision the local journal holds: its own answer" cmp -s "$out" "$scratch/at-new-joined.json"
j="$cut"
archive="$cut_url"
"$koordq" replay --verify --archive-url "$archive" --journal-dir "$j" >"$out" 2>"$err"
check "operations.md: replay --verify over the archive and the journal that continues it" grep -q '^verified ' "$out"
"$koordq" journal export --archive-url "$archive" --journal-dir "$j" >"$scratch/joined.ndjson" 2>"$err"
run journal export --archive-url "$cut_url"
check "journal export of archive + local journal equals the archive's whole export" cmp -s "$out" "$scratch/joined.ndjson"
check "which starts at seq 1" test "$(head -c 9 "$scratch/joined.ndjson")" = '{"seq":1,'
"$koordq" journal verify --archive-url "$archive" --journal-dir "$j" >"$out" 2>"$err"
check "operations.md: journal verify over both" grep -q "^ok: $cut_last records, seq 1\.\.$cut_last, head " "$out"
# An archive that stops short of the local journal: the gap is named with both seqs.
gap_url="s3://$bucket/cut-gap"
cut_uuid="$("$koordq" journal stat --journal-dir "$cut" -o json | jq -r .journal)"
"$probe" get "$bucket" "$first_key" >"$scratch/first-segment"
"$probe" put "$bucket" "cut-gap/simulator/$cut_uuid/segments/${first_key##*/}" "$scratch/first-segment" >/dev/null
run journal export --archive-url "$gap_url" --journal-dir "$cut"
check "an archive that ends before the local journal starts: exit 3" test "$code" = 3
check "naming both seqs" grep -q "the archive ends at seq $gap_end but the local journal starts at seq $cut_first: seq $((gap_end + 1))\.\.$old is in neither" "$err"
run journal verify --archive-url "$gap_url" --journal-dir "$cut"
check "journal verify says 1 for it" test "$code" = 1

# 6. Clocks an hour apart under a running serve: the gateway runs an hour ahead (libfaketime; the
# error is the same whichever side is off). SigV4 is refused, named once with the fix and counted as
# clock-skew; ingest goes on; once the clocks agree again the backlog is uploaded, with no restart.
rgw_pid="$(cat "$server_dir/run/client.rgw.a.pid")"
kill -9 "$rgw_pid"
LD_PRELOAD=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 FAKETIME="+1h" \
  radosgw -c "$server_dir/ceph.conf" -n client.rgw.a
skewed="$scratch/skewed-journal"
"$koordq" serve --simulate --journal-dir "$skewed" --enable-api-handler=false --enable-visibility-server=false \
  --metrics-bind-address 127.0.0.1:0 --archive-url "s3://$bucket/skewed" --archive-segment-records 200 \
  --archive-segment-interval 2s >"$scratch/skewed.log" 2>&1 &
serve_pid=$!
port=""
for _ in $(seq 1 100); do
  port="$(sed -nE 's/.*metrics, \/healthz and \/readyz listen on [^:]*:([0-9]+).*/\1/p' "$scratch/skewed.log" | head -n1)"
  [ -n "$port" ] && break
  sleep 0.1
done
skew_counted() { curl -s "http://127.0.0.1:$port/metrics" | grep -q '^koordq_archive_failures_total{kind="clock-skew"}'; }
check "clocks an hour apart: failures counted as clock-skew" eventually 30 skew_counted
check "named once, with the fix" test "$(grep -c "clock and the server's differ by more than the 15 minutes a SigV4 signature allows; synchronise this machine's clock (NTP)" "$scratch/skewed.log")" = 1
skewed_seq() { "$koordq" journal stat --journal-dir "$skewed" -o json 2>/dev/null | jq -r .lastSeq; }
before_seq="$(skewed_seq)"
sleep 2
check "ingest goes on meanwhile" test "$(skewed_seq)" -gt "$before_seq"
check "and nothing was archived" test "$(metric koordq_archive_archived_seq)" = 0
kill -9 "$(cat "$server_dir/run/client.rgw.a.pid")"
radosgw -c "$server_dir/ceph.conf" -n client.rgw.a
skew_durable="$(skewed_seq)"
skew_caught_up() {
  local a
  a="$(metric koordq_archive_archived_seq)"
  [ -n "$a" ] && [ "${a%.*}" -ge "$skew_durable" ]
}
check "once the clocks agree, the backlog is uploaded" eventually 60 skew_caught_up
check "and the recovery is logged" grep -q 'uploads succeed again' "$scratch/skewed.log"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM ends it with exit 0" test $? = 0
serve_pid=""
run archive verify --archive-url "s3://$bucket/skewed"
check "that archive verifies up to the journal's end" grep -q "^ok: .* seq 1\.\.$(skewed_seq)," "$out"
finish
