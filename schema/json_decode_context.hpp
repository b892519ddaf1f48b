// Internal to koordq_json: what the per-kind decoders share — where in the document decoding
// is (rendered only for messages), the first error, the warnings, and readers that check one
// value and name its path and the offending value when it is wrong. Each reader returns false
// after recording an error; a null value never reaches them (callers treat it as absent).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "schema/object_meta.hpp"
#include "schema/resource_list.hpp"

namespace koordq::schema::json_detail {

using simdjson::dom::element;

// Field caps. Identifiers beyond them are errors; free text beyond kMaxTextBytes is truncated.
inline constexpr size_t kMaxNameBytes = 253;                // DNS subdomain: names, namespaces, uids, phases
inline constexpr size_t kMaxQualifiedNameBytes = 317;       // <253-byte prefix>/<63-byte name>: keys, resources
inline constexpr size_t kMaxLabelValueBytes = 4096;         // the API server allows 63; far beyond is not a label
inline constexpr size_t kMaxAnnotationsBytes = 256 * 1024;  // the API server's cap on keys + values
inline constexpr size_t kMaxTextBytes = 32 * 1024;          // messages (kueue's cap for check messages)
inline constexpr size_t kMaxQuantityBytes = 128;

// A position in the document. Built on the stack while descending: a child refers to its parent,
// so it must not outlive it.
class JsonPath {
 public:
  JsonPath() = default;  // the document root

  JsonPath field(std::string_view name) const { return JsonPath(this, Kind::kField, name, 0); }
  JsonPath index(size_t i) const { return JsonPath(this, Kind::kIndex, {}, i); }
  JsonPath entry(std::string_view key) const { return JsonPath(this, Kind::kEntry, key, 0); }

  // `spec.podSet[1].template.spec.containers[0].resources.requests["nvidia.com/gpu"]`
  std::string render() const;

 private:
  enum class Kind { kRoot, kField, kIndex, kEntry };
  JsonPath(const JsonPath* parent, Kind kind, std::string_view name, size_t index)
      : parent_(parent), kind_(kind), name_(name), index_(index) {}
  void render_into(std::string& out) const;

  const JsonPath* parent_ = nullptr;
  Kind kind_ = Kind::kRoot;
  std::string_view name_;
  size_t index_ = 0;
};

class DecodeContext {
 public:
  DecodeContext() = default;  // warnings are dropped
  explicit DecodeContext(std::vector<std::string>& warnings) : warnings_(&warnings) {}

  // Records `<path>: <what>` as the error unless one is already recorded; returns false.
  bool fail(const JsonPath& at, std::string_view what);
  void warn(const JsonPath& at, std::string_view what);
  const std::string& error() const { return error_; }

 private:
  std::string error_;
  std::vector<std::string>* warnings_ = nullptr;
};

// `-3`, `"high"`, `1.5`, `true`, `an object`; long strings shortened with their size.
std::string describe(element value);
// A string for a message: JSON-quoted, shortened past 64 bytes.
std::string quote(std::string_view text);

bool expect_object(DecodeContext& ctx, const JsonPath& at, element value, simdjson::dom::object& out);
bool expect_array(DecodeContext& ctx, const JsonPath& at, element value, simdjson::dom::array& out);

bool read_string(DecodeContext& ctx, const JsonPath& at, element value, size_t max_bytes, std::string& out);
bool read_text(DecodeContext& ctx, const JsonPath& at, element value, std::string& out);
bool read_bool(DecodeContext& ctx, const JsonPath& at, element value, bool& out);
bool read_int32(DecodeContext& ctx, const JsonPath& at, element value, int32_t& out);
bool read_count(DecodeContext& ctx, const JsonPath& at, element value, int64_t& out);  // non-negative int64
bool read_time(DecodeContext& ctx, const JsonPath& at, element value, std::optional<UnixNanos>& out);

template <class T>
bool read_optional(bool (*reader)(DecodeContext&, const JsonPath&, element, T&), DecodeContext& ctx, const JsonPath& at,
                   element value, std::optional<T>& out) {
  T parsed{};
  if (!reader(ctx, at, value, parsed)) return false;
  out = parsed;
  return true;
}

// A JSON array into a vector; a null element decodes as a default T (as Go decodes it).
template <class T, class DecodeItem>
bool read_list(DecodeContext& ctx, const JsonPath& at, element value, std::vector<T>& out, DecodeItem decode_item) {
  simdjson::dom::array array;
  if (!expect_array(ctx, at, value, array)) return false;
  out.clear();
  size_t i = 0;
  for (element item : array) {
    T& target = out.emplace_back();
    if (!item.is_null() && !decode_item(ctx, at.index(i), item, target)) return false;
    ++i;
  }
  return true;
}

// String → string maps; null entries are absent. Keys up to kMaxQualifiedNameBytes.
bool read_string_map(DecodeContext& ctx, const JsonPath& at, element value, size_t max_value_bytes, StringMap& out);
bool read_labels(DecodeContext& ctx, const JsonPath& at, element value, StringMap& out);
bool read_annotations(DecodeContext& ctx, const JsonPath& at, element value, StringMap& out);

// `<digits>[.<digits>]` with no suffix or one of m k M G T P E Ki Mi Gi Ti Pi Ei: the spellings
// the API server writes, which always parse and are never negative (§3.1). Everything else goes
// through Quantity::parse; this only saves its cost on the common path.
bool is_plain_quantity(std::string_view text);

// Quantities are kept as received; ones that do not parse are left out with a warning (§3.1).
bool read_resource_list(DecodeContext& ctx, const JsonPath& at, element value, ResourceList& out);

// An array kept as its compact JSON text.
bool read_json_array_text(DecodeContext& ctx, const JsonPath& at, element value, std::string& out);

}  // namespace koordq::schema::json_detail
