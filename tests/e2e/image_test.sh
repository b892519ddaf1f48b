#!/usr/bin/env bash
# The production image of scripts/build-image.sh, built from the binary under test:
# - the archive as skopeo reads it: entrypoint /usr/local/bin/koordq, user 65532:65532, the OCI
#   labels (version as in CMakeLists.txt, the binary's revision), and the digest the script printed;
# - its one layer: koordq, the libraries, the CA bundle, zoneinfo, copyright files, passwd/group with
#   uid/gid 65532; no shell, no executable but koordq and shared objects, no apt/dpkg state but status;
# - a second build gives the same digest and the same archive, byte for byte;
# - when podman works: `--help` and `version` run in the container, and `serve --simulate` (virtual
#   clock, read-only root, no capabilities, the image's own user) writes onto a volume a journal,
#   owned by 65532, that the host's `koordq replay --verify` accepts.
# The .deb files stay in the build script's cache (~/.cache/koordq-image), so a rerun downloads
# only the archive's indexes. Usage: image_test.sh path/to/koordq
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -uo pipefail

koordq="$(readlink -f "${1:?usage: image_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tag="localhost/koordq-e2e:$$"
loaded=0
cleanup() {
  [ "$loaded" = 1 ] && podman rmi -f "$tag" >/dev/null 2>&1
  rm -rf "$scratch"
}
trap cleanup EXIT

for tool in skopeo mmdebstrap jq; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (scripts/install-deps.sh installs it)"; exit 1; }
done
version="$(sed -n 's/^project(koordq VERSION \([^ )]*\).*/\1/p' "$repo/CMakeLists.txt")"
revision="$("$koordq" version | sed -n 's/^koordq [^ ]* (\(.*\))$/\1/p')"

# --- two builds ---------------------------------------------------------------------------------
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
digest1="$(build 1)"
digest2="$(build 2)"
archive="$scratch/1/koordq-$version.oci.tar"
check "the archive is named after CMakeLists.txt's version" test -s "$archive"
check "two builds give the same digest ($digest1, $digest2)" test "$digest1" = "$digest2"
check "two builds give the same archive" cmp "$archive" "$scratch/2/koordq-$version.oci.tar"
rm -rf "$scratch/2"

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

# --- in a container -----------------------------------------------------------------------------------
# podman reads its settings from CONTAINERS_CONF only: nothing in /etc is changed.
printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' >"$scratch/containers.conf"
export CONTAINERS_CONF="$scratch/containers.conf"
if ! command -v podman >/dev/null || ! podman info >"$scratch/podman-info.log" 2>&1; then
  echo "podman is not usable here; the container runs are skipped ($(tail -n 1 "$scratch/podman-info.log" 2>/dev/null))"
  finish
  exit
fi
if skopeo copy "oci-archive:$archive" "containers-storage:$tag" >"$out" 2>"$err"; then loaded=1; pass; else fail "loading the archive into podman"; fi
prun() { podman run --rm --network=none --read-only --cap-drop=ALL --security-opt=no-new-privileges "$@"; }
if prun "$tag" --help >"$out" 2>"$err" && grep -q '^koordq is a Kubernetes job-queueing controller' "$out"; then pass; else
  fail "koordq --help in the container"
fi
if prun "$tag" version >"$out" 2>"$err" && [ "$(cat "$out")" = "$("$koordq" version)" ]; then pass; else
  fail "koordq version in the container says what the host binary says"
fi
vol="$scratch/volume"
mkdir -p "$vol"
chown 65532:65532 "$vol"
if prun -v "$vol:/tmp/j" "$tag" serve --simulate --simulate-duration 5s --simulate-clock virtual \
  --journal-dir /tmp/j >"$scratch/simulate.log" 2>&1; then pass; else
  fail "serve --simulate in the container (exit $?)"
  tail -n 20 "$scratch/simulate.log"
fi
check "the journal on the volume belongs to 65532" test "$(stat -c %u:%g "$vol/HEAD" 2>/dev/null)" = 65532:65532
verify_journal "the container's journal" "$vol"
finish
