#include "schema/json_decode_context.hpp"

#include <limits>

#include "base/rfc3339.hpp"
#include "schema/json_dom_writer.hpp"
#include "schema/quantity.hpp"

namespace koordq::schema::json_detail {
namespace {

using simdjson::dom::element_type;

constexpr size_t kQuotedPrefixBytes = 64;
constexpr int64_t kNanosPerSecond = 1'000'000'000;

// The longest prefix of at most `max_bytes` that does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

std::string json_quoted(std::string_view text) {
  std::string out;
  append_json_string(text, out);
  return out;
}

std::string string_too_long(size_t max_bytes, size_t size) {
  return "expected at most " + std::to_string(max_bytes) + " bytes, got " + std::to_string(size) + " bytes";
}

}  // namespace

void JsonPath::render_into(std::string& out) const {
  if (parent_ != nullptr) parent_->render_into(out);
  switch (kind_) {
    case Kind::kRoot:
      return;
    case Kind::kField:
      if (!out.empty()) out += '.';
      out.append(name_);
      return;
    case Kind::kIndex:
      out += '[';
      out += std::to_string(index_);
      out += ']';
      return;
    case Kind::kEntry:
      out += '[';
      out += quote(name_);
      out += ']';
      return;
  }
}

std::string JsonPath::render() const {
  std::string out;
  render_into(out);
  return out;
}

bool DecodeContext::fail(const JsonPath& at, std::string_view what) {
  if (error_.empty()) {
    std::string path = at.render();
    error_ = path.empty() ? std::string(what) : path + ": " + std::string(what);
  }
  return false;
}

void DecodeContext::warn(const JsonPath& at, std::string_view what) {
  if (warnings_ == nullptr) return;
  std::string path = at.render();
  warnings_->push_back(path.empty() ? std::string(what) : path + ": " + std::string(what));
}

std::string quote(std::string_view text) {
  std::string_view shown = utf8_prefix(text, kQuotedPrefixBytes);
  if (shown.size() == text.size()) return json_quoted(text);
  return json_quoted(std::string(shown) + "…") + " (" + std::to_string(text.size()) + " bytes)";
}

std::string describe(element value) {
  switch (value.type()) {
    case element_type::OBJECT:
      return "an object";
    case element_type::ARRAY:
      return "an array";
    case element_type::STRING:
      return quote(value.get_string().value_unsafe());
    default:
      return compact_json(value);
  }
}

bool expect_object(DecodeContext& ctx, const JsonPath& at, element value, simdjson::dom::object& out) {
  if (value.get_object().get(out) != simdjson::SUCCESS) {
    return ctx.fail(at, "expected an object, got " + describe(value));
  }
  return true;
}

bool expect_array(DecodeContext& ctx, const JsonPath& at, element value, simdjson::dom::array& out) {
  if (value.get_array().get(out) != simdjson::SUCCESS) {
    return ctx.fail(at, "expected an array, got " + describe(value));
  }
  return true;
}

bool read_string(DecodeContext& ctx, const JsonPath& at, element value, size_t max_bytes, std::string& out) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) {
    return ctx.fail(at, "expected a string, got " + describe(value));
  }
  if (text.size() > max_bytes) return ctx.fail(at, string_too_long(max_bytes, text.size()));
  out.assign(text);
  return true;
}

bool read_text(DecodeContext& ctx, const JsonPath& at, element value, std::string& out) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) {
    return ctx.fail(at, "expected a string, got " + describe(value));
  }
  std::string_view kept = utf8_prefix(text, kMaxTextBytes);
  if (kept.size() < text.size()) {
    ctx.warn(at, "truncated from " + std::to_string(text.size()) + " to " + std::to_string(kept.size()) + " bytes");
  }
  out.assign(kept);
  return true;
}

bool read_bool(DecodeContext& ctx, const JsonPath& at, element value, bool& out) {
  if (value.get_bool().get(out) != simdjson::SUCCESS) {
    return ctx.fail(at, "expected true or false, got " + describe(value));
  }
  return true;
}

bool read_int32(DecodeContext& ctx, const JsonPath& at, element value, int32_t& out) {
  int64_t number = 0;
  if (value.type() != element_type::INT64 || value.get_int64().get(number) != simdjson::SUCCESS ||
      number < std::numeric_limits<int32_t>::min() || number > std::numeric_limits<int32_t>::max()) {
    return ctx.fail(at, "expected an integer from -2147483648 to 2147483647, got " + describe(value));
  }
  out = static_cast<int32_t>(number);
  return true;
}

bool read_count(DecodeContext& ctx, const JsonPath& at, element value, int64_t& out) {
  if (value.type() != element_type::INT64 || value.get_int64().get(out) != simdjson::SUCCESS || out < 0) {
    return ctx.fail(at, "expected a non-negative integer, got " + describe(value));
  }
  return true;
}

