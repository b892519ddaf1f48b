#include "console/console_api.hpp"

#include <charconv>

#include "api/debug_service.hpp"
#include "api/json_out.hpp"
#include "api/unit_render.hpp"
#include "api/visibility_render.hpp"
#include "base/rfc3339.hpp"
#include "console/instant_diff.hpp"
#include "console/state_lists.hpp"
#include "journal/revision_lookup.hpp"
#include "replay/explain.hpp"
#include "replay/explain_fold.hpp"

namespace koordq::console {
namespace {

namespace http = boost::beast::http;
using api::HttpResponse;
using api::RequestTarget;

constexpr size_t kDefaultBuckets = 240;
constexpr size_t kMaxBuckets = 4000;
constexpr size_t kStepBins = 64;            // bins with decisions read per step request at most
constexpr uint64_t kMaxListItems = 10'000;  // a page asks for at most this many items of a list

HttpResponse json_response(int code, std::string body) {
  HttpResponse response(static_cast<http::status>(code), 11);
  response.set(http::field::content_type, "application/json");
  response.set(http::field::cache_control, "no-store");
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

HttpResponse error(int code, std::string_view message) {
  return json_response(code, api::render_error(message));
}

std::optional<uint64_t> parse_count(std::string_view text) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The retained records [first, head] the console shows.
Result<journal::RetainedRange> shown_range(const ConsoleContext& c) {
  auto range = journal::retained_range(*c.reader);
  if (!range.ok()) return range.error();
  const uint64_t head = c.head();
  if (head < range->last) range->last = head;
  if (range->last == 0 || range->first > range->last) {
    return make_error("the journal holds no records yet: there is no state to show");
  }
  return range;
}

// `revision=N` or `at=RFC3339`; neither: the head.
Result<uint64_t> requested_revision(const ConsoleContext& c, const RequestTarget& target,
                                    const journal::RetainedRange& range) {
  const auto revision = target.param("revision");
  const auto at = target.param("at");
  if (revision && at) return make_error("give revision or at, not both");
  if (revision) {
    const auto n = parse_count(*revision);
    if (!n || *n == 0)
      return make_error("invalid revision \"" + std::string(*revision) + "\": must be an integer >= 1");
    return journal::check_revision(range, *n);
  }
  if (at) {
    auto t = base::parse_rfc3339(*at);
    if (!t.ok()) return make_error("invalid at \"" + std::string(*at) + "\": must be an RFC3339 time");
    return journal::revision_at_time(*c.reader, range, *t, std::string(*at));
  }
  return range.last;
}

std::string time_of(const ConsoleContext& c, uint64_t seq) {
  auto record = c.reader->get(seq);
  if (!record.ok() || !record->has_value()) return "";
  return base::format_rfc3339_millis((*record)->time());
}

HttpResponse journal_info(const ConsoleContext& c) {
  auto range = journal::retained_range(*c.reader);
  if (!range.ok()) return error(500, range.message());
  const uint64_t head = std::min(c.head(), range->last);
  api::JsonOut out;
  out.begin_object().field("uuid", c.journal_uuid).field("source", c.source).field("live", c.live);
  out.field("first", static_cast<int64_t>(range->first)).field("head", static_cast<int64_t>(head));
  out.field("firstTime", range->first ? base::format_rfc3339_millis(range->first_time) : std::string());
  out.field("headTime", head ? time_of(c, head) : std::string());
  out.field("indexed", static_cast<int64_t>(c.timeline->last_seq()));
  const std::optional<std::string> moved = c.moved ? c.moved() : std::nullopt;
  out.key("moved");
  if (moved) {
    out.string(*moved);
  } else {
    out.null();
  }
  out.end_object();
  return json_response(200, out.take());
}

HttpResponse resolve(const ConsoleContext& c, const RequestTarget& target) {
  auto range = shown_range(c);
  if (!range.ok()) return error(404, range.message());
  auto revision = requested_revision(c, target, *range);
  if (!revision.ok()) return error(400, revision.message());
  api::JsonOut out;
  out.begin_object().field("revision", static_cast<int64_t>(*revision)).field("time", time_of(c, *revision));
  out.end_object();
  return json_response(200, out.take());
}

void write_bucket(api::JsonOut& out, const TimelineBucket& b) {
  out.begin_object();
  out.field("firstSeq", static_cast<int64_t>(b.first_seq)).field("lastSeq", static_cast<int64_t>(b.last_seq));
  out.field("firstTime", base::format_rfc3339_millis(b.first_time));
  out.field("lastTime", base::format_rfc3339_millis(b.last_time));
  out.field("arrivals", static_cast<int64_t>(b.counts.arrivals));
  out.field("admissions", static_cast<int64_t>(b.counts.admissions));
  out.field("failures", static_cast<int64_t>(b.counts.failures));
  out.field("preemptions", static_cast<int64_t>(b.counts.preemptions));
  out.field("leaderChanges", static_cast<int64_t>(b.counts.leader_changes));
  out.field("relists", static_cast<int64_t>(b.counts.relists));
  out.end_object();
}

HttpResponse timeline(const ConsoleContext& c, const RequestTarget& target) {
  auto range = shown_range(c);
  if (!range.ok()) return error(404, range.message());
  uint64_t from = range->first;
  uint64_t to = range->last;
  size_t count = kDefaultBuckets;
  for (const auto& [name, value] : target.params) {
    const auto n = parse_count(value);
    if (name != "from" && name != "to" && name != "buckets") {
      return error(400, "unknown parameter \"" + name + "\": the timeline takes from, to and buckets");
    }
    if (!n) return error(400, "invalid " + name + " \"" + value + "\": must be a non-negative integer");
    if (name == "from") from = std::max(*n, range->first);
    if (name == "to") to = std::min(*n, range->last);
    if (name == "buckets") {
      if (*n == 0 || *n > kMaxBuckets)
        return error(400, "buckets must be between 1 and " + std::to_string(kMaxBuckets));
      count = static_cast<size_t>(*n);
    }
  }
  if (from > to) return error(400, "from " + std::to_string(from) + " is after to " + std::to_string(to));
  api::JsonOut out;
  out.begin_object().field("from", static_cast<int64_t>(from)).field("to", static_cast<int64_t>(to));
  out.field("indexed", static_cast<int64_t>(std::min(c.timeline->last_seq(), range->last)));
  out.key("buckets").begin_array();
  for (const TimelineBucket& b : c.timeline->buckets(from, to, count)) write_bucket(out, b);
  out.end_array().end_object();
  return json_response(200, out.take());
}

// The nearest round with decisions after (or before) `revision` within [first, last].
Result<std::optional<uint64_t>> step_from(const ConsoleContext& c, uint64_t revision, bool forward,
                                          const journal::RetainedRange& range) {
  const auto bins = forward ? c.timeline->decided_bins_after(revision, kStepBins)
                            : c.timeline->decided_bins_before(revision, kStepBins);
  for (const auto& [first, last] : bins) {
    std::optional<uint64_t> found;
    journal::RecordCursor cursor(c.reader->store(), first, last);
    while (true) {
      auto record = cursor.next();
      if (!record.ok()) return record.error();
      if (!record->has_value()) break;
      const journal::StoredRecord& r = **record;
      if (r.seq() < range.first || r.seq() > range.last) continue;
      if (forward ? r.seq() <= revision : r.seq() >= revision) continue;
      if (record_moments(r).decided_rounds == 0) continue;
      found = r.seq();
      if (forward) break;
    }
    if (found) return found;
  }
  return std::optional<uint64_t>{};
}

HttpResponse step(const ConsoleContext& c, const RequestTarget& target) {
  auto range = shown_range(c);
  if (!range.ok()) return error(404, range.message());
  auto revision = requested_revision(c, target, *range);
  if (!revision.ok()) return error(400, revision.message());
  const auto direction = target.param("direction").value_or("next");
  if (direction != "next" && direction != "prev") {
    return error(400, "invalid direction \"" + std::string(direction) + "\": next or prev");
  }
  auto found = step_from(c, *revision, direction == "next", *range);
  if (!found.ok()) return error(500, found.message());
  api::JsonOut out;
  out.begin_object().key("revision");
  if (*found) {
    out.integer(static_cast<int64_t>(**found));
  } else {
    out.null();
  }
  out.end_object();
  return json_response(200, out.take());
}

std::string not_found_message(std::string_view object, const std::string& ns, const std::string& name) {
  if (object == "queue") return "queue.scheduling.x-k8s.io \"" + name + "\" not found";
  if (object == "quota") return "elasticquota.scheduling.sigs.k8s.io \"" + name + "\" not found";
  return "queueunit \"" + ns + "/" + name + "\" not found";
}

Result<api::PageParams> page_of(const RequestTarget& target) {
  api::PageParams page;
  if (auto limit = target.param("limit")) {
    const auto n = parse_count(*limit);
    if (!n || *n == 0) return make_error("invalid limit \"" + std::string(*limit) + "\": must be an integer >= 1");
    page.limit = static_cast<int64_t>(std::min<uint64_t>(*n, kMaxListItems));
  }
  return page;
}

HttpResponse state(const ConsoleContext& c, const RequestTarget& target) {
  auto range = shown_range(c);
  if (!range.ok()) return error(404, range.message());
  auto revision = requested_revision(c, target, *range);
  if (!revision.ok()) return error(400, revision.message());
  const std::string object(target.param("object").value_or(""));
  const std::string name(target.param("name").value_or(""));
  const std::string ns(target.param("namespace").value_or(""));
  std::optional<std::string> match;
  if (const auto m = target.param("match")) match = std::string(*m);
  if (object != "queues" && object != "quotas" && object != "queue" && object != "quota" && object != "unit" &&
      object != "units") {
    return error(400, "invalid object \"" + object + "\": queues, quotas, queue, quota, unit or units");
  }
  if ((object == "queue" || object == "quota" || object == "unit") && name.empty()) {
    return error(400, "object " + object + " needs name");
  }
  if (object == "unit" && ns.empty()) return error(400, "object unit needs namespace");
  if (object == "units" && (!match || match->empty()))
    return error(400, "object units needs match (a part of NS/NAME)");
  if (match && object != "queues" && object != "queue" && object != "units") {
    return error(400, "match filters the objects queues, queue and units only");
  }
  auto page = page_of(target);
  if (!page.ok()) return error(400, page.message());
  api::UnitFilter filter;
  if (match && !match->empty()) filter.name_contains = *match;
  const auto limit = static_cast<size_t>(page->limit);
  std::optional<std::string> body;
  auto failed = c.state_at(*revision, [&](const actors::Scheduler& s, uint64_t at) {
    if (object == "queues") {
      body = match ? render_queues_matching(s, at, *match, limit) : api::render_queue_list(s, at, *page);
    }
    if (object == "units") body = render_units_matching(s, at, *match, limit);
    if (object == "quotas") body = api::render_quota_list(s, at, *page);
    if (object == "queue") body = api::render_queue_units(s, at, name, filter, *page);
    if (object == "quota") body = api::render_quota_units(s, at, name, {}, *page);
    if (object == "unit") body = api::render_unit(s, at, ns, name);
  });
  if (failed) return error(failed->code, failed->message);
  if (!body) return error(404, not_found_message(object, ns, name));
  HttpResponse response = json_response(200, std::move(*body));
  response.set("X-Koordq-Revision", std::to_string(*revision));
  return response;
}

HttpResponse quota_tree(const ConsoleContext& c, const RequestTarget& target) {
  auto range = shown_range(c);
  if (!range.ok()) return error(404, range.message());
  auto revision = requested_revision(c, target, *range);
  if (!revision.ok()) return error(400, revision.message());
  auto page = page_of(target);
  if (!page.ok()) return error(400, page.message());
  const std::string match(target.param("match").value_or(""));
  std::string body;
  auto failed = c.state_at(*revision, [&](const actors::Scheduler& s, uint64_t at) {
    body = render_quota_tree(s, at, match, static_cast<size_t>(page->limit));
  });
  if (failed) return error(failed->code, failed->message);
  HttpResponse response = json_response(200, std::move(body));
  response.set("X-Koordq-Revision", std::to_string(*revision));
  return response;
}

// Both instants summed up one after the other: one request however many queues there are.
HttpResponse difference(const ConsoleContext& c, const RequestTarget& target) {
  auto range = shown_range(c);
  if (!range.ok()) return error(404, range.message());
  auto revision = requested_revision(c, target, *range);
  if (!revision.ok()) return error(400, revision.message());
  const auto compare_text = target.param("compare");
  if (!compare_text) return error(400, "diff needs compare (the other revision)");
  const auto compare_n = parse_count(*compare_text);
  if (!compare_n || *compare_n == 0) {
    return error(400, "invalid compare \"" + std::string(*compare_text) + "\": must be an integer >= 1");
  }
  auto compare = journal::check_revision(*range, *compare_n);
  if (!compare.ok()) return error(400, "compare: " + compare.message());
  auto page = page_of(target);
  if (!page.ok()) return error(400, page.message());
  InstantSummary a, b;
  if (auto failed =
          c.state_at(*revision, [&](const actors::Scheduler& s, uint64_t at) { a = summarize_instant(s, at); })) {
    return error(failed->code, failed->message);
  }
  if (auto failed =
          c.state_at(*compare, [&](const actors::Scheduler& s, uint64_t at) { b = summarize_instant(s, at); })) {
    return error(failed->code, failed->message);
  }
  return json_response(200, render_instant_diff(a, b, static_cast<size_t>(page->limit)));
}

HttpResponse explain(const ConsoleContext& c, const RequestTarget& target) {
  auto range = shown_range(c);
  if (!range.ok()) return error(404, range.message());
  auto revision = requested_revision(c, target, *range);
  if (!revision.ok()) return error(400, revision.message());
  const std::string ns(target.param("namespace").value_or(""));
  const std::string name(target.param("name").value_or(""));
  if (ns.empty() || name.empty()) return error(400, "explain needs namespace and name");
  replay::StoryFolder folder(ns, name);
  auto plan = replay::plan_story(*c.reader, ns, name, range->first, *revision);
  if (!plan.ok()) return error(500, plan.message());
  if (Status folded = replay::fold_story(*c.reader, *plan, folder); !folded.ok()) return error(500, folded.message());
  if (!folder.latest_uid()) return error(404, not_found_message("unit", ns, name));
  std::string uid(target.param("uid").value_or(*folder.latest_uid()));
  const auto& uids = folder.uids();
  if (std::find(uids.begin(), uids.end(), uid) == uids.end()) {
    return error(404, not_found_message("unit", ns, name) + " with uid " + uid);
  }
  std::string body = replay::render_story_json(folder.story(uid));
  while (!body.empty() && body.back() == '\n') body.pop_back();
  return json_response(200, std::move(body));
}

}  // namespace

std::optional<HttpResponse> answer_console_api(const ConsoleContext& c, const RequestTarget& target) {
  if (!target.path.starts_with("/console/api/")) return std::nullopt;
  const std::string_view endpoint = std::string_view(target.path).substr(std::string_view("/console/api/").size());
  if (endpoint == "journal") return journal_info(c);
  if (endpoint == "resolve") return resolve(c, target);
  if (endpoint == "timeline") return timeline(c, target);
  if (endpoint == "step") return step(c, target);
  if (endpoint == "at") return state(c, target);
  if (endpoint == "explain") return explain(c, target);
  if (endpoint == "tree") return quota_tree(c, target);
  if (endpoint == "diff") return difference(c, target);
  return error(404,
               "no console endpoint " + target.path +
                   ": journal, resolve, timeline, step, at, tree, diff and explain are served under /console/api/");
}

}  // namespace koordq::console
