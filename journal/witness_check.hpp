// `koordq journal verify --witness` (behaviour.md §24.5): a journal against its external witness
// (witness.hpp). Every entry the witness holds for the journal must name a seq the journal still
// has, with the hash the journal has there (or a seq older than the retained range, which retention
// removed and the retention cut anchors), and, with a public key, carry that key's signature.
// Read the witness before opening the journal: a live journal is then never behind it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

struct WitnessReport {
  std::string journal_uuid;
  std::string where;                        // "ConfigMap koord-queue/koordq-journal-witness"
  std::optional<std::string> disagreement;  // what and where, one line
  uint64_t agreed_seq = 0;                  // the newest witnessed seq the journal agrees with
  std::string agreed_time;
  size_t checked = 0;           // entries compared with the journal
  size_t before_retention = 0;  // entries older than the retained range
  std::string signatures_by;    // the key that signed every entry; empty without a key
};

// `data`: the witness ConfigMap's data, journal UUID → JournalWitness JSON.
WitnessReport check_witness(JournalReader& reader, const std::map<std::string, std::string>& data,
                            const std::string& where, const VerifyingKey* key);

// `witness: journal <uuid> agrees with <where> up to seq <s> …`, or `witness: …` naming the disagreement.
std::string render_witness_report(const WitnessReport& report);

}  // namespace koordq::journal
