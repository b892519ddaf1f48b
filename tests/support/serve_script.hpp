// The script of the serve loop's tests (serve_loop_test.cpp, serve_loop_crash_test.cpp): team-a
// (4 cpu) and its Queue, then job1 (1 cpu) and job2 (2 cpu) admitted, job3 (2 cpu) waiting, and
// job1's deletion, after which job3 is admitted; and what a test reads of the outcome.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "actors/runtime/decision_engine.hpp"
#include "journal/journal.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/scripted_serve.hpp"

namespace koordq::testing {

constexpr int64_t kScriptStart = 1'776'000'000 * kSec;

inline std::deque<Beat> admission_script() {
  using Type = schema::WatchEventType;
  return {
      {kScriptStart + 1 * kSec,
       {event(Type::kAdded, quota("team-a", "", {{"cpu", "4"}})), event(Type::kAdded, queue("team-a"))}},
      {kScriptStart + 2 * kSec, {event(Type::kAdded, unit("job1", "team-a", "1", 0, kScriptStart))}},
      {kScriptStart + 3 * kSec, {event(Type::kAdded, unit("job2", "team-a", "2", 0, kScriptStart))}},
      {kScriptStart + 4 * kSec, {event(Type::kAdded, unit("job3", "team-a", "2", 0, kScriptStart))}},
      {kScriptStart + 5 * kSec, {event(Type::kDeleted, unit("job1", "team-a", "1", 0, kScriptStart))}},
  };
}

// What the fold decided, object by object: each unit's reservation and the phase koordq wrote
// (or the watch showed), each quota's used cpu.
inline std::vector<std::string> decided_state(actors::runtime::DecisionEngine& engine) {
  std::vector<std::string> out;
  engine.read_state([&](const actors::Scheduler& s, uint64_t) {
    for (const auto& [key, u] : s.units()) {
      out.push_back(key + (u.holds ? " holds" : " waits") +
                    " phase=" + (u.pending_status ? u.pending_status->phase : u.object.status.phase));
    }
    for (const auto& q : s.quotas().objects()) {
      const auto used = s.quotas().usage(q.metadata.name).used;
      out.push_back("quota " + q.metadata.name + " used cpu " + std::to_string(used.count("cpu") ? used.at("cpu") : 0));
    }
  });
  return out;
}

// The journal's records by kind, in order ("watch", "round", ...).
inline std::vector<std::string> record_kinds(journal::Journal& journal) {
  std::vector<std::string> out;
  for (uint64_t seq = 1; seq <= journal.reader().last_seq(); ++seq) {
    auto record = journal.reader().get(seq);
    if (!record.ok() || !record->has_value()) {
      ADD_FAILURE() << "seq " << seq << " unreadable";
      continue;
    }
    out.emplace_back(journal::kind_name((*record)->kind()));
  }
  return out;
}

}  // namespace koordq::testing
