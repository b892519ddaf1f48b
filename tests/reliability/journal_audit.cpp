#include "tests/reliability/journal_audit.hpp"

#include <rocksdb/iterator.h>

#include "journal/journal.hpp"
#include "journal/keys.hpp"
#include "journal/verify.hpp"

namespace koordq::reliability {
namespace KOORDQ_TEST_LOCAL {

using journal::ChainHead;

// Every record in the log against the acknowledged ones; returns the records' times by seq.
std::vector<int64_t> check_acknowledged(journal::JournalReader& reader, const AckedRecords& acked,
                                        JournalAudit& audit) {
  std::vector<int64_t> times;
  auto expected = acked.begin();
  auto cursor = reader.cursor(1);
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) {
      audit.failures.push_back("reading the log: " + next.message());
      break;
    }
    if (!next->has_value()) break;
    const journal::StoredRecord& r = **next;
    times.push_back(r.time());
    if (expected != acked.end() && expected->first == r.seq()) {
      if (journal::to_hex(r.hash()) != expected->second) {
        audit.failures.push_back("seq " + std::to_string(r.seq()) + " was acknowledged with hash " + expected->second +
                                 " but the log holds " + journal::to_hex(r.hash()));
      }
      ++expected;
    }
  }
  if (expected != acked.end()) {
    audit.failures.push_back("acknowledged seq " + std::to_string(expected->first) +
                             " is missing; the log ends at seq " + std::to_string(times.size()));
  }
  return times;
}

void check_time_index(journal::RocksStore& store, const std::vector<int64_t>& times, JournalAudit& audit) {
  std::vector<bool> indexed(times.size(), false);
  size_t entries = 0;
  std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.time()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ++entries;
    const auto key = journal::decode_time_key(std::string_view(it->key().data(), it->key().size()));
    if (!key || key->seq == 0 || key->seq > times.size() || times[key->seq - 1] != key->unix_nanos ||
        indexed[key->seq - 1]) {
      audit.failures.push_back(
          "time index entry " +
          (key ? std::to_string(key->unix_nanos) + "/" + std::to_string(key->seq) : std::string("(malformed)")) +
          " names no record of the log");
      return;
    }
    indexed[key->seq - 1] = true;
  }
  if (!it->status().ok()) audit.failures.push_back("reading the time index: " + it->status().ToString());
  if (entries != times.size()) {
    audit.failures.push_back("the time index has " + std::to_string(entries) + " entries for " +
                             std::to_string(times.size()) + " records");
  }
}

void check_head_file(const std::optional<ChainHead>& head, uint64_t last_seq, const AckedRecords& acked,
                     JournalAudit& audit) {
  if (!head) return;
  audit.head_file_seq = head->seq;
  if (head->seq > last_seq) {
    audit.failures.push_back("HEAD names seq " + std::to_string(head->seq) + " beyond the log's last seq " +
                             std::to_string(last_seq));
  }
  const auto it = acked.find(head->seq);
  if (it != acked.end() && it->second != journal::to_hex(head->hash)) {
    audit.failures.push_back("HEAD names seq " + std::to_string(head->seq) + " with hash " +
                             journal::to_hex(head->hash) + " but it was acknowledged with " + it->second);
  }
}

}  // namespace KOORDQ_TEST_LOCAL

JournalAudit audit_journal(const std::filesystem::path& dir, const AckedRecords& acked) {
  JournalAudit audit;
  const auto head_path = dir / "HEAD";
  auto head = journal::read_head_file(head_path);
  if (!head.ok()) {
    audit.failures.push_back(head.message());
    return audit;
  }
  journal::JournalOptions options;
  options.dir = dir;
  options.on_corruption = journal::CorruptionPolicy::kFail;
  auto opened = journal::Journal::open(options);
  if (!opened.ok()) {
    audit.failures.push_back("reopening: " + opened.message());
    return audit;
  }
  journal::Journal& j = **opened;
  audit.truncated_records = j.open_report().truncated_records;
  audit.last_seq = j.reader().last_seq();

  auto verified = journal::verify_journal(j.reader(), head_path);
  if (!verified.ok()) {
    audit.failures.push_back("verify: " + verified.message());
  } else if (verified->broken || verified->records != audit.last_seq ||
             (audit.last_seq > 0 && verified->first_seq != 1)) {
    audit.failures.push_back("verify: " + journal::render_verify_report(*verified) + " (the log ends at seq " +
                             std::to_string(audit.last_seq) + ")");
  }
  KOORDQ_TEST_LOCAL::check_head_file(*head, audit.last_seq, acked, audit);
  const std::vector<int64_t> times = KOORDQ_TEST_LOCAL::check_acknowledged(j.reader(), acked, audit);
  if (times.size() != audit.last_seq) {
    audit.failures.push_back("the log holds " + std::to_string(times.size()) + " readable records up to seq " +
                             std::to_string(audit.last_seq));
  }
  KOORDQ_TEST_LOCAL::check_time_index(j.store(), times, audit);
  return audit;
}

}  // namespace koordq::reliability
