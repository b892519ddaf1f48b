#include "journal/witness.hpp"

#include <cstdio>

#include <simdjson.h>

#include "journal/signed_statements.hpp"

namespace koordq::journal {
namespace {

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out.append(buf);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

}  // namespace

std::string witness_statement(std::string_view uuid, std::string_view cluster, uint64_t seq, const Hash& head,
                              std::string_view time) {
  std::string out = "koordq witness\n";
  out.append(uuid).append("\n").append(cluster).append("\n");
  out.append(std::to_string(seq)).append(" ").append(to_hex(head)).append("\n").append(time);
  return out;
}

WitnessEntry make_witness_entry(const JournalWitness& of, uint64_t seq, const Hash& head, std::string time,
                                const SigningKey* key) {
  WitnessEntry entry{seq, head, std::move(time), std::nullopt};
  if (key != nullptr)
    entry.signature = key->sign(witness_statement(of.journal_uuid, of.cluster, seq, head, entry.time));
  return entry;
}

bool verifies_witness_entry(const JournalWitness& of, const WitnessEntry& entry, const VerifyingKey& key) {
  return entry.signature &&
         key.verifies(witness_statement(of.journal_uuid, of.cluster, entry.seq, entry.head, entry.time),
                      *entry.signature);
}

void add_witness_entry(JournalWitness& witness, WitnessEntry entry, size_t keep) {
  witness.entries.push_back(std::move(entry));
  keep = std::max<size_t>(keep, 1);
  if (witness.entries.size() > keep) {
    witness.entries.erase(witness.entries.begin(), witness.entries.end() - static_cast<std::ptrdiff_t>(keep));
  }
}

std::string render_journal_witness(const JournalWitness& w) {
  std::string out = "{\"journal\":";
  append_json_string(out, w.journal_uuid);
  out.append(",\"cluster\":");
  append_json_string(out, w.cluster);
  out.append(",\"entries\":[");
  for (size_t i = 0; i < w.entries.size(); ++i) {
    const WitnessEntry& e = w.entries[i];
    if (i > 0) out.push_back(',');
    out.append("{\"seq\":").append(std::to_string(e.seq));
    out.append(",\"head\":\"").append(to_hex(e.head)).append("\",\"time\":");
    append_json_string(out, e.time);
    if (e.signature) {
      out.append(",\"signature\":");
      append_json_string(out, render_signature(*e.signature));
    }
    out.push_back('}');
  }
  out.append("]}");
  return out;
}

Result<JournalWitness> parse_journal_witness(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element doc;
  if (auto err = parser.parse(padded).get(doc); err) {
    return make_error(std::string("not a JSON object: ") + simdjson::error_message(err));
  }
  JournalWitness w;
  std::string_view uuid, cluster;
  simdjson::dom::array entries;
  if (doc["journal"].get(uuid) != simdjson::SUCCESS || doc["cluster"].get(cluster) != simdjson::SUCCESS ||
      doc["entries"].get(entries) != simdjson::SUCCESS) {
    return make_error("lacks one of journal, cluster, entries");
  }
  w.journal_uuid = std::string(uuid);
  w.cluster = std::string(cluster);
  size_t index = 0;
  for (simdjson::dom::element e : entries) {
    WitnessEntry entry;
    std::string_view head, time, signature;
    const std::string where = "entries[" + std::to_string(index++) + "]";
    if (e["seq"].get(entry.seq) != simdjson::SUCCESS || e["head"].get(head) != simdjson::SUCCESS ||
        e["time"].get(time) != simdjson::SUCCESS) {
      return make_error(where + " lacks one of seq, head, time");
    }
    if (!from_hex(head, entry.head)) return make_error(where + ": head is not 64 lowercase hex digits");
    entry.time = std::string(time);
    if (e["signature"].get(signature) == simdjson::SUCCESS) {
      entry.signature = parse_signature(signature);
      if (!entry.signature) return make_error(where + ": signature is not \"<key id> <base64>\"");
    }
    w.entries.push_back(std::move(entry));
  }
  return w;
}

}  // namespace koordq::journal
