#include "journal/journal.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <openssl/rand.h>
#include <rocksdb/utilities/checkpoint.h>
#include <rocksdb/write_batch.h>
#include <sys/stat.h>

#include "base/uuid.hpp"
#include "journal/chain_check.hpp"
#include "journal/cluster_identity.hpp"
#include "journal/keys.hpp"
#include "journal/retention_cut.hpp"
#include "journal/signed_statements.hpp"
#include "journal/snapshot_anchor.hpp"
#include "journal/unit_index.hpp"

namespace koordq::journal {
namespace {

namespace fs = std::filesystem;

fs::path db_path(const fs::path& dir) {
  return dir / "db";
}
fs::path head_path(const fs::path& dir) {
  return dir / "HEAD";
}

std::string compact_utc(int64_t unix_nanos) {
  const std::time_t secs = static_cast<std::time_t>(unix_nanos / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

std::string verified_value(const ChainHead& h) {
  return std::to_string(h.seq) + " " + to_hex(h.hash);
}

std::optional<ChainHead> parse_verified(const std::string& v) {
  const auto space = v.find(' ');
  if (space == std::string::npos) return std::nullopt;
  ChainHead h;
  char* end = nullptr;
  h.seq = std::strtoull(v.c_str(), &end, 10);
  if (end != v.c_str() + space || !from_hex(std::string_view(v).substr(space + 1), h.hash)) return std::nullopt;
  return h;
}

// Moves a corrupt journal aside (§21): rename the directory, or, when it cannot be renamed (a
// mount point), move its contents into a subdirectory.
Result<fs::path> quarantine(const fs::path& dir, int64_t when) {
  const std::string stamp = compact_utc(when);
  fs::path target = dir;
  target += ".quarantined-" + stamp;
  std::error_code ec;
  fs::rename(dir, target, ec);
  if (!ec) return target;
  target = dir / ("quarantined-" + stamp);
  fs::create_directory(target, ec);
  if (ec) return make_error("cannot quarantine " + dir.string() + ": " + ec.message());
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path() == target || entry.path().filename().string().rfind("quarantined-", 0) == 0) continue;
    fs::rename(entry.path(), target / entry.path().filename(), ec);
    if (ec) return make_error("cannot quarantine " + entry.path().string() + ": " + ec.message());
  }
  return target;
}

// Deletes log and time entries of seqs ≥ from (a torn tail whose times are ≥ from_time).
Status truncate_tail(RocksStore& store, uint64_t from, int64_t from_time) {
  rocksdb::WriteBatch batch;
  batch.DeleteRange(store.log(), seq_key(from), seq_key(UINT64_MAX));
  std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.time()));
  for (it->Seek(time_key(from_time, 0)); it->Valid(); it->Next()) {
    const auto key = decode_time_key(std::string_view(it->key().data(), it->key().size()));
    if (key && key->seq >= from) batch.Delete(store.time(), it->key());
  }
  return store.write(batch, true);
}

int64_t wall_now() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

