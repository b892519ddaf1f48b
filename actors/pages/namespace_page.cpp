#include "actors/pages/namespace_page.hpp"

namespace koordq::actors::pages {

std::optional<NamespacePage> build_namespace_page(const Scheduler& s, const std::string& ns) {
  NamespacePage page;
  // Units are keyed "<namespace>/<name>": a namespace's units come one after the other.
  for (auto it = s.units().lower_bound(ns + "/"); it != s.units().end(); ++it) {
    const UnitState& u = it->second;
    if (u.object.metadata.namespace_ != ns) break;
    ++page.count;
    if (u.waiting) ++page.waiting;
    if (u.holds) {
      ++page.holding;
      schema::add_to(page.used, u.charge);
    }
    ++page.phases[phase_name(u.phase)];
    const auto& ref = u.object.spec.consumer_ref;
    if (ref && !ref->kind.empty()) ++page.types[ref->kind];
  }
  if (page.count == 0) return std::nullopt;
  return page;
}

}  // namespace koordq::actors::pages
