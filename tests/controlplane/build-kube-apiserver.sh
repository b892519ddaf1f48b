#!/usr/bin/env bash
# The binaries of the end-to-end tests' control plane, into a cache directory outside the clone,
# once; returns at once when they are there:
#   kube-apiserver v1.20.2, built from Debian bookworm's `kubernetes` source package (Debian ships
#     no kube-apiserver binary, but that source package is the whole upstream tree with vendor/):
#     4 to 8 minutes on 2 idle cores, in a scratch directory under CACHE_DIR, deleted afterwards;
#   kubectl v1.20.2, Debian's kubernetes-client unpacked, not installed (it would clash with
#     another installed kubectl).
# Usage: build-kube-apiserver.sh [CACHE_DIR]
#   CACHE_DIR: default $KOORDQ_CONTROLPLANE_CACHE, else /var/cache/koordq-controlplane.
# Steps (full output in CACHE_DIR/build-kube-apiserver.log):
#   1. the build dependencies from Debian (as root, only the missing ones);
#   2. a private apt configuration (nothing under /etc/apt changes) with deb and deb-src entries for
#      the mirrors this machine uses: `apt-get download kubernetes-client` and `apt-get source
#      --download-only kubernetes`; network steps are retried, a fresh machine's DNS or mirror fails
#      now and then;
#   3. the upstream tarball unpacked (Debian's patches touch only kubectl) and the vendored reflect2
#      1.0.1 replaced by Debian's 1.0.2: with 1.0.1 a Go >= 1.18 build dies with `fatal error:
#      fault` in reflect2 on the first custom-resource write;
#   4. `make WHAT=cmd/kube-apiserver` in GOPATH mode, offline (a plain `go build` lacks the generated
#      files, module mode does not work for 1.20; the code generators need gcc for cgo).
# Binaries are installed atomically; concurrent runs on one cache are serialised with flock.
set -euo pipefail

version=v1.20.2
deps=(golang-go rsync make gcc libc6-dev golang-github-modern-go-reflect2-dev)
reflect2=/usr/share/gocode/src/github.com/modern-go/reflect2

case "${1:-}" in -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; -*) echo "usage: $0 [CACHE_DIR]" >&2; exit 2 ;; esac
cache="${1:-${KOORDQ_CONTROLPLANE_CACHE:-/var/cache/koordq-controlplane}}"
start=$SECONDS

say() { echo "build-kube-apiserver: $*" >&2; }
die() { say "error: $*"; exit 1; }
have_apiserver() { [ -x "$cache/kube-apiserver" ] && [ "$("$cache/kube-apiserver" --version 2>/dev/null)" = "Kubernetes $version" ]; }
have_kubectl() { [ -x "$cache/kubectl" ] && "$cache/kubectl" version --client 2>/dev/null | grep -qF "GitVersion:\"$version\""; }
cached() {
  if have_apiserver && have_kubectl; then
    echo "kube-apiserver and kubectl $version cached in $cache"
  else
    return 1
  fi
}

cached && exit 0
mkdir -p "$cache" || die "cannot create $cache; set KOORDQ_CONTROLPLANE_CACHE"
cache="$(cd "$cache" && pwd)"
exec 9>"$cache/.build.lock"
flock 9
cached && exit 0 # built by a concurrent run meanwhile
log="$cache/build-kube-apiserver.log"
: >"$log"

# step NAME COMMAND...: runs COMMAND with its output in the log; on failure shows the log's end.
step() {
  local name="$1"
  shift
  if ! "$@" >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    die "$name failed; see $log"
  fi
}
# retry COMMAND...: up to three attempts, 15 and 30 s apart.
retry() {
  local attempt
  for attempt in 1 2 3; do
    "$@" && return 0
    [ "$attempt" = 3 ] && return 1
    echo "attempt $attempt failed: $*; retrying" >>"$log"
    sleep $((attempt * 15))
  done
}

