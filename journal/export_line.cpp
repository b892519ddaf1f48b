#include "journal/export_line.hpp"

#include <simdjson.h>

#include "base/base64.hpp"
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

void append_export_line(std::string& out, const StoredRecord& record) {
  out.append("{\"seq\":").append(std::to_string(record.seq()));
  out.append(",\"time\":");
  base::append_json_string(out, base::format_rfc3339_millis(record.time()));
  out.append(",\"kind\":");
  base::append_json_string(out, kind_name(record.kind()));
  out.append(",\"prevHash\":");
  base::append_json_string(out, to_hex(record.prev_hash()));
  out.append(",\"hash\":");
  base::append_json_string(out, to_hex(record.hash()));
  out.append(",\"body\":");
  append_body_json(out, record);
  out.append(",\"b\":");
  base::append_json_string(out, base::base64_encode(record.canonical_bytes()));
  out.push_back('}');
}

std::string render_export_line(const StoredRecord& record) {
  std::string line;
  line.reserve(record.stored_value().size() * 3);
  append_export_line(line, record);
  return line;
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
