// The journal's external witness (journal/witness.hpp, witness_check.hpp; behaviour.md §24.5):
// what an entry holds and signs, how many are kept, and every way a journal disagrees with it.
#include <future>
#include <map>

#include <gtest/gtest.h>

#include "journal/journal.hpp"
#include "journal/signed_statements.hpp"
#include "journal/witness.hpp"
#include "journal/witness_check.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

constexpr char kUuid[] = "00000000-0000-4000-8000-0000000000a1";
constexpr char kWhere[] = "ConfigMap koord-queue/koordq-journal-witness";

class JournalWitnessCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    JournalOptions o;
    o.dir = dir_.path();
    o.new_uuid = kUuid;
    o.cluster = "cluster-a";
    journal_ = std::move(Journal::open(o)).value();
    for (int i = 0; i < 8; ++i) {
      std::promise<void> done;
      journal_->writer().append(testing::tick_body(), [&](const Result<AppendedRecord>& r) {
        EXPECT_TRUE(r.ok());
        done.set_value();
      });
      done.get_future().wait();
    }
    key_ = key_pair("owner");
  }

  std::shared_ptr<const SigningKey> key_pair(const std::string& name) {
    const auto private_pem = dir_ / (name + ".pem");
    EXPECT_TRUE(generate_signing_key_pair(private_pem, dir_ / (name + ".pub.pem")).ok());
    return std::make_shared<const SigningKey>(std::move(SigningKey::load(private_pem)).value());
  }

  Hash hash_at(uint64_t seq) { return (*journal_->reader().get(seq))->hash(); }

  // The witness of this journal with entries at `seqs` (their hashes in the journal), signed by `key`.
  JournalWitness witness_at(const std::vector<uint64_t>& seqs, const SigningKey* key) {
    JournalWitness w{kUuid, "cluster-a", {}};
    for (uint64_t seq : seqs) {
      add_witness_entry(
          w, make_witness_entry(w, seq, hash_at(seq), "2026-12-06T14:0" + std::to_string(seq) + ":00Z", key), 60);
    }
    return w;
  }

  WitnessReport check(const JournalWitness& w, const VerifyingKey* key = nullptr) {
    return check_witness(journal_->reader(), {{w.journal_uuid, render_journal_witness(w)}}, kWhere, key);
  }

  testing::TempDir dir_;
  std::unique_ptr<Journal> journal_;
  std::shared_ptr<const SigningKey> key_;
};

TEST_F(JournalWitnessCheck, a_witness_renders_and_parses_back_to_itself) {
  const JournalWitness w = witness_at({3, 6}, key_.get());
  auto parsed = parse_journal_witness(render_journal_witness(w));
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(render_journal_witness(*parsed), render_journal_witness(w));
  ASSERT_EQ(parsed->entries.size(), 2u);
  EXPECT_EQ(parsed->entries[1].seq, 6u);
  EXPECT_TRUE(verifies_witness_entry(*parsed, parsed->entries[1], key_->verifying_key()));
}

TEST_F(JournalWitnessCheck, a_signature_covers_the_journal_the_cluster_the_seq_the_head_and_the_time) {
  const JournalWitness w = witness_at({6}, key_.get());
  const WitnessEntry& e = w.entries[0];
  EXPECT_TRUE(key_->verifying_key().verifies(witness_statement(kUuid, "cluster-a", 6, e.head, e.time), *e.signature));
  for (JournalWitness other : {JournalWitness{"00000000-0000-4000-8000-0000000000b2", "cluster-a", w.entries},
                               JournalWitness{kUuid, "cluster-b", w.entries}}) {
    EXPECT_FALSE(verifies_witness_entry(other, e, key_->verifying_key()));
  }
  WitnessEntry later = e;
  later.time = "2026-12-06T15:00:00Z";
  EXPECT_FALSE(verifies_witness_entry(w, later, key_->verifying_key()));
  later = e;
  later.seq = 7;
  EXPECT_FALSE(verifies_witness_entry(w, later, key_->verifying_key()));
}

TEST_F(JournalWitnessCheck, only_the_newest_entries_are_kept) {
  JournalWitness w{kUuid, "cluster-a", {}};
  for (uint64_t seq = 1; seq <= 5; ++seq)
    add_witness_entry(w, make_witness_entry(w, seq, hash_at(seq), "t", nullptr), 3);
  ASSERT_EQ(w.entries.size(), 3u);
  EXPECT_EQ(w.entries.front().seq, 3u);
  EXPECT_EQ(w.entries.back().seq, 5u);
}

TEST_F(JournalWitnessCheck, an_intact_journal_agrees_up_to_the_newest_witnessed_seq) {
  const WitnessReport r = check(witness_at({2, 5, 8}, key_.get()), &key_->verifying_key());
  ASSERT_FALSE(r.disagreement) << *r.disagreement;
  EXPECT_EQ(r.agreed_seq, 8u);
  EXPECT_EQ(r.checked, 3u);
  EXPECT_EQ(render_witness_report(r), std::string("witness: journal ") + kUuid + " agrees with " + kWhere +
                                          " up to seq 8 (witnessed 2026-12-06T14:08:00Z; 3 entries checked); every "
                                          "entry signed by key " +
                                          key_->key_id());
}