// Over 100 lines on purpose: recovery is one ordered sequence (identity, schema, chain from the
// verified point, retention cut, HEAD and its signature, RocksDB's damage), each check reading
// what the ones before it found, ending in an error, a quarantine and reopen, or the writer.
// Read top to bottom it is the recovery of design.md §5; split, its order would be spread
// over functions sharing a dozen locals.
Result<std::unique_ptr<Journal>> Journal::open(const JournalOptions& options) {
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  if (ec) return make_error("cannot create journal directory " + options.dir.string() + ": " + ec.message());
  if (!options.cluster.empty()) {
    // A journal that cannot be read this way is damaged: recovery below names the damage.
    auto recorded = recorded_cluster(options.dir);
    if (recorded.ok() && recorded->has_value() && **recorded != options.cluster) {
      return make_error(other_cluster_message(options.dir, **recorded, options.cluster));
    }
  }

  std::unique_ptr<Journal> j(new Journal());
  j->dir_ = options.dir;
  j->signing_key_ = options.signing_key;
  auto store = RocksStore::open(db_path(options.dir), StoreMode::kPrimary, {}, !options.writer.sync);
  if (!store.ok()) return store.error();
  j->store_ = std::move(store).value();
  j->reader_ = std::make_unique<JournalReader>(*j->store_);

  // A store RocksDB refused as corrupt is only read, to name the first bad seq.
  const std::optional<std::string>& damage = j->store_->damage();
  auto uuid = j->reader_->meta(kMetaUuid);
  if (!uuid.ok() && !damage) return uuid.error();
  const uint64_t last = j->reader_->last_seq();
  std::optional<Signature> head_signature;
  auto head_file = read_head_file(head_path(options.dir), &head_signature);
  ChainHead head;
  int64_t head_time = 0;
  std::optional<ChainBreak> corruption;
  if (!uuid.ok() || !uuid->has_value()) {
    if (last != 0 && !damage)
      return make_error("journal " + options.dir.string() + " has records but no UUID: not a koordq journal");
    if (!head_file.ok()) {
      corruption = ChainBreak{1, head_file.message()};
    } else if (head_file->has_value() && (*head_file)->seq > 0) {
      // Lost with the WAL, say: HEAD names records the empty database no longer has.
      corruption = ChainBreak{1, "HEAD names seq " + std::to_string((*head_file)->seq) +
                                     " but the journal is empty: acknowledged records were lost"};
    } else if (damage) {
      corruption = ChainBreak{1, *damage};
    } else {
      j->uuid_ = options.new_uuid.empty() ? base::random_uuid() : options.new_uuid;
      rocksdb::WriteBatch batch;
      batch.Put(j->store_->meta(), kMetaUuid, j->uuid_);
      batch.Put(j->store_->meta(), kMetaSchema, std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor));
      batch.Put(j->store_->meta(), kMetaUnitIndexFrom, "1");
      if (j->signing_key_) batch.Put(j->store_->meta(), kMetaSigningKey, j->signing_key_->key_id());
      if (auto s = j->store_->write(batch, true); !s.ok()) return s.error();
      j->report_.created = true;
      head = ChainHead{0, genesis_hash(j->uuid_)};
      // From its creation on, a journal has HEAD: one with records and no HEAD lost it.
      if (auto w = j->write_head(head_path(options.dir), head); !w.ok()) return w.error();
    }
  } else {
    j->uuid_ = **uuid;
    auto schema = j->reader_->meta(kMetaSchema);
    if (!schema.ok()) return schema.error();
    const std::string version = schema->value_or("1.0");
    if (std::strtoul(version.c_str(), nullptr, 10) > kSchemaMajor) {
      return make_error("journal " + options.dir.string() + " has schema version " + version +
                        ", newer than this koordq's " + std::to_string(kSchemaMajor) + "." +
                        std::to_string(kSchemaMinor) + ": open it with a newer koordq");
    }
    // Start checking at the last verified point, else at the oldest retained record.
    ChainHead start{0, genesis_hash(j->uuid_)};
    int64_t start_time = INT64_MIN;
    auto verified = j->reader_->meta(kMetaVerified);
    if (!verified.ok()) return verified.error();
    std::optional<ChainHead> verified_head = verified->has_value() ? parse_verified(**verified) : std::nullopt;
    const uint64_t first = j->reader_->first_seq();
    if (verified_head && verified_head->seq >= first && verified_head->seq <= last && verified_head->seq > 0) {
      auto rec = j->reader_->get(verified_head->seq);
      if (rec.ok() && rec->has_value() && (*rec)->hash() == verified_head->hash) {
        start = *verified_head;
        start_time = (*rec)->time();
      }
    }
    // The first retained record is anchored to the retention cut (checked on every open: cheap).
    const RetainedStart retained = retained_chain_start(*j->reader_, j->uuid_, nullptr);
    if (start.seq == 0) start = retained.start;
    const ChainCheck check = check_chain(*j->reader_, start, start_time);
    j->report_.verified_records = check.records;
    head = check.last_good;
    head_time = check.last_good_time == INT64_MIN ? 0 : check.last_good_time;

    corruption = retained.broken ? retained.broken : check.first_break;
    if (!corruption && retained.legacy_cut) {
      // A cut recorded by an older koordq (its seq alone): record it with its prevHash from now on.
      const RetentionCut cut = make_retention_cut(j->uuid_, first, retained.start.hash, j->signing_key_.get());
      if (auto s = j->put_meta(kMetaRetentionCut, render_retention_cut(cut)); !s.ok()) return s.error();
    }
    if (!head_file.ok()) {
      corruption = ChainBreak{head.seq + 1, head_file.message()};
    } else if (head_file->has_value()) {
      const ChainHead& h = **head_file;
      if (corruption && corruption->seq > h.seq && !damage) {
        // Past HEAD: a tail torn by a crash before it was acknowledged. Drop it.
        if (auto s = truncate_tail(*j->store_, corruption->seq, head_time); !s.ok()) return s.error();
        j->report_.truncated_records = last - head.seq;
        corruption.reset();
      } else if (!corruption && h.seq > head.seq) {
        corruption = ChainBreak{head.seq + 1, "HEAD names seq " + std::to_string(h.seq) + " but the log ends at seq " +
                                                  std::to_string(head.seq) + ": acknowledged records were lost"};
      } else if (!corruption && h.seq > 0 && h.seq >= first) {
        // Also behind the verified point: a HEAD that names another hash means HEAD or the log was rewritten.
        auto rec = j->reader_->get(h.seq);
        if (!rec.ok()) {
          corruption = ChainBreak{h.seq, rec.message()};
        } else if (rec->has_value() && (*rec)->hash() != h.hash) {
          corruption = ChainBreak{h.seq, "seq " + std::to_string(h.seq) + " has hash " + to_hex((*rec)->hash()) +
                                             " but HEAD says " + to_hex(h.hash)};
        }
      }
    }
    if (!corruption && head_file.ok() && !head_file->has_value() && last > 0 && !damage) {
      corruption = ChainBreak{head.seq + 1, "the HEAD file is missing beside a log that ends at seq " +
                                                std::to_string(head.seq) +
                                                ": HEAD was deleted, and the records after it may have been cut"};
    }
    auto signed_by = j->reader_->meta(kMetaSigningKey);
    if (!signed_by.ok()) return signed_by.error();
    // Whether the journal has been signed: the key its first signed open recorded, else (signed before
    // that record existed) a signed HEAD or retention cut.
    std::optional<std::string> signed_before = *signed_by;
    if (!signed_before && head_signature) signed_before = head_signature->key_id;
    if (!signed_before) {
      auto cut = j->reader_->meta(kMetaRetentionCut);
      if (cut.ok() && cut->has_value()) {
        if (auto parsed = parse_retention_cut(**cut); parsed && parsed->signature)
          signed_before = parsed->signature->key_id;
      }
    }
    if (!j->signing_key_ && signed_before && options.appends) {
      return make_error("journal " + options.dir.string() + " is signed (by key " + *signed_before +
                        "): pass its --journal-signing-key-file; a signed journal is never written unsigned, so "
                        "that an unsigned HEAD stays evidence of tampering");
    }
    if (!corruption && head_file.ok() && head_file->has_value() && j->signing_key_) {
      const ChainHead& h = **head_file;
      if (!head_signature && signed_before) {
        corruption = ChainBreak{h.seq, "HEAD (seq " + std::to_string(h.seq) +
                                           ") is not signed, but the journal is signed by key " + *signed_before +
                                           ": HEAD was rewritten"};
      } else if (head_signature &&
                 !j->signing_key_->verifying_key().verifies(head_statement(j->uuid_, h.seq, h.hash), *head_signature)) {
        corruption = ChainBreak{h.seq, "HEAD (seq " + std::to_string(h.seq) + ") is not signed by key " +
                                           j->signing_key_->key_id() + " (its signature names key " +
                                           head_signature->key_id + "): HEAD was rewritten"};
      }
    }
    if (!corruption && j->signing_key_ && !signed_by->has_value()) {
      // Signed from now on (an older journal switching to a key, or one signed before the marker).
      if (auto put = j->put_meta(kMetaSigningKey, j->signing_key_->key_id()); !put.ok()) return put.error();
      j->report_.first_signed = !signed_before.has_value();
    }
    if (!corruption && damage) corruption = ChainBreak{head.seq + 1, *damage};
  }
  if (corruption) {
    if (options.on_corruption == CorruptionPolicy::kFail) {
      return make_error("journal " + options.dir.string() + " is corrupt at seq " + std::to_string(corruption->seq) +
                        ": " + corruption->reason + " (--journal-on-corruption=fail)");
    }
    QuarantineReport q{{}, corruption->seq, head.seq, head.hash, corruption->reason};
    j.reset();
    auto moved = quarantine(options.dir, options.quarantine_time ? options.quarantine_time : wall_now());
    if (!moved.ok()) return moved.error();
    q.moved_to = *moved;
    JournalOptions fresh = options;
    auto reopened = open(fresh);
    if (!reopened.ok()) return reopened.error();
    (*reopened)->report_.quarantined = q;
    return reopened;
  }
  if (!j->report_.created) {
    if (auto s = j->put_meta(kMetaVerified, verified_value(head)); !s.ok()) return s.error();
    // A journal written before the per-unit index: indexed from the next record on.
    auto index_from = j->reader_->meta(kMetaUnitIndexFrom);
    if (!index_from.ok()) return index_from.error();
    if (!index_from->has_value()) {
      if (auto s = j->put_meta(kMetaUnitIndexFrom, std::to_string(head.seq + 1)); !s.ok()) return s.error();
    }
  }
  if (auto s = j->index_snapshots(); !s.ok()) return s.error();
  if (!options.cluster.empty()) {
    auto recorded = j->reader_->meta(kMetaCluster);
    if (!recorded.ok()) return recorded.error();
    if (!recorded->has_value()) {
      if (auto s = j->put_meta(kMetaCluster, options.cluster); !s.ok()) return s.error();
    }
  }

  if (options.clock == nullptr) j->owned_clock_ = std::make_unique<RecordClock>();
  RecordClock& clock = options.clock ? *options.clock : *j->owned_clock_;
  WriterOptions writer_options = options.writer;
  if (j->signing_key_) {
    writer_options.sign_head = [key = j->signing_key_,
                                uuid = j->uuid_](const ChainHead& h) -> std::optional<Signature> {
      return key->sign(head_statement(uuid, h.seq, h.hash));
    };
  }
  j->opened_head_ = head;
  j->flush_on_close_ = options.flush_on_close;
  j->writer_ =
      std::make_unique<GroupCommitWriter>(*j->store_, head, head_time, clock, writer_options, head_path(options.dir));
  return j;
}

