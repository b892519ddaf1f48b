// Internal to koordq_json: the decoders of each watched kind's fields (behaviour.md §2.2–§2.4).
// Metadata is decoded first and separately, so that errors can name the object.
#pragma once

#include "schema/elastic_quota.hpp"
#include "schema/json_decode_context.hpp"
#include "schema/object_meta.hpp"
#include "schema/queue.hpp"
#include "schema/queue_unit.hpp"

namespace koordq::schema::json_detail {

// Every field of ObjectMeta; whether name and uid are required is the caller's decision.
bool decode_object_meta(DecodeContext& ctx, const JsonPath& at, element value, ObjectMeta& out);

// `spec` and `status` of an object whose metadata is already decoded; other members are ignored.
bool decode_content(DecodeContext& ctx, const JsonPath& root, simdjson::dom::object object, QueueUnit& out);
bool decode_content(DecodeContext& ctx, const JsonPath& root, simdjson::dom::object object, Queue& out);
bool decode_content(DecodeContext& ctx, const JsonPath& root, simdjson::dom::object object, ElasticQuota& out);

}  // namespace koordq::schema::json_detail
