#!/usr/bin/env bash
# A real S3 server for tests: a single-node Ceph cluster (one monitor, one manager, one OSD on an
# in-memory store) with the RADOS Gateway's beast frontend on loopback, from Debian 12's packages.
#   scripts/s3-server.sh start DIR   installs what is missing (root), starts the daemons under DIR,
#                                    creates a user and a bucket with Object Lock (so versioning)
#                                    and writes DIR/env: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
#                                    AWS_ENDPOINT_URL, AWS_REGION, KOORDQ_S3_BUCKET
#   scripts/s3-server.sh stop DIR    stops every daemon start left running there
# Everything lives under DIR: ceph.conf, data, logs, pid files, admin sockets. No systemd, no
# containers, no block device. The OSD keeps its objects in memory (memstore), so a stop loses the
# bucket's contents; cephx is off (loopback only, a test server). The gateway's DNS name is
# localhost, so virtual-host requests go to http://BUCKET.localhost:PORT (libcurl resolves
# *.localhost to loopback itself). Each stage prints its time; a
# stage that does not become ready in time prints its log's tail and start exits non-zero, after
# stopping what it started (not with KOORDQ_S3_KEEP_ON_FAILURE=1, to look at it).
set -euo pipefail

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
action="$1"
dir="$2"
case "$action" in start | stop) ;; *) usage ;; esac

# The daemons under DIR.
daemons=(client.rgw.a osd.0 mgr.x mon.a)

pid_of() { cat "$dir/run/$1.pid" 2>/dev/null || true; }

