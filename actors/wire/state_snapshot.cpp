#include "actors/wire/state_snapshot.hpp"

#include <algorithm>
#include <future>
#include <iterator>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include <capnp/message.h>
#include <capnp/serialize.h>

#include "actors/wire/state_fields.hpp"
#include "schema/canonical.hpp"
#include "schema/snapshot.capnp.h"
#include "schema/state.capnp.h"
#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"
#include "schema/wire_message.hpp"
#include "schema/wire_schema_version.hpp"

namespace koordq::actors {
namespace {

using namespace state_fields;  // NOLINT(google-build-using-namespace): the codec is written in its terms
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

// A queue part's payload, borrowed from the snapshot's bytes.
struct QueuePartBytes {
  std::string actor;
  capnp::Data::Reader payload;
};

// The queues of some queue parts, with the units they hold.
struct DecodedQueues {
  std::vector<std::pair<std::string, QueueState>> queues;
  UnitNodes units;
};

DecodedQueues decode_queues(std::span<const QueuePartBytes> parts) {
  DecodedQueues out;
  out.queues.reserve(parts.size());
  for (const QueuePartBytes& part : parts) {
    decode_payload<st::QueuePart>(part.actor, part.payload, [&](st::QueuePart::Reader in) {
      auto [name, q] = read_queue(in, out.units);
      if (part.actor != std::string(kQueuePrefix) + name) bad("part " + part.actor + " holds queue " + name);
      out.queues.emplace_back(std::move(name), std::move(q));
    });
  }
  return out;
}

// Queue parts hold nearly all of a large state's units; above this many payload bytes the second
// half of them is decoded on a thread of its own (each payload is a message of its own, so the
// halves share nothing). A restore otherwise leaves the second core idle until its records are read.
constexpr size_t kParallelQueueBytes = 256 * 1024;

// The queue parts decoded, in two halves of about equal bytes when they are large.
std::vector<DecodedQueues> decode_queue_parts(const std::vector<QueuePartBytes>& parts, size_t bytes) {
  std::vector<DecodedQueues> out;
  if (bytes < kParallelQueueBytes || parts.size() < 2) {
    out.push_back(decode_queues(parts));
    return out;
  }
  size_t split = 0;
  for (size_t taken = 0; split + 1 < parts.size() && taken * 2 < bytes; ++split) taken += parts[split].payload.size();
  const std::span<const QueuePartBytes> all(parts);
  std::future<DecodedQueues> second;
  try {
    second = std::async(std::launch::async, [&] { return decode_queues(all.subspan(split)); });
  } catch (const std::system_error&) {  // no thread to be had (a process or cgroup limit): one at a time
    out.push_back(decode_queues(parts));
    return out;
  }
  out.push_back(decode_queues(all.first(split)));  // if this throws, `second` is waited for first
  out.push_back(second.get());
  return out;
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
  std::vector<QueuePartBytes> queue_parts;
  size_t queue_bytes = 0;
  for (auto part : root.getParts()) {
    std::string actor = to_string(part.getActor());
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
      queue_bytes += payload.size();
      queue_parts.push_back({std::move(actor), payload});
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
  for (DecodedQueues& decoded : decode_queue_parts(queue_parts, queue_bytes)) {
    for (auto& [name, q] : decoded.queues) insert_unique(s.queues_, std::move(name), std::move(q), "queue");
    std::move(decoded.units.begin(), decoded.units.end(), std::back_inserter(unit_nodes));
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
