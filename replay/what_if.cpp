#include "replay/what_if.hpp"

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>
#include <variant>

#include "actors/core/scheduler.hpp"
#include "actors/wire/config_wire.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "base/time_units.hpp"
#include "journal/read_ahead_cursor.hpp"
#include "schema/wire_codec.hpp"
#include "schema/wire_message.hpp"

namespace koordq::replay {
namespace {

using actors::Scheduler;
using journal::RecordKind;
using journal::StoredRecord;

using base::kSecond;
// Rounds at what-if deadlines between two recorded inputs, at most (a guard, not a model limit:
// every deadline is a backoff, a suspension or a timer, each later than the one before).
constexpr uint64_t kMaxDeadlineRounds = 1'000'000;
// Deadline rounds get seqs above any recorded one (their writes are matched by seq).
constexpr uint64_t kDeadlineSeqBase = uint64_t{1} << 48;

// The status fields one watch event changed, to be put on another copy of the unit.
struct StatusDiff {
  std::optional<std::string> phase;
  std::optional<std::string> message;
  std::optional<std::vector<schema::Admission>> admissions;
  std::optional<std::vector<schema::AdmissionCheckState>> admission_checks;
  std::optional<std::optional<schema::PodState>> pod_state;
  bool all_running = false;  // every admitted replica running (an estimated start)
};

StatusDiff diff_of(const schema::QueueUnitStatus& before, const schema::QueueUnitStatus& after) {
  StatusDiff d;
  if (before.phase != after.phase) d.phase = after.phase;
  if (before.message != after.message) d.message = after.message;
  if (before.admissions != after.admissions) d.admissions = after.admissions;
  if (before.admission_checks != after.admission_checks) d.admission_checks = after.admission_checks;
  if (before.pod_state != after.pod_state) d.pod_state = after.pod_state;
  return d;
}

void apply_diff(schema::QueueUnitStatus& status, const StatusDiff& d) {
  if (d.phase) status.phase = *d.phase;
  if (d.message) status.message = *d.message;
  if (d.admissions) status.admissions = *d.admissions;
  if (d.admission_checks) status.admission_checks = *d.admission_checks;
  if (d.pod_state) status.pod_state = *d.pod_state;
  if (d.all_running) {
    for (auto& a : status.admissions) a.running = a.replicas;
  }
}

bool is_job_extension_phase(const std::string& phase) {
  return phase == "Running" || phase == "Succeed" || phase == "Failed";
}

// How a recorded watch event of a unit already known changes it.
enum class StatusPart { unchanged, echo, job_extension, external };

struct EventClass {
  bool inputs_changed = false;  // labels, annotations, deletion, spec
  StatusPart status = StatusPart::unchanged;
  std::string phase_before;  // the recorded unit's phase before the event
  StatusDiff diff;
};

struct Transition {
  int64_t time = 0;
  StatusDiff diff;
};

struct RecordedUnit {
  std::string namespace_;
  std::string name;
  std::string queue;
  std::optional<int64_t> created;  // the time of its first watch record
  std::optional<int64_t> admission;
  std::vector<Transition> transitions;  // job extension
};

// What the recorded pass takes from the journal.
struct Recorded {
  actors::DecisionConfig config;
  std::map<uint64_t, EventClass> events;      // by seq
  std::map<std::string, RecordedUnit> units;  // by uid
  std::map<std::string, int64_t> queue_median;
  int64_t start_time = 0;  // the first record's
  int64_t end_time = 0;
  uint64_t records = 0;
};

struct WatchInput {
  schema::WatchedObject object;
  bool deleted = false;
  bool bookmark = false;
};

Result<WatchInput> watch_of(const StoredRecord& r) {
  try {
    const auto watch = r.reader().getBody().getWatch();
    WatchInput out;
    switch (watch.getEventType()) {
      case wire::Watch::EventType::BOOKMARK:
        out.bookmark = true;
        return out;
      case wire::Watch::EventType::DELETED:
        out.deleted = true;
        break;
      default:
        break;
    }
    auto object = schema::read_watched_object(watch.getObject());
    if (!object.ok()) return make_error("record " + std::to_string(r.seq()) + ": " + object.message());
    out.object = std::move(object).value();
    return out;
  } catch (const kj::Exception& e) {
    return make_error("record " + std::to_string(r.seq()) + ": malformed watch: " + wire::describe(e));
  }
}

Result<std::vector<actors::Decision>> round_of(const StoredRecord& r) {
  try {
    auto decisions = actors::read_round(r.reader().getBody().getRound());
    if (!decisions.ok()) return make_error("record " + std::to_string(r.seq()) + ": " + decisions.message());
    return decisions;
  } catch (const kj::Exception& e) {
    return make_error("record " + std::to_string(r.seq()) + ": malformed round: " + wire::describe(e));
  }
}

bool inputs_differ(const schema::QueueUnit& a, const schema::QueueUnit& b) {
  return a.spec != b.spec || a.metadata.labels != b.metadata.labels ||
         a.metadata.annotations != b.metadata.annotations ||
         a.metadata.deletion_timestamp != b.metadata.deletion_timestamp;
}

EventClass classify_event(const actors::UnitState& known, const schema::QueueUnit& next) {
  EventClass c;
  const schema::QueueUnit& before = known.object;
  c.inputs_changed = inputs_differ(before, next);
  c.phase_before = known.status().phase;
  if (before.status == next.status) return c;
  const bool written = (known.pending_status && *known.pending_status == next.status) ||
                       (known.landed_status && *known.landed_status == next.status);
  c.diff = diff_of(known.status(), next.status);
  if (written) {
    c.status = StatusPart::echo;
  } else if (next.status.phase != known.status().phase && is_job_extension_phase(next.status.phase)) {
    c.status = StatusPart::job_extension;
  } else {
    c.status = StatusPart::external;
  }
  return c;
}

Result<actors::DecisionConfig> config_of(const StoredRecord& r) {
  try {
    auto config = actors::read_journal_config(r.reader().getBody().getConfig());
    if (!config.ok()) return make_error("record " + std::to_string(r.seq()) + ": " + config.message());
    return config->decision;
  } catch (const kj::Exception& e) {
    return make_error("record " + std::to_string(r.seq()) + ": malformed config: " + wire::describe(e));
  }
}

// Progress over all passes: records walked so far.
class PassProgress {
 public:
  explicit PassProgress(const Progress& progress) : progress_(progress) {}
  void walked(uint64_t seq) {
    ++walked_;
    if (progress_ && walked_ % kProgressEvery == 0) progress_(seq, walked_);
  }

