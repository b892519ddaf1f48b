#include "schema/json_secret_splice.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <simdjson.h>

#include "schema/json_dom_writer.hpp"
#include "schema/raw_object.hpp"

namespace koordq::schema::json_detail {
namespace {

// A value of the text parsed alone: the rare escaped key or secret, and non-string secrets,
// whose digest covers their compact JSON.
simdjson::dom::element parsed(std::string_view text, bool* ok) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element value;
  *ok = parser.parse(text.data(), text.size(), true).get(value) == simdjson::SUCCESS;
  return value;
}

// The first j >= from where text[j] is 'v' or 'a' and text[j + 1] is '"': where a key named
// env, data, stringData or binaryData ends, among far fewer other places than there are strings.
size_t next_name_end(std::string_view text, size_t j) {
  const char* const p = text.data();
#ifdef __SSE2__
  const __m128i v = _mm_set1_epi8('v');
  const __m128i a = _mm_set1_epi8('a');
  const __m128i quote = _mm_set1_epi8('"');
  for (; j + 17 <= text.size(); j += 16) {
    const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j + 1));
    const __m128i letter = _mm_or_si128(_mm_cmpeq_epi8(here, v), _mm_cmpeq_epi8(here, a));
    if (const int hits = _mm_movemask_epi8(_mm_and_si128(letter, _mm_cmpeq_epi8(next, quote)))) {
      return j + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(hits)));
    }
  }
#endif
  for (; j + 1 < text.size(); ++j) {
    if ((p[j] == 'v' || p[j] == 'a') && p[j + 1] == '"') return j;
  }
  return std::string_view::npos;
}

// The first `needle` in `text` at or after `from`. std::string_view::find looks for the needle's
// first byte with memchr and compares at each hit, which for a quoted key is a call per string of
// the document; memmem skips ahead by the needle.
size_t find_from(std::string_view text, std::string_view needle, size_t from) {
  if (from > text.size()) return std::string_view::npos;
  const void* at = memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
  return at == nullptr ? std::string_view::npos : static_cast<size_t>(static_cast<const char*>(at) - text.data());
}

class SecretSplicer {
 public:
  explicit SecretSplicer(std::string_view text) : s_(text) {}

  std::string run() {
    // Only `\uXXXX` can spell a letter of a key, so without one every key that names a rule is
    // one of four byte strings, and the scan starts at each instead of walking every string.
    fast_ = find_from(s_, "\\u", 0) == std::string_view::npos;
    if (fast_) {
      from_secret_keys();
    } else {
      value(true);
    }
    from_annotation_keys();
    if (splices_.empty()) return std::string(s_);
    // The annotations' splices come after the secrets' in the list, not in the text; a splice
    // inside another (or the same twice) is left out: the outer one replaces it whole.
    std::sort(splices_.begin(), splices_.end(),
              [](const Splice& a, const Splice& b) { return a.begin != b.begin ? a.begin < b.begin : a.end > b.end; });
    std::string out;
    out.reserve(s_.size() + splices_.size() * 96);
    size_t at = 0;
    for (const Splice& splice : splices_) {
      if (splice.begin < at) continue;
      out.append(s_.data() + at, splice.begin - at);
      out += splice.replacement;
      at = splice.end;
    }
    out.append(s_.data() + at, s_.size() - at);
    return out;
  }

 private:
  struct Splice {
    size_t begin = 0;
    size_t end = 0;
    std::string replacement;  // JSON text: a marker's string, or an annotation's redacted string
  };
  struct Token {
    std::string_view content;  // between the quotes, escapes as in the text
    bool escaped = false;
  };

