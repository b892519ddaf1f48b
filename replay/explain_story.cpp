#include <algorithm>
#include <charconv>
#include <string_view>

#include "actors/core/unit_facts.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "base/decimal_ppm.hpp"
#include "base/go_duration.hpp"
#include "replay/explain.hpp"
#include "replay/explain_summary.hpp"
#include "schema/wire_message.hpp"

namespace koordq::replay {
namespace {

std::string_view view(capnp::Text::Reader text) {
  return {text.begin(), text.size()};
}

bool parse_integer(std::string_view text, int64_t& out) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  out = v;
  return true;
}

// The settings a `config` record journals, over the defaults; a value this binary cannot read
// keeps its default (the fold only uses them for backoff lengths and the queue namespace).
actors::DecisionConfig config_of(const journal::StoredRecord& record) {
  actors::DecisionConfig c;
  if (record.kind() != journal::RecordKind::kConfig) return c;
  for (const auto flag : record.reader().getBody().getConfig().getFlags()) {
    const std::string_view name = view(flag.getName());
    const std::string_view value = view(flag.getValue());
    int64_t n = 0;
    if (name == "oversellrate") {
      if (auto ppm = base::parse_decimal_ppm(value); ppm.ok()) c.oversell_rate_ppm = *ppm;
    } else if (name == "pod-initial-backoff-seconds") {
      if (parse_integer(value, n)) c.initial_backoff_nanos = n * base::kSecond;
    } else if (name == "pod-max-backoff-seconds") {
      if (parse_integer(value, n)) c.max_backoff_nanos = n * base::kSecond;
    } else if (name == "schedule-suspend-time-ms") {
      if (parse_integer(value, n)) c.schedule_suspend_nanos = n * base::kMillisecond;
    } else if (name == "default-reclaim-protect-time") {
      if (auto d = base::parse_go_duration(value); d.ok()) c.reclaim_protect_nanos = *d;
    } else if (name == "queue-namespace") {
      c.queue_namespace = std::string(value);
    } else if (name == "queue-items-max") {
      if (parse_integer(value, n)) c.queue_items_max = n;
    }
  }
  return c;
}

template <typename Ref>
bool names_unit(Ref ref, const std::string& ns, const std::string& name) {
  return view(ref.getNamespace()) == ns && view(ref.getName()) == name;
}

// What one record says about units named NS/NAME, decoded before the fold.
struct Touch {
  std::string uid;
  enum class What { watch, decisions, outcome } what = What::watch;
  wire::Watch::EventType event = wire::Watch::EventType::ADDED;
  bool synthesized = false;
  std::vector<std::pair<uint32_t, actors::Decision>> decisions;  // (index in the round, decision)
  std::optional<actors::Outcome> outcome;
};

// The touches of a record, one per UID (in the order the record names them).
Result<std::vector<Touch>> touches_of(const journal::StoredRecord& record, const std::string& ns,
                                      const std::string& name) {
  std::vector<Touch> out;
  const auto body = record.reader().getBody();
  switch (record.kind()) {
    case journal::RecordKind::kWatch: {
      const auto w = body.getWatch();
      if (w.getEventType() == wire::Watch::EventType::BOOKMARK || w.getObjectKind() != wire::ObjectKind::QUEUE_UNIT ||
          view(w.getNamespace()) != ns || view(w.getName()) != name) {
        break;
      }
      Touch t;
      t.uid = std::string(view(w.getUid()));
      t.event = w.getEventType();
      t.synthesized = w.getSynthesized();
      out.push_back(std::move(t));
      break;
    }
    case journal::RecordKind::kRound: {
      const auto decisions = body.getRound().getDecisions();
      for (uint32_t i = 0; i < decisions.size(); ++i) {
        const auto target = decisions[i].getTarget();
        if (!target.isUnit() || !names_unit(target.getUnit(), ns, name)) continue;
        auto d = actors::read_decision(decisions[i]);
        if (!d.ok()) return make_error("decision " + std::to_string(i) + ": " + d.message());
        const std::string uid(view(target.getUnit().getUid()));
        auto it = std::find_if(out.begin(), out.end(), [&](const Touch& t) { return t.uid == uid; });
        if (it == out.end()) {
          Touch t;
          t.uid = uid;
          t.what = Touch::What::decisions;
          out.push_back(std::move(t));
          it = out.end() - 1;
        }
        it->decisions.emplace_back(i, std::move(d).value());
      }
      break;
    }
    case journal::RecordKind::kOutcome: {
      const auto target = body.getOutcome().getTarget();
      if (!target.isUnit() || !names_unit(target.getUnit(), ns, name)) break;
      auto o = actors::read_outcome(body.getOutcome());
      if (!o.ok()) return o.error();
      Touch t;
      t.uid = std::string(view(target.getUnit().getUid()));
      t.what = Touch::What::outcome;
      t.outcome = std::move(o).value();
      out.push_back(std::move(t));
      break;
    }
    default:
      break;
  }
  return out;
}

Result<std::vector<Touch>> touches_guarded(const journal::StoredRecord& record, const std::string& ns,
                                           const std::string& name) {
  try {
    return touches_of(record, ns, name);
  } catch (const kj::Exception& e) {
    return make_error("malformed " + std::string(journal::kind_name(record.kind())) + ": " + wire::describe(e));
  }
}

}  // namespace