Journal::~Journal() {
  if (!writer_) return;
  writer_.reset();  // drains what was appended
  const ChainHead head = [&] {
    // The writer is gone; the log's last record is the head.
    const uint64_t last = reader_->last_seq();
    auto rec = reader_->get(last);
    if (last == 0 || !rec.ok() || !rec->has_value()) return ChainHead{};
    return ChainHead{last, (*rec)->hash()};
  }();
  if (head.seq > 0 && head != opened_head_) {
    put_meta(kMetaVerified, verified_value(head)).ok();
    write_head(head_path(dir_), head).ok();
    // Everything is durable already (in the WAL); this only spares later readers its replay.
    if (flush_on_close_) store_->flush_memtables().ok();
  }
}

Status Journal::put_snapshot(uint64_t seq, const std::string& bytes) {
  // Anchored to the chain hash of its seq (a snapshot of a seq not in the log has no anchor).
  std::string anchor;
  auto rec = reader_->get(seq);
  if (rec.ok() && rec->has_value()) {
    anchor = render_snapshot_anchor(make_snapshot_anchor(uuid_, seq, (*rec)->hash(), bytes, signing_key_.get()));
  }
  rocksdb::WriteBatch batch;
  batch.Put(store_->snapshot(), seq_key(seq), bytes);
  batch.Put(store_->meta(), snapshot_index_key(seq), anchor);
  return store_->write(batch, true);
}

