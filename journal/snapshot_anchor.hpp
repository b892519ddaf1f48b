// A snapshot's anchor in the chain: kept as the value of its key in the snapshot index (keys.hpp),
// "<chain hash of its seq hex> <SHA-256 of the snapshot hex>", with a second line
// "signature <key id> <base64>" when serve has a signing key. A snapshot whose bytes or seq do not
// match its anchor was edited; readers refuse it (and fall back to an older one or the records),
// `journal verify` reports it. Snapshots written before anchors have an empty index value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

class JournalReader;

struct SnapshotAnchor {
  Hash chain_hash{};
  Hash snapshot_sha256{};
  std::optional<Signature> signature;
};

std::string render_snapshot_anchor(const SnapshotAnchor& anchor);
std::optional<SnapshotAnchor> parse_snapshot_anchor(std::string_view text);
SnapshotAnchor make_snapshot_anchor(std::string_view uuid, uint64_t seq, const Hash& chain_hash,
                                    std::string_view snapshot, const SigningKey* key);

// The reason the snapshot at `seq` does not match its anchor (std::nullopt when it does, or when it
// has none and `key` is null). With `key`, the anchor must carry its signature.
std::optional<std::string> snapshot_anchor_mismatch(JournalReader& reader, uint64_t seq, std::string_view snapshot,
                                                    const VerifyingKey* key);

}  // namespace koordq::journal
