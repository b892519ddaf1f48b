#!/usr/bin/env bash
# archive/'s S3 client against a real S3 server: Ceph's RADOS Gateway, started by
# scripts/s3-server.sh in the scratch directory and stopped on any exit. PUT, GET whole and ranged,
# HEAD, DELETE (a delete marker, then a version), ListObjectsV2 page by page, virtual-host
# addressing, Object Lock refusing the delete of a locked version, and the errors: a wrong secret
# key, an unknown access key, a missing bucket, a bucket without Object Lock, a refused connection,
# and a clock an hour off (RequestTimeTooSkewed, through faketime when it is installed).
#   s3_client_test.sh S3_CLIENT_PROBE S3_SERVER_SH
set -uo pipefail
koordq="$1"
s3_server="$2"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
server_dir="$scratch/s3"
trap 'bash "$s3_server" stop "$server_dir" >/dev/null 2>&1; rm -rf "$scratch"' EXIT

test_start=$SECONDS
if ! bash "$s3_server" start "$server_dir" >"$scratch/s3-server.log" 2>&1; then
  echo "FAIL: s3-server.sh start failed:"
  tail -n 40 "$scratch/s3-server.log"
  exit 1
fi
grep '^s3-server: ' "$scratch/s3-server.log"
# shellcheck disable=SC1091
. "$server_dir/env"
bucket="$KOORDQ_S3_BUCKET"

# expect_error DESCRIPTION KIND STATUS CODE: the last run failed with that kind, status and code.
expect_error() {
  if [ "$code" -eq 1 ] && grep -q "^error kind=$2 status=$3 code=$4: " "$err"; then pass; else fail "$1 (exit $code)"; fi
}

# The bucket of s3-server.sh has Object Lock.
run lock-config "$bucket"
check "the bucket has Object Lock" grep -qx 'enabled=true mode=none days=0' "$out"

# PUT, GET, ranged GET, HEAD.
head -c 3000000 /dev/urandom >"$scratch/segment"
printf '0123456789abcdef' >"$scratch/small"
run put "$bucket" "c1/seg 1+x" "$scratch/segment"
check "put answers an ETag and a version" grep -Eq '^etag=[0-9a-f]{32} version=.+$' "$out"
etag="$(sed -E 's/^etag=([0-9a-f]+) .*/\1/' "$out")"
check "the ETag is the body's MD5" test "$etag" = "$(md5sum <"$scratch/segment" | cut -d' ' -f1)"
run get "$bucket" "c1/seg 1+x"
check "get returns the bytes put" cmp -s "$out" "$scratch/segment"
run get "$bucket" "c1/seg 1+x" 1000-1999
check "a ranged get returns exactly the range" cmp -s "$out" <(tail -c +1001 "$scratch/segment" | head -c 1000)
run get "$bucket" "c1/seg 1+x" 2999990-
check "an open range returns the tail" cmp -s "$out" <(tail -c 10 "$scratch/segment")
run get "$bucket" "c1/seg 1+x" 3000000-3000009
expect_error "a range past the end is refused" invalid-argument 416 InvalidRange
run head "$bucket" "c1/seg 1+x"
check "head gives the size and ETag" grep -q "^size=3000000 etag=$etag version=.* lock=none until=$" "$out"

# ListObjectsV2 with continuation: 7 objects under list/, pages of 3, and one outside the prefix.
for i in 1 2 3 4 5 6 7; do run put "$bucket" "list/obj-$i" "$scratch/small"; done
run put "$bucket" "listless" "$scratch/small"
run list "$bucket" list/ 3
check "seven keys over three pages" grep -qx 'pages=3' "$out"
check "every key under the prefix, in order, with its size" \
  test "$(grep -c '^list/obj-[1-7] 16$' "$out")" = 7
check "nothing outside the prefix" bash -c "! grep -q '^listless' '$out'"

# Virtual-host addressing: the bucket in the host name (RGW's rgw dns name is localhost).
port="${AWS_ENDPOINT_URL##*:}"
AWS_ENDPOINT_URL="http://localhost:$port" run --addressing virtual put "$bucket" vhost/a "$scratch/small"
check "a virtual-host put succeeds" grep -q '^etag=' "$out"
run get "$bucket" vhost/a
check "a path-style get reads what the virtual-host put wrote" cmp -s "$out" "$scratch/small"
AWS_ENDPOINT_URL="http://localhost:$port" run --addressing virtual list "$bucket" vhost/ 1000
check "a virtual-host list finds it" grep -qx 'vhost/a 16' "$out"

# DELETE on a versioned bucket: a delete marker hides the object; its version stays readable.
run put "$bucket" del/a "$scratch/small"
version="$(sed -E 's/.* version=(.*)$/\1/' "$out")"
run delete "$bucket" del/a
check "a delete without a version adds a delete marker" grep -q 'delete_marker=true' "$out"
run get "$bucket" del/a
expect_error "get after the delete marker is no-such-key" no-such-key 404 NoSuchKey
run get "$bucket" del/a "" "$version"
check "the version is still readable" cmp -s "$out" "$scratch/small"
run delete "$bucket" del/a "$version"
check "an unlocked version can be deleted" grep -q "^version=$version" "$out"
run head "$bucket" del/a "$version"
expect_error "head of the deleted version is no-such-key" no-such-key 404 ""

