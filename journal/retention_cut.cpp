#include "journal/retention_cut.hpp"

#include "journal/signed_statements.hpp"

namespace koordq::journal {
namespace {

constexpr std::string_view kCutSignaturePrefix = "\nsignature ";

std::optional<uint64_t> parse_cut_seq(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

}  // namespace

std::string render_retention_cut(const RetentionCut& cut) {
  std::string out = std::to_string(cut.first_seq) + " " + to_hex(cut.prev_hash);
  if (cut.signature) out.append(kCutSignaturePrefix).append(render_signature(*cut.signature));
  return out;
}

std::optional<RetentionCut> parse_retention_cut(std::string_view text) {
  RetentionCut cut;
  const auto newline = text.find('\n');
  std::string_view fields = text.substr(0, newline);
  if (newline != std::string_view::npos) {
    if (!text.substr(newline).starts_with(kCutSignaturePrefix)) return std::nullopt;
    cut.signature = parse_signature(text.substr(newline + kCutSignaturePrefix.size()));
    if (!cut.signature) return std::nullopt;
  }
  const auto space = fields.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto seq = parse_cut_seq(fields.substr(0, space));
  if (!seq || !from_hex(fields.substr(space + 1), cut.prev_hash)) return std::nullopt;
  cut.first_seq = *seq;
  return cut;
}

RetentionCut make_retention_cut(std::string_view uuid, uint64_t first_seq, const Hash& prev_hash,
                                const SigningKey* key) {
  RetentionCut cut{first_seq, prev_hash, std::nullopt};
  if (key != nullptr) cut.signature = key->sign(retention_cut_statement(uuid, first_seq, prev_hash));
  return cut;
}

RetainedStart retained_chain_start(JournalReader& reader, std::string_view uuid, const VerifyingKey* key) {
  RetainedStart out;
  out.start = ChainHead{0, genesis_hash(uuid)};
  const uint64_t first = reader.first_seq();
  auto fail = [&](uint64_t seq, std::string reason) {
    out.broken = ChainBreak{seq, std::move(reason)};
    return out;
  };
  auto cut_text = reader.meta(kMetaRetentionCut);
  if (!cut_text.ok()) return fail(first, cut_text.message());
  auto legacy_text = reader.meta(kMetaFirstSeq);
  if (!legacy_text.ok()) return fail(first, legacy_text.message());
  if (first <= 1 && !cut_text->has_value()) return out;

  std::optional<RetentionCut> cut;
  if (cut_text->has_value()) {
    cut = parse_retention_cut(**cut_text);
    if (!cut) {
      return fail(first, "the retention cut in the journal's meta is malformed (\"" + (**cut_text).substr(0, 120) +
                             "\"): it was edited");
    }
  } else {
    const auto legacy = legacy_text->has_value() ? parse_cut_seq(**legacy_text) : std::nullopt;
    if (!legacy) {
      return fail(1, "seq 1.." + std::to_string(first - 1) +
                         " are missing and no retention cut was recorded: the oldest records were deleted");
    }
    if (*legacy != first) {
      return fail(*legacy, "the retention cut (meta first_seq) says the log starts at seq " + std::to_string(*legacy) +
                               " but it starts at seq " + std::to_string(first) +
                               ": the oldest retained records were deleted");
    }
    auto rec = reader.get(first);
    if (!rec.ok()) return fail(first, rec.message());
    if (!rec->has_value()) return fail(first, "seq " + std::to_string(first) + " is missing");
    if (key != nullptr) {
      return fail(first, "the retention cut at seq " + std::to_string(first) +
                             " was recorded without its prevHash or a signature (by an older koordq); start serve "
                             "once with the signing key to record it, or verify without --public-key");
    }
    out.start = ChainHead{first - 1, (*rec)->prev_hash()};
    out.legacy_cut = true;
    return out;
  }
  if (first == 0 && cut->first_seq > 0) {
    return fail(cut->first_seq, "the retention cut says the log starts at seq " + std::to_string(cut->first_seq) +
                                    " but the log is empty: the retained records were deleted");
  }
  if (first != cut->first_seq) {
    const uint64_t missing = std::min(first, cut->first_seq);
    return fail(missing, "the retention cut says the log starts at seq " + std::to_string(cut->first_seq) +
                             " but it starts at seq " + std::to_string(first) +
                             (first > cut->first_seq ? ": the oldest retained records were deleted"
                                                     : ": the cut or the log was rewritten"));
  }
  if (key != nullptr) {
    const std::string statement = retention_cut_statement(uuid, cut->first_seq, cut->prev_hash);
    if (!cut->signature) {
      return fail(first, "the retention cut at seq " + std::to_string(first) + " is not signed, but --public-key " +
                             "was given: it was rewritten, or cut by a serve without the signing key");
    }
    if (!key->verifies(statement, *cut->signature)) {
      return fail(first, "the retention cut at seq " + std::to_string(first) + " is not signed by key " +
                             key->key_id() + " (its signature names key " + cut->signature->key_id +
                             "): it was rewritten");
    }
  }
  auto rec = reader.get(first);
  if (!rec.ok()) return fail(first, rec.message());
  if (rec->has_value() && (*rec)->prev_hash() != cut->prev_hash) {
    return fail(first, "seq " + std::to_string(first) + " has prevHash " + to_hex((*rec)->prev_hash()) +
                           " but the retention cut recorded " + to_hex(cut->prev_hash) +
                           ": the oldest retained records were replaced");
  }
  out.start = ChainHead{first - 1, cut->prev_hash};
  return out;
}

}  // namespace koordq::journal
