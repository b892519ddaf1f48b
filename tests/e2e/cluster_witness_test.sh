#!/usr/bin/env bash
# The journal's external witness (behaviour.md §24.5) on a real kube-apiserver that authorizes with
# RBAC: koordq serve as its ServiceAccount, bound by exactly the rules of ops/kubernetes/base, which
# may get and patch the witness ConfigMap and nothing else of ConfigMaps. The leader's entries
# appear (signed with the journal's key); the journal then agrees with its witness, read through the
# API server or from a file. An attacker with the journal directory and the signing key cuts the
# journal on disk and re-signs HEAD: plain `journal verify --public-key` passes, `verify --witness`
# exits 1 naming the cut, and a serve started on the cut journal leaves the witness as it is.
# Usage: cluster_witness_test.sh path/to/koordq path/to/journal_cut_tool
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_witness_test.sh path/to/koordq path/to/journal_cut_tool}")"
cut_tool="$(readlink -f "${2:?usage: cluster_witness_test.sh path/to/koordq path/to/journal_cut_tool}")"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
export KOORDQ_APISERVER_AUTHORIZATION=RBAC
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

base="$repo/ops/kubernetes/base"
check "the ServiceAccount, its RBAC and the witness ConfigMap apply" k apply -f "$base/serviceaccount.yaml" \
  -f "$base/rbac.yaml" -f "$base/journal-witness.yaml"
k apply -f - >/dev/null <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "100"}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other, namespace: koord-queue}
YAML

token=$(curl -sS --http1.1 -A koordq-e2e --cacert "$KOORDQ_APISERVER_CA" -H "Authorization: Bearer $KOORDQ_APISERVER_TOKEN" \
  -H "Content-Type: application/json" -X POST "$KOORDQ_APISERVER_URL/api/v1/namespaces/koord-queue/serviceaccounts/koordq/token" \
  -d '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":3600}}' |
  jq -r '.status.token // empty')
check "the TokenRequest API mints a token for the ServiceAccount" test -n "$token"
sa_kubeconfig="$scratch/sa.kubeconfig"
cat >"$sa_kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "$KOORDQ_APISERVER_URL", certificate-authority: "$KOORDQ_APISERVER_CA"}}]
users: [{name: sa, user: {token: "$token"}}]
contexts: [{name: sa, context: {cluster: c, user: sa}}]
current-context: sa
YAML
as_sa() { "$KOORDQ_KUBECTL" --kubeconfig "$sa_kubeconfig" "$@"; }
# can_i VERB RESOURCE NAMESPACE: what the ServiceAccount's RBAC answers ("yes" or "no").
can_i() { as_sa auth can-i "$1" "$2" -n "$3" 2>/dev/null; }
check "the ServiceAccount may get the witness ConfigMap" test "$(can_i get configmaps/koordq-journal-witness koord-queue)" = yes
check "… and patch it" test "$(can_i patch configmaps/koordq-journal-witness koord-queue)" = yes
check "… but not update or delete it" test "$(can_i update configmaps/koordq-journal-witness koord-queue)$(can_i delete configmaps/koordq-journal-witness koord-queue)" = nono
check "… nor create ConfigMaps" test "$(can_i create configmaps koord-queue)" = no
check "… nor get or patch another ConfigMap" test "$(can_i get configmaps/other koord-queue)$(can_i patch configmaps/other koord-queue)" = nono
check "… nor list ConfigMaps" test "$(can_i list configmaps koord-queue)" = no
check "… nor patch a ConfigMap of that name elsewhere" test "$(can_i patch configmaps/koordq-journal-witness default)" = no
check "patching another ConfigMap with its token is Forbidden" sh -c \
  "'$KOORDQ_KUBECTL' --kubeconfig '$sa_kubeconfig' patch configmap other -n koord-queue -p '{\"data\":{\"a\":\"b\"}}' 2>&1 | grep -qi forbidden"

# docs/operations.md's commands run as written in the scratch directory, with kubectl on the control plane.
cd "$scratch" || exit 1
kubectl() { k "$@"; }
"$koordq" journal keygen --private-key journal.key --public-key journal.pub >"$out" 2>"$err"
check "journal keygen writes the key pair" test -s journal.key -a -s journal.pub
journal="$scratch/journal"
witness_json() { k get configmap -n koord-queue koordq-journal-witness -o json; }
# entries_of: the witnessed seqs of the only journal the witness holds, one a line.
entries_of() { witness_json | jq -r '.data // {} | to_entries[0].value // "{\"entries\":[]}" | fromjson | .entries[].seq'; }
log="$scratch/serve.log"
KUBECONFIG="$sa_kubeconfig" start_serve "$log" --journal-dir "$journal" --journal-signing-key-file "$scratch/journal.key" \
  --journal-witness-period 1s --leader-elect-retry-period 500ms --enable-visibility-server=false --v=2 ||
  fail "serve did not start"
check "it leads" eventually 30 grep -q 'became leader' "$log"
check "the witness holds an entry of the journal once it leads" eventually 20 sh -c "test -n \"\$(
  '$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get configmap -n koord-queue koordq-journal-witness -o jsonpath='{.data}')\""
check "the start log says where the journal is witnessed" grep -q \
  'journal witness: ConfigMap koord-queue/koordq-journal-witness holds seq [0-9]* of journal' "$log"
for i in 1 2 3 4 5 6; do
  unit "job$i" 1
  sleep 1
