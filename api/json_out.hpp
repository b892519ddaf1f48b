// The JSON writer of the API renderings: keys in the order written, compact (visibility API,
// through CompactJson) or indented with one tab per level (debug API, behaviour.md §17.1, through
// RapidJSON's PrettyWriter).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "api/compact_json.hpp"
#include "schema/resource_list.hpp"

namespace koordq::api {

class JsonOut {
 public:
  explicit JsonOut(bool indented = false) {
    if (indented) {
      pretty_ = std::make_unique<Pretty>();
      pretty_->writer.SetIndent('\t', 1);
    }
  }

  JsonOut& key(std::string_view k) {
    if (pretty_) {
      pretty_->writer.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
    } else {
      compact_.key(k);
    }
    return *this;
  }
  JsonOut& string(std::string_view v) {
    if (pretty_) {
      pretty_->writer.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    } else {
      compact_.string(v);
    }
    return *this;
  }
  JsonOut& integer(int64_t v) {
    if (pretty_) {
      pretty_->writer.Int64(v);
    } else {
      compact_.integer(v);
    }
    return *this;
  }
  JsonOut& boolean(bool v) {
    if (pretty_) {
      pretty_->writer.Bool(v);
    } else {
      compact_.boolean(v);
    }
    return *this;
  }
  JsonOut& null() {
    if (pretty_) {
      pretty_->writer.Null();
    } else {
      compact_.null();
    }
    return *this;
  }
  JsonOut& begin_object() {
    if (pretty_) {
      pretty_->writer.StartObject();
    } else {
      compact_.begin_object();
    }
    return *this;
  }
  JsonOut& end_object() {
    if (pretty_) {
      pretty_->writer.EndObject();
    } else {
      compact_.end_object();
    }
    return *this;
  }
  JsonOut& begin_array() {
    if (pretty_) {
      pretty_->writer.StartArray();
    } else {
      compact_.begin_array();
    }
    return *this;
  }
  JsonOut& end_array() {
    if (pretty_) {
      pretty_->writer.EndArray();
    } else {
      compact_.end_array();
    }
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

  // The compact text's expected size (the indented writer ignores it).
  void reserve(size_t bytes) { compact_.reserve(bytes); }
  std::string take() {
    if (pretty_) return std::string(pretty_->buffer.GetString(), pretty_->buffer.GetSize());
    return compact_.take();
  }

 private:
  struct Pretty {
    rapidjson::StringBuffer buffer;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> writer{buffer};
  };

  CompactJson compact_;
  std::unique_ptr<Pretty> pretty_;
};

}  // namespace koordq::api
