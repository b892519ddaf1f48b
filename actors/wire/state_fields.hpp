// The fields of a state snapshot (design.md, Snapshots): each part of the decision state to and
// from its Cap'n Proto struct of schema/state.capnp, for the codec of state_snapshot.cpp. Internal
// to actors/wire: a payload that decodes but does not make a state throws BadSnapshot, which the
// codec turns into an Error at its edge.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "schema/state.capnp.h"

namespace koordq::actors::state_fields {

namespace st = wire::state;

inline constexpr char kRouterPart[] = "router";
inline constexpr std::string_view kQueuePrefix = "queue/";
inline constexpr std::string_view kQuotaPrefix = "quota/";

// A payload that decodes but does not make a state (a duplicate key, an unknown enumerant):
// thrown inside the decoder, turned into an Error at its edge like kj::Exception.
class BadSnapshot : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void bad(const std::string& what) {
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

using UnitEntry = const std::pair<const std::string, UnitState>*;
using UnitNodes = std::vector<UnitMap::node_type>;

void write_vector(capnp::List<st::ResourceAmount>::Builder out, const schema::ResourceVector& v);
schema::ResourceVector read_vector(capnp::List<st::ResourceAmount>::Reader in);
void write_config(st::DecisionConfig::Builder out, const DecisionConfig& c);
DecisionConfig read_config(st::DecisionConfig::Reader in);
std::string describe(const DecisionConfig& c);
void write_units(capnp::List<st::UnitState>::Builder out, const std::vector<UnitEntry>& units);
void read_units(capnp::List<st::UnitState>::Reader in, UnitNodes& into);
void place_units(UnitNodes& nodes, UnitMap& units);
void write_queue(st::QueuePart::Builder out, const std::string& name, const QueueState& q,
                 const std::vector<UnitEntry>& units);
std::pair<std::string, QueueState> read_queue(st::QueuePart::Reader in, UnitNodes& units);
void write_auto_queue(st::AutoQueue::Builder out, const std::string& name, const AutoQueue& a);
std::pair<std::string, AutoQueue> read_auto_queue(st::AutoQueue::Reader in);
void write_metrics(st::QueueingMetrics::Builder out, const QueueingMetrics& m);
QueueingMetrics read_metrics(st::QueueingMetrics::Reader in);
void write_quota_object(st::QuotaObject::Builder out, const std::string& namespace_key, const QuotaInfo& info);
std::pair<std::string, QuotaInfo> read_quota_object(st::QuotaObject::Reader in);
void write_usage(st::QuotaUsage::Builder out, const QuotaUsage& u);
QuotaUsage read_usage(st::QuotaUsage::Reader in);

}  // namespace koordq::actors::state_fields
