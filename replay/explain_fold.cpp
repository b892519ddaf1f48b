#include "replay/explain_fold.hpp"

#include <utility>

#include "journal/read_ahead_cursor.hpp"
#include "journal/unit_index.hpp"

namespace koordq::replay {
namespace {

Status fold_records(journal::JournalReader& reader, uint64_t from, uint64_t to, StoryFolder& folder,
                    const Progress& progress, uint64_t& folded) {
  journal::ReadAheadCursor cursor(reader.cursor(from, to));
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return next.error();
    if (!*next) return ok_status();
    if (Status added = folder.add(**next); !added.ok()) return added;
    ++folded;
    if (progress) progress((*next)->seq(), folded);
  }
}

// The folder's state becomes the state after `seq`.
Status restore_to(journal::JournalReader& reader, uint64_t seq, StoryFolder& folder) {
  auto restored = replay_to(reader, seq);
  if (!restored.ok()) return restored.error();
  folder.resume_from(std::move(restored->scheduler));
  return ok_status();
}

}  // namespace

uint64_t StoryPlan::records() const {
  if (!indexed) return end >= first ? end - first + 1 : 0;
  return touches.empty() ? 0 : touches.back() - touches.front() + 1;
}

Result<StoryPlan> plan_story(journal::JournalReader& reader, const std::string& ns, const std::string& name,
                             uint64_t first, uint64_t end, StoryIndex index) {
  StoryPlan plan;
  plan.first = first;
  plan.end = end;
  if (index == StoryIndex::ignore || first == 0) return plan;
  auto touches = journal::unit_touches(reader.store(), ns, name, first, end);
  if (!touches.ok()) return touches.error();
  if (!touches->has_value()) return plan;
  plan.indexed = true;
  plan.touches = std::move(**touches);
  return plan;
}

Status fold_story(journal::JournalReader& reader, const StoryPlan& plan, StoryFolder& folder, const Progress& progress,
                  uint64_t restore_after) {
  uint64_t folded = 0;
  if (plan.first == 0) return ok_status();
  if (!plan.indexed) return fold_records(reader, plan.first, plan.end, folder, progress, folded);
  if (plan.touches.empty()) return ok_status();  // the unit never appears

  uint64_t done = plan.first - 1;  // the folder's state is the state after this seq
  if (plan.touches.front() > plan.first) {
    if (Status s = restore_to(reader, plan.touches.front() - 1, folder); !s.ok()) return s;
    done = plan.touches.front() - 1;
  }
  for (const uint64_t touch : plan.touches) {
    if (touch <= done) continue;
    if (touch - 1 - done > restore_after) {
      auto snapshot = reader.latest_snapshot_seq_at_or_before(touch - 1);
      if (!snapshot.ok()) return snapshot.error();
      if (snapshot->has_value() && **snapshot > done + restore_after) {
        if (Status s = restore_to(reader, touch - 1, folder); !s.ok()) return s;
        done = touch - 1;
      }
    }
    if (Status s = fold_records(reader, done + 1, touch, folder, progress, folded); !s.ok()) return s;
    done = touch;
  }
  return ok_status();
}

}  // namespace koordq::replay