# Object Lock: a version under COMPLIANCE retention cannot be deleted.
until_date="$(date -u -d '+1 day' +%Y-%m-%dT%H:%M:%SZ)"
run put "$bucket" locked/seg "$scratch/small" COMPLIANCE "$until_date"
check "a put with retention succeeds" grep -q '^etag=' "$out"
locked_version="$(sed -E 's/.* version=(.*)$/\1/' "$out")"
run head "$bucket" locked/seg "$locked_version"
check "head shows the retention" grep -q "lock=COMPLIANCE until=$until_date\$" "$out"
run delete "$bucket" locked/seg "$locked_version"
expect_error "Object Lock refuses the delete of the locked version" access-denied 403 AccessDenied
check "the refusal names Object Lock retention" grep -q 'Object Lock retention' "$err"
run get "$bucket" locked/seg "" "$locked_version"
check "the locked version is intact" cmp -s "$out" "$scratch/small"

# The credentials from a shared credentials file's profile when the environment has none.
printf '[default]\naws_access_key_id = wrong\naws_secret_access_key = wrong\n[rgw]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
  "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" >"$scratch/credentials"
(unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
  AWS_SHARED_CREDENTIALS_FILE="$scratch/credentials" AWS_PROFILE=rgw run head "$bucket" "c1/seg 1+x")
check "the credentials file's profile signs as well" grep -q '^size=3000000 ' "$out"

# Errors, each with its kind and a fix.
AWS_SECRET_ACCESS_KEY=wrong-secret-key-0123456789 run get "$bucket" "c1/seg 1+x"
expect_error "a wrong secret key is a credentials error" credentials 403 SignatureDoesNotMatch
AWS_SECRET_ACCESS_KEY=wrong-secret-key-0123456789 run head "$bucket" "c1/seg 1+x"
expect_error "a HEAD with a wrong secret key is a credentials error" credentials 403 SignatureDoesNotMatch
check "which says to check the secret key" grep -q 'check AWS_SECRET_ACCESS_KEY' "$err"
check "and never prints it" bash -c "! grep -q 'wrong-secret-key' '$err' '$out'"
AWS_ACCESS_KEY_ID=NOSUCHKEY0000000000 run get "$bucket" "c1/seg 1+x"
expect_error "an unknown access key is a credentials error" credentials 403 InvalidAccessKeyId
run list no-such-bucket-here "" 10
expect_error "a missing bucket" no-such-bucket 404 NoSuchBucket
check "which says to create it" grep -q 'create it' "$err"
plain_status="$(curl -sS -o /dev/null -w '%{http_code}' --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
  --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -X PUT \
  -H 'x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' \
  "$AWS_ENDPOINT_URL/plain-bucket")"
check "a bucket without Object Lock is created" test "$plain_status" = 200
run lock-config plain-bucket
expect_error "a bucket without Object Lock" no-object-lock 404 ObjectLockConfigurationNotFoundError
closed_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
AWS_ENDPOINT_URL="http://127.0.0.1:$closed_port" run get "$bucket" "c1/seg 1+x"
expect_error "nothing listening is a connection error" connection 0 ""
check "which says connection refused and how to fix it" grep -q 'connection refused.*start the S3 server or fix AWS_ENDPOINT_URL' "$err"
if command -v faketime >/dev/null; then
  (cd "$scratch" && timeout 60 faketime -f '-1h' "$koordq" get "$bucket" "c1/seg 1+x") >"$out" 2>"$err"
  code=$?
  expect_error "a clock an hour behind is clock skew" clock-skew 403 RequestTimeTooSkewed
  check "which says to synchronise the clock" grep -q "synchronise this machine's clock" "$err"
  (cd "$scratch" && timeout 60 faketime -f '-1h' "$koordq" head "$bucket" "c1/seg 1+x") >"$out" 2>"$err"
  code=$?
  expect_error "a HEAD with a clock an hour behind is clock skew too" clock-skew 403 RequestTimeTooSkewed
else
  echo "note: faketime not installed (scripts/install-deps.sh installs it): clock skew not checked"
fi

daemon_pids="$(cat "$server_dir"/run/*.pid)"
check "four daemons ran" test "$(echo "$daemon_pids" | wc -w)" = 4
bash "$s3_server" stop "$server_dir" >/dev/null 2>&1
still_running=""
for pid in $daemon_pids; do kill -0 "$pid" 2>/dev/null && still_running+=" $pid"; done
check "stop leaves no daemon of the server running (left:$still_running)" test -z "$still_running"
echo "s3_client_e2e: $((SECONDS - test_start)) s with the server's start and stop"
finish
