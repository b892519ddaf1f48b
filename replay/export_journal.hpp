// An NDJSON export (`journal export --format ndjson`) as a journal the replay reads: every line is
// checked as `journal verify --export` checks it (framing, chain, rendering), and the records are
// stored in a private temporary database, removed with this object, so that everything that
// reads a journal (snapshots aside: an export has none) reads the export the same way.
#pragma once

#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "journal/chain_check.hpp"
#include "journal/journal_reader.hpp"
#include "journal/rocks_store.hpp"

namespace rocksdb {
class WriteBatch;
}

namespace koordq::replay {

class ExportJournal {
 public:
  struct Loaded;
  // `broken` is set (and nothing returned) when a line is not a record that extends the chain.
  // `progress(seq, records)` is called now and then while loading.
  static Result<std::unique_ptr<ExportJournal>> load(std::istream& in, std::optional<journal::ChainBreak>& broken,
                                                     const std::function<void(uint64_t, uint64_t)>& progress = {});
  // An empty temporary journal that a caller fills with records it checked itself (the reader of
  // the journal archive: each segment checked whole, the chain checked across them), in seq
  // order, with the snapshots it trusts, then closes with finish() before reading it.
  static Result<std::unique_ptr<ExportJournal>> create();
  Status add_record(const journal::StoredRecord& r);
  // A snapshot and its anchor (snapshot_anchor.hpp), as the journal keeps them.
  Status add_snapshot(uint64_t seq, std::string_view bytes, std::string_view anchor);
  // Writes what is batched and the UUID, and opens the reader.
  Status finish(std::string uuid);
  ~ExportJournal();
  ExportJournal(const ExportJournal&) = delete;
  ExportJournal& operator=(const ExportJournal&) = delete;

  journal::JournalReader& reader() { return *reader_; }
  // The journal UUID its config records name; empty when the export holds none.
  const std::string& uuid() const { return uuid_; }

 private:
  ExportJournal() = default;
  Status flush();
  std::filesystem::path dir_;
  std::unique_ptr<journal::RocksStore> store_;
  std::unique_ptr<journal::JournalReader> reader_;
  std::string uuid_;
  std::unique_ptr<rocksdb::WriteBatch> batch_;
};

}  // namespace koordq::replay
