#include "archive/archived_snapshot.hpp"

#include <charconv>

#include <fmt/format.h>
#include <zstd.h>

#include "archive/segment.hpp"
#include "journal/signed_statements.hpp"
#include "journal/snapshot_anchor.hpp"

namespace koordq::archive {
namespace {

constexpr std::string_view kSnapshotsDir = "snapshots/";
constexpr std::string_view kSnapshotSuffix = ".snapshot.zst";
constexpr std::string_view kSnapshotMagic = "koordq-snapshot 1 ";
constexpr size_t kSnapshotSeqDigits = 20;
constexpr int kSnapshotZstdLevel = 3;

std::optional<uint64_t> parse_decimal(std::string_view digits) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string snapshots_prefix(const ArchiveLocation& at, std::string_view cluster, std::string_view journal) {
  return fmt::format("{}{}/{}/{}", root_prefix(at), cluster, journal, kSnapshotsDir);
}

std::string snapshot_key(const ArchiveLocation& at, const SnapshotName& name) {
  return fmt::format("{}{:020}{}", snapshots_prefix(at, name.cluster, name.journal), name.seq, kSnapshotSuffix);
}

std::optional<SnapshotName> parse_snapshot_key(const ArchiveLocation& at, std::string_view key) {
  const std::string root = root_prefix(at);
  if (!key.starts_with(root)) return std::nullopt;
  key.remove_prefix(root.size());
  SnapshotName name;
  const size_t cluster_end = key.find('/');
  if (cluster_end == 0 || cluster_end == std::string_view::npos) return std::nullopt;
  name.cluster = std::string(key.substr(0, cluster_end));
  key.remove_prefix(cluster_end + 1);
  const size_t journal_end = key.find('/');
  if (journal_end == 0 || journal_end == std::string_view::npos) return std::nullopt;
  name.journal = std::string(key.substr(0, journal_end));
  key.remove_prefix(journal_end + 1);
  if (!key.starts_with(kSnapshotsDir)) return std::nullopt;
  key.remove_prefix(kSnapshotsDir.size());
  if (key.size() != kSnapshotSeqDigits + kSnapshotSuffix.size() || !key.ends_with(kSnapshotSuffix)) return std::nullopt;
  auto seq = parse_decimal(key.substr(0, kSnapshotSeqDigits));
  if (!seq || *seq == 0) return std::nullopt;
  name.seq = *seq;
  return name;
}

Result<std::string> render_snapshot_object(const SnapshotObject& snapshot) {
  std::string text =
      fmt::format("{}{} {} {}\n", kSnapshotMagic, snapshot.journal, snapshot.seq, snapshot.anchor.size());
  text += snapshot.anchor;
  text += snapshot.bytes;
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), kSnapshotZstdLevel);
  if (ZSTD_isError(size)) return make_error(std::string("zstd: ") + ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

Result<SnapshotObject> parse_snapshot_object(std::string_view object) {
  auto text = decompress_segment(object);  // one zstd frame within the segments' bound
  if (!text.ok()) return text.error();
  std::string_view rest = *text;
  const size_t newline = rest.find('\n');
  if (!rest.starts_with(kSnapshotMagic) || newline == std::string_view::npos) {
    return make_error("not an archived snapshot (its first line is not `koordq-snapshot 1 JOURNAL SEQ N`)");
  }
  std::string_view header = rest.substr(kSnapshotMagic.size(), newline - kSnapshotMagic.size());
  rest.remove_prefix(newline + 1);
  const size_t first_space = header.find(' ');
  const size_t second_space = header.find(' ', first_space == std::string_view::npos ? 0 : first_space + 1);
  if (first_space == std::string_view::npos || second_space == std::string_view::npos) {
    return make_error("a malformed snapshot header");
  }
  SnapshotObject out;
  out.journal = std::string(header.substr(0, first_space));
  auto seq = parse_decimal(header.substr(first_space + 1, second_space - first_space - 1));
  auto anchor_bytes = parse_decimal(header.substr(second_space + 1));
  if (!seq || !anchor_bytes || *anchor_bytes > rest.size()) {
    return make_error("a malformed snapshot header (a truncated object?)");
  }
  out.seq = *seq;
  out.anchor = std::string(rest.substr(0, *anchor_bytes));
  out.bytes = std::string(rest.substr(*anchor_bytes));
  return out;
}

std::optional<std::string> snapshot_object_mismatch(const SnapshotObject& snapshot, const SnapshotName& name,
                                                    const journal::Hash& chain_hash, const journal::VerifyingKey* key) {
  const std::string at = fmt::format("snapshot at seq {}", name.seq);
  if (snapshot.journal != name.journal || snapshot.seq != name.seq) {
    return fmt::format(
        "{}: holds seq {} of journal {}, not what its key names (a snapshot of another journal "
        "or seq)",
        at, snapshot.seq, snapshot.journal);
  }
  auto anchor = journal::parse_snapshot_anchor(snapshot.anchor);
  if (!anchor) return at + ": its anchor is malformed";
  if (journal::sha256(snapshot.bytes) != anchor->snapshot_sha256) {
    return at + ": is not the snapshot its anchor names (SHA-256 differs): it was altered";
  }
  if (anchor->chain_hash != chain_hash) {
    return fmt::format(
        "{}: is anchored to chain hash {} but the archive's seq {} has {}: it belongs to another "
        "history",
        at, journal::to_hex(anchor->chain_hash), name.seq, journal::to_hex(chain_hash));
  }
  if (key == nullptr) return std::nullopt;
  if (!anchor->signature || !key->verifies(journal::snapshot_anchor_statement(
                                               name.journal, name.seq, anchor->chain_hash, anchor->snapshot_sha256),
                                           *anchor->signature)) {
    return at + ": its anchor is not signed by key " + key->key_id();
  }
  return std::nullopt;
}

}  // namespace koordq::archive
