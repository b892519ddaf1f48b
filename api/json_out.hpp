// A thin JSON writer over RapidJSON for the API renderings: keys in the order written, compact
// (visibility API) or indented with one tab per level (debug API, behaviour.md §17.1).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "schema/resource_list.hpp"

namespace koordq::api {

class JsonOut {
 public:
  explicit JsonOut(bool indented = false) {
    if (indented) {
      pretty_ = std::make_unique<rapidjson::PrettyWriter<rapidjson::StringBuffer>>(buffer_);
      pretty_->SetIndent('\t', 1);
    } else {
      compact_ = std::make_unique<rapidjson::Writer<rapidjson::StringBuffer>>(buffer_);
    }
  }

  JsonOut& key(std::string_view k) {
    call([&](auto& w) { w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); });
    return *this;
  }
  JsonOut& string(std::string_view v) {
    call([&](auto& w) { w.String(v.data(), static_cast<rapidjson::SizeType>(v.size())); });
    return *this;
  }
  JsonOut& integer(int64_t v) {
    call([&](auto& w) { w.Int64(v); });
    return *this;
  }
  JsonOut& boolean(bool v) {
    call([&](auto& w) { w.Bool(v); });
    return *this;
  }
  JsonOut& null() {
    call([&](auto& w) { w.Null(); });
    return *this;
  }
  JsonOut& begin_object() {
    call([&](auto& w) { w.StartObject(); });
    return *this;
  }
  JsonOut& end_object() {
    call([&](auto& w) { w.EndObject(); });
    return *this;
  }
  JsonOut& begin_array() {
    call([&](auto& w) { w.StartArray(); });
    return *this;
  }
  JsonOut& end_array() {
    call([&](auto& w) { w.EndArray(); });
    return *this;
  }

  JsonOut& field(std::string_view k, std::string_view v) { return key(k).string(v); }
  JsonOut& field(std::string_view k, const char* v) { return key(k).string(v); }
  JsonOut& field(std::string_view k, int64_t v) { return key(k).integer(v); }
  JsonOut& field(std::string_view k, bool v) { return key(k).boolean(v); }

  // Quantities as received: {"cpu": "4", …}.
  JsonOut& resource_list(const schema::ResourceList& list) {
    begin_object();
    for (const auto& [name, quantity] : list) field(name, quantity);
    return end_object();
  }
  // Internal integers: {"cpu": 4000, …} (§17.2).
  JsonOut& resource_vector(const schema::ResourceVector& vector) {
    begin_object();
    for (const auto& [name, amount] : vector) field(name, amount);
    return end_object();
  }
  // Internal integers rendered as quantities (§3.2): {"cpu": "4500m", …}.
  JsonOut& rendered_vector(const schema::ResourceVector& vector);

  std::string take() { return std::string(buffer_.GetString(), buffer_.GetSize()); }

 private:
  template <class F>
  void call(F&& f) {
    if (pretty_) {
      f(*pretty_);
    } else {
      f(*compact_);
    }
  }

  rapidjson::StringBuffer buffer_;
  std::unique_ptr<rapidjson::Writer<rapidjson::StringBuffer>> compact_;
  std::unique_ptr<rapidjson::PrettyWriter<rapidjson::StringBuffer>> pretty_;
};

}  // namespace koordq::api
