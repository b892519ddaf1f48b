// Compact JSON text appended to one string, byte for byte what rapidjson::Writer writes for the
// same calls (strings through base::write_json_string, which escapes as it does). The visibility
// API writes pages of hundreds of kilobytes through it: strings are copied in runs of 8 bytes with
// nothing to escape, and every piece goes into the buffer without a per-character capacity check,
// where RapidJSON's writer goes character by character (BENCHMARKS.md, serving surfaces).
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace koordq::api {

class CompactJson {
 public:
  void key(std::string_view k) {
    quoted(k, ':');
    comma_ = false;
  }
  void string(std::string_view v) {
    quoted(v, 0);
    comma_ = true;
  }
  void integer(int64_t v) {
    char* at = room(24);
    if (comma_) *at++ = ',';
    at = std::to_chars(at, at + 21, v).ptr;
    used_ = static_cast<size_t>(at - out_.data());
    comma_ = true;
  }
  void boolean(bool v) { literal(v ? std::string_view("true") : std::string_view("false")); }
  void null() { literal("null"); }
  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  void reserve(size_t bytes) {
    if (bytes > out_.size()) out_.resize(bytes);
  }
  size_t size() const { return used_; }
  std::string take() {
    out_.resize(used_);
    used_ = 0;
    return std::move(out_);
  }

 private:
  // A value or key after another one at the same level is preceded by a comma; after a key, the
  // value follows its colon directly. A container that closes is a value of its parent, so the
  // flag alone (no stack of levels) knows the separator.
  char* room(size_t bytes) {
    if (out_.size() - used_ < bytes) out_.resize(std::max(out_.size() * 2, used_ + bytes + 256));
    return out_.data() + used_;
  }
  void literal(std::string_view text) {
    char* at = room(text.size() + 1);
    if (comma_) *at++ = ',';
    std::memcpy(at, text.data(), text.size());
    used_ = static_cast<size_t>(at - out_.data()) + text.size();
    comma_ = true;
  }
  void open(char bracket) {
    char* at = room(2);
    if (comma_) *at++ = ',';
    *at++ = bracket;
    used_ = static_cast<size_t>(at - out_.data());
    comma_ = false;
  }
  void close(char bracket) {
    *room(1) = bracket;
    ++used_;
    comma_ = true;
  }
  // The separator, `s` quoted and escaped, then `suffix` unless it is 0.
  void quoted(std::string_view s, char suffix);

  std::string out_;  // the text is out_[0, used_); the rest is room already allocated
  size_t used_ = 0;
  bool comma_ = false;
};

}  // namespace koordq::api
