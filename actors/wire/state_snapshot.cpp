#include "actors/wire/state_snapshot.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include <capnp/message.h>
#include <capnp/serialize.h>

#include "actors/wire/queue_write_wire.hpp"
#include "schema/canonical.hpp"
#include "schema/snapshot.capnp.h"
#include "schema/state.capnp.h"
#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"
#include "schema/wire_message.hpp"
#include "schema/wire_schema_version.hpp"

namespace koordq::actors {
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

constexpr char kRouterPart[] = "router";
constexpr std::string_view kQueuePrefix = "queue/";
constexpr std::string_view kQuotaPrefix = "quota/";

// A payload that decodes but does not make a state (a duplicate key, an unknown enumerant):
// thrown inside the decoder, turned into an Error at its edge like kj::Exception.
class BadSnapshot : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void bad(const std::string& what) {
  throw BadSnapshot(what);
}

template <class Map, class Key, class Value>
void insert_unique(Map& map, Key&& key, Value&& value, const char* what) {
  const auto [it, inserted] = map.emplace(std::forward<Key>(key), std::forward<Value>(value));
  if (!inserted) bad(std::string("duplicate ") + what + " " + it->first);
}

template <class Set, class Key>
void insert_unique(Set& set, Key&& key, const char* what) {
  if (!set.insert(std::forward<Key>(key)).second) bad(std::string("duplicate ") + what);
}

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
  out.setCapacityChanged(u.capacity_changed);

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

using UnitEntry = const std::pair<const std::string, UnitState>*;

void write_units(capnp::List<st::UnitState>::Builder out, const std::vector<UnitEntry>& units) {
  unsigned i = 0;
  for (const auto* entry : units) write_unit(out[i++], entry->first, entry->second);
}

using UnitNodes = std::vector<UnitMap::node_type>;

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

// --- messages ------------------------------------------------------------------------------------

// One payload: a canonical message (one segment, no segment table) built by `fill`.
template <class T, class Fill>
std::string canonical_message(Fill&& fill) {
  capnp::MallocMessageBuilder message;
  auto root = message.initRoot<T>();
  fill(root);
  return schema::canonical_bytes(root.asReader());
}

// `decode(root)` on the payload of part `actor`; malformed bytes throw kj::Exception.
template <class T, class Decode>
void decode_payload(const std::string& actor, capnp::Data::Reader payload, Decode&& decode) {
  auto message = wire::FlatMessage::borrow_segment(
      std::string_view(reinterpret_cast<const char*>(payload.begin()), payload.size()));
  if (!message) bad("part " + actor + ": " + message.message());
  try {
    decode(message->template root<T>());
  } catch (const kj::Exception& e) {
    bad("part " + actor + ": malformed: " + wire::describe(e));
  }
}

}  // namespace

// The friend of Scheduler and QuotaTree that reads and rebuilds their private state.
class StateSnapshotCodec {
 public:
  static std::string encode(const Scheduler& s, uint64_t seq, int64_t time, const std::string& journal_uuid);
  static RestoredState decode(wire::Snapshot::Reader root, const DecisionConfig& config);

 private:
  struct QuotaEntry {
    const std::map<std::string, QuotaInfo>* objects = nullptr;
    const QuotaUsage* usage = nullptr;
    const schema::ResourceVector* self_used = nullptr;
    const int64_t* self_count = nullptr;
  };
};

