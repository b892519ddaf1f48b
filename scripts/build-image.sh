#!/usr/bin/env bash
# Builds koordq's OCI image from a built binary: OUT/koordq-<version>.oci.tar (OUT defaults to
# build/image) and, when podman is installed, loads it into podman's storage as
# localhost/koordq:<version>. The last line printed is the image's digest.
#   scripts/build-image.sh [--out DIR] [--no-load] [BINARY]      (BINARY defaults to build/cmd/koordq)
# Runs as root on Debian 12 (mmdebstrap, dpkg, jq, binutils; scripts/install-deps.sh installs them).
#
# The root filesystem is made by `mmdebstrap --variant=extract` from Debian's archive (the host's
# release, its updates and security suites): the packages that own the shared libraries `ldd` lists
# for the binary (found with `dpkg -S`), ca-certificates and tzdata, unpacked without running any
# maintainer script. Of that tree the image keeps only:
#   - the shared objects ldd lists and the dynamic loader, with their symlinks (no ld.so.cache: the
#     loader searches the multiarch directories by default);
#   - /etc/ssl/certs/ca-certificates.crt, concatenated from ca-certificates' certificates as
#     update-ca-certificates does, and OpenSSL's default paths to it (/usr/lib/ssl/cert.pem, certs),
#     which set_default_verify_paths reads when a kubeconfig names no CA;
#   - /usr/share/zoneinfo (tzdata); no /etc/localtime, so the zone is UTC;
#   - /usr/share/doc/<package>/copyright of each package a kept file comes from: the licences the
#     binaries are distributed under;
#   - /var/lib/dpkg/status with those packages' control paragraphs: nothing reads it at run time,
#     but image scanners match it against Debian's security tracker. No other dpkg or apt state;
#   - /usr/local/bin/koordq (the binary without its debug info), the entrypoint;
#   - /etc/passwd and /etc/group with root and koordq (65532, the image's user), /tmp, and
#     /var/lib/koordq (owned by koordq; the working directory and the manifests' volume mount).
# Nothing else: no shell, no other executable, no docs, man pages or locales.
#
# Reproducible: every mtime is SOURCE_DATE_EPOCH (default: the last commit's time), the layer and
# the archive are tars sorted by name with numeric owners and no atime/ctime, gzip stores no name or
# time, and the JSON is written with sorted keys. The same binary and the same archive state give
# the same digest. The .deb files and apt lists are kept in KOORDQ_IMAGE_CACHE (~/.cache/koordq-image).
# Labels: KOORDQ_IMAGE_SOURCE (default: the origin remote's URL) and KOORDQ_IMAGE_LICENSES override
# org.opencontainers.image.source and .licenses; unknown ones are NOASSERTION.
set -euo pipefail
umask 022 # the modes of what the script creates go into the layer

repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/build/image"
load=1
bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a directory}"; shift 2 ;;
    --no-load) load=0; shift ;;
    -h | --help) sed -n '2,6p' "$0"; exit 0 ;;
    -*) echo "build-image: unknown option $1" >&2; exit 2 ;;
    *) bin="$1"; shift ;;
  esac
