#include "replay/replay.hpp"

#include <set>
#include <utility>
#include <variant>

#include <capnp/compat/json.h>
#include <capnp/message.h>

#include "actors/core/unit_facts.hpp"
#include "actors/wire/config_wire.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "base/json_string.hpp"
#include "base/rfc3339.hpp"
#include "journal/read_ahead_cursor.hpp"
#include "replay/state_diff.hpp"
#include "schema/wire_message.hpp"

namespace koordq::replay {
namespace {

using actors::Scheduler;
using journal::RecordKind;
using journal::StoredRecord;

// The fold shared by replay_to and verify_rounds: apply_record, plus the configuration switch at
// config records (see replay.hpp).
class Fold {
 public:
  Fold(journal::JournalReader& reader, Scheduler scheduler, uint64_t seq, int64_t time)
      : reader_(reader), s_(std::move(scheduler)), seq_(seq), time_(time) {}

  Status apply(const StoredRecord& r) {
    if (auto reset = reset_on_config(r); !reset.ok()) return reset;
    if (auto applied = actors::apply_record(s_, r); !applied.ok()) return applied;
    seq_ = r.seq();
    time_ = r.time();
    return ok_status();
  }

  Status apply(actors::PreparedRecord& p) {
    if (auto reset = reset_on_config(p.record); !reset.ok()) return reset;
    if (auto applied = actors::apply_prepared(s_, p); !applied.ok()) return applied;
    seq_ = p.record.seq();
    time_ = p.record.time();
    return ok_status();
  }

  static Result<actors::JournalConfig> config_of(const StoredRecord& r) {
    auto config = actors::read_journal_config(r.reader().getBody().getConfig());
    if (!config.ok()) return make_error("record " + std::to_string(r.seq()) + ": " + config.message());
    return config;
  }

  Scheduler& scheduler() { return s_; }
  uint64_t seq() const { return seq_; }
  int64_t time() const { return time_; }

 private:
  Status reset_on_config(const StoredRecord& r) {
    if (r.kind() == RecordKind::kConfig) {
      auto config = config_of(r);
      if (!config.ok()) return config.error();
      if (!(config->decision == s_.config())) {
        // As the serve that appended this record did at its start: the state so far, rebuilt
        // under its configuration.
        auto restored = actors::restore_state(reader_, r.seq() - 1, config->decision);
        if (!restored.ok()) return restored.error();
        s_ = std::move(restored->scheduler);
      }
    }
    return ok_status();
  }

