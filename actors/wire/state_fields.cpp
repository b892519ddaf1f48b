#include "actors/wire/state_fields.hpp"

#include <algorithm>
#include <tuple>

#include "actors/wire/queue_write_wire.hpp"
#include "schema/wire_fields.hpp"

namespace koordq::actors::state_fields {
namespace {

namespace st = wire::state;
using schema::wire_fields::read_optional;
using schema::wire_fields::read_optional_text;
using schema::wire_fields::read_resource_list;
using schema::wire_fields::text;
using schema::wire_fields::to_string;
using schema::wire_fields::write_optional;
using schema::wire_fields::write_optional_text;
using schema::wire_fields::write_resource_list;
using schema::wire_fields::write_string_map;

}  // namespace

// --- scalars and small structs -----------------------------------------------------------------

static_assert(static_cast<int>(st::Phase::SCHED_FAILED) == static_cast<int>(Phase::kSchedFailed) &&
                  static_cast<int>(st::Phase::ENQUEUED) == static_cast<int>(Phase::kEnqueued),
              "state.capnp Phase follows actors::Phase");
static_assert(static_cast<int>(st::QueuePolicy::UNSUPPORTED) == static_cast<int>(QueuePolicy::kUnsupported) &&
                  static_cast<int>(st::QueuePolicy::PRIORITY) == static_cast<int>(QueuePolicy::kPriority),
              "state.capnp QueuePolicy follows actors::QueuePolicy");

st::Phase to_wire(Phase phase) {
  return static_cast<st::Phase>(static_cast<uint16_t>(phase));
}

Phase from_wire(st::Phase phase) {
  const auto v = static_cast<uint16_t>(phase);
  if (v > static_cast<uint16_t>(Phase::kSchedFailed)) bad("unknown phase " + std::to_string(v));
  return static_cast<Phase>(v);
}

st::QueuePolicy to_wire(QueuePolicy policy) {
  return static_cast<st::QueuePolicy>(static_cast<uint16_t>(policy));
}

QueuePolicy from_wire(st::QueuePolicy policy) {
  const auto v = static_cast<uint16_t>(policy);
  if (v > static_cast<uint16_t>(QueuePolicy::kUnsupported)) bad("unknown queue policy " + std::to_string(v));
  return static_cast<QueuePolicy>(v);
}

void write_vector(capnp::List<st::ResourceAmount>::Builder out, const schema::ResourceVector& v) {
  unsigned i = 0;
  for (const auto& [name, amount] : v) {
    out[i].setName(text(name));
    out[i].setAmount(amount);
    ++i;
  }
}

schema::ResourceVector read_vector(capnp::List<st::ResourceAmount>::Reader in) {
  schema::ResourceVector v;
  for (auto e : in) insert_unique(v, to_string(e.getName()), e.getAmount(), "resource");
  return v;
}

void write_order_key(st::OrderKey::Builder out, const OrderKey& key) {
  out.setPriority(key.priority);
  out.setCreation(key.creation);
  out.setFullName(text(key.full_name));
}

OrderKey read_order_key(st::OrderKey::Reader in) {
  return OrderKey{in.getPriority(), in.getCreation(), to_string(in.getFullName())};
}

void write_texts(capnp::List<capnp::Text>::Builder out, const std::set<std::string>& values) {
  unsigned i = 0;
  for (const auto& v : values) out.set(i++, text(v));
}

std::set<std::string> read_texts(capnp::List<capnp::Text>::Reader in, const char* what) {
  std::set<std::string> out;
  for (auto t : in) insert_unique(out, to_string(t), what);
  return out;
}

void write_config(st::DecisionConfig::Builder out, const DecisionConfig& c) {
  out.setOversellRatePpm(c.oversell_rate_ppm);
  out.setInitialBackoffNanos(c.initial_backoff_nanos);
  out.setMaxBackoffNanos(c.max_backoff_nanos);
  out.setScheduleSuspendNanos(c.schedule_suspend_nanos);
  out.setReclaimProtectNanos(c.reclaim_protect_nanos);
  out.setQueueNamespace(text(c.queue_namespace));
  out.setQueueItemsMax(c.queue_items_max);
}

DecisionConfig read_config(st::DecisionConfig::Reader in) {
  DecisionConfig c;
  c.oversell_rate_ppm = in.getOversellRatePpm();
  c.initial_backoff_nanos = in.getInitialBackoffNanos();
  c.max_backoff_nanos = in.getMaxBackoffNanos();
  c.schedule_suspend_nanos = in.getScheduleSuspendNanos();
  c.reclaim_protect_nanos = in.getReclaimProtectNanos();
  c.queue_namespace = to_string(in.getQueueNamespace());
  c.queue_items_max = in.getQueueItemsMax();
  return c;
}

std::string describe(const DecisionConfig& c) {
  return "oversell-rate-ppm=" + std::to_string(c.oversell_rate_ppm) +
         " initial-backoff-ns=" + std::to_string(c.initial_backoff_nanos) +
         " max-backoff-ns=" + std::to_string(c.max_backoff_nanos) +
         " schedule-suspend-ns=" + std::to_string(c.schedule_suspend_nanos) +
         " reclaim-protect-ns=" + std::to_string(c.reclaim_protect_nanos) + " queue-namespace=" + c.queue_namespace +
         " queue-items-max=" + std::to_string(c.queue_items_max);
}

// --- units ---------------------------------------------------------------------------------------

void write_unit(st::UnitState::Builder out, const std::string& key, const UnitState& u) {
  out.setKey(text(key));
  schema::write_queue_unit(out.initObject(), u.object);
  if (u.pending_status) {
    schema::write_queue_unit_status(out.getPendingStatus().initValue(), *u.pending_status);
  } else {
    out.getPendingStatus().setAbsent();
  }
  out.setPendingWrittenRv(text(u.pending_written_rv));
  out.setPendingDecisionSeq(u.pending_decision_seq);
  if (u.landed_status) {
    schema::write_queue_unit_status(out.getLandedStatus().initValue(), *u.landed_status);
  } else {
    out.getLandedStatus().setAbsent();
  }
  out.setLandedRv(text(u.landed_rv));

  out.setQuota(text(u.quota));
  out.setPhase(to_wire(u.phase));
  out.setHolds(u.holds);
  write_vector(out.initCharge(u.charge.size()), u.charge);
  out.setWaiting(u.waiting);
  out.setAssumed(u.assumed);
  write_order_key(out.initOrderKey(), u.key);

  out.setFailures(u.failures);
  write_optional(out.getBackoffUntil(), u.backoff_until);
  out.setAttempts(u.attempts);
  out.setCapacityChanged(u.capacity_changed_since_attempt());

  write_optional(out.getUnmappedSince(), u.unmapped_since);
  out.setQueueNotFoundReported(u.queue_not_found_reported);
  out.setEnqueuedAt(u.enqueued_at);
  out.setDequeuedOnce(u.dequeued_once);
  out.setDeactivationDue(u.deactivation_due);
  write_optional(out.getRunningSince(), u.running_since);
  out.setMaxExecReported(u.max_exec_reported);
  if (u.phase_event_due) {
    out.getPhaseEventDue().setValue(to_wire(*u.phase_event_due));
  } else {
    out.getPhaseEventDue().setAbsent();
  }
  out.setObservedPhase(to_wire(u.observed_phase));
  out.setSpecQueueSent(text(u.spec_queue_sent));
  out.setSpecQueueSentSeq(u.spec_queue_sent_seq);
  out.setInvalidQuantities(text(u.invalid_quantities));
  out.setInvalidReported(text(u.invalid_reported));
}

// Fills a default-constructed `u` (in place: a UnitState is large to move).
void read_unit(st::UnitState::Reader in, UnitState& u) {
  schema::read_queue_unit(in.getObject(), u.object);
  if (auto p = in.getPendingStatus(); p.isValue())
    schema::read_queue_unit_status(p.getValue(), u.pending_status.emplace());
  u.pending_written_rv = to_string(in.getPendingWrittenRv());
  u.pending_decision_seq = in.getPendingDecisionSeq();
  if (auto l = in.getLandedStatus(); l.isValue())
    schema::read_queue_unit_status(l.getValue(), u.landed_status.emplace());
  u.landed_rv = to_string(in.getLandedRv());

  u.quota = to_string(in.getQuota());
  u.phase = from_wire(in.getPhase());
  u.holds = in.getHolds();
  u.charge = read_vector(in.getCharge());
  u.waiting = in.getWaiting();
  u.assumed = in.getAssumed();
  u.key = read_order_key(in.getOrderKey());

  u.failures = in.getFailures();
  u.backoff_until = read_optional(in.getBackoffUntil());
  u.attempts = in.getAttempts();
  u.capacity_changed = in.getCapacityChanged();

  u.unmapped_since = read_optional(in.getUnmappedSince());
  u.queue_not_found_reported = in.getQueueNotFoundReported();
  u.enqueued_at = in.getEnqueuedAt();
  u.dequeued_once = in.getDequeuedOnce();
  u.deactivation_due = in.getDeactivationDue();
  u.running_since = read_optional(in.getRunningSince());
  u.max_exec_reported = in.getMaxExecReported();
  if (auto p = in.getPhaseEventDue(); p.isValue()) u.phase_event_due = from_wire(p.getValue());
  u.observed_phase = from_wire(in.getObservedPhase());
  u.spec_queue_sent = to_string(in.getSpecQueueSent());
  u.spec_queue_sent_seq = in.getSpecQueueSentSeq();
  u.invalid_quantities = to_string(in.getInvalidQuantities());
  u.invalid_reported = to_string(in.getInvalidReported());
}

void write_units(capnp::List<st::UnitState>::Builder out, const std::vector<UnitEntry>& units) {
  unsigned i = 0;
  for (const auto* entry : units) write_unit(out[i++], entry->first, entry->second);
}

// A part's units, as map nodes: every part lists its units in key order, so they go into the
// scheduler's map in one sorted pass once all parts are read (place_units), not by a search each.
void read_units(capnp::List<st::UnitState>::Reader in, UnitNodes& into) {
  UnitMap part;
  for (auto u : in) {
    const size_t before = part.size();
    const auto it = part.try_emplace(part.end(), to_string(u.getKey()));
    if (part.size() == before) bad("duplicate unit " + it->first);
    read_unit(u, it->second);
  }
  while (!part.empty()) into.push_back(part.extract(part.begin()));
}

void place_units(UnitNodes& nodes, UnitMap& units) {
  std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.key() < b.key(); });
  for (size_t i = 1; i < nodes.size(); ++i) {
    if (nodes[i - 1].key() == nodes[i].key()) bad("duplicate unit " + nodes[i].key());
  }
  for (auto& node : nodes) units.insert(units.end(), std::move(node));
}

