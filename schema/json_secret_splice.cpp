#include "schema/json_secret_splice.hpp"

#include <cstring>
#include <vector>

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

class SecretSplicer {
 public:
  explicit SecretSplicer(std::string_view text) : s_(text) {}

  std::string run() {
    value(true);
    if (splices_.empty()) return std::string(s_);
    std::string out;
    out.reserve(s_.size() + splices_.size() * 84);
    size_t at = 0;
    for (const Splice& splice : splices_) {
      out.append(s_.data() + at, splice.begin - at);
      out += '"';
      out += splice.marker;
      out += '"';
      at = splice.end;
    }
    out.append(s_.data() + at, s_.size() - at);
    return out;
  }

 private:
  struct Splice {
    size_t begin = 0;
    size_t end = 0;
    std::string marker;
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

  void object(bool rules) {
    members([&](std::string_view k) {
      const char c = peek();
      if (rules && c == '{' && is_secret_map_key(k)) {
        members([&](std::string_view) { secret(); });
      } else if (rules && c == '[' && k == "env") {
        elements([&] { peek() == '{' ? env_variable() : value(true); });
      } else {
        value(rules);
      }
    });
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
      if (!is_redaction_marker(text)) splices_.push_back({begin, i_, redaction_marker(text)});
      return;
    }
    value(false);
    bool ok = false;
    const simdjson::dom::element e = parsed(s_.substr(begin, i_ - begin), &ok);
    splices_.push_back({begin, i_, redaction_marker(ok ? compact_json(e) : std::string(s_.substr(begin, i_ - begin)))});
  }

  std::string_view s_;
  size_t i_ = 0;
  std::vector<Splice> splices_;
};

}  // namespace

std::string redact_as_received(std::string_view json) {
  return SecretSplicer(json).run();
}

}  // namespace koordq::schema::json_detail
