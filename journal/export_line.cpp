#include "journal/export_line.hpp"

#include <capnp/compat/json.h>
#include <simdjson.h>

#include "base/base64.hpp"
#include "base/json_string.hpp"
#include "base/rfc3339.hpp"

namespace koordq::journal {
namespace {

// Data fields (hashes) render as lowercase hex instead of arrays of numbers.
class HexDataHandler final : public capnp::JsonCodec::Handler<capnp::Data> {
 public:
  void encode(const capnp::JsonCodec&, capnp::Data::Reader input, capnp::JsonValue::Builder output) const override {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex(input.size() * 2, '0');
    for (size_t i = 0; i < input.size(); ++i) {
      hex[2 * i] = kDigits[input[i] >> 4];
      hex[2 * i + 1] = kDigits[input[i] & 0xf];
    }
    output.setString(hex);
  }
  capnp::Orphan<capnp::Data> decode(const capnp::JsonCodec&, capnp::JsonValue::Reader,
                                    capnp::Orphanage) const override {
    KJ_UNIMPLEMENTED("export lines are decoded from their canonical bytes, not from JSON");
  }
};

struct BodyCodec {
  BodyCodec() {
    codec.setPrettyPrint(false);
    codec.addTypeHandler(hex);
  }
  HexDataHandler hex;
  capnp::JsonCodec codec;
};

const capnp::JsonCodec& codec() {
  static const BodyCodec instance;
  return instance.codec;
}

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

}  // namespace

std::string render_body_json(const StoredRecord& record) {
  try {
    const kj::String json = codec().encode(record.reader().getBody());
    return std::string(json.cStr(), json.size());
  } catch (const kj::Exception&) {
    // A body Cap'n Proto refuses to read (a text without its NUL, say): no line of an intact
    // journal or export looks like this, so `journal verify --export` names the line.
    return "{\"undecodable\":true}";
  }
}

std::string render_export_line(const StoredRecord& record) {
  std::string line;
  line.reserve(record.stored_value().size() * 3);
  line.append("{\"seq\":").append(std::to_string(record.seq()));
  line.append(",\"time\":");
  base::append_json_string(line, base::format_rfc3339_millis(record.time()));
  line.append(",\"kind\":");
  base::append_json_string(line, kind_name(record.kind()));
  line.append(",\"prevHash\":");
  base::append_json_string(line, to_hex(record.prev_hash()));
  line.append(",\"hash\":");
  base::append_json_string(line, to_hex(record.hash()));
  line.append(",\"body\":").append(render_body_json(record));
  line.append(",\"b\":");
  base::append_json_string(line, base::base64_encode(record.canonical_bytes()));
  line.push_back('}');
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
