#include "api/journal_stream.hpp"

#include "actors/core/unit_facts.hpp"
#include "api/debug_service.hpp"
#include "api/read_params.hpp"
#include "base/log.hpp"
#include "base/object_name.hpp"
#include "journal/export_line.hpp"
#include "schema/wire_codec.hpp"

namespace koordq::api {
namespace {

constexpr int64_t kWaitNanos = 200'000'000;  // how long a follower waits before it checks the peer
constexpr size_t kChunkBytes = 64 * 1024;

std::string_view text(capnp::Text::Reader t) {
  return std::string_view(t.cStr(), t.size());
}

bool unit_concerns(wire::UnitRef::Reader unit, const StreamFilter& f) {
  if (f.namespace_ && text(unit.getNamespace()) != *f.namespace_) return false;
  if (f.queue && text(unit.getQuota()) != *f.queue && text(unit.getQueue()) != *f.queue) return false;
  return true;
}

bool target_concerns(wire::Target::Reader target, const StreamFilter& f) {
  if (target.isUnit()) return unit_concerns(target.getUnit(), f);
  const std::string_view queue = text(target.getQueue().getName());
  if (f.namespace_ && f.queue_namespace != *f.namespace_) return false;
  return !f.queue || queue == *f.queue;
}

bool watch_concerns(wire::Watch::Reader w, const StreamFilter& f) {
  if (w.getEventType() == wire::Watch::EventType::BOOKMARK) return false;
  if (f.namespace_ && text(w.getNamespace()) != *f.namespace_) return false;
  if (!f.queue) return true;
  if (w.getObjectKind() != wire::ObjectKind::QUEUE_UNIT) return text(w.getName()) == *f.queue;
  // A QueueUnit concerns the queue its quota name maps to (§4).
  auto object = schema::read_watched_object(w.getObject());
  if (!object.ok()) return false;
  const auto* unit = std::get_if<schema::QueueUnit>(&*object);
  return unit != nullptr && actors::quota_name_of(*unit) == *f.queue;
}

}  // namespace

std::optional<ApiError> parse_stream_request(const RequestTarget& target, uint64_t first, uint64_t last,
                                             StreamRequest& out) {
  out.from = first > 0 ? first - 1 : 0;
  if (const auto from = target.param("from")) {
    const auto n = parse_count(*from);
    if (!n) return invalid_parameter("from", *from, "must be an integer >= 0");
    const uint64_t v = static_cast<uint64_t>(*n);
    if (v > last) {
      return bad_request("from " + std::to_string(v) + " is newer than the latest revision " + std::to_string(last));
    }
    if (first > 0 && v + 1 < first) {
      return ApiError{
          410, "Expired",
          "from " + std::to_string(v) + " is older than the oldest retained revision " + std::to_string(first)};
    }
    out.from = v;
  }
  if (const auto follow = target.param("follow")) {
    if (*follow != "true" && *follow != "false") {
      return invalid_parameter("follow", *follow, "must be true or false");
    }
    out.follow = *follow == "true";
  }
  if (const auto kinds = target.param("kind")) {
    std::set<journal::RecordKind> wanted;
    for (const std::string_view name : split_list(*kinds)) {
      const auto kind = journal::parse_kind(name);
      if (!kind) return invalid_parameter("kind", *kinds, "unknown record kind \"" + std::string(name) + "\"");
      wanted.insert(*kind);
    }
    out.filter.kinds = std::move(wanted);
  }
  if (const auto ns = target.param("namespace")) {
    if (!base::is_namespace_name(*ns)) {
      return invalid_parameter("namespace", *ns, "must be a valid namespace name");
    }
    out.filter.namespace_ = std::string(*ns);
  }
  if (const auto queue = target.param("queue")) {
    if (!base::is_object_name(*queue)) return invalid_parameter("queue", *queue, "must be a valid object name");
    out.filter.queue = std::string(*queue);
  }
  return std::nullopt;
}

bool stream_matches(const journal::StoredRecord& record, const StreamFilter& filter) {
  if (filter.kinds && !filter.kinds->count(record.kind())) return false;
  if (!filter.namespace_ && !filter.queue) return true;
  const auto body = record.reader().getBody();
  switch (record.kind()) {
    case journal::RecordKind::kWatch:
      return watch_concerns(body.getWatch(), filter);
    case journal::RecordKind::kOutcome:
      return target_concerns(body.getOutcome().getTarget(), filter);
    case journal::RecordKind::kRound:
      for (const auto decision : body.getRound().getDecisions()) {
        if (target_concerns(decision.getTarget(), filter)) return true;
      }
      return false;
    default:
      return false;  // ticks, config, role and relist markers concern no object
  }
}

void write_journal_stream(const JournalStreamSource& source, const StreamRequest& request, StreamWriter& out) {
  const uint64_t end = request.follow ? UINT64_MAX : source.durable_seq();
  uint64_t examined = request.from;
  std::string chunk;
  while (examined < end && !out.done()) {
    const uint64_t durable = source.durable_seq();
    if (durable > examined + source.max_lag) {
      out.write(chunk);
      out.write("{\"error\":\"too slow\",\"resumeFrom\":" + std::to_string(examined) + "}\n");
      return;
    }
    if (durable <= examined) {
      if (!out.write(chunk)) return;
      chunk.clear();
      source.wait_durable(examined + 1, kWaitNanos);
      continue;
    }
    auto cursor = source.reader->cursor(examined + 1, std::min(durable, end));
    while (true) {
      auto next = cursor.next();
      if (!next.ok()) {
        KQ_LOG_ERROR("journal stream: {}", next.message());
        out.write(chunk);
        return;
      }
      if (!next->has_value()) break;
      const journal::StoredRecord& record = **next;
      examined = record.seq();
      if (stream_matches(record, request.filter)) {
        chunk += journal::render_export_line(record);
        chunk += '\n';
      }
      if (chunk.size() >= kChunkBytes) {
        if (!out.write(chunk)) return;
        chunk.clear();
        if (out.done()) return;
        if (source.durable_seq() > examined + source.max_lag) break;  // the top of the loop says so
      }
    }
    if (!out.write(chunk)) return;
    chunk.clear();
  }
}

}  // namespace koordq::api
