#include <algorithm>

#include "schema/json_decode.hpp"
#include "schema/json_decode_documents.hpp"

namespace koordq::schema {
namespace {

constexpr size_t kInitialCapacity = 64 << 10;

}  // namespace

struct JsonDecoder::Impl {
  explicit Impl(DecodeLimits decode_limits)
      : limits(decode_limits), parser(std::max(limits.max_object_bytes, limits.max_list_bytes)) {
    setup_error = parser.allocate(kInitialCapacity, limits.max_depth);
  }

  // The size cap, then simdjson: validates the whole document (structure, UTF-8, depth).
  Result<json_detail::element> parse(std::string_view bytes, size_t max_bytes, std::string_view what) {
    std::string prefix = std::string(what) + ": ";
    if (setup_error != simdjson::SUCCESS) {
      return make_error(prefix + "the JSON parser could not be set up: " + simdjson::error_message(setup_error));
    }
    if (bytes.size() > max_bytes) {
      return make_error(prefix + std::to_string(bytes.size()) + " bytes exceed the limit of " +
                        std::to_string(max_bytes) + " bytes");
    }
    json_detail::element root;
    simdjson::error_code code = parser.parse(bytes.data(), bytes.size(), true).get(root);
    switch (code) {
      case simdjson::SUCCESS:
        return root;
      case simdjson::UTF8_ERROR:
        return make_error(prefix + "not valid UTF-8");
      case simdjson::DEPTH_ERROR:
        return make_error(prefix + "nested deeper than " + std::to_string(limits.max_depth) + " levels");
      default:
        return make_error(prefix + "malformed JSON: " + simdjson::error_message(code));
    }
  }

  DecodeLimits limits;
  simdjson::dom::parser parser;
  simdjson::error_code setup_error = simdjson::SUCCESS;
};

JsonDecoder::JsonDecoder(DecodeLimits limits) : impl_(std::make_unique<Impl>(limits)) {}
JsonDecoder::~JsonDecoder() = default;
JsonDecoder::JsonDecoder(JsonDecoder&&) noexcept = default;
JsonDecoder& JsonDecoder::operator=(JsonDecoder&&) noexcept = default;

Result<WatchEvent> JsonDecoder::decode_watch_event(std::string_view bytes, RawObjectMode mode) {
  Result<json_detail::element> root = impl_->parse(bytes, impl_->limits.max_object_bytes, "watch event");
  if (!root.ok()) return root.error();
  return json_detail::decode_watch_event_document(*root, bytes, std::nullopt, mode);
}

Result<WatchEvent> JsonDecoder::decode_watch_event(std::string_view bytes, ObjectKind expected, RawObjectMode mode) {
  Result<json_detail::element> root = impl_->parse(bytes, impl_->limits.max_object_bytes, "watch event");
  if (!root.ok()) return root.error();
  return json_detail::decode_watch_event_document(*root, bytes, expected, mode);
}

Result<DecodedObject> JsonDecoder::decode_object(std::string_view bytes, RawObjectMode mode) {
  Result<json_detail::element> root = impl_->parse(bytes, impl_->limits.max_object_bytes, "object");
  if (!root.ok()) return root.error();
  return json_detail::decode_object_document(*root, bytes, std::nullopt, mode);
}

Result<DecodedObject> JsonDecoder::decode_object(std::string_view bytes, ObjectKind expected, RawObjectMode mode) {
  Result<json_detail::element> root = impl_->parse(bytes, impl_->limits.max_object_bytes, "object");
  if (!root.ok()) return root.error();
  return json_detail::decode_object_document(*root, bytes, expected, mode);
}

Result<ListPage> JsonDecoder::decode_list(std::string_view bytes, ObjectKind kind, RawObjectMode mode) {
  Result<json_detail::element> root =
      impl_->parse(bytes, impl_->limits.max_list_bytes, std::string(kind_name(kind)) + "List");
  if (!root.ok()) return root.error();
  return json_detail::decode_list_document(*root, bytes, kind, mode);
}

}  // namespace koordq::schema
