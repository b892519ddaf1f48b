// The journal the explain tests tell stories from: StoryJournal appends inputs, rounds decided on
// the folded state after them and the outcomes of their writes, folded the way the router does,
// with a snapshot every so many records when asked.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_snapshot.hpp"
#include "journal/watch_record.hpp"
#include "replay/explain.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing::story {

using actors::Decision;
using actors::DecisionKind;

inline constexpr int64_t kStart = 1'776'000'000 * kSec;  // 2026-04-12T13:20:00Z
inline constexpr char kJournalUuid[] = "00000000-0000-4000-8000-000000000001";

// Records appended and folded the way the router does it: inputs, then the round decided on the
// folded state after them.
class StoryJournal {
 public:
  void watch(schema::WatchEventType type, schema::WatchedObject object) {
    schema::WatchEvent event;
    event.type = type;
    event.object = std::move(object);
    append(*journal::make_watch_body(event, schema::RawObjectMode::kOff));
  }
  void added(schema::WatchedObject o) { watch(schema::WatchEventType::kAdded, std::move(o)); }
  void modified(schema::WatchedObject o) { watch(schema::WatchEventType::kModified, std::move(o)); }
  void deleted(schema::WatchedObject o) { watch(schema::WatchEventType::kDeleted, std::move(o)); }
  void tick() { append(*actors::make_tick_body()); }

  std::vector<Decision> round() {
    const uint64_t basis = chain_.last_seq();
    std::vector<Decision> decisions = live_.decide();
    append(*actors::make_round_body(basis, decisions));
    last_round = chain_.last_seq();
    return decisions;
  }

  // The answer to the status patch of decision `index` of the last round.
  void outcome(const std::vector<Decision>& round, uint32_t index, actors::OutcomeResult result, int32_t http_code,
               const std::string& rv = "") {
    actors::Outcome o;
    o.decision_seq = last_round;
    o.decision_index = index;
    o.write_kind = actors::WriteKind::kStatusPatch;
    o.result = result;
    o.http_code = http_code;
    o.resource_version = rv;
    o.target = round.at(index).target;
    append(*actors::make_outcome_body(o));
  }

  void later(int64_t nanos) { time += nanos; }

  // The story of `ns/name`, told from the records up to `last_seq`.
  replay::StoryFolder fold(const std::string& ns, const std::string& name, uint64_t last_seq = UINT64_MAX) const {
    replay::StoryFolder folder(ns, name);
    for (const auto& r : records_) {
      if (r.seq() > last_seq) break;
      const Status added = folder.add(r);
      if (!added.ok()) throw std::runtime_error(added.message());
    }
    return folder;
  }
  replay::Story story(const std::string& name) const {
    const replay::StoryFolder folder = fold("default", name);
    if (!folder.latest_uid()) throw std::runtime_error("no story for " + name);
    return folder.story(*folder.latest_uid());
  }

  int64_t time = kStart;
  uint64_t last_round = 0;
  uint64_t last_seq() const { return chain_.last_seq(); }
  const std::vector<journal::StoredRecord>& records() const { return records_; }

  // Encodes the live state after every `every`-th record, as `serve` writes snapshots.
  void snapshot_every(uint64_t every) { snapshot_every_ = every; }
  const std::vector<std::pair<uint64_t, std::string>>& snapshots() const { return snapshots_; }

 private:
  void append(const journal::CapnpRecordBody& body) {
    journal::StoredRecord r = chain_.append(body, time);
    const Status applied = actors::apply_record(live_, r);
    if (!applied.ok()) throw std::runtime_error(applied.message());
    if (snapshot_every_ != 0 && r.seq() % snapshot_every_ == 0) {
      snapshots_.emplace_back(r.seq(), actors::encode_state_snapshot(live_, r.seq(), r.time(), kJournalUuid));
    }
    records_.push_back(std::move(r));
  }

  RecordChain chain_{kJournalUuid};
  actors::Scheduler live_;
  std::vector<journal::StoredRecord> records_;
  uint64_t snapshot_every_ = 0;
  std::vector<std::pair<uint64_t, std::string>> snapshots_;
};

// The index of the first decision of `kind` in a round; -1 when there is none.
inline int index_of(const std::vector<Decision>& round, DecisionKind kind) {
  for (size_t i = 0; i < round.size(); ++i) {
    if (round[i].kind == kind) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace koordq::testing::story
