// The journal as `serve` owns it: opened (and recovered) as the single writer. Recovery on open
// (design.md §5): check density, chain and HEAD from the last verified point; drop a torn tail
// that was never acknowledged (records past HEAD); anything else is corruption with the first bad
// seq, handled per --journal-on-corruption.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "journal/group_commit.hpp"
#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

inline constexpr uint16_t kSchemaMajor = 1;
inline constexpr uint16_t kSchemaMinor = 0;

enum class CorruptionPolicy { kQuarantine, kFail };

struct JournalOptions {
  std::filesystem::path dir;
  WriterOptions writer;
  CorruptionPolicy on_corruption = CorruptionPolicy::kQuarantine;
  std::string new_uuid;          // UUID of a journal created by this open; random when empty
  RecordClock* clock = nullptr;  // default: the slewed wall clock
  int64_t quarantine_time = 0;   // names the quarantined directory; default: now
  // The cluster this process serves (cluster_identity.hpp): recorded in a journal that records
  // none; a journal that records another is refused before anything in it changes. Empty: not
  // checked, not recorded (the journal commands).
  std::string cluster;
  // --journal-signing-key-file: signs HEAD, the retention cut and snapshot anchors; a HEAD signed
  // by another key, or whose signature does not verify, is corruption.
  std::shared_ptr<const SigningKey> signing_key;
  // Whether this open may append (serve, journal import). A journal that has been signed (meta
  // `signing_key`) is never appended to without a key: an unsigned HEAD stays evidence of tampering.
  bool appends = true;
  // A clean close writes what only the WAL holds into SST files, so that readers opening the
  // journal afterwards (export, verify, replay, at) have no WAL to replay first (serve; the
  // recovery tests leave it off to find records only in the WAL).
  bool flush_on_close = false;
};

// The id of the key that first signed the journal: once there, HEAD must always be signed.
inline constexpr char kMetaSigningKey[] = "signing_key";

struct QuarantineReport {
  std::filesystem::path moved_to;
  uint64_t first_bad_seq = 0;
  uint64_t last_intact_seq = 0;
  Hash head_hash{};
  std::string reason;
};

struct OpenReport {
  bool created = false;
  uint64_t verified_records = 0;   // records whose chain was checked on open
  uint64_t truncated_records = 0;  // torn, never-acknowledged tail dropped
  bool first_signed = false;       // a journal never signed before is signed from this open on
  std::optional<QuarantineReport> quarantined;
};

class Journal {
 public:
  // Errors: the directory cannot be created or locked, a newer major schema, a journal of another
  // cluster, or corruption under CorruptionPolicy::kFail (the message names the first bad seq).
  static Result<std::unique_ptr<Journal>> open(const JournalOptions& options);
  ~Journal();  // drains the writer, records the verified point

  const std::string& uuid() const { return uuid_; }
  const OpenReport& open_report() const { return report_; }
  const std::filesystem::path& dir() const { return dir_; }
  GroupCommitWriter& writer() { return *writer_; }
  JournalReader& reader() { return *reader_; }
  RocksStore& store() { return *store_; }
  const SigningKey* signing_key() const { return signing_key_.get(); }

  Status put_snapshot(uint64_t seq, const std::string& bytes);
  Status put_meta(const std::string& key, const std::string& value);
  // A consistent copy of the journal in `target`, which must not exist: created with mode 0700.
  Result<uint64_t> checkpoint(const std::filesystem::path& target);

 private:
  Journal() = default;
  // Puts every snapshot into the key-only snapshot index once (a journal written before it).
  Status index_snapshots();
  // The HEAD file, signed when there is a signing key.
  Status write_head(const std::filesystem::path& path, const ChainHead& head) const;
  std::optional<Signature> sign_head(const ChainHead& head) const;
  std::filesystem::path dir_;
  ChainHead opened_head_;  // HEAD is rewritten on close only when records were appended
  bool flush_on_close_ = false;
  std::shared_ptr<const SigningKey> signing_key_;
  std::string uuid_;
  OpenReport report_;
  std::unique_ptr<RecordClock> owned_clock_;
  std::unique_ptr<RocksStore> store_;
  std::unique_ptr<JournalReader> reader_;
  std::unique_ptr<GroupCommitWriter> writer_;
};

}  // namespace koordq::journal
