// The journal's external witness (behaviour.md §24.5, design.md §5): the leader writes the head of
// its journal (seq, head hash, time, signed when serve has a signing key) into a ConfigMap every
// --journal-witness-period, so a history that was cut on disk and re-signed with the key itself
// still disagrees with what etcd holds. The ConfigMap has one data key per journal (its UUID); the
// value holds the journal's last --journal-witness-history entries, oldest first:
//
//   {"journal":"<uuid>","cluster":"<kube-system uid>","entries":[
//    {"seq":812,"head":"<hex>","time":"2026-12-06T14:03:00Z","signature":"<key id> <base64>"},…]}
//
// An entry's signature covers witness_statement: "koordq witness\n<uuid>\n<cluster>\n<seq> <head
// hex>\n<time>", so it cannot stand for another journal, cluster, seq or time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

struct WitnessEntry {
  uint64_t seq = 0;
  Hash head{};
  std::string time;  // RFC 3339, seconds
  std::optional<Signature> signature;
};

// One journal's witness: the value of its data key.
struct JournalWitness {
  std::string journal_uuid;
  std::string cluster;                // the kube-system Namespace uid the journal records
  std::vector<WitnessEntry> entries;  // oldest first
};

std::string witness_statement(std::string_view uuid, std::string_view cluster, uint64_t seq, const Hash& head,
                              std::string_view time);
WitnessEntry make_witness_entry(const JournalWitness& of, uint64_t seq, const Hash& head, std::string time,
                                const SigningKey* key);
bool verifies_witness_entry(const JournalWitness& of, const WitnessEntry& entry, const VerifyingKey& key);

// Appends `entry` and keeps the newest `keep` entries (at least one).
void add_witness_entry(JournalWitness& witness, WitnessEntry entry, size_t keep);

std::string render_journal_witness(const JournalWitness& witness);
// The value of a data key; errors name what is wrong with it.
Result<JournalWitness> parse_journal_witness(std::string_view json);

}  // namespace koordq::journal
