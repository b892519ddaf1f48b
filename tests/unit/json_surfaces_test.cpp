// Every JSON koordq emits parses with a real parser and gives back, unchanged, a string holding
// every control character (U+0000..U+001F), a quote, a backslash, DEL and non-ASCII UTF-8; the
// ones koordq writes itself escape that string byte for byte as RapidJSON's Writer does (the
// debug and visibility APIs write through it), so one string has one spelling on every surface.
// Export lines and the debug API's indented pages come from Cap'n Proto's JSON codec and
// RapidJSON's PrettyWriter: they are checked for the round trip only.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "actors/core/scheduler.hpp"
#include "api/debug_render.hpp"
#include "api/json_out.hpp"
#include "api/unit_render.hpp"
#include "api/visibility_render.hpp"
#include "journal/audit_line.hpp"
#include "journal/capnp_record_body.hpp"
#include "journal/export_line.hpp"
#include "journal/export_trailer.hpp"
#include "journal/journal_stat.hpp"
#include "replay/explain.hpp"
#include "replay/replay.hpp"
#include "replay/what_if.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

const std::string kAwkward = [] {
  std::string s;
  for (int c = 0; c < 0x20; ++c) s.push_back(static_cast<char>(c));
  return s + "\"\\\x7f/é€😀";
}();