# 1. build dependencies
missing=()
for p in "${deps[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing packages ${missing[*]}; install them as root (scripts/install-deps.sh)"
  say "installing ${missing[*]}"
  apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y --no-install-recommends install "${missing[@]}" ||
      { apt-get -o DPkg::Lock::Timeout=600 update && DEBIAN_FRONTEND=noninteractive \
        apt-get -o DPkg::Lock::Timeout=600 -y --no-install-recommends install "${missing[@]}"; }
  }
  step "apt-get install" retry apt_install
fi

# 2. a private apt configuration: deb and deb-src entries for the mirrors of this machine
work="$(mktemp -d "$cache/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
apt="$work/apt"
mkdir -p "$apt/sources" "$apt/lists/partial" "$apt/cache/archives/partial" "$work/home" "$work/download"
for f in /etc/apt/sources.list.d/*.sources; do
  if [ -f "$f" ]; then sed -E 's/^Types:.*/Types: deb deb-src/' "$f" && echo; fi
done >"$apt/sources/private.sources"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  if [ -f "$f" ]; then sed -nE 's/^[[:space:]]*deb[[:space:]]+(.*)/deb \1\ndeb-src \1/p' "$f"; fi
done >"$apt/sources/private.list"
[ -s "$apt/sources/private.sources" ] || [ -s "$apt/sources/private.list" ] ||
  die "this machine has no apt sources to take entries from"
private=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/sources"
  -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
step "apt-get update (private configuration)" retry apt-get "${private[@]}" update
# download WHAT...: apt-get WHAT in the download directory, through the private configuration
download() { (cd "$work/download" && apt-get "${private[@]}" "$@"); }

if ! have_kubectl; then
  say "kubectl: unpacking Debian's kubernetes-client"
  step "apt-get download kubernetes-client" retry download download kubernetes-client
  step "dpkg-deb -x" dpkg-deb -x "$(find "$work/download" -name 'kubernetes-client_*.deb' | head -n 1)" "$work/kubectl"
  install -m 755 "$work/kubectl/usr/bin/kubectl" "$cache/.kubectl.new"
  mv -f "$cache/.kubectl.new" "$cache/kubectl"
  have_kubectl || die "$cache/kubectl does not report $version"
fi
if cached; then exit 0; fi

say "kube-apiserver: downloading Debian's kubernetes source package"
step "apt-get source" retry download source --download-only kubernetes
orig="$(find "$work/download" -maxdepth 1 -name 'kubernetes_*.orig.tar.gz' | head -n 1)"
[ -n "$orig" ] || die "apt-get source brought no kubernetes_*.orig.tar.gz"

# 3. the upstream tree, with Debian's reflect2
src="$work/src"
mkdir -p "$src"
step "unpacking $(basename "$orig")" tar -xzf "$orig" -C "$src" --strip-components=1
[ -f "$src/cmd/kube-apiserver/apiserver.go" ] || die "$(basename "$orig") does not hold cmd/kube-apiserver"
vendored="$src/vendor/github.com/modern-go/reflect2"
rm -rf "$vendored"
mkdir -p "$vendored"
cp "$reflect2"/*.go "$reflect2"/*.s "$vendored/"

# 4. build and install
say "make WHAT=cmd/kube-apiserver (4 to 8 minutes on 2 idle cores; log: $log)"
step "make" env -C "$src" HOME="$work/home" GOPROXY=off GOFLAGS= KUBE_GIT_VERSION="$version" \
  KUBE_GIT_TREE_STATE=archive make WHAT=cmd/kube-apiserver
install -m 755 "$src/_output/bin/kube-apiserver" "$cache/.kube-apiserver.new"
mv -f "$cache/.kube-apiserver.new" "$cache/kube-apiserver"
have_apiserver || die "the built $cache/kube-apiserver does not report $version"
echo "kube-apiserver $version built and kubectl $version unpacked in $((SECONDS - start)) s into $cache"