 private:
  const Progress& progress_;
  uint64_t walked_ = 0;
};

// The recorded pass (what_if.hpp).
Result<Recorded> read_recorded(journal::JournalReader& reader, uint64_t to_seq, PassProgress& progress) {
  Recorded out;
  Scheduler s;
  bool configured = false;
  std::map<std::string, std::vector<int64_t>> run_times;
  std::string mapped;  // the unit the record being folded is about
  journal::ReadAheadCursor cursor(reader.cursor(1, to_seq));
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return next.error();
    if (!*next) break;
    const StoredRecord& r = **next;
    if (r.kind() == RecordKind::kConfig && !configured) {
      auto config = config_of(r);
      if (!config.ok()) return config.error();
      out.config = *config;
      configured = true;
      if (out.records == 0) s = Scheduler(out.config);
    } else if (r.kind() == RecordKind::kWatch) {
      auto in = watch_of(r);
      if (!in.ok()) return in.error();
      if (const auto* unit = std::get_if<schema::QueueUnit>(&in->object); unit && !in->bookmark) {
        const auto known = s.units().find(actors::unit_key(unit->metadata.namespace_, unit->metadata.name));
        if (!in->deleted && known != s.units().end() && known->second.object.metadata.uid == unit->metadata.uid) {
          EventClass c = classify_event(known->second, *unit);
          if (c.status == StatusPart::job_extension) {
            out.units[unit->metadata.uid].transitions.push_back(Transition{r.time(), c.diff});
          }
          out.events.emplace(r.seq(), std::move(c));
        }
        RecordedUnit& u = out.units[unit->metadata.uid];
        u.namespace_ = unit->metadata.namespace_;
        u.name = unit->metadata.name;
        if (!u.created) u.created = r.time();
        if (!in->deleted) mapped = actors::unit_key(unit->metadata.namespace_, unit->metadata.name);
      }
    } else if (r.kind() == RecordKind::kRound) {
      auto decisions = round_of(r);
      if (!decisions.ok()) return decisions.error();
      for (const auto& d : *decisions) {
        const auto* ref = std::get_if<actors::UnitRef>(&d.target);
        if (d.kind != actors::DecisionKind::kAdmit || ref == nullptr) continue;
        RecordedUnit& u = out.units[ref->uid];
        if (!u.admission) {
          u.admission = r.time();
          u.queue = ref->queue.empty() ? ref->quota : ref->queue;
        }
      }
    }
    if (auto applied = actors::apply_record(s, r); !applied.ok()) return applied.error();
    if (!mapped.empty()) {
      // The queue a unit maps to, until an admission names it.
      const auto it = s.units().find(mapped);
      if (it != s.units().end()) {
        RecordedUnit& u = out.units[it->second.object.metadata.uid];
        if (!u.admission) u.queue = it->second.quota;
      }
      mapped.clear();
    }
    if (out.records == 0) out.start_time = r.time();
    out.end_time = r.time();
    ++out.records;
    progress.walked(r.seq());
  }
  for (const auto& [uid, u] : out.units) {
    if (!u.admission) continue;
    std::optional<int64_t> started;
    for (const auto& t : u.transitions) {
      if (!t.diff.phase) continue;
      if (*t.diff.phase == "Running" && !started) {
        started = t.time;
      } else if (started && (*t.diff.phase == "Succeed" || *t.diff.phase == "Failed")) {
        run_times[u.queue].push_back(t.time - *started);
        break;
      }
    }
  }
  for (auto& [queue, times] : run_times) {
    if (auto median = median_run_time(std::move(times))) out.queue_median[queue] = *median;
  }
  return out;
}

void rewrite_queue(schema::Queue& queue, const WhatIfSettings& settings) {
  const std::string& name = queue.metadata.name;
  if (auto p = settings.queue_policy.find(name); p != settings.queue_policy.end()) queue.spec.queue_policy = p->second;
  if (auto a = settings.queue_annotations.find(name); a != settings.queue_annotations.end()) {
    for (const auto& [key, value] : a->second) {
      if (value) {
        queue.metadata.annotations[key] = *value;
      } else {
        queue.metadata.annotations.erase(key);
      }
    }
  }
}

void rewrite_quota(schema::ElasticQuota& quota, const WhatIfSettings& settings) {
  auto m = settings.quota_max.find(quota.metadata.name);
  if (m == settings.quota_max.end()) return;
  for (const auto& [resource, quantity] : m->second) {
    if (quantity) {
      quota.spec.max[resource] = *quantity;
    } else {
      quota.spec.max.erase(resource);
    }
  }
}

actors::DecisionConfig changed_config(actors::DecisionConfig config, const WhatIfSettings& settings) {
  if (settings.oversell_rate_ppm) config.oversell_rate_ppm = *settings.oversell_rate_ppm;
  if (settings.initial_backoff_seconds) config.initial_backoff_nanos = *settings.initial_backoff_seconds * kSecond;
  if (settings.max_backoff_seconds) config.max_backoff_nanos = *settings.max_backoff_seconds * kSecond;
  return config;
}

// The what-if pass (what_if.hpp).
class WhatIfRun {
 public:
  WhatIfRun(const Recorded& recorded, const WhatIfSettings& settings)
      : recorded_(recorded), settings_(settings), s_(changed_config(recorded.config, settings)) {}

