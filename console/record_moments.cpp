#include "console/record_moments.hpp"

namespace koordq::console {

MomentCounts& MomentCounts::operator+=(const MomentCounts& other) {
  arrivals += other.arrivals;
  admissions += other.admissions;
  failures += other.failures;
  preemptions += other.preemptions;
  leader_changes += other.leader_changes;
  relists += other.relists;
  decided_rounds += other.decided_rounds;
  return *this;
}

namespace {

void count_decision(wire::Decision::Kind kind, MomentCounts& counts) {
  using Kind = wire::Decision::Kind;
  switch (kind) {
    case Kind::ADMIT:
    case Kind::RESERVE:
      ++counts.admissions;
      break;
    case Kind::FAIL:
    case Kind::ADMISSION_CHECK_FAILED:
    case Kind::MAX_EXEC_EXCEEDED:
    case Kind::INVALID_QUANTITIES:
      ++counts.failures;
      break;
    case Kind::PREEMPT:
      ++counts.preemptions;
      break;
    default:
      break;
  }
}

}  // namespace

MomentCounts record_moments(const journal::StoredRecord& record) {
  MomentCounts counts;
  const auto body = record.reader().getBody();
  switch (body.which()) {
    case wire::Record::Body::WATCH: {
      const auto watch = body.getWatch();
      if (watch.getEventType() == wire::Watch::EventType::ADDED && !watch.getSynthesized() &&
          watch.getObjectKind() == wire::ObjectKind::QUEUE_UNIT) {
        ++counts.arrivals;
      }
      break;
    }
    case wire::Record::Body::ROUND: {
      const auto decisions = body.getRound().getDecisions();
      if (decisions.size() > 0) ++counts.decided_rounds;
      for (const auto decision : decisions) count_decision(decision.getKind(), counts);
      break;
    }
    case wire::Record::Body::ROLE:
      ++counts.leader_changes;
      break;
    case wire::Record::Body::RELIST:
      if (body.getRelist().getPhase() == wire::Relist::Phase::BEGIN) ++counts.relists;
      break;
    default:
      break;
  }
  return counts;
}

}  // namespace koordq::console