  journal::JournalReader& reader_;
  Scheduler s_;
  uint64_t seq_;
  int64_t time_;
};

std::string phase_counts_text(const std::map<std::string, uint64_t>& phases) {
  std::string out;
  for (const auto& [phase, n] : phases) {
    if (!out.empty()) out += ',';
    out += phase + "=" + std::to_string(n);
  }
  return out;
}

const capnp::JsonCodec& codec() {
  static const capnp::JsonCodec* instance = [] {
    auto* c = new capnp::JsonCodec();
    c->setPrettyPrint(false);
    return c;
  }();
  return *instance;
}

std::string decision_json(const actors::Decision& d) {
  capnp::MallocMessageBuilder message;
  auto builder = message.initRoot<wire::Decision>();
  actors::write_decision(builder, d);
  const kj::String json = codec().encode(builder.asReader());
  return std::string(json.cStr(), json.size());
}

// How the stored snapshot at `seq` differs from `fold`, the state after that record (snapshot
// first); std::nullopt for a snapshot no serve under the fold's configuration restores from
// (another configuration or decision-logic version, unreadable: restore_state skips it too).
std::optional<std::vector<std::string>> snapshot_differences(journal::JournalReader& reader, uint64_t seq,
                                                             const Scheduler& fold) {
  auto found = reader.latest_snapshot_at_or_before(seq);
  if (!found.ok() || !found->has_value() || (*found)->first != seq) return std::nullopt;
  const std::string& bytes = (*found)->second;
  auto config = actors::snapshot_decision_config(bytes);
  if (!config.ok() || !(*config == fold.config())) return std::nullopt;
  auto restored = actors::decode_state_snapshot(bytes, fold.config());
  if (!restored.ok() || restored->seq != seq) return std::nullopt;
  return state_differences(restored->scheduler, fold);
}

}  // namespace

namespace {

Status fold_to(journal::JournalReader& reader, Fold& fold, uint64_t target_seq, const Progress& progress,
               ReplayedState& out) {
  if (fold.seq() < target_seq) {
    journal::ReadAhead<actors::PreparedRecord> cursor(reader.cursor(fold.seq() + 1, target_seq), actors::prepare_record,
                                                      actors::defer_record);
    for (;;) {
      auto next = cursor.next();
      if (!next.ok()) return next.error();
      if (!*next) break;
      if (auto applied = fold.apply(**next); !applied.ok()) return applied.error();
      ++out.folded;
      if (progress && out.folded % kProgressEvery == 0) progress(fold.seq(), out.folded);
    }
  }
  out.seq = fold.seq();
  out.time = fold.time();
  out.scheduler = std::move(fold.scheduler());
  return ok_status();
}

}  // namespace

Result<ReplayedState> replay_on(journal::JournalReader& reader, Scheduler state, uint64_t seq, int64_t time,
                                uint64_t target_seq) {
  ReplayedState out;
  Fold fold(reader, std::move(state), seq, time);
  if (Status folded = fold_to(reader, fold, target_seq, {}, out); !folded.ok()) return folded.error();
  return out;
}

Result<ReplayedState> replay_to(journal::JournalReader& reader, uint64_t target_seq, const Progress& progress,
                                Start start) {
  ReplayedState out;
  std::optional<Fold> fold;
  std::optional<actors::RestoredState> snapshot;
  if (start == Start::newest_snapshot) snapshot = actors::newest_snapshot(reader, target_seq);
  if (snapshot) {
    out.snapshot_seq = snapshot->seq;
    fold.emplace(reader, std::move(snapshot->scheduler), snapshot->seq, snapshot->time);
  } else {
    if (const uint64_t first = reader.first_seq(); first > 1) {
      return make_error("records before seq " + std::to_string(first) +
                        " were dropped by retention and no usable snapshot at or before seq " +
                        std::to_string(target_seq) + " covers them");
    }
    fold.emplace(reader, Scheduler(), 0, 0);
  }
  if (Status folded = fold_to(reader, *fold, target_seq, progress, out); !folded.ok()) return folded.error();
  return out;
}

StateSummary summarize(const Scheduler& s, const std::string& journal_uuid, uint64_t revision, int64_t time,
                       uint64_t records) {
  StateSummary out;
  out.journal_uuid = journal_uuid;
  out.revision = revision;
  out.time = time;
  out.records = records;
  out.queues = s.queues().size();
  out.quotas = s.quotas().objects().size();
  out.units = s.units().size();
  for (const auto& [key, u] : s.units()) ++out.phases[actors::phase_name(u.phase)];
  return out;
}

std::string render_summary_text(const StateSummary& s) {
  return "journal " + s.journal_uuid + "\n" + "revision " + std::to_string(s.revision) + " (" +
         base::format_rfc3339_millis(s.time) + "), " + std::to_string(s.records) + " records\n" + "queues " +
         std::to_string(s.queues) + ", quotas " + std::to_string(s.quotas) + ", units " + std::to_string(s.units) +
         " (" + phase_counts_text(s.phases) + ")\n";
}

std::string render_summary_json(const StateSummary& s) {
  std::string out = "{\"journal\": ";
  base::append_json_string(out, s.journal_uuid);
  out += ", \"revision\": " + std::to_string(s.revision) + ", \"time\": ";
  base::append_json_string(out, base::format_rfc3339_millis(s.time));
  out += ", \"records\": " + std::to_string(s.records) + ", \"queues\": " + std::to_string(s.queues) +
         ", \"quotas\": " + std::to_string(s.quotas) + ", \"units\": " + std::to_string(s.units) + ", \"phases\": {";
  bool first = true;
  for (const auto& [phase, n] : s.phases) {
    if (!first) out += ", ";
    first = false;
    base::append_json_string(out, phase);
    out += ": " + std::to_string(n);
  }
  out += "}}\n";
  return out;
}

Result<VerifyResult> verify_rounds(journal::JournalReader& reader, uint64_t to_seq, const Progress& progress) {
  if (const uint64_t first = reader.first_seq(); first > 1) {
    return make_error("records before seq " + std::to_string(first) +
                      " were dropped by retention; --verify needs every record from seq 1");
  }
  VerifyResult out;
  Fold fold(reader, Scheduler(), 0, 0);
  std::set<uint64_t> snapshot_seqs;
  for (const auto& entry : reader.snapshots()) snapshot_seqs.insert(entry.seq);
  journal::ReadAheadCursor cursor(reader.cursor(1, to_seq));
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return next.error();
    if (!*next) break;
    const StoredRecord& r = **next;
    if (r.kind() == RecordKind::kConfig) {
      auto config = Fold::config_of(r);
      if (!config.ok()) return config.error();
      if (config->decision_logic_version != actors::kDecisionLogicVersion) {
        out.version_mismatch = VersionMismatch{r.seq(), config->decision_logic_version, actors::kDecisionLogicVersion};
        return out;
      }
    } else if (r.kind() == RecordKind::kRound) {
      Result<std::vector<actors::Decision>> recorded = make_error("");
      uint64_t basis = 0;
      try {
        const auto round = r.reader().getBody().getRound();
        basis = round.getBasis();
        recorded = actors::read_round(round);
      } catch (const kj::Exception& e) {
        recorded = make_error("malformed round: " + wire::describe(e));
      }
      if (!recorded.ok()) return make_error("record " + std::to_string(r.seq()) + ": " + recorded.message());
      if (basis != fold.seq()) {
        return make_error("record " + std::to_string(r.seq()) + ": a round on basis " + std::to_string(basis) +
                          " does not directly follow it (the state is at seq " + std::to_string(fold.seq()) + ")");
      }
      std::vector<actors::Decision> replayed = fold.scheduler().decide();
      if (replayed != *recorded) {
        Scheduler with_recorded = fold.scheduler();
        Scheduler with_replayed = fold.scheduler();
        with_recorded.advance_to(r.time());
        with_recorded.apply_round(r.seq(), *recorded);
        with_replayed.advance_to(r.time());
        with_replayed.apply_round(r.seq(), replayed);
        ++out.records;
        out.divergence = Divergence{r.seq(), basis, std::move(recorded).value(), std::move(replayed),
                                    state_differences(with_recorded, with_replayed)};
        return out;
      }
      ++out.rounds;
      out.decisions += recorded->size();
    }
    if (auto applied = fold.apply(r); !applied.ok()) return applied.error();
    ++out.records;
    if (snapshot_seqs.count(r.seq())) {
      if (auto differences = snapshot_differences(reader, r.seq(), fold.scheduler())) {
        if (!differences->empty()) {
          out.snapshot_mismatch = SnapshotMismatch{r.seq(), std::move(*differences)};
          return out;
        }
        ++out.snapshots;
      }
    }
    if (progress && out.records % kProgressEvery == 0) progress(r.seq(), out.records);
  }
  return out;
}

