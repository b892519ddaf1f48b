#!/usr/bin/env python3
"""Writes koordq-dashboard.json, the Grafana dashboard for koordq (and Koord-Queue).

The JSON is the artifact operators import; this script is how it is kept consistent (ids, grid
positions, the datasource and job selectors on every panel). Edit the panels here, then run
`python3 ops/grafana/build-dashboard.py > ops/grafana/koordq-dashboard.json`; the end-to-end test
fails when the two differ.

Units: cpu in cores (Koord-Queue's quota gauge is in millicores and is divided by 1000), memory in
bytes, the two Koord-Queue latency histograms in milliseconds, koordq's own histograms in seconds.
"""
import json
import sys

DS = {"type": "prometheus", "uid": "${datasource}"}
J = 'job=~"$job"'

panels = []
next_id = 100  # ids below 100 are Koord-Queue's panel ids, kept for links that point at them
cursor_y = 0


def new_id():
    global next_id
    next_id += 1
    return next_id


def row(title):
    global cursor_y
    panels.append({"id": new_id(), "type": "row", "title": title, "collapsed": False,
                   "gridPos": {"h": 1, "w": 24, "x": 0, "y": cursor_y}, "panels": []})
    cursor_y += 1


def target(ref, expr, legend):
    return {"refId": ref, "datasource": DS, "expr": expr, "legendFormat": legend}


def place(panel, w, h, x):
    panel["gridPos"] = {"h": h, "w": w, "x": x, "y": cursor_y}
    panels.append(panel)


def timeseries(title, unit, targets, description, pid=None, log_axis=False, stack=False):
    custom = {"drawStyle": "line", "lineWidth": 1, "fillOpacity": 10, "showPoints": "never",
              "spanNulls": False}
    if log_axis:
        custom["scaleDistribution"] = {"type": "log", "log": 10}
    if stack:
        custom["stacking"] = {"mode": "normal", "group": "A"}
    return {"id": pid or new_id(), "type": "timeseries", "title": title, "description": description,
            "datasource": DS,
            "fieldConfig": {"defaults": {"unit": unit, "custom": custom}, "overrides": []},
            "options": {"legend": {"displayMode": "table", "placement": "bottom", "showLegend": True,
                                   "calcs": ["lastNotNull", "max"]},
                        "tooltip": {"mode": "multi", "sort": "desc"}},
            "targets": [target(chr(ord("A") + i), e, l) for i, (e, l) in enumerate(targets)]}


# No thresholds: @grafana/schema types ThresholdsConfig.mode as a TypeScript enum, which a JSON
# string cannot satisfy under the dashboard check, so the panels keep Grafana's default colours.
def stat(title, unit, expr, legend, description):
    return {"id": new_id(), "type": "stat", "title": title, "description": description,
            "datasource": DS,
            "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
            "options": {"reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
                        "colorMode": "value", "graphMode": "none", "textMode": "value_and_name",
                        "justifyMode": "auto", "orientation": "auto"},
            "targets": [target("A", expr, legend)]}


def pair(left, right, h=8):
    global cursor_y
    place(left, 12, h, 0)
    place(right, 12, h, 12)
    cursor_y += h


def four(*ps, h=4):
    global cursor_y
    for i, p in enumerate(ps):
        place(p, 6, h, 6 * i)
    cursor_y += h


CORES = "suffix: cores"
Q_CPU = f'dequeued_quota_usage_by_quota{{{J}, resource="cpu", quota=~"$quota"}}'
N_CPU = f'dequeued_quota_usage_by_namespace{{{J}, resource="cpu", namespace=~"$namespace"}}'

# ---- Koord-Queue's panels, in English, with units ------------------------------------------------
row("Resource usage per quota")
pair(timeseries("Dequeued CPU by quota", CORES, [(f"{Q_CPU} / 1000", "{{quota}}")],
                "CPU held by admitted units, per quota (the quota's Used; the gauge is in millicores).",
                pid=6),
     timeseries("Dequeued CPU by namespace", CORES, [(N_CPU, "{{namespace}}")],
                "CPU held by admitted units, per namespace of the units.", pid=8))