Status Journal::index_snapshots() {
  auto indexed = reader_->meta(kMetaSnapshotsIndexed);
  if (!indexed.ok()) return indexed.error();
  if (indexed->has_value()) return ok_status();
  rocksdb::WriteBatch batch;
  for (const auto& snapshot : reader_->snapshots()) batch.Put(store_->meta(), snapshot_index_key(snapshot.seq), "");
  batch.Put(store_->meta(), kMetaSnapshotsIndexed, "1");
  return store_->write(batch, true);
}

std::optional<Signature> Journal::sign_head(const ChainHead& head) const {
  if (!signing_key_) return std::nullopt;
  return signing_key_->sign(head_statement(uuid_, head.seq, head.hash));
}

Status Journal::write_head(const fs::path& path, const ChainHead& head) const {
  return write_head_file(path, head, sign_head(head));
}

Status Journal::put_meta(const std::string& key, const std::string& value) {
  rocksdb::WriteBatch batch;
  batch.Put(store_->meta(), key, value);
  return store_->write(batch, true);
}

Result<uint64_t> Journal::checkpoint(const fs::path& target) {
  if (fs::exists(target)) return make_error(target.string() + " already exists; name a directory that does not");
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return make_error("cannot create " + target.parent_path().string() + ": " + ec.message());
  // 0700: the copy holds what the journal holds, raw objects included.
  if (::mkdir(target.c_str(), 0700) != 0)
    return make_error("cannot create " + target.string() + ": " + std::strerror(errno));
  rocksdb::Checkpoint* raw = nullptr;
  auto s = rocksdb::Checkpoint::Create(&store_->db(), &raw);
  if (!s.ok()) return rocks_error("cannot checkpoint", s);
  std::unique_ptr<rocksdb::Checkpoint> cp(raw);
  // Taken before the copy: the copy may hold more records than HEAD says, never fewer.
  const ChainHead head = writer_ ? writer_->durable_head() : ChainHead{};
  // Flush the WAL so the copy holds every durable record.
  s = cp->CreateCheckpoint(db_path(target).string(), /*log_size_for_flush=*/0);
  if (!s.ok()) return rocks_error("cannot checkpoint into " + target.string(), s);
  if (head.seq > 0) {
    // Without the key (an offline checkpoint), HEAD's own signature goes with it when it names the head.
    std::optional<Signature> signature = sign_head(head);
    if (!signature) {
      std::optional<Signature> current;
      auto on_disk = read_head_file(head_path(dir_), &current);
      if (on_disk.ok() && on_disk->has_value() && **on_disk == head) signature = current;
    }
    if (auto w = write_head_file(head_path(target), head, signature); !w.ok()) return w.error();
  }
  return head.seq;
}

}  // namespace koordq::journal