// The string literal RapidJSON's Writer writes for `text`.
std::string writer_literal(const std::string& text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

rapidjson::Document parsed(const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  EXPECT_FALSE(doc.HasParseError()) << "offset " << doc.GetErrorOffset() << " of " << json;
  return doc;
}

std::string text_of(const rapidjson::Value& v) {
  if (!v.IsString()) return "<not a string>";
  return std::string(v.GetString(), v.GetStringLength());
}

// Parses `json`, finds the string at `path` (object keys, or array indexes written as "#0"), and
// checks it is kAwkward; with `same_escaping`, also that the text holds kAwkward as RapidJSON writes it.
void expect_round_trip(const std::string& json, const std::vector<std::string>& path, bool same_escaping = true) {
  const rapidjson::Document doc = parsed(json);
  if (doc.HasParseError()) return;
  const rapidjson::Value* v = &doc;
  for (const auto& step : path) {
    if (step.starts_with("#")) {
      const auto index = static_cast<rapidjson::SizeType>(std::stoul(step.substr(1)));
      ASSERT_TRUE(v->IsArray() && index < v->Size()) << step << " in " << json;
      v = &(*v)[index];
    } else {
      ASSERT_TRUE(v->IsObject() && v->HasMember(step.c_str())) << step << " in " << json;
      v = &(*v)[step.c_str()];
    }
  }
  EXPECT_EQ(text_of(*v), kAwkward) << json;
  if (same_escaping) {
    EXPECT_NE(json.find(writer_literal(kAwkward)), std::string::npos) << json;
  }
}

TEST(JsonSurfaces, replay_summary) {
  replay::StateSummary s;
  s.journal_uuid = kAwkward;
  s.phases[kAwkward] = 1;
  const std::string json = replay::render_summary_json(s);
  expect_round_trip(json, {"journal"});
  const auto doc = parsed(json);
  EXPECT_TRUE(
      doc["phases"].HasMember(rapidjson::Value(kAwkward.data(), static_cast<rapidjson::SizeType>(kAwkward.size()))));
}

TEST(JsonSurfaces, replay_verify_state_differences) {
  replay::VerifyResult r;
  r.snapshot_mismatch = replay::SnapshotMismatch{7, {kAwkward}};
  expect_round_trip(replay::render_verify_json(r), {"snapshotMismatch", "stateDiff", "#0"});
}

TEST(JsonSurfaces, replay_what_if) {
  replay::WhatIfResult result;
  replay::UnitAdmission u;
  u.namespace_ = u.name = u.uid = u.queue = kAwkward;
  u.recorded = 1'000'000'000;
  u.what_if = 3'000'000'000;
  u.change = replay::AdmissionChange::later;
  result.units.push_back(u);
  const std::string json = replay::render_what_if_json(result, {{"backoff", kAwkward}});
  expect_round_trip(json, {"changes", "backoff"});
  for (const char* field : {"namespace", "name", "uid", "queue"}) expect_round_trip(json, {"units", "#0", field});
}

TEST(JsonSurfaces, queue_usage_annotations) {
  SchedulerDriver d;
  d.input(queue("root"));
  d.input(quota("root", "", {{"cpu", "8"}, {kAwkward, "8"}}));
  auto u = unit("job", "root", "2");
  u.spec.resource = {{"cpu", "2"}, {kAwkward, "3"}};
  u.spec.request = u.spec.resource;
  d.input(u);
  d.tick(d.time + kSec);
  const actors::UsageAnnotations annotations = d.s.usage_annotations("root");
  const std::string* used = annotations.find("alibabacloud.com/queue-used");
  ASSERT_NE(used, nullptr);
  const auto doc = parsed(*used);
  ASSERT_TRUE(doc.IsObject()) << *used;
  ASSERT_EQ(doc.MemberCount(), 2u) << *used;
  EXPECT_EQ(text_of(doc.MemberBegin()->name), kAwkward) << *used;  // bytewise order: controls first
  EXPECT_NE(used->find(writer_literal(kAwkward)), std::string::npos) << *used;
}

TEST(JsonSurfaces, journal_stat_and_export_trailer) {
  journal::JournalStat stat;
  stat.uuid = kAwkward;
  expect_round_trip(journal::render_stat_json(stat), {"journal"});
  journal::ExportTrailer trailer;
  trailer.journal_uuid = kAwkward;
  expect_round_trip(journal::render_export_trailer(trailer), {"trailer", "journal"});
}

// A watch record whose namespace and resourceVersion are kAwkward (set whole: a Text built from
// a std::string alone would stop at its first NUL).
journal::StoredRecord awkward_watch_record() {
  journal::CapnpRecordBody body;
  auto watch = body.record().initBody().initWatch();
  watch.setObjectKind(wire::ObjectKind::QUEUE_UNIT);
  watch.setNamespace(capnp::Text::Reader(kAwkward.data(), kAwkward.size()));
  watch.setName("job");
  watch.setUid("uid-job");
  watch.setResourceVersion(capnp::Text::Reader(kAwkward.data(), kAwkward.size()));
  watch.initObject().setNone();
  RecordChain chain;
  return chain.append(body, 1'000'000'000);
}

TEST(JsonSurfaces, audit_lines) {
  const std::string line = journal::render_audit_line(awkward_watch_record(), kAwkward);
  expect_round_trip(line, {"objectRef", "namespace"});
  expect_round_trip(line, {"objectRef", "resourceVersion"});
  expect_round_trip(line, {"annotations", "koordq.io/journal"});
}

TEST(JsonSurfaces, export_lines_round_trip) {
  const std::string line = journal::render_export_line(awkward_watch_record());
  expect_round_trip(line, {"body", "watch", "namespace"}, false);
}

// Whether `v` or anything in it is the string kAwkward (a key or a value).
bool holds_awkward(const rapidjson::Value& v) {
  if (v.IsString()) return text_of(v) == kAwkward;
  if (v.IsArray()) {
    for (const auto& element : v.GetArray()) {
      if (holds_awkward(element)) return true;
    }
  }
  if (v.IsObject()) {
    for (const auto& member : v.GetObject()) {
      if (text_of(member.name) == kAwkward || holds_awkward(member.value)) return true;
    }
  }
  return false;
}

// `koordq at WHEN OBJECT -o json` prints what cmd/at_command.cpp's render_json returns: the
// visibility pages and the unit view (compact, RapidJSON's Writer) and the debug pages (indented).
TEST(JsonSurfaces, at_json_of_every_object) {
  SchedulerDriver d;
  d.input(queue("root"));
  d.input(quota("root", "", {{"cpu", "1"}}));
  auto u = unit("job", "root", "2");  // more than the quota holds: it waits
  u.metadata.namespace_ = u.metadata.name = kAwkward;
  d.input(u);
  d.tick(d.time + kSec);
  const uint64_t revision = d.seq;
  const api::PageParams page{0, 1000};

  const auto unit_json = api::render_unit(d.s, revision, kAwkward, kAwkward);
  ASSERT_TRUE(unit_json.has_value());
  expect_round_trip(*unit_json, {"metadata", "namespace"});
  expect_round_trip(*unit_json, {"metadata", "name"});
  for (const auto& page_json : {api::render_queue_units(d.s, revision, "root", {}, page),
                                api::render_quota_units(d.s, revision, "root", {}, page)}) {
    ASSERT_TRUE(page_json.has_value());
    expect_round_trip(*page_json, {"items", "#0", "metadata", "namespace"});
    expect_round_trip(*page_json, {"items", "#0", "metadata", "name"});
  }
  for (const std::string& debug : {api::render_debug_queues(d.s), api::render_debug_quotas(d.s)}) {
    const auto doc = parsed(debug);
    EXPECT_TRUE(holds_awkward(doc)) << debug;
  }
}

// `koordq explain NS/NAME -o json`: every string of the story, the quota path's included.
TEST(JsonSurfaces, explain_json_story) {
  replay::Story story;
  story.namespace_ = story.name = story.uid = kAwkward;
  story.other_uids = {kAwkward};
  replay::StoryEntry entry;
  entry.kind = entry.summary = kAwkward;
  entry.phase = kAwkward;
  entry.quota_path = std::vector<actors::QuotaCheckStep>{{kAwkward, kAwkward, 1, 2, 3, false}};
  story.entries.push_back(entry);
  const std::string json = replay::render_story_json(story);
  for (const char* field : {"namespace", "name", "uid"}) expect_round_trip(json, {field});
  expect_round_trip(json, {"otherUIDs", "#0"});
  for (const char* field : {"kind", "summary", "phase"}) expect_round_trip(json, {"entries", "#0", field});
  for (const char* field : {"quota", "resource"}) expect_round_trip(json, {"entries", "#0", "quotaPath", "#0", field});
}

TEST(JsonSurfaces, api_writer_compact_and_indented) {
  for (const bool indented : {false, true}) {
    api::JsonOut out(indented);
    out.begin_object().field("message", kAwkward).key(kAwkward).string(kAwkward).end_object();
    const std::string json = out.take();
    expect_round_trip(json, {"message"}, !indented);
    const auto doc = parsed(json);
    EXPECT_EQ(text_of(doc.MemberBegin()[1].name), kAwkward);
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
