#!/usr/bin/env bash
# The production image of scripts/build-image.sh, built from the binary under test:
# - the archive as skopeo reads it: entrypoint /usr/local/bin/koordq, user 65532:65532, the OCI
#   labels (version as in CMakeLists.txt, the binary's revision), and the digest the script printed;
# - its one layer: koordq, the libraries, the CA bundle, zoneinfo, copyright files, passwd/group with
#   uid/gid 65532; no shell, no executable but koordq and shared objects, no apt/dpkg state but status;
# - a second build gives the same digest and the same archive, byte for byte;
# - docs/operations.md's commands, as written, from a directory laid out as a checkout
#   (scripts/, CMakeLists.txt, build/cmd/koordq: the binary under test): `scripts/build-image.sh`
#   is the first build, and loads the image as localhost/koordq:<version>; the archive is pushed
#   with skopeo into a real registry (Debian's docker-registry, on loopback, standing for
#   registry.example.com), whose manifest has the digest the script printed, and podman pulls it
#   back from there; the upgrade's push of build/image/koordq-<version>.oci.tar too;
# - when podman works: the document's containers.conf, `version` and `serve --simulate` over a
#   volume as it shows them, `--help` and `version` run in the container, and `serve --simulate`
#   (virtual clock, read-only root, no capabilities, the image's own user) writes onto a volume a
#   journal, owned by 65532, that the host's `koordq replay --verify` accepts.
# podman and skopeo keep their images in a storage of the test's own (CONTAINERS_STORAGE_CONF), so
# the tag localhost/koordq:<version> of the machine's storage is left alone.
# The .deb files stay in the build script's cache (~/.cache/koordq-image), so a rerun downloads
# only the archive's indexes. Usage: image_test.sh path/to/koordq
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -uo pipefail

