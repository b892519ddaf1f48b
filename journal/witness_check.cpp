#include "journal/witness_check.hpp"

#include "journal/cluster_identity.hpp"
#include "journal/retention_cut.hpp"
#include "journal/witness.hpp"

namespace koordq::journal {
namespace {

std::string held_journals(const std::map<std::string, std::string>& data) {
  if (data.empty()) return "it holds no journal";
  std::string out = "it holds journal";
  out += data.size() == 1 ? " " : "s ";
  bool first = true;
  for (const auto& [key, value] : data) {
    if (!first) out += ", ";
    out += key;
    first = false;
  }
  return out;
}

// The entry's disagreement with the journal, if any; `compared` says whether it was compared.
std::optional<std::string> entry_disagreement(JournalReader& reader, const WitnessReport& r, const WitnessEntry& e,
                                              const ChainHead& retained_start, bool& compared) {
  compared = false;
  const uint64_t last = reader.last_seq();
  const std::string seen =
      r.where + " witnessed seq " + std::to_string(e.seq) + " with head " + to_hex(e.head) + " at " + e.time;
  if (e.seq > last) {
    return "the journal ends at seq " + std::to_string(last) + ", but " + seen + ": the records after seq " +
           std::to_string(last) + " were cut";
  }
  Hash at{};
  if (e.seq == retained_start.seq) {
    at = retained_start.hash;
  } else if (e.seq > retained_start.seq) {
    auto record = reader.get(e.seq);
    if (!record.ok()) return "seq " + std::to_string(e.seq) + " cannot be read: " + record.message();
    if (!record->has_value()) {
      return "seq " + std::to_string(e.seq) + " is missing from the journal, but " + seen;
    }
    at = (*record)->hash();
  } else {
    return std::nullopt;  // older than the retained range: retention removed it
  }
  compared = true;
  if (at == e.head) return std::nullopt;
  return "seq " + std::to_string(e.seq) + " has hash " + to_hex(at) + ", but " + seen +
         ": the journal was rewritten at or before seq " + std::to_string(e.seq);
}

}  // namespace

WitnessReport check_witness(JournalReader& reader, const std::map<std::string, std::string>& data,
                            const std::string& where, const VerifyingKey* key) {
  WitnessReport r;
  r.where = where;
  auto fail = [&](std::string what) {
    r.disagreement = std::move(what);
    return r;
  };
  auto uuid = reader.uuid();
  if (!uuid.ok()) return fail("the journal has no UUID: " + uuid.message());
  r.journal_uuid = *uuid;
  const auto found = data.find(*uuid);
  if (found == data.end()) {
    return fail(where + " holds no entry for journal " + *uuid + " (" + held_journals(data) +
                "): this journal never led while the witness was kept, or it replaced the journal that did");
  }
  auto witness = parse_journal_witness(found->second);
  if (!witness.ok()) return fail(where + ": the entry of journal " + *uuid + " is unreadable: " + witness.message());
  if (witness->journal_uuid != *uuid) {
    return fail(where + ": the entry under key " + *uuid + " names journal " + witness->journal_uuid +
                ": the witness was edited");
  }
  if (witness->entries.empty()) return fail(where + " holds no entries for journal " + *uuid);
  auto cluster = reader.meta(kMetaCluster);
  if (cluster.ok() && cluster->has_value() && **cluster != witness->cluster) {
    return fail("journal " + *uuid + " records the cluster whose kube-system Namespace has uid " + **cluster +
                ", but " + where + " witnessed it in the cluster with uid " + witness->cluster);
  }
  const RetainedStart retained = retained_chain_start(reader, *uuid, nullptr);
  if (retained.broken) return fail("seq " + std::to_string(retained.broken->seq) + ": " + retained.broken->reason);
  for (auto it = witness->entries.rbegin(); it != witness->entries.rend(); ++it) {
    const WitnessEntry& e = *it;
    if (key != nullptr && !verifies_witness_entry(*witness, e, *key)) {
      const std::string entry = "the entry of seq " + std::to_string(e.seq) + " (" + e.time + ") in " + where;
      if (!e.signature) return fail(entry + " is not signed, but --public-key was given: the witness was forged");
      return fail(entry + " is not signed by key " + key->key_id() + " (its signature names key " +
                  e.signature->key_id + "): the witness was forged");
    }
    bool compared = false;
    if (auto disagreement = entry_disagreement(reader, r, e, retained.start, compared)) return fail(*disagreement);
    if (!compared) {
      ++r.before_retention;
      continue;
    }
    ++r.checked;
    if (r.agreed_time.empty() || e.seq > r.agreed_seq) {
      r.agreed_seq = e.seq;
      r.agreed_time = e.time;
    }
  }
  if (key != nullptr) r.signatures_by = key->key_id();
  return r;
}

std::string render_witness_report(const WitnessReport& r) {
  if (r.disagreement) return "witness: " + *r.disagreement;
  std::string out = "witness: journal " + r.journal_uuid + " agrees with " + r.where;
  if (r.checked == 0) {
    out += ": every entry (" + std::to_string(r.before_retention) + ") is older than the retained range";
  } else {
    out += " up to seq " + std::to_string(r.agreed_seq) + " (witnessed " + r.agreed_time + "; " +
           std::to_string(r.checked) + (r.checked == 1 ? " entry" : " entries") + " checked";
    if (r.before_retention > 0) out += ", " + std::to_string(r.before_retention) + " older than the retained range";
    out += ")";
  }
  out += r.signatures_by.empty() ? "; signatures not checked (no --public-key)"
                                 : "; every entry signed by key " + r.signatures_by;
  return out;
}

}  // namespace koordq::journal