std::string describe_decision(const actors::Decision& d) {
  std::string out = actors::decision_kind_name(d.kind);
  if (const auto* unit = std::get_if<actors::UnitRef>(&d.target)) {
    out += " " + unit->namespace_ + "/" + unit->name;
    if (!unit->queue.empty()) out += " (queue " + unit->queue + ")";
  } else {
    out += " queue " + std::get<actors::QueueRef>(d.target).name;
  }
  if (!d.reason.empty()) out += ": " + d.reason;
  return out;
}

std::string decisions_json(const std::vector<actors::Decision>& decisions) {
  std::string out = "[";
  for (size_t i = 0; i < decisions.size(); ++i) {
    if (i) out += ", ";
    out += decision_json(decisions[i]);
  }
  return out + "]";
}

namespace {

void list_decisions(std::string& out, const char* what, const std::vector<actors::Decision>& decisions) {
  out += std::string(what) + " decisions (" + std::to_string(decisions.size()) + "):\n";
  for (size_t i = 0; i < decisions.size(); ++i) {
    out += "  " + std::to_string(i + 1) + ". " + describe_decision(decisions[i]) + "\n";
  }
}

}  // namespace

std::string render_verify_text(const VerifyResult& r) {
  if (r.version_mismatch) {
    return "decision-logic version " + std::to_string(r.version_mismatch->journal) + " of the journal differs from " +
           std::to_string(r.version_mismatch->binary) + " of this binary: not verified\n";
  }
  const std::string verified = std::to_string(r.decisions) + " decisions in " + std::to_string(r.rounds) + " rounds, " +
                               std::to_string(r.records) + " records, " + std::to_string(r.snapshots) + " snapshots";
  if (r.snapshot_mismatch) {
    std::string out = "snapshot at seq " + std::to_string(r.snapshot_mismatch->seq) +
                      " differs from the fold of the records up to it: the serve that wrote it held another state "
                      "than a replay, and a start from it decides differently\nstate difference (snapshot, then "
                      "fold):\n";
    for (const auto& line : r.snapshot_mismatch->state_diff) out += "  " + line + "\n";
    return out + "verified before it: " + verified + "\n";
  }
  if (!r.divergence) return "verified " + verified + "\n";
  const Divergence& d = *r.divergence;
  std::string out = "divergence at seq " + std::to_string(d.seq) + " (basis " + std::to_string(d.basis) + ")\n";
  list_decisions(out, "recorded", d.recorded);
  list_decisions(out, "replayed", d.replayed);
  size_t i = 0;
  while (i < d.recorded.size() && i < d.replayed.size() && d.recorded[i] == d.replayed[i]) ++i;
  out += "first difference at decision " + std::to_string(i + 1) + ":\n";
  out += "  recorded: " + (i < d.recorded.size() ? decision_json(d.recorded[i]) : std::string("(none)")) + "\n";
  out += "  replayed: " + (i < d.replayed.size() ? decision_json(d.replayed[i]) : std::string("(none)")) + "\n";
  out += "state difference after the round (recorded, then replayed decisions applied):\n";
  if (d.state_diff.empty()) out += "  none\n";
  for (const auto& line : d.state_diff) out += "  " + line + "\n";
  out += "verified before it: " + verified + "\n";
  return out;
}

