// The serve loop of controller/ driven by a script, with no API server and no simulator: the
// script's beats are what happened in the cluster, a scripted inbox hands them in (after the
// answers to the previous round's writes), a recording writer answers every write with success,
// and the journal is a real one in a directory of the test, stamped with the script's clock.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "controller/inbox_source.hpp"
#include "controller/round_writer.hpp"
#include "controller/serve_loop.hpp"
#include "controller/serve_start.hpp"
#include "journal/record_clock.hpp"
#include "schema/wire_schema_version.hpp"

namespace koordq::testing {

// One moment of the script: the cluster's changes then.
struct Beat {
  int64_t time = 0;
  std::vector<schema::WatchEvent> events;
  std::vector<controller::LoopInput> inputs = {};  // after the events: the election's, the clock's
};

inline schema::WatchEvent event(schema::WatchEventType type, schema::WatchedObject object) {
  schema::WatchEvent e;
  e.type = type;
  e.object = std::move(object);
  return e;
}

// The objects the script's events left in the cluster: what a relist lists.
class ScriptedApiServer {
 public:
  void apply(const schema::WatchEvent& e) {
    const auto& meta = schema::meta_of(*e.object);
    const auto key = std::pair{static_cast<int>(schema::kind_of(*e.object)), meta.namespace_ + "/" + meta.name};
    if (e.type == schema::WatchEventType::kDeleted) {
      objects_.erase(key);
    } else {
      objects_.insert_or_assign(key, *e.object);
    }
    ++revision_;
  }
  kube::ListSnapshot list(schema::ObjectKind kind) const {
    kube::ListSnapshot out;
    out.resource_version = std::to_string(revision_);
    for (const auto& [key, object] : objects_) {
      if (key.first == static_cast<int>(kind)) out.items.push_back(schema::DecodedObject{object, "", {}});
    }
    return out;
  }

 private:
  std::map<std::pair<int, std::string>, schema::WatchedObject> objects_;
  uint64_t revision_ = 1;
};

// A write handed to the writer: "<kind> <target>" (status, spec.queue, queue), with its round.
struct IssuedWrite {
  uint64_t round_seq = 0;
  uint32_t index = 0;
  actors::WriteKind kind = actors::WriteKind::kStatusPatch;
  std::string what;
  actors::DecisionKind decision = actors::DecisionKind::kAdmit;
};

// The inbox: at (re)start the election's acquisition and one relist per resource, then the
// answers to the last round's writes and the next beat, one take() each.
class ScriptedInbox : public controller::InboxSource {
 public:
  // `leader`: the opening starts with this replica acquiring the Lease.
  ScriptedInbox(std::deque<Beat> beats, ScriptedApiServer& api, int64_t& clock, bool leader = true)
      : beats_(std::move(beats)), api_(api), clock_(clock) {
    if (leader) {
      controller::LoopInput acquired;
      acquired.kind = controller::LoopInput::Kind::kAcquired;
      acquired.text = "koordq-0";
      acquired.lease_transitions = 1;
      opening_.push_back(std::move(acquired));
    }
    for (auto kind : {schema::ObjectKind::kElasticQuota, schema::ObjectKind::kQueue, schema::ObjectKind::kQueueUnit}) {
      controller::LoopInput relist;
      relist.kind = controller::LoopInput::Kind::kRelist;
      relist.resource = kind;
      opening_.push_back(std::move(relist));
    }
  }

  std::vector<controller::LoopInput> take(std::chrono::nanoseconds) override {
    std::vector<controller::LoopInput> out;
    if (!opening_.empty()) {
      for (auto& in : opening_) {
        if (in.kind == controller::LoopInput::Kind::kRelist) in.list = api_.list(in.resource);
        out.push_back(std::move(in));
      }
      opening_.clear();
      return out;
    }
    out = std::move(answers);
    answers.clear();
    if (!beats_.empty()) {
      clock_ = beats_.front().time;
      for (auto& e : beats_.front().events) {
        api_.apply(e);
        out.push_back(controller::LoopInput{.kind = controller::LoopInput::Kind::kWatch, .event = std::move(e)});
      }
      for (auto& in : beats_.front().inputs) out.push_back(std::move(in));
      beats_.pop_front();
    }
    return out;
  }
  int64_t now() const override { return clock_; }
  std::optional<int64_t> round_time() const override { return clock_; }
  bool finished() const override { return opening_.empty() && beats_.empty() && answers.empty(); }
  // The beats not yet handed in (the cluster goes on without a crashed process).
  std::deque<Beat> remaining_beats() const { return beats_; }

