#include "actors/runtime/page_maintainer.hpp"

#include <algorithm>

#include "actors/core/unit_facts.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "schema/wire_codec.hpp"
#include "schema/wire_message.hpp"

namespace koordq::actors::runtime {
namespace {

template <class Page>
using Pages = pages::PageMap<Page>;

std::string namespace_of(const std::string& key) {
  return key.substr(0, key.find('/'));
}

}  // namespace

PageMaintainer::PageMaintainer(Scheduler& s, uint64_t revision)
    : state_(s), pages_(pages::build_read_pages(s, revision)), labels_(pages::label_index(s)) {
  state_.note_changes(&changes_);
  index_changes_at();
}

void PageMaintainer::index_changes_at() {
  changes_at_.clear();
  for (const auto& [label, page] : *pages_.queues) {
    if (page->changes_at) changes_at_.emplace(*page->changes_at, label);
  }
}

PageMaintainer::~PageMaintainer() {
  state_.note_changes(nullptr);
}

void PageMaintainer::touch_unit(const Scheduler& s, const std::string& key) {
  if (units_.count(key)) return;
  std::optional<std::string>& before = units_[key];
  if (const auto it = s.units().find(key); it != s.units().end()) {
    before = it->second.quota;
    dirty_labels_.insert(it->second.quota);
  }
}

void PageMaintainer::note_record(const Scheduler& s, const journal::StoredRecord& record) {
  const auto body = record.reader().getBody();
  const auto unit_target = [&](const Target& target) {
    if (const auto* unit = std::get_if<UnitRef>(&target)) {
      touch_unit(s, unit_key(unit->namespace_, unit->name));
      dirty_labels_.insert(unit->quota);
      dirty_labels_.insert(unit->queue);
    } else {
      dirty_labels_.insert(std::get<QueueRef>(target).name);
    }
  };
  switch (record.kind()) {
    case journal::RecordKind::kTick:
      return;
    case journal::RecordKind::kWatch: {
      const auto watch = body.getWatch();
      if (watch.getEventType() == wire::Watch::EventType::BOOKMARK) return;
      schema::WatchedObject object;
      if (!schema::read_watched_object(watch.getObject(), object).ok()) {
        all_ = true;
        return;
      }
      switch (schema::kind_of(object)) {
        case schema::ObjectKind::kQueueUnit: {
          const auto& unit = std::get<schema::QueueUnit>(object);
          touch_unit(s, unit_key(unit.metadata.namespace_, unit.metadata.name));
          // A unit created and deleted within the batch is in the state neither before nor after
          // it, yet its queue saw it come and go.
          dirty_labels_.insert(quota_name_of(unit));
          return;
        }
        case schema::ObjectKind::kQueue: {
          // It maps or unmaps the units carrying its name, which changes whether they wait.
          const std::string& name = std::get<schema::Queue>(object).metadata.name;
          dirty_labels_.insert(name);
          queue_events_.insert(name);
          return;
        }
        default:
          all_ = true;
          return;
      }
    }
    case journal::RecordKind::kRound: {
      auto decisions = read_round_kept(body.getRound());
      if (!decisions.ok()) {
        all_ = true;
        return;
      }
      for (const Decision& d : *decisions) {
        unit_target(d.target);
        for (const Victim& v : d.victims) unit_target(v.unit);
      }
      return;
    }
    case journal::RecordKind::kOutcome: {
      Outcome outcome;
      if (!read_outcome(body.getOutcome(), outcome).ok()) {
        all_ = true;
        return;
      }
      unit_target(outcome.target);
      return;
    }
    default:
      all_ = true;
  }
}

void PageMaintainer::before_fold(const Scheduler& s, const std::vector<journal::StoredRecord>& records,
                                 uint64_t applied_before, uint64_t applied) {
  int64_t until = s.now();
  for (const auto& record : records) {
    if (record.seq() <= applied_before) continue;
    if (record.seq() > applied) break;
    until = std::max(until, record.time());
    if (!all_) {
      try {
        note_record(s, record);
      } catch (const kj::Exception&) {
        all_ = true;  // the fold refuses it too
      }
    }
  }
  if (all_) return;
  // Time passes: queue timers fire, backoffs end.
  for (const auto& [time, queue] : s.queue_timers()) {
    if (time > until) break;
    dirty_labels_.insert(queue);
  }
  for (const auto& [time, label] : changes_at_) {
    if (time > until) break;
    dirty_labels_.insert(label);
  }
}

void PageMaintainer::after_fold(const Scheduler& s, uint64_t revision) {
  if (all_) {
    labels_ = pages::label_index(s);
    pages_ = pages::build_read_pages(s, revision, labels_);
    index_changes_at();
    all_ = false;
    units_.clear();
    dirty_labels_.clear();
    queue_events_.clear();
    changes_.clear();
    return;
  }
  std::set<std::string> namespaces;
  for (const std::string& name : queue_events_) {
    if (const auto it = labels_.find(name); it != labels_.end()) {
      for (const std::string& key : it->second) namespaces.insert(namespace_of(key));
    }
  }
  for (const auto& [key, before] : units_) {
    namespaces.insert(namespace_of(key));
    // Out of the label it had, into the one it has.
    if (before) {
      if (const auto it = labels_.find(*before); it != labels_.end()) it->second.erase(key);
    }
    if (const auto it = s.units().find(key); it != s.units().end()) {
      dirty_labels_.insert(it->second.quota);
      labels_[it->second.quota].insert(key);
    }
  }
  // What the fold changed beyond what the records name: a capacity change reaches the queues of a
  // subtree, a Queue event the units it maps.
  std::set<std::string>& labels = dirty_labels_;
  labels.merge(changes_.labels);
  labels.merge(changes_.queues);
  for (const std::string& key : changes_.units) namespaces.insert(namespace_of(key));
  // A unit's charge counts in every quota of its label's path.
  std::set<std::string> accounts;
  for (const std::string& label : labels) {
    for (const std::string& name : s.quotas().path_of(label)) accounts.insert(name);
  }
  static const std::set<std::string> kNone;
  std::set<std::string> changed;  // the units the batch's records named or the fold refreshed
  for (const auto& [key, before] : units_) changed.insert(changed.end(), key);
  changed.merge(changes_.units);
  auto queues = std::make_shared<Pages<pages::QueuePage>>(*pages_.queues);
  for (const std::string& label : labels) {
    const auto keys = labels_.find(label);
    const bool has_units = keys != labels_.end() && !keys->second.empty();
    if (keys != labels_.end() && !has_units) labels_.erase(keys);
    const auto previous = queues->find(label);
    if (previous != queues->end() && previous->second->changes_at) {
      changes_at_.erase({*previous->second->changes_at, label});
    }
    if (!has_units && !s.queues().count(label)) {
      if (previous != queues->end()) queues->erase(previous);
      continue;
    }
    auto page = std::make_shared<const pages::QueuePage>(
        pages::build_queue_page(s, label, has_units ? keys->second : kNone,
                                previous == queues->end() ? nullptr : previous->second.get(), &changed));
    if (page->changes_at) changes_at_.emplace(*page->changes_at, label);
    (*queues)[label] = std::move(page);
  }
  auto quotas = std::make_shared<Pages<pages::QuotaAccount>>(*pages_.quotas);
  for (const std::string& name : accounts) {
    (*quotas)[name] = std::make_shared<const pages::QuotaAccount>(pages::build_quota_account(s, name));
  }
  auto namespace_pages = std::make_shared<Pages<pages::NamespacePage>>(*pages_.namespaces);
  for (const std::string& ns : namespaces) {
    if (auto page = pages::build_namespace_page(s, ns)) {
      (*namespace_pages)[ns] = std::make_shared<const pages::NamespacePage>(std::move(*page));
    } else {
      namespace_pages->erase(ns);
    }
  }
  pages_.revision = revision;
  pages_.queues = std::move(queues);
  pages_.quotas = std::move(quotas);
  pages_.namespaces = std::move(namespace_pages);
  pages_.metrics = std::make_shared<const QueueingMetrics>(s.metrics());
  units_.clear();
  dirty_labels_.clear();
  queue_events_.clear();
  changes_.clear();
}

}  // namespace koordq::actors::runtime