  Status apply(const StoredRecord& r) {
    catch_up(r.time());
    switch (r.kind()) {
      case RecordKind::kWatch:
        return apply_watch(r);
      case RecordKind::kRound:
        s_.advance_to(r.time());
        land(r.seq(), s_.decide());
        return ok_status();
      case RecordKind::kOutcome:
        s_.advance_to(r.time());  // the re-decided writes landed with their decisions
        return ok_status();
      default:
        return actors::apply_record(s_, r);  // config, relist, tick, role: as recorded
    }
  }

  // Job-extension transitions and deadlines up to and including `until`.
  void catch_up(int64_t until) {
    for (uint64_t n = 0; n < kMaxDeadlineRounds; ++n) {
      const std::optional<int64_t> deadline = s_.next_deadline();
      const bool event_next = !pending_.empty() && (!deadline || pending_.begin()->first.first <= *deadline);
      const int64_t at = event_next ? pending_.begin()->first.first : deadline.value_or(until + 1);
      if (at > until) return;
      s_.advance_to(std::max(at, s_.now()));
      while (event_next && !pending_.empty() && pending_.begin()->first.first == at) {
        const auto node = pending_.extract(pending_.begin());
        run_transition(node.mapped());
      }
      land(kDeadlineSeqBase + ++deadline_rounds_, s_.decide());
    }
  }

  uint64_t rounds() const { return rounds_; }
  const std::map<std::string, int64_t>& admitted() const { return admitted_; }
  bool estimated(const std::string& uid) const { return estimated_.contains(uid); }

 private:
  struct Pending {
    std::string key;
    std::string uid;
    StatusDiff diff;
  };

  std::string next_rv() { return std::to_string(++rv_); }

