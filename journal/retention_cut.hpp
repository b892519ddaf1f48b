// The retention cut (retention.hpp): where the log starts after old records were dropped, kept in
// the journal's meta as "<first retained seq> <its prevHash hex>", with a second line
// "signature <key id> <base64>" when serve has a signing key. Verification anchors the first
// retained record to the cut, so deleting the oldest records behind retention's back is caught.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "journal/chain_check.hpp"
#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

inline constexpr char kMetaRetentionCut[] = "retention_cut";

struct RetentionCut {
  uint64_t first_seq = 0;
  Hash prev_hash{};
  std::optional<Signature> signature;
};

std::string render_retention_cut(const RetentionCut& cut);
std::optional<RetentionCut> parse_retention_cut(std::string_view text);
RetentionCut make_retention_cut(std::string_view uuid, uint64_t first_seq, const Hash& prev_hash,
                                const SigningKey* key);

// Where the chain of the retained log starts: seq 0 and the genesis hash, or the seq before the
// first retained record and the prevHash its cut recorded. A break when the log starts elsewhere
// than its cut says (or starts after seq 1 with no cut), when the first record does not carry the
// cut's prevHash, or, with `key`, when the cut is not signed by it.
struct RetainedStart {
  ChainHead start;
  std::optional<ChainBreak> broken;
  bool legacy_cut = false;  // cut by a koordq that recorded only the seq (meta "first_seq")
};
RetainedStart retained_chain_start(JournalReader& reader, std::string_view uuid, const VerifyingKey* key);

}  // namespace koordq::journal
