#include "journal/export_line.hpp"

#include <simdjson.h>
#include <string.h>

#include "base/base64.hpp"
#include "base/hex.hpp"
#include "base/json_string.hpp"
#include "base/rfc3339.hpp"
#include "journal/capnp_json.hpp"

namespace koordq::journal {
namespace {

// B as the writer produces it: every pointer in bounds, no padding, no far pointers. A record from
// outside must be, before anything reads it deeply (Cap'n Proto checks pointers lazily, on use).
bool is_canonical(const StoredRecord& record) {
  const std::string_view b = record.canonical_bytes();
  const kj::ArrayPtr<const capnp::word> words(reinterpret_cast<const capnp::word*>(b.data()),
                                              b.size() / sizeof(capnp::word));
  const kj::ArrayPtr<const capnp::word> segments[] = {words};
  try {
    capnp::SegmentArrayMessageReader message(segments);
    return message.isCanonical();
  } catch (const kj::Exception&) {
    return false;
  }
}

const CapnpJsonWriter& body_writer() {
  static const CapnpJsonWriter writer(capnp::Schema::from<wire::Record::Body>());
  return writer;
}

}  // namespace

void append_body_json(std::string& out, const StoredRecord& record) {
  const size_t start = out.size();
  try {
    body_writer().append(out, record.reader().getBody());
  } catch (const kj::Exception&) {
    // A body Cap'n Proto refuses to read (a text without its NUL, say): no line of an intact
    // journal or export looks like this, so `journal verify --export` names the line.
    out.resize(start);
    out.append("{\"undecodable\":true}");
  }
}

std::string render_body_json(const StoredRecord& record) {
  std::string json;
  append_body_json(json, record);
  return json;
}

namespace {

// What comes before the record's B: from `{` up to `,"b":`.
void append_export_line_head(std::string& out, const StoredRecord& record) {
  out.append("{\"seq\":").append(std::to_string(record.seq()));
  out.append(",\"time\":");
  base::append_json_string(out, base::format_rfc3339_millis(record.time()));
  out.append(",\"kind\":");
  base::append_json_string(out, kind_name(record.kind()));
  out.append(",\"prevHash\":\"");
  base::append_hex(out, as_bytes(record.prev_hash()));
  out.append("\",\"hash\":\"");
  base::append_hex(out, as_bytes(record.hash()));
  out.append("\",\"body\":");
  append_body_json(out, record);
}

constexpr std::string_view kBMember = ",\"b\":\"";
constexpr std::string_view kLineEnd = "\"}";

}  // namespace

void append_export_line(std::string& out, const StoredRecord& record) {
  append_export_line_head(out, record);
  out.append(kBMember);
  base::append_base64(out, record.canonical_bytes());
  out.append(kLineEnd);
}

std::string render_export_line(const StoredRecord& record) {
  std::string line;
  line.reserve(record.stored_value().size() * 3);
  append_export_line(line, record);
  return line;
}

std::optional<StoredRecord> record_of_rendered_line(std::string_view line) {
  constexpr std::string_view kHash = ",\"hash\":\"";
  constexpr size_t kHashDigits = 64;
  const size_t hash_at = line.find(kHash);
  if (hash_at == std::string_view::npos || !line.ends_with(kLineEnd)) return std::nullopt;
  // Base64 has no '"': the last one before the closing `"}` opens the value of "b".
  const void* quote = ::memrchr(line.data(), '"', line.size() - kLineEnd.size());
  if (quote == nullptr) return std::nullopt;
  const size_t value_at = static_cast<size_t>(static_cast<const char*>(quote) - line.data()) + 1;
  if (value_at < kBMember.size() || line.substr(value_at - kBMember.size(), kBMember.size()) != kBMember) {
    return std::nullopt;
  }
  const size_t b_at = value_at - kBMember.size();
  if (hash_at + kHash.size() + kHashDigits > b_at) return std::nullopt;
  Hash hash{};
  if (!from_hex(line.substr(hash_at + kHash.size(), kHashDigits), hash)) return std::nullopt;
  // base64_decode takes only the text base64_encode writes for the bytes: the rendering's "b".
  const size_t b_start = b_at + kBMember.size();
  auto bytes = base::base64_decode(line.substr(b_start, line.size() - kLineEnd.size() - b_start));
  if (!bytes) return std::nullopt;
  bytes->append(as_bytes(hash));
  auto record = StoredRecord::parse(*bytes);
  // parse_export_line's simdjson refuses a line that is not UTF-8; so does this path.
  if (!record.ok() || !is_canonical(*record) || !simdjson::validate_utf8(line.data(), line.size())) {
    return std::nullopt;
  }
  thread_local std::string head;
  head.clear();
  append_export_line_head(head, *record);
  if (line.substr(0, b_at) != head) return std::nullopt;
  return std::move(record).value();
}

Result<StoredRecord> parse_export_line(std::string_view line, uint64_t* claimed_seq) {
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(line);
  simdjson::dom::element doc;
  if (auto err = parser.parse(padded).get(doc); err) {
    return make_error(std::string("not a JSON object: ") + simdjson::error_message(err));
  }
  if (claimed_seq != nullptr && doc["seq"].get(*claimed_seq) != simdjson::SUCCESS) *claimed_seq = 0;
  std::string_view b64, hash_hex;
  if (doc["b"].get(b64) != simdjson::SUCCESS) return make_error("missing string member \"b\" (the canonical bytes)");
  if (doc["hash"].get(hash_hex) != simdjson::SUCCESS) return make_error("missing string member \"hash\"");
  auto bytes = base::base64_decode(b64);
  if (!bytes) return make_error("member \"b\" is not valid base64");
  Hash hash{};
  if (!from_hex(hash_hex, hash)) return make_error("member \"hash\" is not 64 lowercase hex digits");
  bytes->append(as_bytes(hash));
  auto record = StoredRecord::parse(*bytes);
  if (record.ok() && !is_canonical(*record)) {
    return make_error("member \"b\" is not a record's canonical Cap'n Proto encoding");
  }
  return record;
}

}  // namespace koordq::journal
