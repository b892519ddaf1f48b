// The difference between two instants (docs/behaviour.md §25.2), computed in one request: the
// units admitted, arrived, gone and moved in their queue, and every quota whose used changed.
// A state is summed up first (a few fields per unit and quota), so that the two states need not
// be held at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "actors/core/scheduler.hpp"

namespace koordq::console {

struct UnitAtInstant {
  std::string queue;
  std::string phase;
  std::optional<int64_t> position;  // 0-based among its queue's waiting units
  bool admitted = false;            // its phase is one of an admitted unit
};

struct InstantSummary {
  uint64_t revision = 0;
  std::map<std::string, UnitAtInstant> units;  // by NAMESPACE/NAME
  std::map<std::string, std::string> used;     // quota → its used, as rendered
};

InstantSummary summarize_instant(const actors::Scheduler& s, uint64_t revision);

// JSON: `from`, `to` (the earlier and the later revision), then `admitted`, `arrived`, `left`,
// `moved`, `quotaChanges`, each {"total": N, "items": [...]} with at most `limit` items.
std::string render_instant_diff(const InstantSummary& a, const InstantSummary& b, size_t limit);

}  // namespace koordq::console
