// What the JSON decoder's tests share: a QueueUnit document from its spec, status and metadata,
// and the decoder's answer to a document as the unit it decodes to or the error it gives.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "schema/json_decode.hpp"

namespace koordq::schema::decode_fixture {

using base::kSecond;
// 2026-04-20T08:00:00Z
inline constexpr int64_t kApril20 = 1776672000 * kSecond;

inline std::string unit_json(const std::string& spec, const std::string& status = "{}",
                             const std::string& metadata = R"({"name":"job","namespace":"team-a","uid":"u1"})") {
  return R"({"apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"QueueUnit","metadata":)" + metadata + R"(,"spec":)" +
         spec + R"(,"status":)" + status + "}";
}

inline QueueUnit decode_unit(const std::string& json, std::vector<std::string>* warnings = nullptr) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(json, RawObjectMode::kOff);
  EXPECT_TRUE(decoded.ok()) << decoded.message();
  if (!decoded.ok()) return {};
  if (warnings != nullptr) *warnings = decoded->warnings;
  return std::get<QueueUnit>(decoded->object);
}

inline std::string decode_error(const std::string& json) {
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(json, RawObjectMode::kOff);
  EXPECT_FALSE(decoded.ok());
  return decoded.ok() ? std::string() : decoded.message();
}

}  // namespace koordq::schema::decode_fixture
