#!/usr/bin/env bash
# Offline check of a Grafana dashboard JSON (tests/e2e/ops_test.sh checks ops/grafana with it):
# - shape, with jq: the fields of Grafana's dashboard schema at the top level, in every panel (rows
#   and the panels they hold), target and template variable, no field the schema does not have,
#   their JSON types, gridPos inside the 24 columns, datasources as {type, uid} objects (not the
#   legacy name strings), unique panel ids, unique refIds within a panel;
# - the PromQL syntax of every panel expression, with promtool: the expressions, Grafana's variables
#   replaced ($__rate_interval and the like by 1m, a range holding a variable by [5m], any other
#   variable by an identifier), become recording rules that `promtool check rules` parses;
# - with --expr-must-match REGEX, every expression as written matches REGEX (jq's regex syntax).
# Usage: check-dashboard.sh [--expr-must-match REGEX] DASHBOARD.json
# Prints an ERROR line per problem, then "N errors"; exit 0 = clean, 1 = errors, 2 = usage or setup.
set -euo pipefail

usage() { echo "usage: check-dashboard.sh [--expr-must-match REGEX] DASHBOARD.json" >&2; exit 2; }
must_match=""
if [ "${1:-}" = --expr-must-match ]; then
  [ $# -ge 2 ] || usage
  must_match="$2"
  shift 2
fi
[ $# = 1 ] || usage
dashboard="$1"
for tool in jq promtool; do
  command -v "$tool" >/dev/null || { echo "check-dashboard: $tool is missing (scripts/install-deps.sh)" >&2; exit 2; }
done
[ -r "$dashboard" ] || { echo "check-dashboard: cannot read $dashboard" >&2; exit 2; }
if ! jq -e 'type == "object"' "$dashboard" >/dev/null 2>&1; then
  echo "ERROR $dashboard: not a JSON object"
  echo "1 errors"
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The shape: one line per problem.
# shellcheck disable=SC2016 # a jq program
jq -r --arg must_match "$must_match" '
  def problem($where; $what): "ERROR \($where): \($what)";
  def only($allowed; $where): (keys - $allowed)[] as $k | problem($where; "unknown field \($k)");
  def types($where; $want): . as $o | $want | to_entries[] as $e
    | select($o | has($e.key)) | ($o[$e.key] | type) as $t | select($e.value | split("|") | index($t) | not)
    | problem($where; "\($e.key) is \($t), not \($e.value)");
  def datasource($where): select(has("datasource")) | .datasource
    | if type == "object" and (.type | type) == "string" and (.uid | type) == "string" then empty
      else problem($where; "datasource must be an object with string type and uid, not \(tojson)") end;
  def target($where):
    only(["datasource", "editorMode", "exemplar", "expr", "format", "hide", "instant", "interval",
      "intervalFactor", "legendFormat", "range", "refId", "step"]; $where),
    types($where; {expr: "string", refId: "string", legendFormat: "string", instant: "boolean",
      range: "boolean", hide: "boolean", format: "string", interval: "string", exemplar: "boolean"}),
    (if has("refId") then empty else problem($where; "no refId") end),
    datasource($where);
  def panel($where):
    only(["cacheTimeout", "collapsed", "datasource", "description", "fieldConfig", "gridPos",
      "hideTimeOverride", "id", "interval", "libraryPanel", "links", "maxDataPoints", "maxPerRow",
      "options", "panels", "pluginVersion", "queryCachingTTL", "repeat", "repeatDirection", "targets",
      "timeFrom", "timeShift", "title", "transformations", "transparent", "type"]; $where),
    types($where; {id: "number", type: "string", title: "string", description: "string",
      collapsed: "boolean", gridPos: "object", fieldConfig: "object", options: "object",
      targets: "array", panels: "array", links: "array", transformations: "array",
      transparent: "boolean", maxDataPoints: "number", interval: "string"}),
    (if (.type | type) == "string" then empty else problem($where; "no type") end),
    (select(.gridPos | type == "object") | .gridPos
      | if ([.h, .w, .x, .y] | all(type == "number")) and .w >= 1 and .x >= 0 and .x + .w <= 24 then empty
        else problem("\($where).gridPos"; "h, w, x, y must be numbers within the 24 columns, not \(tojson)") end),
    datasource($where),
    (if (.targets | type) == "array" then .targets | to_entries[] | .key as $i | .value
      | if type == "object" then target("\($where).targets[\($i)]") else problem("\($where).targets[\($i)]"; "not an object") end
     else empty end),
    ([.targets[]?.refId? // empty] | group_by(.)[] | select(length > 1)
      | problem($where; "refId \(.[0]) appears \(length) times")),
    (if (.panels | type) == "array" then .panels | to_entries[] | .key as $i | .value
      | panel("\($where).panels[\($i)]") else empty end);
  def variable($where):
    types($where; {name: "string", type: "string", label: "string", hide: "number", multi: "boolean",
      includeAll: "boolean", options: "array", skipUrlSync: "boolean"}),
    (if .type | IN("adhoc", "constant", "custom", "datasource", "groupby", "interval", "query",
      "snapshot", "switch", "system", "textbox") then empty
     else problem($where; "type \(.type | tojson) is no variable type") end),
    datasource($where);

  only(["__elements", "__inputs", "__requires", "annotations", "description", "editable",
    "fiscalYearStartMonth", "gnetId", "graphTooltip", "id", "links", "liveNow", "panels", "refresh",
    "revision", "schemaVersion", "snapshot", "tags", "templating", "time", "timepicker", "timezone",
    "title", "uid", "version", "weekStart"]; "dashboard"),
  types("dashboard"; {title: "string", uid: "string", description: "string", schemaVersion: "number",
    version: "number", id: "number|null", editable: "boolean", graphTooltip: "number", refresh: "string",
    timezone: "string", tags: "array", links: "array", panels: "array", templating: "object",
    annotations: "object", time: "object"}),
  ((["panels", "schemaVersion", "title"] - keys)[] as $k | problem("dashboard"; "no \($k)")),
  (select(.time | type == "object") | .time | types("dashboard.time"; {from: "string", to: "string"})),
  (.templating.list? // [] | to_entries[] | .key as $i | .value | variable("templating.list[\($i)]")),
  (.annotations.list? // [] | to_entries[] | .key as $i | .value | datasource("annotations.list[\($i)]")),
  (if (.panels | type) == "array" then .panels | to_entries[] | .key as $i | .value | panel("panels[\($i)]") else empty end),
  ([.. | objects | select(has("gridPos")) | .id | numbers] | group_by(.)[] | select(length > 1)
    | problem("dashboard"; "panel id \(.[0]) appears \(length) times")),
  (. as $d | $must_match | select(. != "") as $re | $d | .. | objects | select(has("gridPos")) as $p | $p.targets[]?
    | select((.expr | type) == "string" and (.expr | test($re) | not))
    | problem("panel \($p.id)"; "expression does not match \($re): \(.expr)"))
' "$dashboard" >"$work/problems" || { echo "check-dashboard: jq failed on $dashboard" >&2; exit 2; }

# The expressions as recording rules (JSON is YAML), one per panel target.
# shellcheck disable=SC2016 # a jq program
jq '{groups: [{name: "dashboard", rules: [.. | objects | select(has("gridPos")) as $p | $p.targets[]?
  | select((.expr | type) == "string" and .expr != "")
  | {record: ("panel_\($p.id)_\(.refId // "")" | gsub("[^A-Za-z0-9_]"; "_")),
     expr: (.expr | gsub("\\[[^\\]]*\\$[^\\]]*\\]"; "[5m]")
       | gsub("\\$__(interval_ms|range_ms|range_s)"; "60")
       | gsub("\\$__(rate_interval|interval|range|auto)"; "1m")
       | gsub("\\$\\{\\w+(:[^}]*)?\\}|\\[\\[\\w+(:[^\\]]*)?\\]\\]|\\$\\w+"; "x"))}]}]}' \
  "$dashboard" >"$work/rules.json"
if ! promtool check rules "$work/rules.json" >"$work/promtool.out" 2>&1; then
  # Its findings name the rule, panel_<id>_<refId>; the parse errors are what matter.
  grep -E 'panel_|parse|error' "$work/promtool.out" | sed "s|^ *\($work/rules.json: \)\{0,1\}|ERROR promql: |" >>"$work/problems" ||
    sed 's/^/ERROR promtool: /' "$work/promtool.out" >>"$work/problems"
fi

cat "$work/problems"
errors=$(wc -l <"$work/problems")
exprs=$(jq '.groups[0].rules | length' "$work/rules.json")
echo "$errors errors ($exprs expressions, $dashboard)"
[ "$errors" = 0 ]