done
check "every unit is admitted" eventually 30 is_dequeued job6
check "the witness follows the head: more entries, higher seqs" eventually 20 sh -c \
  "test \"\$('$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get configmap -n koord-queue koordq-journal-witness -o json |
    jq -r '.data | to_entries[0].value | fromjson | .entries | length')\" -ge 3"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM: exit 0" test $? = 0
check "no request was Forbidden" test -z "$(grep -i forbidden "$log")"
check "no error in the log" test -z "$(grep '^E' "$log")"

kubectl -n koord-queue get configmap koordq-journal-witness -o json >witness.json
uuid=$("$koordq" journal stat --journal-dir "$journal" -o json | jq -r .journal)
# shellcheck disable=SC2016 # jq's own variables
check "the witness is keyed by the journal's UUID" jq_true --arg u "$uuid" '.data | has($u)' "$scratch/witness.json"
# shellcheck disable=SC2016 # jq's own variables
check "… and holds the cluster's identity and signed entries" jq_true --arg c "$(k get namespace kube-system -o jsonpath='{.metadata.uid}')" \
  '.data | to_entries[0].value | fromjson | .cluster == $c and (.entries | all(.signature | test("^[0-9a-f]{16} ")))' \
  "$scratch/witness.json"
witnessed=$(entries_of | tail -n1)
run journal verify --journal-dir "$journal" --public-key "$scratch/journal.pub" --witness-file "$scratch/witness.json"
check "verify --witness-file agrees with the intact journal (exit 0)" test "$code" -eq 0
check "… saying up to which seq" grep -q "^witness: journal $uuid agrees with ConfigMap koord-queue/koordq-journal-witness (witness file $scratch/witness.json) up to seq $witnessed (witnessed .*; every entry signed by key " "$out"
kubectl -n koord-queue get configmap koordq-journal-witness -o json | jq '.data | map_values(fromjson | .entries[-1])' >"$out" 2>"$err"
# shellcheck disable=SC2016 # jq's own variables
check "the document's jq shows the newest entry of the journal, seq $witnessed" jq_true --arg u "$uuid" --argjson w "$witnessed" \
  'keys == [$u] and .[$u].seq == $w' "$out"
"$koordq" journal checkpoint --journal-dir journal copy >"$out" 2>"$err"
check "journal checkpoint --journal-dir journal copy" test -d copy
"$koordq" journal verify --journal-dir copy --public-key journal.pub --witness-file witness.json >"$out" 2>"$err"
check "verify of the copy with the key and the saved witness agrees" grep -q "^witness: journal $uuid agrees with ConfigMap koord-queue/koordq-journal-witness (witness file witness.json) up to seq $witnessed " "$out"
run journal verify --journal-dir "$journal" --public-key "$scratch/journal.pub" --witness --kubeconfig "$KUBECONFIG"
check "verify --witness reads it through the API server and agrees (exit 0)" test "$code" -eq 0
check "… up to the same seq" grep -q "^witness: journal $uuid agrees with ConfigMap koord-queue/koordq-journal-witness up to seq $witnessed " "$out"

# The attack: cut below the newest witnessed seq and re-sign HEAD with the journal's own key.
keep=$((witnessed - 5))
check "the journal is cut after seq $keep and HEAD re-signed with the real key" "$cut_tool" "$journal" "$keep" "$scratch/journal.key"
run journal verify --journal-dir "$journal" --public-key "$scratch/journal.pub"
check "plain verify --public-key passes on the cut journal" test "$code" -eq 0
check "… signed up to the cut" grep -q "^ok: .*seq 1\.\.$keep, head .*, signed by key [0-9a-f]\{16\} up to seq $keep\$" "$out"
run journal verify --journal-dir "$journal" --public-key "$scratch/journal.pub" --witness --kubeconfig "$KUBECONFIG"
check "verify --witness exits 1" test "$code" -eq 1
check "… with one line" test "$(wc -l <"$err")" -eq 1
check "… naming the cut, the witnessed seq and where" grep -q "^koordq journal verify: witness: the journal ends at seq $keep, but ConfigMap koord-queue/koordq-journal-witness witnessed seq $witnessed with head [0-9a-f]\{64\} at .*: the records after seq $keep were cut\$" "$err"
run journal verify --journal-dir "$journal" --witness-file "$scratch/witness.json"
check "verify --witness-file exits 1 on it too" test "$code" -eq 1

# serve on the cut journal writes new records past the cut, but never over the evidence.
before=$(witness_json | jq -r .metadata.resourceVersion)
log="$scratch/serve-cut.log"
KUBECONFIG="$sa_kubeconfig" start_serve "$log" --journal-dir "$journal" --journal-signing-key-file "$scratch/journal.key" \
  --journal-witness-period 1s --leader-elect-retry-period 500ms --enable-visibility-server=false --v=2 ||
  fail "serve did not start on the cut journal"
check "serve on the cut journal logs that the journal disagrees with its witness" eventually 30 grep -q \
  '^E.*journal witness: the journal disagrees with its witness, which is left as it is' "$log"
sleep 3
check "… and leaves the witness unchanged" test "$(witness_json | jq -r .metadata.resourceVersion)" = "$before"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM: exit 0" test $? = 0
run journal verify --journal-dir "$journal" --public-key "$scratch/journal.pub" --witness --kubeconfig "$KUBECONFIG"
check "the restarted, re-signed journal still disagrees with its witness (exit 1)" test "$code" -eq 1
finish
