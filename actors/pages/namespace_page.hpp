// What one namespace's QueueUnits add up to (design.md §4, read side): the debug API's userquota
// entry and the namespace families of /metrics. Immutable once built.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "actors/core/scheduler.hpp"

namespace koordq::actors::pages {

struct NamespacePage {
  int64_t count = 0, waiting = 0, holding = 0;
  schema::ResourceVector used;                        // Σ charge of its units holding quota
  std::map<std::string, int64_t> phases;              // by phase name
  std::map<std::string, int64_t, std::less<>> types;  // by spec.consumerRef.kind

  bool operator==(const NamespacePage&) const = default;
};

// The page of namespace `ns`; nullopt when it has no QueueUnit.
std::optional<NamespacePage> build_namespace_page(const Scheduler& s, const std::string& ns);

}  // namespace koordq::actors::pages
