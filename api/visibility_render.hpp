// The visibility API's answers as projections of the read pages at one revision
// (behaviour.md §16.3, §16.5, §16.6; actors/pages/read_pages.hpp): pure functions of (pages,
// parameters), shared by the live server, time travel and `koordq at`. The overloads on a whole
// state build the pages they read from it (read_pages_on_demand), so every answer has one code path.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "actors/core/scheduler.hpp"
#include "actors/pages/read_pages.hpp"
#include "api/json_out.hpp"

namespace koordq::api {

inline constexpr std::string_view kVisibilityGroup = "visibility.koord-queue.x-k8s.io";
inline constexpr std::string_view kVisibilityVersion = "v1alpha1";
inline constexpr std::string_view kVisibilityGroupVersion = "visibility.koord-queue.x-k8s.io/v1alpha1";

struct PageParams {
  int64_t offset = 0;
  int64_t limit = 1000;
};

struct UnitFilter {
  std::optional<std::set<actors::Phase>> phases;  // nullopt: every phase
  std::optional<std::string> queue;               // keep units whose queueName equals it
  std::optional<std::string> namespace_;          // keep units of that namespace (§16.7)
  std::optional<std::string> name_contains;       // keep units whose NAMESPACE/NAME contains it (§25.3)
};

std::string render_queue_list(const actors::pages::ReadPages& p, const PageParams& page);
std::optional<std::string> render_queue(const actors::pages::ReadPages& p, const std::string& name);
std::optional<std::string> render_queue_units(const actors::pages::ReadPages& p, const std::string& queue,
                                              const UnitFilter& filter, const PageParams& page);
std::string render_quota_list(const actors::pages::ReadPages& p, const PageParams& page);
std::optional<std::string> render_quota(const actors::pages::ReadPages& p, const std::string& name);
std::optional<std::string> render_quota_units(const actors::pages::ReadPages& p, const std::string& quota,
                                              const UnitFilter& filter, const PageParams& page);

// The same answers of the state after record `revision`.
std::string render_queue_list(const actors::Scheduler& s, uint64_t revision, const PageParams& page);
// std::nullopt when no Queue has that name.
std::optional<std::string> render_queue(const actors::Scheduler& s, uint64_t revision, const std::string& name);
std::optional<std::string> render_queue_units(const actors::Scheduler& s, uint64_t revision, const std::string& queue,
                                              const UnitFilter& filter, const PageParams& page);

std::string render_quota_list(const actors::Scheduler& s, uint64_t revision, const PageParams& page);
std::optional<std::string> render_quota(const actors::Scheduler& s, uint64_t revision, const std::string& name);
// std::nullopt when no ElasticQuota has that name and no QueueUnit carries it as its quota name.
std::optional<std::string> render_quota_units(const actors::Scheduler& s, uint64_t revision, const std::string& quota,
                                              const UnitFilter& filter, const PageParams& page);

// The items of the lists above, for answers that choose their own items (the console's quota tree
// and its search by name, behaviour.md §25.3).
using PhaseCounts = std::map<std::string, int64_t>;
// Every quota's units by phase, in one walk of the units.
std::map<std::string, PhaseCounts> phase_counts_by_quota(const actors::Scheduler& s);
void write_queue_item(JsonOut& out, const actors::pages::QueueSummary& q);
void write_queue_item(JsonOut& out, const actors::Scheduler& s, const actors::QueueState& q);
void write_quota_item(JsonOut& out, const actors::Scheduler& s, const actors::QuotaInfo& info,
                      const PhaseCounts& counts);
void write_list_metadata(JsonOut& out, uint64_t revision, int64_t remaining);

}  // namespace koordq::api
