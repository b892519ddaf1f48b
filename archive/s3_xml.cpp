#include "archive/s3_xml.hpp"

#include <charconv>
#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

namespace koordq::archive {
namespace {

namespace pt = boost::property_tree;

std::optional<pt::ptree> parse_xml(std::string_view body) {
  std::istringstream in{std::string(body)};
  pt::ptree tree;
  try {
    pt::read_xml(in, tree, pt::xml_parser::no_comments);
  } catch (const pt::xml_parser_error&) {
    return std::nullopt;
  }
  return tree;
}

}  // namespace

std::string etag_without_quotes(std::string etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') return etag.substr(1, etag.size() - 2);
  return etag;
}

std::optional<std::uint64_t> parse_byte_count(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

const char* object_lock_mode_name(ObjectLockMode mode) {
  return mode == ObjectLockMode::kGovernance ? "GOVERNANCE" : "COMPLIANCE";
}

std::optional<ObjectLockMode> parse_object_lock_mode(std::string_view text) {
  if (text == "GOVERNANCE") return ObjectLockMode::kGovernance;
  if (text == "COMPLIANCE") return ObjectLockMode::kCompliance;
  return std::nullopt;
}

std::optional<S3ErrorDocument> parse_s3_error_document(std::string_view body) {
  const std::optional<pt::ptree> tree = parse_xml(body);
  if (!tree) return std::nullopt;
  const auto error = tree->get_child_optional("Error");
  if (!error) return std::nullopt;
  const auto code = error->get_optional<std::string>("Code");
  if (!code || code->empty()) return std::nullopt;
  return S3ErrorDocument{*code, error->get<std::string>("Message", "")};
}

Result<ListObjectsPage> parse_list_objects_v2(std::string_view body) {
  const std::optional<pt::ptree> tree = parse_xml(body);
  if (!tree) return make_error("the ListObjectsV2 answer is not XML");
  const auto result = tree->get_child_optional("ListBucketResult");
  if (!result) return make_error("the ListObjectsV2 answer has no <ListBucketResult>");
  ListObjectsPage page;
  for (const auto& [name, node] : *result) {
    if (name != "Contents") continue;
    ListedObject object;
    object.key = node.get<std::string>("Key", "");
    if (object.key.empty()) return make_error("a <Contents> of the ListObjectsV2 answer has no <Key>");
    const std::optional<std::uint64_t> size = parse_byte_count(node.get<std::string>("Size", ""));
    if (!size) return make_error("object " + object.key + " of the ListObjectsV2 answer has no valid <Size>");
    object.size = *size;
    object.etag = etag_without_quotes(node.get<std::string>("ETag", ""));
    object.last_modified = node.get<std::string>("LastModified", "");
    page.objects.push_back(std::move(object));
  }
  page.truncated = result->get<std::string>("IsTruncated", "false") == "true";
  page.next_continuation_token = result->get<std::string>("NextContinuationToken", "");
  if (page.truncated && page.next_continuation_token.empty())
    return make_error("the ListObjectsV2 answer is truncated but has no <NextContinuationToken>");
  return page;
}

Result<ObjectLockConfiguration> parse_object_lock_configuration(std::string_view body) {
  const std::optional<pt::ptree> tree = parse_xml(body);
  if (!tree) return make_error("the GetObjectLockConfiguration answer is not XML");
  const auto config = tree->get_child_optional("ObjectLockConfiguration");
  if (!config) return make_error("the GetObjectLockConfiguration answer has no <ObjectLockConfiguration>");
  ObjectLockConfiguration lock;
  lock.enabled = config->get<std::string>("ObjectLockEnabled", "") == "Enabled";
  if (const auto retention = config->get_child_optional("Rule.DefaultRetention")) {
    const std::string mode = retention->get<std::string>("Mode", "");
    lock.default_mode = parse_object_lock_mode(mode);
    if (!lock.default_mode) return make_error("the bucket's default retention has an unknown <Mode> \"" + mode + "\"");
    if (const auto days = parse_byte_count(retention->get<std::string>("Days", "")))
      lock.default_days = static_cast<int>(*days);
    if (const auto years = parse_byte_count(retention->get<std::string>("Years", "")))
      lock.default_years = static_cast<int>(*years);
  }
  return lock;
}

}  // namespace koordq::archive
