#!/usr/bin/env bash
# The Kubernetes control plane of koordq's end-to-end tests: etcd and a real kube-apiserver v1.20.2
# (build-kube-apiserver.sh) on free loopback ports, with their PKI, a bearer token, the aggregation
# layer's front-proxy set up, koordq's CRDs (ops/kubernetes/base, and the ElasticQuota stand-in
# crd-elasticquotas.yaml next to this script) and the namespace koord-queue (ops/kubernetes/base).
# Usage: control-plane.sh start|stop|status DIR
#   start   in a fresh DIR: keys and certificates in DIR/pki, logs DIR/etcd.log and
#           DIR/kube-apiserver.log; writes DIR/kubeconfig (context koordq-e2e, current: the token;
#           koordq-e2e-cert: a client certificate, both system:masters) and DIR/env to source, and
#           prints one line with the API server's URL. On failure what it started is stopped.
#   stop    SIGTERM to kube-apiserver, then etcd, SIGKILL 5 s later (kube-apiserver 1.20 waits for
#           open watches to end); only the processes started in DIR (PID and start time); logs stay
#   status  whether each runs and is ready; exit 0 when both are
# DIR/env exports KUBECONFIG, KOORDQ_APISERVER_URL, KOORDQ_APISERVER_CA, KOORDQ_APISERVER_TOKEN,
#   KOORDQ_SERVING_CERT and _KEY (the API server's pair: its SANs fit any server on 127.0.0.1),
#   KOORDQ_FRONT_PROXY_CA (the requestheader CA, also published by the API server in the ConfigMap
#   kube-system/extension-apiserver-authentication), KOORDQ_FRONT_PROXY_CLIENT_CERT and _KEY (the
#   aggregator's client pair), KOORDQ_KUBECTL, KOORDQ_ETCD_PID, ETCDCTL_API and ETCDCTL_ENDPOINTS.
# Environment:
#   KOORDQ_CONTROLPLANE_CACHE       the binaries of build-kube-apiserver.sh
#                                   (default /var/cache/koordq-controlplane)
#   KOORDQ_KUBE_APISERVER           the kube-apiserver binary (default: the cache's)
#   KOORDQ_APISERVER_AUTHORIZATION  AlwaysAllow (default) or RBAC
#   KOORDQ_APISERVER_EXTRA_ARGS     more kube-apiserver flags, split on blanks (--watch-cache=false)
#   KOORDQ_KUBECTL                  the kubectl for DIR/env (default: the newest kubectl.1.NN of
#                                   google-cloud-cli, else kubectl on PATH, else the cache's v1.20.2)
# Inside `unshare -n` bring loopback up first: ip link set lo up.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
base="$here/../../ops/kubernetes/base"
crds=("$base/crd-queueunits.yaml" "$base/crd-queues.yaml" "$here/crd-elasticquotas.yaml")
cache="${KOORDQ_CONTROLPLANE_CACHE:-/var/cache/koordq-controlplane}"
kube_apiserver="${KOORDQ_KUBE_APISERVER:-$cache/kube-apiserver}"
authorization="${KOORDQ_APISERVER_AUTHORIZATION:-AlwaysAllow}"
timeout=60