pair(timeseries("Dequeued memory by quota", "bytes",
                [(f'dequeued_quota_usage_by_quota{{{J}, resource="memory", quota=~"$quota"}}', "{{quota}}")],
                "Memory held by admitted units, per quota.", pid=24),
     timeseries("Dequeued memory by namespace", "bytes",
                [(f'dequeued_quota_usage_by_namespace{{{J}, resource="memory", namespace=~"$namespace"}}',
                  "{{namespace}}")],
                "Memory held by admitted units, per namespace.", pid=25))
pair(timeseries("Dequeued $resource by quota", "short",
                [(f'dequeued_quota_usage_by_quota{{{J}, resource=~"$resource", quota=~"$quota"}}',
                  "{{quota}}/{{resource}}")],
                "The quota's Used for the chosen resources, in their integer units (cpu in millicores, "
                "memory in bytes, extended resources in units).", pid=26),
     timeseries("Dequeued $resource by namespace", "short",
                [(f'dequeued_quota_usage_by_namespace{{{J}, resource=~"$resource", namespace=~"$namespace"}}',
                  "{{namespace}}/{{resource}}")],
                "Charge of the namespace's admitted units for the chosen resources (cpu in cores, "
                "others in integer units).", pid=27))

row("Queue units")
pair(timeseries("Queue units per namespace and job type", "short",
                [(f'queueunits_by_job_type{{{J}, namespace=~"$namespace"}}', "{{namespace}}/{{type}}")],
                "Existing QueueUnits by spec.consumerRef.kind.", pid=30),
     timeseries("Arrival rate per namespace", "ops",
                [(f'sum by (namespace) (rate(queueunits_coming_rate_by_job_type{{{J}, status="Enqueued", '
                  f'namespace=~"$namespace"}}[$interval]))', "{{namespace}}"),
                 (f'sum by (namespace, type) (rate(queueunits_coming_rate_by_job_type{{{J}, status="Enqueued", '
                  f'namespace=~"$namespace"}}[$interval]))', "{{namespace}}/{{type}}")],
                "Units entering Enqueued per second: new units and re-enqueued ones.", pid=31))
pair(timeseries("Waiting units per queue", "short",
                [(f'queueunits_in_active_queue{{{J}, queue=~"$queue"}}', "{{queue}} active"),
                 (f'queueunits_in_backoff_queue{{{J}, queue=~"$queue"}}', "{{queue}} backoff")],
                "Units waiting in each queue's active and backoff sub-queues (leader only).", pid=4),
     timeseries("Phase transitions per second", "ops",
                [(f'sum by (status) (rate(queueunits_coming_rate_by_job_type{{{J}, namespace=~"$namespace"}}'
                  f'[$interval]))', "{{status}}")],
                "Units entering each effective phase per second, over the chosen namespaces."))

row("Scheduling")
pair(timeseries("Scheduling attempts per second", "ops",
                [(f'sum by (queue) (rate(job_schedule_attempts{{{J}, queue=~"$queue", result="scheduled"}}'
                  f'[$interval]))', "{{queue}} scheduled"),
                 (f'sum by (queue) (rate(job_schedule_attempts{{{J}, queue=~"$queue", result="unschedulable"}}'
                  f'[$interval]))', "{{queue}} unschedulable")],
                "Attempts by outcome: scheduled (admitted) or unschedulable.", pid=10),
     timeseries("Scheduling latency p99", "ms",
                [(f'histogram_quantile(0.99, sum by (le) (rate(job_scheduling_algorithm_latency_bucket{{{J}}}'
                  f'[$interval])))', "quota check p99"),
                 (f'histogram_quantile(0.99, sum by (le) (rate(job_scheduling_e2e_latency_bucket{{{J}}}'
                  f'[$interval])))', "creation to admission p99")],
                "p99 of one quota check (wall time) and of creation to first admission; log scale.",
                pid=2, log_axis=True))
pair(timeseries("End-to-end latency (creation to admission)", "ms",
                [(f'histogram_quantile({q}, sum by (le) (rate(job_scheduling_e2e_latency_bucket{{{J}}}'
                  f'[$interval])))', f"p{int(float(q) * 100)}") for q in ("0.5", "0.9", "0.99")],
                "From a unit's creationTimestamp to koordq's first Dequeued write for it."),
     timeseries("Quota check latency", "ms",
                [(f'histogram_quantile({q}, sum by (le) (rate(job_scheduling_algorithm_latency_bucket{{{J}}}'
                  f'[$interval])))', f"p{int(float(q) * 100)}") for q in ("0.5", "0.9", "0.99")],
                "Wall time of one quota check, measured around the check."))