// --- queues --------------------------------------------------------------------------------------

void write_settings(st::QueueSettings::Builder out, const QueueSettings& s) {
  out.setPolicy(to_wire(s.policy));
  out.setPolicyText(text(s.policy_text));
  out.setMaxDepth(s.max_depth);
  out.setWaitForPodsRunning(s.wait_for_pods_running);
  out.setPreemptionEnabled(s.preemption_enabled);
  out.setRefreshIntervalNanos(s.refresh_interval_nanos);
  write_optional_text(out.getInvalidRefreshInterval(), s.invalid_refresh_interval);
  out.setShowQueueItems(s.show_queue_items);
}

QueueSettings read_settings(st::QueueSettings::Reader in) {
  QueueSettings s;
  s.policy = from_wire(in.getPolicy());
  s.policy_text = to_string(in.getPolicyText());
  s.max_depth = in.getMaxDepth();
  s.wait_for_pods_running = in.getWaitForPodsRunning();
  s.preemption_enabled = in.getPreemptionEnabled();
  s.refresh_interval_nanos = in.getRefreshIntervalNanos();
  s.invalid_refresh_interval = read_optional_text(in.getInvalidRefreshInterval());
  s.show_queue_items = in.getShowQueueItems();
  return s;
}

void write_queue(st::QueuePart::Builder out, const std::string& name, const QueueState& q,
                 const std::vector<UnitEntry>& units) {
  out.setName(text(name));
  schema::write_queue(out.initObject(), q.object);
  write_settings(out.initSettings(), q.settings);
  {
    auto waiting = out.initWaiting(q.waiting.size());
    unsigned i = 0;
    for (const auto& key : q.waiting) write_order_key(waiting[i++], key);
  }
  if (q.cursor) {
    write_order_key(out.getCursor().initValue(), *q.cursor);
  } else {
    out.getCursor().setHead();
  }
  out.setLastReset(q.last_reset);
  write_optional(out.getLastAttempt(), q.last_attempt);
  out.setLastTried(text(q.last_tried));
  out.setLastActivity(q.last_activity);
  write_texts(out.initMembers(q.members.size()), q.members);
  write_string_map(out.initBlocked(q.blocked.size()), q.blocked);
  {
    auto victims = out.initVictims(q.victims.size());
    unsigned i = 0;
    for (const auto& [key, replicas] : q.victims) {
      victims[i].setKey(text(key));
      victims[i].setValue(replicas);
      ++i;
    }
  }
  write_texts(out.initAddQueueFailReported(q.add_queue_fail_reported.size()), q.add_queue_fail_reported);
  write_texts(out.initInvalidIntervalReported(q.invalid_interval_reported.size()), q.invalid_interval_reported);
  if (q.last_published) {
    schema::write_queue_item_details(out.getLastPublished().initValue(), *q.last_published);
  } else {
    out.getLastPublished().setAbsent();
  }
  write_optional(out.getNextPublish(), q.next_publish);
  write_units(out.initUnits(units.size()), units);
  if (q.usage_written) {
    write_usage_annotations(out.getUsageWritten().initValue(static_cast<unsigned>(q.usage_written->size())),
                            *q.usage_written);
  } else {
    out.getUsageWritten().setAbsent();
  }
  out.setUsageNext(q.usage_next);
  out.setUsageSeq(q.usage_seq);
  out.setUsageIndex(q.usage_index);
}

