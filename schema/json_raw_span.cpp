#include "schema/json_raw_span.hpp"

#include <cstring>

namespace koordq::schema::json_detail {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t skip_space(std::string_view text, size_t i) {
  while (i < text.size() && is_space(text[i])) ++i;
  return i;
}

// From the opening quote to just past the closing one.
size_t skip_string(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    const void* stop = std::memchr(text.data() + i, '"', text.size() - i);
    if (stop == nullptr) return text.size();
    size_t quote = static_cast<size_t>(static_cast<const char*>(stop) - text.data());
    size_t backslashes = 0;
    while (quote - backslashes > i && text[quote - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return quote + 1;
    i = quote;
  }
  return text.size();
}

size_t skip_value(std::string_view text, size_t i) {
  if (i >= text.size()) return text.size();
  if (text[i] == '"') return skip_string(text, i);
  if (text[i] == '{' || text[i] == '[') {
    size_t depth = 0;
    while (i < text.size()) {
      char c = text[i];
      if (c == '"') {
        i = skip_string(text, i);
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return i + 1;
      }
      ++i;
    }
    return text.size();
  }
  while (i < text.size() && std::strchr(",}] \t\n\r", text[i]) == nullptr) ++i;
  return i;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether a key as written (escapes included) names the ASCII `key`, as the parser compares
// keys after unescaping.
bool key_equals(std::string_view raw_key, std::string_view key) {
  if (raw_key.find('\\') == std::string_view::npos) return raw_key == key;
  size_t k = 0;
  for (size_t i = 0; i < raw_key.size(); ++i, ++k) {
    char c = raw_key[i];
    if (c == '\\') {
      if (++i >= raw_key.size()) return false;
      c = raw_key[i];
      if (c == 'u') {
        if (i + 4 >= raw_key.size()) return false;
        int code = 0;
        for (size_t h = 1; h <= 4; ++h) {
          int digit = hex_value(raw_key[i + h]);
          if (digit < 0) return false;
          code = code * 16 + digit;
        }
        if (code >= 0x80) return false;  // never part of an ASCII key
        c = static_cast<char>(code);
        i += 4;
      } else {
        constexpr std::string_view kEscaped = "\"\\/bfnrt";
        constexpr std::string_view kMeaning = "\"\\/\b\f\n\r\t";
        size_t at = kEscaped.find(c);
        if (at == std::string_view::npos) return false;
        c = kMeaning[at];
      }
    }
    if (k >= key.size() || key[k] != c) return false;
  }
  return k == key.size();
}

}  // namespace

std::optional<std::string_view> member_span(std::string_view document, std::string_view key, bool last_member) {
  size_t i = skip_space(document, 0);
  if (i >= document.size() || document[i] != '{') return std::nullopt;
  i = skip_space(document, i + 1);
  while (i < document.size() && document[i] == '"') {
    size_t key_end = skip_string(document, i);
    std::string_view raw_key = document.substr(i + 1, key_end >= i + 2 ? key_end - i - 2 : 0);
    i = skip_space(document, key_end);
    if (i >= document.size() || document[i] != ':') return std::nullopt;
    size_t value_start = skip_space(document, i + 1);
    if (last_member && key_equals(raw_key, key)) {
      size_t close = document.find_last_of('}');
      if (close == std::string_view::npos || close < value_start) return std::nullopt;
      while (close > value_start && is_space(document[close - 1])) --close;
      return document.substr(value_start, close - value_start);
    }
    size_t value_end = skip_value(document, value_start);
    if (key_equals(raw_key, key)) return document.substr(value_start, value_end - value_start);
    i = skip_space(document, value_end);
    if (i >= document.size() || document[i] != ',') return std::nullopt;
    i = skip_space(document, i + 1);
  }
  return std::nullopt;
}

std::vector<std::string_view> element_spans(std::string_view array) {
  std::vector<std::string_view> spans;
  size_t i = skip_space(array, 0);
  if (i >= array.size() || array[i] != '[') return spans;
  i = skip_space(array, i + 1);
  while (i < array.size() && array[i] != ']') {
    size_t end = skip_value(array, i);
    if (end == i) break;
    spans.push_back(array.substr(i, end - i));
    i = skip_space(array, end);
    if (i < array.size() && array[i] == ',') i = skip_space(array, i + 1);
  }
  return spans;
}

}  // namespace koordq::schema::json_detail
