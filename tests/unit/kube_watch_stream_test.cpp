// The WATCH body (design.md §7): newline-delimited events split anywhere across pieces, events as
// large as the API server stores (1.5 MB), garbage, a stream cut mid-event, and the ERROR 410 that
// calls for a relist.
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/client/watch_stream.hpp"
#include "schema/json_encode.hpp"
#include "tests/support/json_fixtures.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using schema::WatchEventType;
using ::testing::HasSubstr;

schema::QueueUnit unit(const std::string& name, const std::string& rv) {
  schema::QueueUnit u;
  u.metadata.name = name;
  u.metadata.namespace_ = "team-a";
  u.metadata.uid = "uid-" + name;
  u.metadata.resource_version = rv;
  return u;
}

// One line per event, as the API server writes them.
std::string stream_of(const std::vector<std::string>& events) {
  std::string out;
  for (const std::string& e : events) out += e + "\n";
  return out;
}

std::string sample_stream() {
  return stream_of({schema::encode_watch_event(WatchEventType::kAdded, unit("a", "10")),
                    testing::read_fixture("queue_unit_watch_event.json"), testing::read_fixture("bookmark.json"),
                    schema::encode_watch_event(WatchEventType::kDeleted, unit("a", "11")),
                    testing::read_fixture("watch_error_410.json")});
}

struct Collected {
  std::vector<std::string> events;  // "TYPE name rv" or "ERROR code"
  std::vector<std::string> undecodable;
};

std::string describe(const schema::WatchEvent& event) {
  std::string out = schema::watch_event_type_name(event.type);
  if (event.status) return out + " " + std::to_string(event.status->code);
  const schema::ObjectMeta& meta = schema::meta_of(*event.object);
  return out + " " + meta.name + " " + meta.resource_version;
}

// Feeds `bytes` cut at `cuts` (ascending offsets) through one reader.
Collected read_in_pieces(const std::string& bytes, const std::vector<size_t>& cuts, Status* end = nullptr) {
  Collected got;
  WatchEventReader reader(schema::ObjectKind::kQueueUnit, schema::RawObjectMode::kFull);
  WatchEventReader::Handlers handlers;
  handlers.on_event = [&](schema::WatchEvent&& e) {
    got.events.push_back(describe(e));
    return ok_status();
  };
  handlers.on_undecodable = [&](const Error& e) { got.undecodable.push_back(e.message); };
  size_t from = 0;
  for (size_t cut : cuts) {
    EXPECT_TRUE(reader.feed(std::string_view(bytes).substr(from, cut - from), handlers).ok());
    from = cut;
  }
  EXPECT_TRUE(reader.feed(std::string_view(bytes).substr(from), handlers).ok());
  if (end != nullptr) *end = reader.finish();
  return got;
}

const std::vector<std::string> kSampleEvents = {"ADDED a 10", "MODIFIED resnet50-train 48213", "BOOKMARK  48390",
                                                "DELETED a 11", "ERROR 410"};

TEST(WatchStream, events_arrive_in_order_whole) {
  Status end = ok_status();
  Collected got = read_in_pieces(sample_stream(), {}, &end);
  std::vector<std::string> expected = kSampleEvents;
  expected[2] = "BOOKMARK  48390";  // a bookmark's object has no name
  EXPECT_EQ(got.events, expected);
  EXPECT_TRUE(got.undecodable.empty());
  EXPECT_TRUE(end.ok());
}

TEST(WatchStream, an_event_split_at_any_byte_decodes_the_same) {
  const std::string bytes = sample_stream();
  const Collected whole = read_in_pieces(bytes, {});
  for (size_t cut = 1; cut < bytes.size(); cut += 7) {
    ASSERT_EQ(read_in_pieces(bytes, {cut}).events, whole.events) << "cut at " << cut;
  }
}

TEST(WatchStream, one_byte_pieces_and_random_pieces) {
  const std::string bytes = sample_stream();
  const Collected whole = read_in_pieces(bytes, {});
  std::vector<size_t> every_byte;
  for (size_t i = 1; i < bytes.size(); ++i) every_byte.push_back(i);
  EXPECT_EQ(read_in_pieces(bytes, every_byte).events, whole.events);
  std::mt19937 random(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<size_t> cuts;
    for (size_t at = 0;;) {
      at += 1 + random() % 3000;
      if (at >= bytes.size()) break;
      cuts.push_back(at);
    }
    EXPECT_EQ(read_in_pieces(bytes, cuts).events, whole.events) << "round " << round;
  }
}

