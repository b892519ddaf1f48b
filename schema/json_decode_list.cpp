#include "schema/json_decode_documents.hpp"
#include "schema/json_raw_span.hpp"

namespace koordq::schema::json_detail {
namespace {

constexpr size_t kMaxContinueTokenBytes = 64 << 10;

// kind, apiVersion and metadata of the page; `items` when there are any.
bool decode_envelope(DecodeContext& ctx, element root_value, const std::string& list_kind, ObjectKind kind,
                     ListPage& page, std::optional<simdjson::dom::array>& items) {
  const JsonPath root;
  simdjson::dom::object root_object;
  if (!expect_object(ctx, root, root_value, root_object)) return false;
  element value;
  std::string_view text;
  if (find_member(root_object, "kind", value) &&
      (value.get_string().get(text) != simdjson::SUCCESS || text != list_kind)) {
    return ctx.fail(root.field("kind"), "expected " + list_kind + ", got " + describe(value));
  }
  if (find_member(root_object, "apiVersion", value) &&
      (value.get_string().get(text) != simdjson::SUCCESS || text != api_version_of(kind))) {
    return ctx.fail(root.field("apiVersion"),
                    std::string("expected ") + api_version_of(kind) + ", got " + describe(value));
  }
  if (find_member(root_object, "metadata", value)) {
    const JsonPath meta_path = root.field("metadata");
    simdjson::dom::object meta;
    if (!expect_object(ctx, meta_path, value, meta)) return false;
    for (auto [key, field] : meta) {
      if (field.is_null()) continue;
      if (key == "resourceVersion" &&
          !read_string(ctx, meta_path.field(key), field, kMaxNameBytes, page.resource_version)) {
        return false;
      }
      if (key == "continue" &&
          !read_string(ctx, meta_path.field(key), field, kMaxContinueTokenBytes, page.continue_token)) {
        return false;
      }
    }
  }
  if (!find_member(root_object, "items", value)) return true;
  return expect_array(ctx, root.field("items"), value, items.emplace());
}

}  // namespace

Result<ListPage> decode_list_document(element root, std::string_view bytes, ObjectKind kind, RawObjectMode mode) {
  const std::string list_kind = std::string(kind_name(kind)) + "List";
  DecodeContext ctx;
  ListPage page;
  std::optional<simdjson::dom::array> items;
  if (!decode_envelope(ctx, root, list_kind, kind, page, items)) return make_error(list_kind + ": " + ctx.error());
  if (!items) return page;

  std::vector<std::string_view> spans;
  if (mode != RawObjectMode::kOff) {
    std::optional<std::string_view> items_text = member_span(bytes, "items");
    if (items_text) spans = element_spans(*items_text);
  }
  size_t index = 0;
  for (element item : *items) {
    DecodedObject& decoded = page.items.emplace_back();
    Status status = decode_watched_object(item, kind, decoded.warnings, decoded.object);
    if (status.ok()) {
      std::optional<std::string_view> as_received;
      if (index < spans.size()) as_received = spans[index];
      decoded.raw_json = raw_json_of(item, as_received, mode, as_received ? as_received->size() : 0);
    } else {
      page.items.pop_back();
      page.rejected.push_back(RejectedItem{index, "items[" + std::to_string(index) + "]: " + status.message()});
    }
    ++index;
  }
  return page;
}

}  // namespace koordq::schema::json_detail
