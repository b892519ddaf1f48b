// The witness ConfigMap (cmd/witness_configmap.hpp) and what the leader writes into it
// (cmd/journal_witness_writer.hpp, behaviour.md §24.5): one entry per move of the head, never over
// entries the journal disagrees with.
#include "cmd/journal_witness_writer.hpp"

#include <future>

#include <gtest/gtest.h>

#include "cmd/witness_configmap.hpp"
#include "journal/journal.hpp"
#include "journal/witness.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/scripted_kube_client.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::cmd {
namespace KOORDQ_TEST_LOCAL {

constexpr char kUuid[] = "00000000-0000-4000-8000-0000000000c3";

TEST(WitnessConfigMap, reads_a_configmap_as_kubectl_prints_it) {
  auto cm = parse_witness_configmap(
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"w","namespace":"ops","resourceVersion":"42"},)"
      R"("data":{"a":"{\"x\":1}","b":""}})");
  ASSERT_TRUE(cm.ok()) << cm.message();
  EXPECT_EQ(cm->namespace_name, "ops");
  EXPECT_EQ(cm->name, "w");
  EXPECT_EQ(cm->resource_version, "42");
  EXPECT_EQ(cm->data.at("a"), "{\"x\":1}");
  EXPECT_EQ(cm->data.size(), 2u);
  auto empty = parse_witness_configmap(R"({"kind":"ConfigMap","metadata":{"name":"w"}})");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->data.empty());
  EXPECT_EQ(parse_witness_configmap(R"({"kind":"Secret"})").message(), "not a ConfigMap: kind is Secret");
  EXPECT_EQ(parse_witness_configmap("[").message(), "not a JSON object");
}

TEST(WitnessConfigMap, the_patch_replaces_one_key_under_a_resource_version_precondition) {
  EXPECT_EQ(witness_configmap_patch("42", kUuid, "{\"journal\":\"x\"}"),
            std::string(R"({"metadata":{"resourceVersion":"42"},"data":{")") + kUuid + R"(":"{\"journal\":\"x\"}"}})");
  EXPECT_EQ(witness_configmap_path("koord-queue", "koordq-journal-witness"),
            "/api/v1/namespaces/koord-queue/configmaps/koordq-journal-witness");
}

class WitnessWriterValue : public ::testing::Test {
 protected:
  void SetUp() override {
    journal::JournalOptions o;
    o.dir = dir_.path();
    o.new_uuid = kUuid;
    o.cluster = "cluster-a";
    journal_ = std::move(journal::Journal::open(o)).value();
    for (int i = 0; i < 4; ++i) append_tick();
    options_.journal_uuid = kUuid;
    options_.cluster = "cluster-a";
    options_.history = 2;
  }

  journal::ChainHead head() { return journal_->writer().durable_head(); }
  void append_tick() {
    std::promise<void> done;
    journal_->writer().append(testing::tick_body(), [&](const Result<journal::AppendedRecord>&) { done.set_value(); });
    done.get_future().wait();
  }
  WitnessUpdate next(const std::map<std::string, std::string>& data, const journal::ChainHead& h) {
    return next_witness_value(data, journal_->reader(), options_, h, "2026-12-06T14:00:00Z", "ConfigMap x/y");
  }

  testing::TempDir dir_;
  std::unique_ptr<journal::Journal> journal_;
  WitnessWriterOptions options_;
};

TEST_F(WitnessWriterValue, the_first_entry_of_a_journal_starts_its_witness) {
  const WitnessUpdate u = next({{"00000000-0000-4000-8000-0000000000ff", "{}"}}, head());
  ASSERT_EQ(u.kind, WitnessUpdate::Kind::kWrite);
  auto w = journal::parse_journal_witness(u.value);
  ASSERT_TRUE(w.ok()) << w.message();
  EXPECT_EQ(w->journal_uuid, kUuid);
  EXPECT_EQ(w->cluster, "cluster-a");
  ASSERT_EQ(w->entries.size(), 1u);
  EXPECT_EQ(w->entries[0].seq, 4u);
  EXPECT_EQ(w->entries[0].head, head().hash);
  EXPECT_FALSE(w->entries[0].signature) << "no key, no signature";
}

TEST_F(WitnessWriterValue, an_unmoved_head_writes_nothing_and_a_moved_one_appends_within_the_history) {
  const std::string first = next({}, head()).value;
  EXPECT_EQ(next({{kUuid, first}}, head()).kind, WitnessUpdate::Kind::kUnchanged);
  append_tick();
  const std::string second = next({{kUuid, first}}, head()).value;
  append_tick();
  const WitnessUpdate third = next({{kUuid, second}}, head());
  ASSERT_EQ(third.kind, WitnessUpdate::Kind::kWrite);
  auto w = journal::parse_journal_witness(third.value);
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->entries.size(), 2u) << "--journal-witness-history 2";
  EXPECT_EQ(w->entries[0].seq, 5u);
  EXPECT_EQ(w->entries[1].seq, 6u);
}