pair(timeseries("Admission wait per queue (p90)", "s",
                [(f'histogram_quantile(0.9, sum by (queue, le) (rate(koordq_admission_wait_seconds_bucket{{{J}, '
                  f'queue=~"$queue"}}[$interval])))', "{{queue}}")],
                "Seconds from creation, or the last re-enqueue, to admission; 90th percentile per queue."),
     timeseries("Admissions per second per queue", "ops",
                [(f'sum by (queue) (rate(koordq_admission_wait_seconds_count{{{J}, queue=~"$queue"}}'
                  f'[$interval]))', "{{queue}}")],
                "Admissions from Enqueued per second (top-ups are not counted)."))

row("Controller resource usage")
pair(timeseries("Controller CPU usage", CORES,
                [(f"rate(process_cpu_seconds_total{{{J}}}[$interval])", "{{instance}}")],
                "User and system CPU of each replica.", pid=16),
     timeseries("Controller memory usage", "bytes",
                [(f"process_resident_memory_bytes{{{J}}}", "{{instance}}")],
                "Resident set size of each replica.", pid=18))
pair(timeseries("Kube API request rate", "reqps",
                [(f'sum by (method) (rate(rest_client_requests_total{{{J}, code=~"{c}.."}}[$interval]))',
                  f"{c}xx {{{{method}}}}") for c in "2345"],
                "Requests koordq sends to the API server, by answer class and method.", pid=32),
     timeseries("Kube API request latency p99", "s",
                [(f"histogram_quantile(0.99, sum by (verb, host, le) (rate(rest_client_request_duration_seconds_bucket"
                  f"{{{J}}}[$interval])))", "{{verb}} {{host}}")],
                "Latency of API requests (watches: until response headers).", pid=33))

# ---- koordq: leader, journal, ingest, time travel --------------------------------------------------
row("koordq replicas and journal")
four(stat("Leader", "none", f"koordq_leader{{{J}}}", "{{instance}}",
          "1 on the replica that holds the Lease and decides; every other replica shows 0."),
     stat("Last applied revision", "none", f"koordq_last_applied_sequence{{{J}}}", "{{instance}}",
          "Sequence of the last journal record applied to the live state (the revision of time travel)."),
     stat("Journal quarantines", "none", f"koordq_journal_quarantines_total{{{J}}}", "{{instance}}",
          "Corrupt journals moved aside at start by this process (--journal-on-corruption)."),
     stat("Apply backlog", "short",
          f"koordq_journal_last_sequence{{{J}}} - koordq_last_applied_sequence{{{J}}}", "{{instance}}",
          "Durable records not yet applied to the live state."))
pair(timeseries("Journal append rate", "short",
                [(f"rate(koordq_journal_appended_records_total{{{J}}}[$interval])", "{{instance}} records/s")],
                "Records appended to each replica's journal per second."),
     timeseries("Journal bytes appended", "Bps",
                [(f"rate(koordq_journal_appended_bytes_total{{{J}}}[$interval])", "{{instance}}")],
                "Bytes appended to each replica's journal per second."))
pair(timeseries("Journal fsync latency", "s",
                [(f"histogram_quantile({q}, sum by (instance, le) (rate(koordq_journal_fsync_duration_seconds_bucket"
                  f"{{{J}}}[$interval])))", f"{{{{instance}}}} p{int(float(q) * 100)}") for q in ("0.5", "0.99")],
                "Duration of each group-commit fsync."),
     timeseries("Records per fsync", "short",
                [(f"histogram_quantile({q}, sum by (instance, le) (rate(koordq_journal_fsync_batch_records_bucket"
                  f"{{{J}}}[$interval])))", f"{{{{instance}}}} p{int(float(q) * 100)}") for q in ("0.5", "0.99")],
                "Records made durable by one fsync (group commit)."))
pair(timeseries("Ingest lag", "s",
                [(f"koordq_journal_ingest_lag_seconds{{{J}}}", "{{instance}}")],
                "Age of the oldest received watch event not yet durable; 0 when none is pending."),
     timeseries("Relists", "short",
                [(f"increase(koordq_relists_total{{{J}}}[$interval])", "{{instance}} {{resource}}")],
                "LISTs per watched resource in the interval: the initial LIST and every relist after an "
                "expired watch."))
