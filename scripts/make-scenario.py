#!/usr/bin/env python3
"""Writes a large simulator scenario (docs/scenario.md) to standard output.

  scripts/make-scenario.py --queues 1000 --units 10000 > large.yaml
  koordq serve --simulate --scenario large.yaml --simulate-clock virtual --simulate-duration 1h

An organisation root, --departments department quotas, and --queues team quotas spread over them,
each with its Queue (Priority or Block, alternating) and one job class whose units stay at most
--units / --queues live, so about --units units are in the cluster at once once it fills. Teams
ask for more than their department holds, so admission waits on quotas at both levels.
"""
import argparse
import sys


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--queues", type=int, default=1000, help="team quotas, each with its Queue (default 1000)")
    p.add_argument("--units", type=int, default=10000, help="live units the cluster holds at most (default 10000)")
    p.add_argument("--departments", type=int, default=20, help="department quotas under the root (default 20)")
    p.add_argument("--run-time", default="{mean: 15m, min: 1m, max: 1h}", help="job run time distribution")
    a = p.parse_args()
    if a.queues < 1 or a.units < a.queues or a.departments < 1:
        print("make-scenario.py: need --queues >= 1, --units >= --queues, --departments >= 1", file=sys.stderr)
        return 2
    per_queue = a.units // a.queues
    # Each team's cap is 4 cpu per live unit it may hold, its department half of what its teams ask.
    teams_per_department = -(-a.queues // a.departments)
    out = sys.stdout.write
    out(f"name: large-{a.queues}q-{a.units}u\n")
    out(f"description: {a.queues} queues under {a.departments} departments, about {a.units} live units\n")
    out("queueNamespace: koord-queue\nconflictPercent: 0.5\nquotas:\n")
    out(f"  - name: org\n    max: {{cpu: \"{4 * a.units}\", memory: {16 * a.units}Gi}}\n")
    for d in range(a.departments):
        cpu = 2 * per_queue * teams_per_department
        out(f"  - name: dept-{d:03d}\n    parent: org\n    max: {{cpu: \"{cpu}\", memory: {4 * cpu}Gi}}\n")
    for q in range(a.queues):
        policy = "Block" if q % 2 else "Priority"
        cpu = 4 * per_queue
        out(f"  - name: team-{q:04d}\n    parent: dept-{q % a.departments:03d}\n    policy: {policy}\n"
            f"    max: {{cpu: \"{cpu}\", memory: {4 * cpu}Gi}}\n    min: {{cpu: \"1\", memory: 4Gi}}\n")
    out("queues:\n")
    for q in range(a.queues):
        out(f"  - name: team-{q:04d}\n")
    out("jobClasses:\n")
    for q in range(a.queues):
        out(f"  - name: t{q:04d}\n    kind: Job\n    namespaces: [ns-{q % 50:02d}]\n    quota: team-{q:04d}\n"
            f"    priorities: [0, 10, 100]\n    request: {{cpu: \"2\", memory: 8Gi}}\n"
            f"    arrivalsPerMinute: {per_queue / 4:.3f}\n    maxUnits: {per_queue}\n"
            f"    runTime: {a.run_time}\n    failurePercent: 2\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
