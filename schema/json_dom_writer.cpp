#include "schema/json_dom_writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>

#include <rapidjson/internal/dtoa.h>

#include "base/json_string.hpp"
#include "schema/json_secret_splice.hpp"
#include "schema/raw_object.hpp"

namespace koordq::schema::json_detail {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// Appends to a string through a raw cursor: std::string's own appends check capacity per call
// and cannot keep their end pointer in a register, which costs more than the copying.
class JsonText {
 public:
  explicit JsonText(std::string& out) : out_(out), used_(out.size()) {}
  ~JsonText() { out_.resize(used_); }
  JsonText(const JsonText&) = delete;
  JsonText& operator=(const JsonText&) = delete;

  // Room for `bytes` more; write through the cursor, then commit() it.
  char* reserve(size_t bytes) {
    if (out_.size() - used_ < bytes) grow(bytes);
    return out_.data() + used_;
  }
  void commit(const char* end) { used_ = static_cast<size_t>(end - out_.data()); }

  void put(char c) {
    *reserve(1) = c;
    ++used_;
  }
  void append(std::string_view text) {
    std::memcpy(reserve(text.size()), text.data(), text.size());
    used_ += text.size();
  }

 private:
  [[gnu::noinline]] void grow(size_t bytes) {
    out_.resize(std::max({out_.capacity(), out_.size() * 2, used_ + bytes + 1024}));
  }

  std::string& out_;
  size_t used_;
};

void write_string(std::string_view text, JsonText& out) {
  out.commit(base::write_json_string(out.reserve(base::json_string_room(text.size())), text));
}

// `"key":`, after a comma unless it is the first member.
void write_key(std::string_view key, bool first, JsonText& out) {
  char* cursor = out.reserve(key.size() * 6 + 4);
  if (!first) *cursor++ = ',';
  cursor = base::write_json_string(cursor, key);
  *cursor++ = ':';
  out.commit(cursor);
}

void write_value(element value, Redaction redaction, JsonText& out);

void write_redacted(element value, JsonText& out) {
  switch (value.type()) {
    case element_type::NULL_VALUE:
      out.append("null");
      return;
    case element_type::STRING: {
      std::string_view text = value.get_string().value_unsafe();
      if (is_redaction_marker(text)) {
        write_string(text, out);
      } else {
        write_string(redaction_marker(text), out);
      }
      return;
    }
    default:
      write_string(redaction_marker(compact_json(value)), out);
      return;
  }
}

void write_secret_map(simdjson::dom::object map, JsonText& out) {
  out.put('{');
  bool first = true;
  for (simdjson::dom::key_value_pair entry : map) {
    write_key(entry.key, first, out);
    first = false;
    write_redacted(entry.value, out);
  }
  out.put('}');
}

void write_env_list(simdjson::dom::array env, JsonText& out) {
  out.put('[');
  bool first = true;
  for (element variable : env) {
    if (!first) out.put(',');
    first = false;
    if (variable.type() != element_type::OBJECT) {
      write_value(variable, Redaction::kSecrets, out);
      continue;
    }
    simdjson::dom::object members = variable.get_object().value_unsafe();
    out.put('{');
    bool first_member = true;
    for (simdjson::dom::key_value_pair member : members) {
      write_key(member.key, first_member, out);
      first_member = false;
      if (member.key == "value") {
        write_redacted(member.value, out);
      } else {
        write_value(member.value, Redaction::kSecrets, out);
      }
    }
    out.put('}');
  }
  out.put(']');
}

// Each annotation that holds a JSON object or array, that document redacted (raw_object.hpp).
void write_annotations(simdjson::dom::object annotations, JsonText& out) {
  out.put('{');
  bool first = true;
  for (simdjson::dom::key_value_pair entry : annotations) {
    write_key(entry.key, first, out);
    first = false;
    std::string_view text;
    if (entry.value.get_string().get(text) != simdjson::SUCCESS) {
      write_value(entry.value, Redaction::kSecrets, out);  // not a string: the rules apply inside
      continue;
    }
    const std::optional<std::string> redacted = redact_embedded_json(text);
    write_string(redacted ? std::string_view(*redacted) : text, out);
  }
  out.put('}');
}

void write_object(simdjson::dom::object object, Redaction redaction, JsonText& out) {
  out.put('{');
  bool first = true;
  for (simdjson::dom::key_value_pair member : object) {
    write_key(member.key, first, out);
    first = false;
    if (redaction == Redaction::kSecrets) {
      if (is_secret_map_key(member.key) && member.value.type() == element_type::OBJECT) {
        write_secret_map(member.value.get_object().value_unsafe(), out);
        continue;
      }
      if (member.key == "env" && member.value.type() == element_type::ARRAY) {
        write_env_list(member.value.get_array().value_unsafe(), out);
        continue;
      }
      if (member.key == "annotations" && member.value.type() == element_type::OBJECT) {
        write_annotations(member.value.get_object().value_unsafe(), out);
        continue;
      }
    }
    write_value(member.value, redaction, out);
  }
  out.put('}');
}

template <class Number>
void write_integer(Number number, JsonText& out) {
  char* cursor = out.reserve(24);
  out.commit(std::to_chars(cursor, cursor + 24, number).ptr);
}

void write_double(double number, JsonText& out) {
  char* cursor = out.reserve(32);  // RapidJSON's Writer reserves 25
  out.commit(rapidjson::internal::dtoa(number, cursor));
}

void write_value(element value, Redaction redaction, JsonText& out) {
  switch (value.type()) {
    case element_type::OBJECT:
      write_object(value.get_object().value_unsafe(), redaction, out);
      return;
    case element_type::ARRAY: {
      simdjson::dom::array items = value.get_array().value_unsafe();
      out.put('[');
      bool first = true;
      for (element item : items) {
        if (!first) out.put(',');
        first = false;
        write_value(item, redaction, out);
      }
      out.put(']');
      return;
    }
    case element_type::STRING:
      write_string(value.get_string().value_unsafe(), out);
      return;
    case element_type::INT64:
      write_integer(value.get_int64().value_unsafe(), out);
      return;
    case element_type::UINT64:
      write_integer(value.get_uint64().value_unsafe(), out);
      return;
    case element_type::DOUBLE:
      write_double(value.get_double().value_unsafe(), out);
      return;
    case element_type::BOOL:
      out.append(value.get_bool().value_unsafe() ? "true" : "false");
      return;
    case element_type::NULL_VALUE:
      out.append("null");
      return;
  }
}

}  // namespace

void append_json_string(std::string_view text, std::string& out) {
  JsonText text_out(out);
  write_string(text, text_out);
}

void append_json(element value, Redaction redaction, std::string& out) {
  JsonText text_out(out);
  write_value(value, redaction, text_out);
}

std::string compact_json(element value, Redaction redaction) {
  std::string out;
  append_json(value, redaction, out);
  return out;
}

}  // namespace koordq::schema::json_detail
