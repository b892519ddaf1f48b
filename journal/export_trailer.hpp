// The last line of every NDJSON export (behaviour.md §24.4): what the export claims to hold, so
// that `journal verify --export` refuses one trimmed at either end or extended, and — when serve
// had a signing key — one re-chained or forged (the signature covers the trailer's object):
//
//   {"trailer":{"journal":"<uuid>","firstSeq":1,"firstPrevHash":"<hex>","lastSeq":9,"head":"<hex>",
//    "records":9},"signature":"<key id> <base64>"}
//
// firstPrevHash is the prevHash of the first record exported (the genesis hash for seq 1); an
// export of no records has firstSeq 0 and lastSeq 0. Without a key there is no "signature".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

struct ExportTrailer {
  std::string journal_uuid;
  uint64_t first_seq = 0;
  Hash first_prev_hash{};
  uint64_t last_seq = 0;
  Hash head{};
  uint64_t records = 0;
  std::optional<Signature> signature;
};

// The "trailer" object alone: what the signature covers.
std::string render_export_trailer_object(const ExportTrailer& trailer);
// The whole line, without a trailing newline.
std::string render_export_trailer(const ExportTrailer& trailer);
// Signs the trailer with `key`.
void sign_export_trailer(ExportTrailer& trailer, const SigningKey& key);
bool verifies_export_trailer(const ExportTrailer& trailer, const VerifyingKey& key);

bool is_export_trailer_line(std::string_view line);
// The trailer on `line`; an error unless the line is exactly the rendering of what it holds.
Result<ExportTrailer> parse_export_trailer(std::string_view line);

}  // namespace koordq::journal
