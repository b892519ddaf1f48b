#include "replay/explain_summary.hpp"

#include <iterator>
#include <vector>

#include "actors/core/unit_facts.hpp"
#include "base/go_duration.hpp"

namespace koordq::replay {
namespace {

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

// `cpu=2,memory=1Gi` (bytewise order), `<none>` when empty: the request of §8.1 as written.
std::string request_text(const schema::QueueUnit& u) {
  const schema::ResourceList& list = u.spec.resource.empty() ? u.spec.request : u.spec.resource;
  if (list.empty()) return "<none>";
  std::string out;
  for (const auto& [name, quantity] : list) out += (out.empty() ? "" : ",") + name + "=" + quantity;
  return out;
}

std::string or_none(const std::string& text) {
  return text.empty() ? "<none>" : text;
}

int64_t priority_of(const schema::QueueUnit& u) {
  return u.spec.priority.value_or(0);
}

bool active_of(const schema::QueueUnit& u) {
  return u.spec.active.value_or(true);
}

struct AdmissionTotals {
  int64_t replicas = 0;
  int64_t running = 0;
  int64_t reclaim = 0;
};

AdmissionTotals totals_of(const schema::QueueUnit& u) {
  AdmissionTotals t;
  for (const auto& a : u.status.admissions) {
    t.replicas += a.replicas;
    t.running += a.running;
    if (a.reclaim_state) t.reclaim += a.reclaim_state->replicas;
  }
  return t;
}

std::string change(const std::string& what, const std::string& from, const std::string& to) {
  return what + " " + from + " -> " + to;
}

const char* event_word(wire::Watch::EventType event) {
  switch (event) {
    case wire::Watch::EventType::ADDED:
      return "ADDED";
    case wire::Watch::EventType::MODIFIED:
      return "MODIFIED";
    case wire::Watch::EventType::DELETED:
      return "DELETED";
    default:
      return "BOOKMARK";
  }
}

// What changed between two observations of the same UID, in the words of §5 and §8.
std::vector<std::string> object_changes(const schema::QueueUnit& a, const schema::QueueUnit& b) {
  std::vector<std::string> out;
  const actors::Phase pa = actors::effective_phase(a.status.phase);
  const actors::Phase pb = actors::effective_phase(b.status.phase);
  if (pa != pb) out.push_back(change("phase", actors::phase_name(pa), actors::phase_name(pb)));
  if (priority_of(a) != priority_of(b)) {
    out.push_back(change("priority", std::to_string(priority_of(a)), std::to_string(priority_of(b))));
  }
  if (request_text(a) != request_text(b)) out.push_back(change("request", request_text(a), request_text(b)));
  const std::string qa = actors::quota_name_of(a);
  const std::string qb = actors::quota_name_of(b);
  if (qa != qb) out.push_back(change("quota", or_none(qa), or_none(qb)));
  if (a.spec.queue != b.spec.queue) out.push_back(change("spec.queue", or_none(a.spec.queue), or_none(b.spec.queue)));
  if (active_of(a) != active_of(b)) out.push_back(active_of(b) ? "reactivated" : "deactivated (spec.active false)");
  if (a.spec.maximum_execution_time_seconds != b.spec.maximum_execution_time_seconds) {
    out.push_back("maximumExecutionTimeSeconds changed");
  }
  schema::QueueUnitSpec sa = a.spec;
  schema::QueueUnitSpec sb = b.spec;
  sa.priority = sb.priority;
  sa.resource = sb.resource;
  sa.request = sb.request;
  sa.queue = sb.queue;
  sa.active = sb.active;
  sa.maximum_execution_time_seconds = sb.maximum_execution_time_seconds;
  if (sa != sb) out.push_back("spec changed");
  if (a.metadata.labels != b.metadata.labels && qa == qb) out.push_back("labels changed");
  if (a.metadata.annotations != b.metadata.annotations) out.push_back("annotations changed");
  const AdmissionTotals ta = totals_of(a);
  const AdmissionTotals tb = totals_of(b);
  if (ta.replicas != tb.replicas) {
    out.push_back(change("admitted replicas", std::to_string(ta.replicas), std::to_string(tb.replicas)));
  }
  if (ta.running != tb.running)
    out.push_back(change("running", std::to_string(ta.running), std::to_string(tb.running)));
  if (ta.reclaim != tb.reclaim) {
    out.push_back(change("reclaim replicas", std::to_string(ta.reclaim), std::to_string(tb.reclaim)));
  }
  if (a.status.admission_checks != b.status.admission_checks) out.push_back("admission checks changed");
  if (a.status.attempts != b.status.attempts) {
    out.push_back(change("attempts", std::to_string(a.status.attempts), std::to_string(b.status.attempts)));
  }
  if (a.status.message != b.status.message) out.push_back("status message updated");
  if (!a.metadata.deletion_timestamp && b.metadata.deletion_timestamp) out.push_back("deletion requested");
  return out;
}

bool backoff_running(const UnitSeen& u, int64_t now) {
  return u.present && u.backoff_until && *u.backoff_until > now;
}

std::string transition(const UnitSeen& before, const UnitSeen& after) {
  if (!before.present || !after.present || before.phase == after.phase) return {};
  return "; " + change("phase", actors::phase_name(before.phase), actors::phase_name(after.phase));
}

const char* write_kind_text(actors::WriteKind k) {
  switch (k) {
    case actors::WriteKind::kStatusPatch:
      return "status patch";
    case actors::WriteKind::kSpecQueuePatch:
      return "spec.queue patch";
    case actors::WriteKind::kQueueWrite:
      return "queue write";
    case actors::WriteKind::kEvent:
      return "event";
  }
  return "write";
}

const char* result_text(actors::OutcomeResult r) {
  switch (r) {
    case actors::OutcomeResult::kSuccess:
      return "success";
    case actors::OutcomeResult::kConflict:
      return "write conflict";
    case actors::OutcomeResult::kNotFound:
      return "not found";
    case actors::OutcomeResult::kError:
      return "error";
    case actors::OutcomeResult::kUnknown:
      return "unknown (no answer before a restart)";
  }
  return "unknown";
}

}  // namespace

UnitSeen unit_seen(const actors::Scheduler& state, const std::string& key, const std::string& uid) {
  UnitSeen s;
  const auto it = state.units().find(key);
  if (it == state.units().end() || it->second.object.metadata.uid != uid) return s;
  const actors::UnitState& u = it->second;
  s.present = true;
  s.phase = u.phase;
  s.object = u.object;
  s.waiting = u.waiting;
  s.holds = u.holds;
  s.key = u.key;
  s.backoff_until = u.backoff_until;
  s.failures = u.failures;
  return s;
}

std::optional<int64_t> position_of(const actors::Scheduler& state, const UnitSeen& seen) {
  if (!seen.present || !seen.waiting) return std::nullopt;
  for (const auto& [name, q] : state.queues()) {
    const auto it = q.waiting.find(seen.key);
    if (it != q.waiting.end()) return static_cast<int64_t>(std::distance(q.waiting.begin(), it)) + 1;
  }
  return std::nullopt;
}

bool is_attempt(const actors::Decision& d) {
  return (d.kind == actors::DecisionKind::kAdmit || d.kind == actors::DecisionKind::kReserve ||
          d.kind == actors::DecisionKind::kFail) &&
         d.status_patch && d.status_patch->attempts;
}

std::string watch_summary(wire::Watch::EventType event, bool synthesized, const UnitSeen& before, const UnitSeen& after,
                          int64_t now) {
  std::string s = event_word(event);
  if (event == wire::Watch::EventType::DELETED) {
    if (synthesized) s += " (synthesised by a relist)";
    if (before.present) s += std::string(": was ") + actors::phase_name(before.phase);
    return s;
  }
  if (!after.present) return s;
  const schema::QueueUnit& o = after.object;
  if (!before.present) {
    s += std::string(": phase ") + actors::phase_name(after.phase) + ", priority " + std::to_string(priority_of(o)) +
         ", quota " + or_none(actors::quota_name_of(o));
    if (!o.spec.queue.empty()) s += ", spec.queue " + o.spec.queue;
    s += ", request " + request_text(o);
    if (!active_of(o)) s += ", inactive";
    return s;
  }
  std::vector<std::string> changes = object_changes(before.object, o);
  if (backoff_running(before, now) && !backoff_running(after, now)) changes.push_back("backoff ended");
  s += " (resourceVersion " + o.metadata.resource_version + "): ";
  s += changes.empty() ? "no change in phase, spec, labels or admissions" : join(changes, ", ");
  return s;
}

std::string decision_summary(const actors::Decision& d, const UnitSeen& before, const UnitSeen& after, int64_t now,
                             bool with_transition) {
  std::string s = actors::decision_kind_name(d.kind);
  if (!d.reason.empty()) s += ": " + d.reason;
  if (is_attempt(d)) s += " (attempt " + std::to_string(*d.status_patch->attempts) + ")";
  switch (d.kind) {
    case actors::DecisionKind::kFail:
      if (backoff_running(after, now)) {
        s += "; backoff " + base::format_go_duration(*after.backoff_until - now) + " after " +
             std::to_string(after.failures) + (after.failures == 1 ? " failure" : " failures");
      }
      if (!d.victims.empty()) {
        std::vector<std::string> victims;
        for (const auto& v : d.victims) {
          victims.push_back(v.unit.namespace_ + "/" + v.unit.name + " (" + std::to_string(v.replicas) +
                            (v.replicas == 1 ? " replica)" : " replicas)"));
        }
        s += "; preemptor of " + join(victims, ", ");
      }
      break;
    case actors::DecisionKind::kPreempt:
      if (!d.victims.empty()) {
        const int64_t n = d.victims.front().replicas;
        s += "; victim: " + std::to_string(n) + (n == 1 ? " replica" : " replicas") + " marked for reclaim";
      }
      break;
    case actors::DecisionKind::kAdmit:
    case actors::DecisionKind::kReserve:
      if (d.spec_queue_patch) s += "; spec.queue set to " + *d.spec_queue_patch;
      break;
    default:
      break;
  }
  if (with_transition) s += transition(before, after);
  return s;
}

std::string outcome_summary(const actors::Outcome& o, std::optional<actors::DecisionKind> decided,
                            const UnitSeen& before, const UnitSeen& after) {
  std::string s = std::string(write_kind_text(o.write_kind)) + " of #" + std::to_string(o.decision_seq);
  if (decided) s += std::string(" (") + actors::decision_kind_name(*decided) + ")";
  s += std::string(": ") + result_text(o.result);
  if (o.http_code != 0) s += " (HTTP " + std::to_string(o.http_code) + ")";
  if (!o.resource_version.empty()) s += ", resourceVersion " + o.resource_version;
  if (before.present && before.holds && after.present && !after.holds) s += "; reservation released";
  s += transition(before, after);
  return s;
}

}  // namespace koordq::replay
