#include "cmd/at_yaml.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <yaml-cpp/yaml.h>

namespace koordq::cmd {
namespace {

// A plain scalar starting with one of these is a number, a time, an indicator, or needs care.
constexpr std::string_view kQuotedFirst = "0123456789-+.~!&*?|>'\"%@`#,[]{}:= ";

// YAML 1.1 booleans and nulls, which some readers still resolve.
constexpr std::array<std::string_view, 13> kKeywords = {"true", "false", "yes", "no",  "y",    "n",    "on",
                                                        "off",  "null",  "~",   "nan", ".inf", "-.inf"};

bool needs_quotes(std::string_view s) {
  if (s.empty() || kQuotedFirst.find(s.front()) != std::string_view::npos || s.back() == ' ') return true;
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::find(kKeywords.begin(), kKeywords.end(), lower) != kKeywords.end();
}

void emit_string(YAML::Emitter& out, std::string_view s) {
  if (needs_quotes(s)) out << YAML::DoubleQuoted;
  out << std::string(s);
}

// Numbers keep their JSON spelling.
std::string number_text(const rapidjson::Value& v) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  v.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

void emit(YAML::Emitter& out, const rapidjson::Value& v) {
  // Empty collections stay on their key's line: `items: []`, `min: {}`.
  if (v.IsObject() && v.MemberCount() == 0) {
    out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
  } else if (v.IsArray() && v.Empty()) {
    out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
  } else if (v.IsObject()) {
    out << YAML::BeginMap;
    for (const auto& member : v.GetObject()) {
      out << YAML::Key;
      emit_string(out, std::string_view(member.name.GetString(), member.name.GetStringLength()));
      out << YAML::Value;
      emit(out, member.value);
    }
    out << YAML::EndMap;
  } else if (v.IsArray()) {
    out << YAML::BeginSeq;
    for (const auto& element : v.GetArray()) emit(out, element);
    out << YAML::EndSeq;
  } else if (v.IsString()) {
    emit_string(out, std::string_view(v.GetString(), v.GetStringLength()));
  } else if (v.IsBool()) {
    out << v.GetBool();
  } else if (v.IsNull()) {
    out << YAML::Null;
  } else if (v.IsInt64()) {
    out << v.GetInt64();
  } else if (v.IsUint64()) {
    out << v.GetUint64();
  } else {
    out << number_text(v);
  }
}

}  // namespace

std::optional<std::string> json_to_yaml(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json.data(), json.size());
  if (doc.HasParseError()) return std::nullopt;
  YAML::Emitter out;
  out.SetNullFormat(YAML::LowerNull);
  out.SetIndent(2);
  out.SetSeqFormat(YAML::Block);
  out.SetMapFormat(YAML::Block);
  emit(out, doc);
  if (!out.good()) return std::nullopt;
  std::string text(out.c_str(), out.size());
  text += '\n';
  return text;
}

}  // namespace koordq::cmd
