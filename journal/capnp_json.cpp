#include "journal/capnp_json.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include <capnp/dynamic.h>
#include <kj/debug.h>

#include "base/hex.hpp"

namespace koordq::journal {

// Cap'n Proto's wire format is little-endian; values are read from the data section as they lie.
static_assert(std::endian::native == std::endian::little);

using Which = capnp::schema::Type::Which;

namespace capnp_json {

struct TypePlan {
  Which which = Which::VOID;
  const StructPlan* structure = nullptr;                 // STRUCT
  const std::vector<std::string>* enumerants = nullptr;  // ENUM: each name as a JSON string
  std::unique_ptr<TypePlan> element;                     // LIST
  std::optional<capnp::ListSchema> list;                 // LIST: read through it, which checks the encoding
};

struct MemberPlan {
  std::string key;  // "name":
  uint index = 0;   // in code order, as StructSchema::Field::getIndex()
  uint16_t discriminant = 0;
  const StructPlan* group = nullptr;  // a group: its members, in the same struct
  TypePlan type;
  uint32_t offset = 0;        // the slot's offset: in bits, bytes, … by the type's size; pointer index
  uint64_t default_bits = 0;  // a primitive is stored XORed with its default
};

struct StructPlan {
  bool has_union = false;
  uint32_t discriminant_offset = 0;  // in 16-bit units
  std::vector<MemberPlan> members;   // the non-union fields, in getNonUnionFields() order
  std::vector<MemberPlan> union_members;
};

}  // namespace capnp_json

namespace {

using capnp_json::MemberPlan;
using capnp_json::StructPlan;
using capnp_json::TypePlan;

bool is_pointer(Which which) {
  switch (which) {
    case Which::TEXT:
    case Which::DATA:
    case Which::LIST:
    case Which::STRUCT:
    case Which::INTERFACE:
    case Which::ANY_POINTER:
      return true;
    default:
      return false;
  }
}

// JsonCodec's string escaping: '"' and '\\' escaped, the C escapes for \b \f \n \r \t, \u00XX
// for the other control characters, every other byte ('/', DEL, UTF-8 or not) as it is.
void append_string(std::string& out, kj::ArrayPtr<const char> text) {
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

std::string json_string(kj::StringPtr text) {
  std::string out;
  append_string(out, text);
  return out;
}

template <class Int>
void append_integer(std::string& out, Int value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
  out.append(digits, end);
}

void append_hex(std::string& out, capnp::Data::Reader bytes) {
  out.push_back('"');
  base::append_hex(out, std::string_view(reinterpret_cast<const char*>(bytes.begin()), bytes.size()));
  out.push_back('"');
}

void append_double(std::string& out, double d) {
  if (std::isinf(d) || std::isnan(d)) {
    out.append("null");  // as JsonCodec: JSON has no such numbers
    return;
  }
  const kj::String text = kj::str(d);  // kj's rendering of a double, as JsonCodec's
  out.append(text.cStr(), text.size());
}

void append_enum(std::string& out, const TypePlan& type, uint16_t raw) {
  if (raw < type.enumerants->size()) {
    out.append((*type.enumerants)[raw]);
  } else {
    append_integer(out, raw);  // an enumerant this schema does not know
  }
}

template <class T>
T data_field(capnp::Data::Reader data, size_t byte_offset, uint64_t default_bits) {
  using Bits = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  Bits bits = 0;
  if (byte_offset + sizeof(T) <= data.size()) std::memcpy(&bits, data.begin() + byte_offset, sizeof(T));
  bits ^= static_cast<Bits>(default_bits);
  return std::bit_cast<T>(bits);
}

}  // namespace

struct capnp_json::Plans {
  std::unordered_map<uint64_t, std::unique_ptr<StructPlan>> structs;
  std::deque<std::vector<std::string>> enums;

