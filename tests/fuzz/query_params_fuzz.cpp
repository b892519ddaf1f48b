// Request targets and the read endpoints' query parameters (behaviour.md §16.4, §17.5) on
// arbitrary bytes. Beyond not crashing: every parameter error is a 400 naming a parameter, an
// accepted page is within its bounds, a count is made of digits only and has their value, and
// percent-decoding a percent-encoded string gives the string back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/journal_stream.hpp"
#include "api/query_params.hpp"
#include "api/read_params.hpp"

namespace {

using namespace koordq::api;

void check(bool condition) {
  if (!condition) std::abort();
}

void check_error(const std::optional<ApiError>& error) {
  if (!error) return;
  check(error->code == 400 || error->code == 410);
  check(!error->message.empty() && !error->reason.empty());
}

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += '%';
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const RequestTarget target = parse_target(text);
  check(target.path.size() <= text.size());
  check(percent_decode(percent_encode(text), true) == text);

  PointInTime at;
  constexpr int64_t kNow = 1'800'000'000'000'000'000;
  const auto at_error = parse_point_in_time(target, kNow, at);
  check_error(at_error);
  if (!at_error && at.kind == PointInTime::Kind::kTime) check(at.time <= kNow);

  PageParams page;
  const auto page_error = parse_page(target, page);
  check_error(page_error);
  if (!page_error) check(page.offset >= 0 && page.limit >= 0);

  UnitFilter filter;
  check_error(parse_unit_filter(target, filter));

  StreamRequest stream;
  const auto stream_error = parse_stream_request(target, 10, 1000, stream);
  if (stream_error) check(!stream_error->message.empty());

  for (const auto& [name, value] : target.params) {
    check(!split_list(value).empty());
    if (auto count = parse_count(value)) {
      check(*count >= 0 && !value.empty() && value.find_first_not_of("0123456789") == std::string::npos);
      check(std::stoull(value) == static_cast<unsigned long long>(*count));
    }
  }
  return 0;
}