# stop_daemons: SIGKILL to each daemon of DIR's pid files, then waits until all are gone. Nothing
# of theirs outlives them (the OSD's objects are in memory, and start begins anew), and a clean
# stop takes each daemon about 2 s.
stop_daemons() {
  local name pid pids=()
  for name in "${daemons[@]}"; do
    pid="$(pid_of "$name")"
    rm -f "$dir/run/$name.pid"
    if [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; then pids+=("$pid"); fi
  done
  for pid in "${pids[@]+"${pids[@]}"}"; do
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  done
}

if [ "$action" = stop ]; then
  [ -d "$dir" ] || exit 0
  stop_daemons
  echo "s3-server: stopped"
  exit 0
fi

script_start=$(date +%s%N)
stage_start=$script_start
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
stage_done() {
  echo "s3-server: $1: $(ms_since "$stage_start") ms"
  stage_start=$(date +%s%N)
}

# fail_with LOG MESSAGE: names what went wrong, shows the log's tail, stops what was started.
fail_with() {
  echo "s3-server: $2" >&2
  if [ -f "$1" ]; then
    echo "--- last lines of $1:" >&2
    tail -n 25 "$1" >&2
  fi
  [ -n "${KOORDQ_S3_KEEP_ON_FAILURE:-}" ] || stop_daemons
  exit 1
}

# wait_for SECONDS LOG WHAT COMMAND...: runs COMMAND every 0.2 s until it succeeds.
wait_for() {
  local seconds="$1" log="$2" what="$3"
  local deadline=$(($(date +%s) + seconds))
  shift 3
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || fail_with "$log" "$what not ready after $seconds s"
    sleep 0.2
  done
}


if [ -n "$(pid_of mon.a)" ] && kill -0 "$(pid_of mon.a)" 2>/dev/null; then
  echo "s3-server: a server already runs in $dir; stop it first ($0 stop $dir)" >&2
  exit 1
fi
rm -rf "$dir/ceph.conf" "$dir/data" "$dir/log" "$dir/run" "$dir/env"
mkdir -p "$dir/data" "$dir/log" "$dir/run"
dir="$(cd "$dir" && pwd)"

# 1. Packages: only what is missing (scripts/install-deps.sh --s3, as root).
install_deps="$(cd "$(dirname "$0")" && pwd)/install-deps.sh"
bash "$install_deps" --s3 >"$dir/log/install.log" 2>&1 ||
  fail_with "$dir/log/install.log" "installing the S3 server's packages failed"
grep '^install-deps: ' "$dir/log/install.log" | sed 's/^install-deps/s3-server/'
stage_done "packages"

# Two free ports on loopback, held together so they differ.
read -r mon_port rgw_port < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
fsid="$(uuidgen)"
conf="$dir/ceph.conf"
cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
run dir = $dir/run
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid
log file = $dir/log/\$name.log
log to stderr = false
err to stderr = false
crash dir = $dir/data/crash
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
client mount timeout = 20

[mon]
mon data = $dir/data/mon.\$id
# The monitor batches map changes for a second by default; each pool the gateway creates is one.
paxos propose interval = 0.05
paxos min wait = 0.01
mon cluster log file = $dir/log/cluster.log

[mgr]
mgr data = $dir/data/mgr.\$id

[osd]
osd data = $dir/data/osd.\$id
osd objectstore = memstore
memstore device bytes = 2147483648
osd memory target = 1073741824
osd op num shards = 1
osd op num threads per shard = 2

[client.rgw.a]
rgw data = $dir/data/rgw.a
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw dns name = localhost
rgw thread pool size = 32
rgw enable usage log = false
# radosgw asks for a secure connection to the monitor, which needs cephx; crc works without.
ms mon client mode = crc


EOF
mkdir -p "$dir/data/crash" "$dir/data/mgr.x" "$dir/data/osd.0" "$dir/data/rgw.a"
ceph_cli=(ceph -c "$conf" --connect-timeout 10)
stage_done "configuration"

# 2. The monitor.
monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/data/monmap" >/dev/null
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/data/monmap" >"$dir/log/mon.a.mkfs.log" 2>&1 ||
  fail_with "$dir/log/mon.a.mkfs.log" "ceph-mon --mkfs failed"
ceph-mon -c "$conf" -i a || fail_with "$dir/log/mon.a.log" "ceph-mon did not start"
wait_for 30 "$dir/log/mon.a.log" "the monitor" "${ceph_cli[@]}" mon stat
stage_done "monitor"

# 3. The manager (started now, not waited for: the gateway needs only the monitor and the OSD).
ceph-mgr -c "$conf" -i x || fail_with "$dir/log/mgr.x.log" "ceph-mgr did not start"
stage_done "manager"

# 4. The OSD, in memory.
osd_uuid="$(uuidgen)"
osd_id="$("${ceph_cli[@]}" osd new "$osd_uuid" 2>"$dir/log/osd-new.log")" ||
  fail_with "$dir/log/osd-new.log" "ceph osd new failed"
[ "$osd_id" = 0 ] || fail_with "$dir/log/cluster.log" "the new OSD got id '$osd_id', not 0"
ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >"$dir/log/osd.0.mkfs.log" 2>&1 ||
  fail_with "$dir/log/osd.0.mkfs.log" "ceph-osd --mkfs failed"
ceph-osd -c "$conf" -i 0 || fail_with "$dir/log/osd.0.log" "ceph-osd did not start"
osd_up() { "${ceph_cli[@]}" osd dump 2>/dev/null | grep -q '^osd.0 up'; }
wait_for 60 "$dir/log/osd.0.log" "the OSD" osd_up
stage_done "osd"

# 5. The gateway: it creates its pools on the first start.
radosgw -c "$conf" -n client.rgw.a || fail_with "$dir/log/client.rgw.a.log" "radosgw did not start"
endpoint="http://127.0.0.1:$rgw_port"
wait_for 90 "$dir/log/client.rgw.a.log" "the RADOS Gateway at $endpoint" curl -sf -o /dev/null "$endpoint/"
stage_done "rgw"

# 6. A user and a bucket with Object Lock (which turns versioning on).
access_key="KOORDQTEST$(head -c 5 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr a-f A-F)"
secret_key="$(head -c 30 /dev/urandom | base64 | tr -d '/+=\n')"
radosgw-admin -c "$conf" -n client.admin user create --uid koordq-test --display-name "koordq tests" \
  --access-key "$access_key" --secret-key "$secret_key" >"$dir/log/user-create.log" 2>&1 ||
  fail_with "$dir/log/user-create.log" "radosgw-admin user create failed"
region=us-east-1
bucket=koordq-test
# curl 7.88 signs this header when given but does not add it; RGW's SigV4 needs it.
empty_sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
status="$(curl -sS -o "$dir/log/bucket-create.log" -w '%{http_code}' --aws-sigv4 "aws:amz:$region:s3" \
  --user "$access_key:$secret_key" -X PUT -H 'x-amz-bucket-object-lock-enabled: true' -H "x-amz-content-sha256: $empty_sha256" \
  "$endpoint/$bucket" 2>&1)" || true
[ "$status" = 200 ] ||
  fail_with "$dir/log/bucket-create.log" "creating bucket $bucket with Object Lock failed (HTTP $status)"
stage_done "user and bucket"

for name in "${daemons[@]}"; do
  pid="$(pid_of "$name")"
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then fail_with "$dir/log/$name.log" "$name is not running"; fi
done

cat >"$dir/env" <<EOF
export AWS_ACCESS_KEY_ID=$access_key
export AWS_SECRET_ACCESS_KEY=$secret_key
export AWS_ENDPOINT_URL=$endpoint
export AWS_REGION=$region
export KOORDQ_S3_BUCKET=$bucket
EOF
echo "s3-server: ready at $endpoint, bucket $bucket, in $(ms_since "$script_start") ms; environment in $dir/env"
