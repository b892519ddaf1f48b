#include "controller/api_round_writer.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

namespace koordq::controller {

void ApiRoundWriter::carry_out(uint64_t round_seq, const std::vector<actors::Decision>& decisions) {
  if (decisions.empty()) return;
  std::vector<kube::UnitWrite> units = unit_writes(round_seq, decisions);
  std::vector<kube::QueueWriteJob> queues = queue_writes(round_seq, decisions);
  for (auto& w : units) writer_->submit(std::move(w));
  for (auto& job : queues) writer_->submit(std::move(job));
  record_events(round_seq, decisions);
}

void ApiRoundWriter::stop() {
  writer_->stop();
  recorder_->stop();
}

std::vector<kube::UnitWrite> ApiRoundWriter::unit_writes(uint64_t round_seq,
                                                         const std::vector<actors::Decision>& decisions) {
  std::vector<kube::UnitWrite> out;
  engine_.read_state([&](const actors::Scheduler& s, uint64_t) {
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      const actors::Decision& d = decisions[i];
      const auto* ref = std::get_if<actors::UnitRef>(&d.target);
      if (ref == nullptr || (!d.status_patch && !d.spec_queue_patch)) continue;
      kube::UnitWrite w;
      w.unit = *ref;
      w.decision_seq = round_seq;
      w.decision_index = i;
      w.status = d.status_patch;
      w.spec_queue = d.spec_queue_patch;
      w.spec_queue_seq = round_seq;
      w.spec_queue_index = i;
      if (d.status_patch) {
        w.changes_phase = d.status_patch->phase || d.status_patch->admissions || d.status_patch->admission_checks;
      }
      w.failure = d.kind == actors::DecisionKind::kFail;
      if (auto u = s.units().find(ref->namespace_ + "/" + ref->name); u != s.units().end()) {
        w.observed_phase = u->second.object.status.phase;
        w.observed_spec = u->second.object.spec;
        w.observed_labels = u->second.object.metadata.labels;
        // After koordq's own landed status write when the watch has not yet shown it.
        w.resource_version = u->second.pending_written_rv.empty() ? u->second.object.metadata.resource_version
                                                                  : u->second.pending_written_rv;
        if (u->second.backoff_until) w.backoff_ns = std::max<int64_t>(*u->second.backoff_until - s.now(), 0);
      }
      out.push_back(std::move(w));
    }
  });
  return out;
}

std::vector<kube::QueueWriteJob> ApiRoundWriter::queue_writes(uint64_t round_seq,
                                                              const std::vector<actors::Decision>& decisions) {
  std::vector<kube::QueueWriteJob> out;
  engine_.read_state([&](const actors::Scheduler& s, uint64_t) {
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      const actors::Decision& d = decisions[i];
      if (!d.queue_write) continue;
      const auto* ref = std::get_if<actors::QueueRef>(&d.target);
      if (ref == nullptr) continue;
      kube::QueueWriteJob job{ref->name, *d.queue_write, "", round_seq, i};
      if (auto q = s.queues().find(ref->name); q != s.queues().end()) {
        job.resource_version = q->second.object.metadata.resource_version;  // the precondition
      }
      out.push_back(std::move(job));
    }
  });
  return out;
}

// §13.2: an event's name carries the round's seq and its index among the round's events for the
// same involved object.
void ApiRoundWriter::record_events(uint64_t round_seq, const std::vector<actors::Decision>& decisions) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, uint32_t> per_object;
  for (uint32_t i = 0; i < decisions.size(); ++i) {
    for (uint32_t j = 0; j < decisions[i].events.size(); ++j) {
      const actors::KubeEvent& e = decisions[i].events[j];
      const auto& o = e.involved_object;
      uint32_t& index = per_object[{o.kind, o.namespace_, o.name, o.uid}];
      recorder_->record(kube::EventToRecord{e, round_seq, index++, i, j, decisions[i].target});
    }
  }
}

}  // namespace koordq::controller
