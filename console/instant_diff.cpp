#include "console/instant_diff.hpp"

#include <vector>

#include "api/json_out.hpp"

namespace koordq::console {
namespace {

bool admitted_phase(actors::Phase p) {
  using actors::Phase;
  return p == Phase::kDequeued || p == Phase::kReserved || p == Phase::kRunning || p == Phase::kSucceed ||
         p == Phase::kSchedSucceed;
}

std::string rendered_used(const schema::ResourceVector& used) {
  api::JsonOut out;
  out.rendered_vector(used);
  return out.take();
}

struct Section {
  size_t total = 0;
  std::vector<std::string> items;
  void add(std::string item, size_t limit) {
    if (items.size() < limit) items.push_back(std::move(item));
    ++total;
  }
};

void write_section(api::JsonOut& out, std::string_view name, const Section& s) {
  out.key(name).begin_object().field("total", static_cast<int64_t>(s.total)).key("items").begin_array();
  for (const std::string& item : s.items) out.string(item);
  out.end_array().end_object();
}

}  // namespace

InstantSummary summarize_instant(const actors::Scheduler& s, uint64_t revision) {
  InstantSummary summary;
  summary.revision = revision;
  for (const auto& [key, u] : s.units()) {
    summary.units.emplace_hint(
        summary.units.end(), key,
        UnitAtInstant{u.quota, std::string(actors::phase_name(u.phase)), std::nullopt, admitted_phase(u.phase)});
  }
  for (const auto& [name, q] : s.queues()) {
    int64_t position = 0;
    for (const auto& waiting : q.waiting) {
      if (const auto it = summary.units.find(waiting.full_name); it != summary.units.end())
        it->second.position = position;
      ++position;
    }
  }
  for (const std::string& name : s.quotas().names()) summary.used[name] = rendered_used(s.quotas().usage(name).used);
  return summary;
}

std::string render_instant_diff(const InstantSummary& a, const InstantSummary& b, size_t limit) {
  const InstantSummary& from = a.revision <= b.revision ? a : b;
  const InstantSummary& to = a.revision <= b.revision ? b : a;
  Section admitted, arrived, left, moved, quotas;
  for (const auto& [key, u] : to.units) {
    const auto before = from.units.find(key);
    if (before == from.units.end()) {
      arrived.add(key, limit);
    } else if (u.admitted && !before->second.admitted) {
      admitted.add(key, limit);
    } else if (before->second.queue != u.queue) {
      moved.add(key + " " + before->second.queue + " → " + u.queue, limit);
    } else if (before->second.position && u.position && *before->second.position != *u.position) {
      moved.add(key + " " + std::to_string(*before->second.position) + "→" + std::to_string(*u.position), limit);
    }
  }
  for (const auto& [key, u] : from.units) {
    if (!to.units.count(key)) left.add(key, limit);
  }
  for (const auto& [name, used] : to.used) {
    const auto before = from.used.find(name);
    const std::string was = before == from.used.end() ? "(absent)" : before->second;
    if (was != used) quotas.add(name + ": used " + was + " → " + used, limit);
  }
  for (const auto& [name, used] : from.used) {
    if (!to.used.count(name)) quotas.add(name + ": used " + used + " → (gone)", limit);
  }
  api::JsonOut out;
  out.begin_object().field("from", static_cast<int64_t>(from.revision)).field("to", static_cast<int64_t>(to.revision));
  write_section(out, "admitted", admitted);
  write_section(out, "arrived", arrived);
  write_section(out, "left", left);
  write_section(out, "moved", moved);
  write_section(out, "quotaChanges", quotas);
  out.end_object();
  return out.take();
}

}  // namespace koordq::console
