#include "api/read_params.hpp"

#include <array>

#include "base/object_name.hpp"
#include "base/rfc3339.hpp"

namespace koordq::api {
namespace {

constexpr std::array<actors::Phase, 10> kAllPhases = {actors::Phase::kEnqueued,       actors::Phase::kReserved,
                                                      actors::Phase::kDequeued,       actors::Phase::kRunning,
                                                      actors::Phase::kSucceed,        actors::Phase::kFailed,
                                                      actors::Phase::kTimeoutBackoff, actors::Phase::kSchedReady,
                                                      actors::Phase::kSchedSucceed,   actors::Phase::kSchedFailed};

std::optional<actors::Phase> phase_named(std::string_view name) {
  for (actors::Phase p : kAllPhases) {
    if (name == actors::phase_name(p)) return p;
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::optional<ApiError> parse_point_in_time(const RequestTarget& target, int64_t now, PointInTime& out) {
  const auto as_of = target.param("asOf");
  const auto revision = target.param("revision");
  if (as_of && revision) return bad_request("parameters asOf and revision are mutually exclusive");
  if (revision) {
    const auto n = parse_count(*revision);
    if (!n || *n < 1) return invalid_parameter("revision", *revision, "must be an integer >= 1");
    out.kind = PointInTime::Kind::kRevision;
    out.revision = static_cast<uint64_t>(*n);
  } else if (as_of) {
    auto t = base::parse_rfc3339(*as_of);
    if (!t.ok() || *t > now) return invalid_parameter("asOf", *as_of, "must be an RFC3339 time not in the future");
    out.kind = PointInTime::Kind::kTime;
    out.time = *t;
    out.text = std::string(*as_of);
  }
  return std::nullopt;
}

std::optional<ApiError> parse_page(const RequestTarget& target, PageParams& out) {
  if (const auto offset = target.param("offset")) {
    const auto n = parse_count(*offset);
    if (!n) return invalid_parameter("offset", *offset, "must be an integer >= 0");
    out.offset = *n;
  }
  if (const auto limit = target.param("limit")) {
    const auto n = parse_count(*limit);
    if (!n || *n < 1 || *n > 10000) {
      return invalid_parameter("limit", *limit, "must be an integer between 1 and 10000");
    }
    out.limit = *n;
  }
  return std::nullopt;
}

std::optional<ApiError> parse_unit_filter(const RequestTarget& target, UnitFilter& out) {
  if (const auto phases = target.param("phase")) {
    std::set<actors::Phase> wanted;
    for (const std::string_view name : split_list(*phases)) {
      const auto phase = phase_named(name);
      if (!phase) return invalid_parameter("phase", *phases, "unknown phase \"" + std::string(name) + "\"");
      wanted.insert(*phase);
    }
    out.phases = std::move(wanted);
  }
  if (const auto queue = target.param("queue")) {
    if (!base::is_object_name(*queue)) return invalid_parameter("queue", *queue, "must be a valid object name");
    out.queue = std::string(*queue);
  }
  return std::nullopt;
}

}  // namespace koordq::api
