#include "journal/unit_index.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_set>

#include <capnp/message.h>
#include <kj/exception.h>
#include <rocksdb/iterator.h>

#include "journal/keys.hpp"

namespace koordq::journal {
namespace {

std::string_view view(capnp::Text::Reader text) {
  return {text.begin(), text.size()};
}

// The units of one record, each once (a round can name thousands).
class UnitList {
 public:
  void add(std::string_view ns, std::string_view name) {
    std::string unit;
    unit.reserve(ns.size() + 1 + name.size());
    unit.append(ns).append("/").append(name);
    if (seen_.insert(unit).second) units_.push_back(std::move(unit));
  }
  void add(wire::Target::Reader target) {
    if (!target.isUnit()) return;
    const auto unit = target.getUnit();
    add(view(unit.getNamespace()), view(unit.getName()));
  }
  std::vector<std::string> take() { return std::move(units_); }

 private:
  std::vector<std::string> units_;
  std::unordered_set<std::string> seen_;
};

std::string unit_prefix(std::string_view ns, std::string_view name) {
  std::string prefix;
  prefix.reserve(ns.size() + name.size() + 2);
  prefix.append(ns).append("/").append(name).append("/");
  return prefix;
}

// The seq of an index key whose unit part is `prefix_size` bytes long.
std::optional<uint64_t> seq_of(const rocksdb::Slice& key, size_t prefix_size) {
  if (key.size() != prefix_size + 8) return std::nullopt;
  return decode_seq_key(std::string_view(key.data() + prefix_size, 8));
}

}  // namespace

std::vector<std::string> units_named_by(wire::Record::Reader record) {
  UnitList units;
  const auto body = record.getBody();
  switch (body.which()) {
    case wire::Record::Body::WATCH: {
      const auto w = body.getWatch();
      if (w.getEventType() != wire::Watch::EventType::BOOKMARK && w.getObjectKind() == wire::ObjectKind::QUEUE_UNIT) {
        units.add(view(w.getNamespace()), view(w.getName()));
      }
      break;
    }
    case wire::Record::Body::ROUND:
      for (const auto decision : body.getRound().getDecisions()) units.add(decision.getTarget());
      break;
    case wire::Record::Body::OUTCOME:
      units.add(body.getOutcome().getTarget());
      break;
    default:
      break;
  }
  return units.take();
}

std::string unit_index_key(std::string_view unit, uint64_t seq) {
  std::string key;
  key.reserve(unit.size() + 9);
  key.append(unit).append("/").append(seq_key(seq));
  return key;
}

void index_units(RocksStore& store, rocksdb::WriteBatch& batch, uint64_t seq, std::string_view canonical_bytes) {
  if (store.unit() == nullptr || canonical_bytes.size() % sizeof(capnp::word) != 0) return;
  // Cap'n Proto readers need word-aligned memory: the writer's strings are, a copy otherwise.
  kj::Array<capnp::word> copy;
  const auto* data = reinterpret_cast<const capnp::word*>(canonical_bytes.data());
  if (reinterpret_cast<uintptr_t>(data) % alignof(capnp::word) != 0) {
    copy = kj::heapArray<capnp::word>(canonical_bytes.size() / sizeof(capnp::word));
    std::memcpy(copy.begin(), canonical_bytes.data(), canonical_bytes.size());
    data = copy.begin();
  }
  try {
    capnp::ReaderOptions options;
    options.traversalLimitInWords = 64 * 1024 * 1024;
    const kj::ArrayPtr<const capnp::word> segment(data, canonical_bytes.size() / sizeof(capnp::word));
    capnp::SegmentArrayMessageReader message(kj::ArrayPtr<const kj::ArrayPtr<const capnp::word>>(&segment, 1), options);
    for (const auto& unit : units_named_by(message.getRoot<wire::Record>())) {
      batch.Put(store.unit(), unit_index_key(unit, seq), rocksdb::Slice());
    }
  } catch (const kj::Exception&) {
    // Not decodable: no keys (see the declaration).
  }
}

Result<std::optional<std::vector<uint64_t>>> unit_touches(RocksStore& store, std::string_view ns, std::string_view name,
                                                          uint64_t from, uint64_t to) {
  if (store.unit() == nullptr) return std::optional<std::vector<uint64_t>>();
  auto covered = store.get(store.meta(), kMetaUnitIndexFrom);
  if (!covered.ok()) return covered.error();
  if (!covered->has_value()) return std::optional<std::vector<uint64_t>>();
  uint64_t index_from = 0;
  try {
    index_from = std::stoull(**covered);
  } catch (const std::exception&) {
    return make_error("journal meta " + std::string(kMetaUnitIndexFrom) + " is not a seq: " + **covered);
  }
  if (index_from > from) return std::optional<std::vector<uint64_t>>();

  const std::string prefix = unit_prefix(ns, name);
  const std::string begin = prefix + seq_key(from);
  std::vector<uint64_t> seqs;
  std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.unit()));
  for (it->Seek(begin); it->Valid(); it->Next()) {
    const rocksdb::Slice key = it->key();
    if (!key.starts_with(prefix)) break;
    const auto seq = seq_of(key, prefix.size());
    if (!seq) continue;
    if (*seq > to) break;
    seqs.push_back(*seq);
  }
  if (!it->status().ok()) return rocks_error("cannot read the unit index", it->status());
  return std::optional<std::vector<uint64_t>>(std::move(seqs));
}

Result<uint64_t> drop_unit_index_before(RocksStore& store, uint64_t first) {
  if (store.unit() == nullptr) return uint64_t{0};
  rocksdb::WriteBatch batch;
  uint64_t dropped = 0;
  std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.unit()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const rocksdb::Slice key = it->key();
    if (key.size() < 8) continue;
    const auto seq = decode_seq_key(std::string_view(key.data() + key.size() - 8, 8));
    if (seq && *seq < first) {
      batch.Delete(store.unit(), key);
      ++dropped;
    }
  }
  if (!it->status().ok()) return rocks_error("cannot read the unit index", it->status());
  if (dropped == 0) return dropped;
  if (Status s = store.write(batch, true); !s.ok()) return s.error();
  return dropped;
}

}  // namespace koordq::journal