bool read_time(DecodeContext& ctx, const JsonPath& at, element value, std::optional<UnixNanos>& out) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) {
    return ctx.fail(at, "expected an RFC 3339 time, got " + describe(value));
  }
  Result<int64_t> nanos = base::parse_rfc3339(text);
  if (!nanos.ok()) return ctx.fail(at, "expected an RFC 3339 time, got " + describe(value));
  // Kubernetes object times have whole seconds; truncating keeps the model equal to its encoding.
  int64_t remainder = *nanos % kNanosPerSecond;
  out = *nanos - remainder - (remainder < 0 ? kNanosPerSecond : 0);
  return true;
}

bool read_string_map(DecodeContext& ctx, const JsonPath& at, element value, size_t max_value_bytes, StringMap& out) {
  simdjson::dom::object map;
  if (!expect_object(ctx, at, value, map)) return false;
  StringMap::sequence_type entries;
  entries.reserve(map.size());
  for (simdjson::dom::key_value_pair entry : map) {
    if (entry.value.is_null()) continue;
    const JsonPath entry_path = at.entry(entry.key);
    if (entry.key.size() > kMaxQualifiedNameBytes) {
      return ctx.fail(entry_path, "key is too long: " + string_too_long(kMaxQualifiedNameBytes, entry.key.size()));
    }
    std::string text;
    if (!read_string(ctx, entry_path, entry.value, max_value_bytes, text)) return false;
    entries.emplace_back(std::string(entry.key), std::move(text));
  }
  adopt_entries(out, std::move(entries), DuplicateKeys::kLastWins);
  return true;
}

bool read_labels(DecodeContext& ctx, const JsonPath& at, element value, StringMap& out) {
  return read_string_map(ctx, at, value, kMaxLabelValueBytes, out);
}

bool read_annotations(DecodeContext& ctx, const JsonPath& at, element value, StringMap& out) {
  if (!read_string_map(ctx, at, value, kMaxAnnotationsBytes, out)) return false;
  size_t total = 0;
  for (const auto& [key, text] : out) total += key.size() + text.size();
  if (total > kMaxAnnotationsBytes) {
    return ctx.fail(at, "expected at most " + std::to_string(kMaxAnnotationsBytes) + " bytes of keys and values, got " +
                            std::to_string(total) + " bytes");
  }
  return true;
}

bool is_plain_quantity(std::string_view text) {
  auto digits_from = [text](size_t i) {
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i;
  };
  size_t end = digits_from(0);
  if (end == 0) return false;
  if (end < text.size() && text[end] == '.') {
    size_t fraction_end = digits_from(end + 1);
    if (fraction_end == end + 1) return false;
    end = fraction_end;
  }
  std::string_view suffix = text.substr(end);
  if (suffix.size() == 2)
    return suffix[1] == 'i' && std::string_view("KMGTPE").find(suffix[0]) != std::string_view::npos;
  return suffix.empty() ||
         (suffix.size() == 1 && std::string_view("mkMGTPE").find(suffix[0]) != std::string_view::npos);
}

bool read_resource_list(DecodeContext& ctx, const JsonPath& at, element value, ResourceList& out) {
  simdjson::dom::object map;
  if (!expect_object(ctx, at, value, map)) return false;
  ResourceList::sequence_type entries;
  entries.reserve(map.size());
  for (simdjson::dom::key_value_pair entry : map) {
    if (entry.value.is_null()) continue;
    const JsonPath entry_path = at.entry(entry.key);
    if (entry.key.size() > kMaxQualifiedNameBytes) {
      return ctx.fail(entry_path, "key is too long: " + string_too_long(kMaxQualifiedNameBytes, entry.key.size()));
    }
    // Every entry is kept as written, also one that is no valid quantity: the decision logic
    // refuses to admit a unit whose quantities do not parse (behaviour.md §3.1), which it could
    // not if the entry were dropped here (a dropped entry charges nothing).
    std::string_view text;
    std::string converted;
    if (entry.value.get_string().get(text) != simdjson::SUCCESS) {
      converted = compact_json(entry.value);  // a JSON number is the quantity it spells
      text = converted;
      if (!entry.value.is_number()) ctx.warn(entry_path, "expected a quantity string, got " + describe(entry.value));
    }
    if (text.size() > kMaxQuantityBytes) {
      ctx.warn(entry_path, "quantity " + quote(text) + " is too long");
      converted = std::string(text.substr(0, kMaxQuantityBytes)) + "...";
      text = converted;
    } else if (!is_plain_quantity(text)) {
      Result<Quantity> quantity = Quantity::parse(text);
      if (!quantity.ok()) {
        ctx.warn(entry_path, "quantity " + quote(text) + " does not parse");
      } else if (quantity->negative() && !quantity->is_zero()) {
        ctx.warn(entry_path, "negative quantity " + quote(text));
      }
    }
    entries.emplace_back(std::string(entry.key), std::string(text));
  }
  adopt_entries(out, std::move(entries), DuplicateKeys::kLastWins);
  return true;
}

bool read_json_array_text(DecodeContext& ctx, const JsonPath& at, element value, std::string& out) {
  if (value.type() != element_type::ARRAY) return ctx.fail(at, "expected an array, got " + describe(value));
  out = compact_json(value);
  return true;
}

}  // namespace koordq::schema::json_detail