TEST_F(JournalWitnessCheck, a_journal_cut_below_the_witnessed_seq_disagrees) {
  JournalWitness w = witness_at({5}, nullptr);
  add_witness_entry(w, make_witness_entry(w, 11, sha256("later"), "2026-12-06T14:11:00Z", nullptr), 60);
  const WitnessReport r = check(w);
  ASSERT_TRUE(r.disagreement);
  EXPECT_EQ(*r.disagreement, std::string("the journal ends at seq 8, but ") + kWhere + " witnessed seq 11 with head " +
                                 to_hex(sha256("later")) +
                                 " at 2026-12-06T14:11:00Z: the records after seq 8 were cut");
}

TEST_F(JournalWitnessCheck, another_hash_at_a_witnessed_seq_disagrees) {
  JournalWitness w = witness_at({3}, nullptr);
  add_witness_entry(w, make_witness_entry(w, 6, sha256("forked"), "2026-12-06T14:06:00Z", nullptr), 60);
  const WitnessReport r = check(w);
  ASSERT_TRUE(r.disagreement);
  EXPECT_EQ(*r.disagreement, "seq 6 has hash " + to_hex(hash_at(6)) + ", but " + kWhere +
                                 " witnessed seq 6 with head " + to_hex(sha256("forked")) +
                                 " at 2026-12-06T14:06:00Z: the journal was rewritten at or before seq 6");
}

TEST_F(JournalWitnessCheck, a_journal_the_witness_does_not_hold_disagrees) {
  JournalWitness other = witness_at({4}, nullptr);
  other.journal_uuid = "00000000-0000-4000-8000-0000000000b2";
  const WitnessReport r =
      check_witness(journal_->reader(), {{other.journal_uuid, render_journal_witness(other)}}, kWhere, nullptr);
  ASSERT_TRUE(r.disagreement);
  EXPECT_EQ(*r.disagreement, std::string(kWhere) + " holds no entry for journal " + kUuid +
                                 " (it holds journal 00000000-0000-4000-8000-0000000000b2): this journal never led "
                                 "while the witness was kept, or it replaced the journal that did");
  EXPECT_TRUE(check_witness(journal_->reader(), {}, kWhere, nullptr).disagreement);
}

TEST_F(JournalWitnessCheck, an_entry_moved_to_another_journal_key_disagrees) {
  JournalWitness other = witness_at({4}, nullptr);
  other.journal_uuid = "00000000-0000-4000-8000-0000000000b2";
  const WitnessReport r = check_witness(journal_->reader(), {{kUuid, render_journal_witness(other)}}, kWhere, nullptr);
  ASSERT_TRUE(r.disagreement);
  EXPECT_NE(r.disagreement->find("names journal 00000000-0000-4000-8000-0000000000b2: the witness was edited"),
            std::string::npos)
      << *r.disagreement;
}

TEST_F(JournalWitnessCheck, a_witness_of_another_cluster_disagrees) {
  JournalWitness w = witness_at({4}, nullptr);
  w.cluster = "cluster-b";
  const WitnessReport r = check(w);
  ASSERT_TRUE(r.disagreement);
  EXPECT_NE(r.disagreement->find("records the cluster whose kube-system Namespace has uid cluster-a, but " +
                                 std::string(kWhere) + " witnessed it in the cluster with uid cluster-b"),
            std::string::npos)
      << *r.disagreement;
}

TEST_F(JournalWitnessCheck, with_a_public_key_every_entry_must_carry_its_signature) {
  const auto attacker = key_pair("attacker");
  const WitnessReport forged = check(witness_at({3, 7}, attacker.get()), &key_->verifying_key());
  ASSERT_TRUE(forged.disagreement);
  EXPECT_EQ(*forged.disagreement, "the entry of seq 7 (2026-12-06T14:07:00Z) in " + std::string(kWhere) +
                                      " is not signed by key " + key_->key_id() + " (its signature names key " +
                                      attacker->key_id() + "): the witness was forged");
  const WitnessReport unsigned_entry = check(witness_at({3}, nullptr), &key_->verifying_key());
  ASSERT_TRUE(unsigned_entry.disagreement);
  EXPECT_NE(unsigned_entry.disagreement->find("is not signed, but --public-key was given"), std::string::npos);
  EXPECT_FALSE(check(witness_at({3}, nullptr)).disagreement) << "without a key, signatures are not checked";
}

TEST_F(JournalWitnessCheck, an_unreadable_entry_is_named) {
  const WitnessReport r = check_witness(journal_->reader(), {{kUuid, "{\"journal\":1}"}}, kWhere, nullptr);
  ASSERT_TRUE(r.disagreement);
  EXPECT_NE(r.disagreement->find("the entry of journal " + std::string(kUuid) + " is unreadable"), std::string::npos)
      << *r.disagreement;
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
