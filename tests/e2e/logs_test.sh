#!/usr/bin/env bash
# The log lines of behaviour.md §20 at their verbosity, from a scripted run (the virtual-clock
# simulation of the default scenario, seed 3, two simulated minutes) at --v=0, 1, 2 and 3: each
# line appears at its level and none below it. Level 1: a queue's construction with its policy,
# wait-for-pods-running and max-depth, and every preemption round with its victims; level 2: each
# victim marked; level 3: every decision of a round.
# Usage: logs_test.sh path/to/koordq
set -uo pipefail

koordq="$(readlink -f "${1:?usage: logs_test.sh path/to/koordq}")"
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

count() { grep -cE "$2" "$scratch/v$1.log"; }
constructed='\] queue team-nlp constructed: policy Block, wait-for-pods-running false, max-depth 20, preemption disabled$'
preemption_round='\] preemption round in queue team-speech for [a-z0-9-]+/[a-z0-9-]+: victims \[[a-z0-9-]+/[a-z0-9-]+ \([0-9]+ replicas\)'
victim_marked='\] preemption in queue team-speech: [a-z0-9-]+/[a-z0-9-]+ marked for reclaim \([0-9]+ replicas\): Preempted by '
decision='\] round [0-9]+ decision [0-9]+ \(admit\) [a-z0-9-]+/[a-z0-9-]+ in queue team-[a-z]+: Dequeued because '

for v in 0 1 2 3; do
  (cd "$scratch" && timeout 300 "$koordq" serve --simulate --simulate-clock virtual --seed 3 --simulate-duration 120s \
    --journal-dir "$scratch/j$v" --metrics-bind-address 127.0.0.1:0 --visibility-port 0 --api-handler-port 0 \
    "--v=$v") >"$scratch/v$v.log" 2>&1
  check "the run at --v=$v exits 0" test $? -eq 0
done
for v in 0 1 2 3; do
  want1=$([ "$v" -ge 1 ] && echo yes || echo no)
  want2=$([ "$v" -ge 2 ] && echo yes || echo no)
  want3=$([ "$v" -ge 3 ] && echo yes || echo no)
  has() { [ "$(count "$v" "$1")" -gt 0 ] && echo yes || echo no; }
  check "--v=$v: queue construction logged: $want1" test "$(has "$constructed")" = "$want1"
  check "--v=$v: preemption rounds with their victims logged: $want1" test "$(has "$preemption_round")" = "$want1"
  check "--v=$v: each marked victim logged: $want2" test "$(has "$victim_marked")" = "$want2"
  check "--v=$v: every decision logged: $want3" test "$(has "$decision")" = "$want3"
done
check "each queue is constructed once" test "$(count 1 '\] queue team-nlp constructed')" -eq 1
check "a preemption round per victim marked" test "$(count 2 "$preemption_round")" -eq "$(count 2 "$victim_marked")"

finish