  std::vector<controller::LoopInput> answers;  // to the writes of the last round

 private:
  std::vector<controller::LoopInput> opening_;
  std::deque<Beat> beats_;
  ScriptedApiServer& api_;
  int64_t& clock_;
};

// Records every write of a round and answers it with success (through the inbox).
class RecordingWriter : public controller::RoundWriter {
 public:
  RecordingWriter(std::vector<IssuedWrite>& issued, ScriptedInbox& inbox) : issued_(issued), inbox_(inbox) {}

  void carry_out(uint64_t round_seq, const std::vector<actors::Decision>& decisions) override {
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      const actors::Decision& d = decisions[i];
      if (const auto* unit = std::get_if<actors::UnitRef>(&d.target)) {
        const std::string name = unit->namespace_ + "/" + unit->name;
        if (d.status_patch) answer(round_seq, i, d, actors::WriteKind::kStatusPatch, "status " + name);
        if (d.spec_queue_patch) answer(round_seq, i, d, actors::WriteKind::kSpecQueuePatch, "spec.queue " + name);
      } else if (d.queue_write) {
        answer(round_seq, i, d, actors::WriteKind::kQueueWrite, "queue " + std::get<actors::QueueRef>(d.target).name);
      }
    }
  }

 private:
  void answer(uint64_t round_seq, uint32_t index, const actors::Decision& d, actors::WriteKind kind, std::string what) {
    issued_.push_back({round_seq, index, kind, std::move(what), d.kind});
    controller::LoopInput in;
    in.kind = controller::LoopInput::Kind::kOutcome;
    in.outcome.decision_seq = round_seq;
    in.outcome.decision_index = index;
    in.outcome.write_kind = kind;
    in.outcome.result = actors::OutcomeResult::kSuccess;
    in.outcome.resource_version = std::to_string(1000 + round_seq);
    in.outcome.target = d.target;
    inbox_.answers.push_back(std::move(in));
  }

  std::vector<IssuedWrite>& issued_;
  ScriptedInbox& inbox_;
};

// The `config` record of a start with every flag at its default.
inline std::unique_ptr<journal::CapnpRecordBody> default_config_record(const journal::Journal& journal) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto config = body->record().initBody().initConfig();
  config.setDecisionLogicVersion(actors::kDecisionLogicVersion);
  config.setJournalUuid(journal.uuid());
  config.setSchemaMajor(schema::kWireSchemaMajor);
  config.setSchemaMinor(schema::kWireSchemaMinor);
  return body;
}

// One process of `serve` over the journal in `dir`: the shared start, then the loop over the
// scripted inbox, leading once the opening batch is applied.
class ScriptedServe {
 public:
  ScriptedServe(const std::filesystem::path& dir, std::deque<Beat> beats, ScriptedApiServer& api, int64_t& clock,
                controller::LoopObserver& observer, bool leader = true)
      : record_clock_([&clock] { return clock; }, [&clock] { return clock; }) {
    controller::StartOptions options;
    options.journal.dir = dir;
    options.journal.clock = &record_clock_;
    options.engine.threads = 1;
    controller::StartHooks hooks;
    hooks.config_record = default_config_record;
    hooks.start_time = [&clock](const actors::Scheduler&) { return std::optional<int64_t>(clock); };
    auto started = controller::start_serve(options, "", hooks);
    if (!started.ok()) throw std::runtime_error(started.message());
    started_ = std::move(started).value();
    inbox_ = std::make_unique<ScriptedInbox>(std::move(beats), api, clock, leader);
    controller::LoopOptions loop;
    loop.raw_mode = schema::RawObjectMode::kOff;
    loop.survive_journal_failures = false;
    loop_ = std::make_unique<controller::ServeLoop>(
        loop, controller::LoopParts{*started_.journal, *started_.engine, *inbox_, observer,
                                    [this] { return std::make_unique<RecordingWriter>(issued, *inbox_); },
                                    [] { return false; }});
  }
  ~ScriptedServe() {
    loop_.reset();  // before the engine and the journal
    inbox_.reset();
  }

  controller::ServeLoop& loop() { return *loop_; }
  ScriptedInbox& inbox() { return *inbox_; }
  journal::Journal& journal() { return *started_.journal; }
  actors::runtime::DecisionEngine& engine() { return *started_.engine; }

  std::vector<IssuedWrite> issued;

 private:
  journal::RecordClock record_clock_;
  controller::ServeStart started_;
  std::unique_ptr<ScriptedInbox> inbox_;
  std::unique_ptr<controller::ServeLoop> loop_;
};

}  // namespace koordq::testing