  char peek() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
    return i_ < s_.size() ? s_[i_] : '\0';
  }

  // The string whose opening quote is at i_; i_ moves past its closing quote. Most strings of an
  // object are short (keys, names), where a byte loop beats a library search.
  Token string_token() {
    const size_t open = i_++;
    const char* p = s_.data() + i_;
    const char* const end = s_.data() + s_.size();
    Token t;
    while (p < end) {
      const char c = *p;
      if (c == '"') {
        t.content = std::string_view(s_.data() + open + 1, static_cast<size_t>(p - s_.data()) - open - 1);
        i_ = static_cast<size_t>(p - s_.data()) + 1;
        return t;
      }
      if (c == '\\') {
        t.escaped = true;
        ++p;  // the escaped character, whatever it is
      }
      ++p;
    }
    i_ = s_.size();
    t.content = s_.substr(open + 1);
    return t;
  }

  std::string unescaped(size_t begin, size_t end) {
    bool ok = false;
    const simdjson::dom::element e = parsed(s_.substr(begin, end - begin), &ok);
    std::string_view text;
    if (!ok || e.get_string().get(text) != simdjson::SUCCESS) return {};
    return std::string(text);
  }

  // The key at i_, unescaped when it has escapes (for comparison only).
  std::string_view key(std::string& storage) {
    const size_t begin = i_;
    const Token t = string_token();
    if (!t.escaped) return t.content;
    storage = unescaped(begin, i_);
    return storage;
  }

  bool colon() {
    if (peek() != ':') return false;
    ++i_;
    return true;
  }

  // After a member or element: true when another follows, false at the closing bracket.
  bool next(char close) {
    const char c = peek();
    if (c == ',') {
      ++i_;
      return true;
    }
    if (c == close) ++i_;
    return false;
  }

  void scalar() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\r' || c == '\t') return;
      ++i_;
    }
  }

  // Any value; with `rules`, the redaction rules apply inside it (without, it is only skipped).
  void value(bool rules) {
    switch (peek()) {
      case '{':
        object(rules);
        return;
      case '[':
        array(rules);
        return;
      case '"':
        string_token();
        return;
      case '\0':
        return;
      default:
        scalar();
        return;
    }
  }

  // The members of the object whose `{` is at i_: `member(key)` reads each value.
  template <class Member>
  void members(Member member) {
    ++i_;
    if (peek() == '}') {
      ++i_;
      return;
    }
    std::string storage;
    do {
      if (peek() != '"') return;
      const std::string_view k = key(storage);
      if (!colon()) return;
      member(k);
    } while (next('}'));
  }

  // The elements of the array whose `[` is at i_: `element()` reads each.
  template <class Element>
  void elements(Element element) {
    ++i_;
    if (peek() == ']') {
      ++i_;
      return;
    }
    do {
      element();
    } while (next(']'));
  }

  // The value of member `k`, at i_.
  void member(std::string_view k, bool rules) {
    const char c = peek();
    if (rules && c == '{' && k == "annotations") {
      members([&](std::string_view) { annotation(); });
    } else if (rules && c == '{' && is_secret_map_key(k)) {
      members([&](std::string_view) { secret(); });
    } else if (rules && c == '[' && k == "env") {
      elements([&] { peek() == '{' ? env_variable() : value(true); });
    } else {
      value(rules);
    }
  }

  void object(bool rules) {
    members([&](std::string_view k) { member(k, rules); });
  }

  // Where the name ending at j is a key env, data, stringData or binaryData: its opening quote.
  // In JSON that simdjson accepted, a quote not escaped by a backslash delimits a string, so
  // `"env"` between two such quotes and followed by a colon is a key, wherever it is.
  size_t secret_key_at(size_t j) const {
    static constexpr std::string_view kNames[] = {"\"env", "\"data", "\"stringData", "\"binaryData"};
    for (std::string_view name : kNames) {
      if (j + 1 < name.size()) continue;
      const size_t open = j + 1 - name.size();
      if (s_.compare(open, name.size(), name) != 0) continue;
      size_t backslashes = 0;
      while (backslashes < open && s_[open - 1 - backslashes] == '\\') ++backslashes;
      if (backslashes % 2 != 0) return std::string_view::npos;
      size_t after = j + 2;
      while (after < s_.size() && (s_[after] == ' ' || s_[after] == '\n' || s_[after] == '\r' || s_[after] == '\t')) {
        ++after;
      }
      return after < s_.size() && s_[after] == ':' ? open : std::string_view::npos;
    }
    return std::string_view::npos;
  }

  // The rules from each secret key on: outside the values of such keys there is nothing to
  // replace. The search resumes after the value just handled, so a key inside a secret value
  // (where the rules do not apply) is passed over, as the walk from the root passes over it.
  void from_secret_keys() {
    std::string storage;
    for (size_t from = 0, j; (j = next_name_end(s_, from)) != std::string_view::npos;) {
      const size_t open = secret_key_at(j);
      if (open != std::string_view::npos) {
        i_ = open;
        const std::string_view k = key(storage);
        if (colon()) member(k, true);
      }
      from = std::max(i_, j + 1);
    }
  }

  // On the fast path, every key `annotations` whose value is an object, found in the text as
  // secret_key_at finds the secret keys (the walk from the root meets them on the slow path). One
  // inside a secret value, or met already inside an env variable, gives a splice that run() drops.
  void from_annotation_keys() {
    if (!fast_) return;
    static constexpr std::string_view kKey = "\"annotations\"";
    std::string storage;
    for (size_t open = find_from(s_, kKey, 0); open != std::string_view::npos;
         open = find_from(s_, kKey, open + kKey.size())) {
      size_t backslashes = 0;
      while (backslashes < open && s_[open - 1 - backslashes] == '\\') ++backslashes;
      if (backslashes % 2 != 0) continue;
      i_ = open;
      const std::string_view k = key(storage);
      if (colon() && peek() == '{') member(k, true);
    }
  }

  // An annotation's value at i_: a string that holds a JSON object or array (kubectl's
  // last-applied-configuration, say) is replaced by the string of that document redacted.
  void annotation() {
    if (peek() != '"') {  // not Kubernetes' string map: the rules apply inside, as anywhere
      value(true);
      return;
    }
    const size_t begin = i_;
    const Token t = string_token();
    const std::string text = t.escaped ? unescaped(begin, i_) : std::string(t.content);
    std::optional<std::string> redacted = redact_embedded_json(text);
    if (!redacted) return;
    std::string replacement;
    append_json_string(*redacted, replacement);
    splices_.push_back({begin, i_, std::move(replacement)});
  }

  void array(bool rules) {
    elements([&] { value(rules); });
  }

  // Its `value` is a secret; its other members are values like any other (the rules apply
  // inside them, not to their own names).
  void env_variable() {
    members([&](std::string_view k) { k == "value" ? secret() : value(true); });
  }

  // A secret value at i_: null stays, a marker stays (redacting twice changes nothing), a string
  // is replaced by the digest of its unescaped bytes, anything else by that of its compact JSON.
  void secret() {
    const char c = peek();
    const size_t begin = i_;
    if (c == 'n') {
      scalar();
      return;
    }
    if (c == '"') {
      const Token t = string_token();
      const std::string text = t.escaped ? unescaped(begin, i_) : std::string(t.content);
      if (!is_redaction_marker(text)) splices_.push_back({begin, i_, quoted(redaction_marker(text))});
      return;
    }
    value(false);
    bool ok = false;
    const simdjson::dom::element e = parsed(s_.substr(begin, i_ - begin), &ok);
    splices_.push_back(
        {begin, i_, quoted(redaction_marker(ok ? compact_json(e) : std::string(s_.substr(begin, i_ - begin))))});
  }

  // A marker as a JSON string: it has nothing to escape.
  static std::string quoted(std::string marker) { return '"' + std::move(marker) + '"'; }

  std::string_view s_;
  size_t i_ = 0;
  bool fast_ = false;  // no `\u` escape in the text: rules start at the keys found in it
  std::vector<Splice> splices_;
};

}  // namespace

std::string redact_as_received(std::string_view json) {
  return SecretSplicer(json).run();
}

std::optional<std::string> redact_embedded_json(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || (text[start] != '{' && text[start] != '[')) return std::nullopt;
  bool ok = false;
  parsed(text, &ok);
  if (!ok) return std::nullopt;
  std::string redacted = redact_as_received(text);
  if (redacted == text) return std::nullopt;
  return redacted;
}

}  // namespace koordq::schema::json_detail