  Status apply_watch(const StoredRecord& r) {
    auto in = watch_of(r);
    if (!in.ok()) return in.error();
    s_.advance_to(r.time());
    if (in->bookmark) return ok_status();
    if (auto* queue = std::get_if<schema::Queue>(&in->object)) {
      rewrite_queue(*queue, settings_);
    } else if (auto* quota = std::get_if<schema::ElasticQuota>(&in->object)) {
      rewrite_quota(*quota, settings_);
    } else {
      auto& unit = std::get<schema::QueueUnit>(in->object);
      unit.metadata.resource_version = next_rv();
      if (auto c = recorded_.events.find(r.seq()); c != recorded_.events.end() && !in->deleted) {
        return apply_unit_change(unit, c->second);
      }
    }
    s_.apply_object(in->object, in->deleted);
    return ok_status();
  }

  // A recorded change of a unit both runs know: its inputs land on the what-if unit, its status
  // as the model says (what_if.hpp).
  Status apply_unit_change(schema::QueueUnit unit, const EventClass& c) {
    const auto it = s_.units().find(actors::unit_key(unit.metadata.namespace_, unit.metadata.name));
    if (it == s_.units().end() || it->second.object.metadata.uid != unit.metadata.uid) {
      s_.apply_object(unit, false);
      return ok_status();
    }
    bool changed = c.inputs_changed;
    unit.status = it->second.status();
    if (c.status == StatusPart::external && unit.status.phase == c.phase_before) {
      apply_diff(unit.status, c.diff);
      changed = true;
    }
    if (changed) s_.apply_object(unit, false);
    return ok_status();
  }

  void run_transition(const Pending& p) {
    const auto it = s_.units().find(p.key);
    if (it == s_.units().end() || it->second.object.metadata.uid != p.uid) return;
    schema::QueueUnit unit = it->second.object;
    unit.status = it->second.status();
    apply_diff(unit.status, p.diff);
    unit.metadata.resource_version = next_rv();
    s_.apply_object(unit, false);
  }

  // The round's decisions applied, and every write landed and observed at once.
  void land(uint64_t seq, const std::vector<actors::Decision>& decisions) {
    ++rounds_;
    if (decisions.empty()) return;
    s_.apply_round(seq, decisions);
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      const actors::Decision& d = decisions[i];
      if (std::holds_alternative<actors::QueueRef>(d.target)) {
        if (d.queue_write) s_.apply_outcome(success(seq, i, actors::WriteKind::kQueueWrite, d.target, ""));
        continue;
      }
      const auto& ref = std::get<actors::UnitRef>(d.target);
      const std::string key = actors::unit_key(ref.namespace_, ref.name);
      const auto it = s_.units().find(key);
      if (it == s_.units().end() || it->second.object.metadata.uid != ref.uid) continue;
      if (d.status_patch || d.spec_queue_patch) {
        schema::QueueUnit unit = it->second.object;
        unit.status = it->second.status();
        if (d.spec_queue_patch) unit.spec.queue = *d.spec_queue_patch;
        unit.metadata.resource_version = next_rv();
        if (d.status_patch) {
          s_.apply_outcome(success(seq, i, actors::WriteKind::kStatusPatch, d.target, unit.metadata.resource_version));
        }
        s_.apply_object(unit, false);
      }
      if (d.kind == actors::DecisionKind::kAdmit && !admitted_.contains(ref.uid)) {
        admitted_[ref.uid] = s_.now();
        schedule_run(key, ref.uid);
      }
    }
  }

  static actors::Outcome success(uint64_t seq, uint32_t index, actors::WriteKind kind, const actors::Target& target,
                                 std::string rv) {
    actors::Outcome o;
    o.decision_seq = seq;
    o.decision_index = index;
    o.write_kind = kind;
    o.result = actors::OutcomeResult::kSuccess;
    o.http_code = 200;
    o.resource_version = std::move(rv);
    o.target = target;
    return o;
  }

  void schedule_run(const std::string& key, const std::string& uid) {
    const int64_t now = s_.now();
    const auto rec = recorded_.units.find(uid);
    if (rec != recorded_.units.end() && rec->second.admission) {
      const int64_t delta = now - *rec->second.admission;
      for (const auto& t : rec->second.transitions) push(t.time + delta, Pending{key, uid, t.diff});
      return;
    }
    estimated_.insert(uid);
    StatusDiff start;
    start.phase = "Running";
    start.message = "Running";
    start.all_running = true;
    push(now, Pending{key, uid, start});
    const std::string queue = rec != recorded_.units.end() ? rec->second.queue : std::string();
    if (auto median = recorded_.queue_median.find(queue); median != recorded_.queue_median.end()) {
      StatusDiff finish;
      finish.phase = "Succeed";
      finish.message = "Succeeded";
      push(now + median->second, Pending{key, uid, finish});
    }
  }

