#include "journal/journal_reader.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <rocksdb/iterator.h>
#include <unistd.h>

#include "journal/keys.hpp"
#include "journal/snapshot_anchor.hpp"

namespace koordq::journal {

RecordCursor::RecordCursor(RocksStore& store, uint64_t from_seq, uint64_t to_seq)
    : it_(store.db().NewIterator(rocksdb::ReadOptions(), store.log())), expected_(from_seq), to_(to_seq) {}

RecordCursor::~RecordCursor() = default;
RecordCursor::RecordCursor(RecordCursor&&) noexcept = default;

Result<std::optional<StoredRecord>> RecordCursor::next() {
  if (!started_) {
    it_->Seek(seq_key(expected_));
    started_ = true;
  } else {
    it_->Next();
  }
  if (!it_->Valid()) {
    if (!it_->status().ok()) {
      return make_error("journal read failed at seq " + std::to_string(expected_) + ": " + it_->status().ToString());
    }
    return std::optional<StoredRecord>{};
  }
  const auto seq = decode_seq_key(std::string_view(it_->key().data(), it_->key().size()));
  if (!seq) return make_error("malformed log key after seq " + std::to_string(expected_ - 1));
  if (*seq > to_) return std::optional<StoredRecord>{};
  if (*seq != expected_) {
    return make_error("seq " + std::to_string(expected_) + " is missing (the next record is seq " +
                      std::to_string(*seq) + ")");
  }
  auto record = StoredRecord::parse(std::string_view(it_->value().data(), it_->value().size()));
  if (!record.ok()) return make_error("seq " + std::to_string(expected_) + ": " + record.message());
  if (record->seq() != expected_) {
    return make_error("seq " + std::to_string(expected_) + " holds a record numbered " + std::to_string(record->seq()));
  }
  ++expected_;
  return std::optional<StoredRecord>{std::move(record).value()};
}

Result<std::unique_ptr<JournalReader>> JournalReader::open_secondary(const std::filesystem::path& journal_dir) {
  const auto db_dir = journal_dir / "db";
  std::error_code ec;
  if (!std::filesystem::exists(db_dir / "CURRENT", ec)) {
    return make_error("no journal in " + journal_dir.string() + " (" + (db_dir / "CURRENT").string() +
                      " does not exist); pass the directory `koordq serve --journal-dir` writes");
  }
  const char* tmpdir = std::getenv("TMPDIR");
  const std::filesystem::path scratch_parent = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  std::string scratch_template = (scratch_parent / "koordq-reader-XXXXXX").string();
  if (::mkdtemp(scratch_template.data()) == nullptr) {
    return make_error("cannot create a scratch directory for reading the journal in " + scratch_parent.string() + ": " +
                      std::strerror(errno) +
                      "; set TMPDIR to a writable directory (in a Pod whose root filesystem is read-only, "
                      "mount an emptyDir at /tmp, as ops/kubernetes does)");
  }
  auto store = RocksStore::open(db_dir, StoreMode::kSecondary, scratch_template);
  if (!store.ok()) {
    std::filesystem::remove_all(scratch_template, ec);
    return store.error();
  }
  auto reader = std::make_unique<JournalReader>(**store);
  reader->owned_ = std::move(store).value();
  reader->scratch_ = scratch_template;
  return reader;
}

JournalReader::~JournalReader() {
  owned_.reset();
  if (!scratch_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(scratch_, ec);
  }
}

Result<std::string> JournalReader::uuid() {
  auto v = meta(kMetaUuid);
  if (!v.ok()) return v.error();
  if (!v->has_value()) return make_error("the journal has no UUID (not a koordq journal?)");
  return **v;
}

uint64_t JournalReader::first_seq() {
  std::unique_ptr<rocksdb::Iterator> it(store_.db().NewIterator(rocksdb::ReadOptions(), store_.log()));
  it->SeekToFirst();
  if (!it->Valid()) return 0;
  return decode_seq_key(std::string_view(it->key().data(), it->key().size())).value_or(0);
}

uint64_t JournalReader::last_seq() {
  std::unique_ptr<rocksdb::Iterator> it(store_.db().NewIterator(rocksdb::ReadOptions(), store_.log()));
  it->SeekToLast();
  if (!it->Valid()) return 0;
  return decode_seq_key(std::string_view(it->key().data(), it->key().size())).value_or(0);
}

Result<std::optional<StoredRecord>> JournalReader::get(uint64_t seq) {
  auto value = store_.get(store_.log(), seq_key(seq));
  if (!value.ok()) return value.error();
  if (!value->has_value()) return std::optional<StoredRecord>{};
  auto record = StoredRecord::parse(**value);
  if (!record.ok()) return make_error("seq " + std::to_string(seq) + ": " + record.message());
  return std::optional<StoredRecord>{std::move(record).value()};
}

std::optional<uint64_t> JournalReader::first_seq_at_or_after(int64_t unix_nanos) {
  std::unique_ptr<rocksdb::Iterator> it(store_.db().NewIterator(rocksdb::ReadOptions(), store_.time()));
  it->Seek(time_key(unix_nanos, 0));
  if (!it->Valid()) return std::nullopt;
  const auto key = decode_time_key(std::string_view(it->key().data(), it->key().size()));
  if (!key) return std::nullopt;
  return key->seq;
}

std::optional<uint64_t> JournalReader::last_seq_at_or_before(int64_t unix_nanos) {
  std::unique_ptr<rocksdb::Iterator> it(store_.db().NewIterator(rocksdb::ReadOptions(), store_.time()));
  it->SeekForPrev(time_key(unix_nanos, UINT64_MAX));
  if (!it->Valid()) return std::nullopt;
  const auto key = decode_time_key(std::string_view(it->key().data(), it->key().size()));
  if (!key) return std::nullopt;
  return key->seq;
}

std::vector<SnapshotEntry> JournalReader::snapshots() {
  std::vector<SnapshotEntry> out;
  std::unique_ptr<rocksdb::Iterator> it(store_.db().NewIterator(rocksdb::ReadOptions(), store_.snapshot()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (auto seq = decode_seq_key(std::string_view(it->key().data(), it->key().size()))) {
      out.push_back({*seq, it->value().size()});
    }
  }
  return out;
}

Result<std::optional<uint64_t>> JournalReader::indexed_snapshot_seq_at_or_before(uint64_t seq) {
  std::unique_ptr<rocksdb::Iterator> it(store_.db().NewIterator(rocksdb::ReadOptions(), store_.meta()));
  it->SeekForPrev(snapshot_index_key(seq));
  if (!it->Valid()) {
    if (!it->status().ok()) return rocks_error("snapshot index read failed", it->status());
    return std::optional<uint64_t>();
  }
  // A key before the index's range (another meta key) means nothing is indexed that old.
  return decode_snapshot_index_key(std::string_view(it->key().data(), it->key().size()));
}

Result<std::optional<uint64_t>> JournalReader::searched_snapshot_seq_at_or_before(uint64_t seq, std::string* value) {
  std::unique_ptr<rocksdb::Iterator> it(store_.db().NewIterator(rocksdb::ReadOptions(), store_.snapshot()));
  it->SeekForPrev(seq_key(seq));
  if (!it->Valid()) {
    if (!it->status().ok()) return rocks_error("snapshot read failed", it->status());
    return std::optional<uint64_t>();
  }
  const auto found = decode_seq_key(std::string_view(it->key().data(), it->key().size()));
  if (!found) return make_error("malformed snapshot key");
  if (value != nullptr) value->assign(it->value().data(), it->value().size());
  return std::optional<uint64_t>(*found);
}

// The index answers for every snapshot written since it exists, and those are newer than any
// written before it; a journal without it, or a seq older than everything indexed, falls back to
// searching the snapshots themselves.
Result<std::optional<std::pair<uint64_t, std::string>>> JournalReader::latest_snapshot_at_or_before(uint64_t seq) {
  auto found = unchecked_latest_snapshot_at_or_before(seq);
  if (!found.ok() || !found->has_value()) return found;
  if (auto mismatch = snapshot_anchor_mismatch(*this, (*found)->first, (*found)->second, nullptr)) {
    return make_error(*mismatch);
  }
  return found;
}

Result<std::optional<std::pair<uint64_t, std::string>>> JournalReader::unchecked_latest_snapshot_at_or_before(
    uint64_t seq) {
  using Found = std::optional<std::pair<uint64_t, std::string>>;
  auto indexed = indexed_snapshot_seq_at_or_before(seq);
  if (!indexed.ok()) return indexed.error();
  if (*indexed) {
    auto value = store_.get(store_.snapshot(), seq_key(**indexed));
    if (!value.ok()) return value.error();
    if (*value) return Found{std::make_pair(**indexed, std::move(**value))};
  }
  std::string bytes;
  auto searched = searched_snapshot_seq_at_or_before(seq, &bytes);
  if (!searched.ok()) return searched.error();
  if (!*searched) return Found{};
  return Found{std::make_pair(**searched, std::move(bytes))};
}

Result<std::optional<uint64_t>> JournalReader::latest_snapshot_seq_at_or_before(uint64_t seq) {
  auto indexed = indexed_snapshot_seq_at_or_before(seq);
  if (!indexed.ok() || *indexed) return indexed;
  return searched_snapshot_seq_at_or_before(seq, nullptr);
}

Status JournalReader::refresh() {
  if (store_.mode() != StoreMode::kSecondary) return ok_status();
  return store_.catch_up();
}

}  // namespace koordq::journal
