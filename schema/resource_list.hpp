// ResourceList (quantities exactly as received, keyed by resource name, bytewise order)
// and ResourceVector (internal integers, behaviour.md §3.3).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "schema/flat_map.hpp"

namespace koordq::schema {

// Resource name → quantity text as the API server sent it. Rendered back unchanged (§3.2).
using ResourceList = FlatMap<std::string, std::string>;

// Resource name → internal integer (cpu in millicores). Entries equal to 0 are absent.
using ResourceVector = FlatMap<std::string, int64_t>;

// Converts every entry that parses (§3.1); entries that do not parse are left out
// (the caller logs them at --v=2) and reported in `unparsable` when it is given.
ResourceVector to_vector(const ResourceList& list, std::map<std::string, std::string>* unparsable = nullptr);

// Saturating per-resource arithmetic; results equal to 0 are dropped.
void add_to(ResourceVector& into, const ResourceVector& other);
void subtract_from(ResourceVector& from, const ResourceVector& other);  // floors at 0
ResourceVector scaled(const ResourceVector& per_replica, int64_t replicas);

}  // namespace koordq::schema