  void push(int64_t at, Pending p) { pending_.emplace(std::make_pair(at, ++pushed_), std::move(p)); }

  const Recorded& recorded_;
  const WhatIfSettings& settings_;
  Scheduler s_;
  uint64_t rv_ = 0;
  uint64_t rounds_ = 0;
  uint64_t deadline_rounds_ = 0;
  uint64_t pushed_ = 0;
  std::map<std::pair<int64_t, uint64_t>, Pending> pending_;  // (time, order) → transition
  std::map<std::string, int64_t> admitted_;                  // uid → first what-if admission
  std::set<std::string> estimated_;
};

Result<std::unique_ptr<WhatIfRun>> run_model(journal::JournalReader& reader, uint64_t to_seq, const Recorded& recorded,
                                             const WhatIfSettings& settings, PassProgress& progress) {
  auto run = std::make_unique<WhatIfRun>(recorded, settings);
  journal::ReadAheadCursor cursor(reader.cursor(1, to_seq));
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return next.error();
    if (!*next) break;
    if (auto applied = run->apply(**next); !applied.ok()) return applied.error();
    progress.walked((*next)->seq());
  }
  run->catch_up(recorded.end_time);
  return run;
}

std::optional<int64_t> admission_in(const WhatIfRun& run, const std::string& uid) {
  const auto it = run.admitted().find(uid);
  return it == run.admitted().end() ? std::nullopt : std::optional<int64_t>(it->second);
}

void count(WhatIfSummary& s, AdmissionChange change) {
  switch (change) {
    case AdmissionChange::earlier:
      ++s.earlier;
      break;
    case AdmissionChange::later:
      ++s.later;
      break;
    case AdmissionChange::unchanged:
      ++s.unchanged;
      break;
    case AdmissionChange::newly_admitted:
      ++s.newly_admitted;
      break;
    case AdmissionChange::no_longer_admitted:
      ++s.no_longer_admitted;
      break;
    case AdmissionChange::never_admitted:
      break;
  }
}

}  // namespace

Result<actors::DecisionConfig> recorded_decision_config(journal::JournalReader& reader, uint64_t to_seq) {
  journal::RecordCursor cursor = reader.cursor(1, to_seq);
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return next.error();
    if (!*next) return actors::DecisionConfig{};
    if ((*next)->kind() == RecordKind::kConfig) return config_of(**next);
  }
}

Result<WhatIfResult> what_if(journal::JournalReader& reader, uint64_t to_seq, const WhatIfSettings& settings,
                             const Progress& progress) {
  if (const uint64_t first = reader.first_seq(); first > 1) {
    return make_error("records before seq " + std::to_string(first) +
                      " were dropped by retention; --what-if needs every record from seq 1");
  }
  PassProgress passes(progress);
  auto recorded = read_recorded(reader, to_seq, passes);
  if (!recorded.ok()) return recorded.error();
  // The model with the settings as recorded, then with the changes (see what_if.hpp).
  auto baseline = run_model(reader, to_seq, *recorded, WhatIfSettings{}, passes);
  if (!baseline.ok()) return baseline.error();
  auto changed = run_model(reader, to_seq, *recorded, settings, passes);
  if (!changed.ok()) return changed.error();

  WhatIfResult out;
  out.records = recorded->records;
  out.what_if_rounds = (*changed)->rounds();
  for (const auto& [uid, u] : recorded->units) {
    UnitAdmission a;
    a.namespace_ = u.namespace_;
    a.name = u.name;
    a.uid = uid;
    a.queue = u.queue;
    a.recorded = u.admission;
    a.what_if = what_if_admission(u.admission, admission_in(**baseline, uid), admission_in(**changed, uid),
                                  u.created.value_or(recorded->start_time));
    a.estimated = a.what_if && !a.recorded && (*changed)->estimated(uid);
    a.change = classify_admission(a.recorded, a.what_if);
    count(out.summary, a.change);
    out.units.push_back(std::move(a));
  }
  std::sort(out.units.begin(), out.units.end(), [](const UnitAdmission& a, const UnitAdmission& b) {
    return std::tie(a.namespace_, a.name, a.uid) < std::tie(b.namespace_, b.name, b.uid);
  });
  return out;
}

}  // namespace koordq::replay