TEST_F(WitnessWriterValue, entries_the_journal_disagrees_with_are_left_as_evidence) {
  journal::JournalWitness ahead{kUuid, "cluster-a", {}};
  journal::add_witness_entry(ahead, journal::make_witness_entry(ahead, 9, journal::sha256("gone"), "t", nullptr), 60);
  const WitnessUpdate u = next({{kUuid, journal::render_journal_witness(ahead)}}, head());
  EXPECT_EQ(u.kind, WitnessUpdate::Kind::kDisagrees);
  EXPECT_NE(u.reason.find("the journal ends at seq 4, but ConfigMap x/y witnessed seq 9"), std::string::npos)
      << u.reason;
}

// The writer against a scripted API server: what it sends for one attempt.
class WitnessWriterRequests : public WitnessWriterValue {
 protected:
  void SetUp() override {
    WitnessWriterValue::SetUp();
    options_.namespace_name = "koord-queue";
    options_.name = "koordq-journal-witness";
    options_.fence = &fence_;
    options_.head = [this] { return head(); };
    options_.reader = &journal_->reader();
    options_.now = [] { return int64_t{1796565600} * 1'000'000'000; };
    kube::HttpOptions http;
    http.retry.max_attempts = 1;
    client_ = testing::scripted_client(server_, http);
    fence_.open_indefinitely();
  }

  // Answers GET with the ConfigMap at resourceVersion "5", PATCH with `patch_codes` in turn (then 200).
  void serve(std::optional<int> get_code, std::vector<int> patch_codes) {
    server_.respond_with([get_code, patch_codes, patches = size_t{0}](const testing::ReceivedRequest& r) mutable {
      if (r.method == "GET") {
        if (get_code) return testing::ScriptedReply{{testing::http_reply(*get_code, "{}")}};
        return testing::ScriptedReply{{testing::http_reply(
            200, R"({"kind":"ConfigMap","metadata":{"name":"koordq-journal-witness","resourceVersion":"5"}})")}};
      }
      const int code = patches < patch_codes.size() ? patch_codes[patches] : 200;
      ++patches;
      return testing::ScriptedReply{{testing::http_reply(code, "{}")}};
    });
  }

  std::vector<std::string> methods() {
    std::vector<std::string> out;
    for (const auto& r : server_.received()) out.push_back(r.method);
    return out;
  }

  kube::WriteFence fence_;
  testing::ScriptedHttpServer server_;
  std::unique_ptr<kube::HttpClient> client_;
};

TEST_F(WitnessWriterRequests, the_leader_merge_patches_its_own_key_under_the_resource_version_it_read) {
  serve(std::nullopt, {});
  JournalWitnessWriter writer(*client_, options_);
  EXPECT_EQ(writer.write_once(), JournalWitnessWriter::Outcome::kWritten);
  ASSERT_EQ(methods(), (std::vector<std::string>{"GET", "PATCH"}));
  auto patch = server_.received()[1];
  EXPECT_EQ(patch.target, "/api/v1/namespaces/koord-queue/configmaps/koordq-journal-witness");
  EXPECT_EQ(patch.headers["Content-Type"], "application/merge-patch+json");
  EXPECT_TRUE(patch.body.starts_with(std::string(R"({"metadata":{"resourceVersion":"5"},"data":{")") + kUuid + "\":"))
      << patch.body;
  EXPECT_NE(patch.body.find("2026-12-06T14:00:00Z"), std::string::npos) << patch.body;
}

TEST_F(WitnessWriterRequests, a_conflict_reads_the_configmap_again_and_writes_again) {
  serve(std::nullopt, {409});
  JournalWitnessWriter writer(*client_, options_);
  EXPECT_EQ(writer.write_once(), JournalWitnessWriter::Outcome::kWritten);
  EXPECT_EQ(methods(), (std::vector<std::string>{"GET", "PATCH", "GET", "PATCH"}));
}

TEST_F(WitnessWriterRequests, nothing_leaves_once_the_fence_is_closed) {
  serve(std::nullopt, {});
  fence_.close();
  JournalWitnessWriter writer(*client_, options_);
  EXPECT_EQ(writer.write_once(), JournalWitnessWriter::Outcome::kNotLeading);
  EXPECT_TRUE(server_.received().empty());
}

TEST_F(WitnessWriterRequests, a_missing_configmap_is_reported_and_never_created) {
  serve(404, {});
  JournalWitnessWriter writer(*client_, options_);
  EXPECT_EQ(writer.write_once(), JournalWitnessWriter::Outcome::kProblem);
  EXPECT_EQ(methods(), (std::vector<std::string>{"GET"}));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::cmd