std::pair<std::string, QueueState> read_queue(st::QueuePart::Reader in, UnitNodes& units) {
  QueueState q;
  std::string name = to_string(in.getName());
  q.object = schema::read_queue(in.getObject());
  q.settings = read_settings(in.getSettings());
  for (auto key : in.getWaiting()) insert_unique(q.waiting, read_order_key(key), "waiting key");
  if (auto c = in.getCursor(); c.isValue()) q.cursor = read_order_key(c.getValue());
  q.last_reset = in.getLastReset();
  q.last_attempt = read_optional(in.getLastAttempt());
  q.last_tried = to_string(in.getLastTried());
  q.last_activity = in.getLastActivity();
  q.members = read_texts(in.getMembers(), "member");
  for (auto e : in.getBlocked()) insert_unique(q.blocked, to_string(e.getKey()), to_string(e.getValue()), "block");
  for (auto e : in.getVictims()) insert_unique(q.victims, to_string(e.getKey()), e.getValue(), "victim");
  q.add_queue_fail_reported = read_texts(in.getAddQueueFailReported(), "add-queue-fail report");
  q.invalid_interval_reported = read_texts(in.getInvalidIntervalReported(), "invalid-interval report");
  if (auto p = in.getLastPublished(); p.isValue()) q.last_published = schema::read_queue_item_details(p.getValue());
  q.next_publish = read_optional(in.getNextPublish());
  read_units(in.getUnits(), units);
  if (auto w = in.getUsageWritten(); w.isValue()) {
    UsageAnnotations usage;
    for (auto e : w.getValue()) {
      const std::string name = to_string(e.getKey());
      const auto slot = UsageAnnotations::slot_of(name);
      if (!slot) bad("usage annotation " + name + " is none of the six of a Queue");
      if (usage.get(*slot)) bad("duplicate usage annotation " + name);
      usage.set(*slot, to_string(e.getValue()));
    }
    q.usage_written = std::move(usage);
  }
  q.usage_next = in.getUsageNext();
  q.usage_seq = in.getUsageSeq();
  q.usage_index = in.getUsageIndex();
  return {std::move(name), std::move(q)};
}