say() { echo "control-plane: $*" >&2; }
die() { say "error: $*"; exit 1; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
now() { echo "${EPOCHREALTIME//[!0-9]/}"; } # microseconds
since() { local d=$(($(now) - $1)); printf '%d.%d' $((d / 1000000)) $((d / 100000 % 10)); }

# --- processes: DIR/NAME.pid holds "PID STARTTIME URL"; a PID is signalled only while it still
# names the process started (its start time), so a reused PID is never hit.
started_at() { # PID: its start time; fails for a process that is gone or a zombie
  local s f
  s="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  read -r -a f <<<"${s##*) }"
  [ "${f[0]}" != Z ] && echo "${f[19]}"
}
running() { # NAME: sets pid and pid_url; true while that process runs
  local start
  read -r pid start pid_url <"$dir/$1.pid" 2>/dev/null || return 1
  [ "$(started_at "$pid")" = "$start" ]
}
launch() { # NAME COMMAND...: in the background, output to DIR/NAME.log
  local name="$1"
  shift
  "$@" </dev/null >>"$dir/$name.log" 2>&1 &
  echo "$! $(started_at $!) $url" >"$dir/$name.pid"
}
stop() { # NAME
  local i
  running "$1" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do
    running "$1" || return 0
    [ "$i" = 50 ] && { say "$1 (pid $pid) still runs 5 s after SIGTERM: SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; }
    sleep 0.1
  done
  die "$1 (pid $pid) does not end"
}
# wait_ready NAME CHECK: CHECK passes within the timeout while NAME runs; else its log's end.
wait_ready() {
  local deadline=$((SECONDS + timeout))
  until "$2"; do
    if ! running "$1" || [ $SECONDS -ge $deadline ]; then
      say "$1 did not get ready; the end of $dir/$1.log:"
      tail -n 15 "$dir/$1.log" >&2
      return 1
    fi
    sleep 0.1
  done
}
port_clash() { [ "$attempt" -lt 3 ] && grep -q 'address already in use' "$dir/$1.log"; } # NAME: worth a retry
free_port() { # a loopback port nobody listens on, below the ephemeral range
  local p
  while :; do
    p=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
}

# --- PKI: EC P-256 keys, certificates valid 30 days
ossl() { openssl "$@" 2>>"$pki/openssl.log" || die "openssl $1 failed; see $pki/openssl.log"; }
new_key() { ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$pki/$1.key"; }
new_ca() { # NAME CN
  new_key "$1"
  ossl req -x509 -new -key "$pki/$1.key" -days 30 -subj "/CN=$2" -out "$pki/$1.crt" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
}
new_cert() { # CA NAME SUBJECT EXTENDED_KEY_USAGE [SUBJECT_ALT_NAMES]
  new_key "$2"
  ossl req -new -key "$pki/$2.key" -subj "$3" -out "$pki/$2.csr"
  printf 'keyUsage=critical,digitalSignature\nextendedKeyUsage=%s\n%s\n' "$4" "${5:+subjectAltName=$5}" >"$pki/$2.ext"
  ossl x509 -req -in "$pki/$2.csr" -CA "$pki/$1.crt" -CAkey "$pki/$1.key" -days 30 \
    -set_serial "0x$(openssl rand -hex 8)" -extfile "$pki/$2.ext" -out "$pki/$2.crt"
  rm -f "$pki/$2.csr" "$pki/$2.ext"
}
new_pki() {
  mkdir -m 700 "$pki"
  new_ca ca koordq-e2e-ca
  new_cert ca server /CN=kube-apiserver serverAuth \
    IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:10.96.0.1
  new_cert ca admin /O=system:masters/CN=koordq-e2e-admin clientAuth
  new_ca front-proxy-ca koordq-e2e-front-proxy-ca
  new_cert front-proxy-ca front-proxy-client /CN=front-proxy-client clientAuth
  new_key service-account
  ossl pkey -in "$pki/service-account.key" -pubout -out "$pki/service-account.pub"
  token="$(openssl rand -hex 24)"
  echo "$token,koordq-e2e,koordq-e2e,system:masters" >"$pki/tokens.csv"
  chmod 600 "$pki"/*.key "$pki/tokens.csv"
}

# --- the API server, by curl (starting needs no kubectl)
api() { # PATH [CURL ARGS...]: the body on stdout, fails on an HTTP error
  local path="$1"
  shift
  curl --fail-with-body -sS --max-time 10 -A koordq-controlplane --cacert "$pki/ca.crt" -H "Authorization: Bearer $token" \
    "$@" "$url$path"
}
create() { # PATH FILE: POSTs the YAML object in FILE; prints its name
  local body
  body="$(api "$1" -X POST -H 'Content-Type: application/yaml' --data-binary "@$2")" ||
    die "creating the object of $2 failed: $body"
  jq -r .metadata.name <<<"$body"
}
crd_served() { # NAME: Established, and listed by its group version's discovery
  local crd
  crd="$(api "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/$1")" &&
    jq -e 'any(.status.conditions[]?; .type == "Established" and .status == "True")' <<<"$crd" >/dev/null &&
    api "/apis/$(jq -r '.spec.group + "/" + .spec.versions[0].name' <<<"$crd")" |
    jq -e --arg plural "$(jq -r .spec.names.plural <<<"$crd")" 'any(.resources[]; .name == $plural)' >/dev/null
}
etcd_healthy() { curl -fsS --max-time 2 "$etcd_url/health" 2>/dev/null | grep -q '"health":"true"'; }
apiserver_ready() { [ "$(api /readyz 2>/dev/null)" = ok ]; }

find_kubectl() {
  local newest
  newest="$(printf '%s\n' /usr/lib/google-cloud-sdk/bin/kubectl.1.* | sort -V | tail -n 1)"
  if [ -n "${KOORDQ_KUBECTL:-}" ]; then echo "$KOORDQ_KUBECTL"
  elif [ -x "$newest" ]; then echo "$newest"
  elif command -v kubectl; then :
  elif [ -x "$cache/kubectl" ]; then echo "$cache/kubectl"
  fi
}

start() {
  local t0 tool attempt peer_port extra crd name deadline
  t0="$(now)"
  [ ! -e "$pki" ] || die "$dir was used by a control plane before; take a fresh directory"
  for tool in etcd curl openssl jq; do
    command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh installs it)"
  done
  [ -x "$kube_apiserver" ] || die "no kube-apiserver at $kube_apiserver; build it with $here/build-kube-apiserver.sh"
  case "$authorization" in AlwaysAllow | RBAC) ;; *) die "KOORDQ_APISERVER_AUTHORIZATION must be AlwaysAllow or RBAC" ;; esac
  read -r -a extra <<<"${KOORDQ_APISERVER_EXTRA_ARGS:-}"
  trap 'trap - EXIT; stop kube-apiserver; stop etcd; say "start failed; logs in $dir"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  new_pki

  # A port taken between free_port and the bind (another control plane starting) is retried.
  for attempt in 1 2 3; do
    etcd_url="http://127.0.0.1:$(free_port)"
    peer_port="$(free_port)"
    url="$etcd_url"
    rm -rf "$dir/etcd-data"
    launch etcd etcd --name koordq-e2e --data-dir "$dir/etcd-data" \
      --listen-client-urls "$etcd_url" --advertise-client-urls "$etcd_url" \
      --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
      --initial-cluster "koordq-e2e=http://127.0.0.1:$peer_port" --logger zap --log-outputs stderr
    wait_ready etcd etcd_healthy && break
    port_clash etcd || die "etcd did not start"
    stop etcd
  done
  say "etcd healthy at $etcd_url after $(since "$t0") s"

  for attempt in 1 2 3; do
    url="https://127.0.0.1:$(free_port)"
    launch kube-apiserver "$kube_apiserver" --etcd-servers="$etcd_url" \
      --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="${url##*:}" \
      --tls-cert-file="$pki/server.crt" --tls-private-key-file="$pki/server.key" \
      --client-ca-file="$pki/ca.crt" --token-auth-file="$pki/tokens.csv" --authorization-mode="$authorization" \
      --service-account-issuer=https://kubernetes.default.svc --service-account-key-file="$pki/service-account.pub" \
      --service-account-signing-key-file="$pki/service-account.key" --service-cluster-ip-range=10.96.0.0/24 \
      --disable-admission-plugins=ServiceAccount --endpoint-reconciler-type=none --enable-aggregator-routing=true \
      --requestheader-client-ca-file="$pki/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
      --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
      --requestheader-extra-headers-prefix=X-Remote-Extra- \
      --proxy-client-cert-file="$pki/front-proxy-client.crt" --proxy-client-key-file="$pki/front-proxy-client.key" \
      --v=1 "${extra[@]}"
    wait_ready kube-apiserver apiserver_ready && break
    port_clash kube-apiserver || die "kube-apiserver did not start"
    stop kube-apiserver
  done
  say "kube-apiserver ready at $url after $(since "$t0") s"

  for crd in "${crds[@]}"; do
    name="$(create /apis/apiextensions.k8s.io/v1/customresourcedefinitions "$crd")"
    deadline=$((SECONDS + timeout))
    until crd_served "$name"; do
      [ $SECONDS -lt $deadline ] || die "the CRD $name is not served after $timeout s"
      sleep 0.1
    done
  done
  create /api/v1/namespaces "$base/namespace.yaml" >/dev/null
  say "CRDs and namespace koord-queue created after $(since "$t0") s"

  write_kubeconfig
  write_env
  trap - EXIT INT TERM
  echo "control plane ready in $(since "$t0") s: $url (source $dir/env)"
}

write_kubeconfig() {
  (umask 077 && cat >"$dir/kubeconfig") <<EOF
apiVersion: v1
kind: Config
clusters:
- name: koordq-e2e
  cluster:
    server: $url
    certificate-authority-data: $(base64 -w0 <"$pki/ca.crt")
users:
- name: koordq-e2e
  user:
    token: $token
- name: koordq-e2e-cert
  user:
    client-certificate-data: $(base64 -w0 <"$pki/admin.crt")
    client-key-data: $(base64 -w0 <"$pki/admin.key")
contexts:
- name: koordq-e2e
  context:
    cluster: koordq-e2e
    user: koordq-e2e
    namespace: default
- name: koordq-e2e-cert
  context:
    cluster: koordq-e2e
    user: koordq-e2e-cert
    namespace: default
current-context: koordq-e2e
EOF
}

write_env() {
  local etcd_pid _
  read -r etcd_pid _ <"$dir/etcd.pid"
  {
    echo "# control-plane.sh start $dir: source this file"
    printf 'export %s=%q\n' KUBECONFIG "$dir/kubeconfig" KOORDQ_APISERVER_URL "$url" \
      KOORDQ_APISERVER_CA "$pki/ca.crt" KOORDQ_APISERVER_TOKEN "$token" \
      KOORDQ_SERVING_CERT "$pki/server.crt" KOORDQ_SERVING_KEY "$pki/server.key" \
      KOORDQ_FRONT_PROXY_CA "$pki/front-proxy-ca.crt" \
      KOORDQ_FRONT_PROXY_CLIENT_CERT "$pki/front-proxy-client.crt" KOORDQ_FRONT_PROXY_CLIENT_KEY "$pki/front-proxy-client.key" \
      KOORDQ_KUBECTL "$(find_kubectl)" KOORDQ_ETCD_PID "$etcd_pid" ETCDCTL_API 3 ETCDCTL_ENDPOINTS "$etcd_url"
  } >"$dir/env.new"
  mv "$dir/env.new" "$dir/env"
}

status() {
  local name ready rc=0 state
  token="$(cut -d, -f1 "$pki/tokens.csv")"
  for name in etcd kube-apiserver; do
    pid="" pid_url=""
    ready=apiserver_ready
    [ "$name" = etcd ] && ready=etcd_healthy
    if ! running "$name"; then
      state=stopped
    elif etcd_url="$pid_url" url="$pid_url" && "$ready"; then
      state="running, ready"
    else
      state="running, not ready"
    fi
    [ "$state" = "running, ready" ] || rc=1
    printf '%-15s pid %-8s %-19s %s\n' "$name" "${pid:--}" "$state" "$pid_url"
  done
  return "$rc"
}

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  start | stop | status) [ $# = 2 ] || { usage >&2; exit 2; } ;;
  *) usage >&2; exit 2 ;;
esac
if [ "$1" = start ]; then mkdir -p "$2"; fi
[ -d "$2/pki" ] || [ "$1" = start ] || die "no control plane was started in $2"
dir="$(cd "$2" && pwd)"
pki="$dir/pki"
pid="" pid_url="" url="" etcd_url="" token=""
case "$1" in
  start) start ;;
  stop) stop kube-apiserver; stop etcd ;;
  status) status ;;
esac
