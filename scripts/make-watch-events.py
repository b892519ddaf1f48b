#!/usr/bin/env python3
"""Writes watch events of a large cluster as `koordq journal import` reads them (NDJSON).

  scripts/make-watch-events.py --quotas 10000 --units 100000 | koordq journal import --journal-dir DIR -

An organisation root, --departments department quotas under it and team quotas under those, each
team with its Queue in namespace koord-queue, --quotas ElasticQuotas in all. --units QueueUnits
spread over the teams; the first team (team-00000) holds --big-queue of them, so that one queue is
larger than a page. Every third unit runs (phase Running with an admission, so it holds quota),
the rest wait (phase Enqueued). Events are 1 ms apart from 2026-01-01T00:00:00Z; then --modified
waiting units change priority, so revisions late in the journal differ from early ones.
"""
import argparse
import datetime
import json
import sys


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quotas", type=int, default=10000, help="ElasticQuotas in all (default 10000)")
    p.add_argument("--departments", type=int, default=100, help="department quotas under the root (default 100)")
    p.add_argument("--units", type=int, default=100000, help="QueueUnits (default 100000)")
    p.add_argument("--big-queue", type=int, default=2000, help="units of team-00000 (default 2000)")
    p.add_argument("--modified", type=int, default=1000, help="units modified at the end (default 1000)")
    a = p.parse_args()
    teams = a.quotas - 1 - a.departments
    if a.departments < 1 or teams < 1 or a.units < a.big_queue or a.big_queue < 0 or a.modified < 0:
        print("make-watch-events.py: need --departments >= 1, --quotas > --departments + 1, "
              "--units >= --big-queue >= 0, --modified >= 0", file=sys.stderr)
        return 2
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    seq = 0
    out = sys.stdout

    def emit(kind, obj):
        nonlocal seq
        t = start + datetime.timedelta(milliseconds=seq)
        seq += 1
        out.write(json.dumps({"type": kind, "time": t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", "object": obj},
                             separators=(",", ":")) + "\n")

    def quota(name, parent, is_parent, cpu):
        labels = {"quota.scheduling.koordinator.sh/is-parent": "true" if is_parent else "false"}
        if parent:
            labels["quota.scheduling.koordinator.sh/parent"] = parent
        if not is_parent:
            labels["koord-queue/queue-policy"] = "Priority"
        emit("ADDED", {"apiVersion": "scheduling.sigs.k8s.io/v1alpha1", "kind": "ElasticQuota",
                       "metadata": {"name": name, "namespace": "quotas", "uid": "q-" + name, "resourceVersion": str(seq + 1),
                                    "creationTimestamp": "2026-01-01T00:00:00Z", "labels": labels,
                                    "annotations": {"quota-koord-queue-enable": "true"}},
                       "spec": {"max": {"cpu": str(cpu), "memory": "%dGi" % (4 * cpu)},
                                "min": {"cpu": "1", "memory": "4Gi"}}})

    team_names = ["team-%05d" % t for t in range(teams)]
    quota("org", "", True, 4 * a.units)
    for d in range(a.departments):
        quota("dept-%03d" % d, "org", True, 4 * a.units // a.departments)
    for t, name in enumerate(team_names):
        quota(name, "dept-%03d" % (t % a.departments), False, 64)
    for name in team_names:
        emit("ADDED", {"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "Queue",
                       "metadata": {"name": name, "namespace": "koord-queue", "uid": "queue-" + name,
                                    "resourceVersion": str(seq + 1), "creationTimestamp": "2026-01-01T00:00:00Z"},
                       "spec": {"queuePolicy": "Priority", "priority": 0}})

    def unit(i, kind, priority):
        team = team_names[0] if i < a.big_queue else team_names[i % teams]
        running = i % 3 == 0
        status = {"phase": "Running", "admissions": [{"name": "koord-queue/default-requirement", "replicas": 1, "running": 1}]} \
            if running else {"phase": "Enqueued"}
        emit(kind, {"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "QueueUnit",
                    "metadata": {"name": "job-%06d" % i, "namespace": "ns-%02d" % (i % 50), "uid": "unit-%06d" % i,
                                 "resourceVersion": str(seq + 1), "creationTimestamp": "2026-01-01T00:00:%02dZ" % (i % 60),
                                 "labels": {"quota.scheduling.koordinator.sh/name": team}},
                    "spec": {"priority": priority, "queue": team, "resource": {"cpu": "1", "memory": "4Gi"}},
                    "status": status})

    for i in range(a.units):
        unit(i, "ADDED", i % 7)
    # Waiting units (never a multiple of 3) jump to the front of their queue.
    for i in range(min(a.modified, a.units)):
        unit(min(a.units - 1, i * (a.units // max(1, a.modified)) + 1), "MODIFIED", 100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