std::string StateSnapshotCodec::encode(const Scheduler& s, uint64_t seq, int64_t time,
                                       const std::string& journal_uuid) {
  // Units go with the queue their quota label names, else with the router.
  std::vector<UnitEntry> unqueued;
  std::map<std::string, std::vector<UnitEntry>> queued;
  for (const auto& entry : s.units_) {
    if (s.queues_.count(entry.second.quota)) {
      queued[entry.second.quota].push_back(&entry);
    } else {
      unqueued.push_back(&entry);
    }
  }
  // Every name the quota tree keeps anything under.
  const QuotaTree& tree = s.quotas_;
  std::map<std::string, QuotaEntry> quotas;
  for (const auto& [name, objects] : tree.objects_) quotas[name].objects = &objects;
  for (const auto& [name, usage] : tree.usage_) quotas[name].usage = &usage;
  for (const auto& [name, used] : tree.self_used_) quotas[name].self_used = &used;
  for (const auto& [name, count] : tree.self_count_) quotas[name].self_count = &count;

  std::vector<std::pair<std::string, std::string>> parts;  // actor, payload
  parts.reserve(1 + s.queues_.size() + quotas.size());
  parts.emplace_back(kRouterPart, canonical_message<st::RouterPart>([&](st::RouterPart::Builder out) {
                       out.setNow(s.now_);
                       write_config(out.initConfig(), s.config_);
                       write_units(out.initUnits(unqueued.size()), unqueued);
                       auto autos = out.initAutoQueues(s.auto_queues_.size());
                       unsigned i = 0;
                       for (const auto& [name, a] : s.auto_queues_) write_auto_queue(autos[i++], name, a);
                       write_metrics(out.initMetrics(), s.metrics_);
                       out.setPreviousNow(s.previous_now_);
                       write_optional(out.getRelistCutoff(), s.relist_cutoff_);
                       out.setRelistingUnits(s.relisting_units_);
                     }));
  static const std::vector<UnitEntry> kNoUnits;
  for (const auto& [name, q] : s.queues_) {
    const auto it = queued.find(name);
    const auto& units = it == queued.end() ? kNoUnits : it->second;
    parts.emplace_back(std::string(kQueuePrefix) + name,
                       canonical_message<st::QueuePart>([&, &name = name, &q = q](st::QueuePart::Builder out) {
                         write_queue(out, name, q, units);
                       }));
  }
  for (const auto& [name, entry] : quotas) {
    parts.emplace_back(std::string(kQuotaPrefix) + name,
                       canonical_message<st::QuotaPart>([&name = name, &entry = entry](st::QuotaPart::Builder out) {
                         out.setName(text(name));
                         if (entry.objects) {
                           auto list = out.getObjects().initValue(entry.objects->size());
                           unsigned i = 0;
                           for (const auto& [ns, info] : *entry.objects) write_quota_object(list[i++], ns, info);
                         } else {
                           out.getObjects().setAbsent();
                         }
                         if (entry.usage) {
                           write_usage(out.getUsage().initValue(), *entry.usage);
                         } else {
                           out.getUsage().setAbsent();
                         }
                         if (entry.self_used) {
                           write_vector(out.getSelfUsed().initValue(entry.self_used->size()), *entry.self_used);
                         } else {
                           out.getSelfUsed().setAbsent();
                         }
                         if (entry.self_count) {
                           out.getSelfCount().setValue(*entry.self_count);
                         } else {
                           out.getSelfCount().setAbsent();
                         }
                       }));
  }

  return canonical_message<wire::Snapshot>([&](wire::Snapshot::Builder out) {
    out.setSeq(seq);
    out.setTime(time);
    out.setJournalUuid(text(journal_uuid));
    out.setDecisionLogicVersion(kDecisionLogicVersion);
    out.setSchemaMajor(schema::kWireSchemaMajor);
    out.setSchemaMinor(schema::kWireSchemaMinor);
    auto list = out.initParts(parts.size());
    unsigned i = 0;
    for (const auto& [actor, payload] : parts) {
      auto part = list[i++];
      part.setActor(text(actor));
      part.setIncremental(false);
      part.setPayload(capnp::Data::Reader(reinterpret_cast<const kj::byte*>(payload.data()), payload.size()));
    }
  });
}

