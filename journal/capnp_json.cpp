#include "journal/capnp_json.hpp"

#include <charconv>
#include <cmath>

#include <kj/debug.h>

namespace koordq::journal {
namespace {

// JsonCodec's string escaping: '"' and '\\' escaped, the C escapes for \b \f \n \r \t, \u00XX
// for the other control characters, every other byte ('/', DEL, UTF-8 or not) as it is.
void append_string(std::string& out, kj::StringPtr text) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out.push_back('"');
  const char* run = text.begin();
  for (const char* p = text.begin(); p != text.end(); ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(run, p);
    run = p + 1;
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\f':
        out.append("\\f");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      default:
        out.append("\\u00");
        out.push_back(kDigits[c >> 4]);
        out.push_back(kDigits[c & 0xf]);
    }
  }
  out.append(run, text.end());
  out.push_back('"');
}

template <class Int>
void append_integer(std::string& out, Int value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
  out.append(digits, end);
}

void append_hex(std::string& out, capnp::Data::Reader bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out.push_back('"');
  for (const kj::byte b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xf]);
  }
  out.push_back('"');
}

void append_value(std::string& out, const capnp::DynamicValue::Reader& value, capnp::Type type);

void append_member(std::string& out, bool& first, const capnp::DynamicStruct::Reader& s,
                   capnp::StructSchema::Field field, bool null) {
  if (!first) out.push_back(',');
  first = false;
  append_string(out, field.getProto().getName());
  out.push_back(':');
  if (null) {
    out.append("null");
  } else {
    append_value(out, s.get(field), field.getType());
  }
}

// JsonCodec's order: the non-union fields that are set (every primitive, the non-null pointers),
// with the active union member among them in code order. A union member that is a null pointer is
// written as null, unless it is the union's default member, which is then left out.
void append_struct(std::string& out, const capnp::DynamicStruct::Reader& s) {
  kj::Maybe<capnp::StructSchema::Field> which = s.which();
  bool union_member_null = false;
  KJ_IF_MAYBE (member, which) {
    union_member_null = !s.has(*member);
    if (member->getProto().getDiscriminantValue() == 0 && union_member_null) which = nullptr;
  }
  out.push_back('{');
  bool first = true;
  for (const auto field : s.getSchema().getNonUnionFields()) {
    KJ_IF_MAYBE (member, which) {
      if (member->getIndex() < field.getIndex()) {
        append_member(out, first, s, *member, union_member_null);
        which = nullptr;
      }
    }
    if (s.has(field)) append_member(out, first, s, field, false);
  }
  KJ_IF_MAYBE (member, which) {
    append_member(out, first, s, *member, union_member_null);
  }
  out.push_back('}');
}

void append_value(std::string& out, const capnp::DynamicValue::Reader& value, capnp::Type type) {
  switch (type.which()) {
    case capnp::schema::Type::VOID:
      out.append("null");
      return;
    case capnp::schema::Type::BOOL:
      out.append(value.as<bool>() ? "true" : "false");
      return;
    case capnp::schema::Type::INT8:
    case capnp::schema::Type::INT16:
    case capnp::schema::Type::INT32:
      // JsonCodec writes these as a double; below 10^15 that is the integer's digits.
      append_integer(out, value.as<int32_t>());
      return;
    case capnp::schema::Type::UINT8:
    case capnp::schema::Type::UINT16:
    case capnp::schema::Type::UINT32:
      append_integer(out, value.as<uint32_t>());
      return;
    case capnp::schema::Type::FLOAT32:
    case capnp::schema::Type::FLOAT64: {
      const double d = value.as<double>();
      if (std::isinf(d) || std::isnan(d)) {
        out.append("null");
      } else {
        const kj::String text = kj::str(d);  // kj's rendering of a double, as JsonCodec's
        out.append(text.cStr(), text.size());
      }
      return;
    }
    case capnp::schema::Type::INT64:
      out.push_back('"');
      append_integer(out, value.as<int64_t>());
      out.push_back('"');
      return;
    case capnp::schema::Type::UINT64:
      out.push_back('"');
      append_integer(out, value.as<uint64_t>());
      out.push_back('"');
      return;
    case capnp::schema::Type::TEXT:
      append_string(out, value.as<capnp::Text>());
      return;
    case capnp::schema::Type::DATA:
      append_hex(out, value.as<capnp::Data>());
      return;
    case capnp::schema::Type::LIST: {
      const auto list = value.as<capnp::DynamicList>();
      const capnp::Type element = type.asList().getElementType();
      out.push_back('[');
      for (uint i = 0; i < list.size(); ++i) {
        if (i > 0) out.push_back(',');
        append_value(out, list[i], element);
      }
      out.push_back(']');
      return;
    }
    case capnp::schema::Type::ENUM: {
      const auto e = value.as<capnp::DynamicEnum>();
      KJ_IF_MAYBE (enumerant, e.getEnumerant()) {
        append_string(out, enumerant->getProto().getName());
      } else {
        append_integer(out, e.getRaw());
      }
      return;
    }
    case capnp::schema::Type::STRUCT:
      append_struct(out, value.as<capnp::DynamicStruct>());
      return;
    case capnp::schema::Type::INTERFACE:
    case capnp::schema::Type::ANY_POINTER:
      KJ_FAIL_REQUIRE("a record body holds no capabilities or AnyPointer fields");
  }
  KJ_FAIL_REQUIRE("unknown Cap'n Proto type", static_cast<uint>(type.which()));
}

}  // namespace

void append_capnp_json(std::string& out, capnp::DynamicStruct::Reader value) {
  append_struct(out, value);
}

}  // namespace koordq::journal