TEST(WatchStream, a_one_and_a_half_megabyte_object) {
  // The bulk of a large object is fields koordq does not read (managedFields, pod templates).
  std::string big = schema::encode_watch_event(WatchEventType::kModified, unit("big", "99"));
  const size_t metadata = big.find("\"metadata\":{");
  ASSERT_NE(metadata, std::string::npos);
  big.insert(metadata + 12, "\"managedFields\":[{\"manager\":\"" + std::string(1'500'000, 'x') + "\"}],");
  const std::string bytes = stream_of({big, schema::encode_watch_event(WatchEventType::kAdded, unit("after", "100"))});
  std::vector<size_t> cuts;
  for (size_t at = 16 * 1024; at < bytes.size(); at += 16 * 1024) cuts.push_back(at);  // TLS-record-sized pieces
  Status end = ok_status();
  Collected got = read_in_pieces(bytes, cuts, &end);
  EXPECT_EQ(got.events, (std::vector<std::string>{"MODIFIED big 99", "ADDED after 100"}));
  EXPECT_TRUE(end.ok());
}

TEST(WatchStream, a_stream_cut_mid_event_says_so) {
  const std::string bytes = sample_stream();
  const size_t second_event = bytes.find('\n') + 1;
  Status end = ok_status();
  Collected got = read_in_pieces(bytes.substr(0, second_event + 100), {second_event / 2}, &end);
  EXPECT_EQ(got.events, (std::vector<std::string>{"ADDED a 10"}));
  ASSERT_FALSE(end.ok());
  EXPECT_THAT(end.message(), HasSubstr("watch stream ended mid-event (100 bytes"));
  // Ending exactly at an event boundary is clean.
  read_in_pieces(bytes.substr(0, second_event), {}, &end);
  EXPECT_TRUE(end.ok());
}

TEST(WatchStream, garbage_events_are_reported_and_the_stream_goes_on) {
  const std::string bytes =
      stream_of({"not json at all", R"({"type":"ADDED"})", R"({"type":"EXPLODED","object":{}})",
                 schema::encode_watch_event(WatchEventType::kAdded, unit("ok", "5")), "\x01\xff\xfe{{{"}) +
      "\r\n\n   \n";
  Status end = ok_status();
  Collected got = read_in_pieces(bytes, {3, 20, 21}, &end);
  EXPECT_EQ(got.events, (std::vector<std::string>{"ADDED ok 5"}));
  ASSERT_EQ(got.undecodable.size(), 4u);
  EXPECT_THAT(got.undecodable[0], HasSubstr("watch event #1: "));
  EXPECT_THAT(got.undecodable[1], HasSubstr("watch event #2: watch event object: required, missing"));
  EXPECT_THAT(got.undecodable[2], HasSubstr("watch event #3: watch event type: expected ADDED"));
  EXPECT_THAT(got.undecodable[3], HasSubstr("watch event #5: "));
  EXPECT_TRUE(end.ok()) << "blank lines are not an incomplete event";
}

TEST(WatchStream, an_event_longer_than_the_limit_stops_the_stream) {
  WatchStreamParser parser(1000);
  auto count = [](std::string_view) { return ok_status(); };
  EXPECT_TRUE(parser.feed(std::string(600, 'x'), count).ok());
  Status too_long = parser.feed(std::string(600, 'x'), count);
  ASSERT_FALSE(too_long.ok());
  EXPECT_THAT(too_long.message(), HasSubstr("longer than 1000 bytes"));
  WatchStreamParser whole(1000);
  EXPECT_FALSE(whole.feed(std::string(1001, 'y') + "\n", count).ok());
}

TEST(WatchStream, an_error_from_the_handler_stops_at_that_event) {
  WatchStreamParser parser(1000);
  std::vector<std::string> lines;
  Status stopped = parser.feed("one\ntwo\nthree\n", [&](std::string_view line) -> Status {
    lines.emplace_back(line);
    if (line == "two") return make_error("enough");
    return ok_status();
  });
  EXPECT_EQ(stopped.message(), "enough");
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two"}));
}

TEST(WatchStream, only_an_error_event_with_code_410_means_expired) {
  schema::JsonDecoder decoder;
  Result<schema::WatchEvent> gone =
      decoder.decode_watch_event(testing::read_fixture("watch_error_410.json"), schema::RawObjectMode::kOff);
  ASSERT_TRUE(gone.ok()) << gone.message();
  EXPECT_TRUE(is_expired(*gone));
  Result<schema::WatchEvent> other = decoder.decode_watch_event(
      schema::encode_error_event({500, "InternalError", "etcd is sad"}), schema::RawObjectMode::kOff);
  ASSERT_TRUE(other.ok()) << other.message();
  EXPECT_FALSE(is_expired(*other));
  Result<schema::WatchEvent> bookmark =
      decoder.decode_watch_event(testing::read_fixture("bookmark.json"), schema::RawObjectMode::kOff);
  ASSERT_TRUE(bookmark.ok());
  EXPECT_FALSE(is_expired(*bookmark));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