RestoredState StateSnapshotCodec::decode(wire::Snapshot::Reader root, const DecisionConfig& config) {
  RestoredState out;
  out.seq = root.getSeq();
  out.time = root.getTime();
  out.journal_uuid = to_string(root.getJournalUuid());
  out.decision_logic_version = root.getDecisionLogicVersion();
  out.schema_major = root.getSchemaMajor();
  out.schema_minor = root.getSchemaMinor();
  if (out.schema_major != schema::kWireSchemaMajor) {
    bad("snapshot of schema version " + std::to_string(out.schema_major) + "." + std::to_string(out.schema_minor) +
        "; this binary reads major version " + std::to_string(schema::kWireSchemaMajor));
  }
  if (out.decision_logic_version != kDecisionLogicVersion) {
    bad("snapshot written by decision logic v" + std::to_string(out.decision_logic_version) + "; this binary runs v" +
        std::to_string(kDecisionLogicVersion) + " (replay from the start instead)");
  }

  Scheduler& s = out.scheduler;
  s.config_ = config;
  QuotaTree& tree = s.quotas_;
  bool router_seen = false;
  UnitNodes unit_nodes;
  std::set<std::string> actors;
  for (auto part : root.getParts()) {
    const std::string actor = to_string(part.getActor());
    if (!actors.insert(actor).second) bad("duplicate part " + actor);
    if (part.getIncremental()) bad("part " + actor + " is incremental; only full snapshots are read");
    const auto payload = part.getPayload();
    if (actor == kRouterPart) {
      router_seen = true;
      decode_payload<st::RouterPart>(actor, payload, [&](st::RouterPart::Reader in) {
        const DecisionConfig taken_under = read_config(in.getConfig());
        if (!(taken_under == config)) {
          bad("snapshot folded under another decision configuration (" + describe(taken_under) +
              ") than the one asked for (" + describe(config) + ")");
        }
        s.now_ = in.getNow();
        read_units(in.getUnits(), unit_nodes);
        for (auto a : in.getAutoQueues()) {
          auto [name, entry] = read_auto_queue(a);
          insert_unique(s.auto_queues_, std::move(name), std::move(entry), "auto queue");
        }
        s.metrics_ = read_metrics(in.getMetrics());
        s.previous_now_ = in.getPreviousNow();
        s.relist_cutoff_ = read_optional(in.getRelistCutoff());
        s.relisting_units_ = in.getRelistingUnits();
      });
    } else if (actor.starts_with(kQueuePrefix)) {
      decode_payload<st::QueuePart>(actor, payload, [&](st::QueuePart::Reader in) {
        auto [name, q] = read_queue(in, unit_nodes);
        if (actor != std::string(kQueuePrefix) + name) bad("part " + actor + " holds queue " + name);
        insert_unique(s.queues_, std::move(name), std::move(q), "queue");
      });
    } else if (actor.starts_with(kQuotaPrefix)) {
      decode_payload<st::QuotaPart>(actor, payload, [&](st::QuotaPart::Reader in) {
        const std::string name = to_string(in.getName());
        if (actor != std::string(kQuotaPrefix) + name) bad("part " + actor + " holds quota " + name);
        if (auto objects = in.getObjects(); objects.isValue()) {
          std::map<std::string, QuotaInfo> by_namespace;
          for (auto o : objects.getValue()) {
            auto [ns, info] = read_quota_object(o);
            insert_unique(by_namespace, std::move(ns), std::move(info), "quota object in namespace");
          }
          tree.objects_.emplace(name, std::move(by_namespace));
        }
        if (auto usage = in.getUsage(); usage.isValue()) tree.usage_.emplace(name, read_usage(usage.getValue()));
        if (auto used = in.getSelfUsed(); used.isValue()) tree.self_used_.emplace(name, read_vector(used.getValue()));
        if (auto count = in.getSelfCount(); count.isValue()) tree.self_count_.emplace(name, count.getValue());
      });
    } else {
      bad("unknown part " + actor);
    }
  }
  if (!router_seen) bad("no router part");
  place_units(unit_nodes, s.units_);
  tree.reindex();
  if (!s.rebuild_indexes()) {
    for (const auto& [name, q] : s.queues_) {
      for (const auto& key : q.members) {
        if (!s.units_.count(key)) bad("queue " + name + " lists member " + key + ", which is no unit of the snapshot");
      }
    }
  }
  return out;
}

std::string encode_state_snapshot(const Scheduler& scheduler, uint64_t seq, int64_t time,
                                  const std::string& journal_uuid) {
  return StateSnapshotCodec::encode(scheduler, seq, time, journal_uuid);
}

Result<DecisionConfig> snapshot_decision_config(std::string_view bytes) {
  auto message = wire::FlatMessage::borrow_segment(bytes);
  if (!message) return make_error("state snapshot: " + message.message());
  try {
    for (auto part : message->root<wire::Snapshot>().getParts()) {
      if (to_string(part.getActor()) != kRouterPart) continue;
      DecisionConfig config;
      decode_payload<st::RouterPart>(kRouterPart, part.getPayload(),
                                     [&](st::RouterPart::Reader in) { config = read_config(in.getConfig()); });
      return config;
    }
    return make_error("state snapshot: no router part");
  } catch (const BadSnapshot& e) {
    return make_error(std::string("state snapshot: ") + e.what());
  } catch (const kj::Exception& e) {
    return make_error("state snapshot: malformed: " + wire::describe(e));
  }
}

Result<RestoredState> decode_state_snapshot(std::string_view bytes, const DecisionConfig& config) {
  auto message = wire::FlatMessage::borrow_segment(bytes);
  if (!message) return make_error("state snapshot: " + message.message());
  try {
    return StateSnapshotCodec::decode(message->root<wire::Snapshot>(), config);
  } catch (const BadSnapshot& e) {
    return make_error(std::string("state snapshot: ") + e.what());
  } catch (const kj::Exception& e) {
    return make_error("state snapshot: malformed: " + wire::describe(e));
  } catch (const std::exception& e) {
    return make_error(std::string("state snapshot: cannot be read: ") + e.what());
  }
}

}  // namespace koordq::actors
