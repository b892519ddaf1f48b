#include "journal/export_trailer.hpp"

#include <cstdio>

#include <simdjson.h>

#include "base/json_string.hpp"
#include "journal/signed_statements.hpp"

namespace koordq::journal {
namespace {

constexpr std::string_view kTrailerStart = "{\"trailer\":";

}  // namespace

std::string render_export_trailer_object(const ExportTrailer& t) {
  std::string out = "{\"journal\":";
  base::append_json_string(out, t.journal_uuid);
  out.append(",\"firstSeq\":").append(std::to_string(t.first_seq));
  out.append(",\"firstPrevHash\":\"").append(to_hex(t.first_prev_hash)).append("\"");
  out.append(",\"lastSeq\":").append(std::to_string(t.last_seq));
  out.append(",\"head\":\"").append(to_hex(t.head)).append("\"");
  out.append(",\"records\":").append(std::to_string(t.records)).append("}");
  return out;
}

std::string render_export_trailer(const ExportTrailer& t) {
  std::string out(kTrailerStart);
  out.append(render_export_trailer_object(t));
  if (t.signature) {
    out.append(",\"signature\":");
    base::append_json_string(out, render_signature(*t.signature));
  }
  out.push_back('}');
  return out;
}

void sign_export_trailer(ExportTrailer& trailer, const SigningKey& key) {
  trailer.signature = key.sign(export_trailer_statement(render_export_trailer_object(trailer)));
}

bool verifies_export_trailer(const ExportTrailer& trailer, const VerifyingKey& key) {
  return trailer.signature &&
         key.verifies(export_trailer_statement(render_export_trailer_object(trailer)), *trailer.signature);
}

bool is_export_trailer_line(std::string_view line) {
  return line.starts_with(kTrailerStart);
}

Result<ExportTrailer> parse_export_trailer(std::string_view line) {
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(line);
  simdjson::dom::element doc;
  if (auto err = parser.parse(padded).get(doc); err) {
    return make_error(std::string("the trailer is not a JSON object: ") + simdjson::error_message(err));
  }
  ExportTrailer t;
  std::string_view uuid, first_prev, head, signature;
  simdjson::dom::element fields;
  if (doc["trailer"].get(fields) != simdjson::SUCCESS || fields["journal"].get(uuid) != simdjson::SUCCESS ||
      fields["firstSeq"].get(t.first_seq) != simdjson::SUCCESS ||
      fields["firstPrevHash"].get(first_prev) != simdjson::SUCCESS ||
      fields["lastSeq"].get(t.last_seq) != simdjson::SUCCESS || fields["head"].get(head) != simdjson::SUCCESS ||
      fields["records"].get(t.records) != simdjson::SUCCESS) {
    return make_error("the trailer lacks one of journal, firstSeq, firstPrevHash, lastSeq, head, records");
  }
  t.journal_uuid = std::string(uuid);
  if (!from_hex(first_prev, t.first_prev_hash) || !from_hex(head, t.head)) {
    return make_error("the trailer's hashes are not 64 lowercase hex digits");
  }
  if (doc["signature"].get(signature) == simdjson::SUCCESS) {
    t.signature = parse_signature(signature);
    if (!t.signature) return make_error("the trailer's signature is not \"<key id> <base64>\"");
  }
  if (render_export_trailer(t) != line) return make_error("the trailer is not the rendering of its fields (edited)");
  return t;
}

}  // namespace koordq::journal