// --- auto-created Queues and metrics (router part) ---------------------------------------------

void write_items(st::QueueItems::Builder out, const QueueItems& items) {
  out.setQueuePolicy(text(items.queue_policy));
  write_optional_text(out.getParent(), items.parent);
  write_optional_text(out.getEnable(), items.enable);
}

QueueItems read_items(st::QueueItems::Reader in) {
  return {to_string(in.getQueuePolicy()), read_optional_text(in.getParent()), read_optional_text(in.getEnable())};
}

void write_auto_queue(st::AutoQueue::Builder out, const std::string& name, const AutoQueue& a) {
  out.setName(text(name));
  if (a.synced) {
    write_items(out.getSynced().initValue(), *a.synced);
  } else {
    out.getSynced().setAbsent();
  }
  if (a.in_flight) {
    out.getInFlight().setValue(static_cast<uint16_t>(*a.in_flight));
  } else {
    out.getInFlight().setAbsent();
  }
  out.setInFlightSeq(a.in_flight_seq);
  out.setInFlightIndex(a.in_flight_index);
  if (a.before) {
    write_items(out.getBefore().initValue(), *a.before);
  } else {
    out.getBefore().setAbsent();
  }
}

std::pair<std::string, AutoQueue> read_auto_queue(st::AutoQueue::Reader in) {
  AutoQueue a;
  if (auto v = in.getSynced(); v.isValue()) a.synced = read_items(v.getValue());
  if (auto v = in.getInFlight(); v.isValue()) {
    const uint16_t kind = v.getValue();
    if (kind > static_cast<uint16_t>(DecisionKind::kInvalidQuantities)) {
      bad("auto queue with unknown decision kind " + std::to_string(kind));
    }
    a.in_flight = static_cast<DecisionKind>(kind);
  }
  a.in_flight_seq = in.getInFlightSeq();
  a.in_flight_index = in.getInFlightIndex();
  if (auto v = in.getBefore(); v.isValue()) a.before = read_items(v.getValue());
  return {to_string(in.getName()), std::move(a)};
}

