#include "journal/snapshot_anchor.hpp"

#include "journal/journal_reader.hpp"
#include "journal/keys.hpp"
#include "journal/retention_cut.hpp"
#include "journal/signed_statements.hpp"

namespace koordq::journal {
namespace {

constexpr std::string_view kAnchorSignaturePrefix = "\nsignature ";

// The hash of record `seq`: from the log, or, for the snapshot at the retention cut, from the cut.
std::optional<Hash> chain_hash_at(JournalReader& reader, uint64_t seq) {
  auto rec = reader.get(seq);
  if (rec.ok() && rec->has_value()) return (*rec)->hash();
  auto cut_text = reader.meta(kMetaRetentionCut);
  if (!cut_text.ok() || !cut_text->has_value()) return std::nullopt;
  auto cut = parse_retention_cut(**cut_text);
  if (!cut || cut->first_seq != seq + 1) return std::nullopt;
  return cut->prev_hash;
}

}  // namespace

std::string render_snapshot_anchor(const SnapshotAnchor& anchor) {
  std::string out = to_hex(anchor.chain_hash) + " " + to_hex(anchor.snapshot_sha256);
  if (anchor.signature) out.append(kAnchorSignaturePrefix).append(render_signature(*anchor.signature));
  return out;
}

std::optional<SnapshotAnchor> parse_snapshot_anchor(std::string_view text) {
  SnapshotAnchor anchor;
  const auto newline = text.find('\n');
  const std::string_view fields = text.substr(0, newline);
  if (newline != std::string_view::npos) {
    if (!text.substr(newline).starts_with(kAnchorSignaturePrefix)) return std::nullopt;
    anchor.signature = parse_signature(text.substr(newline + kAnchorSignaturePrefix.size()));
    if (!anchor.signature) return std::nullopt;
  }
  if (fields.size() != 129 || fields[64] != ' ' || !from_hex(fields.substr(0, 64), anchor.chain_hash) ||
      !from_hex(fields.substr(65), anchor.snapshot_sha256)) {
    return std::nullopt;
  }
  return anchor;
}

SnapshotAnchor make_snapshot_anchor(std::string_view uuid, uint64_t seq, const Hash& chain_hash,
                                    std::string_view snapshot, const SigningKey* key) {
  SnapshotAnchor anchor{chain_hash, sha256(snapshot), std::nullopt};
  if (key != nullptr) {
    anchor.signature = key->sign(snapshot_anchor_statement(uuid, seq, chain_hash, anchor.snapshot_sha256));
  }
  return anchor;
}

std::optional<std::string> snapshot_anchor_mismatch(JournalReader& reader, uint64_t seq, std::string_view snapshot,
                                                    const VerifyingKey* key) {
  const std::string at = "the snapshot at seq " + std::to_string(seq);
  auto text = reader.meta(snapshot_index_key(seq));
  if (!text.ok()) return at + ": " + text.message();
  if (!text->has_value() || (*text)->empty()) {
    if (key == nullptr) return std::nullopt;
    return at +
           " has no signed anchor, but --public-key was given: it was written by a koordq before anchors, or "
           "its anchor was removed";
  }
  auto anchor = parse_snapshot_anchor(**text);
  if (!anchor) return at + " has a malformed anchor in the snapshot index: it was edited";
  if (sha256(snapshot) != anchor->snapshot_sha256) {
    return at + " is not the snapshot its anchor names (SHA-256 differs): it was edited";
  }
  const auto chain_hash = chain_hash_at(reader, seq);
  if (chain_hash && *chain_hash != anchor->chain_hash) {
    return at + " is anchored to chain hash " + to_hex(anchor->chain_hash) + " but seq " + std::to_string(seq) +
           " has " + to_hex(*chain_hash) + ": it belongs to another history";
  }
  if (key == nullptr) return std::nullopt;
  auto uuid = reader.uuid();
  if (!uuid.ok()) return at + ": " + uuid.message();
  if (!anchor->signature ||
      !key->verifies(snapshot_anchor_statement(*uuid, seq, anchor->chain_hash, anchor->snapshot_sha256),
                     *anchor->signature)) {
    return at + "'s anchor is not signed by key " + key->key_id() + ": it was rewritten";
  }
  return std::nullopt;
}

}  // namespace koordq::journal
