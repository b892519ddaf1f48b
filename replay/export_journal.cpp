#include "replay/export_journal.hpp"

#include <cstdlib>
#include <string>
#include <system_error>

#include <rocksdb/write_batch.h>

#include "journal/export_line_read_ahead.hpp"
#include "journal/keys.hpp"
#include "journal/verify.hpp"

namespace koordq::replay {
namespace {

Result<std::filesystem::path> make_temp_dir() {
  std::error_code ec;
  const auto base = std::filesystem::temp_directory_path(ec);
  if (ec) return make_error("no temporary directory: " + ec.message());
  std::string pattern = (base / "koordq-replay-export.XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return make_error("cannot create a directory in " + base.string());
  return std::filesystem::path(pattern);
}

}  // namespace

Result<std::unique_ptr<ExportJournal>> ExportJournal::create() {
  auto dir = make_temp_dir();
  if (!dir.ok()) return dir.error();
  std::unique_ptr<ExportJournal> out(new ExportJournal());
  out->dir_ = *dir;
  auto store = journal::RocksStore::open(out->dir_ / "db", journal::StoreMode::kPrimary);
  if (!store.ok()) return make_error("cannot create the temporary journal of the export: " + store.message());
  out->store_ = std::move(store).value();
  out->batch_ = std::make_unique<rocksdb::WriteBatch>();
  return out;
}

Status ExportJournal::flush() {
  if (batch_->Count() == 0) return ok_status();
  auto written = store_->write(*batch_, false);
  batch_->Clear();
  return written;
}

Status ExportJournal::add_record(const journal::StoredRecord& r) {
  if (r.kind() == journal::RecordKind::kConfig && uuid_.empty()) {
    const auto uuid = r.reader().getBody().getConfig().getJournalUuid();
    uuid_.assign(uuid.cStr(), uuid.size());
  }
  batch_->Put(store_->log(), journal::seq_key(r.seq()), r.stored_value());
  batch_->Put(store_->time(), journal::time_key(r.time(), r.seq()), rocksdb::Slice());
  if (batch_->Count() >= 8192) return flush();
  return ok_status();
}

Status ExportJournal::add_snapshot(uint64_t seq, std::string_view bytes, std::string_view anchor) {
  batch_->Put(store_->snapshot(), journal::seq_key(seq), bytes);
  batch_->Put(store_->meta(), journal::snapshot_index_key(seq), anchor);
  return flush();
}

Status ExportJournal::finish(std::string uuid) {
  if (uuid_.empty()) uuid_ = std::move(uuid);
  if (!uuid_.empty()) batch_->Put(store_->meta(), journal::kMetaUuid, uuid_);
  if (auto s = flush(); !s.ok()) return s.error();
  reader_ = std::make_unique<journal::JournalReader>(*store_);
  return ok_status();
}

Result<std::unique_ptr<ExportJournal>> ExportJournal::load(std::istream& in, std::optional<journal::ChainBreak>& broken,
                                                           const std::function<void(uint64_t, uint64_t)>& progress) {
  auto created = create();
  if (!created.ok()) return created.error();
  std::unique_ptr<ExportJournal> out = std::move(created).value();
  journal::ExportLineChecker checker;
  // Read and matched ahead, as `journal verify --export` does (BENCHMARKS.md, "Export and verify").
  journal::ExportLineReadAhead lines(in);
  while (journal::ExportLineReadAhead::Line* line = lines.next()) {
    auto record = checker.add(line->text, std::move(line->rendered));
    if (!record.ok()) {
      broken = checker.broken();
      return make_error(record.message());
    }
    if (!record->has_value()) continue;
    if (auto s = out->add_record(**record); !s.ok()) return s.error();
    if (progress && checker.records() % 16384 == 0) progress((*record)->seq(), checker.records());
  }
  if (in.bad()) return make_error("cannot read the export");
  if (auto s = out->finish({}); !s.ok()) return s.error();
  return out;
}

ExportJournal::~ExportJournal() {
  reader_.reset();
  store_.reset();
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

}  // namespace koordq::replay
