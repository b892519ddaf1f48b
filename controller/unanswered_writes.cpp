#include "controller/unanswered_writes.hpp"

#include <map>
#include <variant>

#include "actors/wire/decision_wire.hpp"

namespace koordq::controller {

std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s) {
  std::vector<actors::Outcome> out;
  auto unknown = [&out](const actors::UnitState& u, actors::WriteKind kind, uint64_t seq) {
    actors::Outcome o;
    o.decision_seq = seq;
    o.write_kind = kind;
    o.result = actors::OutcomeResult::kUnknown;
    o.target =
        actors::UnitRef{u.object.metadata.namespace_, u.object.metadata.name, u.object.metadata.uid, u.quota, u.quota};
    out.push_back(std::move(o));
  };
  for (const auto& [key, u] : s.units()) {
    if (u.pending_status && u.pending_written_rv.empty()) {
      unknown(u, actors::WriteKind::kStatusPatch, u.pending_decision_seq);
    }
    if (!u.spec_queue_sent.empty()) unknown(u, actors::WriteKind::kSpecQueuePatch, u.spec_queue_sent_seq);
  }
  for (const auto& [name, a] : s.auto_queues()) {
    if (!a.in_flight) continue;
    actors::Outcome o;
    o.decision_seq = a.in_flight_seq;
    o.decision_index = a.in_flight_index;
    o.write_kind = actors::WriteKind::kQueueWrite;
    o.result = actors::OutcomeResult::kUnknown;
    o.target = actors::QueueRef{name};
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s, journal::JournalReader& reader) {
  std::vector<actors::Outcome> out = unanswered_writes(s);
  std::map<uint64_t, std::vector<actors::Decision>> rounds;
  for (actors::Outcome& o : out) {
    const auto* unit = std::get_if<actors::UnitRef>(&o.target);
    if (unit == nullptr) continue;
    auto round = rounds.find(o.decision_seq);
    if (round == rounds.end()) {
      std::vector<actors::Decision> decisions;
      if (auto record = reader.get(o.decision_seq); record.ok() && record->has_value()) {
        const auto body = (*record)->reader().getBody();
        if (body.isRound()) {
          if (auto read = actors::read_round_kept(body.getRound()); read.ok()) decisions = std::move(read).value();
        }
      }
      round = rounds.emplace(o.decision_seq, std::move(decisions)).first;
    }
    for (uint32_t i = 0; i < round->second.size(); ++i) {
      const actors::Decision& d = round->second[i];
      const auto* about = std::get_if<actors::UnitRef>(&d.target);
      const bool writes =
          o.write_kind == actors::WriteKind::kStatusPatch ? d.status_patch.has_value() : d.spec_queue_patch.has_value();
      if (about != nullptr && writes && about->namespace_ == unit->namespace_ && about->name == unit->name &&
          about->uid == unit->uid) {
        o.decision_index = i;
        break;
      }
    }
  }
  return out;
}

}  // namespace koordq::controller