std::string render_verify_json(const VerifyResult& r) {
  std::string out = "{\"records\": " + std::to_string(r.records) + ", \"rounds\": " + std::to_string(r.rounds) +
                    ", \"decisions\": " + std::to_string(r.decisions) +
                    ", \"snapshots\": " + std::to_string(r.snapshots);
  if (r.snapshot_mismatch) {
    out += ", \"snapshotMismatch\": {\"seq\": " + std::to_string(r.snapshot_mismatch->seq) + ", \"stateDiff\": [";
    for (size_t i = 0; i < r.snapshot_mismatch->state_diff.size(); ++i) {
      if (i) out += ", ";
      base::append_json_string(out, r.snapshot_mismatch->state_diff[i]);
    }
    out += "]}";
  }
  if (r.divergence) {
    const Divergence& d = *r.divergence;
    out += ", \"divergence\": {\"seq\": " + std::to_string(d.seq) + ", \"basis\": " + std::to_string(d.basis) +
           ", \"recorded\": " + decisions_json(d.recorded) + ", \"replayed\": " + decisions_json(d.replayed) +
           ", \"stateDiff\": [";
    for (size_t i = 0; i < d.state_diff.size(); ++i) {
      if (i) out += ", ";
      base::append_json_string(out, d.state_diff[i]);
    }
    out += "]}";
  }
  if (r.version_mismatch) {
    out += ", \"versionMismatch\": {\"journal\": " + std::to_string(r.version_mismatch->journal) +
           ", \"binary\": " + std::to_string(r.version_mismatch->binary) + "}";
  }
  return out + "}\n";
}

}  // namespace koordq::replay
