#include "api/query_params.hpp"

namespace koordq::api {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int hi = hex_value(text[i + 1]);
      const int lo = hex_value(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

std::optional<std::string_view> RequestTarget::param(std::string_view name) const {
  auto it = params.find(std::string(name));
  if (it == params.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::vector<std::string_view> split_list(std::string_view value) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t comma = value.find(',');
    out.push_back(value.substr(0, comma));
    if (comma == std::string_view::npos) return out;
    value = value.substr(comma + 1);
  }
}

RequestTarget parse_target(std::string_view target) {
  RequestTarget out;
  const size_t question = target.find('?');
  out.path = percent_decode(target.substr(0, question), false);
  if (question == std::string_view::npos) return out;
  std::string_view query = target.substr(question + 1);
  if (const size_t hash = query.find('#'); hash != std::string_view::npos) query = query.substr(0, hash);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    std::string name = percent_decode(pair.substr(0, eq), true);
    std::string value = eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1), true);
    out.params.emplace(std::move(name), std::move(value));  // the first value wins
  }
  return out;
}

}  // namespace koordq::api
