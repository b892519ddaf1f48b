#!/usr/bin/env bash
# Invalid quantities on a real kube-apiserver (behaviour.md §3.1): the QueueUnit CRD takes an
# integer or any non-empty string, so units whose spec.resource says cpu "abc", memory "1.5.5Gi",
# cpu "-5" or cpu "1e40" reach koordq (cpu "" the CRD refuses; the unit tests cover it). None is admitted, even into an empty quota; each gets the status
# message and one Warning event InvalidQuantity naming the field and the value, and `koordq explain`
# tells the same words. Fixed, a unit is admitted. The journal verifies after a restart.
# Usage: cluster_quantities_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: cluster_quantities_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/cluster_lib.sh
. "$(dirname "$0")/cluster_lib.sh"

journal="$scratch/journal"
log="$scratch/serve.log"

{
  cat <<'YAML'
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: default}
spec: {max: {cpu: "4", memory: 8Gi}}
YAML
  for form in 'abc:cpu:abc' 'dots:memory:1.5.5Gi' 'negative:cpu:-5' 'huge:cpu:1e40'; do
    IFS=: read -r name resource value <<<"$form"
    cat <<YAML
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: QueueUnit
metadata: {name: $name, namespace: default, labels: {quota.scheduling.koordinator.sh/name: team-a}}
spec: {resource: {$resource: "$value"}}
YAML
  done
} >"$scratch/objects.yaml"
check "kubectl creates the quota and four units with invalid quantities" k apply -f "$scratch/objects.yaml"

if ! start_serve "$log" --leader-elect=false --journal-dir "$journal" --visibility-port 0 --v=2; then
  echo "FAIL: koordq serve did not start; its log:"
  tail -n 20 "$log"
  exit 1
fi
check "the Queue team-a is created" eventually 15 k get queue -n koord-queue team-a

message_of() { k get queueunit -n default "$1" -o 'jsonpath={.status.message}'; }
has_message() { message_of "$1" | grep -qF "invalid resource quantity, not admitted until fixed: $2"; }
warning_of() {
  k get events -n default -o json | jq -r --arg o "$1" \
    '[.items[] | select(.involvedObject.name == $o and .reason == "InvalidQuantity")][0] | "\(.type)|\(.message)"'
}
has_warning() { warning_of "$1" | grep -qF "Warning|invalid resource quantity, not admitted until fixed: $2"; }
for form in 'abc|spec.resource["cpu"] "abc" does not parse' \
  'dots|spec.resource["memory"] "1.5.5Gi" does not parse' 'negative|spec.resource["cpu"] "-5" is negative' \
  'huge|spec.resource["cpu"] "1e40" is too large'; do
  name=${form%%|*}
  text=${form#*|}
  check "$name: the status message names the field and the value" eventually 15 has_message "$name" "$text"
  check "$name: a Warning event InvalidQuantity says the same" eventually 15 has_warning "$name" "$text"
  check "$name: not admitted" test -z "$(k get queueunit -n default "$name" -o 'jsonpath={.status.admissions}')"
done
sleep 3
check "no unit with an invalid quantity is Dequeued (the quota is empty)" test \
  "$(k get queueunit -n default -o json | jq '[.items[] | select(.status.phase == "Dequeued")] | length')" = 0
k get events -n default -o json >"$scratch/events.json"
check "each unit got one event, not one per round" jq -e \
  '[.items[] | select(.reason == "InvalidQuantity")] | length == 4 and all(.[]; (.count // 1) == 1)' "$scratch/events.json"

k patch queueunit -n default abc --type merge -p '{"spec":{"resource":{"cpu":"1"}}}' >/dev/null
check "fixed, the unit is admitted" eventually 15 sh -c \
  "test \"\$('$KOORDQ_KUBECTL' --kubeconfig '$KUBECONFIG' get queueunit -n default abc -o 'jsonpath={.status.phase}')\" = Dequeued"

kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM: exit 0" test $? = 0
run explain default/negative --journal-dir "$journal"
check "explain tells the same words" grep -qF 'invalidQuantities: spec.resource["cpu"] "-5" is negative' "$out"
verify_journal "the journal" "$journal"

finish
