// `koordq replay` as a library (behaviour.md §24.3, design.md §3): the state rebuilt at any
// revision, and the verification of the recorded decide rounds. Pure over a JournalReader (a
// journal, or an export loaded by ExportJournal): no clock, no output; the command renders.
//
// Configuration: the decisions and the fold depend on the DecisionConfig, which the journal's
// own `config` records give. Each start of `serve` restored its state under its own configuration
// (restore_state) before appending its config record, so a replay does the same: at a config
// record whose DecisionConfig differs from the one folded so far, the state before the record is
// rebuilt under the new configuration (the newest snapshot folded under it, else from seq 1).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "base/result.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::replay {

// Called now and then with the last seq folded and the records folded so far.
using Progress = std::function<void(uint64_t seq, uint64_t records)>;
inline constexpr uint64_t kProgressEvery = 16384;

struct ReplayedState {
  actors::Scheduler scheduler;
  uint64_t seq = 0;                      // the state after this record; 0 for an empty journal
  int64_t time = 0;                      // that record's time
  std::optional<uint64_t> snapshot_seq;  // the snapshot the fold started from
  uint64_t folded = 0;                   // records applied after it
};

enum class Start {
  newest_snapshot,  // the newest usable snapshot at or before the target, else seq 1
  first_record,     // every record from seq 1 (what a snapshot would skip: benchmarks, checks)
};

// The state after record min(target_seq, last seq): the newest usable snapshot at or before it
// (restored under the configuration it was folded under), then the records after it. Errors: a
// record that cannot be read or applied, a malformed config record, records dropped by retention
// that no snapshot covers.
Result<ReplayedState> replay_to(journal::JournalReader& reader, uint64_t target_seq, const Progress& progress = {},
                                Start start = Start::newest_snapshot);

// The state after record min(target_seq, last seq), folded on from `state`, the state after
// record `seq` (at `time`): what a reader that holds a nearby state does instead of starting at
// a snapshot. target_seq <= seq returns `state` unchanged.
Result<ReplayedState> replay_on(journal::JournalReader& reader, actors::Scheduler state, uint64_t seq, int64_t time,
                                uint64_t target_seq);

// What plain `replay` prints.
struct StateSummary {
  std::string journal_uuid;
  uint64_t revision = 0;
  int64_t time = 0;
  uint64_t records = 0;  // records of the history up to the revision (first retained .. revision)
  uint64_t queues = 0;
  uint64_t quotas = 0;
  uint64_t units = 0;
  std::map<std::string, uint64_t> phases;  // effective phase → units, non-zero only
};

StateSummary summarize(const actors::Scheduler& scheduler, const std::string& journal_uuid, uint64_t revision,
                       int64_t time, uint64_t records);
// `journal <uuid>`, `revision <r> (<time>), <n> records`, `queues <q>, quotas <k>, units <u> (<phases>)`.
std::string render_summary_text(const StateSummary& summary);
std::string render_summary_json(const StateSummary& summary);

struct Divergence {
  uint64_t seq = 0;    // the round record
  uint64_t basis = 0;  // the input it was decided on
  std::vector<actors::Decision> recorded;
  std::vector<actors::Decision> replayed;
  // How the state after the round differs when the replayed decisions are applied instead of the
  // recorded ones (`unit <key>: <field>` …, see state_diff.hpp).
  std::vector<std::string> state_diff;
};

struct VersionMismatch {
  uint64_t seq = 0;  // the config record
  uint32_t journal = 0;
  uint32_t binary = 0;
};

// A stored snapshot (the live state of the serve that wrote it, and what the next start restores)
// that is not the fold of the records up to its seq.
struct SnapshotMismatch {
  uint64_t seq = 0;
  std::vector<std::string> state_diff;  // snapshot first, fold second (state_diff.hpp)
};

struct VerifyResult {
  uint64_t records = 0;    // records folded (the round that diverged included)
  uint64_t rounds = 0;     // rounds that matched
  uint64_t decisions = 0;  // decisions in those rounds
  uint64_t snapshots = 0;  // snapshots equal to the fold at their seq
  std::optional<Divergence> divergence;
  std::optional<VersionMismatch> version_mismatch;
  std::optional<SnapshotMismatch> snapshot_mismatch;
  bool ok() const { return !divergence && !version_mismatch && !snapshot_mismatch; }
};

// Folds the journal from seq 1 to min(to_seq, last seq) and, at every `round` record, re-runs the
// decide round on the state at its basis and compares the decisions with the recorded ones; at
// every stored snapshot that a serve under the folded configuration would restore from, compares
// the snapshot with the fold field by field. Stops at the first divergence or differing snapshot,
// or at a config record of another decision-logic version.
// Errors: as replay_to, a journal whose records before seq 1 were dropped, a round that does not
// directly follow its basis.
Result<VerifyResult> verify_rounds(journal::JournalReader& reader, uint64_t to_seq, const Progress& progress = {});

// `verified <d> decisions in <k> rounds, <n> records`, or the divergence (recorded and replayed
// decisions, the first one that differs as JSON, the state difference), or the version mismatch.
std::string render_verify_text(const VerifyResult& result);
std::string render_verify_json(const VerifyResult& result);

// One decision on one line: `<kind> <ns>/<name>` or `<kind> queue <name>`, then the reason.
std::string describe_decision(const actors::Decision& decision);
// The decisions as the `round` record's JSON renders them (journal export), a JSON array.
std::string decisions_json(const std::vector<actors::Decision>& decisions);

}  // namespace koordq::replay
