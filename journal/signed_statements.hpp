// What the journal's signing key signs (signing_key.hpp), one statement per kind of anchor, each
// naming its kind and the journal's UUID so that no signature can stand for another statement:
//   HEAD              "koordq HEAD\n<uuid>\n<seq> <hash hex>"
//   retention cut     "koordq retention cut\n<uuid>\n<first retained seq> <its prevHash hex>"
//   snapshot anchor   "koordq snapshot\n<uuid>\n<seq> <chain hash hex> <SHA-256 of the snapshot hex>"
//   export trailer    "koordq export trailer\n<the trailer's JSON object>"
// A signature is stored as "<key id> <base64>" beside the statement's fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

std::string head_statement(std::string_view uuid, uint64_t seq, const Hash& hash);
std::string retention_cut_statement(std::string_view uuid, uint64_t first_seq, const Hash& prev_hash);
std::string snapshot_anchor_statement(std::string_view uuid, uint64_t seq, const Hash& chain_hash,
                                      const Hash& snapshot_sha256);
std::string export_trailer_statement(std::string_view trailer_json);

std::string render_signature(const Signature& signature);
// std::nullopt unless `text` is "<16 hex digits> <base64>".
std::optional<Signature> parse_signature(std::string_view text);

}  // namespace koordq::journal
