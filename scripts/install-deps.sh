#!/usr/bin/env bash
# Installs every Debian package koordq needs to build, test and run, idempotently.
# Runs as root on Debian 12; installs only what is missing; never starts system services.
#   scripts/install-deps.sh            build + unit/property tests + end-to-end clients
#   scripts/install-deps.sh --build    only what building and running koordq needs
#   scripts/install-deps.sh --s3       only the S3 server of scripts/s3-server.sh (which calls this)
set -euo pipefail

build_pkgs=(
  cmake g++ gcc pkgconf ninja-build ccache lld clang-format
  libcaf-dev librocksdb-dev capnproto libcapnp-dev prometheus-cpp-dev
  libboost-dev libboost-system-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libsimdjson-dev rapidjson-dev libyaml-cpp-dev libcli11-dev libspdlog-dev libfmt-dev
  libjemalloc-dev libcurl4-openssl-dev
)
# End-to-end tests: the real clients, and the control plane of tests/controlplane: etcd, and what
# build-kube-apiserver.sh builds kube-apiserver from Debian's source package with (Go, rsync, make,
# gcc, reflect2). Its kubectl 1.20 (kubernetes-client) is unpacked, never installed: the package
# conflicts with a preinstalled kubectl.
test_pkgs=(
  curl openssl jq iproute2 python3 python3-kubernetes python3-yaml
  etcd-server etcd-client prometheus
  golang-go rsync make libc6-dev golang-github-modern-go-reflect2-dev
  clang-14 libclang-rt-14-dev
  # The image (scripts/build-image.sh) and tests/e2e/image_test.sh: mmdebstrap makes its root
  # filesystem, skopeo reads and loads it, podman runs it with runc.
  mmdebstrap skopeo podman runc
  # tests/e2e/image_test.sh pushes the image into a real registry: distribution, on loopback.
  docker-registry
  # tests/e2e/console_test.sh: the console in headless Chromium, driven through WebDriver.
  chromium chromium-driver python3-selenium fonts-liberation
  # tests/e2e/s3_client_test.sh and archive_test.sh: a clock an hour off for SigV4's clock-skew error.
  faketime
)

# The S3 server of scripts/s3-server.sh (tests/e2e/s3_client_test.sh): a single-node Ceph cluster
# with the RADOS Gateway, and curl, which signs the bucket's creation. About 70 MB to download and
# 2 minutes to install on a fresh machine (BENCHMARKS.md, "The S3 test server").
s3_pkgs=(ceph-mon ceph-mgr ceph-osd radosgw ceph-common curl python3 uuid-runtime)

case "${1:-}" in
  --build) pkgs=("${build_pkgs[@]}") ;;
  --s3) pkgs=("${s3_pkgs[@]}") ;;
  "") pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}" "${s3_pkgs[@]}") ;;
  *)
    echo "usage: $0 [--build|--s3]" >&2
    exit 2
    ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run this script as root (or install them with apt-get)" >&2
  exit 1
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
# Deny service starts while installing (etcd-server and prometheus would otherwise start system daemons).
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  created_policy=1
fi
cleanup() { if [ "$created_policy" = 1 ]; then rm -f "$policy"; fi; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
apt_opts=(-o DPkg::Lock::Timeout=600 -y --no-install-recommends)
if ! apt-get "${apt_opts[@]}" install "${missing[@]}"; then
  apt-get -o DPkg::Lock::Timeout=600 update
  apt-get "${apt_opts[@]}" install "${missing[@]}"
fi
echo "install-deps: done"
