// The visibility API's answers as projections of the decision state at one revision
// (behaviour.md §16.3, §16.5, §16.6): pure functions of (state, revision, parameters), shared by the
// live server, time travel and `koordq at`.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "actors/core/scheduler.hpp"

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
};

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

}  // namespace koordq::api
