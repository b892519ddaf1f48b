// `koordq replay --what-if` (behaviour.md §24.3, design.md §3): the decisions made again over the
// recorded inputs under changed settings, and every unit's admission time compared with the
// recorded one. Pure over a JournalReader: no clock, no output; the command renders.
//
// The model (behaviour.md §24.3, "What-if model"), in two passes over the journal:
// * The recorded pass folds the journal as it is and takes from it every unit's first admission
//   (the round applying an admit decision for it), the watch events that only echo koordq's own
//   status writes (the status a recorded write set, nothing else changed), and the job
//   extension's transitions into Running, Succeed or Failed, with each unit's run time (first
//   Running to the first Succeed or Failed after it).
// * The what-if pass folds the same inputs at their recorded times into a state under the changed
//   settings: DecisionConfig fields hold from the start, Queue and ElasticQuota objects are
//   rewritten as they are applied. A round is decided at every recorded round and at every
//   deadline the what-if state computes between recorded inputs (recorded ticks only advance
//   time). Every re-decided write lands at once (its outcome and its watch echo are applied with
//   the decision); recorded outcomes and echoes are dropped. Other status changes of the recorded
//   events (reclaims, check verdicts, requeues) land on the what-if unit when it is in the phase
//   the recorded unit was in, and are dropped otherwise.
// * Job extension: a unit admitted in both runs gets its recorded transitions shifted by the
//   difference of its first admissions; a unit admitted only in the what-if runs (Running at its
//   admission) for the median recorded run time of its queue and is `estimated` (without a
//   recorded run time in its queue it runs to the end of the replay); a unit no longer admitted
//   never runs.
// * The model is run twice, with the settings as recorded (the baseline) and with the changes, and
//   only what the changes alter is reported: a unit's what-if admission is its recorded one moved
//   by the difference between the two model runs (what_if_admission), but never before the unit's
//   first record (its creation keeps its recorded time, so it cannot be admitted before it). So
//   the model's own simplifications (every write lands at once, where the recorded writes
//   sometimes failed and were decided again) show in neither run's difference, and settings that
//   change nothing report no difference.
// * Both runs decide under the decision settings of the journal's first `config` record (the
//   second with the changes); the later config records of a journal written by several starts of
//   serve do not switch them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actors/core/decision_config.hpp"
#include "base/result.hpp"
#include "journal/journal_reader.hpp"
#include "replay/replay.hpp"

namespace koordq::replay {

// The settings a what-if changes; each holds from the start of the replay.
struct WhatIfSettings {
  std::optional<int64_t> oversell_rate_ppm;
  std::optional<int64_t> initial_backoff_seconds;
  std::optional<int64_t> max_backoff_seconds;
  std::map<std::string, std::string> queue_policy;  // queue → spec.queuePolicy
  // queue → annotation key → value (std::nullopt removes it)
  std::map<std::string, std::map<std::string, std::optional<std::string>>> queue_annotations;
  // quota → resource → quantity (std::nullopt removes it from max)
  std::map<std::string, std::map<std::string, std::optional<std::string>>> quota_max;
};

enum class AdmissionChange { earlier, later, unchanged, newly_admitted, no_longer_admitted, never_admitted };

struct UnitAdmission {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string queue;
  std::optional<int64_t> recorded;  // first admission in the recorded journal
  std::optional<int64_t> what_if;   // first admission in the what-if
  bool estimated = false;           // its run time is its queue's median (admitted only in the what-if)
  AdmissionChange change = AdmissionChange::never_admitted;
};

struct WhatIfSummary {
  uint64_t earlier = 0;
  uint64_t later = 0;
  uint64_t unchanged = 0;  // admitted in both runs at the same time
  uint64_t newly_admitted = 0;
  uint64_t no_longer_admitted = 0;
  bool operator==(const WhatIfSummary&) const = default;
};

struct WhatIfResult {
  std::vector<UnitAdmission> units;  // every unit of the journal, by namespace, name, uid
  WhatIfSummary summary;
  uint64_t records = 0;         // records walked
  uint64_t what_if_rounds = 0;  // rounds decided in the what-if (recorded rounds and deadlines)
};

// The change of a unit between its two admission times.
AdmissionChange classify_admission(const std::optional<int64_t>& recorded, const std::optional<int64_t>& what_if);

// A unit's what-if admission from its recorded one and the model's without (baseline) and with
// the changes: the recorded one when both model runs agree; none when the changes leave it
// unadmitted; the recorded one moved by (changed - baseline) when both runs admit it (none when
// the record never admitted it); the changed run's when only that run admits it. Never before
// `created`, the time of the unit's first record.
std::optional<int64_t> what_if_admission(const std::optional<int64_t>& recorded, const std::optional<int64_t>& baseline,
                                         const std::optional<int64_t>& changed, int64_t created);

// The median of the run times (nanoseconds; the mean of the two middle ones for an even count),
// std::nullopt for none.
std::optional<int64_t> median_run_time(std::vector<int64_t> run_times);

// The passes what_if makes over the journal (the recorded one and the two model runs).
inline constexpr uint64_t kWhatIfPasses = 3;

// The decision settings the model starts from before the changes: those of the first `config`
// record up to to_seq, the defaults without one. Errors: a record that cannot be read, a
// malformed config record.
Result<actors::DecisionConfig> recorded_decision_config(journal::JournalReader& reader, uint64_t to_seq);

// Walks the journal from seq 1 to min(to_seq, last seq) kWhatIfPasses times (see above), calling
// `progress` now and then with the seq reached and the records walked so far in all passes.
// Errors: a record that cannot be read or applied, a journal whose records before seq 1 were
// dropped.
Result<WhatIfResult> what_if(journal::JournalReader& reader, uint64_t to_seq, const WhatIfSettings& settings,
                             const Progress& progress = {});

// The table of the units whose admission time differs (NAMESPACE, NAME, QUEUE, RECORDED, WHAT-IF,
// DELTA, ESTIMATED), then `earlier <n>, later <n>, unchanged <n>, newly admitted <n>, no longer
// admitted <n>`.
std::string render_what_if_text(const WhatIfResult& result);
// {"changes": {KEY: VALUE}, "units": [...], "summary": {...}}; `changes` in the order given.
std::string render_what_if_json(const WhatIfResult& result,
                                const std::vector<std::pair<std::string, std::string>>& changes);

}  // namespace koordq::replay