void write_histogram(st::Histogram::Builder out, const Histogram& h) {
  auto bounds = out.initBounds(h.bounds.size());
  for (unsigned i = 0; i < h.bounds.size(); ++i) bounds.set(i, h.bounds[i]);
  auto counts = out.initCounts(h.counts.size());
  for (unsigned i = 0; i < h.counts.size(); ++i) counts.set(i, h.counts[i]);
  out.setCount(h.count);
  out.setSum(h.sum);
}

Histogram read_histogram(st::Histogram::Reader in) {
  Histogram h;
  for (auto b : in.getBounds()) h.bounds.push_back(b);
  for (auto c : in.getCounts()) h.counts.push_back(c);
  h.count = in.getCount();
  h.sum = in.getSum();
  return h;
}

void write_metrics(st::QueueingMetrics::Builder out, const QueueingMetrics& m) {
  {
    auto list = out.initComing(m.coming.size());
    unsigned i = 0;
    for (const auto& [key, count] : m.coming) {
      list[i].setNamespace(text(std::get<0>(key)));
      list[i].setType(text(std::get<1>(key)));
      list[i].setStatus(text(std::get<2>(key)));
      list[i++].setCount(count);
    }
  }
  {
    auto list = out.initAttempts(m.attempts.size());
    unsigned i = 0;
    for (const auto& [key, count] : m.attempts) {
      list[i].setQueue(text(key.first));
      list[i].setResult(text(key.second));
      list[i++].setCount(count);
    }
  }
  {
    auto list = out.initAdmissionWait(m.admission_wait.size());
    unsigned i = 0;
    for (const auto& [queue, h] : m.admission_wait) {
      list[i].setKey(text(queue));
      write_histogram(list[i++].initHistogram(), h);
    }
  }
  write_histogram(out.initE2eLatency(), m.e2e_latency);
  {
    auto list = out.initNamespaceEmptySince(m.namespace_empty_since.size());
    unsigned i = 0;
    for (const auto& [ns, since] : m.namespace_empty_since) {
      list[i].setKey(text(ns));
      list[i++].setValue(since);
    }
  }
}