done
bin="$(readlink -f "${bin:-$repo/build/cmd/koordq}")"
[ -x "$bin" ] || { echo "build-image: no executable at $bin (build koordq first, or name the binary)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "build-image: run as root (mmdebstrap's root mode, file owners in the layer)" >&2; exit 1; }
for tool in mmdebstrap dpkg-deb jq objcopy ldd sha256sum gzip tar chroot; do
  command -v "$tool" >/dev/null || { echo "build-image: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done

version="$(sed -n 's/^project(koordq VERSION \([^ )]*\).*/\1/p' "$repo/CMakeLists.txt")"
[ -n "$version" ] || { echo "build-image: no project(koordq VERSION …) in CMakeLists.txt" >&2; exit 1; }
# `koordq version` prints `koordq <version> (<revision>)`: the revision the binary was built from.
read -r _ bin_version bin_revision < <("$bin" version)
bin_revision="${bin_revision//[()]/}"
if [ "$bin_version" != "$version" ]; then
  echo "build-image: $bin is version $bin_version, CMakeLists.txt says $version; rebuild it" >&2
  exit 1
fi
revision="$bin_revision"
[ "$revision" != unknown ] || revision="$(git -C "$repo" rev-parse HEAD)"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct)}"
created="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)"
source_url="${KOORDQ_IMAGE_SOURCE:-$(git -C "$repo" config --get remote.origin.url || true)}"
source_url="${source_url:-NOASSERTION}"
licenses="${KOORDQ_IMAGE_LICENSES:-NOASSERTION}"
arch="$(dpkg --print-architecture)" # amd64 and arm64 are also OCI architecture names
suite="$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)"
cache="${KOORDQ_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/koordq-image}"

work="$(mktemp -d "${TMPDIR:-/tmp}/koordq-image.XXXXXX")"
chmod 0755 "$work" # apt fetches as _apt, which must reach the unpacked tree
trap 'rm -rf "$work"' EXIT
started=$SECONDS

# --- the libraries the binary loads, and the packages that own them -----------------------------
objcopy --strip-debug "$bin" "$work/koordq"
ldd "$work/koordq" >"$work/ldd.txt"
if grep -q 'not found' "$work/ldd.txt"; then
  echo "build-image: ldd cannot resolve every library:" >&2
  grep 'not found' "$work/ldd.txt" >&2
  exit 1
fi
# Host paths of the libraries (the loader's line has no `=>`); vdso has no file.
awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' "$work/ldd.txt" >"$work/libs.txt"
# One dpkg query for every library, under each name dpkg may know it by (/lib or /usr/lib).
while read -r lib; do printf '%s\n' "$lib" "$(readlink -f "$lib")" "/usr$lib" "${lib#/usr}"; done <"$work/libs.txt" |
  sort -u | xargs dpkg-query -S >"$work/owners.txt" 2>/dev/null || true
while read -r lib; do
  awk -F': ' -v a="$lib" -v b="$(readlink -f "$lib")" -v c="/usr$lib" -v d="${lib#/usr}" \
    '$2 == a || $2 == b || $2 == c || $2 == d { sub(/[:,].*/, "", $1); print $1; found = 1; exit }
     END { if (!found) { print "build-image: no package owns " a > "/dev/stderr"; exit 1 } }' "$work/owners.txt" || exit 1
done <"$work/libs.txt" | sort -u >"$work/packages.txt"
printf '%s\n' ca-certificates tzdata >>"$work/packages.txt"

# --- mmdebstrap: fetch and unpack them (and their dependencies) ----------------------------------
mkdir -p "$cache/debs" "$cache/lists" "$out"
exec 9>"$cache/lock"
flock 9
# shellcheck disable=SC2016 # $1 is the hooks' argument, expanded by mmdebstrap's shell
if ! mmdebstrap --variant=extract --skip=check/signed-by --aptopt='Acquire::Retries "3"' \
  --include="$(paste -sd, "$work/packages.txt")" \
  --setup-hook='mkdir -p "$1/var/cache/apt/archives" "$1/var/lib/apt/lists"' \
  --setup-hook="sync-in '$cache/debs' /var/cache/apt/archives/" \
  --setup-hook="sync-in '$cache/lists' /var/lib/apt/lists/" \
  --extract-hook="sync-out /var/cache/apt/archives '$cache/debs'" \
  --extract-hook="sync-out /var/lib/apt/lists '$cache/lists'" \
  --extract-hook="ls \"\$1/var/cache/apt/archives\" | grep '\\.deb\$' >'$work/debs.txt'" \
  "$suite" "$work/extract" >"$work/mmdebstrap.log" 2>&1; then
  echo "build-image: mmdebstrap failed:" >&2
  tail -n 20 "$work/mmdebstrap.log" >&2
  exit 1
fi
# Keep the cache at the .deb files of this build.
find "$cache/debs" -maxdepth 1 -name '*.deb' | while read -r deb; do
  grep -qxF "$(basename "$deb")" "$work/debs.txt" || rm -f "$deb"
done
flock -u 9

# --- the root filesystem -------------------------------------------------------------------------
x="$work/extract"
r="$work/rootfs"
mkdir -p "$r"/{etc/ssl/certs,tmp,usr/local/bin,usr/lib/ssl,usr/share/doc,var/lib/dpkg,var/lib/koordq}
keep() { # keep PATH: copies PATH of the unpacked tree, and what its symlinks point to, into the image
  local p="$1" t
  while :; do
    [ -e "$x$p" ] || [ -L "$x$p" ] || { echo "build-image: $p is not in the unpacked packages" >&2; return 1; }
    (cd "$x" && cp -a --parents ".$p" "$r/")
    [ -L "$x$p" ] || return 0
    t="$(readlink "$x$p")"
    case "$t" in /*) p="$t" ;; *) p="$(dirname "$p")/$t" ;; esac
  done
}
in_image() { # in_image HOSTPATH: where the unpacked packages hold a library (not /usr-merged)
  local d b
  d="$(dirname "$1")" b="$(basename "$1")"
  for d in "$d" "/usr$d" "${d#/usr}"; do
    if [ -e "$x$d/$b" ] || [ -L "$x$d/$b" ]; then echo "$d/$b"; return 0; fi
  done
  echo "build-image: $b is in none of the unpacked packages" >&2
  return 1
}
while read -r lib; do keep "$(in_image "$lib")"; done <"$work/libs.txt"
cp -a "$x/usr/share/zoneinfo" "$r/usr/share/"
(cd "$x/usr/share/ca-certificates" && find . -name '*.crt' -type f | LC_ALL=C sort | xargs awk 1) >"$r/etc/ssl/certs/ca-certificates.crt"
[ -s "$r/etc/ssl/certs/ca-certificates.crt" ] || { echo "build-image: no CA certificates unpacked" >&2; exit 1; }
ln -s /etc/ssl/certs/ca-certificates.crt "$r/usr/lib/ssl/cert.pem"
ln -s /etc/ssl/certs "$r/usr/lib/ssl/certs"
while read -r pkg; do
  mkdir -p "$r/usr/share/doc/$pkg"
  cp -L "$x/usr/share/doc/$pkg/copyright" "$r/usr/share/doc/$pkg/copyright"
  deb="$(grep "^${pkg}_" "$work/debs.txt")"
  dpkg-deb -f "$cache/debs/$deb" | awk '{print} /^Package:/ {print "Status: install ok installed"}'
  echo
done <"$work/packages.txt" >"$r/var/lib/dpkg/status"
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nkoordq:x:65532:65532:koordq:/var/lib/koordq:/usr/sbin/nologin\n' >"$r/etc/passwd"
printf 'root:x:0:\nkoordq:x:65532:\n' >"$r/etc/group"
install -m 0755 "$work/koordq" "$r/usr/local/bin/koordq"
chown -R 0:0 "$r"
chown 65532:65532 "$r/var/lib/koordq"
chmod 1777 "$r/tmp"
chmod 0644 "$r/etc/passwd" "$r/etc/group" "$r/var/lib/dpkg/status" "$r/etc/ssl/certs/ca-certificates.crt"
# The image's own loader and libraries run the binary: nothing is missing and nothing comes from the host.
if ! got="$(env -i "$(command -v chroot)" --userspec=65532:65532 "$r" /usr/local/bin/koordq version 2>&1)" ||
  [ "$got" != "koordq $bin_version ($bin_revision)" ]; then
  echo "build-image: koordq does not run in the image's root filesystem: $got" >&2
  exit 1
fi
find "$r" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

# --- the OCI layout and its archive --------------------------------------------------------------
o="$work/oci"
mkdir -p "$o/blobs/sha256"
det_tar() { # det_tar DIR OUT: DIR's contents, sorted, numeric owners, no atime/ctime, no ./ prefix
  (cd "$1" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort |
    tar --no-recursion --format=posix --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
      --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -cf "$2" -T -)
}
blob() { # blob FILE: moves FILE into blobs/ and prints its digest and size as a descriptor's fields
  local sum size
  sum="$(sha256sum "$1" | cut -d' ' -f1)"
  size="$(stat -c %s "$1")"
  mv "$1" "$o/blobs/sha256/$sum"
  jq -cn --arg d "sha256:$sum" --argjson s "$size" '{digest: $d, size: $s}'
}
det_tar "$r" "$work/layer.tar"
diff_id="sha256:$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
gzip -n "$work/layer.tar"
layer="$(blob "$work/layer.tar.gz")"
jq -cnS --arg arch "$arch" --arg created "$created" --arg diff_id "$diff_id" --arg version "$version" --arg revision "$revision" \
  --arg source "$source_url" --arg licenses "$licenses" '{
    architecture: $arch, os: "linux", created: $created,
    config: {
      User: "65532:65532", Entrypoint: ["/usr/local/bin/koordq"], WorkingDir: "/var/lib/koordq",
      Env: ["PATH=/usr/local/bin"],
      Labels: {
        "org.opencontainers.image.title": "koordq",
        "org.opencontainers.image.version": $version, "org.opencontainers.image.revision": $revision,
        "org.opencontainers.image.source": $source, "org.opencontainers.image.licenses": $licenses,
        "org.opencontainers.image.created": $created}},
    rootfs: {type: "layers", diff_ids: [$diff_id]},
    history: [{created: $created, created_by: "scripts/build-image.sh"}]}' >"$work/config.json"
config="$(blob "$work/config.json")"
jq -cnS --argjson c "$config" --argjson l "$layer" '{
    schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: ({mediaType: "application/vnd.oci.image.config.v1+json"} + $c),
    layers: [{mediaType: "application/vnd.oci.image.layer.v1.tar+gzip"} + $l]}' >"$work/manifest.json"
manifest="$(blob "$work/manifest.json")"
jq -cnS --argjson m "$manifest" --arg v "$version" '{
    schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json",
    manifests: [{mediaType: "application/vnd.oci.image.manifest.v1+json",
                 annotations: {"org.opencontainers.image.ref.name": $v}} + $m]}' >"$o/index.json"
echo '{"imageLayoutVersion":"1.0.0"}' >"$o/oci-layout"
chown -R 0:0 "$o"
chmod -R u=rwX,go=rX "$o"
find "$o" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
archive="$out/koordq-$version.oci.tar"
det_tar "$o" "$archive.tmp"
mv -f "$archive.tmp" "$archive"
digest="$(jq -r .digest <<<"$manifest")"

# Loaded under its own name with skopeo: `podman load` would name it after the index's ref.name.
if [ "$load" = 1 ] && command -v podman >/dev/null; then
  command -v skopeo >/dev/null || { echo "build-image: loading into podman needs skopeo (or pass --no-load)" >&2; exit 1; }
  skopeo copy -q "oci-archive:$archive" "containers-storage:localhost/koordq:$version" >"$work/load.log" 2>&1 ||
    { cat "$work/load.log" >&2; exit 1; }
  echo "build-image: loaded localhost/koordq:$version"
fi
echo "build-image: $archive ($(du -h "$archive" | cut -f1), layer $(jq -r .size <<<"$layer") bytes gzipped, $((SECONDS - started)) s)"
echo "build-image: packages: $(paste -sd' ' "$work/packages.txt")"
echo "$digest"