StoryFolder::StoryFolder(std::string ns, std::string name)
    : namespace_(std::move(ns)), name_(std::move(name)), key_(actors::unit_key(namespace_, name_)) {}

void StoryFolder::note_uid(const std::string& uid) {
  if (std::find(uids_.begin(), uids_.end(), uid) == uids_.end()) uids_.push_back(uid);
  latest_uid_ = uid;
}

Status StoryFolder::add(const journal::StoredRecord& record) {
  if (!state_) state_.emplace(config_of(record));
  auto touches = touches_guarded(record, namespace_, name_);
  if (!touches.ok()) return make_error("record " + std::to_string(record.seq()) + ": " + touches.message());
  std::vector<UnitSeen> before;
  before.reserve(touches->size());
  for (const Touch& t : *touches) before.push_back(unit_seen(*state_, key_, t.uid));

  if (Status applied = actors::apply_record(*state_, record); !applied.ok()) return applied;
  ++records_;

  for (size_t i = 0; i < touches->size(); ++i) {
    const Touch& t = (*touches)[i];
    note_uid(t.uid);
    const UnitSeen after = unit_seen(*state_, key_, t.uid);
    std::vector<StoryEntry>& entries = entries_[t.uid];
    auto add_entry = [&](std::string summary, const actors::Decision* decision) {
      StoryEntry e;
      e.seq = record.seq();
      e.time = record.time();
      e.kind = std::string(journal::kind_name(record.kind()));
      e.summary = std::move(summary);
      if (after.present) e.phase = actors::phase_name(after.phase);
      e.position = position_of(*state_, after);
      if (e.position) e.summary += ", position " + std::to_string(*e.position);
      if (decision != nullptr && is_attempt(*decision)) e.quota_path = decision->quota_check;
      entries.push_back(std::move(e));
    };
    switch (t.what) {
      case Touch::What::watch:
        add_entry(watch_summary(t.event, t.synthesized, before[i], after, state_->now()), nullptr);
        break;
      case Touch::What::decisions:
        for (size_t k = 0; k < t.decisions.size(); ++k) {
          const auto& [index, d] = t.decisions[k];
          decisions_[{record.seq(), index}] = d.kind;
          // The state changes once per record: its transition is told with the first decision.
          add_entry(decision_summary(d, before[i], after, state_->now(), k == 0), &d);
        }
        break;
      case Touch::What::outcome: {
        const actors::Outcome& o = *t.outcome;
        const auto it = decisions_.find({o.decision_seq, o.decision_index});
        const std::optional<actors::DecisionKind> kind =
            it == decisions_.end() ? std::nullopt : std::optional<actors::DecisionKind>(it->second);
        add_entry(outcome_summary(o, kind, before[i], after), nullptr);
        break;
      }
    }
  }
  return ok_status();
}

Story StoryFolder::story(const std::string& uid) const {
  Story s;
  s.namespace_ = namespace_;
  s.name = name_;
  s.uid = uid;
  for (const auto& other : uids_) {
    if (other != uid) s.other_uids.push_back(other);
  }
  if (auto it = entries_.find(uid); it != entries_.end()) s.entries = it->second;
  return s;
}

}  // namespace koordq::replay