pair(timeseries("Journal revisions", "none",
                [(f"koordq_journal_last_sequence{{{J}}}", "{{instance}} durable"),
                 (f"koordq_last_applied_sequence{{{J}}}", "{{instance}} applied")],
                "Sequence of the last durable record and of the last record applied to the live state."),
     timeseries("Open file descriptors", "short",
                [(f"process_open_fds{{{J}}}", "{{instance}}")],
                "File descriptors each replica holds open (connections and journal files)."))
pair(timeseries("Time-travel queries", "reqps",
                [(f"sum by (result) (rate(koordq_timetravel_queries_total{{{J}}}[$interval]))", "{{result}}")],
                "Visibility and debug requests carrying asOf or revision, by result."),
     timeseries("Time-travel query duration", "s",
                [(f"histogram_quantile({q}, sum by (le) (rate(koordq_timetravel_query_duration_seconds_bucket"
                  f"{{{J}}}[$interval])))", f"p{int(float(q) * 100)}") for q in ("0.5", "0.99")],
                "From receipt of a time-travel request to the end of its answer (hit and miss)."))

def query_var(name, label, query, description):
    return {"name": name, "label": label, "type": "query", "description": description, "datasource": DS,
            "query": {"query": query, "refId": f"{name}-variable"},
            "refresh": 2, "includeAll": True, "multi": True, "allValue": ".*", "sort": 1,
            "current": {"text": "All", "value": "$__all"}, "options": []}


intervals = "5m,10m,30m,1h,6h,12h,1d,7d,14d,30d"
dashboard = {
    "uid": "koordq-overview",
    "title": "koordq",
    "description": "koordq (Koord-Queue compatible): quota usage, queues, scheduling, the Kubernetes "
                   "client, the leader and the journal. Works for Koord-Queue's exporter too.",
    "tags": ["koordq", "koord-queue"],
    "schemaVersion": 39,
    "editable": True,
    "graphTooltip": 1,
    "refresh": "30s",
    "time": {"from": "now-1h", "to": "now"},
    "timezone": "browser",
    "links": [],
    "annotations": {"list": [{"builtIn": 1, "datasource": {"type": "grafana", "uid": "-- Grafana --"},
                              "enable": True, "hide": True, "iconColor": "rgba(0, 211, 255, 1)",
                              "name": "Annotations & Alerts", "type": "dashboard"}]},
    "templating": {"list": [
        {"name": "datasource", "label": "Data source", "type": "datasource", "query": "prometheus",
         "description": "The Prometheus that scrapes koordq.", "regex": "", "refresh": 1,
         "options": []},
        {"name": "job", "label": "Job", "type": "query", "datasource": DS,
         "description": "Scrape job of koordq's metrics port (ops/prometheus/exporter.yaml).",
         "query": {"query": "label_values(job_scheduling_algorithm_latency_count, job)",
                   "refId": "job-variable"},
         "refresh": 1,
         "includeAll": False, "multi": False, "sort": 1,
         "current": {"text": "koord-queue-exporter", "value": "koord-queue-exporter"},
         "options": [{"text": "koord-queue-exporter", "value": "koord-queue-exporter", "selected": True}]},
        {"name": "interval", "label": "Rate window", "type": "interval", "query": intervals,
         "description": "Window of the rates and quantiles.", "refresh": 2,
         "current": {"text": "5m", "value": "5m"},
         "options": [{"text": v, "value": v, "selected": v == "5m"} for v in intervals.split(",")]},
        query_var("quota", "Quota", 'label_values(dequeued_quota_usage_by_quota{job=~"$job"}, quota)',
                  "ElasticQuotas."),
        query_var("namespace", "Namespace",
                  'label_values(dequeued_quota_usage_by_namespace{job=~"$job"}, namespace)',
                  "Namespaces of the QueueUnits."),
        query_var("resource", "Resource", 'label_values(dequeued_quota_usage_by_quota{job=~"$job"}, resource)',
                  "Resource names of the quota panels ($resource)."),
        query_var("queue", "Queue", 'label_values(queueunits_in_active_queue{job=~"$job"}, queue)',
                  "Queues (one per quota)."),
    ]},
    "panels": panels,
}

json.dump(dashboard, sys.stdout, indent=2, ensure_ascii=False)
sys.stdout.write("\n")
