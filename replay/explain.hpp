// `koordq explain` (behaviour.md §24.2): the story of one QueueUnit told from a journal. Records go
// in, in seq order; every one is folded with apply_record (the fold `serve` uses), and those that
// touched a unit named NS/NAME (its watch records, the decisions about it, the outcomes of their
// writes) become entries that say what changed, read from the folded state around the record.
// One pass, no I/O: the caller reads the journal or the export and renders the story.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "base/result.hpp"
#include "journal/stored_record.hpp"

namespace koordq::replay {

struct StoryEntry {
  uint64_t seq = 0;
  int64_t time = 0;
  std::string kind;                  // the record kind: watch, round, outcome
  std::string summary;               // ends with `, position <n>` while the unit waits
  std::optional<std::string> phase;  // effective phase after the record; std::nullopt once deleted
  std::optional<int64_t> position;   // 1-based position in its queue while it waits (§6.2)
  std::optional<std::vector<actors::QuotaCheckStep>> quota_path;  // attempts only

  bool operator==(const StoryEntry&) const = default;
};

struct Story {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::vector<std::string> other_uids;  // in the order they first appeared
  std::vector<StoryEntry> entries;
};

class StoryFolder {
 public:
  StoryFolder(std::string ns, std::string name);

  // Folds the next record. The first record decides the configuration of the fold: when it is a
  // `config` record, the settings it journals (backoff, oversell rate, queue namespace, …).
  Status add(const journal::StoredRecord& record);
  // The fold goes on from `state`, the state just before the next record added (restored from a
  // snapshot, say, to skip records that do not touch the unit). The story so far is kept.
  void resume_from(actors::Scheduler state) { state_ = std::move(state); }

  // Every UID that carried the name, in the order they first appeared; the last one to appear in
  // a record is latest_uid().
  const std::vector<std::string>& uids() const { return uids_; }
  std::optional<std::string> latest_uid() const { return latest_uid_; }
  // The story of `uid` (one of uids()), with the other UIDs listed.
  Story story(const std::string& uid) const;

  uint64_t records() const { return records_; }

 private:
  void note_uid(const std::string& uid);

  std::string namespace_;
  std::string name_;
  std::string key_;
  std::optional<actors::Scheduler> state_;
  uint64_t records_ = 0;
  std::vector<std::string> uids_;
  std::optional<std::string> latest_uid_;
  std::map<std::string, std::vector<StoryEntry>> entries_;  // by UID
  // The decisions about the name whose writes may still be answered: (round seq, index) → kind.
  std::map<std::pair<uint64_t, uint32_t>, actors::DecisionKind> decisions_;
};

// §24.2 renderings, each ending with a newline.
std::string render_story_text(const Story& story);
std::string render_story_json(const Story& story);

}  // namespace koordq::replay