koordq="$(readlink -f "${1:?usage: image_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
registry_pid=""
cleanup() {
  [ -n "$registry_pid" ] && kill "$registry_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

for tool in skopeo mmdebstrap jq docker-registry curl openssl; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (scripts/install-deps.sh installs it)"; exit 1; }
done
version="$(sed -n 's/^project(koordq VERSION \([^ )]*\).*/\1/p' "$repo/CMakeLists.txt")"
revision="$("$koordq" version | sed -n 's/^koordq [^ ]* (\(.*\))$/\1/p')"

# A storage of the test's own for skopeo's and podman's images (vfs: nothing to unmount).
printf '[storage]\ndriver = "vfs"\ngraphroot = "%s"\nrunroot = "%s"\n' "$scratch/storage" "$scratch/storage-run" >"$scratch/storage.conf"
export CONTAINERS_STORAGE_CONF="$scratch/storage.conf"
# The checkout the document's commands run in; SOURCE_DATE_EPOCH and the source label as the
# repository gives them, which this directory is not.
checkout="$scratch/checkout"
mkdir -p "$checkout/build/cmd"
ln -s "$repo/scripts" "$checkout/scripts"
ln -s "$repo/CMakeLists.txt" "$checkout/CMakeLists.txt"
ln -s "$koordq" "$checkout/build/cmd/koordq"
SOURCE_DATE_EPOCH="$(git -C "$repo" log -1 --format=%ct)"
KOORDQ_IMAGE_SOURCE="$(git -C "$repo" config --get remote.origin.url || true)"
export SOURCE_DATE_EPOCH KOORDQ_IMAGE_SOURCE="${KOORDQ_IMAGE_SOURCE:-NOASSERTION}"

# --- two builds: docs/operations.md's, and one more --------------------------------------------------
t=$SECONDS
if ! (cd "$checkout" && scripts/build-image.sh) >"$scratch/build-1.log" 2>&1; then
  echo "FAIL: scripts/build-image.sh, as docs/operations.md runs it:"
  tail -n 20 "$scratch/build-1.log"
  exit 1
fi
echo "build 1: $((SECONDS - t)) s"
digest1="$(tail -n 1 "$scratch/build-1.log")"
archive="$checkout/build/image/koordq-$version.oci.tar"
build() { # build N: builds into $scratch/N, prints the digest
  local t=$SECONDS
  if ! bash "$repo/scripts/build-image.sh" --no-load --out "$scratch/$1" "$koordq" >"$scratch/build-$1.log" 2>&1; then
    echo "FAIL: build-image.sh (build $1):"
    tail -n 20 "$scratch/build-$1.log"
    exit 1
  fi
  echo "build $1: $((SECONDS - t)) s" >&2
  tail -n 1 "$scratch/build-$1.log"
}
digest2="$(build 2)"
check "the archive is named after CMakeLists.txt's version" test -s "$archive"
check "two builds give the same digest ($digest1, $digest2)" test "$digest1" = "$digest2"
check "two builds give the same archive" cmp "$archive" "$scratch/2/koordq-$version.oci.tar"
rm -rf "$scratch/2"
if command -v podman >/dev/null; then
  check "build-image.sh loaded it as localhost/koordq:$version" grep -qx "build-image: loaded localhost/koordq:$version" "$scratch/build-1.log"
fi

# --- pushed into a registry ------------------------------------------------------------------------
# Debian's docker-registry (distribution) on loopback, with TLS as a registry the nodes pull from
# has: its certificate, made here for 127.0.0.1, is the only one skopeo and podman trust
# (SSL_CERT_FILE), so the document's skopeo commands run as written with its address for
# registry.example.com.
registry="127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=koordq-e2e-registry \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$scratch/registry.key" -out "$scratch/registry.crt" 2>"$err" ||
  fail "a certificate for the registry"
printf 'version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: %s\nhttp:\n  addr: %s\n  tls:\n    certificate: %s\n    key: %s\n' \
  "$scratch/registry" "$registry" "$scratch/registry.crt" "$scratch/registry.key" >"$scratch/registry.yml"
export SSL_CERT_FILE="$scratch/registry.crt"
docker-registry serve "$scratch/registry.yml" >"$scratch/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 1 100); do
  curl -sf --cacert "$SSL_CERT_FILE" "https://$registry/v2/" >/dev/null && break
  sleep 0.1
done
check "docker-registry answers on $registry" curl -sf --cacert "$SSL_CERT_FILE" "https://$registry/v2/"
t=$SECONDS
# shellcheck disable=SC2086 # the document's words; the address has no blanks
(cd "$checkout" && skopeo copy oci-archive:build/image/koordq-0.1.0.oci.tar docker://$registry/koordq:0.1.0) >"$out" 2>"$err"
check "skopeo copy into the registry" test $? = 0
# shellcheck disable=SC2086 # the document's words; the address has no blanks
pushed="$(cd "$checkout" && skopeo inspect docker://$registry/koordq:0.1.0 | jq -r .Digest)"
check "the registry's manifest has the digest build-image.sh printed ($pushed)" test "$pushed" = "$digest1"
# shellcheck disable=SC2086 # the document's words; the address has no blanks
(cd "$checkout" && skopeo copy oci-archive:build/image/koordq-$version.oci.tar docker://$registry/koordq:$version) >"$out" 2>"$err"
check "the upgrade's push of build/image/koordq-$version.oci.tar" test $? = 0
echo "registry push and inspect: $((SECONDS - t)) s"

# --- the image as skopeo reads it -------------------------------------------------------------------
skopeo inspect "oci-archive:$archive" >"$scratch/inspect.json" 2>"$err" || fail "skopeo inspect"
skopeo inspect --config "oci-archive:$archive" >"$scratch/config.json" 2>"$err" || fail "skopeo inspect --config"
check "skopeo computes the digest the script printed" jq_true --arg d "$digest1" '.Digest == $d' "$scratch/inspect.json"
check "entrypoint /usr/local/bin/koordq, user 65532:65532, koordq on PATH" jq_true '.config as $c
  | $c.Entrypoint == ["/usr/local/bin/koordq"] and $c.User == "65532:65532" and ($c.Cmd // []) == []
  and ($c.Env | index("PATH=/usr/local/bin")) != null' "$scratch/config.json"
check "labels: version $version, revision $revision, source, licenses, created" jq_true \
  --arg v "$version" --arg r "$revision" '.config.Labels as $l
  | $l["org.opencontainers.image.version"] == $v and $l["org.opencontainers.image.revision"] == $r
  and ($l["org.opencontainers.image.source"] | length > 0) and ($l["org.opencontainers.image.licenses"] | length > 0)
  and ($l["org.opencontainers.image.created"] | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$"))
  and $l["org.opencontainers.image.created"] == .created' "$scratch/config.json"

# --- its layer ------------------------------------------------------------------------------------
mkdir -p "$scratch/oci"
tar -xf "$archive" -C "$scratch/oci"
blob() { echo "$scratch/oci/blobs/sha256/${1#sha256:}"; }
manifest="$(blob "$(jq -r '.manifests[0].digest' "$scratch/oci/index.json")")"
check "one layer" jq_true '.layers | length == 1' "$manifest"
layer="$(blob "$(jq -r '.layers[0].digest' "$manifest")")"
tar -tvzf "$layer" >"$scratch/layer.txt"
awk '{print $6}' "$scratch/layer.txt" >"$scratch/paths.txt"
ls_has() { grep -qxF "$1" "$scratch/paths.txt"; }
for p in usr/local/bin/koordq etc/passwd etc/group etc/ssl/certs/ca-certificates.crt usr/lib/ssl/cert.pem \
  usr/share/zoneinfo/UTC usr/share/zoneinfo/Europe/Berlin usr/share/doc/libc6/copyright var/lib/dpkg/status \
  lib64/ld-linux-x86-64.so.2 lib/x86_64-linux-gnu/libc.so.6 var/lib/koordq/ tmp/; do
  check "the layer holds $p" ls_has "$p"
done
check "no shell: no bin/sh, usr/bin/sh, bin/bash, bin/dash" bash -c '! grep -Eq "^(usr/)?bin/(sh|bash|dash)$" "$1"' _ "$scratch/paths.txt"
# tar -tv lines: mode, owner/group, size, date, time, path (symlinks add "-> target").
check "no executable but koordq and shared objects" test -z "$(awk '$1 ~ /^-..x/ && $6 != "usr/local/bin/koordq" && $6 !~ /\.so(\.[0-9.]+)?$/ {print $6}' "$scratch/layer.txt")"
check "no dpkg or apt state but dpkg's status, no man pages, no locales" test -z "$(grep -E '^(var/lib/apt|var/cache|etc/apt|etc/dpkg|var/lib/dpkg/(info|available)|usr/share/(man|locale|info))/' "$scratch/paths.txt")"
check "docs are copyright files only" test -z "$(grep -E '^usr/share/doc/.*[^/]$' "$scratch/paths.txt" | grep -v '/copyright$')"
check "/var/lib/koordq belongs to 65532, everything else to root" test -z "$(awk '($6 == "var/lib/koordq/") != ($2 == "65532/65532") {print $6}' "$scratch/layer.txt")"
tar -xzf "$layer" -C "$scratch/oci" etc/passwd etc/group var/lib/dpkg/status
check "passwd: koordq is 65532:65532" grep -qx 'koordq:x:65532:65532:koordq:/var/lib/koordq:/usr/sbin/nologin' "$scratch/oci/etc/passwd"
check "group: koordq is 65532" grep -qx 'koordq:x:65532:' "$scratch/oci/etc/group"
check "dpkg status names libc6 and ca-certificates as installed" test "$(grep -A1 -E '^Package: (libc6|ca-certificates)$' "$scratch/oci/var/lib/dpkg/status" | grep -c '^Status: install ok installed$')" = 2
grep -E '^(usr/)?lib/' "$scratch/paths.txt" | sed 's|.*/||' >"$scratch/libs.txt"
check "every library ldd lists is in the layer" test -z "$(ldd "$koordq" | awk '$2 == "=>" {print $1}' | while read -r so; do
  grep -qxF "$so" "$scratch/libs.txt" || echo "$so"; done)"

# --- in a container: docs/operations.md's commands, as written --------------------------------------------
# ~ is a home of the test's own: the document's containers.conf goes there (podman reads its settings
# from CONTAINERS_CONF only: nothing in /etc is changed).
mkdir -p "$scratch/home"
export HOME="$scratch/home"
cd "$checkout" || exit 1
printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' >~/koordq-containers.conf
export CONTAINERS_CONF=~/koordq-containers.conf
if ! command -v podman >/dev/null || ! podman info >"$scratch/podman-info.log" 2>&1; then
  echo "podman is not usable here; the container runs are skipped ($(tail -n 1 "$scratch/podman-info.log" 2>/dev/null))"
  finish
  exit
fi
podman run --rm localhost/koordq:0.1.0 version >"$out" 2>"$err"
check "podman run localhost/koordq:0.1.0 version says what the host binary says" test "$(cat "$out")" = "$("$koordq" version)"
t=$SECONDS
mkdir -p sim && chown 65532:65532 sim
podman run --rm --network=none -v "$PWD/sim:/tmp/j" localhost/koordq:0.1.0 serve --simulate \
  --simulate-clock virtual --simulate-duration 20s --journal-dir /tmp/j >"$scratch/simulate.log" 2>&1
code=$?
echo "twenty simulated seconds in the container: $((SECONDS - t)) s"
if [ "$code" = 0 ]; then pass; else
  fail "serve --simulate in the container (exit $code)"
  tail -n 20 "$scratch/simulate.log"
fi
check "the journal on the volume belongs to 65532" test "$(stat -c %u:%g sim/HEAD 2>/dev/null)" = 65532:65532
build/cmd/koordq replay --journal-dir sim --verify >"$out" 2>"$err"
check "build/cmd/koordq replay --journal-dir sim --verify" grep -Eq '^verified [0-9]+ decisions in [1-9][0-9]* rounds' "$out"

# The registry's image, pulled by podman as a node pulls it, is the one built.
podman pull -q "$registry/koordq:0.1.0" >"$out" 2>"$err"
check "podman pulls $registry/koordq:0.1.0" test $? = 0
check "… with the digest build-image.sh printed" test "$(podman image inspect --format '{{.Digest}}' "$registry/koordq:0.1.0" 2>/dev/null)" = "$digest1"
# The image's own hardening: read-only root, no capabilities, no new privileges.
prun() { podman run --rm --network=none --read-only --cap-drop=ALL --security-opt=no-new-privileges "$@"; }
if prun "$registry/koordq:0.1.0" --help >"$out" 2>"$err" && grep -q '^koordq is a Kubernetes job-queueing controller' "$out"; then pass; else
  fail "koordq --help in a read-only container without capabilities"
fi
finish