QueueingMetrics read_metrics(st::QueueingMetrics::Reader in) {
  QueueingMetrics m;
  for (auto e : in.getComing()) {
    const std::string ns = to_string(e.getNamespace()), type = to_string(e.getType()), st = to_string(e.getStatus());
    if (!m.coming.emplace(std::make_tuple(ns, type, st), e.getCount()).second) {
      bad("duplicate coming-rate series " + ns + "/" + type + "/" + st);
    }
  }
  for (auto e : in.getAttempts()) {
    const std::string queue = to_string(e.getQueue()), result = to_string(e.getResult());
    if (!m.attempts.emplace(std::make_pair(queue, result), e.getCount()).second) {
      bad("duplicate attempts series " + queue + "/" + result);
    }
  }
  for (auto e : in.getAdmissionWait()) {
    insert_unique(m.admission_wait, to_string(e.getKey()), read_histogram(e.getHistogram()), "admission-wait series");
  }
  m.e2e_latency = read_histogram(in.getE2eLatency());
  for (auto e : in.getNamespaceEmptySince()) {
    insert_unique(m.namespace_empty_since, to_string(e.getKey()), e.getValue(), "empty namespace");
  }
  return m;
}

// --- quotas --------------------------------------------------------------------------------------

void write_quota_object(st::QuotaObject::Builder out, const std::string& namespace_key, const QuotaInfo& info) {
  out.setNamespaceKey(text(namespace_key));
  schema::write_elastic_quota(out.initObject(), info.object);
  out.setName(text(info.name));
  out.setNamespace(text(info.namespace_));
  out.setUid(text(info.uid));
  out.setCreation(info.creation);
  out.setParent(text(info.parent));
  out.setQueuePolicy(text(info.queue_policy));
  write_optional_text(out.getEnableAnnotation(), info.enable_annotation);
  write_resource_list(out.initMaxRaw(info.max_raw.size()), info.max_raw);
  write_resource_list(out.initMinRaw(info.min_raw.size()), info.min_raw);
  write_vector(out.initMax(info.max.size()), info.max);
  write_vector(out.initMin(info.min.size()), info.min);
}

std::pair<std::string, QuotaInfo> read_quota_object(st::QuotaObject::Reader in) {
  QuotaInfo info;
  std::string namespace_key = to_string(in.getNamespaceKey());
  info.object = schema::read_elastic_quota(in.getObject());
  info.name = to_string(in.getName());
  info.namespace_ = to_string(in.getNamespace());
  info.uid = to_string(in.getUid());
  info.creation = in.getCreation();
  info.parent = to_string(in.getParent());
  info.queue_policy = to_string(in.getQueuePolicy());
  info.enable_annotation = read_optional_text(in.getEnableAnnotation());
  info.max_raw = read_resource_list(in.getMaxRaw());
  info.min_raw = read_resource_list(in.getMinRaw());
  info.max = read_vector(in.getMax());
  info.min = read_vector(in.getMin());
  return {std::move(namespace_key), std::move(info)};
}

void write_usage(st::QuotaUsage::Builder out, const QuotaUsage& u) {
  write_vector(out.initSelfUsed(u.self_used.size()), u.self_used);
  write_vector(out.initChildrenUsed(u.children_used.size()), u.children_used);
  write_vector(out.initUsed(u.used.size()), u.used);
  out.setCount(u.count);
}

QuotaUsage read_usage(st::QuotaUsage::Reader in) {
  QuotaUsage u;
  u.self_used = read_vector(in.getSelfUsed());
  u.children_used = read_vector(in.getChildrenUsed());
  u.used = read_vector(in.getUsed());
  u.count = in.getCount();
  return u;
}

}  // namespace koordq::actors::state_fields
