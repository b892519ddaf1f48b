// The Cap'n Proto schema version this binary writes (record.capnp schemaMajor/schemaMinor),
// without pulling in Cap'n Proto. A journal of a newer minor version is read; of a newer major
// version refused (design.md §2, Schema evolution).
#pragma once

#include <cstdint>

namespace koordq::schema {

inline constexpr uint16_t kWireSchemaMajor = 1;
inline constexpr uint16_t kWireSchemaMinor = 0;

}  // namespace koordq::schema