  const StructPlan* plan(capnp::StructSchema schema) {
    auto& slot = structs[schema.getProto().getId()];
    if (slot) return slot.get();
    slot = std::make_unique<StructPlan>();
    StructPlan* p = slot.get();  // filled after it is findable, for a struct that holds itself
    const auto node = schema.getProto().getStruct();
    p->has_union = node.getDiscriminantCount() > 0;
    p->discriminant_offset = node.getDiscriminantOffset();
    for (const auto field : schema.getNonUnionFields()) p->members.push_back(member(field));
    for (const auto field : schema.getUnionFields()) p->union_members.push_back(member(field));
    return p;
  }

  TypePlan type_plan(capnp::Type type) {
    TypePlan t;
    t.which = type.which();
    switch (t.which) {
      case Which::STRUCT:
        t.structure = plan(type.asStruct());
        break;
      case Which::ENUM: {
        auto& names = enums.emplace_back();
        for (const auto e : type.asEnum().getEnumerants()) names.push_back(json_string(e.getProto().getName()));
        t.enumerants = &names;
        break;
      }
      case Which::LIST:
        t.element = std::make_unique<TypePlan>(type_plan(type.asList().getElementType()));
        t.list = type.asList();
        break;
      default:
        break;
    }
    return t;
  }

  MemberPlan member(capnp::StructSchema::Field field) {
    MemberPlan m;
    const auto proto = field.getProto();
    m.key = json_string(proto.getName()) + ":";
    m.index = field.getIndex();
    m.discriminant = proto.getDiscriminantValue();
    if (proto.isGroup()) {
      m.group = plan(field.getType().asStruct());
      return m;
    }
    const auto slot = proto.getSlot();
    m.type = type_plan(field.getType());
    m.offset = slot.getOffset();
    const auto d = slot.getDefaultValue();
    switch (m.type.which) {
      case Which::BOOL:
        m.default_bits = d.getBool();
        break;
      case Which::INT8:
        m.default_bits = std::bit_cast<uint8_t>(d.getInt8());
        break;
      case Which::INT16:
        m.default_bits = std::bit_cast<uint16_t>(d.getInt16());
        break;
      case Which::INT32:
        m.default_bits = std::bit_cast<uint32_t>(d.getInt32());
        break;
      case Which::INT64:
        m.default_bits = std::bit_cast<uint64_t>(d.getInt64());
        break;
      case Which::UINT8:
        m.default_bits = d.getUint8();
        break;
      case Which::UINT16:
        m.default_bits = d.getUint16();
        break;
      case Which::UINT32:
        m.default_bits = d.getUint32();
        break;
      case Which::UINT64:
        m.default_bits = d.getUint64();
        break;
      case Which::FLOAT32:
        m.default_bits = std::bit_cast<uint32_t>(d.getFloat32());
        break;
      case Which::FLOAT64:
        m.default_bits = std::bit_cast<uint64_t>(d.getFloat64());
        break;
      case Which::ENUM:
        m.default_bits = d.getEnum();
        break;
      default:
        break;
    }
    return m;
  }
};

namespace {

void append_struct(std::string& out, const StructPlan& plan, capnp::AnyStruct::Reader s);

// `list` is the plan of the list type; its elements are read as JsonCodec reads them.
void append_list(std::string& out, const TypePlan& list, capnp::AnyPointer::Reader pointer) {
  const TypePlan& element = *list.element;
  out.push_back('[');
  auto each = [&](auto list, auto&& write) {
    for (uint i = 0; i < list.size(); ++i) {
      if (i > 0) out.push_back(',');
      write(list[i]);
    }
  };
  switch (element.which) {
    case Which::VOID:
      each(pointer.getAs<capnp::List<capnp::Void>>(), [&](capnp::Void) { out.append("null"); });
      break;
    case Which::BOOL:
      each(pointer.getAs<capnp::List<bool>>(), [&](bool b) { out.append(b ? "true" : "false"); });
      break;
    case Which::INT8:
      each(pointer.getAs<capnp::List<int8_t>>(), [&](int8_t v) { append_integer(out, v); });
      break;
    case Which::INT16:
      each(pointer.getAs<capnp::List<int16_t>>(), [&](int16_t v) { append_integer(out, v); });
      break;
    case Which::INT32:
      each(pointer.getAs<capnp::List<int32_t>>(), [&](int32_t v) { append_integer(out, v); });
      break;
    case Which::UINT8:
      each(pointer.getAs<capnp::List<uint8_t>>(), [&](uint8_t v) { append_integer(out, v); });
      break;
    case Which::UINT16:
      each(pointer.getAs<capnp::List<uint16_t>>(), [&](uint16_t v) { append_integer(out, v); });
      break;
    case Which::UINT32:
      each(pointer.getAs<capnp::List<uint32_t>>(), [&](uint32_t v) { append_integer(out, v); });
      break;
    case Which::INT64:
      each(pointer.getAs<capnp::List<int64_t>>(), [&](int64_t v) {
        out.push_back('"');
        append_integer(out, v);
        out.push_back('"');
      });
      break;
    case Which::UINT64:
      each(pointer.getAs<capnp::List<uint64_t>>(), [&](uint64_t v) {
        out.push_back('"');
        append_integer(out, v);
        out.push_back('"');
      });
      break;
    case Which::FLOAT32:
      each(pointer.getAs<capnp::List<float>>(), [&](float v) { append_double(out, v); });
      break;
    case Which::FLOAT64:
      each(pointer.getAs<capnp::List<double>>(), [&](double v) { append_double(out, v); });
      break;
    case Which::TEXT:
      each(pointer.getAs<capnp::List<capnp::Text>>(), [&](capnp::Text::Reader t) { append_string(out, t); });
      break;
    case Which::DATA:
      each(pointer.getAs<capnp::List<capnp::Data>>(), [&](capnp::Data::Reader d) { append_hex(out, d); });
      break;
    case Which::ENUM:
      each(pointer.getAs<capnp::List<uint16_t>>(), [&](uint16_t raw) { append_enum(out, element, raw); });
      break;
    case Which::STRUCT:
      each(pointer.getAs<capnp::DynamicList>(*list.list).as<capnp::AnyList>().as<capnp::List<capnp::AnyStruct>>(),
           [&](capnp::AnyStruct::Reader s) { append_struct(out, *element.structure, s); });
      break;
    case Which::LIST:
      each(pointer.getAs<capnp::DynamicList>(*list.list).as<capnp::AnyList>().as<capnp::List<capnp::AnyPointer>>(),
           [&](capnp::AnyPointer::Reader p) { append_list(out, element, p); });
      break;
    case Which::INTERFACE:
    case Which::ANY_POINTER:
      if (pointer.getAs<capnp::DynamicList>(*list.list).size() > 0) {
        KJ_FAIL_REQUIRE("don't know how to JSON-encode capabilities or AnyPointer");
      }
      break;
  }
  out.push_back(']');
}

capnp::AnyPointer::Reader pointer_field(capnp::AnyStruct::Reader s, uint32_t index) {
  const auto pointers = s.getPointerSection();
  return index < pointers.size() ? pointers[index] : capnp::AnyPointer::Reader();
}

// JsonCodec's has(): a pointer when it is not null; everything else always.
bool has(const MemberPlan& m, capnp::AnyStruct::Reader s) {
  return m.group != nullptr || !is_pointer(m.type.which) || !pointer_field(s, m.offset).isNull();
}

void append_value(std::string& out, const MemberPlan& m, capnp::AnyStruct::Reader s) {
  if (m.group != nullptr) {
    append_struct(out, *m.group, s);
    return;
  }
  const capnp::Data::Reader data = s.getDataSection();
  switch (m.type.which) {
    case Which::VOID:
      out.append("null");
      return;
    case Which::BOOL: {
      const size_t byte = m.offset / 8;
      const bool stored = byte < data.size() && ((data[byte] >> (m.offset % 8)) & 1) != 0;
      out.append(stored != (m.default_bits != 0) ? "true" : "false");
      return;
    }
    case Which::INT8:
      append_integer(out, data_field<int8_t>(data, m.offset, m.default_bits));
      return;
    case Which::INT16:
      append_integer(out, data_field<int16_t>(data, m.offset * 2, m.default_bits));
      return;
    case Which::INT32:
      append_integer(out, data_field<int32_t>(data, m.offset * 4, m.default_bits));
      return;
    case Which::UINT8:
      append_integer(out, data_field<uint8_t>(data, m.offset, m.default_bits));
      return;
    case Which::UINT16:
      append_integer(out, data_field<uint16_t>(data, m.offset * 2, m.default_bits));
      return;
    case Which::UINT32:
      append_integer(out, data_field<uint32_t>(data, m.offset * 4, m.default_bits));
      return;
    case Which::INT64:
      out.push_back('"');
      append_integer(out, data_field<int64_t>(data, m.offset * 8, m.default_bits));
      out.push_back('"');
      return;
    case Which::UINT64:
      out.push_back('"');
      append_integer(out, data_field<uint64_t>(data, m.offset * 8, m.default_bits));
      out.push_back('"');
      return;
    case Which::FLOAT32:
      append_double(out, data_field<float>(data, m.offset * 4, m.default_bits));
      return;
    case Which::FLOAT64:
      append_double(out, data_field<double>(data, m.offset * 8, m.default_bits));
      return;
    case Which::ENUM:
      append_enum(out, m.type, data_field<uint16_t>(data, m.offset * 2, m.default_bits));
      return;
    case Which::TEXT:
      append_string(out, pointer_field(s, m.offset).getAs<capnp::Text>());
      return;
    case Which::DATA:
      append_hex(out, pointer_field(s, m.offset).getAs<capnp::Data>());
      return;
    case Which::LIST:
      append_list(out, m.type, pointer_field(s, m.offset));
      return;
    case Which::STRUCT:
      append_struct(out, *m.type.structure, pointer_field(s, m.offset).getAs<capnp::AnyStruct>());
      return;
    case Which::INTERFACE:
    case Which::ANY_POINTER:
      KJ_FAIL_REQUIRE("don't know how to JSON-encode capabilities or AnyPointer");
  }
  KJ_FAIL_REQUIRE("unknown Cap'n Proto type", static_cast<uint>(m.type.which));
}

void append_member(std::string& out, bool& first, const MemberPlan& m, capnp::AnyStruct::Reader s, bool null) {
  if (!first) out.push_back(',');
  first = false;
  out.append(m.key);
  if (null) {
    out.append("null");
  } else {
    append_value(out, m, s);
  }
}

// JsonCodec's order: the non-union fields that are set (every primitive, the non-null pointers),
// with the active union member among them in code order. A union member that is a null pointer is
// written as null, unless it is the union's default member, which is then left out.
void append_struct(std::string& out, const StructPlan& plan, capnp::AnyStruct::Reader s) {
  const MemberPlan* active = nullptr;
  bool active_null = false;
  if (plan.has_union) {
    const uint16_t discriminant = data_field<uint16_t>(s.getDataSection(), plan.discriminant_offset * 2, 0);
    for (const auto& m : plan.union_members) {
      if (m.discriminant == discriminant) active = &m;
    }
    if (active != nullptr) {
      active_null = !has(*active, s);
      if (active->discriminant == 0 && active_null) active = nullptr;
    }
  }
  out.push_back('{');
  bool first = true;
  for (const auto& m : plan.members) {
    if (active != nullptr && active->index < m.index) {
      append_member(out, first, *active, s, active_null);
      active = nullptr;
    }
    if (has(m, s)) append_member(out, first, m, s, false);
  }
  if (active != nullptr) append_member(out, first, *active, s, active_null);
  out.push_back('}');
}

}  // namespace

CapnpJsonWriter::CapnpJsonWriter(capnp::StructSchema schema) : plans_(std::make_unique<capnp_json::Plans>()) {
  root_ = plans_->plan(schema);
}

CapnpJsonWriter::~CapnpJsonWriter() = default;

void CapnpJsonWriter::append(std::string& out, capnp::AnyStruct::Reader value) const {
  append_struct(out, *root_, value);
}

}  // namespace koordq::journal
