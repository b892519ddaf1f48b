#include "journal/signed_statements.hpp"

namespace koordq::journal {
namespace {

std::string signed_statement(std::string_view kind, std::string_view uuid, std::string_view fields) {
  std::string out;
  out.reserve(kind.size() + uuid.size() + fields.size() + 2);
  out.append(kind).append("\n").append(uuid).append("\n").append(fields);
  return out;
}

}  // namespace

std::string head_statement(std::string_view uuid, uint64_t seq, const Hash& hash) {
  return signed_statement("koordq HEAD", uuid, std::to_string(seq) + " " + to_hex(hash));
}

std::string retention_cut_statement(std::string_view uuid, uint64_t first_seq, const Hash& prev_hash) {
  return signed_statement("koordq retention cut", uuid, std::to_string(first_seq) + " " + to_hex(prev_hash));
}

std::string snapshot_anchor_statement(std::string_view uuid, uint64_t seq, const Hash& chain_hash,
                                      const Hash& snapshot_sha256) {
  return signed_statement("koordq snapshot", uuid,
                          std::to_string(seq) + " " + to_hex(chain_hash) + " " + to_hex(snapshot_sha256));
}

std::string export_trailer_statement(std::string_view trailer_json) {
  return "koordq export trailer\n" + std::string(trailer_json);
}

std::string render_signature(const Signature& signature) {
  return signature.key_id + " " + signature.base64;
}

std::optional<Signature> parse_signature(std::string_view text) {
  const auto space = text.find(' ');
  if (space != 16 || text.size() <= space + 1) return std::nullopt;
  Signature out{std::string(text.substr(0, space)), std::string(text.substr(space + 1))};
  for (char c : out.key_id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  if (out.base64.find(' ') != std::string::npos) return std::nullopt;
  return out;
}

}  // namespace koordq::journal
