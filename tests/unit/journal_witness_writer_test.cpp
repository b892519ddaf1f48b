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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::cmd
